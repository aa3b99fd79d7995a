package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	oldOrders = `{"orders":[{"id":1001,"total":59.98,"status":"shipped","customer":"Alice"},{"id":1002,"total":29.99,"status":"pending","customer":"Bob"},{"id":1003,"total":129.50,"status":"shipped","customer":"Carol"}]}`
	newOrders = `{"orders":[{"id":1002,"total":29.99,"status":"shipped","customer":"Bob"},{"id":1003,"total":129.5,"status":"shipped","customer":"Carol"},{"id":1004,"total":75,"status":"pending","customer":"Dave"}]}`
	// The delta of SPEC §10a.2 and the generic-delta conformance fixtures.
	ordersDelta = "GCF profile=generic delta=true base_root=sha256:457e7c31e62e070a039b5cde9ea3edff6330e5913874e1165afddbcf6798eb7c new_root=sha256:ebe554601676e61cd522a5dc13d78499fd20e730353eb3e0b18c7fdc088f0f05 key=id\n" +
		"## added [1]{@id,total,status,customer}\n1004|75|pending|Dave\n## changed [1]{@id,total,status,customer}\n1002|29.99|shipped|Bob\n## removed [1]{@id}\n1001\n"
)

func TestDiffApplyGeneric(t *testing.T) {
	dir := t.TempDir()
	oldPath := writeFile(t, dir, "old.json", oldOrders)
	newPath := writeFile(t, dir, "new.json", newOrders)
	for _, args := range [][]string{
		{"diff", "-key", "id", oldPath, newPath},
		{"diff", oldPath, newPath, "--key", "id"}, // flags after the files, double dash
	} {
		out, stderr, code := runCLI(t, "", args...)
		if code != 0 || out != ordersDelta {
			t.Fatalf("gcf %s: exit %d, %s\n--- got\n%s--- want\n%s", strings.Join(args, " "), code, stderr, out, ordersDelta)
		}
	}
	deltaPath := writeFile(t, dir, "delta.gcf", ordersDelta)
	out, stderr, code := runCLI(t, "", "apply", oldPath, deltaPath)
	if code != 0 || out != newOrders+"\n" {
		t.Fatalf("apply: exit %d, %s\n got %s\nwant %s", code, stderr, out, newOrders)
	}
	// -o writes the file; a failed apply leaves it alone.
	dest := filepath.Join(dir, "out.json")
	if _, stderr, code := runCLI(t, "", "apply", "-o", dest, oldPath, deltaPath); code != 0 {
		t.Fatalf("apply -o: %d %s", code, stderr)
	}
	if b, _ := os.ReadFile(dest); string(b) != newOrders+"\n" {
		t.Fatalf("apply -o wrote %q", b)
	}
	for _, c := range []struct {
		name, delta, base, want string
	}{
		{"new_root mismatch", strings.Replace(ordersDelta, "1002|29.99|shipped", "1002|29.99|lost", 1), oldPath, "root_mismatch"},
		{"wrong base", ordersDelta, newPath, "root_mismatch"},
		{"identity twice", strings.Replace(ordersDelta, "\n1001\n", "\n1002\n", 1), oldPath, "delta.gcf:7:1: duplicate_key"},
		{"changed key absent", strings.Replace(ordersDelta, "base_root=sha256:457e7c31e62e070a039b5cde9ea3edff6330e5913874e1165afddbcf6798eb7c", "base_root=x", 1)[0:0] +
			"GCF profile=generic delta=true base_root=sha256:457e7c31e62e070a039b5cde9ea3edff6330e5913874e1165afddbcf6798eb7c new_root=x key=id\n## changed [1]{@id,total,status,customer}\n9|1|x|y\n", oldPath, "malformed_delta"},
	} {
		p := writeFile(t, dir, "delta.gcf", c.delta)
		out, stderr, code := runCLI(t, "", "apply", "-o", dest, c.base, p)
		if code != exitInvalid || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.name, code, out, stderr, c.want)
		}
		if b, _ := os.ReadFile(dest); string(b) != newOrders+"\n" {
			t.Errorf("%s: the failed apply changed -o's file: %q", c.name, b)
		}
	}
	// Usage errors.
	for _, args := range [][]string{
		{"diff", oldPath, newPath},                                    // no -key
		{"diff", "-key", "id", oldPath},                               // one file
		{"diff", "-profile", "graph", "-key", "id", oldPath, newPath}, // -key is generic
		{"apply", "-profile", "graph", oldPath, deltaPath},            // the delta is generic
		{"apply", oldPath},
	} {
		if _, stderr, code := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("gcf %s: exit %d (%s), want 2", strings.Join(args, " "), code, stderr)
		}
	}
	// A schema change has no delta.
	other := writeFile(t, dir, "other.json", `[{"id":1,"x":2}]`)
	if _, stderr, code := runCLI(t, "", "diff", "-key", "id", oldPath, other); code != exitInvalid || !strings.Contains(stderr, "invalid_schema") {
		t.Errorf("schema change: exit %d, %s", code, stderr)
	}
}

func TestDiffApplyGraph(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "examples", "graph.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	// The new payload drops the last symbol and its edges.
	syms := p["symbols"].([]any)
	last := syms[len(syms)-1].(map[string]any)["qualifiedName"]
	p["symbols"] = syms[:len(syms)-1]
	var edges []any
	for _, e := range p["edges"].([]any) {
		m := e.(map[string]any)
		if m["source"] != last && m["target"] != last {
			edges = append(edges, e)
		}
	}
	p["edges"] = edges
	next, _ := json.Marshal(p)
	oldPath := filepath.Join("..", "..", "testdata", "examples", "graph.json")
	newPath := writeFile(t, dir, "new.json", string(next))
	delta, stderr, code := runCLI(t, "", "diff", "-profile", "graph", oldPath, newPath)
	if code != 0 || !strings.HasPrefix(delta, "GCF profile=graph ") || !strings.Contains(delta, "## removed\n") {
		t.Fatalf("diff -profile graph: exit %d, %s\n%s", code, stderr, delta)
	}
	deltaPath := writeFile(t, dir, "delta.gcf", delta)
	out, stderr, code := runCLI(t, "", "apply", "-profile", "graph", oldPath, deltaPath)
	if code != 0 {
		t.Fatalf("apply -profile graph: exit %d, %s", code, stderr)
	}
	// The result encodes as the new payload does, with its verified pack_root.
	a, _, _ := runCLI(t, out, "encode", "-profile", "graph", "-q")
	a = regexp.MustCompile(` pack_root=sha256:[0-9a-f]{64}`).ReplaceAllString(a, "")
	b, _, _ := runCLI(t, "", "encode", "-profile", "graph", "-q", newPath)
	if a == "" || a != b {
		t.Fatalf("applied graph differs from the new payload\n--- applied\n%s--- new\n%s", a, b)
	}
	if _, stderr, code := runCLI(t, "", "apply", newPath, deltaPath); code != exitInvalid || !strings.Contains(stderr, "root_mismatch") {
		t.Fatalf("graph apply to the wrong base: exit %d, %s", code, stderr)
	}
}
