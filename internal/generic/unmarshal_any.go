package generic

import (
	"github.com/gcfkit/gcf/internal/box"
	"github.com/gcfkit/gcf/internal/options"
)

// anyForm says what Unmarshal and Decoder.Decode store in an interface
// (a *any target, or an interface field, element or map value): the zero
// form is encoding/json's; each bit keeps one part of DecodeGeneric's
// ordered model instead.
type anyForm uint8

const (
	anyOrdered anyForm = 1 << iota // objects as Object, not map[string]any
	anyExact                       // integers as int64, not float64
)

// WithOrderedObjects makes Unmarshal and Decoder.Decode store an object
// decoded into an interface as an Object, its members in payload order
// (and a repeated key kept twice), instead of encoding/json's
// map[string]any. Encoders ignore it.
func WithOrderedObjects() Option { return func(c *options.Config) { c.Form |= uint8(anyOrdered) } }

// WithExactNumbers makes Unmarshal and Decoder.Decode store a number
// decoded into an interface as DecodeGeneric gives it, instead of
// encoding/json's float64: an integer as int64 (exact: GCF integers are
// within the int64 range, SPEC §5) and any other number as float64.
// Encoders ignore it.
//
// With both WithOrderedObjects and WithExactNumbers, a value decoded into
// *any is exactly what DecodeGeneric returns.
func WithExactNumbers() Option { return func(c *options.Config) { c.Form |= uint8(anyExact) } }

// value converts x, a value in DecodeGeneric's model, to form f: objects
// become map[string]any unless f keeps them ordered, integers float64
// unless f keeps them exact. Arrays and ordered objects are converted in
// place (the conversion is idempotent, so a value shared within x is
// safe); x must belong to the caller. floats, if not nil, boxes the
// converted numbers.
func (f anyForm) value(x any, floats *box.Slab[float64]) any {
	if f == anyOrdered|anyExact {
		return x
	}
	switch v := x.(type) {
	case Object:
		if f&anyOrdered != 0 {
			for i := range v {
				v[i].Value = f.value(v[i].Value, floats)
			}
			return v
		}
		m := make(map[string]any, len(v))
		for _, mb := range v {
			m[mb.Key] = f.value(mb.Value, floats) // a repeated key keeps its last value
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = f.value(e, floats)
		}
		return v
	case int64:
		if f&anyExact == 0 {
			if floats != nil {
				return floats.Box(float64(v))
			}
			return float64(v) // what parsing its decimal text gives
		}
	}
	return x
}

// jsonModel converts a decoded value to what encoding/json stores in an
// interface: map[string]any for objects (a repeated key keeps its last
// value) and float64 for every number.
func jsonModel(x any) any { return anyForm(0).value(x, nil) }
