package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func validateFiles(t *testing.T, files map[string]string, args ...string) (string, string, int) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, filepath.Join(dir, name))
	}
	var out, errb bytes.Buffer
	code := run(append([]string{"validate"}, args...), strings.NewReader(""), &out, &errb)
	trim := func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
	return trim(out.String()), trim(errb.String()), code
}

// TestValidateReportsEveryProblem: every problem is listed with its
// position and category, the line and a caret under the column, and the
// exit status is 1.
func TestValidateReportsEveryProblem(t *testing.T) {
	bad := "GCF profile=generic\na=1\na=2\nv=~\n## t [3]{x,x}\n1|2\n## u [1]{y}\n3\n"
	stdout, out, code := validateFiles(t, map[string]string{"bad.gcf": bad})
	if code != 1 || stdout != "" {
		t.Fatalf("code %d, stdout %q", code, stdout)
	}
	want := `bad.gcf:3:1: duplicate_key: duplicate key "a"
  a=2
  ^
bad.gcf:4:3: invalid_missing: ~ (missing) is valid only in tabular row cells
  v=~
    ^
bad.gcf:5:12: duplicate_field_name: duplicate field name "x"
  ## t [3]{x,x}
             ^
bad.gcf:7:1: count_mismatch: declared 3 rows but found 1
  ## u [1]{y}
  ^
`
	if out != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestValidateValidFiles(t *testing.T) {
	out, stderr, code := validateFiles(t, map[string]string{
		"a.gcf": "GCF profile=generic\n## t [2]{x,y}\n1|2\n3|4\n",
		"b.gcf": "GCF profile=graph symbols=1\n## targets\n@0 fn a.B 0.50 lsp\n",
	})
	if code != 0 || out != "" || stderr != "" {
		t.Fatalf("code %d, out %q, stderr %q", code, out, stderr)
	}
}

func TestValidateJSON(t *testing.T) {
	out, _, code := validateFiles(t, map[string]string{"g.gcf": "GCF profile=graph\n## edges [1]\n@0<@1 calls\n"}, "--json")
	if code != 1 {
		t.Fatalf("code %d", code)
	}
	var diags []diagnostic
	if err := json.Unmarshal([]byte(out), &diags); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(diags) != 1 || diags[0].Category != "unknown_edge_reference" || diags[0].Line != 3 || diags[0].Column != 2 ||
		!strings.HasSuffix(diags[0].File, "g.gcf") {
		t.Fatalf("diagnostics %+v", diags)
	}
	out, _, code = validateFiles(t, map[string]string{"ok.gcf": "GCF profile=generic\n=1\n"}, "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("valid file: code %d, %q", code, out)
	}
}

func TestValidateUsageAndMissingFile(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"validate", "--bogus"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Fatalf("bad flag: exit %d", code)
	}
	errb.Reset()
	if code := run([]string{"validate", filepath.Join(t.TempDir(), "nope.gcf")}, strings.NewReader(""), &out, &errb); code != exitIO || !strings.Contains(errb.String(), "nope.gcf") {
		t.Fatalf("missing file: exit %d, %q", code, errb.String())
	}
}
