package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func refDir(t *testing.T) string {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "..", "shared", "reference", "wire")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("wire reference pack not found at %s", dir)
	}
	return dir
}

// TestScorecardUpToDate regenerates the scorecard in memory (never
// writing it) and compares it with the committed file.
func TestScorecardUpToDate(t *testing.T) {
	dir := refDir(t)
	text, err := generate(filepath.Join(dir, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("scorecard.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, []byte(text)) {
		t.Fatal("scorecard.md is out of date: run go -C bench/wire-format run .")
	}
}

// TestProductJSON: our rendering of the product's JSON export is
// byte-identical to its golden output, and the word-and-punctuation
// estimate gives its published counts.
func TestProductJSON(t *testing.T) {
	dir := refDir(t)
	cs, err := loadCases(filepath.Join(dir, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 6 {
		t.Fatalf("%d cases, want 6", len(cs))
	}
	approx := map[string]int{"01_context_for_task_small": 1347, "02_context_for_task_medium": 4132, "03_context_for_files": 2056,
		"04_blast_radius": 1223, "05_semantic_diff": 1868, "06_graph_query": 2782}
	for _, c := range cs {
		got, err := productJSON(c.p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(dir, "golden", c.name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: product JSON differs (%d vs %d bytes)", c.name, len(got), len(want))
		}
		if n := heuristicTokens(string(got)); n != approx[c.name] {
			t.Errorf("%s: estimate %d, product %d", c.name, n, approx[c.name])
		}
	}
}
