package generic

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"github.com/gcfkit/gcf/encoder"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/gcfkit/gcf/internal/box"
	"github.com/gcfkit/gcf/jsonmodel"
	"github.com/gcfkit/gcf/lexer"
)

// normMaxDepth bounds container nesting accepted by normalize (and so by
// the generic encoder). It matches ParseJSON: the root value is at depth 0
// and any value deeper than normMaxDepth is rejected, so every tree
// ParseJSON returns is accepted here.
const normMaxDepth = 10000

// normalize turns a Go value into the canonical generic data model: nil,
// bool, int64, float64, string, Object and []any.
//
// Contract:
//   - A tree that is already canonical is validated and returned as is: no
//     allocation, no copy. Validation rejects NaN/±Inf floats (out_of_range),
//     duplicate keys within an Object (duplicate_key) and nesting deeper than
//     normMaxDepth (depth_exceeded).
//   - A tree that contains non-canonical values is converted lazily: only the
//     Objects and []any on the path to a converted value are copied; the
//     caller's values are never modified.
//   - Integers of every Go kind become int64; an unsigned value above
//     math.MaxInt64 is an out_of_range error (model it as a string).
//     float32/float64 become float64 (float32 through its shortest decimal
//     form, as encoding/json does). json.Number becomes int64 (integer
//     literal, out_of_range outside int64) or float64.
//   - Maps with string keys (and, as in encoding/json, integer or
//     encoding.TextMarshaler keys) become Objects whose members are sorted by
//     key bytewise, which is Unicode code point order for valid UTF-8.
//   - Slices and arrays become []any; []byte becomes a base64 string, and a
//     nil slice or nil map becomes null, as in encoding/json. The canonical
//     containers are the exception: a nil Object or nil []any is an empty
//     object or array, as everywhere in the generic model.
//   - Pointers and interfaces are followed; nil becomes null.
//   - Structs follow encoding/json's field rules: `json` tag names, "-",
//     omitempty (and omitzero), promotion of embedded struct fields with
//     the same dominance rules, unexported fields skipped. The ",string"
//     option is ignored (the field keeps its JSON type).
//   - json.Marshaler values are marshalled and read back with ParseJSON;
//     encoding.TextMarshaler values become strings.
//   - Anything else (channels, functions, complex numbers, unsafe pointers)
//     is an unsupported_value error.
func normalize(v any) (any, error) {
	out, _, err := normalizeDepth(v, nil)
	return out, err
}

// normalizeDepth is normalize that also returns an upper bound of the
// container nesting of the result, counting the root container as 1: one
// more than the depth of the deepest value (a scalar root gives 1). It
// costs one comparison per value.
func normalizeDepth(v any, slabs *normSlabs) (any, int, error) {
	n := normalizer{s: slabs}
	out, _, err := n.value(v, 0)
	if err != nil {
		return nil, 0, withPointer(err, n.errPath)
	}
	return out, n.deepest, nil
}

// normalizer carries scratch state reused across one normalize call.
type normalizer struct {
	seen    map[string]struct{} // duplicate-key detection for large objects
	deepest int                 // see normalizeDepth
	s       *normSlabs          // where copies are carved from, or nil
	errPath []string            // on error: the keys and indices left, innermost first (encode_path.go)
}

// normSlabs hold the containers and boxed values of a normalized tree that
// lives only for one encode (appendGeneric), so that copying a map or a
// struct costs no allocation of its own: a pooled set is reused from the
// start by the next encode, when the previous tree is garbage.
type normSlabs struct {
	members []Member
	elems   []any
	strs    box.Slab[string]
	ints    box.Slab[int64]
	floats  box.Slab[float64]
	objs    box.Slab[Object]
	arrs    box.Slab[[]any]
}

// normSlabChunk is how many members or elements one slab chunk holds.
const normSlabChunk = 1024

var normSlabPool = sync.Pool{New: func() any { return new(normSlabs) }}

// getNormSlabs returns a set of slabs whose previous values are no longer
// in use; putNormSlabs returns it once the tree built from it is dead.
func getNormSlabs() *normSlabs { return normSlabPool.Get().(*normSlabs) }

func putNormSlabs(s *normSlabs) {
	// Keep the current chunks only (the tree's values are dropped with
	// them: the caller's strings are not kept alive past the next use).
	clear(s.members[:cap(s.members)])
	clear(s.elems[:cap(s.elems)])
	s.members, s.elems = s.members[:0], s.elems[:0]
	s.strs.Reset()
	s.ints.Reset()
	s.floats.Reset()
	s.objs.Reset()
	s.arrs.Reset()
	normSlabPool.Put(s)
}

// object returns an empty Object with room for k members.
func (n *normalizer) newObject(k int) Object {
	if n.s == nil || k > normSlabChunk {
		return make(Object, 0, k)
	}
	s := n.s
	if cap(s.members)-len(s.members) < k {
		s.members = make([]Member, 0, normSlabChunk)
	}
	l := len(s.members)
	s.members = s.members[:l+k]
	return Object(s.members[l : l : l+k])
}

// newArray returns a []any of length k.
func (n *normalizer) newArray(k int) []any {
	if n.s == nil || k > normSlabChunk {
		return make([]any, k)
	}
	s := n.s
	if cap(s.elems)-len(s.elems) < k {
		s.elems = make([]any, 0, normSlabChunk)
	}
	l := len(s.elems)
	s.elems = s.elems[:l+k]
	return s.elems[l : l+k : l+k]
}

func (n *normalizer) boxObject(o Object) any {
	if n.s == nil {
		return o
	}
	return n.s.objs.Box(o)
}

func (n *normalizer) boxArray(a []any) any {
	if n.s == nil {
		return a
	}
	return n.s.arrs.Box(a)
}

func (n *normalizer) boxString(v string) any {
	if n.s == nil {
		return v
	}
	return n.s.strs.Box(v)
}

func (n *normalizer) boxInt(v int64) any {
	if n.s == nil || (v >= 0 && v < 256) { // small integers box without allocating
		return v
	}
	return n.s.ints.Box(v)
}

func (n *normalizer) boxFloat(v float64) any {
	if n.s == nil {
		return v
	}
	return n.s.floats.Box(v)
}

func normDepthError() error {
	return lexer.Errorf(lexer.DepthExceeded, "value nesting deeper than %d, the most any encoder option allows", normMaxDepth)
}

// value normalizes v at the given depth and reports whether the result
// differs from v (so that callers copy their container only when needed).
func (n *normalizer) value(v any, depth int) (any, bool, error) {
	if depth >= n.deepest {
		if depth > normMaxDepth {
			return nil, false, normDepthError()
		}
		n.deepest = depth + 1
	}
	switch x := v.(type) {
	case nil, string, bool, int64:
		return v, false, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false, normNonFinite(x)
		}
		return v, false, nil
	case Object:
		// Return v itself when unchanged: re-boxing x would allocate.
		r, changed, err := n.object(x, depth)
		if err != nil || !changed {
			return v, false, err
		}
		return n.boxObject(r), true, nil
	case []any:
		r, changed, err := n.array(x, depth)
		if err != nil || !changed {
			return v, false, err
		}
		return n.boxArray(r), true, nil

	// Fast paths without reflection.
	case int:
		return n.boxInt(int64(x)), true, nil
	case int32:
		return n.boxInt(int64(x)), true, nil
	case int16:
		return int64(x), true, nil
	case int8:
		return int64(x), true, nil
	case uint8:
		return int64(x), true, nil
	case uint16:
		return int64(x), true, nil
	case uint32:
		return int64(x), true, nil
	case uint:
		return normUint(uint64(x))
	case uint64:
		return normUint(x)
	case uintptr:
		return normUint(uint64(x))
	case float32:
		return normFloat32(x)
	case json.Number:
		r, err := jsonmodel.NumberFromJSON(string(x))
		if err != nil {
			return nil, false, err
		}
		return r, true, nil
	case map[string]any:
		return n.stringMap(x, depth)
	case []map[string]any:
		if x == nil {
			return nil, true, nil
		}
		if depth+1 > normMaxDepth {
			return nil, false, normDepthError()
		}
		out := n.newArray(len(x))
		for i, m := range x {
			r, _, err := n.stringMap(m, depth+1)
			if err != nil {
				return nil, false, n.atIndex(err, i)
			}
			out[i] = r
		}
		return n.boxArray(out), true, nil
	case []string:
		return normBoxAll(x, func(s string) any { return s })
	case []int:
		return normBoxAll(x, func(i int) any { return int64(i) })
	case []int64:
		return normBoxAll(x, func(i int64) any { return i })
	case []float64:
		if x == nil {
			return nil, true, nil
		}
		out := make([]any, len(x))
		for i, f := range x {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, false, n.atIndex(normNonFinite(f), i)
			}
			out[i] = f
		}
		return out, true, nil
	case map[string]string:
		if x == nil {
			return nil, true, nil
		}
		keys := normSortedKeys(x)
		out := make(Object, len(keys))
		for i, k := range keys {
			out[i] = Member{Key: k, Value: x[k]}
		}
		return out, true, nil
	}
	r, err := n.reflectValue(reflect.ValueOf(v), depth)
	return r, true, err
}

// normBoxAll converts a typed slice of scalars to []any (nil stays nil, as
// encoding/json writes a nil slice as null).
func normBoxAll[T any](x []T, box func(T) any) (any, bool, error) {
	if x == nil {
		return nil, true, nil
	}
	out := make([]any, len(x))
	for i, v := range x {
		out[i] = box(v)
	}
	return out, true, nil
}

func normNonFinite(f float64) error {
	return lexer.Errorf(lexer.OutOfRange, "non-finite number %v is outside the JSON data model", f)
}

func normUint(u uint64) (any, bool, error) {
	if u > math.MaxInt64 {
		return nil, false, encoder.UintRangeError(u)
	}
	return int64(u), true, nil
}

func normFloat32(f float32) (any, bool, error) {
	r, err := float32Value(f)
	if err != nil {
		return nil, false, err
	}
	return r, true, nil
}

// float32Value is the float64 a float32 stands for in the data model: the
// shortest decimal that identifies the float32, as encoding/json writes
// it, so float32(0.1) is 0.1 rather than 0.10000000149011612.
func float32Value(f float32) (float64, error) {
	f64 := float64(f)
	if math.IsNaN(f64) || math.IsInf(f64, 0) {
		return 0, normNonFinite(f64)
	}
	var tmp [32]byte
	s := strconv.AppendFloat(tmp[:0], f64, 'g', -1, 32)
	r, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return f64, nil
	}
	return r, nil
}

// appendScalar appends v as a scalar in ctx through the one scalar-cell
// writer, encoder.AppendScalar, and appendModelScalar for the data model's
// own cases. ok is false for a type that is no scalar (containers,
// Missing, other Go types).
func appendScalar(dst []byte, v any, ctx encoder.Context) (out []byte, ok bool, err error) {
	if out, ok, err = encoder.AppendScalar(dst, v, ctx); ok {
		return out, ok, err
	}
	return appendModelScalar(dst, v, ctx)
}

// appendModelScalar appends the scalars the data model normalises before
// writing: a float32 as the decimal it stands for, a json.Number as the
// number it spells. ok is false for any other type.
func appendModelScalar(dst []byte, v any, ctx encoder.Context) (out []byte, ok bool, err error) {
	switch x := v.(type) {
	case float32:
		f, err := float32Value(x)
		if err != nil {
			return dst, true, err
		}
		out, err = encoder.AppendFloat(dst, f)
		return out, true, err
	case json.Number:
		n, err := jsonmodel.NumberFromJSON(string(x))
		if err != nil {
			return dst, true, err
		}
		return encoder.AppendScalar(dst, n, ctx)
	}
	return dst, false, nil
}

func normSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// object validates o (duplicate keys) and normalizes its values, copying o
// only when a value changes; changed reports whether a copy was made.
func (n *normalizer) object(o Object, depth int) (Object, bool, error) {
	if err := n.checkDuplicates(o); err != nil {
		return nil, false, err
	}
	var out Object
	for i := range o {
		r, changed, err := n.value(o[i].Value, depth+1)
		if err != nil {
			return nil, false, n.at(err, o[i].Key)
		}
		if changed && out == nil {
			out = append(n.newObject(len(o)), o...)
		}
		if out != nil {
			out[i] = Member{Key: o[i].Key, Value: r}
		}
	}
	if out != nil {
		return out, true, nil
	}
	return o, false, nil
}

// checkDuplicates rejects an Object with two members of the same key.
// Small objects are checked pairwise; large ones use a map reused across
// the whole normalize call.
func (n *normalizer) checkDuplicates(o Object) error {
	if len(o) <= 32 {
		for i := 1; i < len(o); i++ {
			k := o[i].Key
			for j := 0; j < i; j++ {
				if o[j].Key == k {
					return normDupKey(k)
				}
			}
		}
		return nil
	}
	if n.seen == nil {
		n.seen = make(map[string]struct{}, len(o))
	} else {
		clear(n.seen)
	}
	for i := range o {
		if _, ok := n.seen[o[i].Key]; ok {
			return normDupKey(o[i].Key)
		}
		n.seen[o[i].Key] = struct{}{}
	}
	return nil
}

func normDupKey(k string) error {
	return lexer.Errorf(lexer.DuplicateKey, "duplicate key %q in object", k)
}

// array normalizes the elements of a, copying a only when one changes;
// changed reports whether a copy was made.
func (n *normalizer) array(a []any, depth int) ([]any, bool, error) {
	var out []any
	for i, v := range a {
		r, changed, err := n.value(v, depth+1)
		if err != nil {
			return nil, false, n.atIndex(err, i)
		}
		if changed && out == nil {
			out = n.newArray(len(a))
			copy(out, a[:i])
		}
		if out != nil {
			out[i] = r
		}
	}
	if out != nil {
		return out, true, nil
	}
	return a, false, nil
}

func (n *normalizer) stringMap(m map[string]any, depth int) (any, bool, error) {
	if m == nil {
		return nil, true, nil
	}
	out := n.newObject(len(m))
	for k, v := range m {
		out = append(out, Member{Key: k, Value: v})
	}
	slices.SortFunc(out, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	for i := range out {
		r, _, err := n.value(out[i].Value, depth+1)
		if err != nil {
			return nil, false, n.at(err, out[i].Key)
		}
		out[i].Value = r
	}
	return n.boxObject(out), true, nil
}

var (
	normMarshalerType     = reflect.TypeFor[json.Marshaler]()
	normTextMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	normNumberType        = reflect.TypeFor[json.Number]()
)

// reflectValue normalizes a value through reflection. rv keeps its
// addressability so that pointer-receiver marshalers of addressable values
// are honoured, as in encoding/json.
func (n *normalizer) reflectValue(rv reflect.Value, depth int) (any, error) {
	if depth >= n.deepest {
		n.deepest = depth + 1
	}
	for hops := 0; ; hops++ {
		if hops > normMaxDepth {
			return nil, normDepthError()
		}
		if !rv.IsValid() {
			return nil, nil
		}
		if rv.CanInterface() && normFastTypes[rv.Type()] {
			r, _, err := n.value(rv.Interface(), depth)
			return r, err
		}
		if r, ok, err := n.marshalers(rv, depth); ok || err != nil {
			return r, err
		}
		k := rv.Kind()
		if k != reflect.Pointer && k != reflect.Interface {
			break
		}
		if rv.IsNil() {
			return nil, nil
		}
		if k == reflect.Interface {
			// The dynamic value is not addressable anyway: take the fast
			// paths of value (canonical trees stay uncopied).
			if e := rv.Elem(); e.CanInterface() {
				r, _, err := n.value(e.Interface(), depth)
				return r, err
			}
		}
		rv = rv.Elem()
	}
	t := rv.Type()
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return n.boxInt(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		r, _, err := normUint(rv.Uint())
		return r, err
	case reflect.Float32:
		r, _, err := normFloat32(float32(rv.Float()))
		return r, err
	case reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, normNonFinite(f)
		}
		return n.boxFloat(f), nil
	case reflect.String:
		if t == normNumberType {
			return jsonmodel.NumberFromJSON(rv.String())
		}
		return n.boxString(rv.String()), nil
	case reflect.Struct:
		return n.structValue(rv, depth)
	case reflect.Map:
		return n.mapValue(rv, depth)
	case reflect.Slice:
		if rv.IsNil() {
			return nil, nil
		}
		if normIsByteSlice(t) {
			return base64.StdEncoding.EncodeToString(rv.Bytes()), nil
		}
		return n.sequence(rv, depth)
	case reflect.Array:
		return n.sequence(rv, depth)
	}
	return nil, lexer.Errorf(lexer.UnsupportedValue, "Go type %s has no JSON equivalent", t)
}

// normIsByteSlice reports whether t is encoded as base64 by encoding/json: a
// slice of a byte kind whose element type has no marshaler of its own.
func normIsByteSlice(t reflect.Type) bool {
	e := t.Elem()
	if e.Kind() != reflect.Uint8 {
		return false
	}
	p := reflect.PointerTo(e)
	return !e.Implements(normMarshalerType) && !e.Implements(normTextMarshalerType) &&
		!p.Implements(normMarshalerType) && !p.Implements(normTextMarshalerType)
}

// marshalers applies json.Marshaler, then encoding.TextMarshaler, like
// encoding/json; ok reports whether one applied.
func (n *normalizer) marshalers(rv reflect.Value, depth int) (any, bool, error) {
	t := rv.Type()
	k := rv.Kind()
	if t.Implements(normMarshalerType) {
		if (k == reflect.Pointer || k == reflect.Interface) && rv.IsNil() {
			return nil, true, nil
		}
		if !rv.CanInterface() {
			return nil, false, nil
		}
		return n.callMarshalJSON(rv.Interface().(json.Marshaler), t, depth)
	}
	if k != reflect.Pointer && rv.CanAddr() && reflect.PointerTo(t).Implements(normMarshalerType) {
		a := rv.Addr()
		if a.CanInterface() {
			return n.callMarshalJSON(a.Interface().(json.Marshaler), t, depth)
		}
	}
	if t.Implements(normTextMarshalerType) {
		if (k == reflect.Pointer || k == reflect.Interface) && rv.IsNil() {
			return nil, true, nil
		}
		if !rv.CanInterface() {
			return nil, false, nil
		}
		return normMarshalText(rv.Interface().(encoding.TextMarshaler), t)
	}
	if k != reflect.Pointer && rv.CanAddr() && reflect.PointerTo(t).Implements(normTextMarshalerType) {
		a := rv.Addr()
		if a.CanInterface() {
			return normMarshalText(a.Interface().(encoding.TextMarshaler), t)
		}
	}
	return nil, false, nil
}

func (n *normalizer) callMarshalJSON(m json.Marshaler, t reflect.Type, depth int) (any, bool, error) {
	b, err := m.MarshalJSON()
	if err != nil {
		return nil, true, lexer.Errorf(lexer.UnsupportedValue, "MarshalJSON of %s failed: %v", t, err)
	}
	v, err := ParseJSON(b)
	if err != nil {
		return nil, true, err
	}
	// ParseJSON yields a canonical tree; validate its depth in context.
	r, _, err := n.value(v, depth)
	return r, true, err
}

func normMarshalText(m encoding.TextMarshaler, t reflect.Type) (any, bool, error) {
	b, err := m.MarshalText()
	if err != nil {
		return nil, true, lexer.Errorf(lexer.UnsupportedValue, "MarshalText of %s failed: %v", t, err)
	}
	return string(b), true, nil
}

// child normalizes a container element reached through reflection.
func (n *normalizer) child(rv reflect.Value, depth int) (any, error) {
	if depth > normMaxDepth {
		return nil, normDepthError()
	}
	return n.reflectValue(rv, depth)
}

// normFastTypes are handled by value without reflection (canonical containers
// first of all: Object must not go through its MarshalJSON method).
var normFastTypes = map[reflect.Type]bool{
	reflect.TypeFor[Object]():            true,
	reflect.TypeFor[[]any]():             true,
	reflect.TypeFor[map[string]any]():    true,
	reflect.TypeFor[[]map[string]any]():  true,
	reflect.TypeFor[[]string]():          true,
	reflect.TypeFor[[]int]():             true,
	reflect.TypeFor[[]int64]():           true,
	reflect.TypeFor[[]float64]():         true,
	reflect.TypeFor[map[string]string](): true,
}

func (n *normalizer) sequence(rv reflect.Value, depth int) (any, error) {
	l := rv.Len()
	out := n.newArray(l)
	for i := 0; i < l; i++ {
		r, err := n.child(rv.Index(i), depth+1)
		if err != nil {
			return nil, n.atIndex(err, i)
		}
		out[i] = r
	}
	return n.boxArray(out), nil
}

func (n *normalizer) mapValue(rv reflect.Value, depth int) (any, error) {
	if rv.IsNil() {
		return nil, nil
	}
	type kv struct {
		k string
		v reflect.Value
	}
	kt := rv.Type().Key()
	pairs := make([]kv, 0, rv.Len())
	it := rv.MapRange()
	for it.Next() {
		key := it.Key()
		var ks string
		switch {
		case kt.Kind() == reflect.String:
			ks = key.String()
		case kt.Implements(normTextMarshalerType):
			if key.Kind() == reflect.Pointer && key.IsNil() {
				ks = ""
				break
			}
			if !key.CanInterface() {
				return nil, lexer.Errorf(lexer.UnsupportedValue, "map key type %s is not accessible", kt)
			}
			b, err := key.Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return nil, lexer.Errorf(lexer.UnsupportedValue, "MarshalText of map key %s failed: %v", kt, err)
			}
			ks = string(b)
		default:
			switch kt.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				ks = strconv.FormatInt(key.Int(), 10)
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				ks = strconv.FormatUint(key.Uint(), 10)
			default:
				return nil, lexer.Errorf(lexer.UnsupportedValue, "map key type %s has no JSON equivalent", kt)
			}
		}
		pairs = append(pairs, kv{ks, it.Value()})
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].k < pairs[j].k })
	out := n.newObject(len(pairs))
	for i, p := range pairs {
		if i > 0 && pairs[i-1].k == p.k {
			return nil, normDupKey(p.k)
		}
		r, err := n.child(p.v, depth+1)
		if err != nil {
			return nil, n.at(err, p.k)
		}
		out = append(out, Member{Key: p.k, Value: r})
	}
	return n.boxObject(out), nil
}

func (n *normalizer) structValue(rv reflect.Value, depth int) (any, error) {
	fields := normCachedFields(rv.Type())
	out := n.newObject(len(fields))
fieldLoop:
	for i := range fields {
		f := &fields[i]
		fv := rv
		for _, idx := range f.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue fieldLoop // embedded nil pointer: field absent
				}
				fv = fv.Elem()
			}
			fv = fv.Field(idx)
		}
		if f.omitEmpty && normIsEmpty(fv) {
			continue
		}
		if f.omitZero && normIsZero(fv) {
			continue
		}
		if f.scalar != reflect.Invalid && depth+1 <= normMaxDepth {
			r, err := n.scalarField(fv, f.scalar, depth+1)
			if err != nil {
				return nil, n.at(err, f.name)
			}
			out = append(out, Member{Key: f.name, Value: r})
			continue
		}
		r, err := n.child(fv, depth+1)
		if err != nil {
			return nil, n.at(err, f.name)
		}
		out = append(out, Member{Key: f.name, Value: r})
	}
	return n.boxObject(out), nil
}

func normIsEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

type normZeroer interface{ IsZero() bool }

var normZeroerType = reflect.TypeFor[normZeroer]()

func normIsZero(v reflect.Value) bool {
	t := v.Type()
	if t.Implements(normZeroerType) {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			return true
		}
		if v.CanInterface() {
			return v.Interface().(normZeroer).IsZero()
		}
	}
	if v.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(normZeroerType) {
		if a := v.Addr(); a.CanInterface() {
			return a.Interface().(normZeroer).IsZero()
		}
	}
	return v.IsZero()
}

// normField is one JSON-visible field of a struct type.
type normField struct {
	name      string
	tagged    bool
	index     []int
	omitEmpty bool
	omitZero  bool
	scalar    reflect.Kind // a plain string, bool, integer or float64 field (no marshalers): read directly; else Invalid
}

var normFieldCache sync.Map // reflect.Type -> []normField

func normCachedFields(t reflect.Type) []normField {
	if f, ok := normFieldCache.Load(t); ok {
		return f.([]normField)
	}
	fields := normTypeFields(t)
	for i := range fields {
		fields[i].scalar = normScalarKind(t.FieldByIndex(fields[i].index).Type)
	}
	f, _ := normFieldCache.LoadOrStore(t, fields)
	return f.([]normField)
}

// normScalarKind returns t's kind when a value of t normalizes to a plain
// scalar without reflection on its methods (no marshalers, not
// json.Number, not float32), else reflect.Invalid.
func normScalarKind(t reflect.Type) reflect.Kind {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		return reflect.Invalid
	}
	if t == normNumberType {
		return reflect.Invalid
	}
	p := reflect.PointerTo(t)
	if t.Implements(normMarshalerType) || t.Implements(normTextMarshalerType) ||
		p.Implements(normMarshalerType) || p.Implements(normTextMarshalerType) {
		return reflect.Invalid
	}
	return t.Kind()
}

// scalarField normalizes a struct field of normScalarKind k at depth.
func (n *normalizer) scalarField(fv reflect.Value, k reflect.Kind, depth int) (any, error) {
	if depth >= n.deepest {
		n.deepest = depth + 1
	}
	switch k {
	case reflect.String:
		return n.boxString(fv.String()), nil
	case reflect.Bool:
		return fv.Bool(), nil
	case reflect.Float64:
		f := fv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, normNonFinite(f)
		}
		return n.boxFloat(f), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return n.boxInt(fv.Int()), nil
	}
	u := fv.Uint()
	if u > math.MaxInt64 {
		_, _, err := normUint(u)
		return nil, err
	}
	return n.boxInt(int64(u)), nil
}

// normTypeFields lists the JSON fields of struct type t following
// encoding/json's rules: breadth-first over embedded structs, a name at a
// shallower depth dominates, at equal depth a tagged field dominates, and
// remaining conflicts drop the name entirely.
func normTypeFields(t reflect.Type) []normField {
	type queued struct {
		typ   reflect.Type
		index []int
	}
	var fields []normField
	current := []queued{}
	next := []queued{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, q := range current {
			if visited[q.typ] {
				continue
			}
			visited[q.typ] = true
			for i := 0; i < q.typ.NumField(); i++ {
				sf := q.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !normValidTag(name) {
					name = ""
				}
				index := make([]int, len(q.index)+1)
				copy(index, q.index)
				index[len(q.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					f := normField{
						name:      name,
						tagged:    tagged,
						index:     index,
						omitEmpty: normHasOption(opts, "omitempty"),
						omitZero:  normHasOption(opts, "omitzero"),
					}
					fields = append(fields, f)
					if count[q.typ] > 1 {
						// Several embeddings of the same type at this depth:
						// add a duplicate so the conflict is detected below.
						fields = append(fields, f)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, queued{typ: ft, index: index})
				}
			}
		}
	}
	sort.SliceStable(fields, func(i, j int) bool {
		a, b := &fields[i], &fields[j]
		if a.name != b.name {
			return a.name < b.name
		}
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		if a.tagged != b.tagged {
			return a.tagged
		}
		return normIndexLess(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) < len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	sort.Slice(out, func(i, j int) bool { return normIndexLess(out[i].index, out[j].index) })
	return out
}

func normIndexLess(a, b []int) bool {
	for k := 0; k < len(a) && k < len(b); k++ {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return len(a) < len(b)
}

func normHasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// normValidTag mirrors encoding/json's accepted tag names.
func normValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
