package grammar

import (
	"math"
	"strconv"
	"strings"

	"github.com/gcfkit/gcf/lexer"
)

// Keyed sets and generic deltas (SPEC §10a), as the scanner sees them.
// Under a header naming key=K, the declaration of a top-level table (the
// root array, or a table member of the root object) may hold the id-field
// "@" key, and must mark K (§10a.1); its rows hold scalars, and their
// identities are non-null and unique within the table. A delta (delta=true)
// needs base_root, new_root and key in its header (§10a.2) and holds only
// `## added|changed|removed [N]{...}` tables: removed declares {@K}, added
// and changed the same fields, and no identity appears twice in the whole
// delta. Violations are malformed_delta, a repeated identity duplicate_key.

type deltaSect uint8

const (
	sectNone deltaSect = iota
	sectAdded
	sectChanged
	sectRemoved
)

type keyedScan struct {
	hasKey      bool
	key         string
	delta       bool
	base, newer bool

	top    bool      // the container about to be scanned is a top-level table
	sect   deltaSect // ... and the delta section it opens
	fields []string  // the fields of the first added/changed section
	seen   bool
	ids    map[string]bool
}

func (k *keyedScan) headerPair(key, v string) {
	switch key {
	case "key":
		k.hasKey, k.key = true, v
	case "delta":
		k.delta = v == "true"
	case "base_root":
		k.base = true
	case "new_root":
		k.newer = true
	}
}

// keyedHeader checks a generic delta header once all its pairs are read.
func (s *scanner) keyedHeader() {
	k := &s.keyed
	if !k.delta {
		return
	}
	missing := ""
	switch {
	case !k.hasKey:
		missing = "key"
	case !k.base:
		missing = "base_root"
	case !k.newer:
		missing = "new_root"
	}
	if missing != "" {
		s.diagAt(0, lexer.MalformedDelta, "a generic delta header needs "+missing+"= (SPEC §10a.2)")
	}
}

// deltaSection checks the name of a root member of a generic delta and
// records which section it opens; false after reporting a problem.
func (s *scanner) deltaSection(name string, pos int) bool {
	switch name {
	case "added":
		s.keyed.sect = sectAdded
	case "changed":
		s.keyed.sect = sectChanged
	case "removed":
		s.keyed.sect = sectRemoved
	default:
		s.diagAt(3, lexer.MalformedDelta, "unknown generic delta section "+Excerpt(name)+" (SPEC §10a.2: added, changed, removed)")
		return false
	}
	if pos == len(s.body) {
		s.keyed.sect = sectNone
		s.diagAt(pos, lexer.MalformedDelta, "a delta section is a table [N]{fields} (SPEC §10a.2)")
		return false
	}
	return true
}

// identityDecl checks the declaration of a top-level table of the keyed set.
func (s *scanner) identityDecl(names []string, at []int, id, p int, sect deltaSect) {
	k := &s.keyed
	if id < 0 {
		s.diagAt(p, lexer.MalformedDelta, "the table declares no @ identity field; the header names key="+Excerpt(k.key)+" (SPEC §10a.1)")
		return
	}
	if names[id] != k.key {
		s.diagAt(at[id], lexer.MalformedDelta, "the @ identity field "+Excerpt(names[id])+" is not the header's key="+Excerpt(k.key))
		return
	}
	switch sect {
	case sectRemoved:
		if len(names) != 1 {
			s.diagAt(p, lexer.MalformedDelta, "## removed declares only the identity field (SPEC §10a.2)")
		}
	case sectAdded, sectChanged:
		if k.seen {
			if !sameSet(k.fields, names) {
				s.diagAt(p, lexer.MalformedDelta, "## added and ## changed declare different fields (SPEC §10a.2)")
			}
		} else {
			k.seen, k.fields = true, names
		}
	case sectNone:
		k.ids = nil // identities are unique per table of a full payload
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range b {
		found := false
		for _, y := range a {
			if x == y {
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

// keyedRow checks the cells of a row of the keyed set: scalars only, and
// a non-null identity not seen before.
func (s *scanner) keyedRow(f *frame, cells []scalar) {
	if len(cells) != len(f.fields) {
		return // row_width_mismatch, reported by ast.Validate
	}
	for _, c := range cells {
		switch c.typ {
		case TokMissing, TokAttach:
			s.diagAt(c.start, lexer.MalformedDelta, "a keyed-set row holds scalars only (SPEC §10a.3)")
			return
		}
	}
	c := cells[f.idCol]
	if c.typ == TokNull {
		s.diagAt(c.start, lexer.MalformedDelta, "an identity must be a non-null scalar (SPEC §10a.1)")
		return
	}
	id := identity(c)
	if s.keyed.ids == nil {
		s.keyed.ids = map[string]bool{}
	}
	if s.keyed.ids[id] {
		s.diagAt(c.start, lexer.DuplicateKey, "identity "+Excerpt(c.val)+" appears twice (SPEC §10a.1)")
		return
	}
	s.keyed.ids[id] = true
}

// identity is a comparison key of an identity value: equal exactly when
// the values are (the number 1001 and 1001.0 are; the string "1001" is not
// the number).
func identity(c scalar) string {
	switch c.typ {
	case TokNumber:
		if !strings.ContainsAny(c.val, ".eE") {
			if n, err := strconv.ParseInt(c.val, 10, 64); err == nil {
				return "n" + strconv.FormatInt(n, 10)
			}
		}
		f, _ := strconv.ParseFloat(c.val, 64)
		if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return "n" + strconv.FormatInt(int64(f), 10)
		}
		return "f" + strconv.FormatUint(math.Float64bits(f), 16)
	case TokBool:
		return "b" + c.val
	}
	return "s" + c.val
}
