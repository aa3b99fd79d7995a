package gcf

import (
	"bytes"
	"strings"
	"testing"
)

// Graph names (qualified names, provenance, edge types) may hold any
// Unicode scalar value but whitespace and controls (brief rule 4, the
// official fixture graph-decode/004): every graph encoder writes them
// unchanged instead of refusing them as it did for non-ASCII.
func TestGraphEncodeNonASCIINames(t *testing.T) {
	p := &Payload{Symbols: []Symbol{
		{QualifiedName: "ௗpkg.handler", Kind: "function", Score: 0.9, Provenance: "ௗ"},
		{QualifiedName: "paquet.Café", Kind: "type", Score: 0.5, Provenance: "lsp", Distance: 1},
	}, Edges: []Edge{{Source: "paquet.Café", Target: "ௗpkg.handler", EdgeType: "appelle→"}}}
	want := "GCF profile=graph symbols=2 edges=1\n## targets\n@0 fn ௗpkg.handler 0.90 ௗ\n## related\n@1 type paquet.Café 0.50 lsp\n## edges [1]\n@0<@1 appelle→\n"
	out, err := Encode(p)
	if err != nil || string(out) != want {
		t.Fatalf("Encode: got %q, %v\nwant %q", out, err, want)
	}
	out, err = EncodeWithSession(p, NewSession())
	if err != nil || !strings.Contains(string(out), "@0 fn ௗpkg.handler 0.90 ௗ\n") {
		t.Fatalf("EncodeWithSession: got %q, %v", out, err)
	}
	d := &DeltaPayload{BaseRoot: "a", NewRoot: "b",
		Removed:    []Symbol{{Kind: "function", QualifiedName: "ancien.Ä"}},
		Added:      []Symbol{{QualifiedName: "ௗpkg.handler", Kind: "function", Score: 0.9, Provenance: "ௗ"}},
		AddedEdges: []Edge{{Source: "ௗpkg.handler", Target: "x.Ä", EdgeType: "→"}}}
	out, err = EncodeDelta(d)
	if err != nil || !strings.Contains(string(out), "fn ancien.Ä\n") || !strings.Contains(string(out), "ௗpkg.handler -> x.Ä →\n") {
		t.Fatalf("EncodeDelta: got %q, %v", out, err)
	}
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginGraph(GraphHeader{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Symbols {
		if _, err := e.WriteSymbol(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.WriteEdge(p.Edges[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WriteSymbol(Symbol{}); err == nil {
		t.Fatal("a symbol after an edge was accepted")
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "@0 fn ௗpkg.handler 0.90 ௗ\n") || !strings.Contains(buf.String(), "@0<@1 appelle→\n") {
		t.Fatalf("stream: %q", buf.String())
	}
}

// Whitespace, controls and invalid UTF-8 in names are refused by every
// graph encoder, with the byte offset.
func TestGraphEncodeBadNames(t *testing.T) {
	bad := []struct {
		name string
		cat  Category
		off  int64
	}{
		{"a b", InvalidNodeLine, 1},
		{"a\u3000b", InvalidNodeLine, 1},
		{"ௗ\u0085", InvalidNodeLine, 3},
		{"é\x01", InvalidNodeLine, 2},
		{"é\xff", InvalidUTF8, 2},
	}
	for _, c := range bad {
		p := &Payload{Symbols: []Symbol{{QualifiedName: c.name, Kind: "function", Score: 0.9, Provenance: "lsp"}}}
		_, err := Encode(p)
		var se *SyntaxError
		if !asSyntax(err, &se) || se.Category != c.cat || se.Offset != c.off {
			t.Errorf("Encode %q: got %v, want %s at offset %d", c.name, err, c.cat, c.off)
		}
		e := NewEncoder(&bytes.Buffer{})
		e.BeginGraph(GraphHeader{})
		if _, err := e.WriteSymbol(p.Symbols[0]); CategoryOf(err) != c.cat {
			t.Errorf("WriteSymbol %q: got %v, want %s", c.name, err, c.cat)
		}
		d := &DeltaPayload{BaseRoot: "a", NewRoot: "b", Removed: []Symbol{{Kind: "function", QualifiedName: c.name}}}
		if _, err := EncodeDelta(d); CategoryOf(err) != c.cat {
			t.Errorf("EncodeDelta %q: got %v, want %s", c.name, err, c.cat)
		}
	}
}

func asSyntax(err error, se **SyntaxError) bool {
	s, ok := err.(*SyntaxError)
	*se = s
	return ok
}
