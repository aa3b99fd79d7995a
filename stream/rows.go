package stream

import (
	"bytes"
	"strconv"

	"github.com/gcfkit/gcf/lexer"
)

// parseID reads the `@N ` prefix at body[0]. It returns the id and the
// index after the space.
func (d *Decoder) parseID(b []byte) (int64, int, error) {
	j := 1
	var id int64
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		if j > 18 {
			return 0, 0, d.bodyErr(0, lexer.InvalidItemID, "item id is too large")
		}
		id = id*10 + int64(b[j]-'0')
		j++
	}
	if j == 1 {
		return 0, 0, d.bodyErr(1, lexer.InvalidItemID, "@ must be followed by a decimal item id")
	}
	if j >= len(b) || b[j] != ' ' {
		return 0, 0, d.bodyErr(j, lexer.InvalidLine, "expected a space after the item id")
	}
	return id, j + 1, nil
}

// scanRow parses and checks the current line as one tabular or keyed-map
// row of table f (SPEC §7.4, §7.2a.3), leaving its cells in d.cells, and
// consumes it. It returns the row's id, or -1. With event it makes the
// row's event too (as rowEvent does: here, to spare Read a call per row).
func (d *Decoder) scanRow(f *frame, event bool) (int64, error) {
	d.beginLine()
	b := d.body
	id := int64(-1)
	p := 0
	if b[0] == '@' {
		var err error
		if id, p, err = d.parseID(b); err != nil {
			return 0, err
		}
		if id != f.seen {
			return 0, d.bodyErr(1, lexer.InvalidItemID, "row id @"+strconv.FormatInt(id, 10)+" does not equal its index "+strconv.FormatInt(f.seen, 10))
		}
	}
	fast, marked := d.fastCells(b, p, len(f.fields))
	if !fast {
		d.cells = d.cells[:0]
		for {
			d.cells = append(d.cells, lexer.Scalar{})
			end, err := d.scanInto(&d.cells[len(d.cells)-1], b, p, '|')
			if err != nil {
				return 0, d.lexErr(err)
			}
			if len(d.cells) > len(f.fields) || end >= len(b) {
				break
			}
			p = end + 1
		}
	}
	if len(d.cells) != len(f.fields) {
		return 0, d.bodyErr(0, lexer.RowWidthMismatch, "row has "+cellCount(len(d.cells), len(f.fields))+
			" values but the header declares "+strconv.Itoa(len(f.fields))+" fields")
	}
	if f.group >= 0 {
		if err := d.groupRow(f); err != nil {
			return 0, err
		}
	}
	any := false
	f.unmatched = 0
	if n := len(f.fields); len(f.markers) != n {
		if cap(f.markers) < n {
			f.markers = make([]uint8, n)
			f.matched = make([]bool, n)
		}
		f.markers, f.matched = f.markers[:n], f.matched[:n]
	}
	if fast && !marked { // a plain row: no marker to record
		if f.hadMarkers {
			clear(f.markers)
			clear(f.matched)
			f.hadMarkers = false
		}
	} else {
		var err error
		if any, err = d.markers(f); err != nil {
			return 0, err
		}
	}
	if f.keyed {
		k := &d.cells[0]
		switch k.Kind {
		case lexer.KindMissing:
			return 0, d.bodyErr(k.Col-1, lexer.InvalidMissing, "a keyed-map member key cannot be ~")
		case lexer.KindAttach, lexer.KindAttachSchema:
			return 0, d.bodyErr(k.Col-1, lexer.InvalidAttachmentMarker, "a keyed-map member key cannot be an attachment marker")
		case lexer.KindNull:
			return 0, d.bodyErr(k.Col-1, lexer.InvalidLine, "a keyed-map member key cannot be null")
		}
		if !f.keys.add(k.Bytes) {
			return 0, d.bodyErr(k.Col-1, lexer.DuplicateKey, "duplicate member key "+lexer.Quote(k.Bytes))
		}
	}
	if f.idCol >= 0 {
		if err := d.keyedRow(f); err != nil {
			return 0, err
		}
	}
	if any && id < 0 {
		return 0, d.bodyErr(0, lexer.InvalidItemID, "a row with attachment markers must start with its @N id")
	}
	if f.seen++; f.seen > int64(d.limits.MaxElements) {
		return 0, d.bodyErr(0, lexer.TooManyElements, "table exceeds the element limit")
	}
	f.rowActive = true
	f.rowLine = d.lineNo
	f.extra.reset()
	d.rowLineNo, d.rowOff = d.lineNo, d.lineOff+int64(2*d.level)
	d.consume()
	if !event {
		return id, nil
	}
	cells, fields := d.cells, f.fields
	if d.expand && len(f.consts) > 0 && len(f.full) == len(f.decl) {
		for j, at := range f.bareAt {
			f.full[at] = d.cells[j]
		}
		cells, fields = f.full, f.decl
	}
	if d.ev.Kind == KindRow && d.rowFrame == f {
		// The previous event was a row of this table: only these differ.
		// Cells is mostly the same slice row after row: writing it only
		// when it changed spares a pointer write (a write barrier while
		// the garbage collector marks).
		if len(cells) == 0 || len(d.ev.Cells) != len(cells) || cap(d.ev.Cells) != cap(cells) || &d.ev.Cells[0] != &cells[0] {
			d.ev.Cells = cells
		}
		d.ev.ID, d.ev.Line, d.ev.Offset = id, d.rowLineNo, d.rowOff
		return id, nil
	}
	d.rowFrame = f
	d.ev = Event{Kind: KindRow, ID: id, Field: -1, Fields: fields, Cells: cells, Line: d.rowLineNo, Offset: d.rowOff}
	return id, nil
}

// rowEvent makes d.ev the event of the row scanRow just read without
// one (ReadRow): the same event as scanRow's, kept in step with it.
func (d *Decoder) rowEvent(f *frame, id int64) {
	cells, fields := d.cells, f.fields
	if d.expand && len(f.consts) > 0 && len(f.full) == len(f.decl) {
		for j, at := range f.bareAt {
			f.full[at] = d.cells[j]
		}
		cells, fields = f.full, f.decl
	}
	if d.ev.Kind == KindRow && d.rowFrame == f {
		// The previous event was a row of this table: only these differ.
		// Cells is mostly the same slice row after row: writing it only
		// when it changed spares a pointer write (a write barrier while
		// the garbage collector marks).
		if len(cells) == 0 || len(d.ev.Cells) != len(cells) || cap(d.ev.Cells) != cap(cells) || &d.ev.Cells[0] != &cells[0] {
			d.ev.Cells = cells
		}
		d.ev.ID, d.ev.Line, d.ev.Offset = id, d.rowLineNo, d.rowOff
		return
	}
	d.rowFrame = f
	d.ev = Event{Kind: KindRow, ID: id, Field: -1, Fields: fields, Cells: cells, Line: d.rowLineNo, Offset: d.rowOff}
}

// column returns how events name row column j of f: its index in the row
// event's Fields (the declaration, when rows are expanded).
func (d *Decoder) column(f *frame, j int) int {
	if d.expand && j >= 0 && len(f.consts) > 0 && len(f.full) == len(f.decl) {
		return f.bareAt[j]
	}
	return j
}

// groupRow checks a row of a grouped table (v3.6.0 §7.4.8): no attachment
// markers, a key value that is present, not null and not seen before in
// the table; and it counts the row against its group.
func (d *Decoder) groupRow(f *frame) error {
	for j := range d.cells {
		if c := &d.cells[j]; c.Kind == lexer.KindAttach || c.Kind == lexer.KindAttachSchema {
			return d.bodyErr(c.Col-1, lexer.InvalidGroupHeader, "a row of a grouped table cannot carry an attachment marker (SPEC §7.4.8)")
		}
	}
	c := &d.cells[f.groupKey]
	if c.Kind == lexer.KindNull || c.Kind == lexer.KindMissing {
		return d.bodyErr(c.Col-1, lexer.InvalidGroupHeader, "the @ key "+lexer.Quote(f.fields[f.groupKey])+
			" of a grouped row must have a value, not "+c.Kind.String())
	}
	d.idBuf = AppendIdentity(d.idBuf[:0], c)
	if !f.groupKeys.add(d.idBuf) {
		return d.bodyErr(c.Col-1, lexer.DuplicateKey, "key "+lexer.Quote(c.Bytes)+" appears twice in the grouped table")
	}
	f.groupLeft--
	return nil
}

// subheader parses the subheader `col=value [n]` that opens a group of a
// grouped table (v3.6.0 §7.4.8.3): col is the group column, value a
// scalar (a quoted string may hold any delimiter), n at least 1. The
// value runs from the first '=' after the name to the last " [".
func (d *Decoder) subheader(f *frame) error {
	d.beginLine()
	b := d.body
	g := &f.consts[f.group]
	name, p, lerr := lexer.ScanKey(b, 0, &d.scratch)
	if lerr != nil || p >= len(b) || b[p] != '=' {
		return d.bodyErr(0, lexer.InvalidGroupHeader, "expected the group subheader "+lexer.Excerpt(g.Name)+"=<value> [n] (SPEC §7.4.8.3)")
	}
	if !bytes.Equal(name, g.Name) {
		return d.bodyErr(0, lexer.InvalidGroupHeader, "the subheader names "+lexer.Quote(name)+" but the table groups by "+lexer.Quote(g.Name))
	}
	lb := bytes.LastIndex(b, []byte(" ["))
	if lb <= p {
		return d.bodyErr(p+1, lexer.InvalidGroupHeader, "the group subheader has no count [n]")
	}
	var s lexer.Scalar
	tok := b[p+1 : lb]
	bad := false
	if len(tok) > 0 && tok[0] == '"' {
		text, end, lerr := lexer.ScanQuoted(b, p+1, &d.scratch)
		if lerr != nil {
			return d.lexErr(lerr)
		}
		bad = end != lb
		s = lexer.Scalar{Kind: lexer.KindString, Quoted: true, Bytes: text, Col: p + 2}
	} else {
		if k := lexer.ControlAt(tok); k >= 0 {
			return d.bodyErr(p+1+k, lexer.InvalidEscape, "raw control character in a bare group value; quote the value and escape it")
		}
		var lerr *lexer.SyntaxError
		if s, lerr = lexer.Classify(tok); lerr != nil {
			return d.wrap(lerr, 2*d.level+p+1)
		}
		s.Col = p + 2
		bad = len(tok) == 0 || lexer.IsSpace(tok[0]) || lexer.IsSpace(tok[len(tok)-1]) || bytes.IndexByte(tok, '"') >= 0 ||
			s.Kind == lexer.KindMissing || s.Kind == lexer.KindAttach || startsWith(tok, "^{")
	}
	if bad {
		return d.bodyErr(p+1, lexer.InvalidGroupHeader, "the group value must be a scalar: -, a number, true/false, a bare or a quoted string")
	}
	count, keyed, end, lerr := lexer.ScanCount(b, lb+1, int64(d.limits.MaxElements))
	if lerr != nil {
		return d.wrap(lerr, 2*d.level)
	}
	switch {
	case keyed || end != len(b):
		return d.bodyErr(lb+1, lexer.InvalidGroupHeader, "the group subheader ends with its count [n]")
	case count == lexer.Deferred:
		return d.bodyErr(lb+1, lexer.InvalidCount, "a group needs an exact count, not [?]")
	case count == 0:
		return d.bodyErr(lb+1, lexer.InvalidCount, "a group count is at least 1 (SPEC §7.4.8.3)")
	case count > f.count-f.seen:
		return d.bodyErr(lb+1, lexer.CountMismatch, "the groups declare more rows than the table's "+strconv.FormatInt(f.count, 10)+
			" (table opened on line "+strconv.Itoa(f.line)+")")
	}
	d.idBuf = AppendIdentity(d.idBuf[:0], &s)
	if !f.groups.add(d.idBuf) {
		return d.bodyErr(p+1, lexer.DuplicateGroup, "group "+lexer.Quote(s.Bytes)+" appears twice in the table")
	}
	f.groupVal = append(f.groupVal[:0], s.Bytes...)
	s.Bytes, s.Escaped = f.groupVal, false
	g.Value = s
	if g.At < len(f.full) {
		f.full[g.At] = s
	}
	f.groupLeft = count
	d.consume()
	d.ev = Event{Kind: KindGroup, Key: g.Name, Value: s, Count: count, Field: g.At, ID: -1, Line: d.lineNo,
		Offset: d.lineOff + int64(2*d.level)}
	return nil
}

// markers records the row's attachment markers (^ and ^{fields}) in f and
// reports whether it has any.
func (d *Decoder) markers(f *frame) (bool, error) {
	n := len(f.fields)
	f.hadMarkers = true
	any := false
	for j := range d.cells {
		s := &d.cells[j]
		f.markers[j], f.matched[j] = markNone, false
		switch s.Kind {
		case lexer.KindAttach:
			f.markers[j] = markBare
			f.unmatched++
			any = true
		case lexer.KindAttachSchema:
			decl, err := d.inlineSchema(s)
			if err != nil {
				return false, err
			}
			for len(f.inlineDecl) < n {
				f.inlineDecl = append(f.inlineDecl, nil)
			}
			f.inlineDecl[j] = decl
			f.markers[j] = markSchema
			f.unmatched++
			any = true
		}
	}
	return any, nil
}

func cellCount(n, want int) string {
	if n > want {
		return "more"
	}
	return strconv.Itoa(n)
}

// inlineSchema parses the declaration of a ^{fields} cell into storage that
// outlives the line.
func (d *Decoder) inlineSchema(s *lexer.Scalar) ([][]byte, error) {
	var tmp []byte
	_, names, lerr := lexer.ScanFieldDecl(s.Bytes, 0, &tmp, make([][]byte, 0, 8))
	if lerr != nil {
		return nil, d.bodyErr(s.Col-1, lexer.InvalidAttachmentMarker, "malformed inline schema declaration")
	}
	out := make([][]byte, len(names))
	for i, n := range names {
		for _, m := range names[:i] {
			if bytes.Equal(n, m) {
				// s.Bytes is the declaration, from the '{' after the '^'.
				return nil, d.bodyErr(s.Col+lexer.FieldNameAt(s.Bytes, 0, i), lexer.DuplicateFieldName,
					"duplicate field name "+lexer.Quote(n)+" in inline schema")
			}
		}
		out[i] = append([]byte(nil), n...)
	}
	if len(out) > d.limits.MaxFields {
		return nil, d.bodyErr(s.Col-1, lexer.TooManyFields, "inline schema exceeds the field limit")
	}
	return out, nil
}

// nextEligible returns the first unmatched marker of the current row that
// a positional inline body can fill (SPEC §7.4.5.2), or -1.
func (f *frame) nextEligible() int {
	if f.unmatched == 0 {
		return -1
	}
	for j, m := range f.markers {
		if f.matched[j] {
			continue
		}
		if m == markSchema || (m == markBare && j < len(f.inlineDecl) && f.inlineDecl[j] != nil) {
			return j
		}
	}
	return -1
}

// rowChild handles a line that may belong to the current row: a `.field`
// attachment or a positional inline body. handled is false when the line
// is not the row's; the row is then complete and checked.
func (d *Decoder) rowChild(f *frame) (bool, error) {
	if !d.atEOF && (d.level == f.indent || d.level == f.indent+1) {
		b := d.body
		if b[0] == '.' {
			return true, d.attachment(f)
		}
		if j := f.nextEligible(); j >= 0 && !(d.level == f.indent && startsWith(b, "##")) {
			return true, d.inlineBody(f, j)
		}
		if d.level == f.indent+1 {
			return true, d.bodyErr(0, lexer.OrphanInlineAttachment, "positional inline body has no eligible attachment-marker cell")
		}
	}
	if err := d.finishRow(f); err != nil {
		return true, err
	}
	return false, nil
}

// finishRow checks that every attachment marker of the row was filled.
func (d *Decoder) finishRow(f *frame) error {
	f.rowActive = false
	if f.unmatched == 0 {
		return nil
	}
	for j, m := range f.markers {
		if m != markNone && !f.matched[j] {
			msg := "field " + lexer.Quote(f.fields[j]) + " of the row on line " + strconv.Itoa(f.rowLine) +
				" is marked ^ but has no attachment"
			if d.atEOF {
				return d.eofErr(lexer.MissingAttachment, msg)
			}
			return d.bodyErr(0, lexer.MissingAttachment, msg)
		}
	}
	return nil
}

// inlineBody parses a positional inline-object body for column j.
func (d *Decoder) inlineBody(f *frame, j int) error {
	d.beginLine()
	b := d.body
	schema := f.inlineDecl[j]
	p := 0
	for {
		s, end, err := d.scanScalar(b, p, '|')
		if err != nil {
			return d.lexErr(err)
		}
		if err := d.checkPlain(s); err != nil {
			return err
		}
		d.cells = append(d.cells, s)
		if len(d.cells) > len(schema) || end >= len(b) {
			break
		}
		p = end + 1
	}
	if len(d.cells) != len(schema) {
		return d.bodyErr(0, lexer.InlineWidthMismatch, "inline body for field "+lexer.Quote(f.fields[j])+
			" has "+cellCount(len(d.cells), len(schema))+" values but its schema declares "+strconv.Itoa(len(schema)))
	}
	f.matched[j] = true
	f.unmatched--
	f.hadInline = true
	d.consume()
	d.ev = Event{Kind: KindInlineBody, Field: d.column(f, j), ID: -1, Key: f.fields[j], Fields: schema, Cells: d.cells, Line: d.lineNo}
	return nil
}

// attachment parses a traditional `.field ...` attachment of the current row.
func (d *Decoder) attachment(f *frame) error {
	d.beginLine()
	b := d.body
	name, p, lerr := lexer.ScanKey(b, 1, &d.scratch)
	if lerr != nil {
		return d.lexErr(lerr)
	}
	j := -1
	for i, fn := range f.fields {
		if bytes.Equal(fn, name) {
			j = i
			break
		}
	}
	if j >= 0 && f.markers[j] != markBare && !f.matched[j] && bytes.IndexByte(name, '>') >= 0 {
		// A '>'-named field is written as an attachment (SPEC §7.4.6.1
		// rule 4) and may share its name with a path column flattened from
		// another field ({"a":{"b":1},"a>b":[]} has the column "a>b" and
		// the attachment ."a>b"). A column without a ^ marker takes no
		// attachment, so this one is the '>'-named field's (§16.5: an
		// attachment named with '>' is legitimate without a ^ cell).
		j = -1
	}
	if j >= 0 {
		switch {
		case f.matched[j]:
			return d.bodyErr(0, lexer.DuplicateAttachment, "field "+lexer.Quote(name)+" already has an attachment in this row")
		case f.markers[j] != markBare:
			return d.bodyErr(0, lexer.OrphanAttachment, "attachment ."+lexer.Excerpt(name)+" has no matching bare ^ cell in its row")
		}
		f.matched[j] = true
		f.unmatched--
	} else {
		if bytes.IndexByte(name, '>') < 0 {
			return d.bodyErr(0, lexer.OrphanAttachment, "attachment ."+lexer.Quote(name)+" names no column of the row")
		}
		if !f.extra.add(name) {
			return d.bodyErr(0, lexer.DuplicateAttachment, "field "+lexer.Quote(name)+" already has an attachment in this row")
		}
	}
	if p >= len(b) || b[p] != ' ' || p+1 >= len(b) {
		return d.bodyErr(p, lexer.InvalidLine, "expected {}, =value or a count bracket after the attachment name")
	}
	p++
	body := f.indent + 2
	switch {
	case b[p] == '{':
		if p+2 != len(b) || b[p+1] != '}' {
			return d.bodyErr(p, lexer.InvalidLine, "expected {} after the attachment name")
		}
		d.consume()
		d.push(fObject, body, KindObjectEnd)
		d.ev = Event{Kind: KindObjectStart, Role: RoleAttachment, Form: FormSection, Key: name, Field: d.column(f, j), ID: -1, Line: d.lineNo}
		return d.err
	case b[p] == '=':
		s, _, err := d.scanScalar(b, p+1, 0)
		if err != nil {
			return d.lexErr(err)
		}
		if err := d.checkPlain(s); err != nil {
			return err
		}
		d.consume()
		d.ev = Event{Kind: KindScalar, Role: RoleAttachment, Key: name, Field: d.column(f, j), Value: s, ID: -1, Line: d.lineNo}
		return nil
	case b[p] == '[':
		decl := f.shared(j, name)
		if decl != nil && d.k.section == sectNone {
			// A later row's `.name [N]` of a shared schema (SPEC §7.4.5.3),
			// the usual attachment line: container's outcome for it, read
			// directly. Anything else (`[0]`, a declaration, an error)
			// takes container.
			count, keyed, end, lerr := lexer.ScanCount(b, p, int64(d.limits.MaxElements))
			if lerr == nil && !keyed && end == len(b) && count != 0 {
				field := d.column(f, j)
				fr := d.push(fTable, body, KindArrayEnd) // f is stale from here
				fr.ownDecl, fr.sharedUse = fr.decl, true
				fr.decl, fr.fields = decl, decl
				fr.count = count
				d.deferSection(fr)
				d.consume()
				d.ev = Event{Kind: KindArrayStart, Role: RoleAttachment, Form: FormTabular, Key: name, ID: -1, Field: field,
					Count: count, Fields: decl, Line: d.lineNo}
				return d.err
			}
		}
		shared := decl != nil
		if err := d.container(p, RoleAttachment, name, -1, j, body, anyForm); err != nil {
			return err
		}
		ev := &d.ev
		ev.Field = d.column(f, j)
		// Only the first row establishes a shared array schema, with an
		// explicit tabular declaration (SPEC §7.4.5.3: "The first row MUST
		// contain the field with a tabular array attachment that includes
		// {fields}"); a declaration in a later row applies to that
		// attachment alone. f.seen is 1 while row 0's attachments are read.
		if !shared && f.seen == 1 && ev.Kind == KindArrayStart && ev.Form == FormTabular {
			d.stack[d.depth-2].setShared(j, name, ev.Fields)
		}
		return nil
	}
	return d.bodyErr(p, lexer.InvalidLine, "expected {}, =value or a count bracket after the attachment name")
}

// item parses one expanded-array item (SPEC §7.6).
func (d *Decoder) item(f *frame) error {
	d.beginLine()
	b := d.body
	id, p, err := d.parseID(b)
	if err != nil {
		return err
	}
	if id != f.seen {
		return d.bodyErr(1, lexer.InvalidItemID, "item id @"+strconv.FormatInt(id, 10)+" does not equal its index "+strconv.FormatInt(f.seen, 10))
	}
	if f.seen++; f.seen > int64(d.limits.MaxElements) {
		return d.bodyErr(0, lexer.TooManyElements, "array exceeds the element limit")
	}
	if p >= len(b) {
		return d.bodyErr(p, lexer.InvalidLine, "expected =value, {} or a count bracket after the item id")
	}
	switch b[p] {
	case '=':
		s, _, err := d.scanScalar(b, p+1, 0)
		if err != nil {
			return d.lexErr(err)
		}
		if err := d.checkPlain(s); err != nil {
			return err
		}
		d.consume()
		d.ev = Event{Kind: KindScalar, Role: RoleItem, ID: id, Field: -1, Value: s, Line: d.lineNo}
		return nil
	case '{':
		if p+2 != len(b) || b[p+1] != '}' {
			return d.bodyErr(p, lexer.InvalidLine, "expected {} after the item id")
		}
		d.consume()
		d.push(fObject, f.indent+1, KindObjectEnd)
		d.ev = Event{Kind: KindObjectStart, Role: RoleItem, Form: FormSection, ID: id, Field: -1, Line: d.lineNo}
		return d.err
	case '[':
		return d.container(p, RoleItem, nil, id, -1, f.indent+1, anyForm)
	}
	return d.bodyErr(p, lexer.InvalidLine, "expected =value, {} or a count bracket after the item id")
}

// summary parses the `##! summary` trailer and validates deferred counts
// (SPEC §8.4, §13.2).
func (d *Decoder) summary() error {
	d.beginLine()
	b := d.body
	if !startsWith(b, d.summaryPrefix()) || (len(b) > 11 && b[11] != ' ') {
		return d.bodyErr(0, lexer.InvalidSummary, "expected "+d.summaryPrefix())
	}
	d.hdrKeys = d.hdrKeys[:0]
	var counts []byte
	haveCounts, countsAt := false, 0
	pos := 11
	for pos < len(b) {
		for pos < len(b) && b[pos] == ' ' {
			pos++
		}
		if pos >= len(b) {
			break
		}
		end := pos
		for end < len(b) && b[end] != ' ' {
			end++
		}
		pair := b[pos:end]
		eq := bytes.IndexByte(pair, '=')
		if eq <= 0 || !lexer.IsBareKey(string(pair[:eq])) {
			return d.bodyErr(pos, lexer.InvalidSummary, "summary field "+lexer.Quote(pair)+" is not key=value")
		}
		key, val := pair[:eq], pair[eq+1:]
		for _, k := range d.hdrKeys {
			if bytes.Equal(k, key) {
				return d.bodyErr(pos, lexer.InvalidSummary, "duplicate summary field "+lexer.Excerpt(key))
			}
		}
		d.hdrKeys = append(d.hdrKeys, key)
		d.cells = append(d.cells, lexer.Scalar{Kind: lexer.KindString, Bytes: val, Col: 2*d.level + pos + eq + 2})
		if string(key) == "counts" {
			counts, haveCounts, countsAt = val, true, pos+eq+1
		}
		pos = end
	}
	if haveCounts && d.profile == "generic" {
		if bytes.IndexByte(counts, ':') >= 0 {
			return d.bodyErr(0, lexer.InvalidSummary, "generic-profile counts are positional; labeled entries are malformed")
		}
		n := 0
		at := countsAt
		for rest := counts; len(counts) > 0; {
			part, more, found := bytes.Cut(rest, []byte(","))
			rest = more
			{
				v, ok := parseCount(part)
				if !ok && outsideInt64(part) {
					return d.bodyErr(at, lexer.OutOfRange, "summary count "+lexer.Excerpt(part)+
						" is outside the int64 range [-9223372036854775808, 9223372036854775807]")
				}
				if !ok {
					return d.bodyErr(0, lexer.InvalidSummary, "summary count "+lexer.Quote(part)+" is not a count")
				}
				if n < len(d.deferred) && d.deferred[n] != v {
					return d.bodyErr(0, lexer.CountMismatch, "deferred section "+strconv.Itoa(n+1)+" has "+
						strconv.FormatInt(d.deferred[n], 10)+" items but the summary says "+strconv.FormatInt(v, 10))
				}
				n++
			}
			if !found {
				break
			}
			at += len(part) + 1
		}
		if n != len(d.deferred) {
			return d.bodyErr(0, lexer.CountMismatch, "summary lists "+strconv.Itoa(n)+" counts but the payload has "+
				strconv.Itoa(len(d.deferred))+" deferred [?] sections")
		}
	}
	d.consume()
	d.state = stAfterSummary
	d.summarized = haveCounts || d.profile == "graph"
	d.ev = Event{Kind: KindSummary, Fields: d.hdrKeys, Cells: d.cells, ID: -1, Field: -1, Line: d.lineNo}
	return nil
}

func parseCount(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 || (len(b) > 1 && b[0] == '0') {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}
