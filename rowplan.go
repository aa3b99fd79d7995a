package gcf

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

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
