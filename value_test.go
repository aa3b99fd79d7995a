package gcf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestObjectJSON: Object marshals through encoding/json in member order with
// exact integers, and unmarshals keeping both.
func TestObjectJSON(t *testing.T) {
	o := Object{{Key: "z", Value: int64(9223372036854775807)}, {Key: "a", Value: []any{1.5, "x", nil, true}}, {Key: "m", Value: Object{{Key: "k", Value: int64(-1)}}}}
	b, err := json.Marshal(map[string]any{"o": o})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"o":{"z":9223372036854775807,"a":[1.5,"x",null,true],"m":{"k":-1}}}`
	if string(b) != want {
		t.Fatalf("got %s", b)
	}
	var back Object
	if err := json.Unmarshal([]byte(`{"z":9223372036854775807,"a":[1.5],"b":2}`), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 3 || back[0].Key != "z" || back[0].Value != int64(9223372036854775807) || back[2].Key != "b" {
		t.Fatalf("unmarshalled %#v", back)
	}
}

func TestParseJSONErrors(t *testing.T) {
	cases := []struct {
		in        string
		cat       Category
		line, col int
	}{
		{`{"a":1,"a":2}`, DuplicateKey, 1, 8},
		{"{\n  \"a\": 1,\n  \"a\": 2\n}", DuplicateKey, 3, 3},
		{`[9223372036854775808]`, OutOfRange, 1, 2},
		{`-9223372036854775809`, OutOfRange, 1, 1},
		{`{"x":1e400}`, OutOfRange, 1, 6},
		{`[1, -1e309]`, OutOfRange, 1, 5},
		// Syntax errors: invalid_line at the offending byte, 1-based
		// byte columns (the é before the error is two bytes).
		{`{"é":1 "b":2}`, InvalidLine, 1, 9},
		{"[1,\n 2,\n x]", InvalidLine, 3, 2},
		{`[1,]`, InvalidLine, 1, 4},
		{`{"a" 1}`, InvalidLine, 1, 6},
		{`{1:2}`, InvalidLine, 1, 2},
		{`[01]`, InvalidLine, 1, 2},
		{`[-]`, InvalidLine, 1, 2},
		{`[1.]`, InvalidLine, 1, 2},
		{`[1e+]`, InvalidLine, 1, 2},
		{`[.5]`, InvalidLine, 1, 2},
		{`[tru]`, InvalidLine, 1, 2},
		{`[NaN]`, InvalidLine, 1, 2},
		{`{} {}`, InvalidLine, 1, 4},
		{"[1]\n\n2", InvalidLine, 3, 1},
		{"\xef\xbb\xbf{}", InvalidLine, 1, 1},
		// The input ends early: at the end of its last non-blank byte.
		{``, UnexpectedEOF, 1, 1},
		{"  \n", UnexpectedEOF, 1, 1},
		{"{\"a\":1,\n", UnexpectedEOF, 1, 8},
		{`[1,2`, UnexpectedEOF, 1, 5},
		{`{"a"`, UnexpectedEOF, 1, 5},
		// Strings.
		{`["abc`, UnterminatedQuote, 1, 2},
		{`["abc\`, UnterminatedQuote, 1, 6},
		{`["a\x"]`, InvalidEscape, 1, 4},
		{`["\u12G4"]`, InvalidEscape, 1, 3},
		{"[\"a\tb\"]", InvalidEscape, 1, 4},
		{"[\"a\x00b\"]", InvalidEscape, 1, 4},
		{`["\ud800"]`, InvalidSurrogate, 1, 3},
		{`["\ud800\u0041"]`, InvalidSurrogate, 1, 3},
		{`["x\udc00"]`, InvalidSurrogate, 1, 4},
	}
	for _, c := range cases {
		_, err := ParseJSON([]byte(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Category != c.cat || se.Line != c.line || se.Column != c.col {
			t.Errorf("ParseJSON(%q): got %v; want %d:%d %s", c.in, err, c.line, c.col, c.cat)
		}
	}
	if v, err := ParseJSON([]byte(`-9223372036854775808`)); err != nil || v != int64(-9223372036854775808) {
		t.Errorf("int64 min: %v %v", v, err)
	}
	// Underflow is not an error (SPEC §2.3.2): the nearest binary64.
	if v, err := ParseJSON([]byte(`[1e-400,-1e-400]`)); err != nil || v.([]any)[0] != 0.0 || !math.Signbit(v.([]any)[1].(float64)) {
		t.Errorf("underflow: %v %v", v, err)
	}
	// A long lexeme is not echoed whole.
	_, err := ParseJSON([]byte("[" + strings.Repeat("9", 1000) + "]"))
	if CategoryOf(err) != OutOfRange || len(err.Error()) > 250 {
		t.Errorf("long integer: %d-byte message %v", len(err.Error()), err)
	}
}

// TestParseJSONInvalidUTF8: invalid UTF-8 anywhere is invalid_utf8 with
// its byte offset, line and column; encoding/json would have replaced it
// with U+FFFD.
func TestParseJSONInvalidUTF8(t *testing.T) {
	cases := []struct {
		in             string
		off, line, col int
	}{
		{"[\"ab\xffc\"]", 4, 1, 5},
		{"{\"k\":\n \"\xc3\"}", 8, 2, 3},       // truncated sequence
		{"[\"\xc0\xaf\"]", 2, 1, 3},            // overlong
		{"{\"\xfe\":1}", 2, 1, 3},              // in a key
		{"[1,\n\xff]", 4, 2, 1},                // outside a string
		{"[\"\\n\xff\"]", 4, 1, 5},             // after an escape
		{"[\"\\u00e9\", \"\xe9\"]", 12, 1, 13}, // Latin-1, not UTF-8
		{"[\"\xf4\x90\x80\x80\"]", 2, 1, 3},    // above U+10FFFF
	}
	for _, c := range cases {
		_, err := ParseJSON([]byte(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Category != InvalidUTF8 || se.Offset != int64(c.off) || se.Line != c.line || se.Column != c.col {
			t.Errorf("ParseJSON(%q): got %#v; want invalid_utf8 at offset %d, %d:%d", c.in, err, c.off, c.line, c.col)
		}
	}
	v, err := ParseJSON([]byte(`["é€𝄞", "\u00e9\u20ac\ud834\udd1e", "\"\\\/\b\f\n\r\t"]`))
	want := []any{"é€𝄞", "é€𝄞", "\"\\/\b\f\n\r\t"}
	if err != nil || !reflect.DeepEqual(v, want) {
		t.Errorf("valid strings: got %q, %v", v, err)
	}
}

// TestParseJSONLimits: MaxDepth (default 256, as the decoder) and MaxBytes.
func TestParseJSONLimits(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":[`, n/2) + strings.Repeat("[", n%2) + "1" + strings.Repeat("]", n%2) + strings.Repeat("]}", n/2))
	}
	if _, err := ParseJSON(deep(256)); err != nil {
		t.Fatalf("depth 256: %v", err)
	}
	_, err := ParseJSON(deep(257))
	var se *SyntaxError
	// The 257th container is the '[' at byte 6*128 (0-based).
	if !errors.As(err, &se) || se.Category != DepthExceeded || se.Line != 1 || se.Column != 6*128+1 || se.Offset != 6*128 {
		t.Fatalf("depth 257: got %v", err)
	}
	if _, err := ParseJSON(deep(10), WithMaxDepth(10)); err != nil {
		t.Errorf("depth 10, limit 10: %v", err)
	}
	_, err = ParseJSON([]byte("[\n [\n  [\n   {}]]]"), WithMaxDepth(3))
	if !errors.As(err, &se) || se.Category != DepthExceeded || se.Line != 4 || se.Column != 4 {
		t.Errorf("depth 4, limit 3: got %v; want 4:4 depth_exceeded", err)
	}
	if _, err := ParseJSON(deep(1000), WithMaxDepth(1000)); err != nil {
		t.Errorf("depth 1000, limit 1000: %v", err)
	}
	// A hostile depth stops at the limit, far from the stack's.
	if _, err := ParseJSON([]byte(strings.Repeat("[", 1_000_000))); CategoryOf(err) != DepthExceeded {
		t.Errorf("a million '[': %v", err)
	}

	doc := []byte(`{"a": "0123456789"}`)
	if _, err := ParseJSON(doc, WithMaxBytes(int64(len(doc)))); err != nil {
		t.Errorf("at MaxBytes: %v", err)
	}
	_, err = ParseJSON(doc, WithMaxBytes(10))
	if !errors.As(err, &se) || se.Category != PayloadTooLarge || se.Offset != 10 {
		t.Errorf("over MaxBytes: %v", err)
	}
}

// TestParseJSONDuplicateKeys: found at the second occurrence whether the
// object is scanned (small) or indexed (past smallObject members).
func TestParseJSONDuplicateKeys(t *testing.T) {
	const smallObject = 16 // jsonmodel's scan-or-index threshold (jsonmodel/value.go)
	for _, n := range []int{2, smallObject - 1, smallObject, smallObject + 1, smallObject + 2, 3 * smallObject, 1000} {
		for _, first := range []int{0, (n - 1) / 2, n - 2} {
			doc := []byte(manyKeysJSON(n - 1))
			doc = doc[:len(doc)-1]
			dupAt := len(doc) + 1
			doc = fmt.Appendf(doc, `,"k%d":true}`, first)
			_, err := ParseJSON(doc)
			var se *SyntaxError
			if !errors.As(err, &se) || se.Category != DuplicateKey || se.Offset != int64(dupAt) {
				t.Errorf("%d keys, key %d repeated last: got %v; want duplicate_key at offset %d", n, first, err, dupAt)
			}
		}
		// Distinct keys, including ones that share a prefix, all pass.
		v, err := ParseJSON(manyKeysJSON(n))
		if err != nil || len(v.(Object)) != n {
			t.Errorf("%d distinct keys: %v", n, err)
		}
	}
	// Same key in different objects is not a duplicate.
	if _, err := ParseJSON([]byte(`[{"a":1},{"a":{"a":2}}]`)); err != nil {
		t.Error(err)
	}
}

// TestParseJSONMatchesEncodingJSON: on valid input ParseJSON gives the
// values encoding/json gives, member order kept.
func TestParseJSONMatchesEncodingJSON(t *testing.T) {
	docs := [][]byte{
		benchJSONDoc(),
		[]byte(` { "b" : [ true , false , null , -0 , 0.5e-3 , 1E2 , -12.25 , "" ] , "a" : { } , "c" : [ ] } `),
		[]byte("\t\r\n\"\\u0000 \\ud83d\\ude00\"\n"),
		[]byte(`9007199254740993`),
	}
	for _, doc := range docs {
		v, err := ParseJSON(doc)
		if err != nil {
			t.Fatalf("%.40s: %v", doc, err)
		}
		var want any
		dec := json.NewDecoder(bytes.NewReader(doc))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if !sameAsEncodingJSON(v, want) {
			t.Errorf("%.40s: got %.200s", doc, mustJSON(v))
		}
	}
	v, _ := ParseJSON([]byte(`{"z":1,"a":2,"m":3}`))
	if o := v.(Object); o[0].Key != "z" || o[1].Key != "a" || o[2].Key != "m" {
		t.Errorf("member order: %v", o)
	}
}

// sameAsEncodingJSON compares a ParseJSON value with what encoding/json
// (UseNumber) decodes: integer literals are int64, other numbers float64.
func sameAsEncodingJSON(mine, theirs any) bool {
	switch x := mine.(type) {
	case Object:
		y, ok := theirs.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for _, m := range x {
			if w, ok := y[m.Key]; !ok || !sameAsEncodingJSON(m.Value, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := theirs.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameAsEncodingJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case int64:
		n, ok := theirs.(json.Number)
		i, err := n.Int64()
		return ok && err == nil && i == x && !strings.ContainsAny(string(n), ".eE")
	case float64:
		n, ok := theirs.(json.Number)
		f, err := n.Float64()
		return ok && err == nil && f == x && strings.ContainsAny(string(n), ".eE")
	default:
		return mine == theirs
	}
}

// FuzzParseJSON: ParseJSON never panics, accepts only what encoding/json
// accepts, rejects what encoding/json accepts only for the reasons it
// documents, and every error carries a position inside the input.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x",null,true]}`, `[]`, `"\ud83d\ude00"`, `{"a":1,"a":2}`, "[\"\xff\"]", `[1e400]`, `[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data, WithMaxDepth(64))
		if err == nil {
			if !json.Valid(data) {
				t.Fatalf("accepted invalid JSON %q", data)
			}
			if _, err := ToJSON(v); err != nil {
				t.Fatalf("ToJSON: %v", err)
			}
			return
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > int64(len(data)) {
			t.Fatalf("%q: error without a position: %#v", data, err)
		}
		if json.Valid(data) {
			switch se.Category {
			case DuplicateKey, OutOfRange, InvalidUTF8, InvalidSurrogate, DepthExceeded:
			case InvalidLine:
				if !bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
					t.Fatalf("%q: valid JSON rejected: %v", data, err)
				}
			default:
				t.Fatalf("%q: valid JSON rejected: %v", data, err)
			}
		}
	})
}

// benchJSONDoc is a few hundred KB of ordinary JSON: records with
// strings (some escaped, some non-ASCII), integers, floats, booleans,
// nulls, a nested object and a short array each.
func benchJSONDoc() []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 2000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user %d","email":"u%d@example.com","score":%d.%02d,"active":%t,`+
			`"note":%s,"city":"Zürich","manager":null,"tags":["a","b%d",%d],"addr":{"street":"%d Main St","zip":"%05d"}}`,
			i, i, i, i%100, i%97, i%3 == 0, []string{`"plain"`, `"tab\tand \"quotes\""`, `"\u00e9t\u00e9"`}[i%3], i%7, i, i, i*7)
	}
	b.WriteString(`],"count":2000}`)
	return []byte(b.String())
}

func BenchmarkParseJSON(b *testing.B) {
	doc := benchJSONDoc()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseJSON(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// manyKeysJSON is one object with n distinct keys.
func manyKeysJSON(n int) []byte {
	b := make([]byte, 0, n*16)
	b = append(b, '{')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `"k`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return append(b, '}')
}

// BenchmarkParseJSONManyKeys: the duplicate-key check is linear, so the
// time per key stays flat from 10,000 to 1,000,000 keys in one object.
func BenchmarkParseJSONManyKeys(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			doc := manyKeysJSON(n)
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				v, err := ParseJSON(doc)
				if err != nil || len(v.(Object)) != n {
					b.Fatal(err)
				}
			}
		})
	}
}

// ToJSON never HTML-escapes: <, > and & are written as themselves, in Go
// maps and structs too (json.Marshal would write \u003c, \u003e, \u0026).
func TestToJSONDoesNotEscapeHTML(t *testing.T) {
	for _, v := range []any{
		map[string]any{"a": "<b>&</b>"},
		Object{{Key: "a", Value: "<b>&</b>"}},
		struct {
			A string `json:"a"`
		}{"<b>&</b>"},
	} {
		got, err := ToJSON(v)
		if err != nil || string(got) != `{"a":"<b>&</b>"}` {
			t.Errorf("ToJSON(%#v) = %s, %v", v, got, err)
		}
	}
}
