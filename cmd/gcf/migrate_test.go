package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const v1Graph = "GCF tool=t budget=5 tokens=1 symbols=2\n## targets\n@0 fn a.A 0.9 lsp\n## related\n@1 fn a.B 0.50 x\n## edges\n@0<@1 calls\n"

// The v1 wire on the command line: decode -wire v1|auto, the v3 refusal,
// encode -wire v1, validate -wire v1 and migrate.
func TestWireV1(t *testing.T) {
	// The default v3 decoder refuses a v1 payload and says why.
	_, stderr, code := runCLI(t, v1Graph, "decode")
	if code != exitInvalid || !strings.Contains(stderr, "missing_profile") || !strings.Contains(stderr, "gcf migrate") {
		t.Fatalf("decode (v3) of v1: exit %d, stderr %q", code, stderr)
	}
	want := `{"tool":"t","tokensUsed":1,"tokenBudget":5,"packRoot":"","symbols":[{"qualifiedName":"a.A","kind":"function","score":0.9,"provenance":"lsp","distance":0},{"qualifiedName":"a.B","kind":"function","score":0.5,"provenance":"x","distance":1}],"edges":[{"source":"a.B","target":"a.A","edgeType":"calls","status":""}]}`
	out, stderr, code := runCLI(t, v1Graph, "decode", "-wire", "v1")
	if code != 0 || strings.TrimSpace(out) != want || stderr != "" {
		t.Fatalf("decode -wire v1: exit %d, out %q, stderr %q", code, out, stderr)
	}
	out, stderr, code = runCLI(t, v1Graph, "decode", "-wire", "auto")
	if code != 0 || strings.TrimSpace(out) != want || !strings.Contains(stderr, "decoding as GCF v1.x") {
		t.Fatalf("decode -wire auto: exit %d, out %q, stderr %q", code, out, stderr)
	}
	// migrate, then the v3 decoder gives the same JSON.
	v3, stderr, code := runCLI(t, v1Graph, "migrate")
	if code != 0 || !strings.HasPrefix(v3, "GCF profile=graph tool=t budget=5 tokens=1 symbols=2\n") {
		t.Fatalf("migrate: exit %d, out %q, stderr %q", code, v3, stderr)
	}
	out, stderr, code = runCLI(t, v3, "decode", "-wire", "auto")
	if code != 0 || strings.TrimSpace(out) != want || !strings.Contains(stderr, "decoding as GCF v3") {
		t.Fatalf("decode of the migrated payload: exit %d, out %q, stderr %q", code, out, stderr)
	}
	// What v3 cannot carry: exit 1, positioned, and -o leaves no file.
	dir := t.TempDir()
	dst := filepath.Join(dir, "out.gcf")
	_, stderr, code = runCLI(t, strings.Replace(v1Graph, "0.50", "0.125", 1), "migrate", "-o", dst)
	if code != exitInvalid || !strings.Contains(stderr, "<stdin>:5:11: invalid_score") {
		t.Fatalf("migrate 0.125: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(dst); err == nil {
		t.Fatal("a failed migrate left its -o file")
	}
	// encode -wire v1 of a graph, and of a generic value.
	out, _, code = runCLI(t, `{"tool":"t","symbols":[{"qualifiedName":"a.A","kind":"function","score":0.9,"provenance":"x","distance":0}],"edges":[]}`,
		"encode", "-q", "-profile", "graph", "-wire", "v1")
	if code != 0 || out != "GCF tool=t budget=0 tokens=0 symbols=1\n## targets\n@0 fn a.A 0.90 x\n" {
		t.Fatalf("encode -wire v1 graph: exit %d, out %q", code, out)
	}
	out, _, code = runCLI(t, `{"rows":[{"id":1,"n":"a b"}]}`, "encode", "-q", "-wire", "v1")
	if code != 0 || out != "## rows [1]{id,n}\n1|a b\n" {
		t.Fatalf("encode -wire v1 generic: exit %d, out %q", code, out)
	}
	// validate -wire v1 reports every problem.
	bad := "GCF tool=t\n## targets\n@0 fn a.A abc x\n@1 fn a.B\n"
	_, stderr, code = runCLI(t, bad, "validate", "-wire", "v1")
	if code != exitInvalid || !strings.Contains(stderr, "<stdin>:3:11: invalid_score") || !strings.Contains(stderr, "<stdin>:4:1: invalid_node_line") {
		t.Fatalf("validate -wire v1: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code = runCLI(t, v1Graph, "validate", "-wire", "v1"); code != 0 {
		t.Fatalf("validate -wire v1 of a valid payload: exit %d, stderr %q", code, stderr)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"decode", "-wire", "v2"},
		{"encode", "-wire", "auto"},
		{"validate", "-wire", "auto"},
		{"encode", "-stream", "-wire", "v1"},
		{"migrate", "a", "b"},
		{"migrate", "-json"},
	} {
		if out, stderr, code := runCLI(t, "", args...); code != exitUsage || out != "" || stderr == "" {
			t.Errorf("gcf %s: exit %d; want 2", strings.Join(args, " "), code)
		}
	}
}

// On the command line too, an empty v1 input is refused with the category
// v3 gives it, and a payload in the original v1 encoder's nested layout
// (object headers indented with their members) decodes, validates,
// migrates and is what encode -wire v1 writes.
func TestWireV1EmptyAndNested(t *testing.T) {
	for _, args := range [][]string{{"decode", "-wire", "v1"}, {"decode", "-wire", "auto"}, {"validate", "-wire", "v1"}, {"migrate"}, {"decode"}} {
		for _, in := range []string{"", "\n"} {
			_, stderr, code := runCLI(t, in, args...)
			if code != exitInvalid || !strings.Contains(stderr, "<stdin>:1:1: missing_header") {
				t.Errorf("%v of %q: exit %d, stderr %q", args, in, code, stderr)
			}
		}
	}
	const orig = "  ## svc\n  host=h\n    ## tls\n    on=true\n  ports[2]: 1,2\nn=1\n"
	const want = `{"svc":{"host":"h","tls":{"on":true},"ports":[1,2]},"n":1}`
	out, stderr, code := runCLI(t, orig, "decode", "-wire", "v1")
	if code != 0 || strings.TrimSpace(out) != want {
		t.Fatalf("decode -wire v1: exit %d, out %q, stderr %q", code, out, stderr)
	}
	if _, stderr, code = runCLI(t, orig, "validate", "-wire", "v1"); code != 0 {
		t.Fatalf("validate -wire v1: exit %d, stderr %q", code, stderr)
	}
	v3, stderr, code := runCLI(t, orig, "migrate")
	if code != 0 {
		t.Fatalf("migrate: exit %d, stderr %q", code, stderr)
	}
	if out, _, code = runCLI(t, v3, "decode"); code != 0 || strings.TrimSpace(out) != want {
		t.Fatalf("decode of the migrated payload: exit %d, out %q", code, out)
	}
	if out, _, code = runCLI(t, want, "encode", "-q", "-wire", "v1"); code != 0 || out != orig {
		t.Fatalf("encode -wire v1: exit %d, out %q, want %q", code, out, orig)
	}
}
