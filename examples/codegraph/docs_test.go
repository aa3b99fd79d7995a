package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docs/mcp.md gives the size of this repository's graph as the server logs
// it ("N symbols, M edges"), to within a tenth: the repository grows.
func TestDocsGiveTheGraphSize(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`about ([0-9,]+) symbols and ([0-9,]+) edges`).FindStringSubmatch(strings.Join(strings.Fields(string(doc)), " "))
	if m == nil {
		t.Fatal(`docs/mcp.md does not say "about N symbols and M edges"`)
	}
	g, err := sharedRepoTools(t).graph()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		doc  string
		real int
	}{{"symbols", m[1], len(g.Nodes)}, {"edges", m[2], len(g.Edges)}} {
		n, _ := strconv.Atoi(strings.ReplaceAll(c.doc, ",", ""))
		if d := n - c.real; d*10 > c.real || -d*10 > c.real {
			t.Errorf("docs/mcp.md gives about %s %s; the server logs %d", c.doc, c.what, c.real)
		}
	}
}
