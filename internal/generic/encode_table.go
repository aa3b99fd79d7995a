package generic

// The writing of tables laid out by newPlan: count brackets, field
// declarations, rows and cells, attachments; the depth and UTF-8 checks
// the encoders share.

import (
	"strconv"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
	"github.com/gcfkit/gcf/lexer"
)

// table writes a tabular array or keyed map from its count bracket on:
// `[N]{fields}` or `[N:]{label,fields}`, the line end, then the rows at
// indentation bi with their attachments. With tabShared, the array is an
// attachment under the shared array schema of its field (see sharedArrays)
// and is written `[N]` without its declaration, which row 0 has given;
// with tabOwn its constant columns are factored (see factor).
func (e *geEncoder) table(src geRows, bi int, how tabHow) error {
	p := e.newPlan(src)
	if how == tabOwn && !e.v353 {
		e.factor(&p)
	}
	if err := e.count(src.len(), src.keyed); err != nil {
		e.popPlan(&p)
		return err
	}
	if how != tabShared {
		n, err := e.decl(&p)
		if err == nil {
			err = e.lim.Fields(n)
		}
		if err != nil {
			e.popPlan(&p)
			return err
		}
	}
	err := e.nl()
	if err == nil {
		err = e.writeRows(&p, bi)
	}
	e.popPlan(&p)
	return err
}

// decl writes the field declaration `{...}` of p: the key-column label for
// a keyed map, then each field in union order, constant columns as
// `name=value`, flattened fields as their quoted `"f>k"` path columns,
// '>'-named fields omitted. It returns the number of fields declared.
func (e *geEncoder) decl(p *gePlan) (int, error) {
	open := len(e.buf)
	e.buf = encoder.AppendDeclOpen(e.buf)
	n := 0
	if p.src.keyed {
		e.key(p.label)
		e.buf = encoder.AppendFieldSep(e.buf)
		n++
	}
	for fi := 0; fi < p.un; fi++ {
		f := e.strs[p.ub+fi]
		switch k := e.kinds[p.kb+fi]; {
		case k == geExcluded:
		case k == geColumn:
			e.key(f)
			if e.flags[p.fb+fi]&geConst != 0 {
				// Every row holds the same scalar: row 0's is the value.
				v, _, _ := geLookup(p.src.at(0), f, fi)
				e.buf = encoder.AppendAssign(e.buf)
				if err := e.scalar(v, encoder.Const); err != nil {
					return n, err
				}
			}
			e.buf = encoder.AppendFieldSep(e.buf)
			n++
		default:
			n += int(k)
			// Walk the first present object: all rows share its shape.
			n := p.src.len()
			for i := 0; i < n; i++ {
				if v, ok, _ := geLookup(p.src.at(i), f, fi); ok && v != nil {
					e.path = e.escaped(e.path[:0], f)
					e.flatDecl(v.(Object))
					break
				}
			}
		}
	}
	e.buf = encoder.EndConstDecl(e.buf, open) // at least one column: replace the last ','
	return n, nil
}

// flatDecl writes the path columns below the prefix in e.path.
func (e *geEncoder) flatDecl(o Object) {
	for i := range o {
		mark := len(e.path)
		e.path = append(e.path, '>')
		e.path = e.escaped(e.path, o[i].Key)
		if sub, ok := o[i].Value.(Object); ok {
			e.flatDecl(sub)
		} else {
			e.buf = encoder.AppendPathField(e.buf, e.path)
		}
		e.path = e.path[:mark]
	}
}

// escaped appends s as the inside of a quoted string (SPEC §2.2);
// invalid UTF-8 is handled as by str.
func (e *geEncoder) escaped(dst []byte, s string) []byte {
	dst, bad := encoder.AppendPathSegment(dst, s)
	if bad >= 0 {
		e.fail()
	}
	return dst
}

// writeRows writes the rows of p at indentation bi. Cells: scalars in Cell
// context, `-` for null, `~` for absent, `^` for a nested value of an
// ordinary column, flattened leaves for flattened fields. A row with any
// attachment (including a '>'-named field's value) is prefixed `@i ` and
// followed by its attachments in union order (SPEC §7.4.4).
func (e *geEncoder) writeRows(p *gePlan, bi int) error {
	n := p.src.len()
	for i := 0; i < n; i++ {
		key := ""
		if p.src.keyed {
			key = p.src.obj[i].Key
		}
		if err := e.writeRow(p, i, key, p.src.at(i), bi); err != nil {
			return err
		}
	}
	return nil
}

// writeRow writes row i of p (key: its member key in a keyed map) at
// indentation bi, then its attachments (see writeRows). It reads p's
// rows only through row and key, so a source that holds one row at a
// time (Parts) writes with it too.
func (e *geEncoder) writeRow(p *gePlan, i int, key string, row Object, bi int) error {
	e.buf = encoder.AppendIndent(e.buf, bi)
	rs := len(e.buf)
	ab := len(e.att)
	// First assume the row lists its keys in union order (the common
	// case): a union field not at the row's cursor is then absent. If
	// the row was not consumed entirely the assumption failed: redo
	// the row with full lookups.
	done, err := e.rowCells(p, i, key, row, true)
	if err != nil {
		return err
	}
	if !done {
		e.buf = e.buf[:rs]
		clear(e.att[ab:])
		e.att = e.att[:ab]
		if _, err := e.rowCells(p, i, key, row, false); err != nil {
			return err
		}
	}
	if len(e.att) > ab {
		e.insertRowID(rs, i)
	}
	if err := e.lineDone(); err != nil {
		return err
	}
	// Attachments follow the row in two runs, as the reference SDK
	// writes them (the spec leaves the order open): first those of the
	// marker cells, `^` and `^{...}`, in field order (positional inline
	// bodies among them, SPEC §7.4.5.2), then those of the '>'-named
	// fields, which have no cell (SPEC §7.4.6.1 rule 4), in union order.
	for _, gt := range [2]bool{false, true} {
		for j := ab; j < len(e.att); j++ {
			a := e.att[j]
			if (e.kinds[p.kb+a.fi] == geExcluded) != gt {
				continue
			}
			if err := e.attach(p, i, a.fi, a.v, bi); err != nil {
				return err
			}
		}
	}
	clear(e.att[ab:])
	e.att = e.att[:ab]
	return nil
}

// rowCells writes the cells of row i and its line end, and pushes its
// attachments. In ordered mode a field is looked up only at the row's
// cursor, and the result is valid only if it reports done (every member
// of the row was matched); otherwise every field is searched for.
func (e *geEncoder) rowCells(p *gePlan, i int, key string, row Object, ordered bool) (done bool, err error) {
	if p.src.keyed {
		e.str(key, encoder.Cell)
		e.buf = encoder.AppendCellSep(e.buf)
	}
	cur := 0
	for fi := 0; fi < p.un; fi++ {
		f := e.strs[p.ub+fi]
		var v any
		var ok bool
		if ordered {
			if cur < len(row) && row[cur].Key == f {
				v, ok = row[cur].Value, true
				cur++
			}
		} else {
			v, ok, cur = geLookup(row, f, cur)
		}
		switch k := e.kinds[p.kb+fi]; {
		case k == geExcluded:
			if ok {
				e.att = append(e.att, geAttachment{fi, v})
			}
			continue
		case e.flags[p.fb+fi]&geConst != 0:
			continue // in the declaration
		case k > 0:
			switch {
			case !ok:
				e.repeatCell('~', int(k))
			case v == nil:
				e.repeatCell('-', int(k))
			default:
				if err := e.flatCells(v.(Object)); err != nil {
					return false, err
				}
			}
			continue
		}
		switch {
		case !ok:
			e.buf = encoder.AppendMissing(e.buf)
		case geIsContainer(v):
			e.buf = encoder.AppendAttachMark(e.buf)
			if i == 0 && e.flags[p.fb+fi]&geInline != 0 {
				// Row 0 declares the inline object schema (SPEC §7.4.5.1).
				o := v.(Object)
				if err := e.lim.Fields(len(o)); err != nil {
					return false, err // as a decoder would
				}
				e.buf = encoder.AppendDeclOpen(e.buf)
				for j := range o {
					e.key(o[j].Key)
					e.buf = encoder.AppendFieldSep(e.buf)
				}
				e.buf = encoder.EndDecl(e.buf)
			}
			e.att = append(e.att, geAttachment{fi, v})
		default:
			if err := e.scalar(v, encoder.Cell); err != nil {
				return false, err
			}
		}
		e.buf = encoder.AppendCellSep(e.buf)
	}
	e.buf = encoder.EndLine(e.buf) // replace the last '|'
	return !ordered || cur == len(row), nil
}

// repeatCell writes n cells holding the one-byte token c.
func (e *geEncoder) repeatCell(c byte, n int) {
	for ; n > 0; n-- {
		e.buf = encoder.AppendCellSep(append(e.buf, c))
	}
}

// flatCells writes the leaves of a flattened object, in key order.
func (e *geEncoder) flatCells(o Object) error {
	for i := range o {
		if sub, ok := o[i].Value.(Object); ok {
			if err := e.flatCells(sub); err != nil {
				return err
			}
			continue
		}
		if err := e.scalar(o[i].Value, encoder.Cell); err != nil {
			return err
		}
		e.buf = encoder.AppendCellSep(e.buf)
	}
	return nil
}

// insertRowID inserts `@i ` at offset at (the start of the row after its
// indentation).
func (e *geEncoder) insertRowID(at, i int) {
	var tmp [24]byte
	id := encoder.AppendItemIndex(tmp[:0], i)
	id = encoder.AppendWordSep(id)
	old := len(e.buf)
	e.buf = append(e.buf, id...)
	copy(e.buf[at+len(id):], e.buf[at:old])
	copy(e.buf[at:], id)
}

// attach writes one attachment of row i at indentation d, its body at d+2
// (SPEC §7.4.4): `.f =scalar` for a '>'-named field's scalar, `.f {}` plus
// members or `.f [N:]{...}` plus rows for an object, the array forms of
// SPEC §7.3 for an array (`.f [N]` and rows under a shared array schema
// after row 0, SPEC §7.4.5.3), and for a field with an inline object
// schema the positional body: one line of cells at the row's indentation
// (SPEC §7.4.5.1, §7.4.5.2).
func (e *geEncoder) attach(p *gePlan, i, fi int, v any, d int) error {
	fl := e.flags[p.fb+fi]
	if e.deferred != nil {
		at := Attached
		if i > 0 && fl&geShared != 0 {
			at = SharedAttached
		}
		if done, err := e.deferred(e.strs[p.ub+fi], at, v, d); done || err != nil {
			return err
		}
	}
	if fl&geInline != 0 {
		e.buf = encoder.AppendIndent(e.buf, d)
		o := v.(Object)
		for j := range o {
			if err := e.scalar(o[j].Value, encoder.Cell); err != nil {
				return err
			}
			e.buf = encoder.AppendCellSep(e.buf)
		}
		e.buf = encoder.EndLine(e.buf)
		return e.lineDone()
	}
	e.buf = encoder.AppendIndent(e.buf, d)
	e.buf = encoder.AppendAttachDot(e.buf)
	e.key(e.strs[p.ub+fi])
	e.buf = encoder.AppendWordSep(e.buf)
	switch x := v.(type) {
	case Object:
		if e.keyedOK(x) {
			return e.table(geRows{obj: x, keyed: true}, d+2, tabAttached)
		}
		e.buf = encoder.AppendEmptyObject(e.buf)
		if err := e.nl(); err != nil {
			return err
		}
		return e.members(x, d+2)
	case []any:
		if i > 0 && fl&geShared != 0 && e.pol.sharedFits(p.src, e.strs[p.ub+fi], fi, x) {
			// Non-empty, tabular and with row 0's field union (sharedArrays).
			return e.table(geRows{arr: x}, d+2, tabShared)
		}
		return e.arrayTail(x, d+2, tabAttached)
	default:
		e.buf = encoder.AppendAssign(e.buf)
		if err := e.scalar(v, encoder.Value); err != nil {
			return err
		}
		return e.nl()
	}
}

// depth returns the most containers a decoder (stream.Decoder, so also
// DecodeGeneric) holds open at once while reading the encoding of v, or
// some number above limit as soon as it exceeds limit. Each container
// written opens one: an object in section form (the root object too,
// `## key`, `@i {}`, `.f {}`), a keyed map, and an array in every form
// (inline, empty, tabular, expanded). The rows of a tabular array or keyed
// map, and the objects flattened into `>` path columns, open none, so the
// count can be lower than v's nesting (which bounds it from above): each
// table row saves a level.
func (e *geEncoder) depth(v any, limit int) int {
	switch x := v.(type) {
	case Object:
		if limit <= 0 {
			return 1
		}
		if e.keyedOK(x) {
			return 1 + e.rowsDepth(geRows{obj: x, keyed: true}, limit-1)
		}
		m := 0
		for i := range x {
			if d := e.depth(x[i].Value, limit-1); d > m {
				if m = d; m > limit-1 {
					break
				}
			}
		}
		return 1 + m
	case []any:
		if limit <= 0 {
			return 1
		}
		switch layout.ArrayForm(len(x), geAllPrimitive(x), func() bool { return e.tabularOK(x) }) {
		case layout.Empty, layout.Inline:
			return 1
		case layout.Table:
			return 1 + e.rowsDepth(geRows{arr: x}, limit-1)
		}
		m := 0
		for _, it := range x {
			if d := e.depth(it, limit-1); d > m {
				if m = d; m > limit-1 {
					break
				}
			}
		}
		return 1 + m
	}
	return 0
}

// rowsDepth returns the depth (see depth) of the attachments of a tabular
// container's rows: a container in an ordinary or '>'-named field is an
// attachment opened inside the table's frame; a flattened field's objects
// are cells.
func (e *geEncoder) rowsDepth(src geRows, limit int) int {
	p := e.newPlan(src)
	n := src.len()
	m := 0
	for fi := 0; fi < p.un && m <= limit; fi++ {
		if e.kinds[p.kb+fi] > 0 {
			continue
		}
		f := e.strs[p.ub+fi]
		for i := 0; i < n; i++ {
			v, ok, _ := geLookup(src.at(i), f, fi)
			if !ok || !geIsContainer(v) {
				continue
			}
			if d := e.depth(v, limit); d > m {
				if m = d; m > limit {
					break
				}
			}
		}
	}
	e.popPlan(&p)
	return m
}

// invalidUTF8Err finds the first key or string of v that is not valid
// UTF-8 and returns an invalid_utf8 error with its JSON Pointer in Path,
// and Offset the offset within the string of its first invalid byte. It
// runs only after the encoder met such a string, so the hot path pays
// nothing for the path.
func invalidUTF8Err(v any) error {
	path, str, off, isKey, ok := findInvalidUTF8(v, nil)
	if !ok {
		return lexer.Errorf(lexer.InvalidUTF8, "a string is not valid UTF-8")
	}
	what := "string"
	if isKey {
		what = "key"
	} else if len(path) == 0 {
		what = "root string"
	}
	if lexer.IsEncodedSurrogate([]byte(str[off:])) {
		// SPEC §2.2: a surrogate code point (here its WTF-8 bytes, ED A0-BF
		// ..) is not a Unicode scalar value, and GCF carries it neither
		// literally nor as an escape (§16.5 "Invalid surrogate").
		return &lexer.SyntaxError{Category: lexer.InvalidSurrogate, Offset: int64(off), Path: string(path),
			Msg: "the " + what + " holds a UTF-16 surrogate code point at offset " + strconv.Itoa(off) +
				" (U+D800-U+DFFF are not Unicode scalar values; GCF cannot carry them)"}
	}
	return &lexer.SyntaxError{Category: lexer.InvalidUTF8, Offset: int64(off), Path: string(path),
		Msg: "the " + what + " is not valid UTF-8: invalid byte at offset " + strconv.Itoa(off) +
			" (GCF is UTF-8; convert or escape the data first)"}
}

// findInvalidUTF8 walks v depth-first, keys before their values, and
// returns the JSON Pointer, the string and the offset of its first bad
// byte. A bad key's pointer is that of its member.
func findInvalidUTF8(v any, path []byte) (p []byte, str string, off int, isKey, ok bool) {
	switch x := v.(type) {
	case string:
		if i := invalidAt(x); i >= 0 {
			return path, x, i, false, true
		}
	case Object:
		for _, m := range x {
			sub := appendPointerToken(path[:len(path):len(path)], m.Key)
			if i := invalidAt(m.Key); i >= 0 {
				return sub, m.Key, i, true, true
			}
			if p, str, off, isKey, ok = findInvalidUTF8(m.Value, sub); ok {
				return
			}
		}
	case []any:
		for i, it := range x {
			sub := strconv.AppendInt(append(path[:len(path):len(path)], '/'), int64(i), 10)
			if p, str, off, isKey, ok = findInvalidUTF8(it, sub); ok {
				return
			}
		}
	}
	return nil, "", 0, false, false
}

// invalidAt returns the offset of the first byte of s that begins no
// valid UTF-8 sequence, or -1.
func invalidAt(s string) int {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}
