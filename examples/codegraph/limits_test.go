package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/gcfkit/gcf/tokens"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolError calls a tool that must fail and returns its message.
func toolError(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res := call(t, cs, name, args)
	msg := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			msg = tc.Text
		}
	}
	if !res.IsError {
		t.Fatalf("%s: not a tool error: %.200s", name, msg)
	}
	return msg
}

// TestQueryCaps: a context_for_task query longer than maxQueryBytes, or
// with more than maxQueryTerms distinct words, is a tool error naming the
// cap (the 360 KB query of the audit among them); a query at both caps is
// answered.
func TestQueryCaps(t *testing.T) {
	dir := t.TempDir()
	writeModule(t, dir, smallModule)
	tl, err := newTools(dir, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := newServer(tl)
	cs := connect(t, srv)

	words := func(n int) string { // n distinct words, "lookup" first
		w := []string{"lookup"}
		for i := 1; i < n; i++ {
			w = append(w, fmt.Sprintf("word%d", i))
		}
		return strings.Join(w, " ")
	}
	atCap := words(maxQueryTerms)
	if len(atCap) > maxQueryBytes {
		t.Fatalf("the test's query at the term cap is %d bytes, over the byte cap", len(atCap))
	}
	res := call(t, cs, "context_for_task", map[string]any{"query": atCap})
	if res.IsError {
		t.Fatalf("a query of %d words (%d bytes) is refused: %s", maxQueryTerms, len(atCap), text(t, res))
	}
	if p, err := gcf.Decode([]byte(text(t, res))); err != nil || !slices.Contains(symbolsAt(p, 0), "example.com/small.Lookup") {
		t.Errorf("the query at the caps does not find Lookup: %v\n%s", err, text(t, res))
	}

	msg := toolError(t, cs, "context_for_task", map[string]any{"query": words(maxQueryTerms + 1)})
	if want := fmt.Sprintf("%d distinct words; at most %d", maxQueryTerms+1, maxQueryTerms); !strings.Contains(msg, want) {
		t.Errorf("too many words: %q does not say %q", msg, want)
	}
	// Repeated words are one term each: a long query of few words is
	// refused by its length.
	for _, q := range []string{
		strings.Repeat("x", maxQueryBytes+1),
		strings.Repeat("lookup ", maxQueryBytes/7+1),
		strings.Repeat("alpha beta gamma delta ", 360<<10/23), // the audit's 360 KB
	} {
		msg := toolError(t, cs, "context_for_task", map[string]any{"query": q})
		if want := fmt.Sprintf("query is %d bytes; at most %d", len(q), maxQueryBytes); !strings.Contains(msg, want) {
			t.Errorf("query of %d bytes: %q does not say %q", len(q), msg, want)
		}
	}
}

// writeProxyModule lays out module path@version with files in the file
// system module proxy at dir (GOPROXY=file://dir).
func writeProxyModule(t *testing.T, dir, path, version string, files map[string]string) {
	t.Helper()
	base := filepath.Join(dir, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	mod := "module " + path + "\n\ngo 1.22\n"
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	files["go.mod"] = mod
	for name, body := range files {
		w, err := zw.Create(path + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`),
		version + ".mod":  []byte(mod),
		version + ".zip":  zb.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(base, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLoadReadOnly: the server never writes to the module it serves and
// never fetches a module. A package importing a module that go.mod does
// not require is a load error of that package, reported with the graph,
// while the rest of the module is served; go.mod and go.sum keep their
// bytes although the user's environment would let the go command fetch
// the module (a file proxy holding it) and edit go.mod (GOFLAGS=-mod=mod).
// With a vendor directory, the vendored modules are used.
func TestLoadReadOnly(t *testing.T) {
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	writeProxyModule(t, proxy, "example.com/dep", "v1.0.0", map[string]string{"dep.go": "package dep\n\nfunc D() {}\n"})
	modcache := filepath.Join(tmp, "modcache")
	t.Cleanup(func() { // the module cache is read-only; runs before TempDir's removal
		filepath.WalkDir(modcache, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(path, 0o755)
			}
			return nil
		})
	})
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", modcache)
	t.Setenv("GOFLAGS", "-mod=mod")

	served := filepath.Join(tmp, "served")
	goMod, goSum := "module example.com/served\n\ngo 1.22\n", "example.com/other v1.0.0/go.mod h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
	writeModule(t, served, map[string]string{
		"go.mod":       goMod,
		"go.sum":       goSum,
		"ok.go":        "package served\n\nfunc Ok() {}\n",
		"uses/uses.go": "package uses\n\nimport \"example.com/dep\"\n\nfunc U() { dep.D() }\n",
	})
	tl, err := newTools(served, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	g, loadErr := tl.graph()
	for name, want := range map[string]string{"go.mod": goMod, "go.sum": goSum} {
		if got, err := os.ReadFile(filepath.Join(served, name)); err != nil || string(got) != want {
			t.Errorf("%s after loading: %v\n%s\nwant\n%s", name, err, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(modcache, "cache", "download", "example.com", "dep")); err == nil {
		t.Error("the go command fetched example.com/dep from the proxy into the module cache")
	}
	if loadErr != nil {
		t.Fatalf("a missing requirement of one package fails the whole load: %v", loadErr)
	}
	if _, ok := g.lookup("example.com/served.Ok"); !ok {
		t.Error("the package without the missing requirement is not in the graph")
	}
	if !slices.ContainsFunc(g.Errors, func(e string) bool {
		return strings.HasPrefix(e, "example.com/served/uses: ") && strings.Contains(e, "example.com/dep")
	}) {
		t.Errorf("the load error of example.com/served/uses is not reported: %q", g.Errors)
	}

	// Vendored: the same module with example.com/dep required and vendored
	// loads without error, from the vendor directory.
	vendored := filepath.Join(tmp, "vendored")
	writeModule(t, vendored, map[string]string{
		"go.mod":                        "module example.com/served\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
		"ok.go":                         "package served\n\nfunc Ok() {}\n",
		"uses/uses.go":                  "package uses\n\nimport \"example.com/dep\"\n\nfunc U() { dep.D() }\n",
		"vendor/modules.txt":            "# example.com/dep v1.0.0\n## explicit\nexample.com/dep\n",
		"vendor/example.com/dep/dep.go": "package dep\n\nfunc D() {}\n",
	})
	tl, err = newTools(vendored, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	g, err = tl.graph()
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Errors) != 0 {
		t.Errorf("vendored module: load errors %q", g.Errors)
	}
	if _, ok := g.lookup("example.com/served/uses.U"); !ok {
		t.Error("vendored module: example.com/served/uses.U is not in the graph")
	}
}

// gitRepo returns a function running git in dir with a fixed identity.
func gitRepo(t *testing.T, dir string) func(args ...string) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// revisionHistory writes the small module into dir and commits n
// revisions of it, revision i adding the function Gi.
func revisionHistory(t *testing.T, dir string, n int) {
	writeModule(t, dir, smallModule)
	git := gitRepo(t, dir)
	git("init", "-q")
	for i := range n {
		writeModule(t, dir, map[string]string{fmt.Sprintf("g%d.go", i): fmt.Sprintf("package small\n\nfunc G%d() string { return B() }\n", i)})
		git("add", ".")
		git("commit", "-q", "-m", fmt.Sprint(i))
	}
}

// checkCache checks the cache against its bounds and the extracted trees
// on disk: every cached directory exists, and every extracted tree is
// cached (a tree and its graph are evicted together).
func checkCache(t *testing.T, tl *tools, maxEntries int) []string {
	t.Helper()
	tl.graphs.mu.Lock()
	var keys []string
	for dir := range tl.graphs.entries {
		keys = append(keys, dir)
	}
	tl.graphs.mu.Unlock()
	if len(keys) > maxEntries {
		t.Errorf("%d graphs cached, more than %d", len(keys), maxEntries)
	}
	for _, dir := range keys {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("a graph is cached for %s, whose tree is gone: %v", dir, err)
		}
	}
	if tl.revs.tmp != "" {
		trees, err := os.ReadDir(tl.revs.tmp)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range trees {
			if !slices.Contains(keys, filepath.Join(tl.revs.tmp, d.Name())) {
				t.Errorf("the extracted tree %s has no cached graph", d.Name())
			}
		}
	}
	return keys
}

// TestCacheEviction: semantic_diff over more revisions than the cache
// holds keeps at most maxGraphs graphs, evicts the extracted trees with
// their graphs, and still answers for an evicted revision; with a byte
// bound below one graph, only the graph just used and the served module's
// own are kept.
func TestCacheEviction(t *testing.T) {
	const n = maxGraphs + 3
	dir := t.TempDir()
	revisionHistory(t, dir, n)
	tl, err := newTools(dir, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	defer tl.revs.close()
	srv, _ := newServer(tl)
	cs := connect(t, srv)
	diff := func(base, head string) *gcf.DeltaPayload {
		t.Helper()
		res := call(t, cs, "semantic_diff", map[string]any{"base": base, "head": head})
		d, err := gcf.DecodeDelta([]byte(text(t, res)))
		if err != nil {
			t.Fatalf("%s..%s: %v\n%s", base, head, err, text(t, res))
		}
		return d
	}
	// The working tree's graph first: it stays.
	if _, err := tl.graph(); err != nil {
		t.Fatal(err)
	}
	for i := n - 1; i >= 1; i-- {
		d := diff(fmt.Sprintf("HEAD~%d", i), fmt.Sprintf("HEAD~%d", i-1))
		if len(d.Added) != 1 || d.Added[0].QualifiedName != fmt.Sprintf("example.com/small.G%d", n-i) {
			t.Errorf("HEAD~%d..HEAD~%d added %+v", i, i-1, d.Added)
		}
		checkCache(t, tl, maxGraphs)
	}
	if keys := checkCache(t, tl, maxGraphs); !slices.Contains(keys, tl.root) {
		t.Errorf("the served module's graph was evicted: %q", keys)
	}
	// The oldest revision was evicted; it is extracted and loaded again.
	if d := diff(fmt.Sprintf("HEAD~%d", n-1), "HEAD"); len(d.Added) != n-1 {
		t.Errorf("HEAD~%d..HEAD added %d symbols, want %d", n-1, len(d.Added), n-1)
	}
	checkCache(t, tl, maxGraphs)

	// A byte bound below one graph: the served module's graph and the last
	// one used.
	tl.graphs.maxBytes = 1
	diff("HEAD~2", "HEAD~1")
	keys := checkCache(t, tl, 2)
	if !slices.Contains(keys, tl.root) {
		t.Errorf("the served module's graph was evicted: %q", keys)
	}
	// No call is running: the entries' graphs can be read.
	tl.graphs.mu.Lock()
	var sum int64
	for dir, e := range tl.graphs.entries {
		if e.g == nil {
			t.Errorf("%s: cached without a graph", dir)
		} else if e.size != e.g.size() || e.size <= 0 {
			t.Errorf("%s: a graph of %d bytes accounted as %d", dir, e.g.size(), e.size)
		}
		sum += e.size
	}
	bytes := tl.graphs.bytes
	tl.graphs.mu.Unlock()
	if bytes != sum {
		t.Errorf("the cache accounts %d bytes, its graphs are %d", bytes, sum)
	}
}

// TestArchiveBound: a revision whose archive is larger than the bound is
// refused, naming the bound, without reading the archive into memory: git
// is stopped at the bound.
func TestArchiveBound(t *testing.T) {
	dir := t.TempDir()
	writeModule(t, dir, smallModule)
	const size = 64 << 20
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	git := gitRepo(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "big")
	tl, err := newTools(dir, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	defer tl.revs.close()
	tl.revs.maxBytes = 1 << 20
	srv, _ := newServer(tl)
	cs := connect(t, srv)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	msg := toolError(t, cs, "semantic_diff", map[string]any{"base": "HEAD", "head": "."})
	runtime.ReadMemStats(&after)
	if want := fmt.Sprintf("larger than %d bytes", 1<<20); !strings.Contains(msg, want) {
		t.Errorf("message %q does not name the bound (%q)", msg, want)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	if alloc > size/4 {
		t.Errorf("refusing a %d-byte archive over a bound of %d allocated %d bytes", size, 1<<20, alloc)
	}
	t.Logf("refusing a %d-byte archive over a bound of %d: %d bytes allocated", size, 1<<20, alloc)
	if trees, _ := os.ReadDir(tl.revs.tmp); len(trees) != 0 {
		t.Errorf("the refused revision left %d trees", len(trees))
	}
	// Under the bound, the same revision is served.
	tl.revs.maxBytes = 2 * size
	text(t, call(t, cs, "semantic_diff", map[string]any{"base": "HEAD", "head": "."}))
}

// TestCacheConcurrent: four clients diffing revisions at once through a
// cache of three graphs all get their answers, and when they are done the
// cache is within its bound with every tree and graph paired (run with
// -race).
func TestCacheConcurrent(t *testing.T) {
	const revs, clients, rounds = 6, 4, 3
	dir := t.TempDir()
	revisionHistory(t, dir, revs)
	tl, err := newTools(dir, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	defer tl.revs.close()
	tl.graphs.maxEntries = 3
	srv, _ := newServer(tl)
	var wg sync.WaitGroup
	errs := make(chan error, clients*rounds)
	for c := range clients {
		cs := connect(t, srv)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				i := (c + r) % (revs - 1)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "semantic_diff",
					Arguments: map[string]any{"base": fmt.Sprintf("HEAD~%d", i+1), "head": fmt.Sprintf("HEAD~%d", i)}})
				if err != nil {
					errs <- err
					continue
				}
				s, err := gcfmcp.Text(res)
				if err != nil {
					errs <- fmt.Errorf("HEAD~%d..HEAD~%d: %v", i+1, i, err)
					continue
				}
				d, err := gcf.DecodeDelta([]byte(s))
				if err != nil || len(d.Added) != 1 || d.Added[0].QualifiedName != fmt.Sprintf("example.com/small.G%d", revs-1-i) {
					errs <- fmt.Errorf("HEAD~%d..HEAD~%d: %v %+v", i+1, i, err, d)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkCache(t, tl, 3)
}
