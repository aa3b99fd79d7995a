package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// The table over testdata/corpus: a header, one row per document and a
// total, with every encoding checked by measureDoc (decodes back; no
// constant at v3.5.3).
func TestCorpusTable(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "testdata", "corpus")
	docs, notes, err := collect(dir, filepath.Join(t.TempDir(), "absent"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(docs) != len(files) || len(files) == 0 {
		t.Fatalf("%d documents from %d files", len(docs), len(files))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "vega-datasets: not measured") {
		t.Errorf("notes %q", notes)
	}
	text, err := table(docs, true)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != len(docs)+3 || !strings.HasPrefix(lines[0], "| document | minified JSON | GCF v3.5.3 | GCF v3.6.0 |") ||
		!strings.HasPrefix(lines[len(lines)-1], "| **total, 8 documents** |") {
		t.Fatalf("table:\n%s", text)
	}
	for _, l := range lines[2:] {
		if strings.Count(l, "|") != 10 {
			t.Errorf("row %q has not 9 cells", l)
		}
	}
	t.Logf("\n%s", text)
}

// A table with a constant column is measured; its v3.5.3 encoding is
// checked to declare no constant.
func TestMeasureConstantColumn(t *testing.T) {
	v, err := gcf.ParseJSON([]byte(`[{"id":1,"region":"us-east","n":"a"},{"id":2,"region":"us-east","n":"b"},{"id":3,"region":"us-east","n":"c"}]`))
	if err != nil {
		t.Fatal(err)
	}
	text, err := table([]doc{{"t", v}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.Split(text, "\n")[2], "| t | ") {
		t.Errorf("table:\n%s", text)
	}
}

func TestCSVRecordsAndFormats(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte("x,y\n1,b\n2,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, _, err := collect(filepath.Join(dir, "none"), dir, 1<<20)
	if err != nil || len(docs) != 1 || docs[0].name != "vega/a.csv" {
		t.Fatalf("%v %v", docs, err)
	}
	if j, _ := gcf.ToJSON(docs[0].v); string(j) != `[{"x":"1","y":"b"},{"x":"2","y":"b"}]` {
		t.Errorf("csv as %s", j)
	}
	for _, tc := range []struct{ got, want string }{
		{thousands(0), "0"}, {thousands(999), "999"}, {thousands(1000), "1,000"}, {thousands(1234567), "1,234,567"},
		{change(90, 100), "−10.0%"}, {change(110, 100), "+10.0%"}, {change(100, 100), "0.0%"}, {change(1, 0), "-"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if !same(gcf.Object{{Key: "a", Value: int64(1)}, {Key: "b", Value: "x"}}, gcf.Object{{Key: "b", Value: "x"}, {Key: "a", Value: 1.0}}) ||
		same(gcf.Object{{Key: "a", Value: int64(1)}}, gcf.Object{{Key: "a", Value: "1"}}) {
		t.Error("same")
	}
}
