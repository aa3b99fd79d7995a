package generic

import (
	"math"
	"reflect"
	"strings"
	"unsafe"

	"github.com/gcfkit/gcf/internal/box"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// typedDecoder is Decoder.Decode's path into typed Go values (structs,
// slices, maps, pointers and scalars): it fills the target straight from
// the stream's events, without building the Object/[]any tree first.
// Whatever it does not handle itself (interfaces, custom unmarshalers,
// `,string`, float32, arrays, keyed maps into anything but a map of
// structs, mismatches) it hands to the tree
// path for that value only: the builder decodes the subtree and
// assignValue stores it, so every target ends as the tree path leaves it.
//
// Table cells into plain scalar fields are stored at the field's offset,
// and the rows of short tables go into slices carved from a shared slab:
// the package's unsafe code, off under -tags purego (box.Purego), where
// the same values come through reflect and one slice per table.
//
// Like the tree path, which builds the whole value before assigning it, a
// syntax error anywhere in the value wins over a type error: the first
// assignment error is kept in err, later values are decoded (validated)
// without being stored, and err is returned only when the input was valid.
type typedDecoder struct {
	b    *builder
	err  error   // the first assignment error; nothing is stored after it
	form anyForm // what goes into interfaces (WithOrderedObjects, WithExactNumbers)

	// The value plans of the last few types looked up: valuePlanFor's
	// sync.Map costs more than a short scan.
	types [8]reflect.Type
	plans [8]*valuePlan
	nextP int

	slabs [4]slab // per slice type, for short tables
	nextS int
}

// plan returns valuePlanFor(typ) through the decoder's small cache.
func (t *typedDecoder) plan(typ reflect.Type) *valuePlan {
	for i, x := range t.types {
		if x == typ {
			return t.plans[i]
		}
	}
	p := valuePlanFor(typ)
	i := t.nextP % len(t.types)
	t.types[i], t.plans[i] = typ, p
	t.nextP++
	return p
}

// Codes for how a scalar cell goes into a field, worked out once per field.
const (
	codeOther   uint8 = iota // assignValue on the decoded scalar (interfaces, float32, viaJSON types, ...)
	codeString               // string kind
	codeBool                 // bool kind
	codeInt                  // signed integer kinds
	codeUint                 // unsigned integer kinds
	codeFloat64              // float64 kind
	codePtr                  // pointer to one of the above (elem code in elem)
)

// scalarCode returns the code of type t and, for a pointer, of its element.
func scalarCode(t reflect.Type) (code, elem uint8) {
	if valuePlanFor(t).viaJSON {
		return codeOther, codeOther
	}
	switch t.Kind() {
	case reflect.String:
		return codeString, 0
	case reflect.Bool:
		return codeBool, 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return codeInt, 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return codeUint, 0
	case reflect.Float64:
		return codeFloat64, 0
	case reflect.Pointer:
		if e, _ := scalarCode(t.Elem()); e != codeOther && e != codePtr {
			return codePtr, e
		}
	}
	return codeOther, codeOther
}

// skip decodes the value ev opens and drops it (an unknown field, or
// anything after the first assignment error).
func (t *typedDecoder) skip(ev *stream.Event) error {
	_, err := t.b.value(ev)
	return err
}

// fail keeps err as the first assignment error, positioned at column col
// of ev, the event most recently read.
func (t *typedDecoder) fail(err error, ev *stream.Event, col int) {
	if err == nil || t.err != nil {
		return
	}
	line, c, off := t.where(ev, col)
	t.err = positioned(err, line, c, off, false)
}

// where returns the line, column and input offset of column col of ev (a
// column relative to its indentation): rows and inline bodies carry the
// offset of their text, other events only their line, whose start it is
// then. ev must be the event most recently read for more than its line.
func (t *typedDecoder) where(ev *stream.Event, col int) (line, column int, off int64) {
	if ev.Line != t.b.d.Line() {
		return ev.Line, 1, 0
	}
	start := t.b.d.InputOffset()
	if ev.Offset > 0 {
		off = ev.Offset + int64(col) - 1
		return ev.Line, int(off-start) + 1, off
	}
	return ev.Line, 1, start
}

// tree decodes the value ev opens through the builder and stores it in rv
// with assignValue: the tree path, for one value.
func (t *typedDecoder) tree(rv reflect.Value, ev *stream.Event, depth int) error {
	line, col, off := t.where(ev, 1)
	x, err := t.b.value(ev)
	if err != nil || t.err != nil {
		return err
	}
	if err := assignValue(rv, x, depth, t.form); err != nil {
		t.err = positioned(err, line, col, off, false)
	}
	return nil
}

// value decodes the value that ev opens into rv (addressable). It returns
// only syntax errors; assignment errors go to t.err.
func (t *typedDecoder) value(rv reflect.Value, ev *stream.Event, depth int) error {
	if t.err != nil {
		return t.skip(ev)
	}
	if ev.Kind == stream.KindScalar {
		code, elem := scalarCode(rv.Type())
		t.cell(rv, code, elem, &ev.Value, ev, depth)
		return nil
	}
	typ := rv.Type()
	if t.plan(typ).viaJSON || depth > 10000 {
		return t.tree(rv, ev, depth)
	}
	switch typ.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(typ.Elem()))
		}
		return t.value(rv.Elem(), ev, depth+1)
	case reflect.Struct:
		if ev.Kind == stream.KindObjectStart && ev.Form != stream.FormKeyed {
			return t.object(rv, depth)
		}
	case reflect.Map:
		if ev.Kind == stream.KindObjectStart && ev.Form != stream.FormKeyed {
			return t.mapMembers(rv, depth)
		}
		if ev.Kind == stream.KindObjectStart {
			if et := typ.Elem(); et.Kind() == reflect.Struct && !t.plan(et).viaJSON {
				p := t.b.plan(ev.Fields, 1)
				if f := p.fill(et); f != nil {
					return t.keyed(rv, p, f, depth)
				}
			}
		}
	case reflect.Slice:
		if ev.Kind == stream.KindArrayStart {
			return t.slice(rv, ev, depth)
		}
	}
	return t.tree(rv, ev, depth)
}

// cell stores scalar c (of event ev) in rv, whose codes are code and elem.
func (t *typedDecoder) cell(rv reflect.Value, code, elem uint8, c *lexer.Scalar, ev *stream.Event, depth int) {
	if t.err != nil {
		return
	}
	if code == codePtr {
		if c.Kind == lexer.KindNull {
			rv.SetZero()
			return
		}
		if rv.IsNil() {
			rv.Set(reflect.New(rv.Type().Elem()))
		}
		rv, code, depth = rv.Elem(), elem, depth+1
	}
	switch c.Kind {
	case lexer.KindNull:
		if code != codeOther {
			return // null into a non-pointer scalar has no effect
		}
	case lexer.KindString:
		if code == codeString {
			rv.SetString(t.b.text(c.Bytes))
			return
		}
	case lexer.KindBool:
		if code == codeBool {
			rv.SetBool(c.Bool)
			return
		}
	case lexer.KindInt:
		switch code {
		case codeInt:
			if !rv.OverflowInt(c.Int) {
				rv.SetInt(c.Int)
				return
			}
		case codeUint:
			if c.Int >= 0 && !rv.OverflowUint(uint64(c.Int)) {
				rv.SetUint(uint64(c.Int))
				return
			}
		case codeFloat64:
			rv.SetFloat(float64(c.Int)) // what parsing its decimal text gives
			return
		}
	case lexer.KindFloat:
		if code == codeFloat64 {
			if f, err := lexer.ParseFloat(c.Bytes); err == nil {
				rv.SetFloat(f)
				return
			}
		}
	}
	x, err := t.b.scalar(c)
	if err == nil {
		err = assignValue(rv, x, depth, t.form)
	}
	t.fail(err, ev, c.Col)
}

// object decodes the members of an object into the struct rv.
func (t *typedDecoder) object(rv reflect.Value, depth int) error {
	p := t.plan(rv.Type())
	for {
		ev, err := t.b.next()
		if err != nil {
			return err
		}
		if ev.Kind == stream.KindObjectEnd {
			return nil
		}
		idx, ok := p.field(ev.Key)
		if !ok || t.err != nil {
			if err := t.skip(ev); err != nil {
				return err
			}
			continue
		}
		if err := t.value(fieldByIndex(rv, idx), ev, depth+1); err != nil {
			return err
		}
	}
}

// field finds the struct field named key as encoding/json does: the exact
// name first, then a case-insensitive match.
func (p *valuePlan) field(key []byte) ([]int, bool) {
	if idx, ok := p.byName[string(key)]; ok {
		return idx, true
	}
	for _, n := range p.names {
		if strings.EqualFold(n, string(key)) {
			return p.byName[n], true
		}
	}
	return nil, false
}

// fieldByIndex is rv.FieldByIndex for the index paths of valuePlan, which
// never pass through a pointer.
func fieldByIndex(rv reflect.Value, idx []int) reflect.Value {
	if len(idx) == 1 {
		return rv.Field(idx[0])
	}
	return rv.FieldByIndex(idx)
}

// mapMembers decodes the members of an object into the map rv, whose key
// kind is string.
func (t *typedDecoder) mapMembers(rv reflect.Value, depth int) error {
	typ := rv.Type()
	if rv.IsNil() {
		rv.Set(reflect.MakeMap(typ))
	}
	kt, et := typ.Key(), typ.Elem()
	for {
		ev, err := t.b.next()
		if err != nil {
			return err
		}
		if ev.Kind == stream.KindObjectEnd {
			return nil
		}
		if t.err != nil {
			if err := t.skip(ev); err != nil {
				return err
			}
			continue
		}
		key := reflect.ValueOf(t.b.text(ev.Key)).Convert(kt)
		elem := reflect.New(et).Elem()
		if err := t.value(elem, ev, depth+1); err != nil {
			return err
		}
		if t.err == nil {
			rv.SetMapIndex(key, elem)
		}
	}
}

// keyed decodes the rows of a keyed map into the map rv of structs, each
// row (key in cell 0) a member through the fill plan f.
func (t *typedDecoder) keyed(rv reflect.Value, p *tablePlan, f *tableFill, depth int) error {
	typ := rv.Type()
	if rv.IsNil() {
		rv.Set(reflect.MakeMap(typ))
	}
	kt, et := typ.Key(), typ.Elem()
	for {
		ev, err := t.b.next()
		if err != nil {
			return err
		}
		if ev.Kind == stream.KindObjectEnd {
			return nil
		}
		key := reflect.ValueOf(t.b.text(ev.Cells[0].Bytes)).Convert(kt)
		elem := reflect.New(et).Elem()
		row := valueTarget(elem)
		if err := t.row(&row, ev, p, f, depth+1); err != nil {
			return err
		}
		if t.err == nil {
			rv.SetMapIndex(key, elem)
		}
	}
}

// slice decodes the array that ev opens into the slice rv.
func (t *typedDecoder) slice(rv reflect.Value, ev *stream.Event, depth int) error {
	typ := rv.Type()
	switch ev.Form {
	case stream.FormEmpty:
		rv.Set(reflect.MakeSlice(typ, 0, 0))
		return t.b.expect(stream.KindArrayEnd)
	case stream.FormInline:
		code, elem := scalarCode(typ.Elem())
		s := reflect.MakeSlice(typ, len(ev.Cells), len(ev.Cells))
		for i := range ev.Cells {
			t.cell(s.Index(i), code, elem, &ev.Cells[i], ev, depth+1)
		}
		if t.err == nil {
			rv.Set(s)
		}
		return t.b.expect(stream.KindArrayEnd)
	case stream.FormExpanded:
		s := newSliceBuf(typ, min(t.presize(ev.Count, typ.Elem().Size()), 64))
		for {
			ev, err := t.b.next()
			if err != nil {
				return err
			}
			if ev.Kind == stream.KindArrayEnd {
				break
			}
			if err := t.value(s.next(), ev, depth+1); err != nil {
				return err
			}
		}
		if t.err == nil {
			rv.Set(s.slice())
		}
		return nil
	case stream.FormTabular:
		et := typ.Elem()
		st := et
		if st.Kind() == reflect.Pointer {
			st = st.Elem()
		}
		if st.Kind() == reflect.Struct && !t.plan(et).viaJSON {
			p := t.b.plan(ev.Fields, 0)
			if f := p.fill(st); f != nil {
				return t.table(sliceDst{rv: rv, typ: typ}, ev.Count, p, f, et != st, depth)
			}
		}
	}
	return t.tree(rv, ev, depth)
}

// sliceBuf builds a slice element by element: s is kept at its full
// length (reslicing a reflect.Value allocates), n elements are in use.
type sliceBuf struct {
	s reflect.Value
	n int
}

func newSliceBuf(t reflect.Type, c int) sliceBuf {
	return sliceBuf{s: reflect.MakeSlice(t, c, c)}
}

// next returns a new zero element at the end, doubling the capacity when
// the slice is full.
func (b *sliceBuf) next() reflect.Value {
	if b.n == b.s.Len() {
		ns := reflect.MakeSlice(b.s.Type(), max(2*b.n, 4), max(2*b.n, 4))
		reflect.Copy(ns, b.s)
		b.s = ns
	}
	b.n++
	return b.s.Index(b.n - 1)
}

// slice returns the elements in use.
func (b *sliceBuf) slice() reflect.Value {
	if b.n == b.s.Len() {
		return b.s
	}
	return b.s.Slice(0, b.n)
}

// sliceDst is the slice a table fills: rv (addressable), or, when rv is
// not valid, the slice of type typ at p, made a reflect.Value when first
// needed (the tables of a shared attachment schema mostly need none).
type sliceDst struct {
	rv  reflect.Value
	typ reflect.Type
	p   unsafe.Pointer
}

// value returns the slice as a reflect.Value.
func (s *sliceDst) value() reflect.Value {
	if !s.rv.IsValid() {
		s.rv = reflect.NewAt(s.typ, s.p).Elem()
	}
	return s.rv
}

// table decodes the count rows (declared; lexer.Deferred when unknown) of
// a tabular array into the slice dst of structs (or, with ptr, of
// pointers to structs) through the fill plan f.
func (t *typedDecoder) table(dst sliceDst, count int64, p *tablePlan, f *tableFill, ptr bool, depth int) error {
	// With a declared count the rows go straight into elements carved from
	// the decoder's slab (the stream rejects a table whose rows do not
	// match the count; should more come, they continue in a grown copy).
	var data unsafe.Pointer
	st := dst.typ
	n, size := t.presize(count, st.Elem().Size()), f.typ.Size()
	if !ptr && n > 0 && int64(n) == count && !box.Purego {
		data = t.carve(st, n)
	}
	var s sliceBuf
	if data == nil {
		s = newSliceBuf(st, n)
	}
	i := 0
	for {
		if data != nil && i == n && f.direct != nil && t.err == nil && !t.b.peeked && t.b.d.EndRows() {
			break // the table's end, without its event
		}
		if data != nil && i < n && f.direct != nil && t.err == nil && !t.b.peeked {
			// The row straight from its text (scanRow) or from the stream's
			// cells (directRow), without an event.
			body, plain, ok, err := t.b.d.RawRow()
			if err != nil {
				return err
			}
			if ok && plain {
				row := rowTarget{base: unsafe.Add(data, uintptr(i)*size), typ: f.typ}
				if id, marks, absent, fits := t.scanRow(row.base, body, f.direct); fits && t.b.d.CommitRow(len(f.direct), id, marks) {
					i++
					// The next line another row of the table: the row has
					// no attachment (attachments would find the same).
					if next, err := t.b.d.AtRow(); next || err != nil {
						if err != nil {
							return err
						}
						continue
					}
					if i == n && t.b.d.EndRows() {
						break // the last row, without attachments: the table's end, without its event
					}
					line, off := t.b.d.RowPos()
					at := rowPos{line, int(off-t.b.d.InputOffset()) + 1, off}
					if err := t.attachments(&row, p, f, depth+1, -1, at, absent); err != nil {
						return err
					}
					continue
				}
			}
			cells, ok, err := t.b.d.ReadRow()
			if err != nil {
				return err
			}
			if ok {
				row := rowTarget{base: unsafe.Add(data, uintptr(i)*size), typ: f.typ}
				i++
				var absent cellSet
				if !t.directRow(row.base, cells, f.direct, &absent) {
					if err := t.row(&row, t.b.d.RowEvent(), p, f, depth+1); err != nil {
						return err
					}
					continue
				}
				line, off := t.b.d.RowPos()
				at := rowPos{line, int(off-t.b.d.InputOffset()) + 1, off}
				if err := t.attachments(&row, p, f, depth+1, -1, at, absent); err != nil {
					return err
				}
				continue
			}
		}
		ev, err := t.b.next()
		if err != nil {
			return err
		}
		if ev.Kind == stream.KindArrayEnd {
			break
		}
		var row rowTarget
		if data != nil && i < n {
			row.base, row.typ = unsafe.Add(data, uintptr(i)*size), f.typ
			i++
		} else {
			if data != nil {
				hdr := sliceHeader{data, n, n}
				s = sliceBuf{s: reflect.NewAt(st, unsafe.Pointer(&hdr)).Elem(), n: n}
				data = nil
			}
			rv := s.next()
			if ptr {
				rv.Set(reflect.New(f.typ))
				rv = rv.Elem()
			}
			row = valueTarget(rv)
		}
		if err := t.row(&row, ev, p, f, depth+1); err != nil {
			return err
		}
	}
	if t.err == nil {
		if data != nil {
			p := dst.p
			if dst.rv.IsValid() {
				p = unsafe.Pointer(dst.rv.UnsafeAddr())
			}
			*(*sliceHeader)(p) = sliceHeader{data, i, i}
		} else {
			dst.value().Set(s.slice())
		}
	}
	return nil
}

// presize bounds the initial length of a slice of count elements of size
// bytes: by what the input can hold (the builder's presize), and its bytes
// by a multiple of that, so that a declared count never sizes an
// allocation far beyond the input.
func (t *typedDecoder) presize(count int64, size uintptr) int {
	n := t.b.presize(count)
	if size > 0 {
		n = min(n, int((16*uintptr(t.b.budget)+64<<10)/size))
	}
	return n
}

// sliceHeader is the runtime's layout of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// slab is a run of zeroed elements of one slice type that small slices are
// carved from, so that the thousands of short nested tables (`.items [N]`
// under every order) do not each allocate. A carved slice has its own
// capacity (appending to it copies), and keeps its slab alive, as decoded
// strings keep their arena chunk.
type slab struct {
	typ       reflect.Type // the slice type
	data      unsafe.Pointer
	size      uintptr // element size
	used, cap int
}

// slabBytes is the size of a new slab; a larger table gets its own array.
const slabBytes = 16 << 10

// carve returns the first of n (> 0) zeroed elements for a slice of type st.
func (t *typedDecoder) carve(st reflect.Type, n int) unsafe.Pointer {
	size := st.Elem().Size()
	if size == 0 || uintptr(n)*size > slabBytes/4 {
		return reflect.MakeSlice(st, n, n).UnsafePointer()
	}
	var sl *slab
	for i := range t.slabs {
		if t.slabs[i].typ == st {
			sl = &t.slabs[i]
			break
		}
	}
	if sl == nil {
		sl = &t.slabs[t.nextS%len(t.slabs)]
		t.nextS++
		*sl = slab{typ: st, size: size}
	}
	if sl.cap-sl.used < n {
		c := int(slabBytes / size)
		sl.data, sl.used, sl.cap = reflect.MakeSlice(st, c, c).UnsafePointer(), 0, c
	}
	p := unsafe.Add(sl.data, uintptr(sl.used)*size)
	sl.used += n
	return p
}

// row fills the struct rv from the cells of row ev and the attachments
// that follow it.
//
// The tree path assigns the row's members in column order, attachments in
// their columns' places, and stops at the first error; this fills the cells
// first and the attachments as they come. So that the error reported is
// the one the tree path reports, an error found here has the rank of its
// column, and an attachment of a lower rank is still decoded into the row
// and its error, if any, takes the place of the first.
func (t *typedDecoder) row(dst *rowTarget, ev *stream.Event, p *tablePlan, f *tableFill, depth int) error {
	errRank := -1 // the rank of t.err when it was found in this row
	// ev is the stream's event, which the attachments overwrite: keep what
	// the row's '>'-named attachments need, its position and absent cells.
	line, col, off := t.where(ev, 1)
	absent := absentCells(ev.Cells)
	if t.err == nil {
		base := dst.base
		for i := range f.nodes {
			n := &f.nodes[i]
			if n.direct && n.col < len(ev.Cells) && t.store(unsafe.Add(base, n.off), n, &ev.Cells[n.col]) {
				continue
			}
			t.node(dst.value(), n, ev, depth, f, &errRank)
		}
	}
	return t.attachments(dst, p, f, depth, errRank, rowPos{line, col, off}, absent)
}

// rowPos is where a row starts, for the errors of its '>'-named attachments.
type rowPos struct {
	line, col int
	off       int64
}

// directRow stores the cells of a row that ReadRow read into the zeroed
// struct at dst through f.direct, and reports whether it could: false
// leaves the row (some fields perhaps stored) to the general row, which
// stores every field again and finds the row's error, if any. It stores
// only what the general row stores: cells that fit their fields exactly;
// nulls, absent cells and markers leave a zeroed field as the general row
// does.
func (t *typedDecoder) directRow(base unsafe.Pointer, cells []lexer.Scalar, ops []directOp, absent *cellSet) bool {
	if len(cells) != len(ops) {
		return false
	}
	for j := range cells {
		c := &cells[j]
		op := &ops[j]
		switch c.Kind {
		case lexer.KindMissing:
			absent.add(j)
			if op.mode == opAttach {
				continue
			}
		case lexer.KindNull, lexer.KindAttach, lexer.KindAttachSchema:
			if op.mode == opAttach {
				continue
			}
		}
		switch op.mode {
		case opStore:
			if !t.store(unsafe.Add(base, op.off), op.n, c) {
				switch c.Kind {
				case lexer.KindNull, lexer.KindMissing, lexer.KindAttach, lexer.KindAttachSchema:
					continue // what cell and node leave alone
				}
				return false
			}
		case opAttach:
			return false
		}
	}
	return true
}

// attachments decodes the attachments that follow a row into dst (see
// row); errRank is the rank of an error the row's cells gave, or -1.
func (t *typedDecoder) attachments(dst *rowTarget, p *tablePlan, f *tableFill, depth, errRank int, at rowPos, absent cellSet) error {
	line, col, off := at.line, at.col, at.off
	// decodes reports whether an attachment for column j is to be decoded
	// into the row: with no error yet, or one of a higher rank in this row.
	// It clears t.err for the decode; restore puts it back if the
	// attachment gave none.
	var saved error
	decodes := func(j int) bool {
		if t.err == nil {
			return true
		}
		if errRank < 0 || f.rank[j] >= errRank {
			return false
		}
		saved, t.err = t.err, nil
		return true
	}
	restore := func(j int) {
		if t.err != nil {
			errRank = f.rank[j]
		} else {
			t.err = saved
		}
		saved = nil
	}
	// Attachments named with '>' (no column of their own) are members the
	// tree path appends after the columns: they are stored last, in order.
	var late []Member
	for {
		if !t.b.peeked {
			// The next row of the table ends this one: tell it without
			// reading it, so that the table can take it with ReadRow.
			if next, err := t.b.d.AtRow(); next || err != nil {
				if err != nil {
					return err
				}
				break
			}
			if f.shared != nil && t.err == nil && dst.base != nil {
				if done, j, err := t.attachShared(dst.base, f, depth+1); done {
					if err != nil {
						return err
					}
					if t.err != nil {
						errRank = f.rank[j]
					}
					continue
				}
			}
		}
		nx, err := t.b.peek()
		if err != nil {
			return err
		}
		if nx.Kind == stream.KindInlineBody {
			t.b.peeked = false
			j := nx.Field
			if !decodes(j) {
				if err := t.checkInline(nx); err != nil {
					return err
				}
				continue
			}
			if err := t.inline(dst.value(), nx, f, depth); err != nil {
				return err
			}
			restore(j)
			continue
		}
		if nx.Role != stream.RoleAttachment || nx.Kind == stream.KindArrayEnd || nx.Kind == stream.KindObjectEnd {
			break
		}
		t.b.peeked = false
		if j := nx.Field; j >= 0 {
			steps := f.leaf[j]
			if steps == nil || !decodes(j) {
				if err := t.skip(nx); err != nil {
					return err
				}
				continue
			}
			if err := t.value(t.target(dst.value(), steps), nx, depth+1); err != nil {
				return err
			}
			restore(j)
			continue
		}
		name := t.b.text(nx.Key)
		line := nx.Line
		if rowHas(p, absent, late, name) {
			return &SyntaxError{Line: line, Column: 1, Category: lexer.DuplicateKey,
				Msg: "attachment " + lexer.Quote([]byte(name)) + " collides with a decoded field"}
		}
		x, err := t.b.value(nx)
		if err != nil {
			return err
		}
		late = append(late, Member{Key: name, Value: x})
	}
	if len(late) > 0 && t.err == nil {
		vp := valuePlanFor(f.typ)
		rv := dst.value()
		for _, m := range late {
			if idx, ok := vp.field([]byte(m.Key)); ok {
				if err := assignValue(fieldByIndex(rv, idx), m.Value, depth+1, t.form); err != nil {
					t.err = positioned(err, line, col, off, false)
					break
				}
			}
		}
	}
	return nil
}

// attachShared decodes the attachment on the stream's current line into
// the row at base when it is a table of its table's shared array schema
// into a column whose field is a slice of structs (sharedFill): the table
// opens without an event (stream.OpenShared) and its rows go into the
// field as slice would put them. done false leaves the line to Read.
func (t *typedDecoder) attachShared(base unsafe.Pointer, f *tableFill, depth int) (done bool, j int, err error) {
	if depth > 10000 {
		return false, 0, nil // value hands such a depth to the tree path
	}
	j, count, decl, ok := t.b.d.SharedAttachment()
	if !ok || j >= len(f.shared) || f.shared[j].typ == nil {
		return false, 0, nil
	}
	sf := &f.shared[j]
	if len(decl) == 0 || len(sf.decl) != len(decl) || &sf.decl[0] != &decl[0] {
		sf.decl, sf.p = decl, t.b.plan(decl, 0)
		sf.f = sf.p.fill(sf.typ.Elem())
	}
	if sf.f == nil {
		return false, 0, nil
	}
	t.b.d.OpenShared(j, count, decl)
	return true, j, t.table(sliceDst{typ: sf.typ, p: unsafe.Add(base, f.direct[j].off)}, count, sf.p, sf.f, false, depth)
}

// rowTarget is the struct a row fills: at base, where the plain scalar
// fields are stored (nil under purego, where nothing is), and as a
// reflect.Value, made when first needed (the rows of a carved table
// mostly need none).
type rowTarget struct {
	rv   reflect.Value
	base unsafe.Pointer
	typ  reflect.Type
}

// valueTarget is the rowTarget of the addressable struct rv.
func valueTarget(rv reflect.Value) rowTarget {
	r := rowTarget{rv: rv, typ: rv.Type()}
	if !box.Purego {
		r.base = unsafe.Pointer(rv.UnsafeAddr())
	}
	return r
}

// value returns the struct as a reflect.Value.
func (r *rowTarget) value() reflect.Value {
	if !r.rv.IsValid() {
		r.rv = reflect.NewAt(r.typ, r.base).Elem()
	}
	return r.rv
}

// rowHas reports whether the row the tree path builds (its absent cells
// in absent, and the '>'-named attachments before) has a member named name.
func rowHas(p *tablePlan, absent cellSet, late []Member, name string) bool {
	for _, c := range p.cols {
		if c.name == name && !colAbsent(c, absent) {
			return true
		}
	}
	for _, m := range late {
		if m.Key == name {
			return true
		}
	}
	return false
}

// cellSet is a set of a row's columns: a bit mask for the first 64, a map
// beyond (rare: only wider rows allocate).
type cellSet struct {
	bits uint64
	more map[int]bool
}

func (s *cellSet) has(j int) bool {
	if j < 64 {
		return s.bits&(1<<j) != 0
	}
	return s.more[j]
}

// add puts column j in the set.
func (s *cellSet) add(j int) {
	if j < 64 {
		s.bits |= 1 << j
		return
	}
	if s.more == nil {
		s.more = map[int]bool{}
	}
	s.more[j] = true
}

// absentCells returns the set of a row's absent (`~`) cells.
func absentCells(cells []lexer.Scalar) cellSet {
	var s cellSet
	for j := range cells {
		if cells[j].Kind == lexer.KindMissing {
			s.add(j)
		}
	}
	return s
}

// colAbsent reports whether the tree path leaves plan node c out of the row.
func colAbsent(c *column, absent cellSet) bool {
	if c.col >= 0 {
		return absent.has(c.col)
	}
	for _, ch := range c.children {
		if !colAbsent(ch, absent) {
			return false
		}
	}
	return true
}

// colState is the state the tree path gives a plan node for row ev.
func colState(c *column, ev *stream.Event) cellState {
	if c.col >= 0 {
		switch ev.Cells[c.col].Kind {
		case lexer.KindMissing:
			return cellAbsent
		case lexer.KindNull:
			return cellNull
		}
		return cellValue
	}
	allAbsent, allNull := true, true
	for _, ch := range c.children {
		st := colState(ch, ev)
		allAbsent = allAbsent && st == cellAbsent
		allNull = allNull && st == cellNull
	}
	switch {
	case allAbsent:
		return cellAbsent
	case allNull:
		return cellNull
	}
	return cellValue
}

// node fills the field of node n from row ev; an error sets *errRank.
func (t *typedDecoder) node(rv reflect.Value, n *fillNode, ev *stream.Event, depth int, f *tableFill, errRank *int) {
	if n.idx == nil || t.err != nil {
		return
	}
	if n.col >= 0 {
		c := &ev.Cells[n.col]
		switch c.Kind {
		case lexer.KindMissing, lexer.KindAttach, lexer.KindAttachSchema:
			return // absent, or filled by the attachment that follows
		}
		t.cell(fieldByIndex(rv, n.idx), n.code, n.elem, c, ev, depth+1)
		if t.err != nil {
			*errRank = f.rank[n.col]
		}
		return
	}
	switch colState(n.c, ev) {
	case cellAbsent:
		return
	case cellNull:
		if n.ptr {
			fieldByIndex(rv, n.idx).SetZero()
		}
		return // null into a struct has no effect
	}
	fv := fieldByIndex(rv, n.idx)
	if n.ptr {
		if fv.IsNil() {
			fv.Set(reflect.New(n.typ.Elem()))
		}
		fv = fv.Elem()
	}
	var base unsafe.Pointer
	if !box.Purego {
		base = unsafe.Pointer(fv.UnsafeAddr())
	}
	for i := range n.children {
		ch := &n.children[i]
		if ch.direct && t.store(unsafe.Add(base, ch.off), ch, &ev.Cells[ch.col]) {
			continue
		}
		t.node(fv, ch, ev, depth+1, f, errRank)
		if t.err != nil {
			return
		}
	}
}

// target walks from the row rv to the field of a column.
func (t *typedDecoder) target(rv reflect.Value, steps []fillStep) reflect.Value {
	for _, s := range steps {
		rv = fieldByIndex(rv, s.idx)
		if s.ptr {
			if rv.IsNil() {
				rv.Set(reflect.New(rv.Type().Elem()))
			}
			rv = rv.Elem()
		}
	}
	return rv
}

// inline fills the field of a positional inline-object body.
func (t *typedDecoder) inline(rv reflect.Value, nx *stream.Event, f *tableFill, depth int) error {
	steps := f.leaf[nx.Field]
	if steps == nil {
		return t.checkInline(nx)
	}
	fv := t.target(rv, steps)
	for fv.Kind() == reflect.Pointer && !valuePlanFor(fv.Type()).viaJSON {
		if fv.IsNil() {
			fv.Set(reflect.New(fv.Type().Elem()))
		}
		fv, depth = fv.Elem(), depth+1
	}
	if fv.Kind() == reflect.Struct && !valuePlanFor(fv.Type()).viaJSON {
		vp := valuePlanFor(fv.Type())
		for i, name := range nx.Fields {
			idx, ok := vp.field(name)
			if !ok {
				continue
			}
			field := fieldByIndex(fv, idx)
			code, elem := scalarCode(field.Type())
			t.cell(field, code, elem, &nx.Cells[i], nx, depth+1)
		}
		return t.checkInline(nx)
	}
	inner := t.b.members(len(nx.Fields))
	for i, name := range nx.Fields {
		v, err := t.b.scalar(&nx.Cells[i])
		if err != nil {
			return err
		}
		inner = append(inner, Member{Key: t.b.text(name), Value: v})
	}
	if err := assignValue(fv, inner, depth, t.form); err != nil {
		t.fail(err, nx, 1)
	}
	return nil
}

// checkInline reports the error the tree path's conversion of an inline
// body's cells would (a guard: the stream decoder rejects such cells).
func (t *typedDecoder) checkInline(nx *stream.Event) error {
	for i := range nx.Cells {
		if c := &nx.Cells[i]; c.Kind == lexer.KindFloat {
			if _, err := t.b.scalar(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// store writes cell c to the field of node n at p, a plain scalar of kind
// n.kind, when it fits exactly as cell would store it; false leaves the
// field to cell (nulls, mismatches, overflows and their errors).
func (t *typedDecoder) store(p unsafe.Pointer, n *fillNode, c *lexer.Scalar) bool {
	switch c.Kind {
	case lexer.KindString:
		if n.kind == reflect.String {
			*(*string)(p) = t.b.text(c.Bytes)
			return true
		}
	case lexer.KindBool:
		if n.kind == reflect.Bool {
			*(*bool)(p) = c.Bool
			return true
		}
	case lexer.KindInt:
		v := c.Int
		switch n.kind {
		case reflect.Int64:
			*(*int64)(p) = v
			return true
		case reflect.Int:
			if int64(int(v)) == v {
				*(*int)(p) = int(v)
				return true
			}
		case reflect.Int32:
			if int64(int32(v)) == v {
				*(*int32)(p) = int32(v)
				return true
			}
		case reflect.Int16:
			if int64(int16(v)) == v {
				*(*int16)(p) = int16(v)
				return true
			}
		case reflect.Int8:
			if int64(int8(v)) == v {
				*(*int8)(p) = int8(v)
				return true
			}
		case reflect.Uint64:
			if v >= 0 {
				*(*uint64)(p) = uint64(v)
				return true
			}
		case reflect.Uint:
			if v >= 0 && uint64(uint(v)) == uint64(v) {
				*(*uint)(p) = uint(v)
				return true
			}
		case reflect.Uintptr:
			if v >= 0 && uint64(uintptr(v)) == uint64(v) {
				*(*uintptr)(p) = uintptr(v)
				return true
			}
		case reflect.Uint32:
			if v >= 0 && v <= math.MaxUint32 {
				*(*uint32)(p) = uint32(v)
				return true
			}
		case reflect.Uint16:
			if v >= 0 && v <= math.MaxUint16 {
				*(*uint16)(p) = uint16(v)
				return true
			}
		case reflect.Uint8:
			if v >= 0 && v <= math.MaxUint8 {
				*(*uint8)(p) = uint8(v)
				return true
			}
		case reflect.Float64:
			*(*float64)(p) = float64(v)
			return true
		}
	case lexer.KindFloat:
		if n.kind == reflect.Float64 {
			if f, err := lexer.ParseFloat(c.Bytes); err == nil {
				*(*float64)(p) = f
				return true
			}
		}
	}
	return false
}
