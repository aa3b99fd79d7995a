package graph

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

func sessTestSym(q, kind string, score float64, dist int) Symbol {
	return Symbol{QualifiedName: q, Kind: kind, Score: score, Provenance: "lsp", Distance: dist}
}

func sessTestEncode(t *testing.T, s *Session, p *Payload) string {
	t.Helper()
	out, err := EncodeWithSession(p, s)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestSessionStableIDsAcrossThreeCalls(t *testing.T) {
	s := NewSession()
	got := sessTestEncode(t, s, &Payload{Tool: "t", TokensUsed: 800, Symbols: []Symbol{
		sessTestSym("p.A", "function", 0.9, 0), sessTestSym("p.B", "type", 0.7, 1), sessTestSym("p.C", "function", 0.95, 1),
	}})
	want := "GCF profile=graph tool=t tokens=800 symbols=3 session=true\n## targets\n@0 fn p.A 0.90 lsp\n## related\n@1 fn p.C 0.95 lsp\n@2 type p.B 0.70 lsp\n"
	if got != want {
		t.Fatalf("call 1:\ngot  %q\nwant %q", got, want)
	}
	// Call 2: B (known, now at distance 0) is a reference; D is new -> @3.
	// Edges use session IDs and are sorted by them.
	got = sessTestEncode(t, s, &Payload{Tool: "t", Symbols: []Symbol{
		sessTestSym("p.D", "method", 0.62, 0), sessTestSym("p.B", "type", 0.8, 0),
	}, Edges: []Edge{{Source: "p.D", Target: "p.B", EdgeType: "calls"}, {Source: "p.B", Target: "p.D", EdgeType: "uses"}}})
	want = "GCF profile=graph tool=t symbols=2 edges=2 session=true\n## targets\n@2  # previously transmitted\n@3 method p.D 0.62 lsp\n## edges [2]\n@3<@2 uses\n@2<@3 calls\n"
	if got != want {
		t.Fatalf("call 2:\ngot  %q\nwant %q", got, want)
	}
	// Call 3: everything known except E; IDs are unchanged.
	got = sessTestEncode(t, s, &Payload{Tool: "t", Symbols: []Symbol{
		sessTestSym("p.E", "var", 0.1, 2), sessTestSym("p.A", "function", 0.9, 0), sessTestSym("p.D", "method", 0.5, 0), sessTestSym("p.C", "function", 0.3, 2),
	}, Edges: []Edge{{Source: "p.E", Target: "p.A", EdgeType: "reads"}}})
	want = "GCF profile=graph tool=t symbols=4 edges=1 session=true\n## targets\n@0  # previously transmitted\n@3  # previously transmitted\n## extended\n@1  # previously transmitted\n@4 var p.E 0.10 lsp\n## edges [1]\n@0<@4 reads\n"
	if got != want {
		t.Fatalf("call 3:\ngot  %q\nwant %q", got, want)
	}
	for q, id := range map[string]int{"p.A": 0, "p.C": 1, "p.B": 2, "p.D": 3, "p.E": 4} {
		kind := map[string]string{"p.A": "function", "p.C": "function", "p.B": "type", "p.D": "method", "p.E": "var"}[q]
		if got, ok := s.GetID(kind, q); !ok || got != id {
			t.Errorf("GetID(%s) = %d, %v; want %d", q, got, ok, id)
		}
		if !s.Transmitted(kind, q) {
			t.Errorf("%s not marked transmitted", q)
		}
	}
	if s.Len() != 5 {
		t.Errorf("Len = %d", s.Len())
	}
}

func TestSessionIdentityIsKindAndName(t *testing.T) {
	s := NewSession()
	got := sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("p.X", "function", 0.5, 0), sessTestSym("p.X", "type", 0.4, 0)}})
	want := "GCF profile=graph symbols=2 session=true\n## targets\n@0 fn p.X 0.50 lsp\n@1 type p.X 0.40 lsp\n"
	if got != want {
		t.Fatalf("got %q", got)
	}
	// "fn" is the same identity as "function" (same wire kind).
	if id, ok := s.GetID("fn", "p.X"); !ok || id != 0 {
		t.Errorf("GetID(fn) = %d, %v", id, ok)
	}
	got = sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("p.X", "fn", 0.5, 0)}})
	if got != "GCF profile=graph symbols=1 session=true\n## targets\n@0  # previously transmitted\n" {
		t.Errorf("got %q", got)
	}
	// The same identity twice in one payload is rejected.
	if _, err := EncodeWithSession(&Payload{Symbols: []Symbol{sessTestSym("p.N", "function", 0.5, 0), sessTestSym("p.N", "fn", 0.2, 1)}}, s); lexer.CategoryOf(err) != lexer.InvalidNodeLine {
		t.Errorf("duplicate identity: %v", err)
	}
}

func TestSessionRecord(t *testing.T) {
	s := NewSession()
	if _, ok := s.GetID("function", "a"); ok {
		t.Fatal("empty session knows a")
	}
	if id := s.Record("function", "a"); id != 0 {
		t.Fatalf("Record a = %d", id)
	}
	if id := s.Record("type", "b"); id != 1 {
		t.Fatalf("Record b = %d", id)
	}
	if id := s.Record("function", "a"); id != 0 {
		t.Fatalf("Record a again = %d", id)
	}
	if s.Transmitted("function", "a") {
		t.Fatal("Record marked a transmitted")
	}
	// A recorded but untransmitted symbol is declared in full with its ID.
	got := sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("c", "var", 0.9, 0), sessTestSym("a", "function", 0.5, 0)}})
	want := "GCF profile=graph symbols=2 session=true\n## targets\n@2 var c 0.90 lsp\n@0 fn a 0.50 lsp\n"
	if got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	if !s.Transmitted("function", "a") || !s.Transmitted("var", "c") || s.Transmitted("type", "b") {
		t.Error("transmitted flags wrong")
	}
	if id := s.Record("class", "d"); id != 3 {
		t.Errorf("Record d = %d, want 3", id)
	}
	small := NewSession(WithMaxSymbols(1))
	if small.Record("fn", "x") != 0 || small.Record("fn", "y") != -1 || small.Record("fn", "x") != 0 {
		t.Error("Record ignores the limit")
	}
}

func TestSessionErrorLeavesSessionUnchanged(t *testing.T) {
	s := NewSession()
	sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0)}})
	bad := []*Payload{
		{Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0), sessTestSym("b", "function", 0.5, 0)}, Edges: []Edge{{Source: "b", Target: "zzz", EdgeType: "calls"}}},
		{Symbols: []Symbol{sessTestSym("b", "function", 0.9, 0), sessTestSym("c d", "function", 0.5, 0)}},
		{Symbols: []Symbol{sessTestSym("b", "function", 0.9, 0)}, Edges: []Edge{{Source: "b", Target: "b", EdgeType: "calls", Status: "may\tbe"}}},
	}
	for i, p := range bad {
		if out, err := EncodeWithSession(p, s); err == nil || out != nil {
			t.Fatalf("bad payload %d encoded: %q", i, out)
		}
		if s.Len() != 1 {
			t.Fatalf("bad payload %d changed the session (Len %d)", i, s.Len())
		}
		if _, ok := s.GetID("function", "b"); ok {
			t.Fatalf("bad payload %d bound b", i)
		}
	}
	got := sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0), sessTestSym("b", "function", 0.5, 0)}})
	want := "GCF profile=graph symbols=2 session=true\n## targets\n@0  # previously transmitted\n@1 fn b 0.50 lsp\n"
	if got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestSessionLimitFallback(t *testing.T) {
	s := NewSession(WithMaxSymbols(3))
	sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0), sessTestSym("b", "function", 0.8, 0)}})
	// One known + two new = 4 identities > 3: full non-session payload.
	p := &Payload{Tool: "t", Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0), sessTestSym("c", "function", 0.7, 0), sessTestSym("d", "function", 0.6, 1)},
		Edges: []Edge{{Source: "d", Target: "a", EdgeType: "calls"}}}
	got := sessTestEncode(t, s, p)
	full, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(full) || strings.Contains(got, "session=true") || strings.Contains(got, "previously") {
		t.Fatalf("fallback:\ngot  %q\nwant %q", got, full)
	}
	if s.Len() != 0 || s.Transmitted("function", "a") {
		t.Fatal("fallback did not reset the session")
	}
	// The session restarts: full declarations, IDs never reused.
	got = sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0)}})
	want := "GCF profile=graph symbols=1 session=true\n## targets\n@2 fn a 0.90 lsp\n"
	if got != want {
		t.Fatalf("after fallback: got %q want %q", got, want)
	}
	// Exactly at the limit is allowed.
	got = sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0), sessTestSym("b", "function", 0.1, 0), sessTestSym("c", "function", 0.05, 0)}})
	want = "GCF profile=graph symbols=3 session=true\n## targets\n@2  # previously transmitted\n@3 fn b 0.10 lsp\n@4 fn c 0.05 lsp\n"
	if got != want {
		t.Fatalf("at limit: got %q want %q", got, want)
	}
	// A failing fallback leaves the session alone.
	if _, err := EncodeWithSession(&Payload{Symbols: []Symbol{sessTestSym("x", "function", 0.9, 0), sessTestSym("y y", "function", 0.9, 0)}}, s); err == nil {
		t.Fatal("bad fallback payload encoded")
	}
	if s.Len() != 3 {
		t.Fatalf("failed fallback reset the session (Len %d)", s.Len())
	}
}

func TestSessionNilIsFullPayload(t *testing.T) {
	p := &Payload{Symbols: []Symbol{sessTestSym("a", "function", 0.9, 0)}}
	got, err := EncodeWithSession(p, nil)
	full, _ := Encode(p)
	if err != nil || string(got) != string(full) {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := EncodeWithSession(nil, NewSession()); err == nil {
		t.Fatal("nil payload encoded")
	}
}

var sessTestLine = regexp.MustCompile(`^@(\d+)(?: (\S+) (\S+) \S+ \S+|  # previously transmitted)$`)

// TestSessionConcurrent shares one Session between many goroutines (run it
// with -race). Whatever the interleaving, every identity gets one ID, IDs
// are 0..n-1, every symbol is declared in full exactly once and every
// reference follows that declaration's ID.
func TestSessionConcurrent(t *testing.T) {
	const workers, calls, universe = 32, 40, 200
	s := NewSession()
	outs := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range calls {
				p := &Payload{Tool: "race"}
				for k := range 6 {
					n := (w*31 + c*17 + k*13) % universe
					p.Symbols = append(p.Symbols, sessTestSym(fmt.Sprintf("p.S%d", n), []string{"function", "type"}[n%2], float64(k)/10, k%3))
				}
				p.Edges = []Edge{{Source: p.Symbols[0].QualifiedName, Target: p.Symbols[5].QualifiedName, EdgeType: "calls"}}
				out, err := EncodeWithSession(p, s)
				if err != nil {
					t.Error(err)
					return
				}
				outs[w] = append(outs[w], string(out))
				_ = s.Transmitted("function", "p.S0")
				_, _ = s.GetID("type", "p.S1")
			}
		}()
	}
	wg.Wait()
	declared := map[string]int{} // qname -> id
	seenIDs := map[int]bool{}
	var refs []int
	for _, list := range outs {
		for _, out := range list {
			if !strings.Contains(out, " session=true\n") {
				t.Fatalf("not a session payload: %q", out)
			}
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:] {
				if strings.HasPrefix(line, "## ") || strings.Contains(line, "<") {
					continue
				}
				m := sessTestLine.FindStringSubmatch(line)
				if m == nil {
					t.Fatalf("bad line %q", line)
				}
				id, _ := strconv.Atoi(m[1])
				if m[2] == "" {
					refs = append(refs, id)
					continue
				}
				if _, dup := declared[m[3]]; dup {
					t.Fatalf("%s declared twice", m[3])
				}
				if seenIDs[id] {
					t.Fatalf("ID %d bound twice", id)
				}
				declared[m[3]] = id
				seenIDs[id] = true
			}
		}
	}
	if len(declared) != s.Len() {
		t.Fatalf("%d declarations, session holds %d", len(declared), s.Len())
	}
	for id := range len(declared) {
		if !seenIDs[id] {
			t.Fatalf("ID %d never allocated: IDs are not 0..n-1", id)
		}
	}
	for _, id := range refs {
		if !seenIDs[id] {
			t.Fatalf("reference to undeclared ID %d", id)
		}
	}
	for q, id := range declared {
		n, _ := strconv.Atoi(strings.TrimPrefix(q, "p.S"))
		if got, ok := s.GetID([]string{"function", "type"}[n%2], q); !ok || got != id {
			t.Fatalf("GetID(%s) = %d, %v; declared as %d", q, got, ok, id)
		}
	}
}

func TestSessionZeroValue(t *testing.T) {
	var s Session
	if s.Record("function", "a") != 0 || s.Transmitted("function", "a") {
		t.Fatal("zero Session Record")
	}
	got := sessTestEncode(t, &s, &Payload{Symbols: []Symbol{sessTestSym("a", "function", 0.5, 0)}})
	if got != "GCF profile=graph symbols=1 session=true\n## targets\n@0 fn a 0.50 lsp\n" {
		t.Fatalf("got %q", got)
	}
}

func TestSessionResend(t *testing.T) {
	s := NewSession()
	sessTestEncode(t, s, &Payload{Tool: "t", Symbols: []Symbol{sessTestSym("p.A", "function", 0.9, 0), sessTestSym("p.B", "type", 0.7, 0)}})
	if !s.Resend("fn", "p.A") {
		t.Fatal("Resend(p.A) = false for a bound symbol")
	}
	if s.Resend("function", "p.Missing") {
		t.Fatal("Resend of an unbound symbol = true")
	}
	if s.Transmitted("function", "p.A") {
		t.Fatal("p.A still transmitted after Resend")
	}
	// p.A is declared again with its old ID and a new score; p.B stays a reference.
	got := sessTestEncode(t, s, &Payload{Tool: "t", Symbols: []Symbol{sessTestSym("p.A", "function", 0.5, 0), sessTestSym("p.B", "type", 0.7, 0)}})
	want := "GCF profile=graph tool=t symbols=2 session=true\n## targets\n@1  # previously transmitted\n@0 fn p.A 0.50 lsp\n"
	if got != want {
		t.Fatalf("after Resend:\ngot  %q\nwant %q", got, want)
	}
	if !s.Transmitted("function", "p.A") {
		t.Fatal("p.A not transmitted after its new declaration")
	}
}

// TestSessionEdgeNamesFirstEmitted: with a session, ids are not emission
// positions; an edge's name still resolves to the first symbol emitted
// with it (here the new symbol, id 1, emitted before the one transmitted
// earlier with id 0).
func TestSessionEdgeNamesFirstEmitted(t *testing.T) {
	s := NewSession()
	sessTestEncode(t, s, &Payload{Symbols: []Symbol{sessTestSym("p.X", "function", 0.1, 0)}})
	got := sessTestEncode(t, s, &Payload{
		Symbols: []Symbol{sessTestSym("p.X", "function", 0.1, 0), sessTestSym("p.X", "type", 0.9, 0)},
		Edges:   []Edge{{Source: "p.X", Target: "p.X", EdgeType: "calls"}},
	})
	want := "GCF profile=graph symbols=2 edges=1 session=true\n## targets\n@1 type p.X 0.90 lsp\n@0  # previously transmitted\n## edges [1]\n@1<@1 calls\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
