package gcf

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestGraphStreamSpecExample(t *testing.T) {
	// SPEC §8.7.
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginGraph(GraphHeader{Tool: "context_for_task", TokenBudget: 5000}); err != nil {
		t.Fatal(err)
	}
	for i, s := range []Symbol{
		{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.95, Provenance: "lsp_resolved"},
		{QualifiedName: "pkg.Handler", Kind: "function", Score: 0.88, Provenance: "lsp_resolved"},
		{QualifiedName: "pkg.Config", Kind: "type", Score: 0.72, Provenance: "ast_inferred", Distance: 1},
	} {
		id, err := e.WriteSymbol(s)
		if err != nil || id != i {
			t.Fatalf("WriteSymbol %d = %d, %v", i, id, err)
		}
	}
	for _, ed := range []Edge{
		{Source: "pkg.Handler", Target: "pkg.Auth", EdgeType: "calls"},
		{Source: "pkg.Auth", Target: "pkg.Config", EdgeType: "references"},
		{Source: "pkg.Config", Target: "pkg.Auth", EdgeType: "imports"},
	} {
		if err := e.WriteEdge(ed); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=graph tool=context_for_task budget=5000\n## targets\n@0 fn pkg.Auth 0.95 lsp_resolved\n@1 fn pkg.Handler 0.88 lsp_resolved\n## related\n@2 type pkg.Config 0.72 ast_inferred\n## edges [?]\n@0<@1 calls\n@2<@0 references\n@0<@2 imports\n##! summary symbols=3 edges=3 counts=2,1,3\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := e.WriteSymbol(Symbol{QualifiedName: "x", Kind: "fn", Provenance: "p"}); err == nil {
		t.Error("WriteSymbol after Close succeeded")
	}
}

func TestGraphStreamEmptyAndHeaders(t *testing.T) {
	cases := []struct {
		h    GraphHeader
		want string
	}{
		{GraphHeader{}, "GCF profile=graph\n##! summary symbols=0 edges=0 counts=0\n"},
		{GraphHeader{LabeledCounts: true}, "GCF profile=graph\n##! summary symbols=0 edges=0 counts=edges:0\n"},
		{GraphHeader{Tool: "t", TokensUsed: 9}, "GCF profile=graph tool=t tokens=9\n##! summary symbols=0 edges=0 counts=0\n"},
		{GraphHeader{Tool: "t", TokenBudget: 1, TokensUsed: 2}, "GCF profile=graph tool=t budget=1 tokens=2\n##! summary symbols=0 edges=0 counts=0\n"},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		e := NewEncoder(&buf)
		if err := e.BeginGraph(c.h); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("%+v: got %q want %q", c.h, buf.String(), c.want)
		}
	}
	for _, h := range []GraphHeader{{Tool: "a b"}, {TokenBudget: -1}, {TokensUsed: -1}} {
		if err := NewEncoder(&bytes.Buffer{}).BeginGraph(h); err == nil {
			t.Errorf("%+v accepted", h)
		}
	}
}

func TestGraphStreamDistanceGroupsWithGaps(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginGraph(GraphHeader{LabeledCounts: true}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []Symbol{
		{QualifiedName: "r", Kind: "function", Score: 0.1, Provenance: "p", Distance: 1},
		{QualifiedName: "r2", Kind: "function", Score: 0.9, Provenance: "p", Distance: 1}, // producer order kept
		{QualifiedName: "f", Kind: "package", Score: 0.5, Provenance: "p", Distance: 9},
	} {
		if _, err := e.WriteSymbol(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=graph\n## related\n@0 fn r 0.10 p\n@1 fn r2 0.90 p\n## distance_9\n@2 pkg f 0.50 p\n##! summary symbols=3 edges=0 counts=related:2,distance_9:1,edges:0\n"
	if buf.String() != want {
		t.Errorf("got %q want %q", buf.String(), want)
	}
}

// TestGraphStreamErrorsLeaveOutputUnchanged interleaves failing calls with
// good ones: the output is exactly what the good calls alone produce.
func TestGraphStreamErrorsLeaveOutputUnchanged(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if _, err := e.WriteSymbol(Symbol{QualifiedName: "a", Kind: "function", Provenance: "p"}); CategoryOf(err) != InvalidSchema {
		t.Fatalf("WriteSymbol before BeginGraph: %v", err)
	}
	if err := e.WriteEdge(Edge{Source: "a", Target: "a", EdgeType: "x"}); CategoryOf(err) != InvalidSchema {
		t.Fatalf("WriteEdge before BeginGraph: %v", err)
	}
	if err := e.BeginGraph(GraphHeader{Tool: "t"}); err != nil {
		t.Fatal(err)
	}
	if err := e.BeginGraph(GraphHeader{Tool: "t"}); CategoryOf(err) != InvalidSchema {
		t.Fatalf("second BeginGraph: %v", err)
	}
	good := func(q string, d int) {
		t.Helper()
		if _, err := e.WriteSymbol(Symbol{QualifiedName: q, Kind: "function", Score: 0.5, Provenance: "p", Distance: d}); err != nil {
			t.Fatal(err)
		}
	}
	good("a", 1)
	bad := []struct {
		s   Symbol
		cat Category
	}{
		{Symbol{QualifiedName: "z", Kind: "function", Score: 0.5, Provenance: "p", Distance: 0}, InvalidSchema}, // lower distance
		{Symbol{QualifiedName: "z z", Kind: "function", Score: 0.5, Provenance: "p", Distance: 2}, InvalidNodeLine},
		{Symbol{QualifiedName: "z", Kind: "function", Score: math.NaN(), Provenance: "p", Distance: 2}, OutOfRange},
		{Symbol{QualifiedName: "z", Kind: "function", Score: 0.5, Provenance: "", Distance: 2}, InvalidNodeLine},
		{Symbol{QualifiedName: "z", Kind: "function", Score: 0.5, Provenance: "p", Distance: -1}, InvalidNodeLine},
	}
	for _, b := range bad {
		if _, err := e.WriteSymbol(b.s); CategoryOf(err) != b.cat {
			t.Errorf("%+v: %v, want %s", b.s, err, b.cat)
		}
	}
	good("b", 2)
	for _, name := range []string{"WriteField", "BeginTable", "WriteRow", "EndTable", "Encode"} {
		var err error
		switch name {
		case "WriteField":
			err = e.WriteField("k", 1)
		case "BeginTable":
			err = e.BeginTable("t", "a")
		case "WriteRow":
			err = e.WriteRow(1)
		case "EndTable":
			err = e.EndTable()
		case "Encode":
			err = e.Encode(map[string]any{})
		}
		if CategoryOf(err) != InvalidSchema {
			t.Errorf("%s in graph mode: %v", name, err)
		}
	}
	if err := e.WriteEdge(Edge{Source: "b", Target: "nope", EdgeType: "calls"}); CategoryOf(err) != UnknownEdgeReference {
		t.Errorf("unknown target: %v", err)
	}
	if err := e.WriteEdge(Edge{Source: "nope", Target: "a", EdgeType: "calls"}); CategoryOf(err) != UnknownEdgeReference {
		t.Errorf("unknown source: %v", err)
	}
	if err := e.WriteEdge(Edge{Source: "b", Target: "a", EdgeType: "calls", Status: "bo gus"}); CategoryOf(err) != InvalidEdgeSyntax {
		t.Errorf("bad status: %v", err)
	}
	if err := e.WriteEdge(Edge{Source: "b", Target: "a", EdgeType: "calls", Status: "removed"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WriteSymbol(Symbol{QualifiedName: "c", Kind: "function", Score: 0.5, Provenance: "p", Distance: 2}); CategoryOf(err) != InvalidSchema {
		t.Errorf("symbol after edge: %v", err)
	}
	if err := e.WriteEdge(Edge{Source: "a", Target: "b", EdgeType: "uses"}); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=graph tool=t\n## related\n@0 fn a 0.50 p\n## extended\n@1 fn b 0.50 p\n## edges [?]\n@0<@1 calls removed\n@1<@0 uses\n##! summary symbols=2 edges=2 counts=1,1,2\n"
	if buf.String() != want {
		t.Errorf("got\n%q\nwant\n%q", buf.String(), want)
	}
}

func TestGraphStreamRejectedAfterGeneric(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.WriteField("a", 1); err != nil {
		t.Fatal(err)
	}
	if err := e.BeginGraph(GraphHeader{}); CategoryOf(err) != InvalidSchema {
		t.Fatalf("BeginGraph after a generic field: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "GCF profile=generic\na=1\n" {
		t.Fatalf("got %q", buf.String())
	}
}

// TestGraphStreamMatchesBuffered checks that a stream fed in canonical order
// carries the same body as the buffered encoding.
func TestGraphStreamMatchesBuffered(t *testing.T) {
	p := &Payload{Tool: "t", TokenBudget: 100}
	for i := range 50 {
		p.Symbols = append(p.Symbols, Symbol{QualifiedName: "pkg.S" + string(rune('A'+i%26)) + strings.Repeat("x", i/26),
			Kind: []string{"function", "type", "method"}[i%3], Score: float64((i*37)%100) / 100, Provenance: "lsp", Distance: i % 5})
	}
	buffered, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	streamed, err := gfxStream(p, false)
	if err != nil {
		t.Fatal(err)
	}
	bl := strings.Split(string(buffered), "\n")
	sl := strings.Split(streamed, "\n")
	// Same node lines and group headers; only the header and trailer differ.
	if strings.Join(bl[1:], "\n") != strings.Join(sl[1:len(sl)-2], "\n")+"\n" {
		t.Fatalf("bodies differ:\n%s\n---\n%s", buffered, streamed)
	}
	if !strings.HasPrefix(sl[len(sl)-2], "##! summary symbols=50 edges=0 counts=10,10,10,10,10,0") {
		t.Fatalf("trailer %q", sl[len(sl)-2])
	}
}

func TestGraphStreamEdgesByID(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginGraph(GraphHeader{Tool: "t", EdgesByID: true}); err != nil {
		t.Fatal(err)
	}
	a, _ := e.WriteSymbol(Symbol{QualifiedName: "a.F", Kind: "function", Score: 0.5, Provenance: "p"})
	b, _ := e.WriteSymbol(Symbol{QualifiedName: "a.G", Kind: "function", Score: 0.25, Provenance: "p", Distance: 1})
	if err := e.WriteEdge(Edge{Source: "a.F", Target: "a.G", EdgeType: "calls"}); CategoryOf(err) != InvalidSchema {
		t.Fatalf("WriteEdge by name with EdgesByID: %v", err)
	}
	if err := e.WriteEdgeByID(a, 2, "calls", ""); CategoryOf(err) != UnknownEdgeReference {
		t.Fatalf("unknown target: %v", err)
	}
	if err := e.WriteEdgeByID(a, b, "bad type", ""); CategoryOf(err) != InvalidEdgeSyntax {
		t.Fatalf("bad type: %v", err)
	}
	if err := e.WriteEdgeByID(a, b, "calls", "go\u00a0ne"); CategoryOf(err) != InvalidEdgeSyntax {
		t.Fatalf("bad status: %v", err)
	}
	if err := e.WriteEdgeByID(a, b, "calls", "added"); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { e.WriteEdgeByID(b, a, "refs", "") }); n != 0 {
		t.Fatalf("WriteEdgeByID allocates %v times", n)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	p, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if p.Edges[0] != (Edge{Source: "a.F", Target: "a.G", EdgeType: "calls", Status: "added"}) || len(p.Edges) != 102 {
		t.Fatalf("edges %+v", p.Edges[:1])
	}
}
