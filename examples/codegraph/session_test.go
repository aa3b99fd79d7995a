package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/gcfkit/gcf/tokens"
)

// symbolsAt returns the qualified names of p's symbols at distance d, sorted.
func symbolsAt(p *gcf.Payload, d int) []string {
	var out []string
	for _, s := range p.Symbols {
		if s.Distance == d {
			out = append(out, s.QualifiedName)
		}
	}
	slices.Sort(out)
	return out
}

// TestSmallModuleSessionsAndDelta runs one client session through a full
// answer, bare references, unchanged and, after a one-function edit, a
// delta; and checks that a second session is kept apart.
func TestSmallModuleSessionsAndDelta(t *testing.T) {
	dir := t.TempDir()
	writeModule(t, dir, smallModule)
	tl, err := newTools(dir, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	srv, g := newServer(tl)
	cs := connect(t, srv)
	args := map[string]any{"symbol": "example.com/small.B"}

	// 1. Full answer: B's callers A, C, F00..F19 at distance 1, sub.Use
	// (calls A) at 2.
	callers := []string{"example.com/small.A", "example.com/small.C"}
	for i := range 20 {
		callers = append(callers, fmt.Sprintf("example.com/small.F%02d", i))
	}
	res := call(t, cs, "blast_radius", args)
	first := text(t, res)
	p, err := gcf.Decode([]byte(first))
	if err != nil {
		t.Fatalf("first answer does not decode: %v\n%s", err, first)
	}
	if got, want := symbolsAt(p, 0), []string{"example.com/small.B"}; !slices.Equal(got, want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	if got, want := symbolsAt(p, 1), callers; !slices.Equal(got, want) {
		t.Errorf("distance 1 %v, want %v", got, want)
	}
	if got, want := symbolsAt(p, 2), []string{"example.com/small/sub.Use"}; !slices.Equal(got, want) {
		t.Errorf("distance 2 %v, want %v", got, want)
	}
	if !strings.Contains(first, " session=true") || strings.Contains(first, "previously transmitted") {
		t.Errorf("first answer should be a session payload with full declarations:\n%s", first)
	}
	root := meta(t, res).PackRoot
	if root != p.PackRoot || gcfmcp.CheckPackRoot(root) != nil {
		t.Fatalf("_meta pack_root %q, payload pack_root %q", root, p.PackRoot)
	}
	consumer := gcfmcp.NewConsumer(0)
	if _, _, err := consumer.Read([]byte(first)); err != nil {
		t.Fatal(err)
	}

	// 2. The same call again: every symbol is a bare reference with the ID
	// of its first declaration.
	res = call(t, cs, "blast_radius", args)
	second := text(t, res)
	if n := strings.Count(second, "  # previously transmitted\n"); n != len(p.Symbols) {
		t.Errorf("second answer has %d bare references, want %d:\n%s", n, len(p.Symbols), second)
	}
	if m := meta(t, res); m.References != len(p.Symbols) || m.Bytes >= len(first) {
		t.Errorf("second answer accounting %+v (first was %d bytes)", m, len(first))
	}
	for _, l := range strings.Split(first, "\n") {
		if id, _, ok := strings.Cut(l, " "); ok && strings.HasPrefix(l, "@") && !strings.Contains(l, "<") {
			if !hasLine(second, id+"  # previously transmitted") {
				t.Errorf("second answer lacks the reference %s", id)
			}
		}
	}
	if _, err := gcf.Decode([]byte(second)); err == nil {
		t.Error("gcf.Decode accepted bare references without the session")
	}
	again, outcome, err := consumer.Read([]byte(second))
	if err != nil || outcome != gcf.OutcomeFull {
		t.Fatalf("consumer: %v, %v", outcome, err)
	}
	if r, _ := gcf.PackRoot(again); r != root {
		t.Errorf("resolved second answer has root %s, want %s", r, root)
	}

	// 3. Echoing the pack_root of an unchanged result.
	args["pack_root"] = root
	res = call(t, cs, "blast_radius", args)
	if got := text(t, res); !strings.Contains(got, "unchanged=true pack_root="+root) {
		t.Errorf("echoed root: %s", got)
	}

	// 4. A one-function change: E now calls B. The answer to the echoed
	// root is a delta adding E and its edge.
	src := filepath.Join(dir, "small.go")
	body, _ := os.ReadFile(src)
	edited := strings.Replace(string(body), `func E() string { return "e" }`, `func E() string { return B() + "e" }`, 1)
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(src, later, later)
	res = call(t, cs, "blast_radius", args)
	delta := text(t, res)
	if m := meta(t, res); m.Outcome != "delta" {
		t.Fatalf("after the edit: outcome %q, want delta:\n%s", m.Outcome, delta)
	}
	if !strings.Contains(delta, "example.com/small.E -> example.com/small.B calls") || !strings.Contains(delta, "base_root="+root) {
		t.Errorf("delta lacks the new edge or the base root:\n%s", delta)
	}
	now, outcome, err := consumer.Read([]byte(delta))
	if err != nil || outcome != gcf.OutcomeDelta {
		t.Fatalf("consumer applying the delta: %v, %v", outcome, err)
	}
	want1 := append(slices.Clone(callers), "example.com/small.E")
	slices.Sort(want1)
	if got := symbolsAt(now, 1); !slices.Equal(got, want1) {
		t.Errorf("after the delta, distance 1 %v, want %v", got, want1)
	}

	// 5. A second session knows nothing of the first: full declarations,
	// IDs from 0, no delta for the first session's root.
	cs2 := connect(t, srv)
	res = call(t, cs2, "blast_radius", args)
	other := text(t, res)
	if strings.Contains(other, "previously transmitted") || meta(t, res).Outcome != "full" {
		t.Errorf("second session got references or a delta:\n%s", other)
	}
	if !strings.Contains(other, "\n@0 ") {
		t.Errorf("second session's IDs do not start at 0:\n%s", other)
	}
	if st := g.Stats(); st.Sessions != 2 {
		t.Errorf("Stats %+v, want 2 sessions", st)
	}
}
