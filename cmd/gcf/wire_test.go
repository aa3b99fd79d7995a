package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/tokens"
)

func TestStatsTable(t *testing.T) {
	out, stderr, code := runCLI(t, "", "stats", filepath.Join("..", "..", "testdata", "examples", "graph.json"))
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"graph payload, json input, tokens by o200k_base", "pretty JSON", "minified JSON", "GCF", "GCB",
		"bytes saved vs pretty", "tokens saved vs pretty"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

func TestStatsJSON(t *testing.T) {
	out, _, code := runCLI(t, "", "stats", "-json", "-tokenizer", "cl100k",
		filepath.Join("..", "..", "testdata", "examples", "graph.json"), filepath.Join("..", "..", "testdata", "examples", "orders.json"))
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var files []statFile
	if err := json.Unmarshal([]byte(out), &files); err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Payload != "graph" || files[1].Payload != "generic" || files[0].Tokenizer != "cl100k_base" {
		t.Fatalf("%+v", files)
	}
	if n := len(files[0].Rows); n != 4 || files[0].Rows[3].Format != "GCB" || files[0].Rows[3].Tokens != nil {
		t.Fatalf("graph rows: %+v", files[0].Rows)
	}
	gcfRow := files[0].Rows[2]
	if gcfRow.Tokens == nil || *gcfRow.Tokens >= *files[0].Rows[1].Tokens || *gcfRow.TokensVsMinified <= 0 {
		t.Fatalf("GCF is not fewer tokens than minified JSON: %+v", gcfRow)
	}
}

func TestStatsGCFInputAndErrors(t *testing.T) {
	gcfText, _, code := runCLI(t, "", "encode", "-q", "-profile", "graph", filepath.Join("..", "..", "testdata", "examples", "graph.json"))
	if code != exitOK {
		t.Fatal(code)
	}
	out, _, code := runCLI(t, gcfText, "stats", "-")
	if code != exitOK || !strings.Contains(out, "graph payload, gcf input") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	gcb, _, code := runCLI(t, "", "encode", "-q", "-codec", "gcb", filepath.Join("..", "..", "testdata", "examples", "graph.json"))
	if code != exitOK {
		t.Fatal(code)
	}
	out, _, code = runCLI(t, gcb, "stats", "-")
	if code != exitOK || !strings.Contains(out, "graph payload, gcb input") {
		t.Fatalf("gcb input: exit %d:\n%s", code, out)
	}
	if _, stderr, code := runCLI(t, "GCB1\x02", "stats", "-"); code != exitInvalid || !strings.Contains(stderr, "unexpected_eof") {
		t.Fatalf("truncated gcb: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "{", "stats", "-"); code != exitInvalid || stderr == "" {
		t.Fatalf("bad JSON: exit %d, %q", code, stderr)
	}
	if _, _, code := runCLI(t, "", "stats", "-tokenizer", "p50k", "-"); code != exitUsage {
		t.Fatalf("unknown tokenizer: exit %d", code)
	}
	if _, _, code := runCLI(t, "", "stats"); code != exitUsage {
		t.Fatalf("no file: exit %d", code)
	}
	if _, _, code := runCLI(t, "", "stats", filepath.Join(t.TempDir(), "missing.json")); code != exitIO {
		t.Fatalf("missing file: exit %d", code)
	}
}

// TestCodecRoundTrip: encode -codec X then decode -codec X gives the
// payload back, for every built-in codec.
func TestCodecRoundTrip(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "examples", "graph.json")
	want, _, code := runCLI(t, "", "decode", "-codec", "json", src)
	if code != exitOK {
		t.Fatalf("decode -codec json: exit %d", code)
	}
	for _, codec := range []string{"gcb", "json"} {
		dir := t.TempDir()
		enc := filepath.Join(dir, "out."+codec)
		if _, stderr, code := runCLI(t, "", "encode", "-codec", codec, "-o", enc, src); code != exitOK {
			t.Fatalf("encode -codec %s: exit %d, %s", codec, code, stderr)
		}
		got, stderr, code := runCLI(t, "", "decode", "-codec", codec, enc)
		if code != exitOK || got != want {
			t.Fatalf("decode -codec %s: exit %d %s\n got %s\nwant %s", codec, code, stderr, got, want)
		}
	}
	// gcb1 refuses what it would lose (the example's edge types), and -lossy writes it.
	if _, stderr, code := runCLI(t, "", "encode", "-codec", "gcb1", "-o", filepath.Join(t.TempDir(), "x"), src); code != exitInvalid ||
		!strings.Contains(stderr, "GCB1 would lose it") {
		t.Fatalf("gcb1: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "", "encode", "-codec", "gcb1", "-lossy", "-o", filepath.Join(t.TempDir(), "x"), src); code != exitOK {
		t.Fatalf("gcb1 -lossy: exit %d, %s", code, stderr)
	}
}

func TestCodecErrors(t *testing.T) {
	if _, stderr, code := runCLI(t, "", "encode", "-codec", "nope"); code != exitUsage || !strings.Contains(stderr, "gcb, gcb1, gcf, gcf-v1, json") {
		t.Fatalf("unknown codec: exit %d, %s", code, stderr)
	}
	if _, _, code := runCLI(t, "", "encode", "-codec", "gcb", "-profile", "generic"); code != exitUsage {
		t.Fatalf("gcb with -profile generic: exit %d", code)
	}
	if _, _, code := runCLI(t, "", "encode", "-lossy"); code != exitUsage {
		t.Fatalf("-lossy without gcb1: exit %d", code)
	}
	if _, _, code := runCLI(t, "", "decode", "-codec", "gcb", "-ndjson"); code != exitUsage {
		t.Fatalf("-ndjson with gcb: exit %d", code)
	}
	_, stderr, code := runCLI(t, "GCB1\x02\x05", "decode", "-codec", "gcb", "-")
	if code != exitInvalid || !strings.Contains(stderr, "invalid_count: wire/gcb: at byte 5:") {
		t.Fatalf("truncated gcb: exit %d, %s", code, stderr)
	}
	// Binary output goes to a file or a pipe, never to a terminal.
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("/dev/tty is not seen as a terminal")
		}
	}
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer null.Close()
		if isTerminal(null) {
			t.Error(os.DevNull + " is seen as a terminal")
		}
	}
}

// TestEncodeGraphSnakeCase: the product's snake_case export is a graph
// payload for encode -profile graph too.
func TestEncodeGraphSnakeCase(t *testing.T) {
	in := `{"tool":"t","tokens_used":3,"token_budget":9,"symbols":[{"qualified_name":"a.F","kind":"function","score":0.5,
"provenance":"lsp_resolved","distance":0,"components":{"blast_radius":0.1,"confidence":0,"recency":0,"distance":0}}]}`
	out, stderr, code := runCLI(t, in, "encode", "-q", "-profile", "graph")
	if code != exitOK || !strings.Contains(out, "@0 fn a.F 0.50 lsp_resolved") || !strings.Contains(out, "tokens=3") {
		t.Fatalf("exit %d, %s\n%s", code, stderr, out)
	}
}

// The JSON baselines of stats are minified (and pretty) JSON without HTML
// escaping: <, > and & count as one byte each, not as \u003c and the like.
func TestStatsBaselineIsNotHTMLEscaped(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"generic.json": `{"a":"<b>&</b>","b":[1,2]}`,
		"graph.json":   `{"tool":"t","symbols":[{"qualifiedName":"a<b>&c","kind":"function","score":1,"provenance":"lsp_resolved","distance":0}],"edges":[]}`,
	} {
		path := writeFile(t, dir, name, doc)
		out, stderr, code := runCLI(t, "", "stats", "-json", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		var files []statFile
		if err := json.Unmarshal([]byte(out), &files); err != nil || len(files) != 1 {
			t.Fatalf("%s: %v: %s", name, err, out)
		}
		for _, r := range files[0].Rows {
			if r.Format == "minified JSON" && name == "generic.json" && r.Bytes != len(doc) {
				t.Errorf("%s: minified JSON is %d bytes, want %d (the input, which is minified)", name, r.Bytes, len(doc))
			}
		}
		if strings.Contains(out, `\u003c`) || strings.Contains(out, `\u0026`) {
			t.Errorf("%s: escaped output %s", name, out)
		}
	}
	// Measured on the payload as stats builds it, the baselines hold the
	// characters themselves.
	sf, err := stats([]byte(`{"a":"<b>&</b>"}`), mustCounter(t), &limitFlags{})
	if err != nil {
		t.Fatal(err)
	}
	if p, m := sf.Rows[0], sf.Rows[1]; p.Bytes != len("{\n  \"a\": \"<b>&</b>\"\n}") || m.Bytes != len(`{"a":"<b>&</b>"}`) {
		t.Errorf("pretty %d bytes, minified %d bytes", p.Bytes, m.Bytes)
	}
}

func mustCounter(t *testing.T) *tokens.Counter {
	t.Helper()
	c, err := tokens.New(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
