package lexer

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// wantErr checks that err carries category cat and, when col > 0, that it
// points at the 1-based byte column col. It guards against the typed-nil
// trap: a nil *SyntaxError must never be converted to error for inspection.
func wantErr(t *testing.T, err *SyntaxError, cat Category, col int) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", cat)
	}
	if got := CategoryOf(err); got != cat {
		t.Fatalf("category = %q, want %q (err: %v)", got, cat, err)
	}
	if err.Category != cat {
		t.Fatalf("Category field = %q, want %q", err.Category, cat)
	}
	if !errors.Is(err, cat) {
		t.Fatalf("errors.Is(err, %q) = false", cat)
	}
	if col > 0 && err.Column != col {
		t.Fatalf("column = %d, want %d (err: %v)", err.Column, col, err)
	}
}

// scalarCase is one ScanScalar expectation. end < 0 means len(line); col 0
// means "start of the token as computed from pos and leading blanks" is not
// checked. A non-empty err switches the case to an error expectation.
type scalarCase struct {
	name   string
	line   string
	pos    int
	delim  byte
	kind   Kind
	text   string // Bytes: decoded string, number lexeme or declaration
	i      int64  // Int of a KindInt
	b      bool   // Bool of a KindBool
	quoted bool
	end    int // -1: len(line)
	col    int // 0: not checked
	err    Category
	errCol int // 0: not checked
}

func str(name, line, text string) scalarCase {
	return scalarCase{name: name, line: line, kind: KindString, text: text, end: -1, col: 1}
}

func qstr(name, line, text string) scalarCase {
	return scalarCase{name: name, line: line, kind: KindString, text: text, quoted: true, end: -1, col: 1}
}

func integer(name, line string, v int64) scalarCase {
	return scalarCase{name: name, line: line, kind: KindInt, text: line, i: v, end: -1, col: 1}
}

func float(name, line string) scalarCase {
	return scalarCase{name: name, line: line, kind: KindFloat, text: line, end: -1, col: 1}
}

func bad(name, line string, cat Category, col int) scalarCase {
	return scalarCase{name: name, line: line, err: cat, errCol: col}
}

func badIn(name, line string, delim byte, cat Category, col int) scalarCase {
	return scalarCase{name: name, line: line, delim: delim, err: cat, errCol: col}
}

func runScalarCases(t *testing.T, cases []scalarCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var scratch []byte
			s, end, err := ScanScalar([]byte(tc.line), tc.pos, tc.delim, &scratch)
			if tc.err != "" {
				wantErr(t, err, tc.err, tc.errCol)
				return
			}
			if err != nil {
				t.Fatalf("ScanScalar(%q, %d, %q): unexpected error %v", tc.line, tc.pos, tc.delim, err)
			}
			if s.Kind != tc.kind {
				t.Fatalf("kind = %v, want %v (bytes %q)", s.Kind, tc.kind, s.Bytes)
			}
			if string(s.Bytes) != tc.text {
				t.Errorf("bytes = %q, want %q", s.Bytes, tc.text)
			}
			if s.Quoted != tc.quoted {
				t.Errorf("quoted = %v, want %v", s.Quoted, tc.quoted)
			}
			if tc.kind == KindInt && s.Int != tc.i {
				t.Errorf("int = %d, want %d", s.Int, tc.i)
			}
			if tc.kind == KindBool && s.Bool != tc.b {
				t.Errorf("bool = %v, want %v", s.Bool, tc.b)
			}
			wantEnd := tc.end
			if wantEnd < 0 {
				wantEnd = len(tc.line)
			}
			if end != wantEnd {
				t.Errorf("end = %d, want %d", end, wantEnd)
			}
			if tc.col > 0 && s.Col != tc.col {
				t.Errorf("col = %d, want %d", s.Col, tc.col)
			}
		})
	}
}

// TestScanScalarPrecedence walks the seven rules of SPEC §2.1 in order,
// including the cases where an earlier rule must win over a later one.
func TestScanScalarPrecedence(t *testing.T) {
	runScalarCases(t, []scalarCase{
		// Rule 1: a quoted string is always a string, whatever it spells.
		qstr("quoted null", `"-"`, "-"),
		qstr("quoted missing", `"~"`, "~"),
		qstr("quoted attach", `"^"`, "^"),
		qstr("quoted schema", `"^{a}"`, "^{a}"),
		qstr("quoted true", `"true"`, "true"),
		qstr("quoted false", `"false"`, "false"),
		qstr("quoted int", `"123"`, "123"),
		qstr("quoted float", `"1e10"`, "1e10"),
		qstr("quoted empty", `""`, ""),

		// Rule 2: exactly "-" is null.
		{name: "null", line: "-", kind: KindNull, text: "-", end: -1, col: 1},
		str("double dash", "--", "--"),
		str("dash word", "-x", "-x"),

		// Rule 3: exactly "~" is missing (context is the caller's concern).
		{name: "missing", line: "~", kind: KindMissing, text: "~", end: -1, col: 1},
		str("tilde word", "~x", "~x"),
		str("double tilde", "~~", "~~"),

		// Rule 4: "^" and "^{fields}" are attachment markers.
		{name: "attach", line: "^", kind: KindAttach, text: "^", end: -1, col: 1},
		{name: "schema", line: "^{a}", kind: KindAttachSchema, text: "{a}", end: -1, col: 1},
		{name: "schema two", line: "^{id,name}", kind: KindAttachSchema, text: "{id,name}", end: -1, col: 1},
		{name: "schema quoted names", line: `^{id,"display name","a,b"}`, kind: KindAttachSchema, text: `{id,"display name","a,b"}`, end: -1, col: 1},
		{name: "schema pipe in quoted name", line: `^{a,"b|c"}`, delim: '|', kind: KindAttachSchema, text: `{a,"b|c"}`, end: -1, col: 1},
		{name: "schema pipe in quoted name then cell", line: `^{a,"b|c"}|x`, delim: '|', kind: KindAttachSchema, text: `{a,"b|c"}`, end: 10, col: 1},
		{name: "schema trailing blanks then cell", line: "^{a} \t|x", delim: '|', kind: KindAttachSchema, text: "{a}", end: 6, col: 1},
		{name: "schema leading blanks", line: "  ^{a}", kind: KindAttachSchema, text: "{a}", end: -1, col: 3},
		str("caret word", "^x", "^x"),
		str("double caret", "^^", "^^"),
		badIn("schema empty decl", "^{}", '|', InvalidAttachmentMarker, 1),
		badIn("schema space in name", "^{a b}", '|', InvalidAttachmentMarker, 1),
		badIn("schema trailing comma", "^{a,}", '|', InvalidAttachmentMarker, 1),
		badIn("schema bad name", "^{1a}", '|', InvalidAttachmentMarker, 1),
		badIn("schema blank-led bad decl", "  ^{}|x", '|', InvalidAttachmentMarker, 3),

		// Rule 5: exactly "true" / "false".
		{name: "true", line: "true", kind: KindBool, b: true, text: "true", end: -1, col: 1},
		{name: "false", line: "false", kind: KindBool, b: false, text: "false", end: -1, col: 1},
		str("True", "True", "True"),
		str("TRUE", "TRUE", "TRUE"),
		str("FALSE", "FALSE", "FALSE"),
		str("truex", "truex", "truex"),
		str("tru", "tru", "tru"),
		str("falsey", "falsey", "falsey"),
		str("null word", "null", "null"),

		// Rule 6: the JSON number grammar, in its entirety.
		integer("zero", "0", 0),
		integer("negative zero", "-0", 0),
		integer("twelve", "12", 12),
		integer("negative", "-12", -12),
		integer("one digit", "7", 7),
		float("neg frac", "-12.5"),
		float("exp", "1e10"),
		float("EXP plus", "6.022E+23"),
		float("frac exp minus", "1.0e-7"),
		float("half", "0.5"),
		float("neg zero frac", "-0.0"),
		float("zero exp", "0e0"),
		float("exp plus", "1e+5"),
		bad("big exp overflows binary64", "1e400", OutOfRange, 1),
		float("tiny exp underflows to zero", "1e-400"),

		// Rule 7: everything else is a bare string.
		str("leading zero", "01", "01"),
		str("leading zeros frac", "00.5", "00.5"),
		str("double zero", "00", "00"),
		str("plus one", "+1", "+1"),
		str("trailing point", "1.", "1."),
		str("leading point", ".5", ".5"),
		str("neg leading point", "-.5", "-.5"),
		str("plus leading point", "+.5", "+.5"),
		str("point exp", "1.e5", "1.e5"),
		str("bare e", "1e", "1e"),
		str("e sign only", "1e+", "1e+"),
		str("double sign exp", "1e+-5", "1e+-5"),
		str("NaN", "NaN", "NaN"),
		str("Infinity", "Infinity", "Infinity"),
		str("neg Infinity", "-Infinity", "-Infinity"),
		str("hex", "0x10", "0x10"),
		str("underscore digits", "1_000", "1_000"),
		str("digits then letters", "123abc", "123abc"),
		str("double dash digit", "--1", "--1"),
		str("word", "hello", "hello"),
		str("interior spaces", "hello world", "hello world"),
		str("equals", "a=b", "a=b"),
		str("colon", "key: value", "key: value"),
		str("unicode", "café 😀", "café 😀"),
		str("empty bare", "", ""),

		// SPEC §2.3: DIGIT is ASCII only.
		str("arabic-indic frac", "1.٥", "1.٥"),
		str("arabic-indic only", "٥", "٥"),
		str("arabic-indic after digit", "1٥", "1٥"),
		str("neg arabic-indic", "-٥", "-٥"),
		str("fullwidth digits", "１２", "１２"),
		str("arabic-indic exponent", "1e٥", "1e٥"),
		str("plus arabic-indic", "+٥", "+٥"),
		str("zero arabic-indic", "0٥", "0٥"),
	})
}

// TestScanScalarInt64Bounds pins SPEC §2.3.2: the closed interval
// [-2^63, 2^63-1] decodes exactly, one beyond either bound is out_of_range.
func TestScanScalarInt64Bounds(t *testing.T) {
	runScalarCases(t, []scalarCase{
		integer("max", "9223372036854775807", math.MaxInt64),
		integer("min", "-9223372036854775808", math.MinInt64),
		integer("max-1", "9223372036854775806", math.MaxInt64-1),
		integer("min+1", "-9223372036854775807", math.MinInt64+1),
		integer("2^53", "9007199254740992", 1<<53),
		integer("2^53+1", "9007199254740993", 1<<53+1),
		integer("-2^53-1", "-9007199254740993", -(1<<53 + 1)),
		bad("max+1", "9223372036854775808", OutOfRange, 1),
		bad("min-1", "-9223372036854775809", OutOfRange, 1),
		bad("2^64-1", "18446744073709551615", OutOfRange, 1),
		bad("2^64", "18446744073709551616", OutOfRange, 1),
		bad("-2^64", "-18446744073709551616", OutOfRange, 1),
		bad("huge", "123456789012345678901234567890", OutOfRange, 1),
		bad("huge negative", "-123456789012345678901234567890", OutOfRange, 1),
		bad("max+1 after blanks", "  9223372036854775808", OutOfRange, 3),
		// A fraction or exponent makes it a double: no int64 check.
		float("max+1 as frac", "9223372036854775808.0"),
		float("exp beyond int64", "1e19"),
		// Leading-zero spellings are strings, not numbers, so never out of range.
		str("leading zero huge", "09223372036854775808", "09223372036854775808"),
	})

	// The out-of-range error in a row points at the offending token.
	line := []byte("x|9223372036854775808|y")
	var scratch []byte
	_, _, err := ScanScalar(line, 2, '|', &scratch)
	wantErr(t, err, OutOfRange, 3)
	if !strings.Contains(err.Msg, "9223372036854775808") {
		t.Errorf("out_of_range message %q does not name the value (SPEC §2.3.2 SHOULD)", err.Msg)
	}
}

// TestScanScalarTrim checks that ASCII space and tab around bare tokens are
// structural (SPEC §2.1 rule 7, §4.2) and never part of a quoted string.
func TestScanScalarTrim(t *testing.T) {
	runScalarCases(t, []scalarCase{
		{name: "spaces around word", line: "  abc  ", kind: KindString, text: "abc", end: -1, col: 3},
		{name: "tabs and spaces", line: "\t x y \t", kind: KindString, text: "x y", end: -1, col: 3},
		{name: "only blanks", line: " \t ", kind: KindString, text: "", end: -1},
		{name: "null padded", line: " - ", kind: KindNull, text: "-", end: -1, col: 2},
		{name: "missing padded", line: "\t~\t", kind: KindMissing, text: "~", end: -1, col: 2},
		{name: "attach padded", line: " ^ ", kind: KindAttach, text: "^", end: -1, col: 2},
		{name: "bool padded", line: "\ttrue\t", kind: KindBool, b: true, text: "true", end: -1, col: 2},
		{name: "int padded", line: " 42 ", kind: KindInt, i: 42, text: "42", end: -1, col: 2},
		{name: "float padded", line: " 4.5\t", kind: KindFloat, text: "4.5", end: -1, col: 2},
		{name: "cell padded", line: " a b |c", delim: '|', kind: KindString, text: "a b", end: 5, col: 2},
		{name: "element padded", line: " 1 ,2", delim: ',', kind: KindInt, i: 1, text: "1", end: 3, col: 2},
		{name: "quoted keeps inner blanks", line: `  " padded\t"  `, kind: KindString, quoted: true, text: " padded\t", end: -1, col: 3},
		{name: "quoted padded cell", line: `  "a b"  |c`, delim: '|', kind: KindString, quoted: true, text: "a b", end: 9, col: 3},
		// Only space and tab are structural: NBSP is data.
		{name: "nbsp is data", line: "\u00a0x\u00a0", kind: KindString, text: "\u00a0x\u00a0", end: -1, col: 1},
	})
}

// TestScanScalarQuoted covers SPEC §2.2: every escape, surrogate pairs, and
// the error categories of SPEC §16.5.
func TestScanScalarQuoted(t *testing.T) {
	runScalarCases(t, []scalarCase{
		qstr("plain", `"abc"`, "abc"),
		qstr("all short escapes", `"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"),
		qstr("escaped quote", `"a\"b"`, `a"b`),
		qstr("escaped backslash", `"a\\b"`, `a\b`),
		qstr("escaped solidus", `"a\/b"`, "a/b"),
		qstr("unescaped solidus", `"a/b"`, "a/b"),
		qstr("u ascii", `"\u0041"`, "A"),
		qstr("u nul", `"\u0000"`, "\x00"),
		qstr("u unit sep", `"\u001f"`, "\x1f"),
		qstr("u latin lower hex", `"\u00e9"`, "é"),
		qstr("u latin upper hex", `"\u00E9"`, "é"),
		qstr("u euro", `"\u20AC"`, "€"),
		qstr("u last BMP before surrogates", `"\uD7FF"`, "\uD7FF"),
		qstr("u first after surrogates", `"\uE000"`, "\uE000"),
		qstr("u FFFF", `"\uFFFF"`, "\uFFFF"),
		qstr("u C1", `"\u0085"`, "\u0085"),
		qstr("surrogate pair emoji", `"\uD83D\uDE00"`, "😀"),
		qstr("surrogate pair lower hex", `"\ud83d\ude00"`, "😀"),
		qstr("surrogate pair in text", `"a\uD834\uDD1Eb"`, "a𝄞b"),
		qstr("lowest pair", `"\uD800\uDC00"`, "\U00010000"),
		qstr("highest pair", `"\uDBFF\uDFFF"`, "\U0010FFFF"),
		qstr("literal utf8", `"café 😀 中文"`, "café 😀 中文"),
		qstr("literal C1 and NBSP", "\"\u0085\u00a0\u2028\"", "\u0085\u00a0\u2028"),
		qstr("mixed literal and escapes", `"x\ty\u00e9z"`, "x\tyéz"),
		qstr("escape at start and end", `"\nmid\n"`, "\nmid\n"),
		qstr("brackets", `"ERR[404]: x"`, "ERR[404]: x"),

		// Isolated or malformed surrogates.
		bad("isolated high", `"\uD800"`, InvalidSurrogate, 2),
		bad("isolated high then text", `"\uD800x"`, InvalidSurrogate, 2),
		bad("isolated high then short escape", `"\uD800\n"`, InvalidSurrogate, 2),
		bad("isolated low", `"\uDC00"`, InvalidSurrogate, 2),
		bad("isolated low max", `"\uDFFF"`, InvalidSurrogate, 2),
		bad("high then non-surrogate", `"\uD800\u0041"`, InvalidSurrogate, 2),
		bad("high then high", `"\uD800\uD800"`, InvalidSurrogate, 2),
		bad("reversed pair", `"\uDE00\uD83D"`, InvalidSurrogate, 2),
		bad("isolated high after text", `"ab\uDBFF"`, InvalidSurrogate, 4),
		bad("high then bad hex", `"\uD800\uZZZZ"`, InvalidEscape, 0),

		// Escapes outside the defined set.
		bad("x escape", `"\x41"`, InvalidEscape, 2),
		bad("a escape", `"\a"`, InvalidEscape, 2),
		bad("single quote escape", `"\'"`, InvalidEscape, 2),
		bad("pipe escape", `"a\|b"`, InvalidEscape, 3),
		bad("comma escape", `"a\,b"`, InvalidEscape, 3),
		bad("upper U escape", `"\U0041"`, InvalidEscape, 2),
		bad("zero escape", `"\0"`, InvalidEscape, 2),
		bad("space escape", `"\ "`, InvalidEscape, 2),
		bad("u short", `"\u12"`, InvalidEscape, 2),
		bad("u non-hex", `"\u12G4"`, InvalidEscape, 2),
		bad("u bare", `"\u"`, InvalidEscape, 2),
		bad("u plus sign", `"\u+123"`, InvalidEscape, 2),

		// Unterminated.
		bad("no closing quote", `"abc`, UnterminatedQuote, 1),
		bad("lone quote", `"`, UnterminatedQuote, 1),
		bad("escaped closing quote", `"abc\"`, UnterminatedQuote, 1),
		bad("trailing backslash", `"abc\`, UnterminatedQuote, 1),
		bad("escape then unterminated", `"a\nb`, UnterminatedQuote, 1),
		bad("unterminated after blanks", `  "abc`, UnterminatedQuote, 3),
		badIn("quote protects delimiter to the end", `"a|b`, '|', UnterminatedQuote, 1),

		// Text after the closing quote.
		bad("letter after quote", `"a"b`, TrailingCharacters, 4),
		bad("blank then letter", `"a" b`, TrailingCharacters, 5),
		bad("second quoted string", `"a""b"`, TrailingCharacters, 4),
		bad("pipe with no delimiter", `"a"|b`, TrailingCharacters, 4),
		badIn("comma in cell context", `"a",b`, '|', TrailingCharacters, 4),
		badIn("pipe in element context", `"a"|b`, ',', TrailingCharacters, 4),

		// Raw control characters are outside `unescaped` (SPEC §2.2).
		bad("raw SOH", "\"a\x01b\"", InvalidEscape, 3),
		bad("raw newline", "\"a\nb\"", InvalidEscape, 3),
		bad("raw control after escape", "\"\\n\x01\"", InvalidEscape, 4),
	})
}

// TestScanScalarDelimiters checks splitting on the context delimiter, and
// that delimiters inside quoted strings are data (SPEC §4.2).
func TestScanScalarDelimiters(t *testing.T) {
	runScalarCases(t, []scalarCase{
		{name: "cell ends at pipe", line: "a|b", delim: '|', kind: KindString, text: "a", end: 1, col: 1},
		{name: "empty cell", line: "|b", delim: '|', kind: KindString, text: "", end: 0, col: 1},
		{name: "last empty cell", line: "a|", pos: 2, delim: '|', kind: KindString, text: "", end: 2, col: 3},
		{name: "second cell", line: `a|"b"|c`, pos: 2, delim: '|', kind: KindString, quoted: true, text: "b", end: 5, col: 3},
		{name: "pipe in quoted cell", line: `"a|b"|c`, delim: '|', kind: KindString, quoted: true, text: "a|b", end: 5, col: 1},
		{name: "comma in quoted element", line: `"a,b",c`, delim: ',', kind: KindString, quoted: true, text: "a,b", end: 5, col: 1},
		{name: "escaped quote and pipe", line: `"x\"|y"|z`, delim: '|', kind: KindString, quoted: true, text: `x"|y`, end: 7, col: 1},
		{name: "comma is data in cell", line: "a,b|c", delim: '|', kind: KindString, text: "a,b", end: 3, col: 1},
		{name: "pipe is data in element", line: "a|b,c", delim: ',', kind: KindString, text: "a|b", end: 3, col: 1},
		{name: "no delimiter in value", line: "a|b,c", kind: KindString, text: "a|b,c", end: -1, col: 1},
		{name: "number in element", line: "1,5", delim: ',', kind: KindInt, i: 1, text: "1", end: 1, col: 1},
		{name: "decimal comma in value", line: "1,5", kind: KindString, text: "1,5", end: -1, col: 1},
		{name: "null cell", line: "-|x", delim: '|', kind: KindNull, text: "-", end: 1, col: 1},
		{name: "missing cell", line: "~|x", delim: '|', kind: KindMissing, text: "~", end: 1, col: 1},
		{name: "attach cell", line: "^|x", delim: '|', kind: KindAttach, text: "^", end: 1, col: 1},
		{name: "bool element", line: "false,x", delim: ',', kind: KindBool, text: "false", end: 5, col: 1},
		{name: "multibyte cell", line: "é😀|x", delim: '|', kind: KindString, text: "é😀", end: 6, col: 1},
	})
}

// TestScanScalarAttachmentPrefixStrings pins tokens that merely begin with
// `^{` but do not match `^{...}` as a whole token. SPEC §2.1 rule 4 applies
// only when the token matches `^{...}`; otherwise rule 7 makes it a bare
// string. SPEC §2.4 likewise lets an encoder leave these bare (they do not
// match `^{fields}`), so the round-trip invariant of §1.1 requires the
// decoder to read them back as strings.
func TestScanScalarAttachmentPrefixStrings(t *testing.T) {
	for _, delim := range []byte{0, '|'} {
		t.Run(fmt.Sprintf("delim %q", delim), func(t *testing.T) {
			runScalarCases(t, []scalarCase{
				{name: "unclosed decl", line: "^{a", delim: delim, kind: KindString, text: "^{a", end: -1, col: 1},
				{name: "brace only", line: "^{", delim: delim, kind: KindString, text: "^{", end: -1, col: 1},
				{name: "text after decl", line: "^{a}x", delim: delim, kind: KindString, text: "^{a}x", end: -1, col: 1},
			})
		})
	}
}

// TestScanScalarSplitsBeforeAttachmentShape pins SPEC §4.2 / §16.4: values
// are split on the context delimiter outside quoted strings first, and only
// then classified. In a primitive array (delim ',') the comma is the
// element separator, so `^{a,b}` is the two bare strings `^{a` and `b}`
// (exactly what an encoder emits for the array ["^{a","b}"], since neither
// element needs quoting under SPEC §2.4), not one attachment marker.
func TestScanScalarSplitsBeforeAttachmentShape(t *testing.T) {
	runScalarCases(t, []scalarCase{
		{name: "element comma splits", line: "^{a,b}", delim: ',', kind: KindString, text: "^{a", end: 3, col: 1},
		{name: "element comma splits then more", line: "^{a,b},c", delim: ',', kind: KindString, text: "^{a", end: 3, col: 1},
		{name: "cell pipe splits", line: "^{a|b}", delim: '|', kind: KindString, text: "^{a", end: 3, col: 1},
	})
	if got := scanRow(t, "^{a,b}", ','); len(got) != 2 || string(got[0].Bytes) != "^{a" || string(got[1].Bytes) != "b}" {
		t.Errorf("element row ^{a,b} = %d tokens, want [\"^{a\" \"b}\"]", len(got))
	}
}

// scanRow splits a whole line into scalars the way a row decoder does.
func scanRow(t *testing.T, line string, delim byte) []Scalar {
	t.Helper()
	var scratch []byte
	b := []byte(line)
	var out []Scalar
	for p := 0; ; {
		s, end, err := ScanScalar(b, p, delim, &scratch)
		if err != nil {
			t.Fatalf("ScanScalar(%q, %d): %v", line, p, err)
		}
		out = append(out, s)
		if end >= len(b) {
			return out
		}
		if b[end] != delim {
			t.Fatalf("end %d is not at a delimiter in %q", end, line)
		}
		p = end + 1
	}
}

func TestScanScalarRow(t *testing.T) {
	type cell struct {
		kind Kind
		text string
	}
	tests := []struct {
		line  string
		delim byte
		want  []cell
	}{
		{`1|Alice|-|true|3.5|"x|y"|~|^|^{a,"b|c"}|`, '|', []cell{
			{KindInt, "1"}, {KindString, "Alice"}, {KindNull, "-"}, {KindBool, "true"},
			{KindFloat, "3.5"}, {KindString, "x|y"}, {KindMissing, "~"}, {KindAttach, "^"},
			{KindAttachSchema, `{a,"b|c"}`}, {KindString, ""},
		}},
		{`production, "us,east" ,01,-0,"\u00e9\n"`, ',', []cell{
			{KindString, "production"}, {KindString, "us,east"}, {KindString, "01"},
			{KindInt, "-0"}, {KindString, "é\n"},
		}},
	}
	for _, tc := range tests {
		got := scanRow(t, tc.line, tc.delim)
		if len(got) != len(tc.want) {
			t.Fatalf("%q: %d cells, want %d", tc.line, len(got), len(tc.want))
		}
		for i, w := range tc.want {
			if got[i].Kind != w.kind || string(got[i].Bytes) != w.text {
				t.Errorf("%q cell %d = %v %q, want %v %q", tc.line, i, got[i].Kind, got[i].Bytes, w.kind, w.text)
			}
		}
	}
}

// TestScanQuotedScratch checks the aliasing contract: escape-free strings
// alias the line and leave scratch untouched; escaped ones go to scratch.
func TestScanQuotedScratch(t *testing.T) {
	line := []byte(`"plain"`)
	scratch := make([]byte, 0, 16)
	s, end, err := ScanQuoted(line, 0, &scratch)
	if err != nil || string(s) != "plain" || end != len(line) {
		t.Fatalf("got %q %d %v", s, end, err)
	}
	if len(scratch) != 0 {
		t.Errorf("scratch grew to %d for an escape-free string", len(scratch))
	}
	if &s[0] != &line[1] {
		t.Errorf("escape-free result does not alias the line")
	}

	line = []byte(`"a\nb" "c\td"`)
	s1, end, err := ScanQuoted(line, 0, &scratch)
	if err != nil || string(s1) != "a\nb" || end != 6 {
		t.Fatalf("first: got %q %d %v", s1, end, err)
	}
	s2, end, err := ScanQuoted(line, 7, &scratch)
	if err != nil || string(s2) != "c\td" || end != len(line) {
		t.Fatalf("second: got %q %d %v", s2, end, err)
	}
	// Appending to scratch must not clobber the earlier result.
	if string(s1) != "a\nb" {
		t.Errorf("first result clobbered: %q", s1)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		tok  string
		kind Kind
		i    int64
		b    bool
	}{
		{"", KindString, 0, false},
		{"-", KindNull, 0, false},
		{"~", KindMissing, 0, false},
		{"^", KindAttach, 0, false},
		{"true", KindBool, 0, true},
		{"false", KindBool, 0, false},
		{"0", KindInt, 0, false},
		{"-0", KindInt, 0, false},
		{"42", KindInt, 42, false},
		{"-9223372036854775808", KindInt, math.MinInt64, false},
		{"9223372036854775807", KindInt, math.MaxInt64, false},
		{"1.5", KindFloat, 0, false},
		{"1e5", KindFloat, 0, false},
		{"-1E-5", KindFloat, 0, false},
		{"01", KindString, 0, false},
		{"+1", KindString, 0, false},
		{".5", KindString, 0, false},
		{"1.", KindString, 0, false},
		{"1.٥", KindString, 0, false},
		{"abc", KindString, 0, false},
		{"t", KindString, 0, false},
		{"a", KindString, 0, false},
		{"fals", KindString, 0, false},
	}
	for _, tc := range tests {
		s, err := Classify([]byte(tc.tok))
		if err != nil {
			t.Errorf("Classify(%q): %v", tc.tok, err)
			continue
		}
		if s.Kind != tc.kind || s.Int != tc.i || s.Bool != tc.b || string(s.Bytes) != tc.tok {
			t.Errorf("Classify(%q) = {%v %d %v %q}, want {%v %d %v %q}", tc.tok, s.Kind, s.Int, s.Bool, s.Bytes, tc.kind, tc.i, tc.b, tc.tok)
		}
	}
	for _, tok := range []string{"9223372036854775808", "-9223372036854775809", "99999999999999999999"} {
		_, err := Classify([]byte(tok))
		wantErr(t, err, OutOfRange, 1)
	}
}

func TestNumberShape(t *testing.T) {
	tests := []struct {
		s     string
		shape int
	}{
		// Valid examples from SPEC §2.3.
		{"0", numInt}, {"-0", numInt}, {"12", numInt}, {"-12.5", numFloat},
		{"1e10", numFloat}, {"6.022E+23", numFloat}, {"1.0e-7", numFloat},
		{"10", numInt}, {"1234567890", numInt}, {"0.0", numFloat}, {"0e0", numFloat},
		{"0E-0", numFloat}, {"-0.5e+10", numFloat}, {"99999999999999999999999", numInt},
		// Invalid examples from SPEC §2.3.
		{"01", numNone}, {"00.5", numNone}, {"1.", numNone}, {".5", numNone},
		{"NaN", numNone}, {"Infinity", numNone}, {"+1", numNone},
		// Further near misses.
		{"", numNone}, {"-", numNone}, {"--1", numNone}, {"-+1", numNone},
		{"1e", numNone}, {"1e+", numNone}, {"1E-", numNone}, {"1.e5", numNone},
		{"1.5.5", numNone}, {"1e5e5", numNone}, {"1e5.5", numNone}, {"0x1", numNone},
		{" 1", numNone}, {"1 ", numNone}, {"1_0", numNone}, {"-.5", numNone},
		{"1.٥", numNone}, {"٥", numNone}, {"1٥", numNone}, {"１", numNone}, {"1e٥", numNone},
		{"-00", numNone}, {"-01", numNone}, {"0.", numNone}, {"e5", numNone},
	}
	for _, tc := range tests {
		if got := NumberShape([]byte(tc.s)); got != tc.shape {
			t.Errorf("NumberShape(%q) = %d, want %d", tc.s, got, tc.shape)
		}
		if got := IsNumber(tc.s); got != (tc.shape != numNone) {
			t.Errorf("IsNumber(%q) = %v, want %v", tc.s, got, tc.shape != numNone)
		}
	}
}

func TestParseInt(t *testing.T) {
	tests := []struct {
		s  string
		v  int64
		ok bool
	}{
		{"0", 0, true},
		{"-0", 0, true},
		{"7", 7, true},
		{"-7", -7, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775806", math.MaxInt64 - 1, true},
		{"-9223372036854775807", -math.MaxInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"9223372036854775810", 0, false},
		{"18446744073709551615", 0, false},
		{"18446744073709551616", 0, false},
		{"-18446744073709551616", 0, false},
		{"184467440737095516150", 0, false},
		{"100000000000000000000", 0, false},
		{"-99999999999999999999999999", 0, false},
	}
	for _, tc := range tests {
		v, ok := ParseInt([]byte(tc.s))
		if ok != tc.ok || (ok && v != tc.v) {
			t.Errorf("ParseInt(%q) = %d, %v; want %d, %v", tc.s, v, ok, tc.v, tc.ok)
		}
	}
}

func TestCheckUTF8(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  Category
		col  int
	}{
		{"empty", "", "", 0},
		{"ascii", "hello|world", "", 0},
		{"two-byte", "café", "", 0},
		{"three-byte", "中文 €", "", 0},
		{"four-byte", "smile 😀", "", 0},
		{"C1 and NBSP", "\u0085\u00a0", "", 0},
		{"last before surrogates", "\xed\x9f\xbf", "", 0},
		{"first after surrogates", "\xee\x80\x80", "", 0},
		{"U+FFFF", "\uFFFF", "", 0},
		{"max scalar", "\U0010FFFF", "", 0},
		{"bad byte FF", "\xff", InvalidUTF8, 1},
		{"bad byte FF after ascii", "ab\xff", InvalidUTF8, 3},
		{"bad byte after multibyte", "é\xff", InvalidUTF8, 3},
		{"bad byte FE", "x\xfe", InvalidUTF8, 2},
		{"lone continuation", "a\x80b", InvalidUTF8, 2},
		{"overlong NUL", "\xc0\x80", InvalidUTF8, 1},
		{"overlong slash", "\xe0\x80\xaf", InvalidUTF8, 1},
		{"truncated three-byte at end", "abc\xe2\x82", InvalidUTF8, 4},
		{"truncated three-byte mid", "\xe2\x82x", InvalidUTF8, 1},
		{"truncated four-byte", "\xf0\x9f\x98", InvalidUTF8, 1},
		{"above U+10FFFF", "\xf4\x90\x80\x80", InvalidUTF8, 1},
		{"five-byte form", "\xf8\x88\x80\x80\x80", InvalidUTF8, 1},
		{"encoded high surrogate", "\xed\xa0\x80", InvalidSurrogate, 1},
		{"encoded low surrogate", "a\xed\xbf\xbf", InvalidSurrogate, 2},
		{"encoded surrogate pair (CESU-8)", "\xed\xa0\xbd\xed\xb8\x80", InvalidSurrogate, 1},
		{"surrogate after valid multibyte", "é\xed\xb0\x80", InvalidSurrogate, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckUTF8([]byte(tc.in))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("CheckUTF8(%q) = %v, want nil", tc.in, err)
				}
				return
			}
			wantErr(t, err, tc.err, tc.col)
		})
	}
}

// TestScanScalarZeroAllocs pins the package contract: no allocation on
// success when scratch has capacity for the line.
func TestScanScalarZeroAllocs(t *testing.T) {
	quoted := []byte(`"a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\uDE00 tail"`)
	scratch := make([]byte, 0, len(quoted))
	allocs := testing.AllocsPerRun(200, func() {
		scratch = scratch[:0]
		s, _, err := ScanScalar(quoted, 0, 0, &scratch)
		if err != nil || s.Kind != KindString {
			panic(fmt.Sprintf("ScanScalar: %v %v", s.Kind, err))
		}
	})
	if allocs != 0 {
		t.Errorf("quoted string with escapes: %v allocs per run, want 0", allocs)
	}

	row := []byte(`1|Alice|-|true|-3.5e2|"x|y\n"|~|^|^{a,"b|c"}| padded |9223372036854775807|`)
	scratch = make([]byte, 0, len(row))
	allocs = testing.AllocsPerRun(200, func() {
		scratch = scratch[:0]
		for p := 0; ; {
			_, end, err := ScanScalar(row, p, '|', &scratch)
			if err != nil {
				panic(err)
			}
			if end >= len(row) {
				break
			}
			p = end + 1
		}
	})
	if allocs != 0 {
		t.Errorf("bare cell row: %v allocs per run, want 0", allocs)
	}

	utf := []byte("café 😀 中文 \u0085 tail")
	allocs = testing.AllocsPerRun(200, func() {
		if CheckUTF8(utf) != nil {
			panic("CheckUTF8")
		}
	})
	if allocs != 0 {
		t.Errorf("CheckUTF8: %v allocs per run, want 0", allocs)
	}
}

func BenchmarkScanScalar(b *testing.B) {
	cases := []struct {
		name  string
		line  string
		delim byte
	}{
		{"bare", "production-us-east-1", 0},
		{"bare-int", "-9223372036854775808", 0},
		{"quoted", `"hello, world | with delimiters"`, 0},
		{"quoted-escapes", `"a\"b\\c\n\t\u00e9\uD83D\uDE00 and some more text"`, 0},
		{"row", `1|Alice|-|true|-3.5e2|"x|y"|~|^|padded text|9223372036854775807`, '|'},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			line := []byte(tc.line)
			scratch := make([]byte, 0, len(line))
			b.ReportAllocs()
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				scratch = scratch[:0]
				for p := 0; ; {
					_, end, err := ScanScalar(line, p, tc.delim, &scratch)
					if err != nil {
						b.Fatal(err)
					}
					if end >= len(line) {
						break
					}
					p = end + 1
				}
			}
		})
	}
}

// TestParseFloatMatchesStrconv: the fast path agrees bit for bit with
// strconv.ParseFloat.
func TestParseFloatMatchesStrconv(t *testing.T) {
	cases := []string{"0", "-0", "0.0", "1", "-1", "3.14", "0.1", "0.000001", "123456789012345", "1234567890123456",
		"0.1234567890123456789", "9007199254740993", "-2.5", "1e10", "6.022E+23", "1.7976931348623157e308", "5e-324",
		"0.30000000000000004", "100.001", "99.99", "0.0000000000000000000001", "0.00000000000000000000001", "123.456e-5"}
	for i := 0; i < 20000; i++ {
		cases = append(cases, strconv.FormatFloat(float64(i)*0.01, 'f', -1, 64), strconv.FormatFloat(float64(i)/7, 'f', -1, 64))
	}
	for _, c := range cases {
		want, err := strconv.ParseFloat(c, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseFloat([]byte(c))
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("ParseFloat(%q) = %v (%v), want %v", c, got, err, want)
		}
	}
}

func TestPlainASCII(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c >= 0x20 && c <= 0x7E
		for pos := 0; pos < 20; pos++ {
			b := []byte(strings.Repeat("a", 20))
			b[pos] = byte(c)
			if got := PlainASCII(b); got != want {
				t.Fatalf("PlainASCII with byte %#x at %d = %v, want %v", c, pos, got, want)
			}
		}
	}
	if !PlainASCII([]byte("@0 fn pkg.Foo 0.90 lsp_resolved ~|^{}")) || PlainASCII([]byte("tab\there")) {
		t.Fatal("PlainASCII misclassifies a line")
	}
}

func TestScalarAccessors(t *testing.T) {
	var scratch []byte
	scan := func(tok string) Scalar {
		s, _, err := ScanScalar([]byte(tok), 0, 0, &scratch)
		if err != nil {
			t.Fatalf("%q: %v", tok, err)
		}
		return s
	}
	if v, err := scan("-42").Int64(); v != -42 || err != nil {
		t.Errorf("Int64(-42) = %v, %v", v, err)
	}
	if v, err := scan("-42").Float64(); v != -42 || err != nil {
		t.Errorf("Float64(-42) = %v, %v", v, err)
	}
	if v, err := scan("2.5e1").Float64(); v != 25 || err != nil {
		t.Errorf("Float64(2.5e1) = %v, %v", v, err)
	}
	// The scanner rejects 1e400 (out_of_range); a Scalar built by hand
	// still gets an error from Float64, never +Inf.
	if _, err := (Scalar{Kind: KindFloat, Bytes: []byte("1e400")}).Float64(); err == nil {
		t.Error("Float64(1e400) must fail")
	}
	if v, err := scan("true").Boolean(); !v || err != nil {
		t.Errorf("Boolean(true) = %v, %v", v, err)
	}
	s := scan(`"a\tb"`)
	if b, err := s.AppendString([]byte("x:")); string(b) != "x:a\tb" || err != nil {
		t.Errorf("AppendString = %q, %v", b, err)
	}
	for _, tok := range []string{"1.5", "x", "-", "true"} {
		s := scan(tok)
		if _, err := s.Int64(); err == nil {
			t.Errorf("Int64(%q) must fail", tok)
		}
	}
	var te *TypeError
	if _, err := scan("12").AppendString(nil); !errors.As(err, &te) || te.Got != KindInt {
		t.Errorf("AppendString(12) = %v, want a *TypeError", err)
	}
	if !scan("-").IsNull() || scan(`"-"`).IsNull() {
		t.Error("IsNull must tell the null token from the string \"-\"")
	}
	for tok, want := range map[string]string{"12": "12", "-": "", "false": "false", `"q"`: "q", "1.50": "1.50"} {
		s := scan(tok)
		if got := string(s.AppendText(nil)); got != want {
			t.Errorf("AppendText(%q) = %q, want %q", tok, got, want)
		}
	}
	n, str := scan("123"), scan("abc")
	buf := make([]byte, 0, 16)
	if a := testing.AllocsPerRun(100, func() {
		n.Int64()
		n.Float64()
		buf, _ = str.AppendString(buf[:0])
	}); a != 0 {
		t.Errorf("accessors allocate %v times", a)
	}
}
