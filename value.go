package gcf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
)

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its members in order. DecodeGeneric
// returns objects as Object, and EncodeGeneric emits an Object's members in
// slice order (SPEC §7.2). Values inside are nil, bool, int64, float64,
// string, []any or Object.
type Object []Member

// Get returns the value stored under key and whether it is present.
func (o Object) Get(key string) (any, bool) {
	for i := range o {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the object as JSON with its members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	return appendJSON(nil, o)
}

// UnmarshalJSON reads a JSON object keeping member order and number
// fidelity (see ParseJSON).
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := ParseJSON(data)
	if err != nil {
		return err
	}
	obj, ok := v.(Object)
	if !ok {
		return fmt.Errorf("gcf: JSON value is %T, not an object", v)
	}
	*o = obj
	return nil
}

// ParseJSON reads one JSON value into the generic data model: objects
// become Object (member order kept, duplicate keys rejected), arrays []any,
// integer literals int64 (an integer literal outside int64 is an
// out_of_range error, never approximated), other numbers float64.
func ParseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseJSONValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("gcf: trailing data after the JSON value")
	}
	return v, nil
}

const maxJSONDepth = 10000

func parseJSONValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, lexer.Errorf(lexer.DepthExceeded, "JSON nesting deeper than %d", maxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				for i := range obj {
					if obj[i].Key == k {
						return nil, lexer.Errorf(lexer.DuplicateKey, "duplicate key %q in JSON object", k)
					}
				}
				v, err := parseJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{k, v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseJSONValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("gcf: unexpected JSON delimiter %v", t)
	case json.Number:
		return numberFromJSON(string(t))
	default:
		return t, nil // string, bool, nil
	}
}

func numberFromJSON(s string) (any, error) {
	if strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, lexer.Errorf(lexer.OutOfRange, "number %s is outside the binary64 range", s)
		}
		return f, nil
	}
	v, ok := lexer.ParseInt([]byte(s))
	if !ok {
		return nil, lexer.Errorf(lexer.OutOfRange, "integer %s is outside the int64 range [-9223372036854775808, 9223372036854775807]; model it as a string", s)
	}
	return v, nil
}

// ToJSON writes a generic value (as returned by DecodeGeneric) as compact
// JSON, objects in member order. Integers are written exactly.
func ToJSON(v any) ([]byte, error) { return appendJSON(nil, v) }

func appendJSON(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return dst, lexer.Errorf(lexer.OutOfRange, "non-finite number %v has no JSON form", x)
		}
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			// Keep a float that holds an integer recognisable as a float.
			if x == 0 {
				return append(dst, '0'), nil
			}
			return strconv.AppendFloat(dst, x, 'f', -1, 64), nil
		}
		return strconv.AppendFloat(dst, x, 'g', -1, 64), nil
	case string:
		return encoder.AppendQuoted(dst, x), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendJSON(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case Object:
		dst = append(dst, '{')
		for i, m := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = encoder.AppendQuoted(dst, m.Key)
			dst = append(dst, ':')
			var err error
			if dst, err = appendJSON(dst, m.Value); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return dst, err
		}
		return append(dst, b...), nil
	}
}
