package generic

import (
	"encoding/binary"
	"reflect"
	"sort"
	"sync"
	"unsafe"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/box"
	"github.com/gcfkit/gcf/internal/layout"
)

// The typed fast path of the canonical generic encoder: a slice (or array)
// of structs, a map[string] of such slices, or a struct root whose members
// are scalars, such slices, inline arrays or structs of the same kind
// (`## key` sections), is written straight from the struct fields through
// a per-type plan (reflect once per type), without the Object tree of
// normalize.
//
// A row struct's fields may be scalars, pointers to scalars, nested structs
// of scalars (flattened into `>` path columns, SPEC §7.4.6), pointers to
// such structs, and slices or arrays of scalars (inline array attachments)
// or of row structs (tabular attachments, sharing row 0's array schema
// where SPEC §7.4.5.3 and the general path do). The plan mirrors the
// decisions newPlan takes on the normalized rows; what it cannot decide
// from the type alone (omitempty, nil pointers and slices, empty slices) a
// pre-pass over the rows decides as newPlan would, or gives up.
//
// It writes exactly the bytes of the general path (normalize, then
// appendLayout) and never reports an error of its own: on anything it does
// not handle, and on every error (a limit, invalid UTF-8, a non-finite
// float, an unsigned integer above MaxInt64, a row that omitempty makes
// non-uniform), it gives up and the general path runs from the start,
// producing that error as before.

// fsOp is how a row field or a root member is written.
type fsOp uint8

const (
	// fsCell: a scalar field, one cell (root: `key=value`).
	fsCell fsOp = iota
	// fsPtrCell: a pointer to a scalar, `-` when nil.
	fsPtrCell
	// fsNested: a struct of scalars (and such structs), flattened into its
	// `>` path columns (SPEC §7.4.6; rows only).
	fsNested
	// fsPtrNested: a pointer to such a struct: flattened when some row holds
	// one (nil rows write `-` in every column), one `-` column when none
	// does (rows only).
	fsPtrNested
	// fsTable: a slice or array of row structs: a `^` cell and a tabular
	// attachment (root: a `## key` table).
	fsTable
	// fsInline: a slice or array of scalars: a `^` cell and an inline
	// array attachment (root: `key[N]: ...`).
	fsInline
	// fsSection: a struct member of an object (the root or a section): a
	// `## key` section holding its members (members only).
	fsSection
	// fsPtrSection: a pointer to such a struct: `key=-` when nil (members
	// only).
	fsPtrSection
)

// fsLeaf is a scalar leaf of a flattened struct.
type fsLeaf struct {
	off  uintptr // fsNested: in the row; fsPtrNested: in the pointed-to struct
	kind reflect.Kind
}

// fsCol is a field of a row struct or a member of a struct root.
type fsCol struct {
	name   string
	key    string // name as written (bare or quoted)
	index  []int
	off    uintptr // the field's offset in the row struct (rows only)
	i0     int     // index[0] when len(index) == 1, else -1
	op     fsOp
	kind   reflect.Kind // fsCell, fsPtrCell; fsInline: the element's
	omit   bool         // omitempty (and the field can be empty)
	zero   bool         // omitzero (struct roots only)
	leaves []fsLeaf     // fsNested, fsPtrNested
	paths  string       // fsNested, fsPtrNested: the path columns, each followed by ','
	rows   *fsRows      // fsTable
	sub    []fsCol      // fsSection, fsPtrSection: the members
	array  bool         // fsTable, fsInline: an array type (never nil)
	alen   int          // fsTable, fsInline of an array type: its length
}

// fsRows is the plan of a row struct type: the columns of one table.
type fsRows struct {
	cols  []fsCol
	decl  string // `{fields}` when no column is fsPtrNested
	nf    int    // declared fields, every fsPtrNested flattened
	omit  bool   // some column has omitempty
	scan  bool   // some column is fsPtrNested or fsTable (see fsTable)
	dyn   bool   // some column is fsPtrNested: decl depends on the rows
	atts  bool   // some column is fsTable or fsInline
	flat  bool   // every column is fsCell or fsPtrCell (geFlatRecords)
	cells bool   // every column is fsCell, fsNested, fsTable or fsInline
	depth int    // nesting of a row as normalize counts it

	// cellv (cells): each cell's offset in the row and kind, in order: a
	// column's, a flattened column's leaves', or fsSeqSlice and fsSeqArray
	// for a sequence's `^` (a nil slice's `-`).
	cellv []fsLeaf
	esz   uintptr // the size of a row struct

	seqs  []int // the indices of the fsTable and fsInline columns
	scans []int // the indices of the columns fsScan looks at

	// refl: fsTableTo reads the rows through reflect too: for fsScan's
	// omitempty checks, an inline array's elements, or a table column
	// whose rows are (refl).
	refl bool
}

// The kinds of fsRows.cellv's sequence cells: a slice (`-` when nil, else
// `^`) and an array (`^`).
const (
	fsSeqSlice = reflect.Slice
	fsSeqArray = reflect.Array
)

// fsPlan is the plan of a root type (after pointers are dereferenced).
type fsPlan struct {
	ok    bool
	kind  reflect.Kind // Struct, Map, Slice or Array
	cols  []fsCol      // Struct: the members (as fsMembersOf plans them)
	elem  fsCol        // Map: the value (fsTable); Slice, Array: itself
	depth int          // nesting of a value as normalize counts it
}

var fsPlans sync.Map // reflect.Type -> *fsPlan

// Per-column state of a table, gathered by the pre-pass of fsTable.
const (
	fsAny    uint8 = 1 << iota // fsPtrNested: some row holds a struct
	fsShared                   // fsTable: rows after row 0 use its array schema
	fsConst                    // a constant column (fsFactor)
)

// appendStructs is the fast path of appendGeneric; ok false means v is
// left to the general path (dst may have been written past its length).
// With spill, dst's bytes past the result may be overwritten too, by the
// cell writers' word stores (fsIntCell, fsFloatCell); without it they
// are not, as append leaves them.
func appendStructs(dst []byte, v any, lim Limits, v353, spill bool) (out []byte, ok bool) {
	if v == nil {
		return dst, false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() || fsHasMarshaler(rv.Type()) {
			return dst, false
		}
		rv = rv.Elem()
	}
	p := fsPlanOf(rv.Type())
	if !p.ok || box.Purego {
		// The purego build has no offset reads: the general path writes.
		return dst, false
	}
	e := getGE()
	if e.lim.Begin(lim, len(dst)); !e.lim.DepthOK(p.depth) {
		// Within the limit the general path's depth check cannot fail:
		// p.depth bounds normalize's nesting, which bounds the layout's.
		putGE(e)
		return dst, false
	}
	e.v353, e.spill = v353, spill
	e.buf = appendGenericHeader(dst)
	ok = e.lineDone() == nil && e.fsRoot(p, rv)
	out = e.buf
	putGE(e)
	return out, ok
}

// fsField returns the field of row struct value rv at c's index.
func fsField(rv reflect.Value, c *fsCol) reflect.Value {
	if c.i0 >= 0 {
		return rv.Field(c.i0)
	}
	return rv.FieldByIndex(c.index)
}

// fsRoot writes the body of a root of plan p; false means fall back.
func (e *geEncoder) fsRoot(p *fsPlan, rv reflect.Value) bool {
	switch p.kind {
	case reflect.Struct:
		return e.fsMembers(p.cols, rv, 0)
	case reflect.Map:
		if rv.IsNil() || rv.Len() == 0 {
			return false
		}
		if !e.lim.ElementsOK(rv.Len()) {
			return false
		}
		type kv struct {
			k string
			v reflect.Value
		}
		pairs := make([]kv, 0, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			pairs = append(pairs, kv{it.Key().String(), it.Value()})
		}
		sort.Slice(pairs, func(i, j int) bool { return pairs[i].k < pairs[j].k })
		var kb []byte
		for _, kv := range pairs {
			var bad int
			if kb, bad = encoder.AppendKeyValid(kb[:0], kv.k); bad >= 0 {
				return false
			}
			if !e.fsMember(&p.elem, string(kb), kv.v, 0) {
				return false
			}
		}
		return true
	default:
		if p.kind == reflect.Slice && rv.IsNil() {
			return false
		}
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.fsTable(p.elem.rows, rv, 0, tabOwn)
	}
}

// fsMembers writes the members of struct value rv (plan cols) at
// indentation d, as geEncoder.members does. An object whose members are
// all objects, two or more, may be a keyed map (keyedOK): it is left to
// the general path.
func (e *geEncoder) fsMembers(cols []fsCol, rv reflect.Value, d int) bool {
	n, objs := 0, 0
	for i := range cols {
		c := &cols[i]
		fv := fsField(rv, c)
		if c.omit && normIsEmpty(fv) || c.zero && fv.IsZero() {
			continue
		}
		n++
		if c.op == fsSection || c.op == fsPtrSection && !fv.IsNil() {
			objs++
		}
	}
	if !e.lim.ElementsOK(n) || objs == n && layout.KeyedSize(n, layout.MinKeyed) {
		return false // a keyed table if its members make one: the general path decides
	}
	for i := range cols {
		c := &cols[i]
		fv := fsField(rv, c)
		if c.omit && normIsEmpty(fv) || c.zero && fv.IsZero() {
			continue
		}
		if !e.fsMember(c, c.key, fv, d) {
			return false
		}
	}
	return true
}

// fsMember writes a member of an object at indentation d (as
// geEncoder.members does), under key (written form).
func (e *geEncoder) fsMember(c *fsCol, key string, fv reflect.Value, d int) bool {
	e.buf = encoder.AppendIndent(e.buf, d)
	switch c.op {
	case fsSection, fsPtrSection:
		if c.op == fsPtrSection {
			if fv.IsNil() {
				break // null
			}
			fv = fv.Elem()
		}
		e.buf = encoder.AppendSectionMark(e.buf)
		e.buf = append(e.buf, key...)
		return e.nl() == nil && e.fsMembers(c.sub, fv, d+1)
	case fsTable, fsInline:
		if !c.array && fv.IsNil() {
			break // null
		}
		if c.op == fsInline && fv.Len() > 0 {
			e.buf = append(e.buf, key...)
			return e.fsInline(c.kind, fv)
		}
		e.buf = encoder.AppendSectionMark(e.buf)
		e.buf = append(e.buf, key...)
		e.buf = encoder.AppendWordSep(e.buf)
		if c.op == fsInline {
			e.buf = encoder.AppendEmptyArray(e.buf)
			return e.nl() == nil
		}
		return e.fsTable(c.rows, fv, d, tabOwn)
	case fsPtrCell:
		if fv.IsNil() {
			break
		}
		fv = fv.Elem()
		fallthrough
	default:
		e.buf = append(e.buf, key...)
		e.buf = encoder.AppendAssign(e.buf)
		return e.fsScalar(c.kind, fv, encoder.Value) && e.nl() == nil
	}
	e.buf = append(e.buf, key...)
	e.buf = encoder.AppendNull(encoder.AppendAssign(e.buf))
	return e.nl() == nil
}

// fsInline writes `[N]: v1,v2,...` and the line end for a non-empty
// sequence of scalars of kind k (as geEncoder.inline does).
func (e *geEncoder) fsInline(k reflect.Kind, sv reflect.Value) bool {
	n := sv.Len()
	if !e.lim.ElementsOK(n) {
		return false
	}
	e.buf = encoder.AppendInlineHead(e.buf, n)
	for i := 0; i < n; i++ {
		if !e.fsScalar(k, sv.Index(i), encoder.Element) {
			return false
		}
		e.buf = encoder.AppendItemSep(e.buf)
	}
	e.buf = encoder.EndLine(e.buf)
	return e.lineDone() == nil
}

// fsScalar appends a scalar field in ctx; false means fall back.
func (e *geEncoder) fsScalar(k reflect.Kind, fv reflect.Value, ctx encoder.Context) bool {
	switch k {
	case reflect.String:
		e.str(fv.String(), ctx)
	case reflect.Bool:
		e.buf = encoder.AppendBool(e.buf, fv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = encoder.AppendInt(e.buf, fv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var err error
		e.buf, err = encoder.AppendUint(e.buf, fv.Uint())
		return err == nil
	case reflect.Float64:
		var err error
		e.buf, err = encoder.AppendFloat(e.buf, fv.Float())
		return err == nil
	case reflect.Float32:
		f, _, err := normFloat32(float32(fv.Float()))
		if err != nil {
			return false
		}
		e.buf, err = encoder.AppendFloat(e.buf, f.(float64))
		return err == nil
	default:
		return false
	}
	return true
}

// fsCellAt appends the scalar of kind k at p to b as a cell (the fsScalar
// of a field read through its address); false means fall back, also for
// a string that is not valid UTF-8 (the general path reports it). It
// works on a local slice, not e.buf: a store to the pooled encoder costs
// a write barrier while the collector runs.
func fsCellAt(b []byte, k reflect.Kind, p unsafe.Pointer) ([]byte, bool) {
	var u uint64
	switch k {
	case reflect.String:
		s := *(*string)(p)
		if out, ok := fsPlainCell(b, s); ok {
			return out, true
		}
		if !encoder.NeedsQuote(s, encoder.Cell) {
			return append(b, s...), true
		}
		b, bad := encoder.AppendQuotedValid(b, s)
		return b, bad < 0
	case reflect.Bool:
		return encoder.AppendBool(b, *(*bool)(p)), true
	case reflect.Int:
		return encoder.AppendInt(b, int64(*(*int)(p))), true
	case reflect.Int8:
		return encoder.AppendInt(b, int64(*(*int8)(p))), true
	case reflect.Int16:
		return encoder.AppendInt(b, int64(*(*int16)(p))), true
	case reflect.Int32:
		return encoder.AppendInt(b, int64(*(*int32)(p))), true
	case reflect.Int64:
		return encoder.AppendInt(b, *(*int64)(p)), true
	case reflect.Float64:
		b, err := encoder.AppendFloat(b, *(*float64)(p))
		return b, err == nil
	case reflect.Float32:
		f, _, err := normFloat32(*(*float32)(p))
		if err != nil {
			return b, false
		}
		b, err = encoder.AppendFloat(b, f.(float64))
		return b, err == nil
	case reflect.Uint:
		u = uint64(*(*uint)(p))
	case reflect.Uint8:
		u = uint64(*(*uint8)(p))
	case reflect.Uint16:
		u = uint64(*(*uint16)(p))
	case reflect.Uint32:
		u = uint64(*(*uint32)(p))
	case reflect.Uint64:
		u = *(*uint64)(p)
	default:
		return b, false
	}
	b, err := encoder.AppendUint(b, u)
	return b, err == nil
}

// fsTable writes a sequence of row structs of plan r from its count
// bracket on, as geEncoder.arrayTail and table do: `[0]`, or `[N]{fields}`
// (`[N]` alone with tabShared, under its field's shared array schema;
// constant columns factored with tabOwn) and the rows at indentation bi,
// each followed by its attachments at bi, their bodies at bi+2.
func (e *geEncoder) fsTable(r *fsRows, sv reflect.Value, bi int, how tabHow) bool {
	n := sv.Len()
	var data unsafe.Pointer
	switch {
	case layout.ArrayForm(n, false, nil) == layout.Empty:
	case sv.Kind() == reflect.Slice:
		data = sv.UnsafePointer()
	case !sv.CanAddr():
		return false // keep to addressable elements (cheap field reads)
	default:
		data = sv.Addr().UnsafePointer()
	}
	b, ok := e.fsTableTo(e.buf, r, sv, data, n, bi, how)
	e.buf = b
	return ok
}

// fsTableTo is fsTable writing after b instead of e.buf (which it may
// use as scratch) and returning the result: a nested table passes its
// bytes on without a store to the pooled encoder, each a write barrier
// while the collector marks. The n rows are at data, in addressable
// memory; sv is their sequence as a reflect.Value, read only when r.refl
// (a caller may pass the zero Value otherwise).
func (e *geEncoder) fsTableTo(b []byte, r *fsRows, sv reflect.Value, data unsafe.Pointer, n, bi int, how tabHow) ([]byte, bool) {
	if layout.ArrayForm(n, false, nil) == layout.Empty {
		e.buf = encoder.AppendEmptyArray(b)
		ok := e.nl() == nil
		return e.buf, ok
	}
	if !e.lim.ElementsOK(n) {
		return b, false
	}
	esz := r.esz
	sb := len(e.flags) // column states: e.flags[sb : sb+len(r.cols)]
	if (r.omit || r.scan) && !e.fsScan(r, sv, data, n) {
		return b, false
	}
	consts := how == tabOwn && !e.v353 && n >= 2 && e.fsFactor(r, data, n, sb)
	// The table is written into b, stored to e.buf only around the calls
	// that write there: a store to the pooled encoder costs a write
	// barrier while the collector marks.
	b = encoder.AppendCount(b, n, false)
	switch {
	case how == tabShared:
	case !r.dyn && !consts:
		if !e.lim.FieldsOK(r.nf) {
			return b, false
		}
		b = append(b, r.decl...)
	default:
		e.buf = b
		if !e.fsDecl(r, sb, consts, data) {
			return e.buf, false
		}
		b = e.buf
	}
	b = encoder.AppendLineEnd(b)
	if !e.lim.LineDone(len(b)) {
		return b, false
	}
	// The cells are read through the fields' offsets from the address of
	// each row (sv is a slice or an addressable array, n > 0): reflect's
	// Index and Field cost more than the writing. Each read is of the
	// field's own kind (fsCellAt), at an offset reflect gave for the row's
	// type, through no pointer but the nil-checked ones of fsPtrCell and
	// fsPtrNested; the memory stays reachable through sv.
	// Whether a row has attachments is read through the offsets too; only a
	// row that has one is indexed through reflect, for their bodies.
	for i := 0; i < n; i++ {
		rp := unsafe.Add(data, uintptr(i)*esz)
		var ok bool
		atts := r.atts && fsHasAtts(r, rp)
		if b, ok = e.fsRow(b, r, i, rp, atts, bi, sb, consts); !ok || !e.lim.LineDone(len(b)) {
			return b, false
		}
		if atts {
			var row reflect.Value
			if r.refl {
				row = sv.Index(i)
			}
			if b, ok = e.fsAttachments(b, r, i, rp, row, bi, sb); !ok {
				return b, false
			}
		}
	}
	e.flags = e.flags[:sb]
	return b, true
}

// fsScan is the pre-pass of fsTable: it pushes the column states of r on
// e.flags and settles over the rows of sv what the type leaves open, as
// newPlan would on the normalized rows. A row whose omitempty field is
// empty makes the union non-uniform (false: fall back); a pointer-to-struct
// column is flattened if some row holds a struct (fsAny); a table column
// shares row 0's array schema (fsShared, as sharedArrays decides) when its
// rows are flat, row 0 holds a non-empty sequence and no later row an
// empty one. The rows are at data (sv's elements): only the omitempty
// checks read them through reflect.
func (e *geEncoder) fsScan(r *fsRows, sv reflect.Value, data unsafe.Pointer, n int) bool {
	sb := len(e.flags)
	for range r.cols {
		e.flags = append(e.flags, 0)
	}
	st := e.flags[sb:]
	for i := 0; i < n; i++ {
		rp := unsafe.Add(data, uintptr(i)*r.esz)
		for _, j := range r.scans {
			c := &r.cols[j]
			if c.omit && normIsEmpty(fsField(sv.Index(i), c)) {
				return false
			}
			fp := unsafe.Add(rp, c.off)
			switch {
			case c.op == fsPtrNested:
				if *(*unsafe.Pointer)(fp) != nil {
					st[j] |= fsAny
				}
			case c.op != fsTable:
			default:
				// layout.SharedArrays, folded row by row: a sequence of
				// row structs whose fields are all cells (rows.flat) is
				// flat records with the type's union when not empty.
				r := layout.OtherArray
				switch {
				case fsNilSeq(c, fp):
					r = layout.NoArray
				case c.rows.flat && fsSeqLen(c, fp) > 0:
					r = layout.FlatArray
				}
				if layout.SharedStep(i, r, i == 0 || st[j]&fsShared != 0) {
					st[j] |= fsShared
				} else {
					st[j] &^= fsShared
				}
			}
		}
	}
	return true
}

// fsRow appends row i (at rp) at indentation bi to b, up to its line end:
// `@i ` when it has attachments (atts), then its cells (see writeRows).
// The column states are at e.flags[sb:].
func (e *geEncoder) fsRow(b []byte, r *fsRows, i int, rp unsafe.Pointer, atts bool, bi, sb int, consts bool) ([]byte, bool) {
	spill := e.spill
	b = fsIndent(b, bi, spill)
	if atts {
		b = fsItemIndex(b, i, spill)
	}
	ok := true
	if r.cells && !consts {
		// The columns' offsets and kinds side by side (cellv), not in the
		// wide fsCol records.
		// The common kinds are written here, with their separators.
		for _, l := range r.cellv {
			p := unsafe.Add(rp, l.off)
			switch l.kind {
			case reflect.String:
				s := *(*string)(p)
				// fsPlainCell's case of 8 to 16 bytes, here with the
				// delimiter: two words, the second ending at s's end.
				if n, m := len(s), len(b); uint(n-8) <= 8 && cap(b)-m >= 17 && encoder.PlainEnds(s) {
					sp := unsafe.Pointer(unsafe.StringData(s))
					w0, w1 := fsLoad64(sp), fsLoad64(unsafe.Add(sp, n-8))
					if fsSpecial(w0)|fsSpecial(w1) == 0 {
						dp := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), m)
						fsStore64(dp, w0)
						fsStore64(unsafe.Add(dp, n-8), w1)
						*(*byte)(unsafe.Add(dp, n)) = encoder.CellSep
						b = b[:m+n+1]
						break
					}
				}
				if b, ok = fsPlainCell(b, s); !ok {
					if b, ok = fsCellAt(b, l.kind, p); !ok {
						return b, false
					}
				}
				b = encoder.AppendCellSep(b)
			case reflect.Int, reflect.Int64:
				var v int64
				if l.kind == reflect.Int {
					v = int64(*(*int)(p)) // 4 bytes on 32-bit machines
				} else {
					v = *(*int64)(p)
				}
				// fsIntCell's common case, here: no call, so the loop's
				// state stays in registers.
				u := uint64(v)
				if v < 0 {
					u = -u
				}
				n := len(b)
				if u >= 1e7 || !spill || cap(b)-n < 9 {
					b = fsIntCell(b, v, spill)
					break
				}
				if v < 0 {
					b = b[:n+1]
					b[n] = '-'
					n++
				}
				w, k := fsDigits(u)
				binary.LittleEndian.PutUint64(b[n:n+8], w|encoder.CellSep<<(8*k))
				b = b[:n+k+1]
			case reflect.Bool:
				b = encoder.AppendCellSep(encoder.AppendBool(b, *(*bool)(p)))
			case reflect.Float64:
				if b, ok = fsFloatCell(b, *(*float64)(p), spill); !ok {
					return b, false
				}
			default:
				// A sequence's cell is tested here, off the common kinds'
				// path (their switch stays as it was).
				switch {
				case l.kind == fsSeqSlice && *(*unsafe.Pointer)(p) == nil: // fsNilSeq
					b = encoder.AppendNull(b)
				case l.kind == fsSeqSlice || l.kind == fsSeqArray:
					b = encoder.AppendAttachMark(b)
				default:
					if b, ok = fsCellAt(b, l.kind, p); !ok {
						return b, false
					}
				}
				b = encoder.AppendCellSep(b)
			}
		}
		b = encoder.EndLine(b)
		return b, true
	}
	for j := range r.cols {
		c := &r.cols[j]
		if consts && e.flags[sb+j]&fsConst != 0 {
			continue // in the declaration
		}
		fp := unsafe.Add(rp, c.off)
		switch c.op {
		case fsCell:
			b, ok = fsCellAt(b, c.kind, fp)
		case fsPtrCell:
			if p := *(*unsafe.Pointer)(fp); p == nil {
				b = encoder.AppendNull(b)
			} else {
				b, ok = fsCellAt(b, c.kind, p)
			}
		case fsNested:
			if b, ok = fsLeaves(b, c, rp); !ok {
				return b, false
			}
			continue
		case fsPtrNested:
			p := *(*unsafe.Pointer)(fp)
			switch {
			case e.flags[sb+j]&fsAny == 0:
				b = encoder.AppendNull(b) // no row holds one: a plain column
			case p == nil:
				for range c.leaves {
					b = encoder.AppendCellSep(encoder.AppendNull(b))
				}
				continue
			default:
				if b, ok = fsLeaves(b, c, p); !ok {
					return b, false
				}
				continue
			}
		default: // fsTable, fsInline
			if fsNilSeq(c, fp) {
				b = encoder.AppendNull(b)
			} else {
				b = encoder.AppendAttachMark(b)
			}
		}
		if !ok {
			return b, false
		}
		b = encoder.AppendCellSep(b)
	}
	b = encoder.EndLine(b)
	return b, true
}

// fsAttachments writes the attachments of row i (at rp, its Value row
// when r.refl, else the zero Value) after b and returns the result (e.buf
// is scratch, as in fsTableTo),
// at indentation bi, their bodies at bi+2 (see attach): a `.f` table,
// under the shared array schema after row 0 where fsScan found one, or a
// `.f` inline array. The column states are at e.flags[sb:].
func (e *geEncoder) fsAttachments(b []byte, r *fsRows, i int, rp unsafe.Pointer, row reflect.Value, bi, sb int) ([]byte, bool) {
	for _, j := range r.seqs {
		c := &r.cols[j]
		fp := unsafe.Add(rp, c.off)
		if fsNilSeq(c, fp) {
			continue
		}
		var fv reflect.Value
		if c.op == fsInline || c.rows.refl {
			fv = fsField(row, c)
		}
		b = encoder.AppendIndent(b, bi)
		b = encoder.AppendAttachDot(b)
		b = append(b, c.key...)
		b = encoder.AppendWordSep(b)
		switch {
		case c.op == fsTable:
			how := tabAttached
			if i > 0 && e.flags[sb+j]&fsShared != 0 {
				how = tabShared
			}
			// The rows are read from the field: an array's in the row, a
			// slice's at its data pointer (the header's first word).
			data := fp
			if !c.array {
				data = *(*unsafe.Pointer)(fp)
			}
			var ok bool
			if b, ok = e.fsTableTo(b, c.rows, fv, data, fsSeqLen(c, fp), bi+2, how); !ok {
				return b, false
			}
		case fv.Len() == 0:
			e.buf = encoder.AppendEmptyArray(b)
			if e.nl() != nil {
				return e.buf, false
			}
			b = e.buf
		default:
			e.buf = b
			if !e.fsInline(c.kind, fv) {
				return e.buf, false
			}
			b = e.buf
		}
	}
	return b, true
}

// fsDecl writes the field declaration of r (as geEncoder.decl does),
// taking fsPtrNested columns and, with consts, the constant columns (their
// values read from row 0 at data) from the column states at e.flags[sb:];
// false if it declares more than MaxFields fields or a constant cannot be
// written.
func (e *geEncoder) fsDecl(r *fsRows, sb int, consts bool, data unsafe.Pointer) bool {
	if !r.dyn && !consts {
		if !e.lim.FieldsOK(r.nf) {
			return false
		}
		e.buf = append(e.buf, r.decl...)
		return true
	}
	open := len(e.buf)
	e.buf = encoder.AppendDeclOpen(e.buf)
	nf := 0
	for j := range r.cols {
		c := &r.cols[j]
		switch {
		case c.op == fsNested || c.op == fsPtrNested && e.flags[sb+j]&fsAny != 0:
			e.buf = append(e.buf, c.paths...)
			nf += len(c.leaves)
		case consts && e.flags[sb+j]&fsConst != 0:
			e.buf = append(e.buf, c.key...)
			e.buf = encoder.AppendAssign(e.buf)
			var ok bool
			if e.buf, ok = fsConstAt(e.buf, c, unsafe.Add(data, c.off)); !ok {
				return false
			}
			e.buf = encoder.AppendFieldSep(e.buf)
			nf++
		default:
			e.buf = append(e.buf, c.key...)
			e.buf = encoder.AppendFieldSep(e.buf)
			nf++
		}
	}
	e.buf = encoder.EndConstDecl(e.buf, open)
	return e.lim.FieldsOK(nf)
}

// fsHasAtts reports whether row has an attachment: a sequence column that
// is not nil.
func fsHasAtts(r *fsRows, rp unsafe.Pointer) bool {
	for _, j := range r.seqs {
		if c := &r.cols[j]; !fsNilSeq(c, unsafe.Add(rp, c.off)) {
			return true
		}
	}
	return false
}

// fsNilSeq reports whether the sequence column c (fsTable, fsInline) of a
// row, its field at fp, is a nil slice: a slice is nil when its data
// pointer, the first word of its header, is (reflect.Value.IsNil).
func fsNilSeq(c *fsCol, fp unsafe.Pointer) bool {
	return !c.array && *(*unsafe.Pointer)(fp) == nil
}

// fsSeqLen returns the length of the sequence column c of a row, its
// field at fp: an array's from its type, a slice's from its header (read
// as any slice's, the length does not depend on the element type).
func fsSeqLen(c *fsCol, fp unsafe.Pointer) int {
	if c.array {
		return c.alen
	}
	return len(*(*[]byte)(fp))
}

// fsLeaves appends the cells of a flattened struct column to b: its
// leaves read from the struct at p (the row for fsNested, the pointed-to
// struct for fsPtrNested).
func fsLeaves(b []byte, c *fsCol, p unsafe.Pointer) ([]byte, bool) {
	for k := range c.leaves {
		l := &c.leaves[k]
		var ok bool
		if b, ok = fsCellAt(b, l.kind, unsafe.Add(p, l.off)); !ok {
			return b, false
		}
		b = encoder.AppendCellSep(b)
	}
	return b, true
}

// fsFactor marks the constant columns of the table of r over its n rows
// at data (r.esz apart) fsConst in the column states at e.flags[sb:],
// pushing them if fsScan has not, as geEncoder.factor does: layout.Factor
// over the facts of each column. A scalar column (or pointer to one) is
// eligible, and so is a column every row of which makes null (a nil
// pointer-to-struct column no row fills, a nil slice); flattened columns
// and sequences are not. Typed fields are compared directly; each column's
// scan stops at its first difference. It reports whether any column is
// constant.
func (e *geEncoder) fsFactor(r *fsRows, data unsafe.Pointer, n, sb int) bool {
	if len(e.flags) == sb {
		for range r.cols {
			e.flags = append(e.flags, 0)
		}
	}
	esz := r.esz
	cols := e.cols[:0]
	for j := range r.cols {
		c := &r.cols[j]
		var k layout.Column
		switch c.op {
		case fsCell, fsPtrCell:
			k = layout.Column{Eligible: true, Constant: fsConstant(c, data, esz, n)}
		case fsPtrNested:
			if e.flags[sb+j]&fsAny != 0 {
				break // flattened
			}
			k = layout.Column{Eligible: true, Constant: true} // null in every row
		case fsTable, fsInline:
			if c.array {
				break // `^` in every row
			}
			k = layout.Column{Eligible: true, Constant: true}
			for i := 0; i < n; i++ {
				if !fsNilSeq(c, unsafe.Add(data, uintptr(i)*esz+c.off)) {
					k.Constant = false
					break
				}
			}
		}
		cols = append(cols, k)
	}
	fac, any := layout.Factor(n, cols, e.fac[:0])
	e.cols, e.fac = cols[:0], fac[:0]
	if !any {
		return false
	}
	for j := range r.cols {
		if fac[j] {
			e.flags[sb+j] |= fsConst
		}
	}
	return true
}

// fsConstant reports whether scalar column c (fsCell or fsPtrCell) holds
// the same value in the n rows at data, esz apart: the same cell text, as
// encoder.SameScalar decides for the values normalize makes of them.
func fsConstant(c *fsCol, data unsafe.Pointer, esz uintptr, n int) bool {
	p0 := unsafe.Add(data, c.off)
	if c.op == fsPtrCell {
		p0 = *(*unsafe.Pointer)(p0)
	}
	for i := 1; i < n; i++ {
		p := unsafe.Add(data, uintptr(i)*esz+c.off)
		if c.op == fsPtrCell {
			p = *(*unsafe.Pointer)(p)
			if p == nil || p0 == nil {
				if p != p0 {
					return false
				}
				continue
			}
		}
		if !fsSameAt(c.kind, p0, p) {
			return false
		}
	}
	return true
}

// fsSameAt reports whether the scalars of kind k at a and b are written as
// the same cell. Equal floats are (either zero is 0); NaN is never the
// same, and is rejected when written.
func fsSameAt(k reflect.Kind, a, b unsafe.Pointer) bool {
	switch k {
	case reflect.String:
		return *(*string)(a) == *(*string)(b)
	case reflect.Bool:
		return *(*bool)(a) == *(*bool)(b)
	case reflect.Int:
		return *(*int)(a) == *(*int)(b)
	case reflect.Int8:
		return *(*int8)(a) == *(*int8)(b)
	case reflect.Int16:
		return *(*int16)(a) == *(*int16)(b)
	case reflect.Int32:
		return *(*int32)(a) == *(*int32)(b)
	case reflect.Int64:
		return *(*int64)(a) == *(*int64)(b)
	case reflect.Uint:
		return *(*uint)(a) == *(*uint)(b)
	case reflect.Uint8:
		return *(*uint8)(a) == *(*uint8)(b)
	case reflect.Uint16:
		return *(*uint16)(a) == *(*uint16)(b)
	case reflect.Uint32:
		return *(*uint32)(a) == *(*uint32)(b)
	case reflect.Uint64:
		return *(*uint64)(a) == *(*uint64)(b)
	case reflect.Float64:
		return *(*float64)(a) == *(*float64)(b)
	case reflect.Float32:
		return *(*float32)(a) == *(*float32)(b)
	}
	return false
}

// fsConstAt appends the value of constant column c, at p in row 0, in the
// Const context: `-` for a null one, else its scalar (fsCellAt's rules).
func fsConstAt(b []byte, c *fsCol, p unsafe.Pointer) ([]byte, bool) {
	switch c.op {
	case fsCell:
	case fsPtrCell:
		if p = *(*unsafe.Pointer)(p); p == nil {
			return encoder.AppendNull(b), true
		}
	default:
		return encoder.AppendNull(b), true // null in every row
	}
	if c.kind == reflect.String {
		out, bad := encoder.AppendStringValid(b, *(*string)(p), encoder.Const)
		return out, bad < 0
	}
	return fsCellAt(b, c.kind, p)
}
