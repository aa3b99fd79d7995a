package stream

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"

	"github.com/gcfkit/gcf/lexer"
)

// Keyed sets and generic deltas (SPEC §10a). A generic payload whose
// header names key=K is delta-participating: each of its top-level tables
// (the root array, or a table member of the root object) marks the field K
// with `@` in its declaration, and its rows hold unique, non-null scalar
// identities. A generic payload with delta=true is a delta: it needs
// base_root, new_root and key, and its body holds only `## added`,
// `## changed` and `## removed` tables, with the same fields in added and
// changed and only `{@K}` in removed, and no identity twice in the whole
// delta. Every violation is malformed_delta, but a repeated identity,
// which is duplicate_key, like a repeated key of a keyed map.

type section uint8

const (
	sectNone section = iota
	sectAdded
	sectChanged
	sectRemoved
)

type keyedState struct {
	key     []byte // the header's key= value, or nil
	delta   bool   // a generic delta=true payload
	section section
	seen    [4]bool
	fields  [][]byte // the fields of the first added/changed section
	ids     keySet
	idBuf   []byte
}

func (k *keyedState) reset() {
	k.key = k.key[:0]
	k.key = nil
	k.delta = false
	k.section = sectNone
	k.seen = [4]bool{}
	k.fields = k.fields[:0]
	k.ids.reset()
}

// keyedHeader reads the generic header fields of SPEC §10a.
func (d *Decoder) keyedHeader() error {
	var baseRoot, newRoot bool
	for i, k := range d.hdrKeys {
		v := d.cells[i].Bytes
		switch string(k) {
		case "key":
			d.k.key = append([]byte{}, v...)
		case "delta":
			d.k.delta = string(v) == "true"
		case "base_root":
			baseRoot = true
		case "new_root":
			newRoot = true
		}
	}
	if !d.k.delta {
		return nil
	}
	var missing string
	switch {
	case d.k.key == nil:
		missing = "key"
	case !baseRoot:
		missing = "base_root"
	case !newRoot:
		missing = "new_root"
	}
	if missing != "" {
		return d.errAt(1, lexer.MalformedDelta, "a generic delta header needs "+missing+"= (SPEC §10a.2)")
	}
	return nil
}

// deltaSection checks the name of a root member of a generic delta.
func (d *Decoder) deltaSection(name []byte, pos int) error {
	switch string(name) {
	case "added":
		d.k.section = sectAdded
	case "changed":
		d.k.section = sectChanged
	case "removed":
		d.k.section = sectRemoved
	default:
		return d.bodyErr(3, lexer.MalformedDelta, "unknown generic delta section "+lexer.Quote(name)+
			" (SPEC §10a.2: added, changed, removed)")
	}
	if pos == len(d.body) {
		return d.bodyErr(pos, lexer.MalformedDelta, "a delta section is a table [N]{fields} (SPEC §10a.2)")
	}
	return nil
}

// identityDecl checks the declaration names of a table of the keyed set;
// id is the index of the `@` field or -1.
func (d *Decoder) identityDecl(f *frame, names [][]byte, p, id, idAt int, sect section) error {
	if id < 0 {
		return d.bodyErr(p, lexer.MalformedDelta, "the table declares no @ identity field; the header names key="+
			lexer.Excerpt(d.k.key)+" (SPEC §10a.1)")
	}
	if !bytes.Equal(names[id], d.k.key) {
		return d.bodyErr(idAt, lexer.MalformedDelta, "the @ identity field "+lexer.Quote(names[id])+
			" is not the header's key="+lexer.Excerpt(d.k.key)+" (SPEC §10a.1)")
	}
	switch sect {
	case sectRemoved:
		if len(names) != 1 {
			return d.bodyErr(p, lexer.MalformedDelta, "## removed declares only the identity field {@"+lexer.Excerpt(d.k.key)+"} (SPEC §10a.2)")
		}
	case sectAdded, sectChanged:
		if d.k.seen[sectAdded] || d.k.seen[sectChanged] {
			if !sameFieldSet(d.k.fields, names) {
				return d.bodyErr(p, lexer.MalformedDelta, "## added and ## changed declare different fields (SPEC §10a.2: full rows of one schema)")
			}
		} else {
			d.k.fields = d.k.fields[:0]
			for _, n := range names {
				d.k.fields = append(d.k.fields, append([]byte(nil), n...))
			}
		}
	case sectNone:
		d.k.ids.reset() // identities are unique per table of a full payload
	}
	d.k.seen[sect] = true
	f.idCol = id
	return nil
}

func sameFieldSet(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range b {
		found := false
		for _, y := range a {
			if bytes.Equal(x, y) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// keyedRow checks a row of a keyed set: scalar cells only (SPEC §10a.3
// hashes scalars; a missing cell or an attachment has no canonical form),
// and an identity that is a non-null scalar not seen before in the table
// (full payload) or the delta.
func (d *Decoder) keyedRow(f *frame) error {
	for j := range d.cells {
		switch c := &d.cells[j]; c.Kind {
		case lexer.KindMissing, lexer.KindAttach, lexer.KindAttachSchema:
			return d.bodyErr(c.Col-1, lexer.MalformedDelta, "a keyed-set row holds scalars only, not "+c.Kind.String()+
				" (field "+lexer.Quote(f.fields[j])+"; SPEC §10a.3)")
		}
	}
	c := &d.cells[f.idCol]
	switch c.Kind {
	case lexer.KindNull, lexer.KindMissing, lexer.KindAttach, lexer.KindAttachSchema:
		return d.bodyErr(c.Col-1, lexer.MalformedDelta, "an identity must be a non-null scalar, not "+c.Kind.String()+" (SPEC §10a.1)")
	}
	d.k.idBuf = AppendIdentity(d.k.idBuf[:0], c)
	if !d.k.ids.add(d.k.idBuf) {
		what := "table"
		if d.k.delta {
			what = "delta"
		}
		return d.bodyErr(c.Col-1, lexer.DuplicateKey, "identity "+lexer.Quote(c.Bytes)+" appears twice in the "+what+" (SPEC §10a.1)")
	}
	return nil
}

// AppendIdentity appends a comparison key of an identity scalar: two
// scalars get the same key exactly when they denote the same value (the
// number 1001 and 1001.0 do; the string "1001" does not).
func AppendIdentity(dst []byte, c *lexer.Scalar) []byte {
	switch c.Kind {
	case lexer.KindInt:
		return strconv.AppendInt(append(dst, 'n'), c.Int, 10)
	case lexer.KindFloat:
		f, err := lexer.ParseFloat(c.Bytes)
		if err == nil && f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return strconv.AppendInt(append(dst, 'n'), int64(f), 10)
		}
		return binary.BigEndian.AppendUint64(append(dst, 'f'), math.Float64bits(f))
	case lexer.KindBool:
		return strconv.AppendBool(append(dst, 'b'), c.Bool)
	case lexer.KindNull:
		return append(dst, 'z')
	}
	return append(append(dst, 's'), c.Bytes...)
}
