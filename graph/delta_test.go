package graph

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

func TestEncodeDeltaAllSections(t *testing.T) {
	d := &DeltaPayload{
		Tool:     "context_for_task",
		BaseRoot: "sha256:aa",
		NewRoot:  "sha256:bb",
		Removed:  []Symbol{{QualifiedName: "pkg.Old", Kind: "function"}, {QualifiedName: "pkg.T", Kind: "interface"}},
		Added: []Symbol{
			{QualifiedName: "pkg.New", Kind: "function", Score: 0.125, Provenance: "rwr", Distance: 3},
			{QualifiedName: "pkg.W", Kind: "widget", Score: 1, Provenance: "ast"},
		},
		RemovedEdges: []Edge{{Source: "pkg.Router", Target: "pkg.Old", EdgeType: "calls"}},
		AddedEdges:   []Edge{{Source: "pkg.Router", Target: "pkg.New", EdgeType: "calls", Status: "added"}, {Source: "pkg.New", Target: "pkg.W", EdgeType: "uses"}},
		DeltaTokens:  30,
		FullTokens:   160,
	}
	out, err := EncodeDelta(d)
	if err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=graph tool=context_for_task delta=true base_root=sha256:aa new_root=sha256:bb tokens=30 savings=81%\n" +
		"## removed\nfn pkg.Old\niface pkg.T\n" +
		"## added\n@0 fn pkg.New 0.12 rwr 3\n@1 widget pkg.W 1.00 ast 0\n" +
		"## edges_removed\npkg.Router -> pkg.Old calls\n" +
		"## edges_added\npkg.Router -> pkg.New calls\npkg.New -> pkg.W uses\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// The whole delta survives the wire, roots included, except what the
	// wire does not carry (see deltaAsWire).
	back, err := DecodeDelta(out)
	if err != nil {
		t.Fatal(err)
	}
	if w := deltaAsWire(d); !reflect.DeepEqual(back, w) {
		t.Errorf("decode(encode(d))\n got %+v\nwant %+v", back, w)
	}
	if back.BaseRoot != "sha256:aa" || back.NewRoot != "sha256:bb" || back.Added[0].Score != 0.12 {
		t.Errorf("roots or score: %+v", back)
	}
}

func TestEncodeDeltaHeaderTokens(t *testing.T) {
	cases := []struct {
		delta, full int
		want        string
	}{
		{30, 200, " tokens=30 savings=85%"},
		{1, 8, " tokens=1 savings=88%"}, // 87.5 rounds half away from zero
		{1, 3, " tokens=1 savings=67%"},
		{2, 3, " tokens=2 savings=33%"},
		{0, 0, ""},
		{30, 0, " tokens=30"},
		{0, 50, " savings=100%"},
		{60, 50, " tokens=60 savings=-20%"},
	}
	for _, c := range cases {
		d := &DeltaPayload{BaseRoot: "a", NewRoot: "b", DeltaTokens: c.delta, FullTokens: c.full}
		out, err := EncodeDelta(d)
		if err != nil {
			t.Fatal(err)
		}
		want := "GCF profile=graph delta=true base_root=a new_root=b" + c.want + "\n"
		if string(out) != want {
			t.Errorf("%d/%d: got %q want %q", c.delta, c.full, out, want)
		}
	}
}

func TestEncodeDeltaErrors(t *testing.T) {
	good := func() DeltaPayload {
		return DeltaPayload{BaseRoot: "a", NewRoot: "b",
			Removed:      []Symbol{{QualifiedName: "x", Kind: "function"}},
			Added:        []Symbol{{QualifiedName: "y", Kind: "function", Score: 0.5, Provenance: "p"}},
			RemovedEdges: []Edge{{Source: "x", Target: "z", EdgeType: "calls"}},
			AddedEdges:   []Edge{{Source: "y", Target: "z", EdgeType: "calls"}}}
	}
	cases := []struct {
		name string
		mut  func(d *DeltaPayload)
		cat  lexer.Category
	}{
		{"empty base root", func(d *DeltaPayload) { d.BaseRoot = "" }, lexer.MalformedDelta},
		{"new root with space", func(d *DeltaPayload) { d.NewRoot = "b c" }, lexer.MalformedDelta},
		{"tool with space", func(d *DeltaPayload) { d.Tool = "a b" }, lexer.InvalidNodeLine},
		{"negative tokens", func(d *DeltaPayload) { d.DeltaTokens = -1 }, lexer.OutOfRange},
		{"removed qname space", func(d *DeltaPayload) { d.Removed[0].QualifiedName = "x y" }, lexer.InvalidNodeLine},
		{"removed empty kind", func(d *DeltaPayload) { d.Removed[0].Kind = "" }, lexer.InvalidNodeLine},
		{"added NaN", func(d *DeltaPayload) { d.Added[0].Score = math.NaN() }, lexer.OutOfRange},
		{"added negative distance", func(d *DeltaPayload) { d.Added[0].Distance = -2 }, lexer.InvalidNodeLine},
		{"added empty provenance", func(d *DeltaPayload) { d.Added[0].Provenance = "" }, lexer.InvalidNodeLine},
		{"edge endpoint space", func(d *DeltaPayload) { d.AddedEdges[0].Target = "z z" }, lexer.InvalidEdgeSyntax},
		{"edge type empty", func(d *DeltaPayload) { d.RemovedEdges[0].EdgeType = "" }, lexer.InvalidEdgeSyntax},
		{"contradictory status", func(d *DeltaPayload) { d.AddedEdges[0].Status = "removed" }, lexer.MalformedDelta},
	}
	for _, c := range cases {
		d := good()
		c.mut(&d)
		out, err := EncodeDelta(&d)
		if lexer.CategoryOf(err) != c.cat || out != nil {
			t.Errorf("%s: got (%q, %v), want %s", c.name, out, err, c.cat)
		}
	}
	if _, err := EncodeDelta(nil); lexer.CategoryOf(err) != lexer.MalformedDelta {
		t.Errorf("nil: %v", err)
	}
}

// Fixture graph-delta/002 as a model: remove Server, add Handler, move the edge.
func deltaTestBase() *Payload {
	return &Payload{
		Tool: "test",
		Symbols: []Symbol{
			{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.78, Provenance: "lsp_resolved", Distance: 0,
				Components: &Components{BlastRadius: 1, Confidence: 0.5}},
			{QualifiedName: "pkg.Server", Kind: "function", Score: 0.54, Provenance: "lsp_resolved", Distance: 1},
		},
		Edges: []Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}},
	}
}

func deltaTestDelta() *DeltaPayload {
	return &DeltaPayload{
		Tool:         "test",
		BaseRoot:     "sha256:8e6d32973b4005c604399a14faa32799d54f427800008312a3357c349d41e572",
		NewRoot:      "sha256:209fa026484529cc94ab00667a30bfa2951cb66e4bfeb237bbd528a9c640513d",
		Removed:      []Symbol{{QualifiedName: "pkg.Server", Kind: "function"}},
		Added:        []Symbol{{QualifiedName: "pkg.Handler", Kind: "function", Score: 0.85, Provenance: "lsp_resolved", Distance: 1}},
		RemovedEdges: []Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}},
		AddedEdges:   []Edge{{Source: "pkg.Handler", Target: "pkg.Auth", EdgeType: "calls"}},
	}
}

func deltaTestClone(p *Payload) *Payload {
	c := *p
	c.Symbols = make([]Symbol, len(p.Symbols))
	for i := range p.Symbols {
		c.Symbols[i] = dlCopySymbol(&p.Symbols[i])
	}
	c.Edges = append([]Edge(nil), p.Edges...)
	return &c
}

func TestApplyDeltaVerified(t *testing.T) {
	base := deltaTestBase()
	snap := deltaTestClone(base)
	res, err := ApplyDelta(base, deltaTestDelta())
	if err != nil {
		t.Fatal(err)
	}
	want := &Payload{
		Tool:     "test",
		PackRoot: "sha256:209fa026484529cc94ab00667a30bfa2951cb66e4bfeb237bbd528a9c640513d",
		Symbols: []Symbol{
			{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.78, Provenance: "lsp_resolved", Distance: 0,
				Components: &Components{BlastRadius: 1, Confidence: 0.5}},
			{QualifiedName: "pkg.Handler", Kind: "function", Score: 0.85, Provenance: "lsp_resolved", Distance: 1},
		},
		Edges: []Edge{{Source: "pkg.Handler", Target: "pkg.Auth", EdgeType: "calls"}},
	}
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("got %+v\nwant %+v", res, want)
	}
	if !reflect.DeepEqual(base, snap) {
		t.Fatal("ApplyDelta modified the base")
	}
	res.Symbols[0].Components.BlastRadius = 99
	if base.Symbols[0].Components.BlastRadius != 1 {
		t.Fatal("the result shares Components with the base")
	}
	// Without roots no verification happens and PackRoot stays empty.
	d := deltaTestDelta()
	d.BaseRoot, d.NewRoot = "", ""
	res, err = ApplyDelta(base, d)
	if err != nil || res.PackRoot != "" || len(res.Symbols) != 2 {
		t.Fatalf("unverified apply: %+v, %v", res, err)
	}
}

func TestApplyDeltaRootMismatch(t *testing.T) {
	base := deltaTestBase()
	snap := deltaTestClone(base)
	d := deltaTestDelta()
	d.NewRoot = "sha256:" + strings.Repeat("0", 64)
	if res, err := ApplyDelta(base, d); lexer.CategoryOf(err) != RootMismatch || res != nil {
		t.Fatalf("new root: got %v, %v", res, err)
	}
	d = deltaTestDelta()
	d.BaseRoot = "sha256:" + strings.Repeat("1", 64)
	if res, err := ApplyDelta(base, d); lexer.CategoryOf(err) != RootMismatch || res != nil {
		t.Fatalf("base root: got %v, %v", res, err)
	}
	if !reflect.DeepEqual(base, snap) {
		t.Fatal("a failed ApplyDelta modified the base")
	}
	if string(RootMismatch) != "root_mismatch" {
		t.Fatal(RootMismatch)
	}
}

func TestApplyDeltaMalformedIsAtomic(t *testing.T) {
	cases := []struct {
		name string
		mut  func(d *DeltaPayload)
	}{
		{"remove absent symbol", func(d *DeltaPayload) {
			d.Removed = append(d.Removed, Symbol{QualifiedName: "pkg.Nope", Kind: "function"})
		}},
		{"remove with wrong kind", func(d *DeltaPayload) { d.Removed[0].Kind = "type" }},
		{"remove twice", func(d *DeltaPayload) { d.Removed = append(d.Removed, d.Removed[0]) }},
		{"add present symbol", func(d *DeltaPayload) {
			d.Added = append(d.Added, Symbol{QualifiedName: "pkg.Auth", Kind: "fn", Score: 0.1, Provenance: "x"})
		}},
		{"add twice", func(d *DeltaPayload) { d.Added = append(d.Added, d.Added[0]) }},
		{"add NaN score", func(d *DeltaPayload) { d.Added[0].Score = math.NaN() }},
		{"add negative distance", func(d *DeltaPayload) { d.Added[0].Distance = -1 }},
		{"remove absent edge", func(d *DeltaPayload) { d.RemovedEdges[0].EdgeType = "imports" }},
		{"remove edge twice", func(d *DeltaPayload) { d.RemovedEdges = append(d.RemovedEdges, d.RemovedEdges[0]) }},
		{"add present edge", func(d *DeltaPayload) {
			d.RemovedEdges = nil
			d.Removed = nil
			d.AddedEdges = []Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}}
		}},
		{"add edge twice", func(d *DeltaPayload) { d.AddedEdges = append(d.AddedEdges, d.AddedEdges[0]) }},
		{"added edge to absent symbol", func(d *DeltaPayload) { d.AddedEdges[0].Target = "pkg.Ghost" }},
		{"dangling kept edge", func(d *DeltaPayload) { d.RemovedEdges = nil }},
	}
	for _, c := range cases {
		base := deltaTestBase()
		snap := deltaTestClone(base)
		d := deltaTestDelta()
		d.BaseRoot, d.NewRoot = "", "" // isolate validation from root checks
		c.mut(d)
		res, err := ApplyDelta(base, d)
		if lexer.CategoryOf(err) != lexer.MalformedDelta || res != nil {
			t.Errorf("%s: got %v, %v; want malformed_delta", c.name, res, err)
		}
		if !reflect.DeepEqual(base, snap) {
			t.Errorf("%s: base modified", c.name)
		}
	}
	if _, err := ApplyDelta(nil, deltaTestDelta()); lexer.CategoryOf(err) != lexer.MalformedDelta {
		t.Errorf("nil base: %v", err)
	}
	if _, err := ApplyDelta(deltaTestBase(), nil); lexer.CategoryOf(err) != lexer.MalformedDelta {
		t.Errorf("nil delta: %v", err)
	}
}

func TestApplyDeltaReplacementAndRoots(t *testing.T) {
	// Remove and re-add the same identity: a score update. The root of
	// the result is what a full re-encode would announce.
	base := deltaTestBase()
	updated := deltaTestClone(base)
	updated.Symbols[1].Score = 0.99
	updated.Symbols[1].Components = nil
	baseRoot, _ := PackRoot(base)
	newRoot, err := PackRoot(updated)
	if err != nil {
		t.Fatal(err)
	}
	d := &DeltaPayload{BaseRoot: baseRoot, NewRoot: newRoot,
		Removed: []Symbol{{QualifiedName: "pkg.Server", Kind: "function"}},
		Added:   []Symbol{updated.Symbols[1]}}
	res, err := ApplyDelta(base, d)
	if err != nil {
		t.Fatal(err)
	}
	if res.Symbols[1].Score != 0.99 || res.PackRoot != newRoot {
		t.Fatalf("got %+v", res)
	}
	// The delta also encodes, decodes to itself (base_root included) and,
	// decoded, applies to the same result.
	out, err := EncodeDelta(d)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeDelta(out)
	if err != nil {
		t.Fatal(err)
	}
	if w := deltaAsWire(d); !reflect.DeepEqual(back, w) || back.BaseRoot != baseRoot {
		t.Fatalf("decode(encode(d))\n got %+v\nwant %+v", back, w)
	}
	res2, err := ApplyDelta(base, back)
	if err != nil || !reflect.DeepEqual(res2, res) {
		t.Fatalf("applying the decoded delta: %+v, %v\nwant %+v", res2, err, res)
	}
}

// TestApplyDeltaIndependent: the same for the graph ApplyDelta, whose
// result already owned its symbols, components and edges.
func TestApplyDeltaIndependent(t *testing.T) {
	newDelta := func() *DeltaPayload {
		d := deltaTestDelta()
		d.BaseRoot, d.NewRoot = "", ""
		d.Added[0].Components = &Components{BlastRadius: 2}
		return d
	}
	cloneDelta := func(d *DeltaPayload) *DeltaPayload {
		c := *d
		c.Added = deltaTestClone(&Payload{Symbols: d.Added}).Symbols
		c.Removed = deltaTestClone(&Payload{Symbols: d.Removed}).Symbols
		c.AddedEdges = slices.Clone(d.AddedEdges)
		c.RemovedEdges = slices.Clone(d.RemovedEdges)
		return &c
	}
	scribble := func(p *Payload, syms []Symbol, edges []Edge) {
		if p != nil {
			syms, edges = p.Symbols, p.Edges
		}
		for i := range syms {
			syms[i].QualifiedName, syms[i].Kind, syms[i].Score = "scribbled", "scribbled", -1
			if c := syms[i].Components; c != nil {
				c.BlastRadius = -1
			}
		}
		for i := range edges {
			edges[i] = Edge{Source: "scribbled"}
		}
	}
	base, d := deltaTestBase(), newDelta()
	baseSnap, dSnap := deltaTestClone(base), cloneDelta(d)
	res, err := ApplyDelta(base, d)
	if err != nil {
		t.Fatal(err)
	}
	scribble(res, nil, nil)
	if !reflect.DeepEqual(base, baseSnap) || !reflect.DeepEqual(d, dSnap) {
		t.Fatalf("changing the result changed the base or the delta: %+v %+v", base, d)
	}
	base, d = deltaTestBase(), newDelta()
	if res, err = ApplyDelta(base, d); err != nil {
		t.Fatal(err)
	}
	resSnap := deltaTestClone(res)
	scribble(base, nil, nil)
	scribble(nil, d.Added, d.AddedEdges)
	if !reflect.DeepEqual(res, resSnap) {
		t.Fatalf("changing the base and the delta changed the result: %+v", res)
	}
}
