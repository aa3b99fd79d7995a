package gcf

import (
	"bytes"
	"encoding/json"
	"slices"
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
		samePackRoot(t, p, back)
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
			if back.BaseRoot != d.BaseRoot || back.NewRoot != d.NewRoot || len(back.Added) != len(d.Added) || len(back.Removed) != len(d.Removed) {
				t.Fatalf("delta round trip differs: %+v", back)
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
		// A snapshot is its symbols and edges; the fixture names no root.
		if g.ExpectedSnapshot != nil && g.ExpectedSnapshot.PackRoot == "" {
			g.ExpectedSnapshot.PackRoot = res.PackRoot
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
		samePackRoot(t, p, back)
	default:
		return false
	}
	return true
}

// samePackRoot requires two payloads to denote the same logical graph.
func samePackRoot(t *testing.T, a, b *Payload) {
	t.Helper()
	ra, err1 := PackRoot(a)
	rb, err2 := PackRoot(b)
	if err1 != nil || err2 != nil || ra != rb {
		t.Fatalf("graphs differ: %s (%v) vs %s (%v)", ra, err1, rb, err2)
	}
}
