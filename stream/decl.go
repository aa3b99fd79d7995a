package stream

// Field declarations: the parsing and checks of a table's declaration
// (fieldDecl), value groups (groupDecl), '>' path columns and shared array
// schemas (SPEC §7.4).

import (
	"bytes"
	"strconv"

	"github.com/gcfkit/gcf/lexer"
)

func (f *frame) addField(name []byte) {
	f.fieldData = append(f.fieldData, name...)
	f.fieldEnds = append(f.fieldEnds, len(f.fieldData))
}

// fieldDecl parses the declaration at body[p] into f's own storage, and
// the group clause ` group=col` (v3.6.0 §7.4.8) after it. It returns the
// index just past what it read. Every header check is made here, before
// any row is read.
func (d *Decoder) fieldDecl(f *frame, p int, top bool, sect section, count int64) (int, error) {
	b := d.body
	mark := len(d.scratch)
	end, ents, lerr := lexer.ScanDeclEntries(b, p, &d.scratch, d.ents[:0])
	d.ents = ents[:0]
	if lerr != nil {
		return 0, d.wrap(lerr, 2*d.level)
	}
	var groupName []byte
	if startsWith(b[end:], " group=") {
		name, e, lerr := lexer.ScanKey(b, end+7, &d.scratch)
		if lerr != nil || e != len(b) {
			return 0, d.bodyErr(end+1, lexer.InvalidGroupHeader, "expected group=<column> at the end of the table header (SPEC §7.4.8)")
		}
		groupName, end = name, e
	}
	grouped := groupName != nil
	// @ key marks: one per keyed-set table (SPEC §10a.1) or grouped table
	// (§7.4.8.1), none elsewhere.
	id, idAt := -1, 0
	for i := range ents {
		if !ents[i].ID {
			continue
		}
		switch {
		case grouped && id >= 0:
			return 0, d.bodyErr(ents[i].At, lexer.InvalidGroupHeader, "a second @ key column; a grouped table has exactly one (SPEC §7.4.8.1)")
		case grouped:
		case !top:
			return 0, d.bodyErr(ents[i].At, lexer.InvalidLine, "expected a field name in the declaration")
		case id >= 0:
			return 0, d.bodyErr(ents[i].At, lexer.MalformedDelta, "a second @ identity field; a keyed set has exactly one (SPEC §10a.1)")
		}
		id, idAt = i, ents[i].At
	}
	if len(ents) > d.limits.MaxFields {
		return 0, d.bodyErr(p, lexer.TooManyFields, "field declaration exceeds the limit of "+strconv.Itoa(d.limits.MaxFields)+" fields")
	}
	names := d.hdrKeys[:0]
	for i := range ents {
		names = append(names, ents[i].Name)
	}
	d.hdrKeys = names[:0]
	dup := func(i int) error {
		return d.bodyErr(ents[i].At, lexer.DuplicateFieldName, "duplicate field name "+lexer.Quote(names[i]))
	}
	for i, n := range names {
		for _, m := range names[:i] {
			if bytes.Equal(n, m) {
				return 0, dup(i)
			}
		}
		if i > 64 {
			break // large declarations are checked below with a map
		}
	}
	if len(names) > 64 {
		seen := make(map[string]struct{}, len(names))
		for i, n := range names {
			if _, ok := seen[string(n)]; ok {
				return 0, dup(i)
			}
			seen[string(n)] = struct{}{}
		}
	}
	from := 0
	if f.keyed {
		from = 1 // the key-column label is discarded, so it cannot collide
	}
	if i, err := pathConflict(names[from:]); err != "" {
		return 0, d.bodyErr(ents[from+i].At, lexer.DuplicateKey, err)
	}
	bare := 0
	for i := range ents {
		if !ents[i].Const {
			bare++
		}
	}
	if bare == 0 {
		return 0, d.bodyErr(p, lexer.NoBareColumn, "every field of the declaration is a constant; at least one must be a row column (SPEC §7.4.7)")
	}
	if f.keyed && ents[0].Const {
		return 0, d.bodyErr(ents[0].At, lexer.InvalidKeyedMap, "the key column of a keyed map cannot be a constant")
	}
	group := -1
	if grouped {
		var err error
		if group, err = d.groupDecl(f, ents, groupName, id, p, end, count); err != nil {
			return 0, err
		}
	}
	if top {
		if err := d.identityDecl(f, names, p, id, idAt, sect); err != nil {
			return 0, err
		}
		if id >= 0 && ents[id].Const {
			return 0, d.bodyErr(idAt, lexer.MalformedDelta, "the @ identity field cannot be a constant (SPEC §10a.1)")
		}
	}
	for i := range ents {
		f.addField(ents[i].Name)
	}
	nconst := 0
	for i := range ents {
		if ents[i].Const {
			f.constData = append(f.constData, ents[i].Value.Bytes...)
			nconst++
		}
	}
	f.sliceFields()
	if nconst == 0 && group < 0 {
		d.scratch = d.scratch[:mark]
		return end, nil
	}
	off := 0
	bareN := 0
	for i := range ents {
		e := &ents[i]
		switch {
		case e.Const:
			v := e.Value
			n := len(v.Bytes)
			v.Bytes, v.Escaped = f.constData[off:off+n:off+n], false
			off += n
			f.consts = append(f.consts, Const{Name: f.decl[i], Value: v, At: i})
		case i == group:
			f.group = len(f.consts)
			f.consts = append(f.consts, Const{Name: f.decl[i], At: i, Group: true})
		default:
			if i == id && grouped {
				f.groupKey = bareN
			}
			if i == id && top {
				f.idCol = bareN
			}
			bareN++
		}
	}
	f.fields = f.rowCols[:0]
	f.bareAt = f.bareAt[:0]
	k := 0
	for i := range f.decl {
		if k < len(f.consts) && f.consts[k].At == i {
			k++
			continue
		}
		f.fields = append(f.fields, f.decl[i])
		f.bareAt = append(f.bareAt, i)
	}
	f.rowCols = f.fields
	if d.expand {
		if cap(f.full) < len(f.decl) {
			f.full = make([]lexer.Scalar, len(f.decl))
		}
		f.full = f.full[:len(f.decl)]
		for _, c := range f.consts {
			f.full[c.At] = c.Value
		}
	}
	d.scratch = d.scratch[:mark]
	return end, nil
}

// groupDecl checks the group clause of a table header (v3.6.0 §7.4.8): an
// exact, non-keyed count, exactly one @ key column, and a group column
// that is declared, not the key and not a constant. It returns the
// group column's index in the declaration.
func (d *Decoder) groupDecl(f *frame, ents []lexer.DeclEntry, name []byte, id, p, end int, count int64) (int, error) {
	at := len(d.body) - len(name)
	switch {
	case f.keyed:
		return 0, d.bodyErr(p, lexer.InvalidGroupHeader, "a keyed map [N:] cannot be grouped (SPEC §7.4.8)")
	case count == lexer.Deferred:
		return 0, d.bodyErr(p, lexer.InvalidGroupHeader, "a grouped table needs an exact count, not [?]")
	case id < 0:
		return 0, d.bodyErr(p, lexer.InvalidGroupHeader, "a grouped table declares one @ key column (SPEC §7.4.8.1)")
	case ents[id].Const:
		return 0, d.bodyErr(ents[id].At, lexer.InvalidGroupHeader, "the @ key column of a grouped table cannot be a constant: each record has its own key")
	}
	for i := range ents {
		if !bytes.Equal(ents[i].Name, name) {
			continue
		}
		switch {
		case i == id:
			return 0, d.bodyErr(at, lexer.InvalidGroupHeader, "the group column "+lexer.Quote(name)+" is the @ key column")
		case ents[i].Const:
			return 0, d.bodyErr(at, lexer.InvalidGroupHeader, "the group column "+lexer.Quote(name)+" is a constant column")
		}
		f.groups.reset()
		f.groupKeys.reset()
		return i, nil
	}
	return 0, d.bodyErr(at, lexer.InvalidGroupHeader, "the group column "+lexer.Quote(name)+" is not declared")
}

// pathConflict reports a field whose decoded key collides with a `>` path
// column (SPEC §7.4.6.2): a column "a" beside "a>b", or "a>b" beside
// "a>b>c", would put two values under one key. It returns the index of the
// later of the two fields and a message, or "" when none collide.
func pathConflict(names [][]byte) (int, string) {
	var set map[string]int
	for j, n := range names {
		if !isPath(n) {
			continue
		}
		if set == nil {
			set = make(map[string]int, len(names))
			for i, m := range names {
				set[string(m)] = i
			}
		}
		for i, c := range n {
			if c == '>' {
				if k, clash := set[string(n[:i])]; clash {
					return max(j, k), "field " + lexer.Quote(n[:i]) + " collides with the path column " + lexer.Quote(n)
				}
			}
		}
	}
	return 0, ""
}

// isPath reports whether a field name is a `>` path column: it contains
// '>' and every '>'-separated segment is non-empty.
func isPath(n []byte) bool {
	if bytes.IndexByte(n, '>') < 0 {
		return false
	}
	prev := -1
	for i, c := range n {
		if c == '>' {
			if i == prev+1 {
				return false
			}
			prev = i
		}
	}
	return prev != len(n)-1
}

// sliceFields points f.decl and f.fields at the names stored in
// f.fieldData (fieldDecl narrows f.fields when there are constants).
func (f *frame) sliceFields() {
	f.decl = f.decl[:0]
	start := 0
	for _, e := range f.fieldEnds {
		f.decl = append(f.decl, f.fieldData[start:e:e])
		start = e
	}
	f.fields = f.decl
}

type containerMode uint8

const (
	anyForm    containerMode = iota // items, attachments and the anonymous root
	blockOnly                       // `## key [N]...` sections: no inline values
	inlineOnly                      // `key[N]: values`
)

// shared returns the shared array schema established for an attachment
// field (SPEC §7.4.5.3): by column index, or by name for a `>`-named field
// that is not a column.
func (f *frame) shared(field int, name []byte) [][]byte {
	if field >= 0 {
		if field < len(f.sharedDecl) {
			return f.sharedDecl[field]
		}
		return nil
	}
	return f.sharedName[string(name)]
}

// setShared establishes a shared array schema, keeping a copy of decl.
func (f *frame) setShared(field int, name []byte, decl [][]byte) {
	c := make([][]byte, len(decl))
	for i, n := range decl {
		c[i] = append([]byte(nil), n...)
	}
	if field >= 0 {
		for len(f.sharedDecl) <= field {
			f.sharedDecl = append(f.sharedDecl, nil)
		}
		f.sharedDecl[field] = c
		return
	}
	if f.sharedName == nil {
		f.sharedName = make(map[string][][]byte)
	}
	f.sharedName[string(name)] = c
}
