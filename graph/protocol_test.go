package graph

import (
	"errors"
	"fmt"
	"testing"
)

func protocolGraph(n int, shift float64) *Payload {
	p := &Payload{Tool: "ctx"}
	for i := 0; i < n; i++ {
		p.Symbols = append(p.Symbols, Symbol{QualifiedName: fmt.Sprintf("pkg.S%d", i), Kind: "function",
			Score: 0.5 + shift + float64(i%7)/100, Provenance: "lsp", Distance: i % 3})
	}
	for i := 1; i < n; i++ {
		p.Edges = append(p.Edges, Edge{Source: fmt.Sprintf("pkg.S%d", i), Target: fmt.Sprintf("pkg.S%d", i-1), EdgeType: "calls"})
	}
	return p
}

// TestThreeOutcomes walks SPEC §10.3: a first full answer, an unchanged
// answer for the same result, a delta for a small change, and a full
// answer when the consumer's root is unknown. Receive reconstructs the
// producer's snapshot each time.
func TestThreeOutcomes(t *testing.T) {
	v1 := protocolGraph(40, 0)
	// 1. No snapshot held: full payload with pack_root.
	ans, out, err := Respond(v1, "", nil)
	if err != nil || out != OutcomeFull {
		t.Fatalf("first answer: %v %v", out, err)
	}
	held, got, err := Receive(nil, ans)
	if err != nil || got != OutcomeFull {
		t.Fatalf("receive full: %v %v", got, err)
	}
	root1, _ := PackRoot(held)
	if want, _ := PackRoot(v1); root1 != want {
		t.Fatalf("held root %s, producer root %s", root1, want)
	}
	// 2. Same result: unchanged.
	ans, out, err = Respond(v1, root1, nil)
	if err != nil || out != OutcomeUnchanged {
		t.Fatalf("same root: %v %v\n%s", out, err, ans)
	}
	if h2, got, err := Receive(held, ans); err != nil || got != OutcomeUnchanged || h2 != held {
		t.Fatalf("receive unchanged: %v %v", got, err)
	}
	// 3. A small change against a known prior: delta.
	v2 := protocolGraph(40, 0)
	v2.Symbols[3].Score = 0.99
	v2.Symbols = append(v2.Symbols, Symbol{QualifiedName: "pkg.New", Kind: "type", Score: 0.7, Provenance: "ast", Distance: 1})
	v2.Edges = append(v2.Edges[1:], Edge{Source: "pkg.New", Target: "pkg.S0", EdgeType: "references"})
	ans, out, err = Respond(v2, root1, v1)
	if err != nil || out != OutcomeDelta {
		t.Fatalf("small change: %v %v\n%s", out, err, ans)
	}
	h3, got, err := Receive(held, ans)
	if err != nil || got != OutcomeDelta {
		t.Fatalf("receive delta: %v %v\n%s", got, err, ans)
	}
	r3, _ := PackRoot(h3)
	if want, _ := PackRoot(v2); r3 != want {
		t.Fatalf("after delta root %s, want %s", r3, want)
	}
	if r1again, _ := PackRoot(held); r1again != root1 {
		t.Fatal("Receive modified the held snapshot")
	}
	// 4. Unknown consumer root: full.
	if _, out, err = Respond(v2, "sha256:unknown", v1); err != nil || out != OutcomeFull {
		t.Fatalf("unknown root: %v %v", out, err)
	}
	// A large change is sent in full even when the prior is known.
	if _, out, err = Respond(protocolGraph(40, 0.2), root1, v1); err != nil || out != OutcomeFull {
		t.Fatalf("large change: %v %v", out, err)
	}
}

func TestReceiveRejects(t *testing.T) {
	v1 := protocolGraph(5, 0)
	held := v1
	// An unchanged answer that names another snapshot.
	ans, err := EncodeUnchanged("ctx", "sha256:0000", 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Receive(held, ans); !errors.Is(err, RootMismatch) {
		t.Fatalf("unchanged for another root: %v", err)
	}
	// A full payload whose pack_root does not match its content.
	bad := *v1
	bad.PackRoot = "sha256:feed"
	enc, err := Encode(&bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Receive(nil, enc); !errors.Is(err, RootMismatch) {
		t.Fatalf("full with a wrong root: %v", err)
	}
}

func TestDiffApplyIdentity(t *testing.T) {
	a, b := protocolGraph(30, 0), protocolGraph(25, 0.01)
	d, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyDelta(a, d)
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := PackRoot(res)
	r2, _ := PackRoot(b)
	if r1 != r2 {
		t.Fatalf("ApplyDelta(a, Diff(a, b)) has root %s, b has %s", r1, r2)
	}
}
