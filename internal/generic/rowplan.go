package generic

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/gcfkit/gcf/lexer"
)

// rowPlan is Decoder.Decode's fast path from the cells of a flat table row
// straight into a struct, without building an Object or going through
// JSON. It exists only for structs it can fill exactly as encoding/json
// would: exported fields of scalar kinds (or pointers to them), no
// embedded structs, no `,string` options, no custom unmarshalers. Every
// other target takes the general path.
type rowPlan struct {
	fields []rowField // per column; index < 0: no struct field (ignored, as encoding/json ignores unknown keys)
	name   string     // the struct's type name, for errors
}

type rowField struct {
	index int
	name  string
	typ   reflect.Type // the field's type
	ptr   bool         // the field is a pointer to a scalar kind
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// rowPlanFor returns the plan filling a struct of type t from rows of p,
// or nil when t needs the general path.
func rowPlanFor(t reflect.Type, p *tablePlan) *rowPlan {
	if rp, ok := p.structs[t]; ok {
		return rp
	}
	rp := buildRowPlan(t, p)
	if p.structs == nil {
		p.structs = make(map[reflect.Type]*rowPlan)
	}
	if len(p.structs) < 64 {
		p.structs[t] = rp
	}
	return rp
}

func customUnmarshal(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshaler) || pt.Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || pt.Implements(textUnmarshaler)
}

func scalarKind(k reflect.Kind) bool {
	switch k {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func buildRowPlan(t reflect.Type, p *tablePlan) *rowPlan {
	if t.Kind() != reflect.Struct || customUnmarshal(t) {
		return nil
	}
	type named struct {
		name  string
		field rowField
	}
	var all []named
	seen := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Anonymous {
			return nil
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(","+opts+",", ",string,") {
			return nil
		}
		if name == "" {
			name = sf.Name
		}
		if seen[name] {
			return nil // encoding/json's rules for clashing names are not worth repeating here
		}
		seen[name] = true
		ft, ptr := sf.Type, false
		if ft.Kind() == reflect.Pointer {
			ft, ptr = ft.Elem(), true
		}
		if !scalarKind(ft.Kind()) || customUnmarshal(ft) {
			return nil
		}
		all = append(all, named{name, rowField{index: i, name: sf.Name, typ: sf.Type, ptr: ptr}})
	}
	rp := &rowPlan{fields: make([]rowField, len(p.fieldNames)), name: t.Name()}
	for j, col := range p.fieldNames {
		rp.fields[j].index = -1
		// encoding/json prefers an exact name and falls back to a
		// case-insensitive match.
		for _, n := range all {
			if n.name == col {
				rp.fields[j] = n.field
				break
			}
		}
		if rp.fields[j].index < 0 {
			for _, n := range all {
				if strings.EqualFold(n.name, col) {
					rp.fields[j] = n.field
					break
				}
			}
		}
	}
	return rp
}

// fill stores the cells of row ev (columns from on) in the struct sv. Like
// encoding/json it keeps going after a type mismatch and returns the first.
func (rp *rowPlan) fill(ev *Event, from int, sv reflect.Value) error {
	var first error
	for j := from; j < len(ev.Cells); j++ {
		f := &rp.fields[j]
		if f.index < 0 {
			continue
		}
		c := &ev.Cells[j]
		if c.Kind == lexer.KindMissing {
			continue // an absent key leaves the field as it was
		}
		fv := sv.Field(f.index)
		if f.ptr {
			if c.Kind == lexer.KindNull {
				fv.SetZero()
				continue
			}
			if fv.IsNil() {
				fv.Set(reflect.New(f.typ.Elem()))
			}
			fv = fv.Elem()
		} else if c.Kind == lexer.KindNull {
			continue // null into a non-pointer scalar has no effect
		}
		if err := setScalar(fv, c); err != nil && first == nil {
			first = &json.UnmarshalTypeError{Value: err.Error(), Type: fv.Type(),
				Offset: ev.Offset + int64(c.Col) - 1, Struct: rp.name, Field: f.name}
		}
	}
	return first
}

// mismatch names the JSON value that did not fit, as encoding/json does.
type mismatch string

func (m mismatch) Error() string { return string(m) }

// setScalar stores cell c in fv, a scalar kind.
func setScalar(fv reflect.Value, c *lexer.Scalar) error {
	k := fv.Kind()
	switch c.Kind {
	case lexer.KindString:
		if k == reflect.String {
			fv.SetString(string(c.Bytes))
			return nil
		}
		return mismatch("string")
	case lexer.KindBool:
		if k == reflect.Bool {
			fv.SetBool(c.Bool)
			return nil
		}
		return mismatch("bool")
	case lexer.KindInt, lexer.KindFloat:
		switch k {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if c.Kind == lexer.KindInt && !fv.OverflowInt(c.Int) {
				fv.SetInt(c.Int)
				return nil
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			if c.Kind == lexer.KindInt && c.Int >= 0 && !fv.OverflowUint(uint64(c.Int)) {
				fv.SetUint(uint64(c.Int))
				return nil
			}
		case reflect.Float64:
			f, err := c.Float64()
			if err == nil {
				fv.SetFloat(f)
				return nil
			}
		case reflect.Float32:
			f, err := strconv.ParseFloat(string(c.Bytes), 32)
			if err == nil {
				fv.SetFloat(f)
				return nil
			}
		}
		return mismatch("number " + string(c.Bytes))
	}
	return mismatch(c.Kind.String())
}

// valuePlan is what Decoder.Decode knows about a target type, worked out
// once per type: whether encoding/json must handle it (custom unmarshalers,
// `,string` options, embedded pointers, kinds assignValue leaves alone),
// and for a struct its JSON fields by name.
type valuePlan struct {
	viaJSON bool
	byName  map[string][]int // struct: JSON name -> field index path
	names   []string         // struct: the JSON names, for case-insensitive matches
}

var valuePlans sync.Map // reflect.Type -> *valuePlan

func valuePlanFor(t reflect.Type) *valuePlan {
	if p, ok := valuePlans.Load(t); ok {
		return p.(*valuePlan)
	}
	p, _ := valuePlans.LoadOrStore(t, buildValuePlan(t))
	return p.(*valuePlan)
}

func buildValuePlan(t reflect.Type) *valuePlan {
	p := &valuePlan{}
	if customUnmarshal(t) || t == reflect.TypeFor[json.Number]() {
		p.viaJSON = true
		return p
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float64, reflect.Pointer, reflect.Slice,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.viaJSON = t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 // base64
	case reflect.Interface:
		p.viaJSON = t.NumMethod() != 0
	case reflect.Map:
		p.viaJSON = t.Key().Kind() != reflect.String || customUnmarshal(t.Key())
	case reflect.Struct:
		fields := normCachedFields(t)
		p.byName = make(map[string][]int, len(fields))
		for _, f := range fields {
			if fieldViaJSON(t, f.index) {
				p.viaJSON = true
				return p
			}
			p.byName[f.name] = f.index
			p.names = append(p.names, f.name)
		}
	default: // float32 (rounding), arrays, and kinds JSON has no value for
		p.viaJSON = true
	}
	return p
}

// fieldViaJSON reports whether the field at index path idx of struct t
// needs encoding/json: reached through an embedded pointer, or tagged
// `,string`.
func fieldViaJSON(t reflect.Type, idx []int) bool {
	for i, x := range idx {
		f := t.Field(x)
		if i == len(idx)-1 {
			tag := f.Tag.Get("json")
			if c := strings.IndexByte(tag, ','); c >= 0 {
				for _, opt := range strings.Split(tag[c+1:], ",") {
					if opt == "string" {
						return true
					}
				}
			}
			return false
		}
		t = f.Type
		if t.Kind() == reflect.Pointer {
			return true
		}
	}
	return false
}

// assignValue stores the decoded JSON-model value x (Object, []any, int64,
// float64, string, bool or nil) in rv, which is addressable, as
// json.Unmarshal of x's JSON text would, without that text: by reflection
// through a plan cached per type. Whatever the plan cannot do exactly as
// encoding/json does (custom unmarshalers, type mismatches and their
// errors, `,string`, float32, base64) goes through ToJSON and
// json.Unmarshal for that value only. An empty interface receives x in
// form (WithOrderedObjects, WithExactNumbers; encoding/json's by default).
func assignValue(rv reflect.Value, x any, depth int, form anyForm) error {
	t := rv.Type()
	p := valuePlanFor(t)
	if p.viaJSON || depth > 10000 {
		return assignViaJSON(rv, x)
	}
	if x == nil {
		// null: encoding/json sets pointers, interfaces, maps and slices
		// to nil and leaves everything else as it is.
		switch t.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
			rv.SetZero()
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(t.Elem()))
		}
		return assignValue(rv.Elem(), x, depth+1, form)
	case reflect.Interface:
		if !rv.IsNil() && rv.Elem().Kind() == reflect.Pointer {
			return assignViaJSON(rv, x) // encoding/json decodes into the pointer it holds
		}
		rv.Set(reflect.ValueOf(form.value(x, nil)))
		return nil
	case reflect.Struct:
		o, ok := x.(Object)
		if !ok {
			return assignViaJSON(rv, x)
		}
		for _, m := range o {
			idx, ok := p.byName[m.Key]
			if !ok {
				for _, n := range p.names {
					if strings.EqualFold(n, m.Key) {
						idx, ok = p.byName[n], true
						break
					}
				}
				if !ok {
					continue // unknown keys are ignored
				}
			}
			if err := assignValue(rv.FieldByIndex(idx), m.Value, depth+1, form); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		o, ok := x.(Object)
		if !ok {
			return assignViaJSON(rv, x)
		}
		if rv.IsNil() {
			rv.Set(reflect.MakeMapWithSize(t, len(o)))
		}
		kt, et := t.Key(), t.Elem()
		for _, m := range o {
			ev := reflect.New(et).Elem()
			if err := assignValue(ev, m.Value, depth+1, form); err != nil {
				return err
			}
			rv.SetMapIndex(reflect.ValueOf(m.Key).Convert(kt), ev)
		}
		return nil
	case reflect.Slice:
		a, ok := x.([]any)
		if !ok {
			return assignViaJSON(rv, x)
		}
		s := reflect.MakeSlice(t, len(a), len(a))
		for i, e := range a {
			if err := assignValue(s.Index(i), e, depth+1, form); err != nil {
				return err
			}
		}
		rv.Set(s)
		return nil
	case reflect.String:
		if s, ok := x.(string); ok {
			rv.SetString(s)
			return nil
		}
	case reflect.Bool:
		if b, ok := x.(bool); ok {
			rv.SetBool(b)
			return nil
		}
	case reflect.Float64:
		switch n := x.(type) {
		case float64:
			rv.SetFloat(n)
			return nil
		case int64:
			rv.SetFloat(float64(n)) // what parsing its decimal text gives
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := x.(int64); ok && !rv.OverflowInt(n) {
			rv.SetInt(n)
			return nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n, ok := x.(int64); ok && n >= 0 && !rv.OverflowUint(uint64(n)) {
			rv.SetUint(uint64(n))
			return nil
		}
	}
	return assignViaJSON(rv, x) // a mismatch: encoding/json's error, or its conversion
}

// assignViaJSON stores x in the addressable rv through its JSON text.
func assignViaJSON(rv reflect.Value, x any) error {
	data, err := ToJSON(x)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, rv.Addr().Interface())
}
