package graph

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// TestGraphEdgeJoin: edge resolution gives the same bytes whether names
// share hash keys often (2-bit keys) or rarely, with duplicate qualified
// names (the first in emission order wins), more distinct edge types than
// are numbered, statuses, and an unknown name still reported.
func TestGraphEdgeJoin(t *testing.T) {
	p := &Payload{}
	for i := range 300 {
		p.Symbols = append(p.Symbols, Symbol{
			QualifiedName: fmt.Sprintf("pkg.S%d", i%250), // 50 names twice
			Kind:          []string{"function", "type", "method"}[i%3],
			Score:         float64(i%17) / 100,
			Provenance:    "lsp",
			Distance:      i % 4,
		})
	}
	for i := range 2000 {
		e := Edge{
			Source:   fmt.Sprintf("pkg.S%d", (i*7)%250),
			Target:   fmt.Sprintf("pkg.S%d", (i*13)%250),
			EdgeType: fmt.Sprintf("t%d", i%90),
		}
		switch i % 5 {
		case 1:
			e.Status = "added"
		case 2:
			e.Status = "removed"
		}
		p.Edges = append(p.Edges, e)
	}
	want, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { grJoinKeyBits = 0 }()
	for _, kb := range []uint{1, 2, 5} {
		grJoinKeyBits = kb
		got, err := Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d-bit keys: output differs", kb)
		}
		back, err := Decode(got)
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Edges) != len(p.Edges) {
			t.Fatalf("%d edges back, want %d", len(back.Edges), len(p.Edges))
		}
		bad := *p
		bad.Edges = append([]Edge{}, p.Edges...)
		bad.Edges[1500].Target = "pkg.Missing"
		if _, err := Encode(&bad); lexer.CategoryOf(err) != "unknown_edge_reference" {
			t.Fatalf("%d-bit keys: missing target: %v", kb, err)
		}
	}
	grJoinKeyBits = 0
	// The reference result: a name resolves to its first symbol in emission
	// order. Decoding resolves by the same rule, so a round trip keeps the
	// pack root.
	back, err := Decode(want)
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := PackRoot(p)
	r2, _ := PackRoot(back)
	if r1 != r2 {
		t.Fatalf("pack roots differ: %s vs %s", r1, r2)
	}
}
