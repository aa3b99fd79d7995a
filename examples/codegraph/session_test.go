package main

import (
	"fmt"
	"os"
	"os/exec"
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

// TestSemanticDiffGit compares two git revisions, a revision with the
// working tree, and two directories of a small module.
func TestSemanticDiffGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	writeModule(t, dir, smallModule)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	src := filepath.Join(dir, "small.go")
	body, _ := os.ReadFile(src)
	edited := strings.Replace(string(body), `func E() string { return "e" }`, `func E() string { return B() + "e" }

func G() string { return "g" }`, 1)
	edited = strings.Replace(edited, "func C() string { return B() + \"c\" }\n", "", 1)
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-a", "-m", "two")
	writeModule(t, filepath.Join(dir, "copy"), map[string]string{"go.mod": "module example.com/small\n\ngo 1.22\n", "x.go": "package small\n\nfunc X() {}\n"})

	tl, err := newTools(dir, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	defer tl.revs.close()
	srv, _ := newServer(tl)
	cs := connect(t, srv)
	for _, args := range []map[string]any{{"base": "HEAD~1", "head": "HEAD"}, {"base": "HEAD~1", "head": "."}} {
		res := call(t, cs, "semantic_diff", args)
		d, err := gcf.DecodeDelta([]byte(text(t, res)))
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, text(t, res))
		}
		var added, removed, addedEdges []string
		for _, s := range d.Added {
			added = append(added, s.QualifiedName)
		}
		for _, s := range d.Removed {
			removed = append(removed, s.QualifiedName)
		}
		for _, e := range d.AddedEdges {
			addedEdges = append(addedEdges, e.Source+" "+e.EdgeType+" "+e.Target)
		}
		if !slices.Equal(added, []string{"example.com/small.G"}) || !slices.Equal(removed, []string{"example.com/small.C"}) {
			t.Errorf("%v: added %v, removed %v", args, added, removed)
		}
		if !slices.Equal(addedEdges, []string{"example.com/small.E calls example.com/small.B"}) {
			t.Errorf("%v: added edges %v", args, addedEdges)
		}
		if len(d.RemovedEdges) != 1 || d.RemovedEdges[0].Source != "example.com/small.C" {
			t.Errorf("%v: removed edges %+v", args, d.RemovedEdges)
		}
	}
	// Two directories: the module and a nested one (its own go.mod).
	res := call(t, cs, "semantic_diff", map[string]any{"base": ".", "head": "copy"})
	d, err := gcf.DecodeDelta([]byte(text(t, res)))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Added) != 1 || d.Added[0].QualifiedName != "example.com/small.X" || len(d.Removed) == 0 {
		t.Errorf("directories: added %+v, removed %d", d.Added, len(d.Removed))
	}
}
