package main

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/gcfkit/gcf/tokens"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of the tools' arguments.
const (
	defaultBudget = 2000
	minBudget     = 50
	maxBudget     = 100_000
	defaultDepth  = 3
	maxDepth      = 10
	maxSymbols    = 400  // most symbols in one result
	maxQueryBytes = 4096 // longest context_for_task query
	maxQueryTerms = 64   // most distinct words searched for in one
)

type contextArgs struct {
	Query  string `json:"query" jsonschema:"what the task is about: words or identifiers (at most 4096 bytes and 64 distinct words)"`
	Budget int    `json:"budget,omitempty" jsonschema:"token budget of the result, 50 to 100000 (default 2000)"`
}

type blastArgs struct {
	Symbol   string `json:"symbol" jsonschema:"qualified name (pkg/path.Name, pkg/path.Type.Method) or a unique suffix of one"`
	MaxDepth int    `json:"max_depth,omitempty" jsonschema:"how many hops of dependents, 1 to 10 (default 3)"`
}

type queryArgs struct {
	Symbol    string `json:"symbol" jsonschema:"qualified name or a unique suffix of one"`
	EdgeType  string `json:"edge_type,omitempty" jsonschema:"calls, implements, references, imports, or empty for all"`
	Direction string `json:"direction,omitempty" jsonschema:"out (what the symbol uses), in (what uses it) or both (default)"`
}

type diffArgs struct {
	Base string `json:"base" jsonschema:"a git revision of the repository at the root, or a directory inside the root"`
	Head string `json:"head" jsonschema:"a git revision of the repository at the root, or a directory inside the root"`
}

// tools serves the four tools over the module at root.
type tools struct {
	root    string // absolute, symlinks resolved
	graphs  *cache
	revs    *revisions
	counter *tokens.Counter
}

func (t *tools) graph() (*graph, error) { return t.graphs.get(t.root) }

// register adds the tools to srv, delivered through g.
func (t *tools) register(g *gcfmcp.Server, srv *mcp.Server) {
	gcfmcp.AddTool(g, srv, &mcp.Tool{Name: "context_for_task",
		Description: "The symbols of the Go module most relevant to a task, ranked, with their calls, references, implementations and imports, within a token budget."},
		t.contextForTask)
	gcfmcp.AddTool(g, srv, &mcp.Tool{Name: "blast_radius",
		Description: "What depends on a symbol, transitively: callers, referrers and implementers, grouped by distance."},
		t.blastRadius)
	gcfmcp.AddTool(g, srv, &mcp.Tool{Name: "graph_query",
		Description: "The neighbours of a symbol along one edge type (calls, implements, references, imports) or all."},
		t.graphQuery)
	gcfmcp.AddTool(g, srv, &mcp.Tool{Name: "semantic_diff",
		Description: "The symbols and edges added and removed between two git revisions or two directories of the module, as a graph delta."},
		t.semanticDiff)
}

func (t *tools) contextForTask(ctx context.Context, req *mcp.CallToolRequest, in contextArgs) (*gcf.Payload, error) {
	budget := in.Budget
	if budget == 0 {
		budget = defaultBudget
	}
	if budget < minBudget || budget > maxBudget {
		return nil, fmt.Errorf("budget must be between %d and %d tokens, got %d", minBudget, maxBudget, in.Budget)
	}
	// Each call scores every symbol against every term: both are capped.
	if len(in.Query) > maxQueryBytes {
		return nil, fmt.Errorf("query is %d bytes; at most %d: say what the task is about in fewer words", len(in.Query), maxQueryBytes)
	}
	terms := queryTerms(in.Query)
	if len(terms) > maxQueryTerms {
		return nil, fmt.Errorf("query has %d distinct words; at most %d: say what the task is about in fewer words", len(terms), maxQueryTerms)
	}
	if len(terms) == 0 {
		return nil, fmt.Errorf("query %q has no word to search for", clip(in.Query))
	}
	g, err := t.graph()
	if err != nil {
		return nil, err
	}
	match := make([]float64, len(g.Nodes))
	best := 0.0
	for i := range g.Nodes {
		match[i] = matchScore(&g.Nodes[i], terms)
		best = max(best, match[i])
	}
	if best == 0 {
		return nil, fmt.Errorf("no symbol of %s matches %q", g.Module, clip(in.Query))
	}
	var targets []int
	for i, m := range match {
		if m >= 0.5*best {
			targets = append(targets, i)
		}
	}
	slices.SortFunc(targets, func(a, b int) int {
		return cmp.Or(cmp.Compare(match[b], match[a]), strings.Compare(g.Nodes[a].QName, g.Nodes[b].QName))
	})
	if len(targets) > 8 {
		targets = targets[:8]
	}
	dist := g.bfs(targets, 2, func(e edge) bool { return true }, true, true)
	cent := g.centrality()
	type cand struct {
		i, d  int
		score float64
	}
	var cands []cand
	for i, d := range dist {
		rel := match[i]
		if d > 0 {
			rel = max(rel, best*math.Pow(0.5, float64(d)))
		}
		cands = append(cands, cand{i, d, round2(0.85*rel/best + 0.15*cent[i])})
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(b.score, a.score), strings.Compare(g.Nodes[a.i].QName, g.Nodes[b.i].QName))
	})
	// Fill the budget in rank order: each symbol costs its line, each edge
	// to a symbol already in about six tokens.
	used := t.counter.Count("GCF profile=graph tool=context_for_task budget=100000 tokens=100000 symbols=400 edges=1000 pack_root=sha256:" + strings.Repeat("0", 64) + " session=true\n## targets\n## related\n## extended\n## edges [1000]\n")
	in2 := map[int]bool{}
	p := &gcf.Payload{Tool: "context_for_task", TokenBudget: budget}
	for _, c := range cands {
		if len(p.Symbols) == maxSymbols {
			break
		}
		n := &g.Nodes[c.i]
		cost := t.counter.Count(fmt.Sprintf("@%d %s %s %.2f %s\n", len(p.Symbols), gcf.KindAbbrev(n.Kind), n.QName, c.score, provenance))
		for _, ei := range g.out[c.i] {
			if in2[g.Edges[ei].Dst] {
				cost += 6
			}
		}
		for _, ei := range g.in[c.i] {
			if in2[g.Edges[ei].Src] {
				cost += 6
			}
		}
		if used+cost > budget {
			if len(p.Symbols) == 0 {
				return nil, fmt.Errorf("budget %d is too small for even the best match (%s)", budget, n.QName)
			}
			continue
		}
		used += cost
		in2[c.i] = true
		p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: n.QName, Kind: n.Kind, Score: c.score, Provenance: provenance, Distance: c.d})
	}
	p.Edges = g.edgesAmong(in2, func(edge) bool { return true })
	// The estimate is close; the exact count of the encoded payload as
	// delivered (with its pack_root and session=true) decides, dropping the
	// lowest-ranked symbols until it fits.
	// (Scores are already at two decimals, so PackRoot(p) is the root the
	// client will see; tokens= is counted at the magnitude of the budget.)
	suffix := t.counter.Count(" session=true")
	for {
		root, err := gcf.PackRoot(p)
		if err != nil {
			return nil, err
		}
		p.PackRoot, p.TokensUsed = root, budget
		out, err := gcf.Encode(p)
		p.PackRoot = ""
		if err != nil {
			return nil, err
		}
		p.TokensUsed = t.counter.CountBytes(out) + suffix
		if p.TokensUsed <= budget || len(p.Symbols) == 1 {
			break
		}
		drop := max(1, len(p.Symbols)/20)
		for _, s := range p.Symbols[len(p.Symbols)-drop:] {
			delete(in2, g.byName[s.QualifiedName])
		}
		p.Symbols = p.Symbols[:len(p.Symbols)-drop]
		p.Edges = g.edgesAmong(in2, func(edge) bool { return true })
	}
	return p, nil
}

func (t *tools) blastRadius(ctx context.Context, req *mcp.CallToolRequest, in blastArgs) (*gcf.Payload, error) {
	depth := in.MaxDepth
	if depth == 0 {
		depth = defaultDepth
	}
	if depth < 1 || depth > maxDepth {
		return nil, fmt.Errorf("max_depth must be between 1 and %d, got %d", maxDepth, in.MaxDepth)
	}
	g, err := t.graph()
	if err != nil {
		return nil, err
	}
	target, err := g.resolve(in.Symbol)
	if err != nil {
		return nil, err
	}
	// Dependents: follow incoming calls, references and implements edges.
	dist := g.bfs([]int{target}, depth, func(e edge) bool { return e.Type != edgeImports }, false, true)
	return g.payload("blast_radius", dist, func(e edge) bool { return e.Type != edgeImports }), nil
}

func (t *tools) graphQuery(ctx context.Context, req *mcp.CallToolRequest, in queryArgs) (*gcf.Payload, error) {
	keep := func(edge) bool { return true }
	switch in.EdgeType {
	case "", "any", "all":
	case edgeCalls, edgeImplements, edgeReferences, edgeImports:
		typ := in.EdgeType
		keep = func(e edge) bool { return e.Type == typ }
	default:
		return nil, fmt.Errorf("edge_type %q is not one of %s", clip(in.EdgeType), strings.Join(edgeTypes, ", "))
	}
	out, inward := true, true
	switch in.Direction {
	case "", "both":
	case "out":
		inward = false
	case "in":
		out = false
	default:
		return nil, fmt.Errorf("direction %q is not out, in or both", clip(in.Direction))
	}
	g, err := t.graph()
	if err != nil {
		return nil, err
	}
	target, err := g.resolve(in.Symbol)
	if err != nil {
		return nil, err
	}
	dist := g.bfs([]int{target}, 1, keep, out, inward)
	return g.payload("graph_query", dist, keep), nil
}

// payload turns the distances from a BFS into a graph payload: scores fall
// with distance and rise with the symbol's number of dependents; the
// nearest maxSymbols symbols are kept.
func (g *graph) payload(tool string, dist map[int]int, keep func(edge) bool) *gcf.Payload {
	cent := g.centrality()
	ids := make([]int, 0, len(dist))
	for i := range dist {
		ids = append(ids, i)
	}
	score := func(i int) float64 { return round2(0.8/float64(1+dist[i]) + 0.2*cent[i]) }
	slices.SortFunc(ids, func(a, b int) int {
		return cmp.Or(cmp.Compare(dist[a], dist[b]), cmp.Compare(score(b), score(a)), strings.Compare(g.Nodes[a].QName, g.Nodes[b].QName))
	})
	if len(ids) > maxSymbols {
		ids = ids[:maxSymbols]
	}
	p := &gcf.Payload{Tool: tool}
	set := map[int]bool{}
	for _, i := range ids {
		n := &g.Nodes[i]
		set[i] = true
		p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: n.QName, Kind: n.Kind, Score: score(i), Provenance: provenance, Distance: dist[i]})
	}
	p.Edges = g.edgesAmong(set, keep)
	return p
}

// edgesAmong returns the kept edges whose two ends are in set.
func (g *graph) edgesAmong(set map[int]bool, keep func(edge) bool) []gcf.Edge {
	var out []gcf.Edge
	for _, e := range g.Edges { // sorted by index()
		if set[e.Src] && set[e.Dst] && keep(e) {
			out = append(out, gcf.Edge{Source: g.Nodes[e.Src].QName, Target: g.Nodes[e.Dst].QName, EdgeType: e.Type})
		}
	}
	return out
}

// bfs returns the distance of every node within depth hops of the starts,
// following kept edges forwards (out) and/or backwards (in).
func (g *graph) bfs(starts []int, depth int, keep func(edge) bool, out, in bool) map[int]int {
	dist := map[int]int{}
	frontier := []int{}
	for _, s := range starts {
		if _, ok := dist[s]; !ok {
			dist[s] = 0
			frontier = append(frontier, s)
		}
	}
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []int
		visit := func(j int) {
			if _, ok := dist[j]; !ok {
				dist[j] = d
				next = append(next, j)
			}
		}
		for _, i := range frontier {
			if out {
				for _, ei := range g.out[i] {
					if keep(g.Edges[ei]) {
						visit(g.Edges[ei].Dst)
					}
				}
			}
			if in {
				for _, ei := range g.in[i] {
					if keep(g.Edges[ei]) {
						visit(g.Edges[ei].Src)
					}
				}
			}
		}
		frontier = next
	}
	return dist
}

// centrality is each node's number of incoming edges on a log scale, 0 to 1.
func (g *graph) centrality() []float64 {
	c := make([]float64, len(g.Nodes))
	top := 0
	for i := range g.Nodes {
		top = max(top, len(g.in[i]))
	}
	if top == 0 {
		return c
	}
	for i := range g.Nodes {
		c[i] = math.Log1p(float64(len(g.in[i]))) / math.Log1p(float64(top))
	}
	return c
}

// resolve finds the symbol named s: its qualified name, or a suffix of
// exactly one qualified name that starts after a '.' or '/'.
func (g *graph) resolve(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("symbol is empty: give a qualified name such as %s.Name", g.Module)
	}
	if i, ok := g.lookup(s); ok {
		return i, nil
	}
	var found []int
	for i := range g.Nodes {
		q := g.Nodes[i].QName
		if strings.HasSuffix(q, s) && len(q) > len(s) && (q[len(q)-len(s)-1] == '.' || q[len(q)-len(s)-1] == '/') {
			found = append(found, i)
		}
	}
	switch len(found) {
	case 0:
		return 0, fmt.Errorf("no symbol %q in %s", clip(s), g.Module)
	case 1:
		return found[0], nil
	}
	names := make([]string, 0, 6)
	for _, i := range found[:min(len(found), 6)] {
		names = append(names, g.Nodes[i].QName)
	}
	return 0, fmt.Errorf("symbol %q is ambiguous (%d matches: %s); give more of its qualified name", clip(s), len(found), strings.Join(names, ", "))
}

// queryTerms splits a query into lower-case words, splitting identifiers at
// case changes and non-alphanumerics, and dropping short and common words.
func queryTerms(q string) []string {
	var terms []string
	seen := map[string]bool{}
	for _, w := range splitWords(q) {
		w = strings.ToLower(w)
		if len(w) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		terms = append(terms, w)
	}
	return terms
}

var stopWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "that": true, "this": true,
	"from": true, "into": true, "how": true, "what": true, "when": true, "where": true, "fix": true, "add": true}

// splitWords splits s at non-alphanumerics and camel-case boundaries.
func splitWords(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	for i, r := range rs {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum {
			if start >= 0 {
				out = append(out, string(rs[start:i]))
				start = -1
			}
			continue
		}
		if start >= 0 && unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
			out = append(out, string(rs[start:i]))
			start = i
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, string(rs[start:]))
	}
	return out
}

// matchScore is how well a symbol matches the query terms, 0 to 1.
func matchScore(n *node, terms []string) float64 {
	name := strings.ToLower(n.Name)
	parts := splitWords(n.Name)
	qname := strings.ToLower(n.QName)
	total := 0.0
	for _, t := range terms {
		s := 0.0
		switch {
		case name == t:
			s = 1
		case slices.ContainsFunc(parts, func(p string) bool { return strings.ToLower(p) == t }):
			s = 0.8
		case strings.Contains(name, t):
			s = 0.6
		case strings.Contains(qname, t):
			s = 0.25
		}
		total += s
	}
	total /= float64(len(terms))
	switch n.Kind {
	case kindField:
		total *= 0.7
	case kindPackage:
		total *= 0.5
	}
	return total
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
