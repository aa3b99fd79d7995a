package lexer

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// Numbers beyond binary64 are out_of_range at the token; underflow is not
// an error (SPEC §2.3.2: non-integers are binary64 values, so a tiny
// magnitude rounds to the nearest one, zero).
func TestNumberDomain(t *testing.T) {
	big := "1" + strings.Repeat("0", 400)
	runScalarCases(t, []scalarCase{
		bad("1e309", "1e309", OutOfRange, 1),
		bad("-1e309", "-1e309", OutOfRange, 1),
		bad("400 digits then a fraction", big+".5", OutOfRange, 1),
		bad("huge exponent", "2e99999999999999999999", OutOfRange, 1),
		bad("just above max", "1.7976931348623159e308", OutOfRange, 1),
		bad("fraction digits push it over", "0.00001e314", OutOfRange, 1),
		bad("integer beyond int64", big, OutOfRange, 1),
		{name: "in a cell, at its column", line: "1|  1e309|2", pos: 2, delim: '|', err: OutOfRange, errCol: 5},
		float("max", "1.7976931348623157e308"),
		float("just below the estimate bound", "9.9e307"),
		float("1e-400", "1e-400"),
		float("-1e-400", "-1e-400"),
		float("zero with a huge exponent", "0e99999999999999999999"),
		float("long fraction", "0."+strings.Repeat("9", 400)),
		float("long but small", strings.Repeat("9", 300)+".5"),
	})
}

func TestFloatOverflowsMatchesStrconv(t *testing.T) {
	for _, s := range []string{"1e308", "1.79e308", "1.8e308", "17.9e307", "18e307", "0.0018e311", "0.0017e311",
		"179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.5",
		"1" + strings.Repeat("0", 309) + ".0", "-1" + strings.Repeat("0", 308) + ".0", "1e-400", "0.0", "-0e5000"} {
		f, err := strconv.ParseFloat(s, 64)
		want := err != nil && math.IsInf(f, 0)
		if got := FloatOverflows([]byte(s)); got != want {
			t.Errorf("FloatOverflows(%.40q) = %v, strconv says %v", s, got, want)
		}
	}
}

// A raw C0 control other than TAB or a raw C1 control in a bare value, and
// a raw C0 control in a quoted string, is invalid_escape at the character.
func TestControlCharacters(t *testing.T) {
	runScalarCases(t, []scalarCase{
		bad("NUL in a bare value", "ab\x00c", InvalidEscape, 3),
		bad("SOH first", "\x01", InvalidEscape, 1),
		bad("lone CR", "a\rb", InvalidEscape, 2),
		bad("VT", "a\vb", InvalidEscape, 2),
		bad("US", "abcdefghij\x1f", InvalidEscape, 11),
		bad("C1 NEL", "a\u0085b", InvalidEscape, 2),
		bad("C1 U+009F", "xyz\u009f", InvalidEscape, 4),
		bad("control after leading space", "  a\x02", InvalidEscape, 4),
		bad("control in a number-like token", "12\x003", InvalidEscape, 3),
		bad("control in a marker-shaped token", "^{a\x01}", InvalidEscape, 4),
		{name: "control in the second cell", line: "a|b\x00|c", pos: 2, delim: '|', err: InvalidEscape, errCol: 4},
		{name: "C1 in an inline array item", line: "a, b\u0080", pos: 2, delim: ',', err: InvalidEscape, errCol: 5},
		bad("TAB in a quoted string", "\"a\tb\"", InvalidEscape, 3),
		bad("NUL in a quoted string", "\"\x00\"", InvalidEscape, 2),
		bad("raw control after an escape", "\"\\t\x1b\"", InvalidEscape, 4),
		str("TAB inside a bare value is data", "a\tb", "a\tb"),
		{name: "edges trimmed, inner TAB kept", line: "\t a\tb \t", kind: KindString, text: "a\tb", end: -1, col: 3},
		str("U+00A0 is not a control", "a\u00a0b", "a\u00a0b"),
		str("U+00A0 then C1 range lead without C1", "\u00c2\u00a0", "\u00c2\u00a0"),
		str("DEL is not C0 or C1", "a\x7fb", "a\x7fb"),
		qstr("C1 in a quoted string is data", "\"a\u0085\"", "a\u0085"),
	})
}

func TestControlAt(t *testing.T) {
	for c := 0; c < 0x80; c++ {
		want := c < 0x20 && c != '\t'
		for pos := 0; pos < 20; pos++ {
			b := []byte(strings.Repeat("a", 20))
			b[pos] = byte(c)
			got := ControlAt(b)
			if want && got != pos || !want && got != -1 {
				t.Fatalf("ControlAt with byte %#x at %d = %d", c, pos, got)
			}
		}
	}
	for r := rune(0x80); r < 0x800; r++ {
		b := []byte("abcdefgh" + string(r) + "ijklmnop")
		want := -1
		if r <= 0x9F {
			want = 8
		}
		if got := ControlAt(b); got != want {
			t.Fatalf("ControlAt(%U) = %d, want %d", r, got, want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes
	if got := Excerpt([]byte(long)); len(got) > MaxExcerpt+3 || !strings.HasSuffix(got, "...") || !strings.HasPrefix(long, strings.TrimSuffix(got, "...")) {
		t.Fatalf("Excerpt = %q", got)
	}
	if got := Quote([]byte(long)); len(got) > MaxExcerpt+5 || got != strconv.Quote(strings.Repeat("é", 40))+"..." {
		t.Fatalf("Quote = %q", got)
	}
	if got := Quote([]byte("short")); got != `"short"` {
		t.Fatalf("Quote = %q", got)
	}
	_, _, err := ScanScalar([]byte(strings.Repeat("9", 1<<16)), 0, 0, new([]byte))
	if err == nil || len(err.Msg) > 300 {
		t.Fatalf("out_of_range message echoes the input: %d bytes", len(err.Msg))
	}
}

// CheckLine's "no controls" answer lets the decoder skip ControlAt: it must
// never say none when ControlAt finds one.
func TestCheckLineCoversControlAt(t *testing.T) {
	for _, n := range []int{1, 5, 7, 8, 9, 20} {
		for c := 0; c < 0x80; c++ {
			for pos := 0; pos < n; pos++ {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				ctl, err := CheckLine(b)
				if err != nil || ctl != (c < 0x20) {
					t.Fatalf("CheckLine(%q) = %v, %v", b, ctl, err)
				}
			}
		}
	}
	for r := rune(0x80); r < 0x800; r++ {
		for _, s := range []string{string(r), "abcdefgh" + string(r) + "ijk"} {
			ctl, err := CheckLine([]byte(s))
			if err != nil || ControlAt([]byte(s)) >= 0 && !ctl {
				t.Fatalf("CheckLine(%q) = %v, %v", s, ctl, err)
			}
		}
	}
	if _, err := CheckLine([]byte("abcdefgh\xffxyz")); err == nil || err.Category != InvalidUTF8 {
		t.Fatalf("CheckLine of invalid UTF-8: %v", err)
	}
}

// CheckLineClass's plain answer lets the row scanner look for '|' alone:
// it must be true exactly when every byte is printable ASCII but '"'.
func TestCheckLineClassPlain(t *testing.T) {
	for _, n := range []int{1, 5, 7, 8, 9, 16, 20} {
		for c := 0; c < 0x100; c++ {
			for pos := 0; pos < n; pos++ {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(c)
				if c >= 0x80 && pos+1 < n {
					b[pos+1] = 0x80 // keep a two-byte sequence valid where it can be
				}
				_, plain, err := CheckLineClass(b)
				want := c >= 0x20 && c < 0x7f && c != '"'
				if plain != want || want && err != nil {
					t.Fatalf("CheckLineClass(%q): plain %v, want %v (%v)", b, plain, want, err)
				}
			}
		}
	}
	if _, plain, _ := CheckLineClass([]byte("Blue Lever|306.56|1|SKU-26962")); !plain {
		t.Fatal("a plain row is not plain")
	}
}

// CheckLineClass answers CheckLine's question alike.
func TestCheckLineClassControls(t *testing.T) {
	for _, s := range []string{"", "a", "a\tb", "abcdefgh\x01", "abcdefghijk", "é", "abcdefgh\u0085x", "\"quoted\" text", "a\x7fb"} {
		c1, e1 := CheckLine([]byte(s))
		c2, _, e2 := CheckLineClass([]byte(s))
		if c1 != c2 || (e1 == nil) != (e2 == nil) {
			t.Fatalf("%q: CheckLine %v %v, CheckLineClass %v %v", s, c1, e1, c2, e2)
		}
	}
}
