package lexer

import "fmt"

// Typed accessors for a decoded Scalar. None allocates on success; a kind
// that does not fit the requested type is a *TypeError.

// TypeError reports that a scalar's kind does not fit the Go type asked for.
type TypeError struct {
	Want string // the Go type asked for
	Got  Kind
	Col  int // the scalar's column in its line
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("gcf: cannot read a %s scalar as %s", e.Got, e.Want)
}

// Int64 returns the value of an integer scalar.
func (s Scalar) Int64() (int64, error) {
	if s.Kind != KindInt {
		return 0, &TypeError{Want: "int64", Got: s.Kind, Col: s.Col}
	}
	return s.Int, nil
}

// Float64 returns the value of a number scalar, integer or not; an integer
// beyond 2^53 rounds to the nearest float64, as in JSON. A scalar from a
// decoder never fails here (the decoder rejects a number beyond binary64
// as out_of_range at its line); for a Scalar built by hand the error has
// the scalar's Column but no Line, which a Scalar does not know.
func (s Scalar) Float64() (float64, error) {
	switch s.Kind {
	case KindInt:
		return float64(s.Int), nil
	case KindFloat:
		f, err := ParseFloat(s.Bytes)
		if err != nil {
			return 0, &SyntaxError{Column: s.Col, Category: OutOfRange, Msg: "number " + Excerpt(s.Bytes) + " is outside the binary64 range", Err: err}
		}
		return f, nil
	}
	return 0, &TypeError{Want: "float64", Got: s.Kind, Col: s.Col}
}

// Boolean returns the value of a true or false scalar.
func (s Scalar) Boolean() (bool, error) {
	if s.Kind != KindBool {
		return false, &TypeError{Want: "bool", Got: s.Kind, Col: s.Col}
	}
	return s.Bool, nil
}

// IsNull reports whether the scalar is the null token `-`.
func (s Scalar) IsNull() bool { return s.Kind == KindNull }

// IsMissing reports whether the scalar is the missing-cell token `~`.
func (s Scalar) IsMissing() bool { return s.Kind == KindMissing }

// AppendString appends the decoded text of a string scalar (quotes removed,
// escapes resolved) to dst and returns the extended buffer.
func (s Scalar) AppendString(dst []byte) ([]byte, error) {
	if s.Kind != KindString {
		return dst, &TypeError{Want: "string", Got: s.Kind, Col: s.Col}
	}
	return append(dst, s.Bytes...), nil
}

// AppendText appends the scalar as JSON-free text: a string's decoded
// text, a number's lexeme, true or false, and nothing for null or missing.
func (s Scalar) AppendText(dst []byte) []byte {
	switch s.Kind {
	case KindBool:
		if s.Bool {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case KindNull, KindMissing, KindAttach:
		return dst
	}
	return append(dst, s.Bytes...)
}
