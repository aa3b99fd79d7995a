package interop

import (
	"math"

	"github.com/gcfkit/gcf"
)

// equal reports whether two generic values are equal in the JSON data model
// of SPEC §1.2: objects as unordered sets of members, arrays in order,
// numbers by value (an int64 equals a float64 that holds exactly the same
// number; -0 equals 0), strings by their code points.
func equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return intEqualsFloat(x, y)
		}
		return false
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int64:
			return intEqualsFloat(y, x)
		}
		return false
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case gcf.Object:
		y, ok := b.(gcf.Object)
		if !ok || len(x) != len(y) {
			return false
		}
		idx := make(map[string]any, len(y))
		for _, m := range y {
			idx[m.Key] = m.Value
		}
		if len(idx) != len(y) {
			return false // a duplicate key
		}
		for _, m := range x {
			v, ok := idx[m.Key]
			if !ok || !equal(m.Value, v) {
				return false
			}
		}
		return true
	}
	return false
}

func intEqualsFloat(i int64, f float64) bool {
	if math.Abs(f) >= 1<<63 || f != math.Trunc(f) {
		return false
	}
	return int64(f) == i && float64(i) == f
}
