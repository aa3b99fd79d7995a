package generic

// The plans of the typed fast path: what encode_structs.go writes a Go
// type with, built once per type from reflect and kept in fsPlans.

import (
	"reflect"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
)

func fsPlanOf(t reflect.Type) *fsPlan {
	if p, ok := fsPlans.Load(t); ok {
		return p.(*fsPlan)
	}
	p := fsNewPlan(t)
	q, _ := fsPlans.LoadOrStore(t, p)
	return q.(*fsPlan)
}

// fsHasMarshaler reports whether t or *t has a method the general path
// calls (json.Marshaler, encoding.TextMarshaler).
func fsHasMarshaler(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(normMarshalerType) || t.Implements(normTextMarshalerType) ||
		p.Implements(normMarshalerType) || p.Implements(normTextMarshalerType)
}

func fsNewPlan(t reflect.Type) *fsPlan {
	p := &fsPlan{kind: t.Kind()}
	if fsHasMarshaler(t) || normFastTypes[t] {
		return p
	}
	seen := map[reflect.Type]bool{}
	switch t.Kind() {
	case reflect.Struct:
		cols, d, ok := fsMembersOf(t, seen)
		if !ok {
			return p
		}
		p.cols = cols
		p.depth = 1 + d
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key().Implements(normTextMarshalerType) {
			return p
		}
		d, ok := fsColOf(&p.elem, t.Elem(), seen)
		if !ok || p.elem.op != fsTable {
			return p
		}
		p.depth = 1 + d
	case reflect.Slice, reflect.Array:
		d, ok := fsColOf(&p.elem, t, seen)
		if !ok || p.elem.op != fsTable {
			return p
		}
		p.depth = d
	default:
		return p
	}
	p.ok = true
	return p
}

// fsMembersOf plans the members of struct type t, written as an object's
// members (the root's, or a `## key` section's): scalars, pointers to
// scalars, tables, inline arrays and (pointers to) such structs as
// sections. It returns the deepest member's nesting as normalize counts
// it (0 without members).
func fsMembersOf(t reflect.Type, seen map[reflect.Type]bool) ([]fsCol, int, bool) {
	if fsHasMarshaler(t) || seen[t] {
		return nil, 0, false
	}
	seen[t] = true
	defer delete(seen, t)
	var cols []fsCol
	d := 0
	for _, f := range normCachedFields(t) {
		if !fsDirect(t, f.index) {
			return nil, 0, false
		}
		ft := t.FieldByIndex(f.index).Type
		if f.omitZero && (ft.Implements(normZeroerType) || reflect.PointerTo(ft).Implements(normZeroerType)) {
			return nil, 0, false
		}
		c := fsCol{name: f.name, index: f.index, omit: f.omitEmpty, zero: f.omitZero}
		if !fsSetKey(&c) {
			return nil, 0, false
		}
		st := ft
		if st.Kind() == reflect.Pointer && st.Elem().Kind() == reflect.Struct {
			st = st.Elem()
		}
		var cd int
		if st.Kind() == reflect.Struct {
			if fsHasMarshaler(ft) || fsHasMarshaler(st) {
				return nil, 0, false
			}
			sub, sd, ok := fsMembersOf(st, seen)
			if !ok {
				return nil, 0, false
			}
			c.sub, c.op, cd = sub, fsSection, 1+sd
			if st != ft {
				c.op = fsPtrSection
			}
		} else {
			var ok bool
			if cd, ok = fsColOf(&c, ft, seen); !ok {
				return nil, 0, false
			}
		}
		cols = append(cols, c)
		d = max(d, cd)
	}
	return cols, d, true
}

// fsSetKey sets c.key from c.name; false if the name is not valid UTF-8.
func fsSetKey(c *fsCol) bool {
	k, bad := encoder.AppendKeyValid(nil, c.name)
	c.key = string(k)
	c.i0 = -1
	if len(c.index) == 1 {
		c.i0 = c.index[0]
	}
	return bad < 0
}

// fsColOf plans a field or member of type ft into c (op, kind, leaves,
// rows) and returns its nesting as normalize counts it; false if the type
// is not planned.
func fsColOf(c *fsCol, ft reflect.Type, seen map[reflect.Type]bool) (int, bool) {
	if c.kind = fsScalarKind(ft); c.kind != reflect.Invalid {
		c.op = fsCell
		return 1, true
	}
	if fsHasMarshaler(ft) {
		return 0, false
	}
	switch ft.Kind() {
	case reflect.Pointer:
		et := ft.Elem()
		if c.kind = fsScalarKind(et); c.kind != reflect.Invalid {
			c.op = fsPtrCell
			return 1, true
		}
		if et.Kind() != reflect.Struct {
			return 0, false
		}
		c.op = fsPtrNested
		return fsFlatten(c, et, 0, seen)
	case reflect.Struct:
		c.op = fsNested
		return fsFlatten(c, ft, c.off, seen)
	case reflect.Slice, reflect.Array:
		et := ft.Elem()
		if c.array = ft.Kind() == reflect.Array; c.array {
			c.alen = ft.Len()
		}
		if c.kind = fsScalarKind(et); c.kind != reflect.Invalid {
			if c.kind == reflect.Uint8 {
				return 0, false // []byte is a base64 string; keep arrays alike
			}
			c.op = fsInline
			return 2, true
		}
		if c.rows = fsRowsOf(et, seen); c.rows == nil {
			return 0, false
		}
		c.op = fsTable
		return 1 + c.rows.depth, true
	}
	return 0, false
}

// fsDirect reports whether the field at index is reached without passing
// through a pointer (an embedded *T may be nil: the general path omits it).
func fsDirect(t reflect.Type, index []int) bool {
	for _, i := range index[:len(index)-1] {
		t = t.Field(i).Type
		if t.Kind() != reflect.Struct {
			return false
		}
	}
	return true
}

// fsScalarKind is normScalarKind, with float32 added.
func fsScalarKind(t reflect.Type) reflect.Kind {
	if t.Kind() == reflect.Float32 {
		if fsHasMarshaler(t) {
			return reflect.Invalid
		}
		return reflect.Float32
	}
	if t.Kind() == reflect.Uintptr {
		return reflect.Invalid
	}
	return normScalarKind(t)
}

// fsRowsOf returns the row plan of struct type et, or nil. Every field
// must be planned, its name free of '>' (such a field would be an
// attachment without a column, SPEC §7.4.6.1 rule 4), and there must be
// one at least (rows of empty objects are not tabular).
func fsRowsOf(et reflect.Type, seen map[reflect.Type]bool) *fsRows {
	if et.Kind() != reflect.Struct || fsHasMarshaler(et) || seen[et] {
		return nil
	}
	seen[et] = true
	defer delete(seen, et)
	r := &fsRows{flat: true, esz: et.Size()}
	decl := []byte{'{'}
	for _, f := range normCachedFields(et) {
		if f.omitZero || !fsDirect(et, f.index) || !layout.ColumnName(f.name) {
			return nil
		}
		c := fsCol{name: f.name, index: f.index, off: fsOffset(et, f.index)}
		d, ok := fsColOf(&c, et.FieldByIndex(f.index).Type, seen)
		if !ok || !fsSetKey(&c) {
			return nil
		}
		c.omit = f.omitEmpty && c.op != fsNested // a struct is never empty
		r.omit = r.omit || c.omit
		r.depth = max(r.depth, d)
		switch c.op {
		case fsNested, fsPtrNested:
			decl = append(decl, c.paths...)
			r.nf += len(c.leaves)
			r.scan = r.scan || c.op == fsPtrNested
			r.dyn = r.dyn || c.op == fsPtrNested
			r.flat = false
		case fsTable, fsInline:
			decl = append(decl, c.key...)
			decl = encoder.AppendFieldSep(decl)
			r.nf++
			r.scan = r.scan || c.op == fsTable
			r.atts = true
			r.flat = false
		default:
			decl = append(decl, c.key...)
			decl = encoder.AppendFieldSep(decl)
			r.nf++
		}
		r.cols = append(r.cols, c)
	}
	if !layout.Tabular(true, len(r.cols) > 0, nil) {
		return nil // rows of empty objects: expanded
	}
	decl = encoder.EndDecl(decl)
	r.decl = string(decl)
	for j := range r.cols {
		c := &r.cols[j]
		if c.op == fsTable || c.op == fsInline {
			r.seqs = append(r.seqs, j)
		}
		if c.omit || c.op == fsPtrNested || c.op == fsTable {
			r.scans = append(r.scans, j)
		}
		r.refl = r.refl || c.omit || c.op == fsInline || c.op == fsTable && c.rows.refl
	}
	// cellv: the cells of a row in order when every column is a scalar, a
	// flattened struct (its leaves) or a sequence (a `^` or `-` cell).
	r.cells = true
	for j := range r.cols {
		c := &r.cols[j]
		switch c.op {
		case fsCell:
			r.cellv = append(r.cellv, fsLeaf{off: c.off, kind: c.kind})
		case fsNested:
			r.cellv = append(r.cellv, c.leaves...)
		case fsTable, fsInline:
			k := fsSeqSlice
			if c.array {
				k = fsSeqArray
			}
			r.cellv = append(r.cellv, fsLeaf{off: c.off, kind: k})
		default:
			r.cells = false
		}
	}
	if !r.cells {
		r.cellv = nil
	}
	r.depth++
	return r
}

// fsFlatten plans the leaves of struct type t, the value of column c, as
// layout.Flat decides from the type: t is fed as the one object every row
// holds, each field a member, a scalar (never null) or a struct in turn.
// A field that may be absent (omitzero, omitempty on a scalar) or null (a
// pointer on the way) does not flatten, nor does a type that marshals
// itself or recurs. off is the offset of t in the row (0 for a pointed-to
// struct). It returns t's nesting.
func fsFlatten(c *fsCol, t reflect.Type, off uintptr, seen map[reflect.Type]bool) (int, bool) {
	path, bad := encoder.AppendQuotedValid(nil, c.name)
	if bad >= 0 {
		return 0, false
	}
	fields, ok := fsFlatFields(t, seen)
	if !ok {
		return 0, false
	}
	var fl layout.Flat
	var paths []byte
	fl.Object(len(fields))
	d := fsPlanLeaves(&fl, c, t, fields, off, path[1:len(path)-1], &paths, seen)
	c.paths = string(paths)
	return d, fl.Leaves() > 0
}

// fsFlatFields returns the fields of struct type t, unless t marshals
// itself or is being planned already (seen).
func fsFlatFields(t reflect.Type, seen map[reflect.Type]bool) ([]normField, bool) {
	if fsHasMarshaler(t) || seen[t] {
		return nil, false
	}
	return normCachedFields(t), true
}

// fsPlanLeaves feeds the fields of t (fields) to fl, whose open object t
// is, plans their leaves into c and paths, closes t, and returns t's
// nesting.
func fsPlanLeaves(fl *layout.Flat, c *fsCol, t reflect.Type, fields []normField, off uintptr, path []byte, paths *[]byte, seen map[reflect.Type]bool) int {
	seen[t] = true
	defer delete(seen, t)
	d := 0
	for _, f := range fields {
		if f.omitZero || !fsDirect(t, f.index) {
			fl.Fail()
			return 0
		}
		ft := t.FieldByIndex(f.index).Type
		k := fsScalarKind(ft)
		var sub []normField
		switch {
		case k != reflect.Invalid && !f.omitEmpty:
			fl.Leaf(f.name, false)
		case k != reflect.Invalid || ft.Kind() != reflect.Struct:
			fl.Fail()
		default:
			var ok bool
			if sub, ok = fsFlatFields(ft, seen); !ok {
				fl.Fail()
			}
			fl.Nested(f.name, len(sub))
		}
		if !fl.OK() {
			return 0
		}
		foff := off + fsOffset(t, f.index)
		q, bad := encoder.AppendQuotedValid(append(path[:len(path):len(path)], '>'), f.name)
		if bad >= 0 {
			fl.Fail()
			return 0
		}
		// q is path>"name": drop the quotes around the name.
		n := len(path) + 1
		q = append(q[:n], q[n+1:len(q)-1]...)
		if k != reflect.Invalid {
			c.leaves = append(c.leaves, fsLeaf{off: foff, kind: k})
			*paths = encoder.AppendPathField(*paths, q)
			d = max(d, 1)
			continue
		}
		sd := fsPlanLeaves(fl, c, ft, sub, foff, q, paths, seen)
		if !fl.OK() {
			return 0
		}
		d = max(d, sd)
	}
	fl.Close()
	return 1 + d
}

// fsOffset returns the offset of the field at index in struct type t,
// reached without pointers (fsDirect).
func fsOffset(t reflect.Type, index []int) uintptr {
	var off uintptr
	for _, i := range index {
		f := t.Field(i)
		off += f.Offset
		t = f.Type
	}
	return off
}
