package encoder

import (
	"math"

	"github.com/gcfkit/gcf/lexer"
)

// AppendNull appends the null literal `-`.
func AppendNull(dst []byte) []byte { return append(dst, '-') }

// AppendMissing appends the missing-cell marker `~` (table rows only).
func AppendMissing(dst []byte) []byte { return append(dst, '~') }

// AppendBool appends `true` or `false`.
func AppendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// AppendUint appends an unsigned integer, or returns dst and an
// out_of_range error when u is above the int64 range of the data model.
func AppendUint(dst []byte, u uint64) ([]byte, error) {
	if u > math.MaxInt64 {
		return dst, UintRangeError(u)
	}
	return AppendInt(dst, int64(u)), nil
}

// UintRangeError is the out_of_range error for an unsigned integer above
// the int64 range.
func UintRangeError(u uint64) error {
	return lexer.Errorf(lexer.OutOfRange,
		"unsigned integer %d is outside the int64 range [-9223372036854775808, 9223372036854775807]; model it as a string", u)
}

// AppendScalar is the one scalar-cell writer: it appends v, a Go primitive
// (nil, bool, string, the int and uint kinds, float64), in ctx. ok is false
// (dst unchanged) for any other type, which the caller's model handles. A
// string that is not valid UTF-8 is not written: err is an invalid_utf8
// *lexer.SyntaxError whose Offset is the first bad byte in the string.
func AppendScalar(dst []byte, v any, ctx Context) (out []byte, ok bool, err error) {
	if s, isStr := v.(string); isStr { // the common case, before the switch
		if !NeedsQuote(s, ctx) {
			return append(dst, s...), true, nil
		}
		out, bad := appendQuoted(dst, s, false)
		if bad >= 0 {
			return out, true, &lexer.SyntaxError{Category: lexer.InvalidUTF8, Offset: int64(bad), Msg: "invalid UTF-8"}
		}
		return out, true, nil
	}
	switch x := v.(type) {
	case int64:
		return AppendInt(dst, x), true, nil
	case float64:
		out, err = AppendFloat(dst, x)
		return out, true, err
	case bool:
		return AppendBool(dst, x), true, nil
	case nil:
		return AppendNull(dst), true, nil
	case int:
		return AppendInt(dst, int64(x)), true, nil
	case int32:
		return AppendInt(dst, int64(x)), true, nil
	case int16:
		return AppendInt(dst, int64(x)), true, nil
	case int8:
		return AppendInt(dst, int64(x)), true, nil
	case uint8:
		return AppendInt(dst, int64(x)), true, nil
	case uint16:
		return AppendInt(dst, int64(x)), true, nil
	case uint32:
		return AppendInt(dst, int64(x)), true, nil
	case uint:
		out, err = AppendUint(dst, uint64(x))
		return out, true, err
	case uint64:
		out, err = AppendUint(dst, x)
		return out, true, err
	case uintptr:
		out, err = AppendUint(dst, uint64(x))
		return out, true, err
	}
	return dst, false, nil
}

// IsInvalidUTF8 reports whether err is AppendScalar's invalid_utf8 error.
func IsInvalidUTF8(err error) bool {
	se, ok := err.(*lexer.SyntaxError)
	return ok && se.Category == lexer.InvalidUTF8
}

// SameScalar reports whether the scalars a and b are written as the same
// cell: the sameness of constant-column factoring (spec v3.6.0 §7.4.7,
// the reference compares canonical text), so 1 and 1.0 are the same and
// 1 and "1" are not. Values of one common type are compared directly;
// others are formatted by format (nil: AppendScalar), which knows the
// caller's model, and their texts compared. A value format does not write
// or rejects (a non-finite float, invalid UTF-8, a uint above int64) is
// the same as nothing.
func SameScalar(a, b any, format func(dst []byte, v any, ctx Context) ([]byte, bool, error)) bool {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return x == y
		}
	case int64:
		if y, ok := b.(int64); ok {
			return x == y
		}
	case float64:
		if y, ok := b.(float64); ok {
			return x == y // either zero is 0; NaN is never the same
		}
	case bool:
		if y, ok := b.(bool); ok {
			return x == y
		}
	case nil:
		if b == nil {
			return true
		}
	}
	if format == nil {
		format = AppendScalar
	}
	var ab, bb [40]byte
	ta, ok, err := format(ab[:0], a, Cell)
	if !ok || err != nil {
		return false
	}
	tb, ok, err := format(bb[:0], b, Cell)
	if !ok || err != nil {
		return false
	}
	return string(ta) == string(tb)
}
