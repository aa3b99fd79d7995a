package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"regexp"
	"slices"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

func packTestBasic() *Payload {
	return &Payload{
		Symbols: []Symbol{
			{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.78, Provenance: "lsp_resolved", Distance: 0},
			{QualifiedName: "pkg.Server", Kind: "function", Score: 0.54, Provenance: "lsp_resolved", Distance: 1},
		},
		Edges: []Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}},
	}
}

func TestPackRootSpecValues(t *testing.T) {
	cases := []struct {
		name  string
		p     *Payload
		bytes string
		root  string
	}{
		{"basic", packTestBasic(),
			"S\tfn\tpkg.Auth\t0.78\tlsp_resolved\t0\nS\tfn\tpkg.Server\t0.54\tlsp_resolved\t1\nE\tfn\tpkg.Server\tfn\tpkg.Auth\tcalls\n",
			"sha256:8e6d32973b4005c604399a14faa32799d54f427800008312a3357c349d41e572"},
		{"empty", &Payload{}, "", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"nil", nil, "", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"integer score", &Payload{Symbols: []Symbol{{QualifiedName: "pkg.Main", Kind: "function", Score: 1.0, Provenance: "lsp_resolved"}}},
			"S\tfn\tpkg.Main\t1\tlsp_resolved\t0\n",
			"sha256:da39c1fb07913659a75865cf4afaa971683448625d19ac92c0303e90f678585f"},
	}
	for _, c := range cases {
		b, err := CanonicalPackBytes(c.p)
		if err != nil || string(b) != c.bytes {
			t.Errorf("%s: bytes %q, %v; want %q", c.name, b, err, c.bytes)
		}
		root, err := PackRoot(c.p)
		if err != nil || root != c.root {
			t.Errorf("%s: root %s, %v; want %s", c.name, root, err, c.root)
		}
	}
}

var packRootShape = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

func TestPackRootIsOrderIndependentAndLogical(t *testing.T) {
	p := &Payload{
		Tool: "x", TokensUsed: 5, PackRoot: "sha256:old",
		Symbols: []Symbol{
			{QualifiedName: "b.B", Kind: "type", Score: 1e-7, Provenance: "ast", Distance: 12, Signature: "sig", Components: &Components{Recency: 1}},
			{QualifiedName: "a.A", Kind: "route_handler", Score: -0.5, Provenance: "lsp", Distance: 0},
			{QualifiedName: "c.C", Kind: "widget", Score: 3e21, Provenance: "lsp", Distance: 2},
		},
		Edges: []Edge{
			{Source: "c.C", Target: "a.A", EdgeType: "calls", Status: "added"},
			{Source: "a.A", Target: "b.B", EdgeType: "uses"},
		},
	}
	b, err := CanonicalPackBytes(p)
	if err != nil {
		t.Fatal(err)
	}
	want := "S\troute\ta.A\t-0.5\tlsp\t0\n" +
		"S\ttype\tb.B\t1e-7\tast\t12\n" +
		"S\twidget\tc.C\t3e+21\tlsp\t2\n" +
		"E\troute\ta.A\ttype\tb.B\tuses\n" +
		"E\twidget\tc.C\troute\ta.A\tcalls\n"
	if string(b) != want {
		t.Fatalf("got\n%q\nwant\n%q", b, want)
	}
	root, _ := PackRoot(p)
	sum := sha256.Sum256([]byte(want))
	if root != "sha256:"+hex.EncodeToString(sum[:]) || !packRootShape.MatchString(root) {
		t.Fatalf("root %s", root)
	}
	q := &Payload{Symbols: slices.Clone(p.Symbols), Edges: slices.Clone(p.Edges)}
	slices.Reverse(q.Symbols)
	slices.Reverse(q.Edges)
	q.Edges[0].Status = ""
	q.Symbols[0].Signature = "other"
	if r, _ := PackRoot(q); r != root {
		t.Fatalf("reordered or metadata-changed graph: %s != %s", r, root)
	}
	q.Symbols[1].Score += 0.25
	if r, _ := PackRoot(q); r == root {
		t.Fatal("a score change kept the root")
	}
}

func TestPackRootKindDisambiguatesEdges(t *testing.T) {
	// Same qualified name, different kinds: edges resolve to the first
	// symbol with the name, and the kind enters the edge record.
	p := &Payload{
		Symbols: []Symbol{
			{QualifiedName: "x", Kind: "type", Score: 0.5, Provenance: "p"},
			{QualifiedName: "x", Kind: "function", Score: 0.5, Provenance: "p"},
		},
		Edges: []Edge{{Source: "x", Target: "x", EdgeType: "self"}},
	}
	b, err := CanonicalPackBytes(p)
	if err != nil {
		t.Fatal(err)
	}
	want := "S\tfn\tx\t0.5\tp\t0\nS\ttype\tx\t0.5\tp\t0\nE\ttype\tx\ttype\tx\tself\n"
	if string(b) != want {
		t.Fatalf("got %q", b)
	}
}

func TestPackRootErrors(t *testing.T) {
	cases := []struct {
		name string
		mut  func(p *Payload)
		cat  lexer.Category
	}{
		{"invalid UTF-8 qname", func(p *Payload) { p.Symbols[0].QualifiedName = "pkg.\xff" }, lexer.InvalidUTF8},
		{"invalid UTF-8 kind", func(p *Payload) { p.Symbols[1].Kind = "\xc3" }, lexer.InvalidUTF8},
		{"invalid UTF-8 provenance", func(p *Payload) { p.Symbols[1].Provenance = "a\xed\xa0\x80" }, lexer.InvalidUTF8},
		{"invalid UTF-8 edge type", func(p *Payload) { p.Edges[0].EdgeType = "\x80" }, lexer.InvalidUTF8},
		{"NaN", func(p *Payload) { p.Symbols[0].Score = math.NaN() }, lexer.OutOfRange},
		{"Inf", func(p *Payload) { p.Symbols[0].Score = math.Inf(-1) }, lexer.OutOfRange},
		{"negative distance", func(p *Payload) { p.Symbols[0].Distance = -3 }, lexer.InvalidNodeLine},
		{"unknown source", func(p *Payload) { p.Edges[0].Source = "pkg.Nope" }, lexer.UnknownEdgeReference},
		{"unknown target", func(p *Payload) { p.Edges[0].Target = "pkg.Nope" }, lexer.UnknownEdgeReference},
	}
	for _, c := range cases {
		p := packTestBasic()
		c.mut(p)
		if root, err := PackRoot(p); lexer.CategoryOf(err) != c.cat || root != "" {
			t.Errorf("%s: got %q, %v; want %s", c.name, root, err, c.cat)
		}
		if b, err := CanonicalPackBytes(p); lexer.CategoryOf(err) != c.cat || b != nil {
			t.Errorf("%s: CanonicalPackBytes got %q, %v", c.name, b, err)
		}
	}
	// Valid non-ASCII UTF-8 is hashed as is.
	p := packTestBasic()
	p.Symbols[0].Provenance = "résolu"
	if _, err := PackRoot(p); err != nil {
		t.Fatal(err)
	}
}
