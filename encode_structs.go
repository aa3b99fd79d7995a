package gcf

import (
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gcfkit/gcf/encoder"
)

// The typed fast path of the canonical generic encoder: a slice (or array)
// of flat structs, a struct or a map[string] of such slices are written
// straight from their fields through a per-type plan (reflect once per
// type), without the Object tree of normalize.
//
// It writes exactly the bytes of the general path (normalize, then
// appendLayout) and never reports an error of its own: on anything it does
// not handle, and on every error (a limit, invalid UTF-8, a non-finite
// float, an unsigned integer above MaxInt64, a row that omitempty makes
// non-uniform), it gives up and the general path runs from the start,
// producing that error as before.

// A flat struct's field: a scalar read straight from the struct.
type fsField struct {
	name  string
	index []int
	kind  reflect.Kind
	omit  bool // omitempty: a row whose field is empty falls back
}

// fsRows is the plan of a flat struct type, the rows of one table.
type fsRows struct {
	fields []fsField
	omit   bool // some field has omitempty
}

// A root member of a struct or map root.
type fsMember struct {
	name      string
	index     []int // struct roots only
	kind      reflect.Kind
	rows      *fsRows // kind Slice or Array: a sequence of flat structs
	omitEmpty bool
	omitZero  bool
}

// fsPlan is the plan of a root type (after pointers are dereferenced).
type fsPlan struct {
	ok      bool
	kind    reflect.Kind // Struct, Map, Slice or Array
	members []fsMember   // Struct
	elem    fsMember     // Map: the value; Slice, Array: itself
}

var fsPlans sync.Map // reflect.Type -> *fsPlan

// appendStructs is the fast path of appendGeneric; ok false means v is
// left to the general path (dst may have been written past its length).
func appendStructs(dst []byte, v any, lim Limits) (out []byte, ok bool) {
	if v == nil || lim.MaxDepth < 8 {
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
	if !p.ok {
		return dst, false
	}
	e := getGE()
	e.lim = lim
	start := len(dst)
	e.start, e.end = start, math.MaxInt
	if lim.MaxBytes > 0 && lim.MaxBytes < int64(math.MaxInt-start) {
		e.end = start + int(lim.MaxBytes)
	}
	e.buf = append(dst, geHeader...)
	e.ls = start
	e.setCheck()
	ok = e.lineDone() == nil && e.fsRoot(p, rv)
	out = e.buf
	putGE(e)
	return out, ok
}

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
	switch t.Kind() {
	case reflect.Struct:
		for _, f := range normCachedFields(t) {
			if !fsDirect(t, f.index) {
				return p
			}
			ft := t.FieldByIndex(f.index).Type
			m := fsMember{name: f.name, index: f.index, omitEmpty: f.omitEmpty, omitZero: f.omitZero}
			if f.omitZero && (ft.Implements(normZeroerType) || reflect.PointerTo(ft).Implements(normZeroerType)) {
				return p
			}
			if m.kind = fsScalarKind(ft); m.kind == reflect.Invalid {
				if m.rows = fsSeq(ft); m.rows == nil {
					return p
				}
				m.kind = ft.Kind()
			}
			p.members = append(p.members, m)
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key().Implements(normTextMarshalerType) {
			return p
		}
		if p.elem.rows = fsSeq(t.Elem()); p.elem.rows == nil {
			return p
		}
		p.elem.kind = t.Elem().Kind()
	case reflect.Slice, reflect.Array:
		if p.elem.rows = fsSeq(t); p.elem.rows == nil {
			return p
		}
		p.elem.kind = t.Kind()
	default:
		return p
	}
	p.ok = true
	return p
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

// fsSeq returns the row plan of a slice or array type of flat structs, or
// nil.
func fsSeq(t reflect.Type) *fsRows {
	if t.Kind() != reflect.Slice && t.Kind() != reflect.Array || fsHasMarshaler(t) || normFastTypes[t] {
		return nil
	}
	et := t.Elem()
	if et.Kind() != reflect.Struct || fsHasMarshaler(et) {
		return nil
	}
	r := &fsRows{}
	for _, f := range normCachedFields(et) {
		if f.omitZero || !fsDirect(et, f.index) || strings.IndexByte(f.name, '>') >= 0 {
			return nil
		}
		k := fsScalarKind(et.FieldByIndex(f.index).Type)
		if k == reflect.Invalid {
			return nil
		}
		r.fields = append(r.fields, fsField{name: f.name, index: f.index, kind: k, omit: f.omitEmpty})
		r.omit = r.omit || f.omitEmpty
	}
	if len(r.fields) == 0 {
		return nil // rows of empty objects are not tabular
	}
	return r
}

// fsRoot writes the body of a root of plan p; false means fall back.
func (e *geEncoder) fsRoot(p *fsPlan, rv reflect.Value) bool {
	switch p.kind {
	case reflect.Struct:
		n := 0
		for i := range p.members {
			m := &p.members[i]
			fv := rv.FieldByIndex(m.index)
			if m.omitEmpty && normIsEmpty(fv) || m.omitZero && fv.IsZero() {
				continue
			}
			n++
		}
		if n > e.lim.MaxElements {
			return false
		}
		for i := range p.members {
			m := &p.members[i]
			fv := rv.FieldByIndex(m.index)
			if m.omitEmpty && normIsEmpty(fv) || m.omitZero && fv.IsZero() {
				continue
			}
			if !e.fsMember(m, fv) {
				return false
			}
		}
		return true
	case reflect.Map:
		if rv.IsNil() || rv.Len() == 0 {
			return false
		}
		if rv.Len() > e.lim.MaxElements {
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
		m := p.elem
		for _, kv := range pairs {
			m.name = kv.k
			if !e.fsMember(&m, kv.v) {
				return false
			}
		}
		return true
	default:
		if p.kind == reflect.Slice && rv.IsNil() {
			return false
		}
		e.buf = append(e.buf, "## "...)
		return e.fsSeq(p.elem.rows, rv)
	}
}

// fsMember writes a member of the root object at indentation 0.
func (e *geEncoder) fsMember(m *fsMember, fv reflect.Value) bool {
	if m.rows != nil {
		if m.kind == reflect.Slice && fv.IsNil() {
			e.key(m.name)
			e.buf = append(e.buf, '=', '-')
			return e.nl() == nil
		}
		e.buf = append(e.buf, "## "...)
		e.key(m.name)
		e.buf = append(e.buf, ' ')
		return e.fsSeq(m.rows, fv)
	}
	e.key(m.name)
	e.buf = append(e.buf, '=')
	return e.fsScalar(m.kind, fv, encoder.Value) && e.nl() == nil
}

// fsScalar appends a scalar field in ctx; false means fall back.
func (e *geEncoder) fsScalar(k reflect.Kind, fv reflect.Value, ctx encoder.Context) bool {
	switch k {
	case reflect.String:
		e.str(fv.String(), ctx)
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, fv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = encoder.AppendInt(e.buf, fv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u := fv.Uint()
		if u > math.MaxInt64 {
			return false
		}
		e.buf = encoder.AppendInt(e.buf, int64(u))
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

// fsSeq writes a sequence of flat structs from its count bracket on, at
// indentation 0: `[0]`, or the table `[N]{fields}` and its rows.
func (e *geEncoder) fsSeq(r *fsRows, sv reflect.Value) bool {
	n := sv.Len()
	if n == 0 {
		e.buf = append(e.buf, "[0]"...)
		return e.nl() == nil
	}
	if sv.Kind() == reflect.Array && !sv.CanAddr() {
		return false // keep to addressable elements (cheap field reads)
	}
	if r.omit {
		// A row without an omitempty field would change the union.
		for i := 0; i < n; i++ {
			row := sv.Index(i)
			for j := range r.fields {
				if f := &r.fields[j]; f.omit && normIsEmpty(row.FieldByIndex(f.index)) {
					return false
				}
			}
		}
	}
	if n > e.lim.MaxElements || len(r.fields) > e.lim.MaxFields {
		return false
	}
	e.buf = encoder.AppendCount(e.buf, n, false)
	e.buf = append(e.buf, '{')
	for j := range r.fields {
		e.key(r.fields[j].name)
		e.buf = append(e.buf, ',')
	}
	e.buf[len(e.buf)-1] = '}'
	if e.nl() != nil {
		return false
	}
	for i := 0; i < n; i++ {
		row := sv.Index(i)
		for j := range r.fields {
			f := &r.fields[j]
			var fv reflect.Value
			if len(f.index) == 1 {
				fv = row.Field(f.index[0])
			} else {
				fv = row.FieldByIndex(f.index)
			}
			if !e.fsScalar(f.kind, fv, encoder.Cell) {
				return false
			}
			e.buf = append(e.buf, '|')
		}
		e.buf[len(e.buf)-1] = '\n'
		if e.lineDone() != nil {
			return false
		}
	}
	return true
}
