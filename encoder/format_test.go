package encoder_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
)

var contexts = []struct {
	name  string
	ctx   encoder.Context
	delim byte
}{
	{"Value", encoder.Value, 0},
	{"Cell", encoder.Cell, '|'},
	{"Element", encoder.Element, ','},
}

// TestAppendFloat pins SPEC §2.3.1: 0 for either zero, plain decimal for
// 1e-6 <= |v| < 2^53, normalized exponent otherwise.
func TestAppendFloat(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{3.14, "3.14"},
		{-3.14, "-3.14"},
		{0.1, "0.1"},
		{1, "1"},
		{-1, "-1"},
		{100, "100"},
		{-1.5, "-1.5"},
		{123456.789, "123456.789"},
		{1e-6, "0.000001"},
		{-1e-6, "-0.000001"},
		{1.5e-6, "0.0000015"},
		{9.99e-7, "9.99e-7"},
		{1e-7, "1e-7"},
		{-1e-7, "-1e-7"},
		{4e-7, "4e-7"},
		{1.25e-10, "1.25e-10"},
		{5e-324, "5e-324"},
		{1e-100, "1e-100"},
		{1e10, "10000000000"},
		{-1e10, "-10000000000"},
		{1e15, "1000000000000000"},
		{4503599627370495.5, "4503599627370495.5"},
		{9007199254740991, "9007199254740991"},   // 2^53-1: plain
		{-9007199254740991, "-9007199254740991"}, // -(2^53-1): plain
		{9007199254740992, "9.007199254740992e+15"},
		{-9007199254740992, "-9.007199254740992e+15"},
		{9007199254740994, "9.007199254740994e+15"},
		{5e18, "5e+18"},
		{9e18, "9e+18"},
		{-5e18, "-5e+18"},
		{1e20, "1e+20"},
		{1e21, "1e+21"},
		{1.23e21, "1.23e+21"},
		{1.25e21, "1.25e+21"},
		{-1.23e21, "-1.23e+21"},
		{6.022e23, "6.022e+23"},
		{1e100, "1e+100"},
		{1e300, "1e+300"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{-math.MaxFloat64, "-1.7976931348623157e+308"},
	}
	for _, tc := range tests {
		got, err := encoder.AppendFloat([]byte("x="), tc.v)
		if err != nil {
			t.Errorf("AppendFloat(%g): %v", tc.v, err)
			continue
		}
		if string(got) != "x="+tc.want {
			t.Errorf("AppendFloat(%g) = %q, want %q", tc.v, got[2:], tc.want)
		}
		// The output is a JSON number per SPEC §2.3 and parses back to v.
		tok := got[2:]
		if !lexer.IsNumber(string(tok)) {
			t.Errorf("AppendFloat(%g) = %q is not a JSON number", tc.v, tok)
		}
		if back, err := lexer.ParseFloat(tok); err != nil || back != tc.v {
			t.Errorf("AppendFloat(%g) = %q parses back as %g, %v", tc.v, tok, back, err)
		}
	}
}

func TestAppendFloatNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		got, err := encoder.AppendFloat([]byte("pre"), v)
		if err == nil {
			t.Errorf("AppendFloat(%v) = %q, want an out_of_range error", v, got)
			continue
		}
		if c := lexer.CategoryOf(err); c != lexer.OutOfRange {
			t.Errorf("AppendFloat(%v): category %q, want %q", v, c, lexer.OutOfRange)
		}
		if !errors.Is(err, lexer.OutOfRange) {
			t.Errorf("AppendFloat(%v): errors.Is(err, OutOfRange) = false", v)
		}
		if string(got) != "pre" {
			t.Errorf("AppendFloat(%v) modified dst: %q", v, got)
		}
	}
}

// TestAppendFloatShape checks the exponent-shape rules of SPEC §2.3.1 over
// many values: lowercase e, one digit before the point, explicit sign, no
// leading exponent zeros, no trailing fractional zeros, and exact round trip.
func TestAppendFloatShape(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		v := math.Float64frombits(r.Uint64())
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if r.IntN(2) == 0 {
			// Bias towards the interesting range around the thresholds.
			v = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(40)-20))
		}
		out, err := encoder.AppendFloat(nil, v)
		if err != nil {
			t.Fatalf("AppendFloat(%v): %v", v, err)
		}
		s := string(out)
		if back, err := lexer.ParseFloat(out); err != nil || back != v {
			t.Fatalf("AppendFloat(%v) = %q does not round-trip (%v, %v)", v, s, back, err)
		}
		if !lexer.IsNumber(s) {
			t.Fatalf("AppendFloat(%v) = %q is not a JSON number", v, s)
		}
		a := math.Abs(v)
		mant, exp, hasExp := strings.Cut(strings.TrimPrefix(s, "-"), "e")
		switch {
		case v == 0:
			if s != "0" {
				t.Fatalf("AppendFloat(%v) = %q, want 0", v, s)
			}
		case a >= 1e-6 && a < 1<<53:
			if hasExp {
				t.Fatalf("AppendFloat(%v) = %q, want plain decimal", v, s)
			}
		default:
			if !hasExp {
				t.Fatalf("AppendFloat(%v) = %q, want exponent notation", v, s)
			}
			if strings.ContainsAny(s, "E") || (exp[0] != '+' && exp[0] != '-') || exp[1] == '0' {
				t.Fatalf("AppendFloat(%v) = %q: exponent must be lowercase, signed, without leading zeros", v, s)
			}
			if mant[0] < '1' || mant[0] > '9' || (len(mant) > 1 && mant[1] != '.') {
				t.Fatalf("AppendFloat(%v) = %q: want exactly one nonzero digit before the point", v, s)
			}
		}
		if strings.Contains(mant, ".") && strings.HasSuffix(mant, "0") {
			t.Fatalf("AppendFloat(%v) = %q has trailing fractional zeros", v, s)
		}
	}
}

func TestAppendInt(t *testing.T) {
	tests := []struct {
		v    int64
		want string
	}{
		{0, "0"},
		{1, "1"},
		{-1, "-1"},
		{42, "42"},
		{-42, "-42"},
		{1 << 53, "9007199254740992"},
		{1e18, "1000000000000000000"},
		{math.MaxInt64, "9223372036854775807"},
		{math.MinInt64, "-9223372036854775808"},
		{math.MinInt64 + 1, "-9223372036854775807"},
	}
	for _, tc := range tests {
		if got := string(encoder.AppendInt([]byte("n="), tc.v)); got != "n="+tc.want {
			t.Errorf("AppendInt(%d) = %q, want %q", tc.v, got, "n="+tc.want)
		}
		// And the lexer reads it back as the same int64 (SPEC §2.3.2 bounds).
		var scratch []byte
		s, _, err := lexer.ScanScalar([]byte(tc.want), 0, 0, &scratch)
		if err != nil || s.Kind != lexer.KindInt || s.Int != tc.v {
			t.Errorf("ScanScalar(%q) = %v %d %v, want int %d", tc.want, s.Kind, s.Int, err, tc.v)
		}
	}
}

// quote is an expected NeedsQuote result.
type quote uint8

const (
	no     quote = iota // SPEC §2.4 lets the string stay bare, and nothing forces quoting
	yes                 // SPEC §2.4 obliges quoting
	either              // SPEC §2.4 neither obliges nor forbids quoting
)

// quoteCase gives NeedsQuote's expected result in Value, Cell and Element.
type quoteCase struct {
	s          string
	v, c, e    quote
	specClause string
}

func all(s, clause string) quoteCase  { return quoteCase{s, yes, yes, yes, clause} }
func none(s, clause string) quoteCase { return quoteCase{s, no, no, no, clause} }

var quoteCases = []quoteCase{
	all("", "empty"),
	all("-", "null"),
	all("~", "missing marker, every context"),
	all("^", "attachment marker, every context"),
	all("^{a}", "^{fields}"),
	all("^{id,name}", "^{fields}"),
	all("^{a,\"b|c\"}", "^{fields} (also contains a quote)"),
	none("^{a", "not a ^{fields} declaration"),
	none("^{", "not a ^{fields} declaration"),
	none("^x", "plain string"),
	none("~x", "plain string"),
	all("true", "boolean"),
	all("false", "boolean"),
	none("True", "not a boolean"),
	none("truex", "not a boolean"),
	none("null", "no null literal other than -"),
	all("123", "number"),
	all("0", "number"),
	all("1e10", "number"),
	all("-0", "number"),
	all("-1.5e-3", "number"),
	all("6.022E+23", "number"),
	all("0.5", "number"),
	all("99999999999999999999999", "number beyond int64"),
	all("01", "numeric-like: 0 then digit"),
	all("00", "numeric-like: 0 then digit"),
	all("007abc", "numeric-like: 0 then digit"),
	all("+1", "numeric-like: + digit"),
	all("+1abc", "numeric-like: + digit"),
	all("-1abc", "numeric-like: - digit"),
	all("-.5", "numeric-like: - . digit"),
	all(".5", "numeric-like: . digit (and leading .)"),
	all("+.5", "numeric-like: + . digit"),
	none("1.٥", "ASCII digits only; starts with 1-9"),
	none("+٥", "ASCII digits only"),
	none("-٥", "ASCII digits only"),
	none("0٥", "ASCII digits only"),
	none("123abc", "starts with 1-9, not a number"),
	none("1.", "starts with 1-9, not a number"),
	none("1e", "starts with 1-9, not a number"),
	none("0x1F", "0 then non-digit"),
	none("0.", "0 then non-digit"),
	none("+", "+ alone"),
	none("+x", "+ then non-digit"),
	none("+.x", "+ . then non-digit"),
	none("-.x", "- . then non-digit"),
	none("--", "- then non-digit"),
	none("-x", "- then non-digit"),
	none("NaN", "not a number"),
	none("Infinity", "not a number"),
	all(" x", "leading whitespace"),
	all("x ", "trailing whitespace"),
	all("\tx", "leading tab"),
	all("x\t", "trailing tab"),
	all(" ", "whitespace only"),
	all("#x", "leading #"),
	all("#", "leading #"),
	all("@x", "leading @"),
	all("@0", "leading @"),
	all(".x", "leading ."),
	all(".", "leading ."),
	none("a#b", "# not leading"),
	none("a@b", "@ not leading"),
	none("a.b", ". not leading"),
	all("a\"b", "contains quote"),
	all("\"", "contains quote"),
	all("a\\b", "contains backslash"),
	all("a\tb", "C0 control"),
	all("a\nb", "newline"),
	all("a\rb", "carriage return"),
	all("\x00", "C0 control"),
	all("a\x1fb", "C0 control"),
	all("\u0080", "C1 control"),
	all("\u0085", "C1 control (NEL)"),
	all("a\u009fb", "C1 control"),
	none("a\x7fb", "DEL is neither C0 nor C1"),
	all("a\u00a0b", "non-ASCII whitespace NBSP"),
	all("a\u2028b", "LINE SEPARATOR"),
	all("a\u2029b", "PARAGRAPH SEPARATOR"),
	all("\ufeff", "BOM / ZWNBSP"),
	all("a\ufeffb", "BOM / ZWNBSP"),
	all("a\u3000b", "IDEOGRAPHIC SPACE"),
	all("a\u1680b", "OGHAM SPACE MARK"),
	all("a\u2003b", "EM SPACE"),
	// SPEC §2.4 obliges quoting the *active* delimiter only. Quoting the
	// other one too is allowed (the obligation is "MUST quote when", never
	// "MUST NOT quote otherwise") and is what encoder.NeedsQuote does, so a
	// value reads the same wherever it is moved; the test accepts either.
	{"a|b", either, yes, either, "pipe: obligatory in Cell"},
	{"|", either, yes, either, "pipe: obligatory in Cell"},
	{"a,b", either, either, yes, "comma: obligatory in Element"},
	{",", either, either, yes, "comma: obligatory in Element"},
	all("ERR[404]: x", "inline array pattern"),
	all("[0]: y", "inline array pattern"),
	all("[Speaker 1]: Hello", "inline array pattern"),
	all("a[]:", "inline array pattern"),
	all("x[a]b]:c", "inline array pattern"),
	none("value[0] ok", "brackets without colon"),
	none("a]:b", "no opening bracket"),
	none("[a] :b", "colon not right after ]"),
	none("key: value", "plain"),
	none("café", "plain non-ASCII"),
	none("smile 😀", "plain with interior space and emoji"),
	none("a=b", "plain"),
	none("hello world", "plain with interior space"),
	none("a~b^c", "plain"),
	none("中文", "plain CJK"),
	none("x", "plain"),
}

func TestNeedsQuote(t *testing.T) {
	for _, tc := range quoteCases {
		want := [3]quote{tc.v, tc.c, tc.e}
		for i, c := range contexts {
			got := encoder.NeedsQuote(tc.s, c.ctx)
			if want[i] != either && got != (want[i] == yes) {
				t.Errorf("NeedsQuote(%q, %s) = %v, want %v (%s)", tc.s, c.name, got, want[i] == yes, tc.specClause)
			}
		}
	}
}

func TestAppendString(t *testing.T) {
	for _, tc := range quoteCases {
		want := [3]quote{tc.v, tc.c, tc.e}
		for i, c := range contexts {
			got := string(encoder.AppendString([]byte("pre"), tc.s, c.ctx))
			bare := "pre" + tc.s
			quoted := "pre" + string(encoder.AppendQuoted(nil, tc.s))
			ok := false
			switch want[i] {
			case no:
				ok = got == bare
			case yes:
				ok = got == quoted
			case either:
				// Whichever form, it must agree with NeedsQuote.
				ok = got == quoted && encoder.NeedsQuote(tc.s, c.ctx) || got == bare && !encoder.NeedsQuote(tc.s, c.ctx)
			}
			if !ok {
				t.Errorf("AppendString(%q, %s) = %q (bare %q, quoted %q, want %d)", tc.s, c.name, got, bare, quoted, want[i])
			}
		}
	}
}

// TestAppendStringValidUTF8 pins SPEC §20 ("Encoders MUST emit valid
// UTF-8"): a Go string holding invalid UTF-8 must not reach the wire as
// invalid bytes on the bare path either. AppendQuoted already replaces
// invalid bytes with U+FFFD; AppendString must not bypass that.
func TestAppendStringValidUTF8(t *testing.T) {
	for _, s := range []string{"a\xffb", "\xff", "abc\xe2\x82", "\xed\xa0\x80", "\xc0\x80"} {
		for _, c := range contexts {
			out := encoder.AppendString(nil, s, c.ctx)
			if !utf8.Valid(out) {
				t.Errorf("AppendString(%q, %s) = %q is not valid UTF-8", s, c.name, out)
			}
		}
	}
}

func TestAppendQuoted(t *testing.T) {
	tests := []struct {
		s, want string
	}{
		{"", `""`},
		{"abc", `"abc"`},
		{`a"b`, `"a\"b"`},
		{`a\b`, `"a\\b"`},
		{`\"`, `"\\\""`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00", `"\u0000"`},
		{"\x01", `"\u0001"`},
		{"\x0b", `"\u000b"`},
		{"\x1b", `"\u001b"`},
		{"\x1f", `"\u001f"`},
		{"a\x00b\x1fc", `"a\u0000b\u001fc"`},
		{"/", `"/"`},
		{" ", `" "`},
		{"|,", `"|,"`},
		{"\x7f", "\"\x7f\""},
		{"café 😀 中文", `"café 😀 中文"`},
		{"\u0085\u00a0\u2028\u2029\ufeff", "\"\u0085\u00a0\u2028\u2029\ufeff\""},
		{"\U0010FFFF", "\"\U0010FFFF\""},
		{"a\xffb", "\"a\uFFFDb\""},
		{"\xff", "\"\uFFFD\""},
	}
	for _, tc := range tests {
		if got := string(encoder.AppendQuoted([]byte("k="), tc.s)); got != "k="+tc.want {
			t.Errorf("AppendQuoted(%q) = %q, want %q", tc.s, got[2:], tc.want)
		}
	}
	// Other invalid sequences: the output is valid UTF-8 with U+FFFD in
	// place of the bad bytes, and never contains the raw bytes.
	for _, s := range []string{"abc\xe2\x82", "\xed\xa0\x80", "\xc0\x80", "\xf4\x90\x80\x80", "x\x80y"} {
		out := encoder.AppendQuoted(nil, s)
		if !utf8.Valid(out) || !strings.Contains(string(out), "\uFFFD") {
			t.Errorf("AppendQuoted(%q) = %q: want valid UTF-8 with U+FFFD", s, out)
		}
		if err := lexer.CheckUTF8(out); err != nil {
			t.Errorf("AppendQuoted(%q) = %q: CheckUTF8: %v", s, out, err)
		}
	}
}

// TestAppendQuotedRoundTrip decodes every quoted form back with the lexer:
// all 128 ASCII bytes, C1 controls, and a few multi-byte runes.
func TestAppendQuotedRoundTrip(t *testing.T) {
	var b strings.Builder
	for c := range 0x80 {
		b.WriteByte(byte(c))
	}
	for r := rune(0x80); r <= 0x9F; r++ {
		b.WriteRune(r)
	}
	b.WriteString("é€😀\u2028\ufeff\U0010FFFF")
	full := b.String()
	inputs := []string{full}
	for _, r := range full {
		inputs = append(inputs, string(r), "x"+string(r)+"y")
	}
	for _, s := range inputs {
		out := encoder.AppendQuoted(nil, s)
		if err := lexer.CheckUTF8(out); err != nil {
			t.Fatalf("AppendQuoted(%q) = %q: %v", s, out, err)
		}
		if i := strings.IndexAny(string(out), "\n\r"); i >= 0 {
			t.Fatalf("AppendQuoted(%q) = %q contains a line terminator", s, out)
		}
		var scratch []byte
		got, end, err := lexer.ScanQuoted(out, 0, &scratch)
		if err != nil || string(got) != s || end != len(out) {
			t.Fatalf("ScanQuoted(AppendQuoted(%q) = %q) = %q, %d, %v", s, out, got, end, err)
		}
	}
}

func TestAppendKey(t *testing.T) {
	tests := []struct {
		k, want string
	}{
		{"a", "a"},
		{"_x", "_x"},
		{"a1", "a1"},
		{"A_Z9", "A_Z9"},
		{"_", "_"},
		{"true", "true"},
		{"1a", `"1a"`},
		{"a-b", `"a-b"`},
		{"", `""`},
		{"a b", `"a b"`},
		{"a.b", `"a.b"`},
		{"a=b", `"a=b"`},
		{"a,b", `"a,b"`},
		{"a|b", `"a|b"`},
		{"{a}", `"{a}"`},
		{"[0]", `"[0]"`},
		{"café", `"café"`},
		{"a\"b", `"a\"b"`},
		{"a\nb", `"a\nb"`},
		{"content-type", `"content-type"`},
	}
	for _, tc := range tests {
		out := encoder.AppendKey([]byte("## "), tc.k)
		if string(out) != "## "+tc.want {
			t.Errorf("AppendKey(%q) = %q, want %q", tc.k, out[3:], tc.want)
			continue
		}
		var scratch []byte
		got, end, err := lexer.ScanKey(out, 3, &scratch)
		if err != nil || string(got) != tc.k || end != len(out) {
			t.Errorf("ScanKey(AppendKey(%q) = %q) = %q, %d, %v", tc.k, out[3:], got, end, err)
		}
	}
}

func TestAppendFieldDecl(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"a"}, "{a}"},
		{[]string{"id", "name"}, "{id,name}"},
		{[]string{"id", "display name", "a,b", "score"}, `{id,"display name","a,b",score}`},
		{[]string{"customer>name", "}", "", `q"`}, `{"customer>name","}","","q\""}`},
	}
	for _, tc := range tests {
		out := encoder.AppendFieldDecl([]byte("[2]"), tc.names)
		if string(out) != "[2]"+tc.want {
			t.Errorf("AppendFieldDecl(%q) = %q, want %q", tc.names, out[3:], tc.want)
			continue
		}
		var scratch []byte
		end, got, err := lexer.ScanFieldDecl(out, 3, &scratch, [][]byte{})
		if err != nil || end != len(out) || len(got) != len(tc.names) {
			t.Errorf("ScanFieldDecl(%q) = %d, %q, %v", out, end, got, err)
			continue
		}
		for i := range got {
			if string(got[i]) != tc.names[i] {
				t.Errorf("ScanFieldDecl(%q) name %d = %q, want %q", out, i, got[i], tc.names[i])
			}
		}
	}
}

func TestAppendCount(t *testing.T) {
	tests := []struct {
		n     int
		keyed bool
		want  string
	}{
		{0, false, "[0]"},
		{1, false, "[1]"},
		{12, false, "[12]"},
		{10000, false, "[10000]"},
		{-1, false, "[?]"},
		{3, true, "[3:]"},
		{0, true, "[0:]"},
		{-1, true, "[?:]"},
	}
	for _, tc := range tests {
		out := encoder.AppendCount([]byte("rows "), tc.n, tc.keyed)
		if string(out) != "rows "+tc.want {
			t.Errorf("AppendCount(%d, %v) = %q, want %q", tc.n, tc.keyed, out[5:], tc.want)
			continue
		}
		count, keyed, end, err := lexer.ScanCount(out, 5, 1<<24)
		wantCount := int64(tc.n)
		if tc.n < 0 {
			wantCount = lexer.Deferred
		}
		if err != nil || count != wantCount || keyed != tc.keyed || end != len(out) {
			t.Errorf("ScanCount(%q) = %d, %v, %d, %v", out, count, keyed, end, err)
		}
	}
}

func TestAppendIndent(t *testing.T) {
	tests := []struct {
		level int
		want  string
	}{
		{-1, ""},
		{0, ""},
		{1, "  "},
		{2, "    "},
		{3, "      "},
	}
	for _, tc := range tests {
		if got := string(encoder.AppendIndent([]byte("x"), tc.level)); got != "x"+tc.want {
			t.Errorf("AppendIndent(%d) = %q, want %q", tc.level, got, "x"+tc.want)
		}
	}
}

// roundTrip writes s with AppendString in ctx and reads it back with the
// lexer, alone, between two neighbours, and (for delimited contexts) next
// to next, a second generated value in the same row. It returns a
// description of the first failure, or "".
func roundTrip(s, next string, ctx encoder.Context, delim byte) string {
	out := encoder.AppendString(nil, s, ctx)
	if err := lexer.CheckUTF8(out); err != nil {
		return fmt.Sprintf("wrote %q: not valid UTF-8: %v", out, err)
	}
	if strings.ContainsAny(string(out), "\n\r") {
		return fmt.Sprintf("wrote %q: contains a line terminator", out)
	}
	var scratch []byte
	sc, end, err := lexer.ScanScalar(out, 0, delim, &scratch)
	if err != nil {
		return fmt.Sprintf("wrote %q: ScanScalar: %v", out, err)
	}
	if sc.Kind != lexer.KindString || string(sc.Bytes) != s || end != len(out) {
		return fmt.Sprintf("wrote %q: read back %v %q end %d (len %d)", out, sc.Kind, sc.Bytes, end, len(out))
	}
	if delim == 0 {
		return ""
	}
	// Between neighbours, as the middle cell or element of a row.
	row := append([]byte{'x', delim}, out...)
	row = append(row, delim, 'y')
	sc, end, err = lexer.ScanScalar(row, 2, delim, &scratch)
	if err != nil {
		return fmt.Sprintf("row %q: ScanScalar: %v", row, err)
	}
	if sc.Kind != lexer.KindString || string(sc.Bytes) != s || end != len(row)-2 {
		return fmt.Sprintf("row %q: read back %v %q end %d", row, sc.Kind, sc.Bytes, end)
	}
	// Followed by another generated value in the same row.
	row = append(out, delim)
	row = encoder.AppendString(row, next, ctx)
	sc, end, err = lexer.ScanScalar(row, 0, delim, &scratch)
	if err != nil {
		return fmt.Sprintf("row %q (values %q, %q): ScanScalar: %v", row, s, next, err)
	}
	if sc.Kind != lexer.KindString || string(sc.Bytes) != s || end != len(out) {
		return fmt.Sprintf("row %q (values %q, %q): first value read back %v %q end %d", row, s, next, sc.Kind, sc.Bytes, end)
	}
	sc, end, err = lexer.ScanScalar(row, len(out)+1, delim, &scratch)
	if err != nil {
		return fmt.Sprintf("row %q (values %q, %q): second value: %v", row, s, next, err)
	}
	if sc.Kind != lexer.KindString || string(sc.Bytes) != next || end != len(row) {
		return fmt.Sprintf("row %q (values %q, %q): second value read back %v %q end %d", row, s, next, sc.Kind, sc.Bytes, end)
	}
	return ""
}

// Rune pools for the generator: each draw picks a pool, then a rune.
var runePools = [][]rune{
	[]rune("abcxyzABCXYZ_etruafls"),     // letters (incl. true/false/e)
	[]rune("0123456789"),                // ASCII digits
	[]rune("|,=:;[]{}^~-+.#@!?/<>*&%$"), // delimiters and structure
	[]rune(`"\`),                        // quote and backslash
	{0x00, 0x01, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f}, // C0 controls and DEL
	{0x80, 0x85, 0x9f}, // C1 controls
	[]rune("éß中文😀٥１\u0301\U0010FFFF\uFFFD\uE000"),                                          // multi-byte
	{' ', ' ', '\t', 0xa0, 0x2028, 0x2029, 0xfeff, 0x3000, 0x2003, 0x1680, 0x180e, 0x200b}, // whitespace
}

// Fragments that make the generator reach the quoting obligation's edges.
var fragments = []string{
	"-", "~", "^", "^{", "^{a}", "}", "true", "false", "0", "01", "-0", "1e5",
	"+1", ".5", "-.5", "+.5", "1.", "[0]:", "]:", "[", " ", "\t", "#", "@", ".",
}

func genString(r *rand.Rand) string {
	var b strings.Builder
	n := r.IntN(9)
	for range n {
		if r.IntN(6) == 0 {
			b.WriteString(fragments[r.IntN(len(fragments))])
			continue
		}
		p := runePools[r.IntN(len(runePools))]
		b.WriteRune(p[r.IntN(len(p))])
	}
	return b.String()
}

// TestAppendStringRoundTrip is the lossless round-trip property of SPEC
// §1.1 restricted to strings: for every string, in every context, the token
// AppendString writes is read back by lexer.ScanScalar as KindString with
// exactly the same text. Bare tokens lose surrounding spaces and tabs on
// read (SPEC §2.1 rule 7), which the writer must prevent by quoting (§2.4),
// so no exception is made for them.
func TestAppendStringRoundTrip(t *testing.T) {
	edge := []string{"^{a", "^{", "^{}", "^{a b}", "^{a,}", "^{a}x", "^{a}}", "b}", "^{a,b}"}
	for _, tc := range quoteCases {
		edge = append(edge, tc.s)
	}
	r := rand.New(rand.NewPCG(0x6366, 0x353))
	const generated = 50000
	type failure struct{ ctx, s, next, msg string }
	var fails []failure
	check := func(s, next string) {
		for _, c := range contexts {
			if msg := roundTrip(s, next, c.ctx, c.delim); msg != "" {
				fails = append(fails, failure{c.name, s, next, msg})
			}
		}
	}
	for i, s := range edge {
		for _, next := range []string{"y", edge[(i+1)%len(edge)], "b}", "b,c}"} {
			check(s, next)
		}
	}
	for range generated {
		check(genString(r), genString(r))
	}
	for i, f := range fails {
		if i == 40 {
			t.Errorf("... and %d more failures", len(fails)-i)
			break
		}
		t.Errorf("%s: value %q (next %q): %s", f.ctx, f.s, f.next, f.msg)
	}
}

// TestNeedsQuoteContextsAgree: the contexts differ only by their delimiter,
// so for a string without '|' or ',' all three must agree.
func TestNeedsQuoteContextsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		s := genString(r)
		if strings.ContainsAny(s, "|,") {
			continue
		}
		v := encoder.NeedsQuote(s, encoder.Value)
		if c, e := encoder.NeedsQuote(s, encoder.Cell), encoder.NeedsQuote(s, encoder.Element); c != v || e != v {
			t.Errorf("NeedsQuote(%q): Value %v, Cell %v, Element %v", s, v, c, e)
		}
	}
}

var benchStrings = []struct{ name, s string }{
	{"bare", "production-us-east-1"},
	{"bare-unicode", "café naïve 中文 smile 😀"},
	{"numeric-like", "-12abc"},
	{"number", "-12345.678e-9"},
	{"escapes", "line one\nline \"two\"\tend\\"},
	{"inline-array", "ERR[404]: Not Found"},
	{"long-bare", strings.Repeat("lorem ipsum dolor sit amet ", 8) + "x"},
}

func BenchmarkNeedsQuote(b *testing.B) {
	for _, bs := range benchStrings {
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bs.s)))
			for b.Loop() {
				encoder.NeedsQuote(bs.s, encoder.Cell)
			}
		})
	}
}

func BenchmarkAppendString(b *testing.B) {
	for _, bs := range benchStrings {
		b.Run(bs.name, func(b *testing.B) {
			dst := make([]byte, 0, 4*len(bs.s)+2)
			b.ReportAllocs()
			b.SetBytes(int64(len(bs.s)))
			for b.Loop() {
				dst = encoder.AppendString(dst[:0], bs.s, encoder.Cell)
			}
		})
	}
}

func BenchmarkAppendFloat(b *testing.B) {
	for _, v := range []float64{3.14, 1e-7, 6.022e23} {
		b.Run(fmt.Sprint(v), func(b *testing.B) {
			dst := make([]byte, 0, 32)
			b.ReportAllocs()
			for b.Loop() {
				dst, _ = encoder.AppendFloat(dst[:0], v)
			}
		})
	}
}

func TestFormatZeroAllocs(t *testing.T) {
	dst := make([]byte, 0, 256)
	for _, bs := range benchStrings {
		allocs := testing.AllocsPerRun(100, func() {
			dst = encoder.AppendString(dst[:0], bs.s, encoder.Cell)
			dst = encoder.AppendKey(dst, bs.s)
		})
		if allocs != 0 {
			t.Errorf("AppendString/AppendKey(%q): %v allocs per run, want 0", bs.s, allocs)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		dst, _ = encoder.AppendFloat(dst[:0], 6.022e23)
		dst = encoder.AppendInt(dst, math.MinInt64)
		dst = encoder.AppendCount(dst, 12, true)
		dst = encoder.AppendFieldDecl(dst, []string{"id", "display name"})
	})
	if allocs != 0 {
		t.Errorf("number/count/decl formatting: %v allocs per run, want 0", allocs)
	}
}

// TestAppendPlainCell checks the one-loop fast path against NeedsQuote: it
// takes a string only when Cell needs no quoting, writes it as it is, and
// leaves dst alone when it declines; short plain strings are taken.
func TestAppendPlainCell(t *testing.T) {
	check := func(s string) {
		t.Helper()
		dst := []byte("x|")
		out, ok := encoder.AppendPlainCell(dst, s)
		switch {
		case ok && encoder.NeedsQuote(s, encoder.Cell):
			t.Errorf("AppendPlainCell(%q) took a string Cell quotes", s)
		case ok && string(out) != "x|"+s:
			t.Errorf("AppendPlainCell(%q) = %q, want %q", s, out, "x|"+s)
		case !ok && string(out) != "x|":
			t.Errorf("AppendPlainCell(%q) declined but wrote %q", s, out)
		}
	}
	for _, tc := range quoteCases {
		check(tc.s)
	}
	r := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		check(genString(r))
	}
	// Every byte at every position of strings of 1 to 32 bytes: the word
	// check must see each byte, whatever its lane.
	for n := 1; n <= 32; n++ {
		base := []byte(strings.Repeat("ab", 16)[:n])
		for i := 0; i < n; i++ {
			for c := 0; c < 256; c++ {
				b := append([]byte(nil), base...)
				b[i] = byte(c)
				check(string(b))
			}
		}
	}
	for _, s := range []string{"Alice Smith", "Engineering", "a=b", "x", "pending", "SKU-00042", "a~b^c", strings.Repeat("y", 32)} {
		if _, ok := encoder.AppendPlainCell(nil, s); !ok {
			t.Errorf("AppendPlainCell(%q) declined a short plain string", s)
		}
	}
	for _, s := range []string{"", "true", "12", " a", "a ", "a|b", "a,b", "[0]: y", "café", strings.Repeat("y", 33)} {
		if _, ok := encoder.AppendPlainCell(nil, s); ok {
			t.Errorf("AppendPlainCell(%q) took it", s)
		}
	}
}
