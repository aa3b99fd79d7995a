package gcf

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// Regression tests for issue 11 on the decode side: every hostile input
// below is an error with its category, line and column on every decode
// path, and nothing valid is lost.

// hostile is a payload that every path able to read it must reject at one
// position.
type hostile struct {
	name, in  string
	cat       Category
	line, col int
}

// pullErr reads in with NewDecoder's Next to the end and returns the first error.
func pullErr(in string, opts ...Option) error {
	d := NewDecoder(strings.NewReader(in), opts...)
	for {
		if _, err := d.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// decodeErr runs the buffered decoder for the payload's profile.
func decodeErr(in string, opts ...Option) error {
	if strings.HasPrefix(in, "GCF profile=graph") && strings.Contains(in, "delta=true") {
		_, err := DecodeDelta([]byte(in), opts...)
		return err
	}
	if strings.HasPrefix(in, "GCF profile=graph") {
		_, err := Decode([]byte(in), opts...)
		return err
	}
	_, err := DecodeGeneric([]byte(in), opts...)
	return err
}

func wantAt(t *testing.T, path string, err error, c hostile) {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%s: want %s at %d:%d, got %v", path, c.cat, c.line, c.col, err)
	}
	if se.Category != c.cat || se.Line != c.line || se.Column != c.col {
		t.Fatalf("%s: want %s at %d:%d, got %s at %d:%d (%s)", path, c.cat, c.line, c.col, se.Category, se.Line, se.Column, se.Msg)
	}
	if n := len(se.Msg); n > 300 {
		t.Fatalf("%s: a %d-byte message echoes the input", path, n)
	}
}

func checkHostile(t *testing.T, cases []hostile, opts ...Option) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantAt(t, "buffered", decodeErr(c.in, opts...), c)
			wantAt(t, "NewDecoder.Next", pullErr(c.in, opts...), c)
		})
	}
}

var zeros400 = strings.Repeat("0", 400)

func TestHostileNumbers(t *testing.T) {
	checkHostile(t, []hostile{
		{"1e309", "GCF profile=generic\na=1e309\n", OutOfRange, 2, 3},
		{"-1e309 in a nested member", "GCF profile=generic\n## s\n  b=-1e309\n", OutOfRange, 3, 5},
		{"400-digit float", "GCF profile=generic\na=1" + zeros400 + ".5\n", OutOfRange, 2, 3},
		{"huge exponent in a row cell", "GCF profile=generic\n## t [1]{a,b}\nx|1e99999\n", OutOfRange, 3, 3},
		{"400-digit plain decimal in a row cell", "GCF profile=generic\n## t [1]{a,b}\nx|1" + zeros400 + ".25\n", OutOfRange, 3, 3},
		{"inline array item", "GCF profile=generic\nv[2]: 1, 2e400\n", OutOfRange, 2, 10},
		{"root scalar", "GCF profile=generic\n=1e400\n", OutOfRange, 2, 2},
		{"expanded item", "GCF profile=generic\n## s\n  ## v [1]\n  @0 =1e400\n", OutOfRange, 4, 7},
		{"integer beyond int64", "GCF profile=generic\na=9223372036854775808\n", OutOfRange, 2, 3},
		{"integer below int64 in a cell", "GCF profile=generic\n## t [1]{a}\n-9223372036854775809\n", OutOfRange, 3, 1},
		{"400-digit integer", "GCF profile=generic\na=1" + zeros400 + "\n", OutOfRange, 2, 3},
		{"graph score beyond binary64", "GCF profile=graph\n## targets\n@0 fn a 1" + zeros400 + ".00 p\n", OutOfRange, 3, 9},
		{"header symbols", "GCF profile=graph symbols=99999999999999999999\n## targets\n", OutOfRange, 1, 27},
		{"header edges", "GCF profile=graph edges=-99999999999999999999\n", OutOfRange, 1, 25},
		{"header budget", "GCF profile=graph tool=t budget=9223372036854775808\n", OutOfRange, 1, 33},
		{"header tokens, generic", "GCF profile=generic tokens=1" + zeros400 + "\n", OutOfRange, 1, 28},
		{"summary counts item", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=99999999999999999999\n", OutOfRange, 4, 20},
		{"second summary counts item", "GCF profile=generic\n## t [?]{a}\n1\n## u [?]{a}\n1\n##! summary counts=1,99999999999999999999\n", OutOfRange, 6, 22},
	})
}

// Underflow is not an error: SPEC §2.3.2 makes non-integers binary64
// values, so 1e-400 is the nearest binary64, zero (and -1e-400 is -0), as
// the reference SDK decodes it. See docs/spec-notes.md.
func TestUnderflowIsZero(t *testing.T) {
	in := "GCF profile=generic\na=1e-400\nb=-1e-400\n## t [1]{c}\n4.9e-330\n"
	v, err := DecodeGeneric([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(Object)
	a, _ := o.Get("a")
	b, _ := o.Get("b")
	c, _ := o.Get("t")
	if a != 0.0 || b != 0.0 || !math.Signbit(b.(float64)) || c.([]any)[0].(Object)[0].Value != 0.0 {
		t.Fatalf("got a=%v b=%v t=%v", a, b, c)
	}
	if err := pullErr(in); err != nil {
		t.Fatalf("NewDecoder: %v", err)
	}
	// The smallest subnormal stays itself.
	v, err = DecodeGeneric([]byte("GCF profile=generic\na=5e-324\n"))
	if err != nil || v.(Object)[0].Value != math.SmallestNonzeroFloat64 {
		t.Fatalf("5e-324: %v, %v", v, err)
	}
}

// Decoder.Decode into Go values: a number that does not fit its target is
// out_of_range with a position, and still unwraps to the
// *json.UnmarshalTypeError encoding/json gives.
func TestDecodeIntoStructNumberPosition(t *testing.T) {
	type small struct {
		A string `json:"a"`
		B int8   `json:"b"`
	}
	d := NewDecoder(strings.NewReader("GCF profile=generic\n## s\n  ## t [2]{a,b}\n  x|1\n  y|300\n"))
	for d.PeekKind() != KindRow {
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
	}
	var s small
	if err := d.Decode(&s); err != nil || s.B != 1 {
		t.Fatalf("first row: %+v, %v", s, err)
	}
	err := d.Decode(&s)
	wantAt(t, "row fast path", err, hostile{cat: OutOfRange, line: 5, col: 5})
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		t.Fatalf("%v does not unwrap to *json.UnmarshalTypeError", err)
	}

	// A value decoded into a typed target points at the line of the value
	// that does not fit (the start of its line: member lines carry no
	// offset of their own).
	var obj struct {
		S struct {
			B uint8 `json:"b"`
		} `json:"s"`
	}
	err = NewDecoder(strings.NewReader("GCF profile=generic\nx=1\n## s\n  b=-1\n")).Decode(&obj)
	wantAt(t, "typed path", err, hostile{cat: OutOfRange, line: 4, col: 1})
}

func TestHostileControls(t *testing.T) {
	checkHostile(t, []hostile{
		{"NUL in a member value", "GCF profile=generic\na=x\x00y\n", InvalidEscape, 2, 4},
		{"lone CR in a member value", "GCF profile=generic\na=x\ry\r\n", InvalidEscape, 2, 4},
		{"C1 in a member value", "GCF profile=generic\na=x\u0085\n", InvalidEscape, 2, 4},
		{"raw TAB in a quoted string", "GCF profile=generic\na=\"x\ty\"\n", InvalidEscape, 2, 5},
		{"raw newline escape missing in a quoted key", "GCF profile=generic\n\"k\x01\"=1\n", InvalidEscape, 2, 3},
		{"row cell", "GCF profile=generic\n## t [1]{a,b}\n1|x\x07\n", InvalidEscape, 3, 4},
		{"keyed-map key", "GCF profile=generic\n## s\n  ## m [1:]{key,v}\n  k\x1b|1\n", InvalidEscape, 4, 4},
		{"inline array item", "GCF profile=generic\nv[2]: a, b\x02\n", InvalidEscape, 2, 11},
		{"root scalar", "GCF profile=generic\n=\x10\n", InvalidEscape, 2, 2},
		{"expanded item", "GCF profile=generic\n## [1]\n@0 =a\u0090\n", InvalidEscape, 3, 6},
		{"attachment value", "GCF profile=generic\n## [1]{a}\n@0 ^\n.a =x\x03\n", InvalidEscape, 4, 6},
		{"inline body cell", "GCF profile=generic\n## [1]{a}\n@0 ^{p,q}\n  1|\x04\n", InvalidEscape, 4, 5},
	})
	// TAB inside a bare value is data; edges are structural.
	v, err := DecodeGeneric([]byte("GCF profile=generic\na=\tx\ty \t\n"))
	if err != nil || v.(Object)[0].Value != "x\ty" {
		t.Fatalf("got %#v, %v", v, err)
	}
}

func TestHostileBOM(t *testing.T) {
	for _, in := range []string{"\xEF\xBB\xBFGCF profile=generic\na=1\n", "\xEF\xBB\xBF"} {
		for path, err := range map[string]error{"DecodeGeneric": decodeErr(in), "Decode": func() error { _, err := Decode([]byte(in)); return err }(), "NewDecoder": pullErr(in)} {
			wantAt(t, path, err, hostile{cat: MissingHeader, line: 1, col: 1})
			if !strings.Contains(err.Error(), "input starts with a UTF-8 byte order mark (EF BB BF); GCF payloads have none, remove it") {
				t.Fatalf("%s: message %q does not name the BOM", path, err)
			}
		}
	}
}

// Graph names (qualified names, provenance, edge types) are any Unicode
// scalar values but whitespace and controls, as the official fixture
// graph-decode/004 and the reference SDK have it (docs/spec-notes.md).
func TestGraphNamesBeyondASCII(t *testing.T) {
	in := "GCF profile=graph symbols=2 edges=1\n## targets\n@0 fn ௗpkg.handler 0.90 ௗ\n@1 type π.T 0.50 lsp\n## edges [1]\n@0<@1 appelle_à\n"
	p, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if p.Symbols[0].QualifiedName != "ௗpkg.handler" || p.Symbols[0].Provenance != "ௗ" || p.Edges[0].EdgeType != "appelle_à" || p.Edges[0].Source != "π.T" {
		t.Fatalf("got %+v", p)
	}
	if err := pullErr(in); err != nil {
		t.Fatal(err)
	}
	din := "GCF profile=graph delta=true base_root=a new_root=b\n## removed\nfn ௗold\n## added\n@0 fn ௗnew 0.50 ௗ 1\n## edges_added\nௗnew -> π.T appelle_à\n"
	dp, err := DecodeDelta([]byte(din))
	if err != nil {
		t.Fatal(err)
	}
	if dp.Removed[0].QualifiedName != "ௗold" || dp.Added[0].Provenance != "ௗ" || dp.AddedEdges[0].EdgeType != "appelle_à" {
		t.Fatalf("got %+v", dp)
	}

	checkHostile(t, []hostile{
		{"NBSP in a qname", "GCF profile=graph\n## targets\n@0 fn a\u00a0b 0.90 p\n", InvalidNodeLine, 3, 8},
		{"U+2028 in provenance", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\u2028\n", InvalidNodeLine, 3, 15},
		{"NUL in a qname", "GCF profile=graph\n## targets\n@0 fn a\x00 0.90 p\n", InvalidNodeLine, 3, 8},
		{"DEL in provenance", "GCF profile=graph\n## targets\n@0 fn a 0.90 \x7f\n", InvalidNodeLine, 3, 14},
		{"C1 in a qname", "GCF profile=graph\n## targets\n@0 fn ab\u0085 0.90 p\n", InvalidNodeLine, 3, 9},
		{"ideographic space in an edge type", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 x\u3000y\n", InvalidEdgeSyntax, 5, 8},
		{"control in an edge type", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 \x01\n", InvalidEdgeSyntax, 5, 7},
		{"control in a removed qname", "GCF profile=graph delta=true\n## removed\nfn a\x02\n", MalformedDelta, 3, 5},
		{"NBSP in an added qname", "GCF profile=graph delta=true\n## added\n@0 fn \u00a0 0.50 p 1\n", MalformedDelta, 3, 7},
		{"control in a delta edge type", "GCF profile=graph delta=true\n## edges_removed\na -> b c\x1f\n", MalformedDelta, 3, 9},
	})
}

func TestHostileErrorPositions(t *testing.T) {
	long := strings.Repeat("x", 5000)
	checkHostile(t, []hostile{
		// count_mismatch, too few: the line that ends the section, column 1.
		{"deficit ended by a member", "GCF profile=generic\n## t [3]{a}\n1\n2\n## u\n  b=1\n", CountMismatch, 5, 1},
		{"deficit ended by a dedent", "GCF profile=generic\n## s\n  ## t [3]{a}\n  1\nb=1\n", CountMismatch, 5, 1},
		{"deficit ended by an indented sibling", "GCF profile=generic\n## s\n  ## t [3]{a}\n  1\n  c=2\n", CountMismatch, 5, 1},
		{"deficit at EOF: the last line with content", "GCF profile=generic\n## t [3]{a}\n1\n2\n", CountMismatch, 4, 1},
		{"deficit at EOF after blank lines", "GCF profile=generic\n## t [3]{a}\n1\n2\n\n   \n\n", CountMismatch, 4, 1},
		{"deficit at EOF after a comment", "GCF profile=generic\n## t [3]{a}\n1\n# note\n\n", CountMismatch, 3, 1}, // the last line that is neither blank nor a comment
		{"missing attachment at EOF: the row's line", "GCF profile=generic\n## [1]{a}\n@0 ^\n", MissingAttachment, 3, 1},
		// A header value holds no control character (§4 header-value).
		{"control in a header value", "GCF profile=generic x=a\x01b\n", MalformedHeaderField, 1, 24},
		{"form feed ending a header value", "GCF profile=graph delta=true\f\n", MalformedHeaderField, 1, 29},
		// Graph header counts are non-negative integers (§3.2), on every path.
		{"graph header symbols not an integer", "GCF profile=graph symbols=x\n", MalformedHeaderField, 1, 27},
		{"graph header edges with a leading zero", "GCF profile=graph edges=01\n", MalformedHeaderField, 1, 25},
		{"graph header tokens negative", "GCF profile=graph tokens=-1\n", MalformedHeaderField, 1, 26},
		{"deficit at EOF without a final newline", "GCF profile=generic\n## t [3]{a}\n1", CountMismatch, 3, 1},
		{"expanded deficit at EOF", "GCF profile=generic\n## [2]\n@0 =1\n", CountMismatch, 3, 1},
		// too many: the first surplus line, its first non-space byte.
		{"surplus row", "GCF profile=generic\n## t [1]{a}\n1\n2\n3\n", CountMismatch, 4, 1},
		{"surplus root item", "GCF profile=generic\n## [1]\n@0 =1\n@1 =2\n", CountMismatch, 4, 1},
		{"surplus graph edge", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 x\n@0<@0 y\n@0<@0 z\n", CountMismatch, 6, 1},
		{"graph deficit at EOF", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [2]\n@0<@0 x\n\n", CountMismatch, 5, 1},
		{"graph header symbols at EOF", "GCF profile=graph symbols=3\n## targets\n@0 fn a 0.90 p\n", CountMismatch, 3, 1},
		{"summary disagrees", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=2\n", CountMismatch, 4, 1},
		// duplicates: the second occurrence.
		{"duplicate field name", "GCF profile=generic\n## t [1]{a,b,a}\n1|2|3\n", DuplicateFieldName, 2, 14},
		{"duplicate quoted field name", "GCF profile=generic\n## t [1]{\"a b\",c,\"a b\"}\n1|2|3\n", DuplicateFieldName, 2, 18},
		{"duplicate inline schema name", "GCF profile=generic\n## [1]{a}\n@0 ^{p,q,p}\n  1|2|3\n", DuplicateFieldName, 3, 10},
		{"duplicate key", "GCF profile=generic\na=1\nb=2\na=3\n", DuplicateKey, 4, 1},
		{"duplicate header field", "GCF profile=generic tool=a tool=b\n", DuplicateHeaderField, 1, 28},
		// unknown_profile: the value.
		{"unknown profile", "GCF profile=yaml\n", UnknownProfile, 1, 13},
		{"long unknown profile", "GCF profile=" + long + "\n", UnknownProfile, 1, 13},
		// long input is never echoed whole.
		{"long malformed header field", "GCF profile=generic " + long + "\n", MalformedHeaderField, 1, 21},
		{"long duplicate key", "GCF profile=generic\n\"" + long + "\"=1\n\"" + long + "\"=2\n", DuplicateKey, 3, 1},
		{"long integer", "GCF profile=generic\na=" + strings.Repeat("9", 5000) + "\n", OutOfRange, 2, 3},
		{"long graph kind", "GCF profile=graph\n## targets\n@0 " + long + "! a 0.90 p\n", InvalidNodeLine, 3, 4},
	})
	// The buffered decoders report unknown_profile for the other profile at
	// the value too.
	_, err := DecodeGeneric([]byte("GCF profile=graph\n"))
	wantAt(t, "DecodeGeneric of a graph payload", err, hostile{cat: UnknownProfile, line: 1, col: 13})
	_, err = Decode([]byte("GCF profile=generic\n"))
	wantAt(t, "Decode of a generic payload", err, hostile{cat: UnknownProfile, line: 1, col: 13})

	// line_too_long: column limit+1, the first byte past the limit.
	in := "GCF profile=generic\na=" + strings.Repeat("y", 70000) + "\n"
	checkHostile(t, []hostile{{"line too long", in, LineTooLong, 2, 65537}}, WithMaxLineBytes(65536))
}

// Every message that quotes input quotes at most 80 bytes of it, cut on a
// UTF-8 boundary and marked with "...".
func TestMessagesQuoteAtMost80Bytes(t *testing.T) {
	long := strings.Repeat("é", 3000)
	for _, in := range []string{
		"GCF profile=" + long + "\n",
		"GCF profile=generic " + long + "\n",
		"GCF profile=generic\n\"" + long + "\"=1\n\"" + long + "\"=2\n",
		"GCF profile=generic\n## t [1]{\"" + long + "\",\"" + long + "\"}\n",
		"GCF profile=generic\n## [1]{\"" + long + "\",\"" + long + ">b\"}\n1|2\n",
		"GCF profile=generic\n## m [2:]{k,v}\n" + long + "|1\n" + long + "|2\n",
		"GCF profile=graph\n## targets\n@0 " + long + " a 0.90 p\n",
		"GCF profile=graph\n## targets\n@0 fn a " + long + " p\n",
		"GCF profile=graph delta=true\n## " + strings.Repeat("z", 5000) + "\n",
		"GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=" + long + "\n",
		"GCF profile=generic\n## t [?]{a}\n1\n##! summary " + long + "\n",
		"GCF profile=generic\n## t [" + strings.Repeat("9", 5000) + "]{a}\n",
		"GCF profile=generic\n## [1]{" + strings.Repeat("a", 5000) + "}\n@0 ^\n." + strings.Repeat("a", 5000) + " =1\n." + strings.Repeat("a", 5000) + " =2\n",
	} {
		err := pullErr(in)
		if err == nil {
			t.Fatalf("%.60q...: no error", in)
		}
		msg := err.Error()
		if len(msg) > 400 || !utf8.ValidString(msg) {
			t.Errorf("%d-byte message: %.200s", len(msg), msg)
		}
		if bytes.Contains([]byte(msg), []byte(strings.Repeat("é", 41))) {
			t.Errorf("message quotes more than 80 bytes: %.200s", msg)
		}
	}
}
