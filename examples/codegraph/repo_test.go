package main

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	module     = "github.com/gcfkit/gcf"
	packRootFn = module + ".PackRoot"
	// graphPackRootFn is where PackRoot is implemented (gcf.PackRoot is a
	// wrapper of it): the function with many callers in the module.
	graphPackRootFn = module + "/graph.PackRoot"
)

// astCallers finds, with go/parser alone (no type checker, independent of
// the server's loader), the functions and methods of the module at root
// that call the function name of the module's package pkg (its path
// below the module, "" for the root; its last element is its name):
// `name(...)` inside the package, `pkg.name(...)` elsewhere.
func astCallers(t *testing.T, root, pkg, name string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // a nested module (this example, bench/peers) is not part of ./...
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkgPath := module
		if rel != "." {
			pkgPath += "/" + filepath.ToSlash(rel)
		}
		target, qual := module, "gcf"
		if pkg != "" {
			target, qual = module+"/"+pkg, pkg[strings.LastIndex(pkg, "/")+1:]
		}
		inGCF := pkgPath == target
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			calls := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch fun := c.Fun.(type) {
				case *ast.Ident:
					calls = calls || inGCF && fun.Name == name
				case *ast.SelectorExpr:
					x, ok := fun.X.(*ast.Ident)
					calls = calls || ok && !inGCF && x.Name == qual && fun.Sel.Name == name
				}
				return true
			})
			if !calls {
				continue
			}
			qn := pkgPath + "."
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				typ := fd.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				if ix, ok := typ.(*ast.IndexExpr); ok {
					typ = ix.X
				}
				qn += typ.(*ast.Ident).Name + "."
			}
			out = append(out, qn+fd.Name.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// callersIn returns the sources of the calls edges into target in p.
func callersIn(p *gcf.Payload, target string) []string {
	var out []string
	for _, e := range p.Edges {
		if e.Target == target && e.EdgeType == "calls" {
			out = append(out, e.Source)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// exerciseRepo lists the tools and calls each on this repository through
// cs, checking the answers against what the test knows of the source.
func exerciseRepo(t *testing.T, cs *mcp.ClientSession) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		schema := fmt.Sprint(tool.InputSchema)
		if !strings.Contains(schema, "pack_root") || !strings.Contains(schema, "format") {
			t.Errorf("tool %s: input schema lacks format or pack_root: %s", tool.Name, schema)
		}
	}
	slices.Sort(names)
	if want := []string{"blast_radius", "context_for_task", "graph_query", "semantic_diff"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	root := repoRoot(t)
	consumer := gcfmcp.NewConsumer(0)
	read := func(res *mcp.CallToolResult) *gcf.Payload {
		t.Helper()
		p, _, err := consumer.Read([]byte(text(t, res)))
		if err != nil {
			t.Fatalf("%v\n%s", err, text(t, res))
		}
		return p
	}

	// blast_radius: the real callers of graph.PackRoot, as go/parser sees them.
	res := call(t, cs, "blast_radius", map[string]any{"symbol": graphPackRootFn, "max_depth": 2})
	p, err := gcf.Decode([]byte(text(t, res))) // the session's first answer decodes alone
	if err != nil {
		t.Fatalf("blast_radius: %v\n%s", err, text(t, res))
	}
	consumer.Read([]byte(text(t, res)))
	if got := symbolsAt(p, 0); !slices.Equal(got, []string{graphPackRootFn}) {
		t.Fatalf("blast_radius target %v", got)
	}
	want := astCallers(t, root, "graph", "PackRoot")
	if len(want) < 3 {
		t.Fatalf("go/parser found only %v calling PackRoot; the test is looking in the wrong place", want)
	}
	if got := callersIn(p, graphPackRootFn); !slices.Equal(got, want) {
		t.Errorf("callers of PackRoot:\n got  %v\n want %v", got, want)
	}
	for _, c := range want {
		if !slices.Contains(symbolsAt(p, 1), c) {
			t.Errorf("caller %s is not at distance 1", c)
		}
	}

	// graph_query: what graph.Respond (behind gcf.Respond) calls.
	res = call(t, cs, "graph_query", map[string]any{"symbol": "graph.Respond", "edge_type": "calls", "direction": "out"})
	p = read(res)
	out := symbolsAt(p, 1)
	for _, callee := range []string{"PackRoot", "Diff", "EncodeDelta", "EncodeUnchanged", "Encode"} {
		if !slices.Contains(out, module+"/graph."+callee) {
			t.Errorf("graph_query: Respond's callees %v lack %s", out, callee)
		}
	}
	for _, e := range p.Edges {
		if e.EdgeType != "calls" {
			t.Errorf("graph_query edge_type=calls returned %+v", e)
		}
	}

	// context_for_task: a query about pack roots finds gcf.PackRoot within budget.
	res = call(t, cs, "context_for_task", map[string]any{"query": "compute the pack root of a payload", "budget": 1500})
	p = read(res)
	if !slices.Contains(symbolsAt(p, 0), packRootFn) {
		t.Errorf("context_for_task targets %v lack %s", symbolsAt(p, 0), packRootFn)
	}
	if m := meta(t, res); p.TokenBudget != 1500 || p.TokensUsed > 1500 || m.Tokens > 1500 {
		t.Errorf("context_for_task: budget %d, tokens= %d, sent %d tokens", p.TokenBudget, p.TokensUsed, m.Tokens)
	}

	// semantic_diff between two directories (here the same one) is an
	// empty delta. (Git revisions, which type-check a second copy of the
	// module, are tested on a small module: TestSemanticDiffGit.)
	res = call(t, cs, "semantic_diff", map[string]any{"base": ".", "head": root})
	d, err := gcf.DecodeDelta([]byte(text(t, res)))
	if err != nil {
		t.Fatalf("semantic_diff: %v\n%s", err, text(t, res))
	}
	if len(d.Added)+len(d.Removed)+len(d.AddedEdges)+len(d.RemovedEdges) != 0 || d.BaseRoot != d.NewRoot {
		t.Errorf("semantic_diff . root is not empty: %+v", d)
	}

	// JSON fallback.
	res = call(t, cs, "graph_query", map[string]any{"symbol": packRootFn, "format": "json"})
	if s := text(t, res); !strings.HasPrefix(s, "{") || !strings.Contains(s, `"qualifiedName":"`+packRootFn+`"`) {
		t.Errorf("format=json: %.200s", s)
	}
}

func TestRepoInMemory(t *testing.T) {
	srv, _ := newServer(sharedRepoTools(t))
	exerciseRepo(t, connect(t, srv))
}

// TestRepoSubprocess builds the example and talks to it over stdio.
func TestRepoSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the example server; skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "codegraph")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-root", repoRoot(t))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing: %v", err)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	}()
	exerciseRepo(t, cs)
	res := call(t, cs, "blast_radius", map[string]any{"symbol": "gcf.PackRoot", "pack_root": "nothex"})
	if !res.IsError {
		t.Errorf("a bad pack_root over stdio is not a tool error: %s", text(t, res))
	}
}

// TestBadInput: every bad argument is a tool error with a clear message,
// and the server keeps answering.
func TestBadInput(t *testing.T) {
	srv, _ := newServer(sharedRepoTools(t))
	cs := connect(t, srv)
	outside := filepath.Dir(repoRoot(t))
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"context_for_task", map[string]any{"query": "pack root", "bogus": 1}, "bogus"},
		{"context_for_task", map[string]any{"query": "pack root", "budget": "lots"}, "budget"},
		{"context_for_task", map[string]any{"query": 42}, "query"},
		{"context_for_task", map[string]any{"query": "pack root", "budget": -1}, "budget must be between 50 and 100000 tokens, got -1"},
		{"context_for_task", map[string]any{"query": "pack root", "budget": 1e9}, "budget must be between 50 and 100000 tokens, got 1000000000"},
		{"context_for_task", map[string]any{}, "query"},
		{"context_for_task", map[string]any{"query": "!!"}, "no word"},
		{"blast_radius", map[string]any{"symbol": packRootFn, "pack_root": "not-hex"}, "pack_root"},
		{"blast_radius", map[string]any{"symbol": packRootFn, "pack_root": "sha256:" + strings.Repeat("g", 64)}, "not a lowercase hex digit"},
		{"blast_radius", map[string]any{"symbol": packRootFn, "pack_root": "sha256:abc"}, "64 hex digits"},
		{"blast_radius", map[string]any{"symbol": packRootFn, "format": "yaml"}, "format"},
		{"blast_radius", map[string]any{"symbol": packRootFn, "max_depth": 11}, "max_depth"},
		{"blast_radius", map[string]any{"symbol": "NoSuchSymbolAnywhere"}, "no symbol"},
		{"blast_radius", map[string]any{"symbol": "Encode"}, "ambiguous"},
		{"graph_query", map[string]any{"symbol": packRootFn, "edge_type": "eats"}, "edge_type"},
		{"graph_query", map[string]any{"symbol": packRootFn, "direction": "up"}, "direction"},
		{"semantic_diff", map[string]any{"base": "../..", "head": "."}, "outside the root"},
		{"semantic_diff", map[string]any{"base": outside, "head": "."}, "outside the root"},
		{"semantic_diff", map[string]any{"base": "/etc", "head": "."}, "outside the root"},
		{"semantic_diff", map[string]any{"base": ".", "head": "--upload-pack=evil"}, "neither a directory"},
		{"semantic_diff", map[string]any{"base": ".", "head": "no-such-revision-xyz"}, "neither a directory"},
		{"semantic_diff", map[string]any{"base": ".", "head": "go.mod"}, "not a directory"},
	}
	for _, c := range cases {
		res := call(t, cs, c.tool, c.args)
		msg := ""
		if len(res.Content) > 0 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				msg = tc.Text
			}
		}
		if !res.IsError {
			t.Errorf("%s %v: not a tool error: %.200s", c.tool, c.args, msg)
			continue
		}
		t.Logf("%s %v: %s", c.tool, c.args, msg)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: message %q does not mention %q", c.tool, c.args, msg, c.want)
		}
	}
	// Still serving.
	res := call(t, cs, "graph_query", map[string]any{"symbol": packRootFn})
	if _, err := gcfmcp.Text(res); err != nil {
		t.Fatal(err)
	}
}

// TestRepoLoad: 8 concurrent clients x 200 calls each on this repository;
// every response arrives and names the symbol asked for, and the session
// state is released when the clients disconnect.
func TestRepoLoad(t *testing.T) {
	const clients, calls = 8, 200
	srv, g := newServer(sharedRepoTools(t))
	symbols := []string{packRootFn, module + ".Encode", module + ".Decode", module + ".Respond", module + ".EncodeGeneric"}
	baseGoroutines := runtime.NumGoroutine()
	deadline := time.Now().Add(3 * time.Minute)
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	var answered [clients]int
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithDeadline(context.Background(), deadline)
			defer cancel()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.Connect(ctx, st, nil)
			if err != nil {
				errs <- err
				return
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "load"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				errs <- err
				return
			}
			defer func() { cs.Close(); ss.Wait() }()
			consumer := gcfmcp.NewConsumer(0)
			for i := range calls {
				sym := symbols[(c+i)%len(symbols)]
				tool, args := "graph_query", map[string]any{"symbol": sym}
				if i%2 == 1 {
					tool, args = "blast_radius", map[string]any{"symbol": sym, "max_depth": 1}
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
				if err != nil {
					errs <- fmt.Errorf("client %d call %d: %v", c, i, err)
					return
				}
				s, err := gcfmcp.Text(res)
				if err != nil {
					errs <- fmt.Errorf("client %d call %d: %v", c, i, err)
					return
				}
				p, _, err := consumer.Read([]byte(s))
				if err != nil {
					errs <- fmt.Errorf("client %d call %d: %v\n%s", c, i, err, s)
					return
				}
				if got := symbolsAt(p, 0); !slices.Equal(got, []string{sym}) {
					errs <- fmt.Errorf("client %d call %d: asked for %s, got targets %v", c, i, sym, got)
					return
				}
				answered[c]++
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for c, n := range answered {
		if n != calls {
			t.Errorf("client %d: %d of %d answers", c, n, calls)
		}
	}
	waitReleased(t, g, baseGoroutines)
}

// waitReleased waits (bounded) until g holds no session state and the
// goroutine count is back near base.
func waitReleased(t *testing.T, g *gcfmcp.Server, base int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := g.Stats()
		n := runtime.NumGoroutine()
		if st == (gcfmcp.Stats{}) && n <= base+2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after disconnect: %+v retained, %d goroutines (baseline %d)", st, n, base)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
