package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mcpServersDir holds the npm packages the proxy tests install
// (testdata/mcp-servers/package.json), vega-datasets among them.
const mcpServersDir = "testdata/mcp-servers"

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	example := filepath.Join("..", "..", "testdata", "examples", "orders.json")
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	enc, stderr, code := runCLI(t, "", "encode", example)
	if code != 0 || !strings.HasPrefix(enc, "GCF profile=generic\n") {
		t.Fatalf("encode: code %d, stderr %q", code, stderr)
	}
	if want := "gcf: 904 bytes as minified JSON -> 646 bytes of GCF (258 bytes smaller, 28.5%)\n"; stderr != want {
		t.Fatalf("no size report on stderr: %q", stderr)
	}
	js, stderr, code := runCLI(t, enc, "decode")
	if code != 0 {
		t.Fatalf("decode: code %d, %s", code, stderr)
	}
	// Re-encoding the decoded JSON gives the same GCF.
	enc2, _, code := runCLI(t, js, "encode", "-q")
	if code != 0 || enc2 != enc {
		t.Fatalf("round trip differs:\n%s\n---\n%s", enc, enc2)
	}
	_ = data
}

func TestErrorsArePositioned(t *testing.T) {
	_, stderr, code := runCLI(t, "GCF profile=generic\n## rows [2]{id}\n1\n## more [1]{id}\n2\n", "decode")
	if code != 1 {
		t.Fatalf("exit code %d", code)
	}
	if want := "<stdin>:4:1: count_mismatch: "; !strings.HasPrefix(stderr, want) {
		t.Fatalf("stderr %q does not start with %q", stderr, want)
	}
	_, stderr, code = runCLI(t, `{"v": 9223372036854775808}`, "encode")
	if code != 1 || !strings.Contains(stderr, "out_of_range") {
		t.Fatalf("out of range: code %d, %q", code, stderr)
	}
}

func TestUsage(t *testing.T) {
	if _, _, code := runCLI(t, "", "bogus"); code != 2 {
		t.Fatalf("unknown command exit %d", code)
	}
	if _, _, code := runCLI(t, ""); code != 2 {
		t.Fatalf("no command exit %d", code)
	}
	if out, _, code := runCLI(t, "", "help"); code != 0 || !strings.Contains(out, "\tencode ") {
		t.Fatalf("help: %d %q", code, out)
	}
}

func TestGraphProfile(t *testing.T) {
	example := filepath.Join("..", "..", "testdata", "examples", "graph.json")
	enc, stderr, code := runCLI(t, "", "encode", "--profile", "graph", "-q", example)
	if code != 0 || !strings.HasPrefix(enc, "GCF profile=graph tool=context_for_task budget=5000 tokens=1847 symbols=4 edges=3\n") {
		t.Fatalf("encode graph: code %d, %s\n%s", code, stderr, enc)
	}
	js, stderr, code := runCLI(t, enc, "decode")
	if code != 0 || !strings.Contains(js, `"qualifiedName":"github.com/acme/api/auth.Authenticate","kind":"function"`) {
		t.Fatalf("decode graph: code %d, %s\n%s", code, stderr, js)
	}
	enc2, _, code := runCLI(t, js, "encode", "-profile", "graph", "-q")
	if code != 0 || enc2 != enc {
		t.Fatalf("graph round trip differs:\n%s\n---\n%s", enc, enc2)
	}
	_, stderr, code = runCLI(t, "GCF profile=graph\n## targets\n@0 fn a.B nope x\n", "decode")
	if code != 1 || !strings.HasPrefix(stderr, "<stdin>:3:11: invalid_score: ") {
		t.Fatalf("graph error: code %d, %q", code, stderr)
	}
}

func TestErrorShowsLineAndCaret(t *testing.T) {
	_, stderr, code := runCLI(t, "GCF profile=generic\nv=\"a\\qb\"\n", "decode")
	want := "<stdin>:2:5: invalid_escape: invalid escape sequence \\q\n  v=\"a\\qb\"\n      ^\n"
	if code != 1 || stderr != want {
		t.Fatalf("code %d, stderr:\n%q\nwant:\n%q", code, stderr, want)
	}
	// Control bytes in the echoed line are neutralised.
	_, stderr, _ = runCLI(t, "GCF profile=generic\nv=\"a\x01\"\n", "decode")
	if strings.ContainsRune(stderr, 0x01) {
		t.Fatalf("control byte echoed: %q", stderr)
	}
}
