package generic

import (
	"strconv"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// appendGrouped appends v as a value-grouped keyed set (GroupBy, spec
// v3.6.0 §7.4.8): the header line and one root section
// `## [N]{...} group=<column>` with the key column written `@key` and the
// group column at its place in the field union (SPEC §7.4.3 order), the
// other constant columns factored (layout.Factor; never the key or the
// group column), then per group, in the order its value first appears, the
// subheader `column=value [n]` and its records' rows in their original
// relative order: `~` for an absent cell, `-` for null.
//
// v, normalized to the JSON model, must be a non-empty array of objects
// holding scalars only, each with the key (present, not null, unique as
// the decoder compares keys) and the group column (null allowed). Every
// refusal is a *SyntaxError: invalid_group_header for the shape, the
// options (WithSpec(Spec353), WithWire(WireV1)) and names the decoder
// would read as '>' path columns; duplicate_key for a repeated key;
// duplicate_group for group values a decoder reads as one but written
// differently; the
// limits' categories as for EncodeGeneric; and normalize's
// (out_of_range, invalid_utf8, unsupported_value, ...).
func appendGrouped(dst []byte, v any, c *config) ([]byte, error) {
	g := c.Group
	switch {
	case c.Wire == WireV1:
		return dst, groupErr(g, "the v1 wire has no value-grouping")
	case c.Spec != "" && c.Spec != Spec36:
		return dst, groupErr(g, "value-grouping is spec v3.6.0 (§7.4.8); WithSpec("+strconv.Quote(string(c.Spec))+") cannot carry it")
	case g.Key == g.Column:
		return dst, groupErr(g, "the key and the group column are the same field; a grouped table groups by another column than its key (SPEC §7.4.8)")
	}
	slabs := getNormSlabs()
	defer putNormSlabs(slabs) // nv is dead once this returns
	nv, deepest, err := normalizeDepth(v, slabs)
	if err != nil {
		return dst, err
	}
	recs, ok := nv.([]any)
	if !ok || len(recs) == 0 {
		return dst, groupErr(g, "the value must be a non-empty array of objects, not "+describe(nv))
	}
	t := groupedTable{g: g, recs: recs}
	if err := t.plan(); err != nil {
		if encoder.IsInvalidUTF8(err) {
			err = invalidUTF8Err(nv)
		}
		return dst, err
	}
	lim := encoder.NewLimiter(c.Limits)
	if !lim.DepthOK(deepest) {
		ge := getGE()
		ge.lim.Begin(c.Limits, 0)
		d := ge.depth(nv, c.Limits.MaxDepth)
		putGE(ge)
		if err := lim.Depth(d); err != nil {
			return dst, err
		}
	}
	if err := lim.Elements(len(recs), "array"); err != nil {
		return dst, err
	}
	if err := lim.Fields(len(t.union)); err != nil {
		return dst, err
	}
	start := len(dst)
	out, err := t.write(dst, c.Limits)
	if err != nil {
		if encoder.IsInvalidUTF8(err) {
			err = invalidUTF8Err(nv)
		}
		return out[:start], err
	}
	return out, nil
}

// groupedTable is the plan of one grouped encode.
type groupedTable struct {
	g      options.GroupBy
	recs   []any
	union  []string  // field union, SPEC §7.4.3 order
	key    int       // union index of the key column
	col    int       // union index of the group column
	consts []bool    // union index -> factored (layout.Factor)
	values [][]byte  // union index -> the constant's value, for factored columns
	groups []int     // record indexes, group by group
	counts []int     // rows per group, in group order
	heads  [][]byte  // group values as cells, in group order
	firsts []int     // first record of each group
	order  []int     // group of each record
	cell   []byte    // scratch
	ids    [2][]byte // scratch identities
}

// groupErr is an invalid_group_header error of GroupBy(g.Key, g.Column).
func groupErr(g options.GroupBy, msg string) error {
	return lexer.Errorf(lexer.InvalidGroupHeader, "GroupBy(%s, %s): %s", strconv.Quote(g.Key), strconv.Quote(g.Column), msg)
}

// describe names the JSON type of a normalized value for an error message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case string:
		return "a string"
	case Object:
		return "an object"
	case []any:
		if len(x) == 0 {
			return "an empty array"
		}
		return "an array"
	}
	return "a value"
}

// plan checks the records and decides the declaration and the groups.
func (t *groupedTable) plan() error {
	g := t.g
	for i, r := range t.recs {
		o, ok := r.(Object)
		if !ok {
			return groupErr(g, "record "+strconv.Itoa(i)+" is "+describe(r)+", not an object")
		}
		for _, m := range o {
			switch m.Value.(type) {
			case Object, []any:
				return groupErr(g, "record "+strconv.Itoa(i)+" holds "+describe(m.Value)+" in field "+strconv.Quote(m.Key)+
					"; grouped rows carry scalars only (SPEC §7.4.8)")
			}
		}
	}
	t.union = geUnion(t.recs, nil)
	t.key, t.col = -1, -1
	for j, f := range t.union {
		if !utf8.ValidString(f) {
			return &lexer.SyntaxError{Category: lexer.InvalidUTF8, Msg: "invalid UTF-8"}
		}
		if lexer.PathSegments([]byte(f)) != nil {
			return groupErr(g, "field "+strconv.Quote(f)+" would be read as a '>' path column (SPEC §7.4.6), which a grouped table cannot carry")
		}
		switch f {
		case g.Key:
			t.key = j
		case g.Column:
			t.col = j
		}
	}
	n := len(t.recs)
	t.order = make([]int, n)
	gid := make(map[string]int)
	keys := make(map[string]int, n)
	for i, r := range t.recs {
		o := r.(Object)
		k, ok, _ := geLookup(o, g.Key, max(t.key, 0))
		switch {
		case !ok:
			return groupErr(g, "record "+strconv.Itoa(i)+" has no key field "+strconv.Quote(g.Key)+"; every record of a grouped table has its key")
		case k == nil:
			return groupErr(g, "record "+strconv.Itoa(i)+" has a null key "+strconv.Quote(g.Key)+"; every record of a grouped table has its key")
		}
		id, err := t.identity(0, k)
		if err != nil {
			return err
		}
		if prev, dup := keys[string(id)]; dup {
			return lexer.Errorf(lexer.DuplicateKey, "GroupBy(%s, %s): records %d and %d have the same key %s (a decoder compares keys as values: 1 and 1.0 are the same)",
				strconv.Quote(g.Key), strconv.Quote(g.Column), prev, i, t.cell)
		}
		keys[string(id)] = i
		gv, ok, _ := geLookup(o, g.Column, max(t.col, 0))
		if !ok {
			return groupErr(g, "record "+strconv.Itoa(i)+" has no group field "+strconv.Quote(g.Column)+"; a group value can be null but not absent")
		}
		id, err = t.identity(1, gv)
		if err != nil {
			return err
		}
		x, seen := gid[string(id)]
		switch {
		case !seen:
			x = len(t.counts)
			gid[string(id)] = x
			t.counts = append(t.counts, 0)
			t.heads = append(t.heads, append([]byte(nil), t.cell...))
			t.firsts = append(t.firsts, i)
		case string(t.cell) != string(t.heads[x]):
			// One group to a decoder (it compares values: 1e+18 is
			// 1000000000000000000), but one subheader cannot carry both.
			return lexer.Errorf(lexer.DuplicateGroup, "GroupBy(%s, %s): records %d and %d have the group values %s and %s, which a decoder reads as one value",
				strconv.Quote(g.Key), strconv.Quote(g.Column), t.firsts[x], i, t.heads[x], t.cell)
		}
		t.order[i] = x
		t.counts[x]++
	}
	// Records group by group, each group's in their original order.
	at := make([]int, len(t.counts))
	for x := 1; x < len(at); x++ {
		at[x] = at[x-1] + t.counts[x-1]
	}
	t.groups = make([]int, n)
	for i, x := range t.order {
		t.groups[at[x]] = i
		at[x]++
	}
	return t.factor()
}

// identity writes v as a cell into t.cell and returns its identity as the
// stream decoder computes it for keys and group values (stream.AppendIdentity
// over the cell read back), in scratch slot s.
func (t *groupedTable) identity(s int, v any) ([]byte, error) {
	out, ok, err := encoder.AppendScalar(t.cell[:0], v, encoder.Cell)
	if !ok {
		return nil, lexer.Errorf(lexer.UnsupportedValue, "value of type %T is not in the generic data model", v)
	}
	if err != nil {
		return nil, err
	}
	t.cell = out
	var sc lexer.Scalar
	if str, isStr := v.(string); isStr {
		sc = lexer.Scalar{Kind: lexer.KindString, Bytes: []byte(str)}
	} else {
		var lerr *lexer.SyntaxError
		if sc, lerr = lexer.Classify(out); lerr != nil {
			return nil, lerr
		}
	}
	t.ids[s] = stream.AppendIdentity(t.ids[s][:0], &sc)
	return t.ids[s], nil
}

// factor decides the constant columns: every column but the key and the
// group column whose cell is the same in every record (layout.Factor).
func (t *groupedTable) factor() error {
	cols := make([]layout.Column, len(t.union))
	t.values = make([][]byte, len(t.union))
	var first []byte
	for j, f := range t.union {
		if j == t.key || j == t.col {
			continue
		}
		constant := true
		for i, r := range t.recs {
			v, ok, _ := geLookup(r.(Object), f, j)
			if !ok {
				constant = false
				break
			}
			out, _, err := encoder.AppendScalar(t.cell[:0], v, encoder.Cell)
			if err != nil {
				return err
			}
			t.cell = out
			if i == 0 {
				first = append(first[:0], out...)
			} else if string(out) != string(first) {
				constant = false
				break
			}
		}
		cols[j] = layout.Column{Eligible: true, Constant: constant}
		if constant {
			v, _, _ := geLookup(t.recs[0].(Object), f, j)
			if s, ok := v.(string); ok {
				t.values[j] = encoder.AppendConstValue(nil, s)
			} else {
				t.values[j] = append([]byte(nil), first...)
			}
		}
	}
	t.consts, _ = layout.Factor(len(t.recs), cols, nil)
	return nil
}

// write appends the payload under lim.
func (t *groupedTable) write(dst []byte, lim Limits) ([]byte, error) {
	var l encoder.Limiter
	l.Begin(lim, len(dst))
	b := appendGenericHeader(dst)
	line := func() error {
		if !l.LineDone(len(b)) {
			return l.LineErr(b)
		}
		return nil
	}
	if err := line(); err != nil {
		return b, err
	}
	fields := make([]encoder.Field, len(t.union))
	for j, f := range t.union {
		fields[j] = encoder.Field{Name: f, Key: j == t.key, Const: t.consts[j], Value: t.values[j]}
	}
	b = encoder.AppendCount(encoder.AppendSection(b, ""), len(t.recs), false)
	b = encoder.AppendFields(b, fields)
	b = encoder.AppendLineEnd(encoder.AppendGroupClause(b, t.g.Column))
	if err := line(); err != nil {
		return b, err
	}
	next := 0
	for x, n := range t.counts {
		b = encoder.AppendSubheader(b, t.g.Column, t.heads[x], n)
		if err := line(); err != nil {
			return b, err
		}
		for _, i := range t.groups[next : next+n] {
			o := t.recs[i].(Object)
			cur := 0
			for j, f := range t.union {
				v, ok, at := geLookup(o, f, cur)
				cur = at
				if j == t.col || t.consts[j] {
					continue
				}
				if !ok {
					b = encoder.AppendMissing(b)
				} else {
					var err error
					if b, _, err = encoder.AppendScalar(b, v, encoder.Cell); err != nil {
						return b, err
					}
				}
				b = encoder.AppendCellSep(b)
			}
			b = encoder.EndLine(b)
			if err := line(); err != nil {
				return b, err
			}
		}
		next += n
	}
	return b, nil
}
