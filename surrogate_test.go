package gcf_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/stream"
)

// TestSurrogates: SPEC §2.2 admits only Unicode scalar values. A quoted
// string may not carry an isolated or malformed surrogate escape, nor a
// literal surrogate (its WTF-8 bytes ED A0-BF ..); JSON input holding one
// cannot be encoded, since GCF has no way to carry it. Every path reports
// invalid_surrogate (§16.5) with its position (docs/spec-notes.md).
func TestSurrogates(t *testing.T) {
	jsonCases := []struct {
		in        string
		line, col int
	}{
		{`{"a":"\ud800"}`, 1, 7},
		{`{"a":"x\udc00"}`, 1, 8},
		{`{"a":"\ud800\u0041"}`, 1, 7},
		{"{\"a\":\n\"\\udbff\"}", 2, 2},
		{`{"\udfff":1}`, 1, 3},
		{"[\"\xed\xa0\x80\"]", 1, 3},
		{"[\"ok\xed\xbf\xbf\"]", 1, 5},
	}
	for _, c := range jsonCases {
		_, err := gcf.ParseJSON([]byte(c.in))
		var se *gcf.SyntaxError
		if !errors.As(err, &se) || se.Category != gcf.InvalidSurrogate || se.Line != c.line || se.Column != c.col {
			t.Errorf("ParseJSON(%q): %v; want invalid_surrogate at %d:%d", c.in, err, c.line, c.col)
		}
	}
	if v, err := gcf.ParseJSON([]byte(`"\ud83d\ude00"`)); err != nil || v != "😀" {
		t.Errorf("a valid pair: %q %v", v, err)
	}

	// Go strings are bytes: WTF-8 surrogate bytes are refused by the encoder.
	for _, v := range []any{map[string]any{"a": "x\xed\xa0\x80"}, map[string]any{"\xed\xb0\x80": 1}, []any{[]any{map[string]any{"k": "\xed\xa0\x80"}}}} {
		if _, err := gcf.EncodeGeneric(v); gcf.CategoryOf(err) != gcf.InvalidSurrogate {
			t.Errorf("EncodeGeneric(%q): %v; want invalid_surrogate", v, err)
		}
	}
	if _, err := gcf.EncodeGeneric("\xff"); gcf.CategoryOf(err) != gcf.InvalidUTF8 {
		t.Errorf("EncodeGeneric of other invalid UTF-8: %v; want invalid_utf8", err)
	}

	// Decoder, pull decoder and validator agree, at the same line.
	payloads := []string{
		"GCF profile=generic\na=\"\\ud800\"\n",
		"GCF profile=generic\na=\"\\udc00\"\n",
		"GCF profile=generic\na=\"\\ud800\\u0041\"\n",
		"GCF profile=generic\n## [1]{a}\n\"\\ud800x\"\n",
		"GCF profile=generic\na[2]: 1,\"\\udfff\"\n",
		"GCF profile=generic\na=\xed\xa0\x80\n",
		"GCF profile=generic\na=\"\xed\xa0\x80\"\n",
	}
	for _, p := range payloads {
		_, err := gcf.DecodeGeneric([]byte(p))
		var se *gcf.SyntaxError
		if !errors.As(err, &se) || se.Category != gcf.InvalidSurrogate {
			t.Errorf("DecodeGeneric(%q): %v; want invalid_surrogate", p, err)
			continue
		}
		d := gcf.NewDecoder(bytes.NewReader([]byte(p)))
		var derr error
		for derr == nil {
			_, derr = d.Next()
		}
		if gcf.CategoryOf(derr) != gcf.InvalidSurrogate {
			t.Errorf("NewDecoder(%q): %v; want invalid_surrogate", p, derr)
		}
		errs := ast.Check(bytes.NewReader([]byte(p)), stream.Limits{})
		if len(errs) == 0 || errs[0].Category != gcf.InvalidSurrogate || errs[0].Pos.Line != se.Line {
			t.Errorf("ast.Check(%q): %v; want invalid_surrogate on line %d", p, errs, se.Line)
		}
	}
}

// TestSurrogateGraphNames: a graph name holding a surrogate's bytes is
// invalid_surrogate too.
func TestSurrogateGraphNames(t *testing.T) {
	p := &gcf.Payload{Tool: "t", Symbols: []gcf.Symbol{{QualifiedName: "a.\xed\xa0\x80", Kind: "function", Score: 1, Provenance: "lsp"}}}
	if _, err := gcf.Encode(p); gcf.CategoryOf(err) != gcf.InvalidSurrogate {
		t.Errorf("Encode: %v; want invalid_surrogate", err)
	}
}
