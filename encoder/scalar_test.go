package encoder

import (
	"math"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

func TestAppendScalar(t *testing.T) {
	for _, c := range []struct {
		v    any
		ctx  Context
		want string
	}{
		{nil, Cell, "-"}, {true, Cell, "true"}, {false, Value, "false"},
		{int64(-12), Cell, "-12"}, {int8(-3), Cell, "-3"}, {uint16(7), Cell, "7"},
		{uint64(math.MaxInt64), Cell, "9223372036854775807"}, {2.5, Cell, "2.5"},
		{"a|b", Cell, `"a|b"`}, {"plain", Cell, "plain"}, {"12", Element, `"12"`},
	} {
		got, ok, err := AppendScalar([]byte("x"), c.v, c.ctx)
		if !ok || err != nil || string(got) != "x"+c.want {
			t.Errorf("AppendScalar(%#v) = %q, %v, %v; want %q", c.v, got, ok, err, "x"+c.want)
		}
	}
	if got, ok, _ := AppendScalar([]byte("x"), []any{}, Cell); ok || string(got) != "x" {
		t.Errorf("AppendScalar([]any) = %q, ok %v; want no write, not ok", got, ok)
	}
	for _, v := range []any{uint64(math.MaxInt64) + 1, math.NaN(), math.Inf(-1)} {
		got, ok, err := AppendScalar([]byte("x"), v, Cell)
		if se, isSE := err.(*lexer.SyntaxError); !ok || !isSE || se.Category != lexer.OutOfRange || string(got) != "x" {
			t.Errorf("AppendScalar(%v) = %q, %v, %v; want out_of_range and no write", v, got, ok, err)
		}
	}
	got, ok, err := AppendScalar([]byte("x"), "ab\xff", Cell)
	if se, isSE := err.(*lexer.SyntaxError); !ok || !isSE || !IsInvalidUTF8(err) || se.Offset != 2 || string(got) != "x" {
		t.Errorf("AppendScalar(invalid UTF-8) = %q, %v, %v; want invalid_utf8 at 2 and no write", got, ok, err)
	}
}

func TestAppendV1Scalar(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "-"}, {true, "true"}, {int64(5), "5"}, {uint8(5), "5"}, {2.0, "2.0"}, {"a|b", `"a|b"`},
	} {
		got, ok, err := AppendV1Scalar(nil, c.v, V1Cell)
		if !ok || err != nil || string(got) != c.want {
			t.Errorf("AppendV1Scalar(%#v) = %q, %v, %v; want %q", c.v, got, ok, err, c.want)
		}
	}
	for _, v := range []any{math.NaN(), "\xff", uint64(1 << 63)} {
		if got, ok, err := AppendV1Scalar(nil, v, V1Cell); !ok || err == nil || len(got) != 0 {
			t.Errorf("AppendV1Scalar(%q) = %q, %v, %v; want an error and no write", v, got, ok, err)
		}
	}
	if _, ok, _ := AppendV1Scalar(nil, struct{}{}, V1Cell); ok {
		t.Error("AppendV1Scalar(struct{}{}) ok; want not ok")
	}
}

// SameScalar is the sameness of constant-column factoring: the same
// canonical cell text.
func TestSameScalar(t *testing.T) {
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{"x", "x", true},
		{"x", "y", false},
		{int64(1), float64(1), true}, // 1 and 1.0
		{int64(1), "1", false},
		{"-", nil, false},
		{nil, nil, true},
		{float64(0), math.Copysign(0, -1), true}, // either zero is 0
		{math.NaN(), math.NaN(), false},
		{true, "true", false},
		{true, true, true},
		{int(3), int64(3), true},
		{uint8(3), int32(3), true},
		{int64(1 << 60), float64(1 << 60), false}, // 1152921504606846976 against 1.152921504606847e+18
		{[]int{1}, []int{1}, false},               // not a scalar
		{uint64(math.MaxUint64), uint64(math.MaxUint64), false},
	} {
		if got := SameScalar(c.a, c.b, nil); got != c.want {
			t.Errorf("SameScalar(%#v, %#v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// The Const context quotes what a cell does, and '}'.
func TestConstContext(t *testing.T) {
	for in, want := range map[string]string{
		"us-east": "us-east", "a=b": "a=b", "^{abc": "^{abc", "x y": "x y",
		"": `""`, "^": `"^"`, "^{x}": `"^{x}"`, "a,b": `"a,b"`, "x}y": `"x}y"`, "a|b": `"a|b"`,
		"true": `"true"`, "12": `"12"`, "-": `"-"`, "~": `"~"`, " a": `" a"`, "#x": `"#x"`,
	} {
		if got := string(AppendConstValue(nil, in)); got != want {
			t.Errorf("AppendConstValue(%q) = %s, want %s", in, got, want)
		}
		if got, _, _ := AppendScalar(nil, in, Const); string(got) != want {
			t.Errorf("AppendScalar(%q, Const) = %s, want %s", in, got, want)
		}
	}
	if NeedsQuote("x}y", Cell) {
		t.Error("a cell quotes '}'")
	}
}
