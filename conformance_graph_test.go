package gcf

import (
	"bytes"
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// graphFixture holds the fields only graph operations use.
type graphFixture struct {
	Calls []struct {
		Input    json.RawMessage `json:"input"`
		Expected string          `json:"expected"`
	} `json:"calls"`
	BaseSnapshot     *Payload `json:"base_snapshot"`
	ExpectedSnapshot *Payload `json:"expected_snapshot"`
	BaseRoot         string   `json:"base_root"`
	NewRoot          string   `json:"new_root"`
	CanonicalBytes   *string  `json:"canonicalBytes"`
	Options          struct {
		LabeledTrailerCounts bool `json:"labeledTrailerCounts"`
	} `json:"options"`
}

// runGraphFixture runs a graph-profile fixture; it reports false when the
// operation is not a graph one.
func runGraphFixture(t *testing.T, f fixture, raw []byte) bool {
	t.Helper()
	var g graphFixture
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("fixture: %v", err)
	}
	payload := func(raw json.RawMessage) *Payload {
		var p Payload
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("input: %v", err)
		}
		return &p
	}
	switch f.Operation {
	case "encode":
		p := payload(f.Input)
		want := mustString(t, f.Expected)
		got, err := Encode(p)
		if err != nil {
			t.Fatalf("%s\nencode error: %v", f.Description, err)
		}
		if string(got) != want {
			t.Fatalf("%s\nencode mismatch\n--- got\n%s--- want\n%s", f.Description, got, want)
		}
		back, err := Decode(got)
		if err != nil {
			t.Fatalf("decode(encode(input)): %v", err)
		}
		sameGraphAsWire(t, p, back)
	case "session":
		s := NewSession()
		for i, c := range g.Calls {
			got, err := EncodeWithSession(payload(c.Input), s)
			if err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
			if string(got) != c.Expected {
				t.Fatalf("call %d mismatch\n--- got\n%s--- want\n%s", i, got, c.Expected)
			}
		}
	case "delta", "delta-verify":
		var s string
		if json.Unmarshal(f.Input, &s) != nil {
			var d DeltaPayload
			if err := json.Unmarshal(f.Input, &d); err != nil {
				t.Fatalf("input: %v", err)
			}
			got, err := EncodeDelta(&d)
			if err != nil {
				t.Fatalf("encode delta: %v", err)
			}
			if want := mustString(t, f.Expected); string(got) != want {
				t.Fatalf("delta mismatch\n--- got\n%s--- want\n%s", got, want)
			}
			back, err := DecodeDelta(got)
			if err != nil {
				t.Fatalf("decode(encode(delta)): %v", err)
			}
			if want := deltaAsWire(&d); !reflect.DeepEqual(back, want) {
				t.Fatalf("decode(encode(delta)) differs\n got %+v\nwant %+v", back, want)
			}
			return true
		}
		d, err := DecodeDelta([]byte(s))
		if err != nil {
			if f.Operation == "delta-verify" {
				checkError(t, f, err)
				return true
			}
			t.Fatalf("decode delta: %v", err)
		}
		if g.BaseSnapshot == nil {
			t.Fatal("fixture has no base_snapshot")
		}
		if g.BaseRoot != "" {
			// The fixture's base_root is the root of its base snapshot,
			// and the one the delta header names.
			if d.BaseRoot != g.BaseRoot {
				t.Fatalf("decoded base_root %s, fixture base_root %s", d.BaseRoot, g.BaseRoot)
			}
			if root, err := PackRoot(g.BaseSnapshot); err != nil || root != g.BaseRoot {
				t.Fatalf("base snapshot root %s (%v), fixture base_root %s", root, err, g.BaseRoot)
			}
		}
		baseBefore, _ := json.Marshal(g.BaseSnapshot)
		res, err := ApplyDelta(g.BaseSnapshot, d)
		if after, _ := json.Marshal(g.BaseSnapshot); !bytes.Equal(baseBefore, after) {
			t.Fatal("ApplyDelta modified the base snapshot")
		}
		if f.Operation == "delta-verify" {
			checkError(t, f, err)
			return true
		}
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
		// A snapshot is its symbols and edges; the fixture names its root
		// as new_root (else the delta header's, which ApplyDelta verified).
		if g.ExpectedSnapshot != nil && g.ExpectedSnapshot.PackRoot == "" {
			g.ExpectedSnapshot.PackRoot = g.NewRoot
			if g.NewRoot == "" {
				g.ExpectedSnapshot.PackRoot = d.NewRoot
			}
		}
		if g.ExpectedSnapshot != nil && !samePayload(res, g.ExpectedSnapshot) {
			a, _ := json.Marshal(res)
			b, _ := json.Marshal(g.ExpectedSnapshot)
			t.Fatalf("snapshot mismatch\n got %s\nwant %s", a, b)
		}
		if g.NewRoot != "" {
			root, err := PackRoot(res)
			if err != nil || root != g.NewRoot {
				t.Fatalf("new root %s (%v), want %s", root, err, g.NewRoot)
			}
		}
	case "pack-root":
		p := payload(f.Input)
		if g.CanonicalBytes != nil {
			b, err := CanonicalPackBytes(p)
			if err != nil || string(b) != *g.CanonicalBytes {
				t.Fatalf("canonical bytes %q (%v), want %q", b, err, *g.CanonicalBytes)
			}
		}
		root, err := PackRoot(p)
		if want := mustString(t, f.Expected); err != nil || root != want {
			t.Fatalf("pack root %s (%v), want %s", root, err, want)
		}
	case "graph-stream-encode":
		p := payload(f.Input)
		var buf bytes.Buffer
		e := NewEncoder(&buf)
		if err := e.BeginGraph(GraphHeader{Tool: p.Tool, TokenBudget: p.TokenBudget, TokensUsed: p.TokensUsed,
			LabeledCounts: g.Options.LabeledTrailerCounts}); err != nil {
			t.Fatal(err)
		}
		// A producer discovers symbols group by group (ascending distance,
		// best first) and then the edges between them.
		syms := slices.Clone(p.Symbols)
		slices.SortStableFunc(syms, func(a, b Symbol) int {
			if a.Distance != b.Distance {
				return a.Distance - b.Distance
			}
			switch {
			case a.Score > b.Score:
				return -1
			case a.Score < b.Score:
				return 1
			}
			return 0
		})
		ids := map[string]int{}
		for _, s := range syms {
			id, err := e.WriteSymbol(s)
			if err != nil {
				t.Fatal(err)
			}
			if _, seen := ids[s.QualifiedName]; !seen {
				ids[s.QualifiedName] = id
			}
		}
		// Edges are written as they arrive (the producer's order).
		for _, ed := range p.Edges {
			if err := e.WriteEdge(ed); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if want := mustString(t, f.Expected); buf.String() != want {
			t.Fatalf("stream mismatch\n--- got\n%s--- want\n%s", buf.String(), want)
		}
		back, err := Decode(buf.Bytes())
		if err != nil {
			t.Fatalf("decode(stream): %v", err)
		}
		sameGraphAsWire(t, p, back)
	default:
		return false
	}
	return true
}

// sameGraphAsWire requires a decoded payload to hold the graph of the
// encoder's input as the wire carries it: scores rounded to two decimals
// (SPEC §5), so the pack root of the input itself may differ (for example
// graph-encode/004_score_midpoint_rounding), but not that of the input
// with its scores rounded.
func sameGraphAsWire(t *testing.T, in, back *Payload) {
	t.Helper()
	q := *in
	q.Symbols = slices.Clone(in.Symbols)
	for i := range q.Symbols {
		q.Symbols[i].Score = wireScore(q.Symbols[i].Score)
	}
	ra, err1 := PackRoot(&q)
	rb, err2 := PackRoot(back)
	if err1 != nil || err2 != nil || ra != rb {
		t.Fatalf("decoded graph differs from the input: %s (%v) vs %s (%v)", rb, err2, ra, err1)
	}
}

// wireScore is a score as a node line carries it: two decimals.
func wireScore(f float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 2, 64), 64)
	if err != nil {
		panic(err)
	}
	return r
}

// deltaAsWire is what decoding the encoding of d must give: d with
// scores on two decimals and without what the wire does not carry
// (FullTokens, which only enters the savings figure; Signature and
// Components of added symbols; edge Status, which is the section's).
// Empty sections decode as empty, non-nil slices.
func deltaAsWire(d *DeltaPayload) *DeltaPayload {
	w := *d
	w.FullTokens = 0
	w.Removed = make([]Symbol, len(d.Removed))
	for i, s := range d.Removed {
		w.Removed[i] = Symbol{QualifiedName: s.QualifiedName, Kind: s.Kind}
	}
	w.Added = make([]Symbol, len(d.Added))
	for i, s := range d.Added {
		w.Added[i] = Symbol{QualifiedName: s.QualifiedName, Kind: s.Kind, Score: wireScore(s.Score), Provenance: s.Provenance, Distance: s.Distance}
	}
	w.RemovedEdges = make([]Edge, len(d.RemovedEdges))
	for i, e := range d.RemovedEdges {
		w.RemovedEdges[i] = Edge{Source: e.Source, Target: e.Target, EdgeType: e.EdgeType}
	}
	w.AddedEdges = make([]Edge, len(d.AddedEdges))
	for i, e := range d.AddedEdges {
		w.AddedEdges[i] = Edge{Source: e.Source, Target: e.Target, EdgeType: e.EdgeType}
	}
	return &w
}

// TestSameGraphAsWireMidpoints: with scores on binary midpoints (as in
// graph-encode/004_score_midpoint_rounding) the decoded payload's pack root
// differs from the input's, which the runner therefore no longer
// requires, and equals that of the input with its scores on two decimals.
func TestSameGraphAsWireMidpoints(t *testing.T) {
	p := &Payload{Tool: "t", Symbols: []Symbol{
		{QualifiedName: "a.A", Kind: "function", Score: 0.125, Provenance: "ast"},
		{QualifiedName: "a.B", Kind: "function", Score: 0.375, Provenance: "ast", Distance: 1},
		{QualifiedName: "a.C", Kind: "type", Score: 2.675, Provenance: "lsp", Distance: 3},
	}, Edges: []Edge{{Source: "a.B", Target: "a.A", EdgeType: "calls"}}}
	out, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := PackRoot(p)
	got, _ := PackRoot(back)
	if in == got {
		t.Fatalf("midpoint scores kept the pack root %s; the test no longer shows the rounding", in)
	}
	sameGraphAsWire(t, p, back)
}

// ---- Conformance fixtures (graph encode side) ----

// gfxStream feeds a whole payload through the streaming graph encoder the
// way the conformance runner does: symbols sorted by (distance, score
// desc), stable, then the edges in input order.
func gfxStream(p *Payload, labeled bool) (string, error) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginGraph(GraphHeader{Tool: p.Tool, TokenBudget: p.TokenBudget, TokensUsed: p.TokensUsed, LabeledCounts: labeled}); err != nil {
		return "", err
	}
	syms := slices.Clone(p.Symbols)
	slices.SortStableFunc(syms, func(a, b Symbol) int {
		if c := cmp.Compare(a.Distance, b.Distance); c != 0 {
			return c
		}
		return cmp.Compare(b.Score, a.Score)
	})
	for _, s := range syms {
		if _, err := e.WriteSymbol(s); err != nil {
			return "", err
		}
	}
	// Edges go in input order: a stream writes edges as they are produced,
	// and fixtures 006/007 pin exactly that order (it is not sorted by
	// source ID: @2<@1 follows @1<@3).
	for _, ed := range p.Edges {
		if err := e.WriteEdge(ed); err != nil {
			return "", err
		}
	}
	if err := e.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}
