package grammar

import (
	"bytes"
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
	case TokNull:
		return "z"
	}
	return "s" + c.val
}

// topIdentity checks the identity of a top-level table of the keyed set:
// identityDecl, and an identity that is not a constant column.
func (s *scanner) topIdentity(d *tableDecl, id, p int, sect deltaSect) {
	s.identityDecl(d.names, d.at, id, p, sect)
	if id >= 0 && d.consts[id] != nil {
		s.diagAt(d.at[id], lexer.MalformedDelta, "the @ identity field cannot be a constant (SPEC §10a.1)")
	}
}

// v36Decl checks what spec v3.6.0 adds to a table header, in the order the
// pull decoder does: a row column at least (no_bare_column, §7.4.7), a
// keyed map's key column not constant, and a group clause (§7.4.8) on an
// exact, non-keyed table with one @ key, naming a declared column that is
// neither the key nor a constant (invalid_group_header).
func (s *scanner) v36Decl(d *tableDecl, keyed bool, count int64, id int, group string, groupAt, p int) []*perr {
	bare := 0
	for _, c := range d.consts {
		if c == nil {
			bare++
		}
	}
	switch {
	case bare == 0:
		return []*perr{newErr(p, lexer.NoBareColumn, "every field of the declaration is a constant (SPEC §7.4.7)")}
	case keyed && d.consts[0] != nil:
		return []*perr{newErr(d.at[0], lexer.InvalidKeyedMap, "the key column of a keyed map cannot be a constant")}
	case group == "":
		return nil
	case keyed:
		return []*perr{newErr(p, lexer.InvalidGroupHeader, "a keyed map [N:] cannot be grouped")}
	case count == Deferred:
		return []*perr{newErr(p, lexer.InvalidGroupHeader, "a grouped table needs an exact count")}
	case id < 0:
		return []*perr{newErr(p, lexer.InvalidGroupHeader, "a grouped table declares one @ key column")}
	case d.consts[id] != nil:
		return []*perr{newErr(d.at[id], lexer.InvalidGroupHeader, "the @ key column of a grouped table cannot be a constant")}
	}
	for i, n := range d.names {
		if n != group {
			continue
		}
		switch {
		case i == id:
			return []*perr{newErr(groupAt, lexer.InvalidGroupHeader, "the group column is the @ key column")}
		case d.consts[i] != nil:
			return []*perr{newErr(groupAt, lexer.InvalidGroupHeader, "the group column is a constant column")}
		}
		return nil
	}
	return []*perr{newErr(groupAt, lexer.InvalidGroupHeader, "the group column "+Excerpt(group)+" is not declared")}
}

// subheader reads a group subheader `col=value [n]` of a grouped table
// (v3.6.0 §7.4.8.3): col the group column, value a scalar running to the
// last " [", n an exact count of at least 1 that the table still has room
// for, and a value not seen before in the table.
func (s *scanner) subheader(f *frame) {
	b := s.body
	fail := func(idx int, cat lexer.Category, msg string) {
		s.diagAt(idx, cat, msg)
		s.bad()
	}
	text, q, p, err := key(b, 0)
	if err != nil || p >= len(b) || b[p] != '=' {
		fail(0, lexer.InvalidGroupHeader, "expected the group subheader "+Excerpt(f.group)+"=<value> [n]")
		return
	}
	if text != f.group {
		fail(0, lexer.InvalidGroupHeader, "the subheader names "+Excerpt(text)+" but the table groups by "+Excerpt(f.group))
		return
	}
	lb := bytes.LastIndex(b, []byte(" ["))
	if lb <= p {
		fail(p+1, lexer.InvalidGroupHeader, "the group subheader has no count [n]")
		return
	}
	tok := b[p+1 : lb]
	var sc scalar
	if len(tok) > 0 && tok[0] == '"' {
		v, end, qerr := quoted(b, p+1)
		if qerr != nil {
			s.report(qerr)
			s.bad()
			return
		}
		if end != lb {
			fail(p+1, lexer.InvalidGroupHeader, "the group value must be a scalar")
			return
		}
		sc = scalar{typ: TokQuoted, val: v, start: p + 1}
	} else {
		t := string(tok)
		var serr *perr
		if sc, serr = bareScalar(t, p+1); serr != nil {
			s.report(serr)
			s.bad()
			return
		}
		if t == "" || isSpace(t[0]) || isSpace(t[len(t)-1]) || strings.IndexByte(t, '"') >= 0 ||
			sc.typ == TokMissing || sc.typ == TokAttach || strings.HasPrefix(t, "^{") {
			fail(p+1, lexer.InvalidGroupHeader, "the group value must be a scalar")
			return
		}
	}
	count, keyed, end, cerr := countBracket(b, lb+1, int64(s.limits.MaxElements))
	switch {
	case cerr != nil:
		s.report(cerr)
		s.bad()
		return
	case keyed || end != len(b):
		fail(lb+1, lexer.InvalidGroupHeader, "the group subheader ends with its count [n]")
		return
	case count == Deferred || count == 0:
		fail(lb+1, lexer.InvalidCount, "a group count is an exact count of at least 1")
		return
	case count > f.count-f.seen:
		fail(lb+1, lexer.CountMismatch, "the groups declare more rows than the table")
		return
	}
	idv := identity(sc)
	if f.groups[idv] {
		fail(p+1, lexer.DuplicateGroup, "group "+Excerpt(sc.val)+" appears twice in the table")
		return
	}
	f.groups[idv] = true
	s.emit(TokSubheader, "", 0)
	s.toks = append(s.toks, s.keyTok(text, q, 0))
	s.emit(TokPunct, "=", p)
	s.emit(sc.typ, sc.val, sc.start)
	s.emit(TokCount, string(b[lb+1:end]), lb+1)
	s.emitNL()
	f.groupLeft = count
}

// groupRow checks a row of a grouped table: no attachment markers, a key
// that is present, not null and not seen before in the table.
func (s *scanner) groupRow(f *frame, cells []scalar) {
	f.groupLeft--
	for _, c := range cells {
		if c.typ == TokAttach {
			s.diagAt(c.start, lexer.InvalidGroupHeader, "a row of a grouped table cannot carry an attachment marker")
			return
		}
	}
	if f.groupKey < 0 || f.groupKey >= len(cells) {
		return // a header problem, or row_width_mismatch (ast.Validate)
	}
	c := cells[f.groupKey]
	if c.typ == TokNull || c.typ == TokMissing {
		s.diagAt(c.start, lexer.InvalidGroupHeader, "the @ key of a grouped row must have a value")
		return
	}
	id := identity(c)
	if f.groupKeys[id] {
		s.diagAt(c.start, lexer.DuplicateKey, "key "+Excerpt(c.val)+" appears twice in the grouped table")
		return
	}
	f.groupKeys[id] = true
}
