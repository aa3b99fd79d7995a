package gcf

import (
	"bytes"
	"strings"
	"testing"
)

// An edge line's status is any token of the name rule, kept in Edge.Status
// and written back as it came, as the reference SDKs read it (issue 22
// item 1; docs/spec-notes.md). SPEC §6's ABNF lists only added and
// removed.
func TestEdgeStatusAnyToken(t *testing.T) {
	const in = "GCF profile=graph symbols=3 edges=5\n## targets\n@0 fn a.A 0.90 lsp\n@1 fn a.B 0.50 lsp\n@2 fn a.C 0.40 lsp\n" +
		"## edges [5]\n@1<@0 imports pending\n@2<@0 uses état_ⓧ\n@0<@1 calls added\n@2<@1 calls\n@1<@2 calls unchanged\n"
	p, err := Decode([]byte(in))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	var got []string
	for _, e := range p.Edges {
		got = append(got, e.Status)
	}
	if want := "pending|état_ⓧ|added||unchanged"; strings.Join(got, "|") != want {
		t.Fatalf("statuses %q, want %q", got, want)
	}
	if err := pullErr(in); err != nil {
		t.Fatalf("NewDecoder: %v", err)
	}
	out, err := Encode(p)
	if err != nil || string(out) != in {
		t.Fatalf("Encode does not write the payload back:\n%q\n%v", out, err)
	}

	// The streaming encoder writes the same lines.
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginGraph(GraphHeader{Tool: "t"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Symbols {
		if _, err := e.WriteSymbol(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.WriteEdge(Edge{Source: "a.A", Target: "a.B", EdgeType: "imports", Status: "pending"}); err != nil {
		t.Fatalf("WriteEdge: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\n@1<@0 imports pending\n") {
		t.Fatalf("streaming encoder:\n%s", buf.String())
	}

	// The legacy v1 wire reads and writes it too; v1 alone omits
	// "unchanged" (fixture encode/007, docs/legacy-v1.md).
	v1 := "GCF tool=t budget=0 tokens=0 symbols=2 edges=2\n## targets\n@0 fn a.A 0.90 lsp\n@1 fn a.B 0.50 lsp\n## edges [2]\n@0<@1 calls pending\n@1<@0 calls unchanged\n"
	q, err := Decode([]byte(v1), WithWire(WireV1))
	if err != nil || q.Edges[0].Status != "pending" || q.Edges[1].Status != "unchanged" {
		t.Fatalf("v1 Decode: %+v %v", q, err)
	}
	if err := pullErr(v1, WithWire(WireV1)); err != nil {
		t.Fatalf("v1 NewDecoder: %v", err)
	}
	out, err = Encode(q, WithWire(WireV1))
	if want := strings.Replace(v1, " calls unchanged\n", " calls\n", 1); err != nil || string(out) != want {
		t.Fatalf("v1 Encode:\n%q\nwant\n%q (%v)", out, want, err)
	}
	var mig bytes.Buffer
	if err := Migrate(strings.NewReader(v1), &mig); err != nil || !strings.Contains(mig.String(), "\n@0<@1 calls pending\n@1<@0 calls unchanged\n") {
		t.Fatalf("Migrate:\n%s\n%v", mig.String(), err)
	}

	// A status is still one token of the name rule.
	checkHostile(t, []hostile{
		{"NBSP in a status", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 x pen\u00a0ding\n", InvalidEdgeSyntax, 5, 12},
		{"control in a status", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 x p\x01\n", InvalidEdgeSyntax, 5, 10},
		{"a fourth field", "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 x pending later\n", InvalidEdgeSyntax, 5, 1},
	})
}

// Graph deltas keep their sections' meaning: an added edge's Status is ""
// or "added", a removed edge's "" or "removed" (SPEC §10.1).
func TestDeltaEdgeStatusKeepsItsMeaning(t *testing.T) {
	d := &DeltaPayload{Tool: "t", BaseRoot: "b", NewRoot: "n", Removed: []Symbol{}, Added: []Symbol{},
		RemovedEdges: []Edge{}, AddedEdges: []Edge{{Source: "a", Target: "b", EdgeType: "calls", Status: "pending"}}}
	if _, err := EncodeDelta(d); CategoryOf(err) != MalformedDelta {
		t.Fatalf("an added edge with status pending: %v, want malformed_delta", err)
	}
	d.AddedEdges[0].Status = "added"
	if _, err := EncodeDelta(d); err != nil {
		t.Fatal(err)
	}
}
