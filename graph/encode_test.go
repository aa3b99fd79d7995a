package graph

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

func TestGraphEncodeScoreRounding(t *testing.T) {
	cases := []struct {
		score float64
		want  string
	}{
		// Exact binary midpoints round half to even.
		{0.125, "0.12"},
		{0.625, "0.62"},
		{0.375, "0.38"},
		{0.875, "0.88"},
		{-0.125, "-0.12"},
		{-0.375, "-0.38"},
		// Not midpoints: the exact double decides.
		{0.005, "0.01"}, // 0.005000000000000000104...
		{0.015, "0.01"}, // 0.01499999999999999944...
		{2.675, "2.67"}, // 2.67499999999999982236...
		{1.005, "1.00"}, // 1.00499999999999989342...
		{0.78, "0.78"},
		{1, "1.00"},
		{0, "0.00"},
		{100, "100.00"},
		{0.999, "1.00"},
		{-1.5, "-1.50"},
		// Negative zero results are written as zero.
		{math.Copysign(0, -1), "0.00"},
		{-0.001, "0.00"},
		{1e21, "1000000000000000000000.00"},
	}
	for _, c := range cases {
		p := &Payload{Symbols: []Symbol{{QualifiedName: "q", Kind: "function", Score: c.score, Provenance: "p"}}}
		out, err := Encode(p)
		if err != nil {
			t.Fatalf("score %v: %v", c.score, err)
		}
		want := "GCF profile=graph symbols=1\n## targets\n@0 fn q " + c.want + " p\n"
		if string(out) != want {
			t.Errorf("score %v: got %q, want %q", c.score, out, want)
		}
	}
}

func TestGraphEncodeHeaderOmission(t *testing.T) {
	sym := []Symbol{{QualifiedName: "a.A", Kind: "type", Score: 0.5, Provenance: "x"}}
	cases := []struct {
		name string
		p    Payload
		want string
	}{
		{"empty", Payload{}, "GCF profile=graph symbols=0\n"},
		{"tool only", Payload{Tool: "t"}, "GCF profile=graph tool=t symbols=0\n"},
		{"zero counts omitted", Payload{Tool: "t", Symbols: sym}, "GCF profile=graph tool=t symbols=1\n## targets\n@0 type a.A 0.50 x\n"},
		{"budget only", Payload{TokenBudget: 10, Symbols: sym}, "GCF profile=graph budget=10 symbols=1\n## targets\n@0 type a.A 0.50 x\n"},
		{"tokens only", Payload{TokensUsed: 7}, "GCF profile=graph tokens=7 symbols=0\n"},
		{"all", Payload{Tool: "ctx", TokenBudget: 5000, TokensUsed: 12, PackRoot: "sha256:ab", Symbols: sym,
			Edges: []Edge{{Source: "a.A", Target: "a.A", EdgeType: "calls"}}},
			"GCF profile=graph tool=ctx budget=5000 tokens=12 symbols=1 edges=1 pack_root=sha256:ab\n## targets\n@0 type a.A 0.50 x\n## edges [1]\n@0<@0 calls\n"},
	}
	for _, c := range cases {
		out, err := Encode(&c.p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(out) != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, out, c.want)
		}
	}
}

func TestGraphEncodeGroupsAndOrder(t *testing.T) {
	p := &Payload{Symbols: []Symbol{
		{QualifiedName: "far7", Kind: "var", Score: 0.9, Provenance: "x", Distance: 7},
		{QualifiedName: "ext", Kind: "class", Score: 0.1, Provenance: "x", Distance: 2},
		{QualifiedName: "tieA", Kind: "function", Score: 0.5, Provenance: "x", Distance: 0},
		{QualifiedName: "far3", Kind: "package", Score: 0.2, Provenance: "x", Distance: 3},
		{QualifiedName: "top", Kind: "interface", Score: 0.95, Provenance: "x", Distance: 0},
		{QualifiedName: "tieB", Kind: "method", Score: 0.5, Provenance: "x", Distance: 0},
		{QualifiedName: "rel", Kind: "route_handler", Score: 0.3, Provenance: "x", Distance: 1},
	}}
	before := slices.Clone(p.Symbols)
	out, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=graph symbols=7\n" +
		"## targets\n@0 iface top 0.95 x\n@1 fn tieA 0.50 x\n@2 method tieB 0.50 x\n" +
		"## related\n@3 route rel 0.30 x\n" +
		"## extended\n@4 class ext 0.10 x\n" +
		"## distance_3\n@5 pkg far3 0.20 x\n" +
		"## distance_7\n@6 var far7 0.90 x\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if !reflect.DeepEqual(before, p.Symbols) {
		t.Error("Encode reordered the caller's symbols")
	}
}

func TestGraphEncodeEdgeOrdering(t *testing.T) {
	p := &Payload{
		Symbols: []Symbol{
			{QualifiedName: "A", Kind: "function", Score: 0.9, Provenance: "x"},
			{QualifiedName: "B", Kind: "function", Score: 0.8, Provenance: "x"},
			{QualifiedName: "C", Kind: "function", Score: 0.7, Provenance: "x"},
		},
		Edges: []Edge{
			{Source: "C", Target: "A", EdgeType: "calls"},
			{Source: "B", Target: "C", EdgeType: "references", Status: "removed"},
			{Source: "B", Target: "A", EdgeType: "imports"},
			{Source: "B", Target: "A", EdgeType: "calls", Status: "added"},
			{Source: "A", Target: "A", EdgeType: "calls"},
			{Source: "B", Target: "A", EdgeType: "calls"}, // tie with the added one: status orders them (no status first)
		},
	}
	out, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=graph symbols=3 edges=6\n## targets\n@0 fn A 0.90 x\n@1 fn B 0.80 x\n@2 fn C 0.70 x\n" +
		"## edges [6]\n@0<@0 calls\n@0<@1 calls\n@0<@1 calls added\n@0<@1 imports\n@2<@1 references removed\n@0<@2 calls\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestGraphEncodeDuplicateNameResolvesToFirstEmitted(t *testing.T) {
	// Two symbols share a qualified name; the edge resolves to the one
	// emitted first (the higher-scored function), so that decoding and
	// re-encoding resolve it the same way.
	p := &Payload{
		Symbols: []Symbol{
			{QualifiedName: "pkg.X", Kind: "type", Score: 0.1, Provenance: "x"},
			{QualifiedName: "pkg.X", Kind: "function", Score: 0.9, Provenance: "x"},
		},
		Edges: []Edge{{Source: "pkg.X", Target: "pkg.X", EdgeType: "self"}},
	}
	out, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=graph symbols=2 edges=1\n## targets\n@0 fn pkg.X 0.90 x\n@1 type pkg.X 0.10 x\n## edges [1]\n@0<@0 self\n"
	if string(out) != want {
		t.Errorf("got %q want %q", out, want)
	}
	back, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Encode(back)
	if err != nil || string(again) != want {
		t.Errorf("not a fixed point: %q (%v)", again, err)
	}
}

func TestGraphEncodeErrors(t *testing.T) {
	good := func() Payload {
		return Payload{
			Tool:    "t",
			Symbols: []Symbol{{QualifiedName: "a.A", Kind: "function", Score: 0.5, Provenance: "lsp"}, {QualifiedName: "a.B", Kind: "type", Score: 0.4, Provenance: "lsp", Distance: 1}},
			Edges:   []Edge{{Source: "a.B", Target: "a.A", EdgeType: "calls"}},
		}
	}
	cases := []struct {
		name string
		mut  func(p *Payload)
		cat  lexer.Category
	}{
		{"qname with space", func(p *Payload) { p.Symbols[0].QualifiedName = "a A" }, lexer.InvalidNodeLine},
		{"qname with tab", func(p *Payload) { p.Symbols[0].QualifiedName = "a\tA" }, lexer.InvalidNodeLine},
		{"qname with no-break space", func(p *Payload) { p.Symbols[0].QualifiedName = "a\u00a0A" }, lexer.InvalidNodeLine},
		{"qname with line separator", func(p *Payload) { p.Symbols[0].QualifiedName = "a\u2028A" }, lexer.InvalidNodeLine},
		{"qname with C1 control", func(p *Payload) { p.Symbols[0].QualifiedName = "a\u0085A" }, lexer.InvalidNodeLine},
		{"qname with DEL", func(p *Payload) { p.Symbols[0].QualifiedName = "a\x7fA" }, lexer.InvalidNodeLine},
		{"qname invalid UTF-8", func(p *Payload) { p.Symbols[0].QualifiedName = "a.\xff" }, lexer.InvalidUTF8},
		{"provenance invalid UTF-8", func(p *Payload) { p.Symbols[0].Provenance = "\xc3" }, lexer.InvalidUTF8},
		{"edge type with ideographic space", func(p *Payload) { p.Edges[0].EdgeType = "calls\u3000x" }, lexer.InvalidEdgeSyntax},
		{"empty qname", func(p *Payload) { p.Symbols[0].QualifiedName = "" }, lexer.InvalidNodeLine},
		{"empty provenance", func(p *Payload) { p.Symbols[1].Provenance = "" }, lexer.InvalidNodeLine},
		{"provenance with newline", func(p *Payload) { p.Symbols[1].Provenance = "a\nb" }, lexer.InvalidNodeLine},
		{"empty kind", func(p *Payload) { p.Symbols[0].Kind = "" }, lexer.InvalidNodeLine},
		{"kind with space", func(p *Payload) { p.Symbols[0].Kind = "my kind" }, lexer.InvalidNodeLine},
		{"kind not a bare key", func(p *Payload) { p.Symbols[0].Kind = "my-kind" }, lexer.InvalidNodeLine},
		{"NaN score", func(p *Payload) { p.Symbols[0].Score = math.NaN() }, lexer.OutOfRange},
		{"+Inf score", func(p *Payload) { p.Symbols[0].Score = math.Inf(1) }, lexer.OutOfRange},
		{"-Inf score", func(p *Payload) { p.Symbols[0].Score = math.Inf(-1) }, lexer.OutOfRange},
		{"negative distance", func(p *Payload) { p.Symbols[1].Distance = -1 }, lexer.InvalidNodeLine},
		{"tool with space", func(p *Payload) { p.Tool = "my tool" }, lexer.InvalidNodeLine},
		{"tool non-ASCII", func(p *Payload) { p.Tool = "tööl" }, lexer.InvalidNodeLine},
		{"pack root with space", func(p *Payload) { p.PackRoot = "sha256: x" }, lexer.InvalidNodeLine},
		{"negative budget", func(p *Payload) { p.TokenBudget = -1 }, lexer.OutOfRange},
		{"negative tokens", func(p *Payload) { p.TokensUsed = -1 }, lexer.OutOfRange},
		{"unknown source", func(p *Payload) { p.Edges[0].Source = "a.Z" }, lexer.UnknownEdgeReference},
		{"unknown target", func(p *Payload) { p.Edges[0].Target = "a.Z" }, lexer.UnknownEdgeReference},
		{"status with space", func(p *Payload) { p.Edges[0].Status = "chan ged" }, lexer.InvalidEdgeSyntax},
		{"status with control", func(p *Payload) { p.Edges[0].Status = "changed\x01" }, lexer.InvalidEdgeSyntax},
		{"empty edge type", func(p *Payload) { p.Edges[0].EdgeType = "" }, lexer.InvalidEdgeSyntax},
		{"edge type with space", func(p *Payload) { p.Edges[0].EdgeType = "calls x" }, lexer.InvalidEdgeSyntax},
	}
	for _, c := range cases {
		p := good()
		c.mut(&p)
		out, err := Encode(&p)
		if lexer.CategoryOf(err) != c.cat || out != nil {
			t.Errorf("%s: got (%q, %v), want category %s", c.name, out, err, c.cat)
		}
		var se *lexer.SyntaxError
		if err != nil && (!asSyntax(err, &se) || se.Line != 0) {
			t.Errorf("%s: want a positionless *lexer.SyntaxError, got %#v", c.name, err)
		}
		dst := []byte("prefix")
		got, err := AppendEncode(dst, &p)
		if err == nil || string(got) != "prefix" {
			t.Errorf("%s: AppendEncode returned (%q, %v)", c.name, got, err)
		}
	}
	if _, err := Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
	p := good()
	if _, err := Encode(&p); err != nil {
		t.Fatalf("good payload: %v", err)
	}
}

func asSyntax(err error, se **lexer.SyntaxError) bool {
	s, ok := err.(*lexer.SyntaxError)
	*se = s
	return ok
}

func TestGraphAppendEncode(t *testing.T) {
	p := &Payload{Tool: "t", Symbols: []Symbol{{QualifiedName: "q", Kind: "field", Score: 0.25, Provenance: "p"}}}
	want, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendEncode([]byte("x\n"), p)
	if err != nil || string(got) != "x\n"+string(want) {
		t.Fatalf("AppendEncode = %q, %v", got, err)
	}
}

func BenchmarkGraphEncode(b *testing.B) {
	p := &Payload{Tool: "bench", TokenBudget: 5000}
	for i := range 500 {
		p.Symbols = append(p.Symbols, Symbol{QualifiedName: "pkg.Sym" + strings.Repeat("x", i%7) + string(rune('a'+i%26)), Kind: "function",
			Score: float64(i%100) / 100, Provenance: "lsp_resolved", Distance: i % 4})
	}
	for i := range 400 {
		p.Edges = append(p.Edges, Edge{Source: p.Symbols[i].QualifiedName, Target: p.Symbols[(i*7)%500].QualifiedName, EdgeType: "calls"})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Encode(p); err != nil {
			b.Fatal(err)
		}
	}
}

// TestScoreFastPathMatchesStrconv: the FMA fast path formats exactly as
// strconv's %.2f (round half to even on the exact double), except that a
// negative zero is written 0.00.
func TestScoreFastPathMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, 0.125, 0.625, 0.375, 0.875, 1.005, 2.675, 0.285, 1.115, -0.125, -0.005, 0.005, 0.015, 0.025,
		99.995, 1e13 + 0.125, 1e13 + 0.375, 17592186044415.995, math.Nextafter(0.125, 1), math.Nextafter(0.125, 0)}
	for i := 0; i < 200000; i++ {
		switch i % 4 {
		case 0:
			vals = append(vals, r.Float64())
		case 1:
			vals = append(vals, float64(r.IntN(100000))/1000) // many exact thousandths, some midpoints
		case 2:
			vals = append(vals, (float64(r.IntN(2000000))+0.5)/100-10000)
		default:
			vals = append(vals, r.NormFloat64()*math.Pow(10, float64(r.IntN(16))))
		}
	}
	for _, v := range vals {
		want := strconv.FormatFloat(v, 'f', 2, 64)
		if want == "-0.00" {
			want = "0.00"
		}
		if got := string(AppendScore(nil, v)); got != want {
			t.Fatalf("score %v (%b): got %s want %s", v, math.Float64bits(v), got, want)
		}
	}
}

// TestKindTableRoundTrip: KindAbbrev and KindExpand agree with the SPEC §5
// table in both directions, and unknown kinds pass through.
func TestKindTableRoundTrip(t *testing.T) {
	for _, k := range kindTable {
		if got := KindAbbrev(k[0]); got != k[1] {
			t.Errorf("KindAbbrev(%q) = %q, want %q", k[0], got, k[1])
		}
		if got := KindExpand(k[1]); got != k[0] {
			t.Errorf("KindExpand(%q) = %q, want %q", k[1], got, k[0])
		}
	}
	if KindAbbrev("widget") != "widget" || KindExpand("widget") != "widget" {
		t.Error("unknown kinds must pass through")
	}
}

func TestDecodeKindTable(t *testing.T) {
	var g graphBuilder
	for _, k := range kindTable {
		if got := g.kind([]byte(k[1])); got != k[0] {
			t.Errorf("kind(%q) = %q, want %q", k[1], got, k[0])
		}
	}
	if g.kind([]byte("widget")) != "widget" {
		t.Error("unknown kinds pass through")
	}
}

// TestEdgeTypeCheckedEveryTime: skipping repeated edge-type checks never
// lets an invalid type through, first or later.
func TestEdgeTypeCheckedEveryTime(t *testing.T) {
	syms := []Symbol{{QualifiedName: "a.A", Kind: "function", Score: 0.5, Provenance: "x"}}
	for _, edges := range [][]Edge{
		{{Source: "a.A", Target: "a.A", EdgeType: ""}},
		{{Source: "a.A", Target: "a.A", EdgeType: "calls"}, {Source: "a.A", Target: "a.A", EdgeType: "bad type"}},
		{{Source: "a.A", Target: "a.A", EdgeType: "calls"}, {Source: "a.A", Target: "a.A", EdgeType: "calls", Status: "may be"}},
	} {
		if _, err := Encode(&Payload{Symbols: syms, Edges: edges}); lexer.CategoryOf(err) != lexer.InvalidEdgeSyntax {
			t.Errorf("edges %+v: want invalid_edge_syntax, got %v", edges, err)
		}
	}
}

// TestPooledScratchForgetsNames: the pooled name index of one encode never
// resolves an edge of the next.
func TestPooledScratchForgetsNames(t *testing.T) {
	a := &Payload{Symbols: []Symbol{{QualifiedName: "only.InA", Kind: "function", Score: 0.5, Provenance: "x"},
		{QualifiedName: "both.B", Kind: "function", Score: 0.4, Provenance: "x"}},
		Edges: []Edge{{Source: "only.InA", Target: "both.B", EdgeType: "calls"}}}
	for i := 0; i < 20; i++ {
		if _, err := Encode(a); err != nil {
			t.Fatal(err)
		}
		b := &Payload{Symbols: []Symbol{{QualifiedName: "both.B", Kind: "function", Score: 0.4, Provenance: "x"}},
			Edges: []Edge{{Source: "only.InA", Target: "both.B", EdgeType: "calls"}}}
		if _, err := Encode(b); lexer.CategoryOf(err) != lexer.UnknownEdgeReference {
			t.Fatalf("run %d: a stale name resolved: %v", i, err)
		}
	}
}

// TestGraphEncodeEdgesWithoutSymbols: a payload with edges and no symbols
// is unknown_edge_reference (the name join once indexed an empty array).
func TestGraphEncodeEdgesWithoutSymbols(t *testing.T) {
	p := &Payload{Edges: []Edge{{Source: "a", Target: "b", EdgeType: "calls"}}}
	if _, err := Encode(p); lexer.CategoryOf(err) != "unknown_edge_reference" {
		t.Fatalf("Encode = %v, want unknown_edge_reference", err)
	}
	p.Tool = "t"
	out, err := Encode(p, withWire(stream.WireV1))
	if err != nil || string(out) != "GCF tool=t budget=0 tokens=0 symbols=0 edges=0\n## edges [0]\n" {
		t.Fatalf("v1 Encode = %q, %v", out, err)
	}
}
