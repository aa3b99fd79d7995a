package stream

import (
	"bytes"
	"strconv"

	"github.com/gcfkit/gcf/lexer"
)

// The v1 generic (tabular) profile (SPEC-v1.1 §6a, SPEC-v1.4 §6a, §6b) has
// no header line: the body starts at line 1. Its lines, in an object whose
// members are at indent M:
//
//	key=value                 a scalar member, at M
//	key[N]: a,b,c             an inline primitive array (v1.4), at M
//	## key                    a nested object, in one of two layouts:
//	                          at M, its members at M+1 (the SPEC-v1.4
//	                          example), or at M+1 with its members beside
//	                          it at M+1 (the original v1 encoder's layout,
//	                          fixtures generic/003, 004)
//	.key                      a nested object (nested-ref); members at M+1
//	## key [N]{f1,f2}         a table, at M; N rows `[@i ]v|v|v` at M, a
//	                          row with @i followed by its nested fields at
//	                          M+1
//	## key [N]                an expanded array, at M; N items `@i` at M,
//	                          each an object whose members are at M+1, or
//	                          `@i value`, a scalar item
//	## key [0]                an empty array
//
// An object opened by a header beside its members (original layout) ends
// at a line less indented or at a `## key` header at its own indent (a
// sibling). In a row's nested block the two layouts put a `## key` header
// at the same indent, so the object's first line decides: a member line
// beside the header is the original layout, one indented beneath it the
// SPEC one; a `## key` header one level deeper leaves the question to that
// object's own first line (both layouts give it the same place), and an
// object that has no member line is empty in both. See docs/legacy-v1.md.
//
// A single line that is none of these is a root scalar. `[?]` defers a
// count to the `## _summary` trailer (v1.4 §6b). The events are those of
// the v3 generic profile, so every consumer reads both wires alike; a
// row's nested fields are attachments named by Key with Field -1.

type v1Kind uint8

const (
	v1Obj   v1Kind = iota + 1 // members at indent
	v1Flat                    // members at indent, beside the header; a `## key` header at indent is a sibling
	v1Row                     // a row's nested fields at indent (attachments, no events of its own)
	v1Table                   // rows at indent
	v1Items                   // @i items at indent
)

type v1Frame struct {
	kind    v1Kind
	indent  int
	count   int64 // declared count, or lexer.Deferred
	seen    int64
	line    int // line of the opening header
	deferAt int // index in v1State.deferred, or -1
	// pending: a `## key` object whose header is at indent (in a row's
	// nested block, or one level under a pending object) and whose layout
	// its first member line decides: beside the header (v1Flat at indent)
	// or beneath it (v1Obj at indent+1)
	pending bool
	// inRow: the object is one of a row's nested fields
	inRow bool
	keys  keySet
	// a table's fields, copied out of its header line
	fieldData []byte
	fieldEnds []int
	fields    [][]byte
}

type v1State struct {
	stack    []v1Frame
	n        int // frames in use
	root     bool
	deferred []v1Deferred
}

type v1Deferred struct {
	name  string
	count int64
}

func (d *Decoder) v1Push(k v1Kind, indent int) (*v1Frame, error) {
	if d.v1.n >= d.limits.MaxDepth {
		return nil, d.bodyErr(0, lexer.DepthExceeded, "nesting exceeds the depth limit of "+strconv.Itoa(d.limits.MaxDepth))
	}
	if d.v1.n == len(d.v1.stack) {
		d.v1.stack = append(d.v1.stack, v1Frame{})
	}
	f := &d.v1.stack[d.v1.n]
	d.v1.n++
	f.kind, f.indent, f.count, f.seen, f.line, f.deferAt, f.pending, f.inRow = k, indent, lexer.Deferred, 0, d.lineNo, -1, false, false
	f.keys.reset()
	f.fieldData, f.fieldEnds, f.fields = f.fieldData[:0], f.fieldEnds[:0], f.fields[:0]
	return f, nil
}

// v1GenericStart begins a headerless v1 generic payload: a synthetic
// header event with profile generic and no fields; the first line stays
// loaded for the body.
func (d *Decoder) v1GenericStart() error {
	d.profile = "generic"
	d.state = stBody
	d.v1.n, d.v1.root = 0, false
	d.v1.deferred = d.v1.deferred[:0]
	d.hdrKeys, d.cells = d.hdrKeys[:0], d.cells[:0]
	if d.have {
		// The header state loaded the first line raw: give it the
		// indentation, blank and comment handling of a body line.
		line := d.raw
		n := 0
		for n < len(line) && line[n] == ' ' {
			n++
		}
		switch {
		case n < len(line) && line[n] == '\t' && len(bytes.Trim(line[n:], " \t")) > 0:
			return d.errAt(n+1, lexer.TabIndentation, "tab character in indentation")
		case len(bytes.Trim(line, " \t")) == 0, line[n] == '#' && (n+1 == len(line) || line[n+1] == ' '):
			d.have = false // blank or comment
		case n%2 != 0:
			return d.errAt(n+1, lexer.InvalidIndent, "indentation must be a multiple of two spaces")
		default:
			d.body, d.level = line[n:], n/2
			if cap(d.scratch) < len(line) {
				d.scratch = make([]byte, 0, 2*len(line)+64)
			}
		}
	}
	d.ev = Event{Kind: KindHeader, Line: 1, Profile: "generic", ID: -1, Field: -1}
	return nil
}

// v1Step produces the next event of a v1 generic body.
func (d *Decoder) v1Step() error {
	for {
		if err := d.load(); err != nil {
			return err
		}
		if !d.v1.root {
			return d.v1Root()
		}
		if d.v1.n == 0 {
			if d.atEOF {
				return d.end()
			}
			if d.isSummary() {
				return d.v1Summary()
			}
			return d.bodyErr(0, lexer.InvalidLine, "content after the root value")
		}
		f := &d.v1.stack[d.v1.n-1]
		if d.atEOF || d.level < f.indent || (d.level == 0 && d.isSummary()) ||
			(f.kind == v1Flat || f.pending) && d.level == f.indent && d.v1Sibling(f) {
			if done, err := d.v1Pop(); err != nil || done {
				return err
			}
			continue
		}
		if (f.kind == v1Table || f.kind == v1Items) && f.count >= 0 && f.seen == f.count {
			// A full section ends whatever follows: the next member of its
			// object may be an object header one level deeper.
			if done, err := d.v1Pop(); err != nil || done {
				return err
			}
			continue
		}
		if f.pending {
			switch {
			case d.level == f.indent:
				d.v1Decide(false)
			case d.level == f.indent+1 && !d.v1IsObjectHeader():
				d.v1Decide(true)
			}
		}
		if d.level > f.indent && !(d.level == f.indent+1 && (f.kind == v1Obj || f.kind == v1Flat) && d.v1IsObjectHeader()) {
			return d.bodyErr(0, lexer.InvalidIndent, "unexpected indentation")
		}
		switch f.kind {
		case v1Table:
			if f.count >= 0 && f.seen == f.count || f.count < 0 && startsWith(d.body, "## ") {
				if done, err := d.v1Pop(); err != nil || done {
					return err
				}
				continue
			}
			return d.v1Row(f)
		case v1Items:
			if f.count >= 0 && f.seen == f.count || f.count < 0 && d.body[0] != '@' {
				if done, err := d.v1Pop(); err != nil || done {
					return err
				}
				continue
			}
			return d.v1Item(f)
		}
		return d.v1Member(f)
	}
}

// v1Pop closes the innermost frame. done reports that an end event was
// produced (a row's nested block closes without one).
func (d *Decoder) v1Pop() (done bool, err error) {
	f := &d.v1.stack[d.v1.n-1]
	if f.count >= 0 && f.seen != f.count {
		return false, d.endErr(lexer.CountMismatch, "section on line "+strconv.Itoa(f.line)+" declares "+
			strconv.FormatInt(f.count, 10)+" entries but has "+strconv.FormatInt(f.seen, 10))
	}
	if f.deferAt >= 0 {
		d.v1.deferred[f.deferAt].count = f.seen
	}
	d.v1.n--
	switch f.kind {
	case v1Row:
		return false, nil
	case v1Table, v1Items:
		d.ev = Event{Kind: KindArrayEnd, ID: -1, Field: -1}
	default:
		d.ev = Event{Kind: KindObjectEnd, ID: -1, Field: -1}
	}
	return true, nil
}

// v1Decide settles the layout of the pending objects at the top of the
// stack: beneath their headers (members at header indent+1) or beside them.
// A pending object's parent is pending or a row's nested block, and a
// header one level under its parent's is that parent's member in either
// layout, so the whole run of pending objects shares the answer.
func (d *Decoder) v1Decide(beneath bool) {
	for i := d.v1.n - 1; i >= 0 && d.v1.stack[i].pending; i-- {
		f := &d.v1.stack[i]
		f.pending = false
		if beneath {
			f.kind, f.indent = v1Obj, f.indent+1
		} else {
			f.kind = v1Flat
		}
	}
}

// v1Sibling reports whether the current line, at the indent of f's header,
// ends f (an object whose header may be beside its members): a `## key`
// object header; in a row's nested block, any line that is not key=value
// or key[N]: (the next nested field of the row).
func (d *Decoder) v1Sibling(f *v1Frame) bool {
	if f.inRow {
		return !d.v1IsMemberLine()
	}
	return d.v1IsObjectHeader()
}

// v1IsObjectHeader reports whether the current line is `## key` alone, the
// header of a nested object.
func (d *Decoder) v1IsObjectHeader() bool {
	b := d.body
	if !startsWith(b, "## ") {
		return false
	}
	k := v1Key(b[3:])
	return k > 0 && 3+k == len(b)
}

// v1Root reads the first body line: a member line opens the root object,
// anything else is a root scalar that must be the only line.
func (d *Decoder) v1Root() error {
	d.v1.root = true
	if d.atEOF {
		return d.eofErr(lexer.MissingHeader, "empty input: a GCF v1.x payload has a graph header or a value")
	}
	if d.v1IsMemberLine() || startsWith(d.body, "## ") || d.body[0] == '.' {
		// The root object; its first member may be a nested object in the
		// original encoder's layout, whose header is indented one level.
		if d.level != 0 && !(d.level == 1 && d.v1IsObjectHeader()) {
			return d.bodyErr(0, lexer.InvalidIndent, "the root value must not be indented")
		}
		if _, err := d.v1Push(v1Obj, 0); err != nil {
			return err
		}
		d.ev = Event{Kind: KindObjectStart, Role: RoleRoot, Form: FormSection, ID: -1, Field: -1, Line: d.lineNo}
		return nil
	}
	if d.level != 0 {
		return d.bodyErr(0, lexer.InvalidIndent, "the root value must not be indented")
	}
	d.beginLine()
	s, err := d.v1Scalar(d.body, 0, 0)
	if err != nil {
		return err
	}
	d.consume()
	d.ev = Event{Kind: KindScalar, Role: RoleRoot, Value: s, ID: -1, Field: -1, Line: d.lineNo, Offset: d.lineOff}
	return nil
}

// v1Key returns the end of a v1 key at b[0:] (0 if there is none): a
// letter or _ then letters, digits, _, - and '.'.
func v1Key(b []byte) int {
	if len(b) == 0 || !lexer.IsBareKeyStart(b[0]) {
		return 0
	}
	i := 1
	for i < len(b) && (lexer.IsBareKeyByte(b[i]) || b[i] == '-' || b[i] == '.') {
		i++
	}
	return i
}

// v1IsMemberLine reports whether the current line is `key=value` or `key[N]: ...`.
func (d *Decoder) v1IsMemberLine() bool {
	b := d.body
	k := v1Key(b)
	return k > 0 && k < len(b) && (b[k] == '=' || b[k] == '[')
}

// v1Member reads one line of an object body at f's indent.
func (d *Decoder) v1Member(f *v1Frame) error {
	d.beginLine()
	b := d.body
	role := RoleMember
	if f.kind == v1Row {
		role = RoleAttachment
	}
	if f.seen >= int64(d.limits.MaxElements) {
		return d.bodyErr(0, lexer.TooManyElements, "object exceeds the element limit")
	}
	f.seen++ // objects have no declared count: seen only guards the limit
	switch {
	case startsWith(b, "## "):
		return d.v1Section(f, role)
	case b[0] == '.':
		k := v1Key(b[1:])
		if k == 0 || 1+k != len(b) {
			return d.bodyErr(0, lexer.InvalidLine, "a nested reference is .name")
		}
		key := b[1 : 1+k]
		if err := d.v1Dup(f, key, 1); err != nil {
			return err
		}
		d.consume()
		if _, err := d.v1Push(v1Obj, d.level+1); err != nil {
			return err
		}
		d.ev = Event{Kind: KindObjectStart, Role: role, Form: FormSection, Key: key, ID: -1, Field: -1, Line: d.lineNo}
		return nil
	}
	k := v1Key(b)
	if k == 0 || k == len(b) || (b[k] != '=' && b[k] != '[') {
		return d.bodyErr(0, lexer.InvalidLine, "expected key=value, key[N]: values, ## section or .name")
	}
	key := b[:k]
	if err := d.v1Dup(f, key, 0); err != nil {
		return err
	}
	if b[k] == '=' {
		s, err := d.v1Scalar(b[k+1:], k+1, 0)
		if err != nil {
			return err
		}
		d.consume()
		d.ev = Event{Kind: KindScalar, Role: role, Key: key, Value: s, ID: -1, Field: -1, Line: d.lineNo, Offset: d.lineOff + int64(2*d.level)}
		return nil
	}
	// key[N]: a,b,c
	count, keyed, end, lerr := lexer.ScanCount(b, k, int64(d.limits.MaxElements))
	if lerr != nil {
		return d.lexErr(lerr)
	}
	if keyed || end+1 > len(b) || b[end] != ':' {
		return d.bodyErr(end, lexer.InvalidLine, "an inline array is key[N]: values")
	}
	cells := d.cells[:0]
	if end+1 < len(b) {
		if b[end+1] != ' ' {
			return d.bodyErr(end+1, lexer.InvalidLine, "an inline array is key[N]: values")
		}
		for pos := end + 2; ; {
			s, next, err := d.v1Cell(b, pos, ',')
			if err != nil {
				return err
			}
			if len(cells) >= d.limits.MaxElements {
				return d.bodyErr(pos, lexer.TooManyElements, "inline array exceeds the element limit")
			}
			cells = append(cells, s)
			if next >= len(b) {
				break
			}
			pos = next + 1
		}
	}
	d.cells = cells
	if count >= 0 && int64(len(cells)) != count {
		return d.bodyErr(k, lexer.CountMismatch, "inline array declares "+strconv.FormatInt(count, 10)+" values but has "+strconv.Itoa(len(cells)))
	}
	d.consume()
	d.ev = Event{Kind: KindArrayStart, Role: role, Form: FormInline, Key: key, Count: count, Cells: cells, ID: -1, Field: -1, Line: d.lineNo,
		Offset: d.lineOff + int64(2*d.level)}
	// The inline array closes at once: its end comes from a closed frame.
	if _, err := d.v1Push(v1Items, d.level+1); err != nil {
		return err
	}
	top := &d.v1.stack[d.v1.n-1]
	top.count, top.seen = 0, 0
	return nil
}

func (d *Decoder) v1Dup(f *v1Frame, key []byte, pos int) error {
	if !f.keys.add(key) {
		return d.bodyErr(pos, lexer.DuplicateKey, "duplicate key "+lexer.Quote(key))
	}
	if f.kind == v1Row {
		// A row's nested field may not repeat one of its table's columns.
		for _, name := range d.v1.stack[d.v1.n-2].fields {
			if string(name) == string(key) {
				return d.bodyErr(pos, lexer.DuplicateKey, "nested field "+lexer.Quote(key)+" repeats a column of the row's table")
			}
		}
	}
	return nil
}

// v1Section reads `## key`, `## key [N]`, `## key [N]{fields}`.
func (d *Decoder) v1Section(f *v1Frame, role Role) error {
	b := d.body
	k := v1Key(b[3:])
	if k == 0 {
		return d.bodyErr(3, lexer.InvalidLine, "expected a section name after ##")
	}
	key := b[3 : 3+k]
	p := 3 + k
	if err := d.v1Dup(f, key, 3); err != nil {
		return err
	}
	if p == len(b) {
		// A nested object: its header beside its members, one level under
		// the parent's (original layout); at the parent's indent, with its
		// members beneath it (SPEC-v1.4 example); or, in a row's nested
		// block or under a pending object, either, which v1Step decides.
		d.consume()
		kind, indent, pending := v1Obj, d.level+1, false
		switch {
		case f.pending || f.kind == v1Row:
			kind, indent, pending = v1Obj, d.level, true
		case d.level > f.indent:
			kind, indent = v1Flat, d.level
		}
		nf, err := d.v1Push(kind, indent)
		if err != nil {
			return err
		}
		nf.pending, nf.inRow = pending, f.kind == v1Row
		d.ev = Event{Kind: KindObjectStart, Role: role, Form: FormSection, Key: key, ID: -1, Field: -1, Line: d.lineNo}
		return nil
	}
	if b[p] != ' ' || p+1 >= len(b) || b[p+1] != '[' {
		return d.bodyErr(p, lexer.InvalidLine, "expected [count] after the section name")
	}
	count, keyed, end, lerr := lexer.ScanCount(b, p+1, int64(d.limits.MaxElements))
	if lerr != nil {
		return d.lexErr(lerr)
	}
	if keyed {
		return d.bodyErr(p+1, lexer.InvalidCount, "v1 has no keyed count [N:]")
	}
	ev := Event{Kind: KindArrayStart, Role: role, Key: key, Count: count, ID: -1, Field: -1, Line: d.lineNo, Offset: d.lineOff + int64(2*d.level)}
	var nf *v1Frame
	var err error
	switch {
	case end == len(b) && count == 0:
		ev.Form = FormEmpty
		nf, err = d.v1Push(v1Items, d.level+1)
	case end == len(b):
		ev.Form = FormExpanded
		nf, err = d.v1Push(v1Items, d.level)
	case b[end] == '{':
		ev.Form = FormTabular
		if nf, err = d.v1Push(v1Table, d.level); err != nil {
			return err
		}
		if err := d.v1Fields(nf, b, end); err != nil {
			return err
		}
		ev.Fields = nf.fields
	default:
		return d.bodyErr(end, lexer.InvalidLine, "unexpected text after the section count")
	}
	if err != nil {
		return err
	}
	nf.count = count
	if count == lexer.Deferred {
		d.unverified++
		nf.deferAt = len(d.v1.deferred)
		d.v1.deferred = append(d.v1.deferred, v1Deferred{name: string(key)})
	}
	d.consume()
	d.ev = ev
	return nil
}

// v1Fields reads `{a,b,c}` at b[pos] into f's own copy.
func (d *Decoder) v1Fields(f *v1Frame, b []byte, pos int) error {
	i := pos + 1
	for {
		k := v1Key(b[i:])
		if k == 0 {
			return d.bodyErr(i, lexer.InvalidLine, "expected a field name in the declaration")
		}
		name := b[i : i+k]
		for j := range f.fieldEnds {
			start := 0
			if j > 0 {
				start = f.fieldEnds[j-1]
			}
			if string(f.fieldData[start:f.fieldEnds[j]]) == string(name) {
				return d.bodyErr(i, lexer.DuplicateFieldName, "duplicate field name "+lexer.Quote(name))
			}
		}
		if len(f.fieldEnds) >= d.limits.MaxFields {
			return d.bodyErr(i, lexer.TooManyFields, "field declaration exceeds the field limit")
		}
		f.fieldData = append(f.fieldData, name...)
		f.fieldEnds = append(f.fieldEnds, len(f.fieldData))
		i += k
		if i >= len(b) {
			return d.bodyErr(i, lexer.InvalidLine, "field declaration has no closing }")
		}
		if b[i] == '}' {
			if i+1 != len(b) {
				return d.bodyErr(i+1, lexer.InvalidLine, "unexpected text after the field declaration")
			}
			break
		}
		if b[i] != ',' {
			return d.bodyErr(i, lexer.InvalidLine, "expected , or } in the field declaration")
		}
		i++
	}
	start := 0
	for _, e := range f.fieldEnds {
		f.fields = append(f.fields, f.fieldData[start:e])
		start = e
	}
	return nil
}

// v1ID reads `@N` at the start of b; it returns N and the index past it.
func (d *Decoder) v1ID(b []byte, want int64) (int64, int, error) {
	i := 1
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	id, ok := parseID(b[1:i])
	if !ok || (i < len(b) && b[i] != ' ') {
		return 0, 0, d.bodyErr(1, lexer.InvalidItemID, "@ must be followed by a decimal id")
	}
	if id != want {
		return 0, 0, d.bodyErr(1, lexer.InvalidItemID, "id @"+strconv.FormatInt(id, 10)+" is not the item's index "+strconv.FormatInt(want, 10))
	}
	return id, i, nil
}

// v1Row reads one table row.
func (d *Decoder) v1Row(f *v1Frame) error {
	d.beginLine()
	b := d.body
	if f.seen >= int64(d.limits.MaxElements) {
		return d.bodyErr(0, lexer.TooManyElements, "table exceeds the element limit")
	}
	id, pos := int64(-1), 0
	if b[0] == '@' {
		var err error
		if id, pos, err = d.v1ID(b, f.seen); err != nil {
			return err
		}
		if pos >= len(b) {
			return d.bodyErr(pos, lexer.RowWidthMismatch, "row @"+strconv.FormatInt(id, 10)+" has no values")
		}
		pos++
	}
	cells := d.cells[:0]
	for {
		s, next, err := d.v1Cell(b, pos, '|')
		if err != nil {
			return err
		}
		if len(cells) == len(f.fields) {
			return d.bodyErr(pos, lexer.RowWidthMismatch, "row has more values than the "+strconv.Itoa(len(f.fields))+" declared fields")
		}
		cells = append(cells, s)
		if next >= len(b) {
			break
		}
		pos = next + 1
	}
	d.cells = cells
	if len(cells) != len(f.fields) {
		return d.bodyErr(0, lexer.RowWidthMismatch, "row has "+strconv.Itoa(len(cells))+" values for "+strconv.Itoa(len(f.fields))+" declared fields")
	}
	f.seen++
	d.consume()
	d.ev = Event{Kind: KindRow, ID: id, Field: -1, Fields: f.fields, Cells: cells, Line: d.lineNo, Offset: d.lineOff + int64(2*d.level)}
	if id >= 0 {
		// Nested fields, if any, are indented beneath the row.
		if _, err := d.v1Push(v1Row, f.indent+1); err != nil {
			return err
		}
	}
	return nil
}

// v1Item reads one expanded item: `@i` (an object, members beneath) or
// `@i value` (a scalar).
func (d *Decoder) v1Item(f *v1Frame) error {
	d.beginLine()
	b := d.body
	if b[0] != '@' {
		return d.bodyErr(0, lexer.InvalidItemID, "an item starts with @index")
	}
	if f.seen >= int64(d.limits.MaxElements) {
		return d.bodyErr(0, lexer.TooManyElements, "array exceeds the element limit")
	}
	id, pos, err := d.v1ID(b, f.seen)
	if err != nil {
		return err
	}
	f.seen++
	if pos < len(b) {
		s, err := d.v1Scalar(b[pos+1:], pos+1, 0)
		if err != nil {
			return err
		}
		d.consume()
		d.ev = Event{Kind: KindScalar, Role: RoleItem, Value: s, ID: id, Field: -1, Line: d.lineNo, Offset: d.lineOff + int64(2*d.level)}
		return nil
	}
	d.consume()
	if _, err := d.v1Push(v1Obj, f.indent+1); err != nil {
		return err
	}
	d.ev = Event{Kind: KindObjectStart, Role: RoleItem, Form: FormSection, ID: id, Field: -1, Line: d.lineNo}
	return nil
}

// v1Cell scans one value of a row or inline array at b[pos:], ending at
// an unquoted delim or the end of b; next is the index of the delimiter
// (or len(b)).
func (d *Decoder) v1Cell(b []byte, pos int, delim byte) (lexer.Scalar, int, error) {
	end := pos
	if end < len(b) && b[end] == '"' {
		end++
		for end < len(b) && b[end] != '"' {
			if b[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(b) {
			return lexer.Scalar{}, 0, d.bodyErr(pos, lexer.UnterminatedQuote, "quoted value has no closing \"")
		}
		end++
		if end < len(b) && b[end] != delim {
			return lexer.Scalar{}, 0, d.bodyErr(end, lexer.TrailingCharacters, "characters after the closing quote")
		}
	} else {
		for end < len(b) && b[end] != delim {
			end++
		}
	}
	s, err := d.v1Scalar(b[pos:end], pos, 0)
	return s, end, err
}

// v1Scalar classifies one v1 value t, which starts at body column pos
// (SPEC-v1.1 §6a): `-` null, true/false, `-?DIGITS[.DIGITS]` a number, a
// quoted string with the escapes \" \\ \n \r \t, anything else a string.
func (d *Decoder) v1Scalar(t []byte, pos int, _ int) (lexer.Scalar, error) {
	col := 2*d.level + pos + 1
	s := lexer.Scalar{Kind: lexer.KindString, Bytes: t, Col: col}
	if len(t) > 0 && t[0] == '"' {
		if len(t) < 2 || t[len(t)-1] != '"' || (len(t) >= 3 && t[len(t)-2] == '\\' && !evenBackslashes(t[1:len(t)-1])) {
			return s, d.bodyErr(pos, lexer.UnterminatedQuote, "quoted value has no closing \"")
		}
		start := len(d.scratch)
		in := t[1 : len(t)-1]
		for i := 0; i < len(in); i++ {
			c := in[i]
			if c == '"' {
				return s, d.bodyErr(pos+1+i, lexer.TrailingCharacters, "characters after the closing quote")
			}
			if c != '\\' {
				d.scratch = append(d.scratch, c)
				continue
			}
			i++
			if i >= len(in) {
				return s, d.bodyErr(pos, lexer.UnterminatedQuote, "quoted value has no closing \"")
			}
			switch in[i] {
			case '"', '\\':
				d.scratch = append(d.scratch, in[i])
			case 'n':
				d.scratch = append(d.scratch, '\n')
			case 'r':
				d.scratch = append(d.scratch, '\r')
			case 't':
				d.scratch = append(d.scratch, '\t')
			default:
				return s, d.bodyErr(pos+1+i-1, lexer.InvalidEscape, "invalid escape \\"+string(in[i:i+1])+" (v1 has \\\" \\\\ \\n \\r \\t)")
			}
		}
		s.Bytes, s.Quoted, s.Escaped = d.scratch[start:], true, true
		return s, nil
	}
	switch string(t) {
	case "-":
		s.Kind = lexer.KindNull
		return s, nil
	case "true", "false":
		s.Kind, s.Bool = lexer.KindBool, t[0] == 't'
		return s, nil
	}
	if v1Score(t) {
		if bytes.IndexByte(t, '.') < 0 {
			v, ok := lexer.ParseInt(t)
			if !ok {
				return s, d.bodyErr(pos, lexer.OutOfRange, "integer "+lexer.Excerpt(t)+" is outside the int64 range")
			}
			s.Kind, s.Int = lexer.KindInt, v
			return s, nil
		}
		if lexer.FloatOverflows(t) {
			return s, d.bodyErr(pos, lexer.OutOfRange, "number "+lexer.Excerpt(t)+" is outside the binary64 range")
		}
		s.Kind = lexer.KindFloat
	}
	return s, nil
}

func evenBackslashes(in []byte) bool {
	n := 0
	for i := len(in) - 1; i >= 0 && in[i] == '\\'; i-- {
		n++
	}
	return n%2 == 0
}

// v1Summary reads the v1.4 trailer `## _summary rows=N sections=a:1,b:2`
// and checks it against the `[?]` sections.
func (d *Decoder) v1Summary() error {
	if err := d.summary(); err != nil {
		return err
	}
	ev := d.ev
	for i, k := range ev.Fields {
		v := ev.Cells[i].Bytes
		switch string(k) {
		case "rows":
			n, ok := parseCount(v)
			if !ok {
				return d.errAt(ev.Cells[i].Col, lexer.InvalidSummary, "rows= is not a count")
			}
			if len(d.v1.deferred) == 1 && d.v1.deferred[0].count != n {
				return d.errAt(1, lexer.CountMismatch, "summary rows="+strconv.FormatInt(n, 10)+" but the [?] section has "+
					strconv.FormatInt(d.v1.deferred[0].count, 10))
			}
		case "sections":
			for _, part := range bytes.Split(v, []byte(",")) {
				name, num, ok := bytes.Cut(part, []byte(":"))
				n, okN := parseCount(num)
				if !ok || !okN {
					return d.errAt(ev.Cells[i].Col, lexer.InvalidSummary, "sections= entries are name:count")
				}
				for _, s := range d.v1.deferred {
					if s.name == string(name) && s.count != n {
						return d.errAt(1, lexer.CountMismatch, "summary says "+string(part)+" but the [?] section has "+strconv.FormatInt(s.count, 10))
					}
				}
			}
		}
	}
	d.summarized = true
	return nil
}
