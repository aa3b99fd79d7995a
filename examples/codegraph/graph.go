package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/types"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"
)

// The kinds of symbol and edge the graph holds (the graph profile's full
// kind names, abbreviated on the wire).
const (
	kindPackage   = "package"
	kindFunction  = "function"
	kindMethod    = "method"
	kindType      = "type"
	kindInterface = "interface"
	kindField     = "field"

	edgeCalls      = "calls"
	edgeImplements = "implements"
	edgeReferences = "references"
	edgeImports    = "imports"

	provenance = "go_types" // every symbol and edge comes from the type checker
)

var edgeTypes = []string{edgeCalls, edgeImplements, edgeReferences, edgeImports}

// node is one symbol of the graph.
type node struct {
	QName string
	Kind  string
	Name  string // the short name, matched against queries
	Pkg   string
}

// edge is a directed relation: Src Type Dst ("main calls run").
type edge struct {
	Src, Dst int
	Type     string
}

// graph is the symbol graph of one Go module.
type graph struct {
	Module string
	Nodes  []node
	Edges  []edge
	byName map[string]int
	out    [][]int // node -> indices of its outgoing edges
	in     [][]int // node -> indices of its incoming edges
	Load   time.Duration
	// Errors are the load errors of the module's packages ("pkg/path:
	// message", at most maxLoadErrors and a count of the rest): a package
	// that does not load or type-check is left out or served in part, and
	// the rest of the module is served.
	Errors []string
	bytes  int64 // estimated size in bytes (estimate)
}

// maxLoadErrors is the number of package load errors a graph keeps.
const maxLoadErrors = 20

func (g *graph) lookup(qname string) (int, bool) {
	i, ok := g.byName[qname]
	return i, ok
}

// loadGraph type-checks the module at dir (every package of ./..., tests
// excluded) and builds its symbol graph.
func loadGraph(dir string) (*graph, error) {
	start := time.Now()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule,
		Dir: dir,
		Env: loadEnv(dir),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("loading the module at %s: %v", dir, err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no Go package under %s", dir)
	}
	var errs []string
	seen, more := map[string]bool{}, 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msg := p.PkgPath + ": " + e.Error()
			switch {
			case seen[msg]:
			case len(errs) < maxLoadErrors:
				seen[msg] = true
				errs = append(errs, msg)
			default:
				seen[msg] = true
				more++
			}
		}
	})
	if more > 0 {
		errs = append(errs, fmt.Sprintf("and %d more load errors", more))
	}
	b := &builder{g: &graph{byName: map[string]int{}}, objs: map[types.Object]int{}, seen: map[edge]bool{}}
	local := map[string]*packages.Package{}
	for _, p := range pkgs {
		if p.Types == nil || p.TypesInfo == nil {
			continue
		}
		local[p.PkgPath] = p
		if b.g.Module == "" && p.Module != nil {
			b.g.Module = p.Module.Path
		}
	}
	if len(local) == 0 {
		return nil, fmt.Errorf("no package under %s type-checked: %s", dir, strings.Join(errs[:min(len(errs), 5)], "; "))
	}
	b.g.Errors = errs
	paths := make([]string, 0, len(local))
	for path := range local {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	// Declarations first, so that references across packages resolve.
	for _, path := range paths {
		b.declare(local[path])
	}
	for _, path := range paths {
		p := local[path]
		for imp := range p.Imports {
			if _, ok := local[imp]; ok {
				b.link(b.g.byName[path], b.g.byName[imp], edgeImports)
			}
		}
		b.bodies(p)
	}
	b.implements()
	b.g.index()
	b.g.bytes = b.g.estimate()
	b.g.Load = time.Since(start)
	return b.g, nil
}

// loadEnv is the environment of the go command that lists the module at
// dir. It is read-only: the go command must not edit go.mod or go.sum
// (-mod=readonly, or -mod=vendor when vendor/modules.txt exists; a -mod
// of the user's GOFLAGS is dropped, the other flags kept). It is offline:
// no module proxy, version control, checksum database or toolchain
// download, so a module missing from the module cache or from go.mod is a
// load error of the packages that import it.
func loadEnv(dir string) []string {
	mod := "-mod=readonly"
	if fi, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil && fi.Mode().IsRegular() {
		mod = "-mod=vendor"
	}
	var flags []string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if !strings.HasPrefix(f, "-mod=") && !strings.HasPrefix(f, "--mod=") {
			flags = append(flags, f)
		}
	}
	flags = append(flags, mod)
	return append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.Join(flags, " "),
		"GOPROXY=off", "GOSUMDB=off", "GONOPROXY=", "GONOSUMDB=", "GOPRIVATE=", "GOVCS=*:off", "GOTOOLCHAIN=local")
}

// estimate is about the bytes g holds: its symbols (structs, strings, the
// index by name, the adjacency lists), its edges and its load errors.
func (g *graph) estimate() int64 {
	const nodeBytes = 4*16 + 64 + 2*24 // node, byName entry, out and in slice headers
	const edgeBytes = 32 + 2*8         // edge, its index in out and in
	n := int64(len(g.Nodes))*nodeBytes + int64(len(g.Edges))*edgeBytes
	for i := range g.Nodes {
		n += int64(len(g.Nodes[i].QName) + len(g.Nodes[i].Name))
	}
	for _, e := range g.Errors {
		n += int64(len(e))
	}
	return n
}

// size is g's estimated size in bytes, as the cache accounts it.
func (g *graph) size() int64 { return g.bytes }

type ifaceNode struct {
	idx   int
	iface *types.Interface
}

type builder struct {
	g      *graph
	objs   map[types.Object]int
	seen   map[edge]bool
	ifaces []ifaceNode
	named  []*types.TypeName
}

func (b *builder) add(n node, obj types.Object) int {
	if i, ok := b.g.byName[n.QName]; ok {
		if obj != nil {
			b.objs[obj] = i
		}
		return i
	}
	i := len(b.g.Nodes)
	b.g.Nodes = append(b.g.Nodes, n)
	b.g.byName[n.QName] = i
	if obj != nil {
		b.objs[obj] = i
	}
	return i
}

func (b *builder) link(src, dst int, typ string) {
	if src == dst {
		return
	}
	e := edge{src, dst, typ}
	if !b.seen[e] {
		b.seen[e] = true
		b.g.Edges = append(b.g.Edges, e)
	}
}

// declare adds the package's types, interfaces, fields, functions and methods.
func (b *builder) declare(p *packages.Package) {
	b.add(node{QName: p.PkgPath, Kind: kindPackage, Name: p.Name, Pkg: p.PkgPath}, nil)
	scope := p.Types.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			b.add(node{QName: p.PkgPath + "." + name, Kind: kindFunction, Name: name, Pkg: p.PkgPath}, obj)
		case *types.TypeName:
			if obj.IsAlias() {
				continue
			}
			qn := p.PkgPath + "." + name
			kind := kindType
			if _, ok := obj.Type().Underlying().(*types.Interface); ok {
				kind = kindInterface
			}
			ti := b.add(node{QName: qn, Kind: kind, Name: name, Pkg: p.PkgPath}, obj)
			if it, ok := obj.Type().Underlying().(*types.Interface); ok {
				b.ifaces = append(b.ifaces, ifaceNode{ti, it})
			} else {
				b.named = append(b.named, obj)
			}
			if st, ok := obj.Type().Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					if f.Name() == "_" {
						continue
					}
					b.add(node{QName: qn + "." + f.Name(), Kind: kindField, Name: f.Name(), Pkg: p.PkgPath}, f)
				}
			}
			if named, ok := obj.Type().(*types.Named); ok {
				for m := range named.Methods() {
					b.add(node{QName: qn + "." + m.Name(), Kind: kindMethod, Name: m.Name(), Pkg: p.PkgPath}, m)
				}
			}
		}
	}
}

// origin maps an instantiated generic function or field to its declaration.
func origin(obj types.Object) types.Object {
	switch o := obj.(type) {
	case *types.Func:
		return o.Origin()
	case *types.Var:
		return o.Origin()
	}
	return obj
}

// bodies adds the calls and references of the package's declarations.
func (b *builder) bodies(p *packages.Package) {
	info := p.TypesInfo
	for _, f := range p.Syntax {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				src, ok := b.objs[info.Defs[d.Name]]
				if !ok || d.Body == nil {
					continue
				}
				b.walk(info, src, d.Type)
				b.walk(info, src, d.Body)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					if src, ok := b.objs[info.Defs[ts.Name]]; ok {
						b.walk(info, src, ts.Type)
					}
				}
			}
		}
	}
}

// walk adds an edge from src to every module symbol n uses: calls for
// called functions and methods, references for the rest.
func (b *builder) walk(info *types.Info, src int, n ast.Node) {
	callee := map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			fun := ast.Unparen(x.Fun)
			if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ix.X
			} else if ix, ok := fun.(*ast.IndexListExpr); ok {
				fun = ix.X
			}
			var id *ast.Ident
			switch f := fun.(type) {
			case *ast.Ident:
				id = f
			case *ast.SelectorExpr:
				id = f.Sel
			}
			if id != nil {
				if fn, ok := info.Uses[id].(*types.Func); ok {
					callee[id] = true
					if dst, ok := b.objs[origin(fn)]; ok {
						b.link(src, dst, edgeCalls)
					}
				}
			}
		case *ast.Ident:
			if callee[x] {
				return true
			}
			obj := info.Uses[x]
			if obj == nil {
				return true
			}
			if dst, ok := b.objs[origin(obj)]; ok {
				b.link(src, dst, edgeReferences)
			}
		}
		return true
	})
}

// implements adds T implements I for every concrete named type T (or *T)
// of the module and every interface I of the module with methods.
func (b *builder) implements() {
	for _, in := range b.ifaces {
		ii, iface := in.idx, in.iface
		if iface.NumMethods() == 0 || !iface.IsMethodSet() {
			continue
		}
		for _, tn := range b.named {
			t := tn.Type()
			if named, ok := t.(*types.Named); ok && named.TypeParams().Len() > 0 {
				continue
			}
			if types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface) {
				b.link(b.objs[tn], ii, edgeImplements)
			}
		}
	}
}

// index sorts the edges and builds the adjacency lists.
func (g *graph) index() {
	slices.SortFunc(g.Edges, func(a, b edge) int {
		if c := strings.Compare(g.Nodes[a.Src].QName, g.Nodes[b.Src].QName); c != 0 {
			return c
		}
		if c := strings.Compare(g.Nodes[a.Dst].QName, g.Nodes[b.Dst].QName); c != 0 {
			return c
		}
		return strings.Compare(a.Type, b.Type)
	})
	g.out = make([][]int, len(g.Nodes))
	g.in = make([][]int, len(g.Nodes))
	for i, e := range g.Edges {
		g.out[e.Src] = append(g.out[e.Src], i)
		g.in[e.Dst] = append(g.in[e.Dst], i)
	}
}

// Bounds of the graph cache.
const (
	maxGraphs     = 8         // graphs cached: the served module's, other directories', revisions'
	maxGraphBytes = 256 << 20 // their estimated size
)

// cache holds the graphs of directories: the served module's, other
// directories inside it, and git revisions extracted into temporary trees.
// Past maxEntries graphs or maxBytes (estimated), the least recently used
// are evicted, except the served module's; a revision's tree is removed
// with its graph.
type cache struct {
	mu         sync.Mutex
	entries    map[string]*cacheEntry // by directory
	keep       string                 // the directory never evicted (the served module)
	maxEntries int
	maxBytes   int64
	bytes      int64  // the entries' sizes
	clock      uint64 // counts uses, for least recently used
}

type cacheEntry struct {
	mu    sync.Mutex // held while loading
	print string
	g     *graph
	err   error
	tree  bool // an extracted revision: its files never change; removed on eviction
	// Under cache.mu:
	size  int64  // g.size() as counted in cache.bytes
	used  uint64 // cache.clock at the last use
	users int    // calls in load: not evicted
}

func newCache(keep string) *cache {
	return &cache{entries: map[string]*cacheEntry{}, keep: keep, maxEntries: maxGraphs, maxBytes: maxGraphBytes}
}

// get returns the graph of dir, loading it when it is not cached or when
// a .go file, go.mod or go.sum under dir changed since it was loaded.
func (c *cache) get(dir string) (*graph, error) { return c.load(dir, nil) }

// tree returns the graph of the revision tree dir, which extract writes
// on first use; the tree is removed when its graph is evicted, and at
// once when extract fails (nothing is cached then).
func (c *cache) tree(dir string, extract func(dir string) error) (*graph, error) {
	return c.load(dir, extract)
}

func (c *cache) load(dir string, extract func(string) error) (*graph, error) {
	c.mu.Lock()
	e, ok := c.entries[dir]
	if !ok {
		e = &cacheEntry{tree: extract != nil}
		c.entries[dir] = e
	}
	e.users++
	c.mu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	g, err, cached := c.fill(e, dir, extract)
	c.mu.Lock()
	e.users--
	c.clock++
	e.used = c.clock
	size := int64(0)
	if cached && e.g != nil {
		size = e.g.size()
	}
	c.bytes += size - e.size
	e.size = size
	if !cached && e.users == 0 && c.entries[dir] == e {
		delete(c.entries, dir)
	}
	gone := c.evict(e)
	c.mu.Unlock()
	for _, d := range gone {
		os.RemoveAll(d)
	}
	return g, err
}

// fill brings e up to date with dir, holding e.mu; cached is false when
// nothing of dir is cached (a tree that could not be extracted, a
// directory that is gone).
func (c *cache) fill(e *cacheEntry, dir string, extract func(string) error) (g *graph, err error, cached bool) {
	if e.tree {
		switch {
		case e.g != nil || e.err != nil:
			return e.g, e.err, true
		case extract == nil:
			return nil, fmt.Errorf("%s is not extracted", dir), false
		}
		if err := extract(dir); err != nil {
			os.RemoveAll(dir)
			return nil, err, false
		}
		e.g, e.err = loadGraph(dir)
		logErrors(dir, e.g)
		return e.g, e.err, true
	}
	fp, err := fingerprint(dir)
	if err != nil {
		e.print, e.g, e.err = "", nil, nil
		return nil, err, false
	}
	if e.print == fp && (e.g != nil || e.err != nil) {
		return e.g, e.err, true
	}
	e.g, e.err = loadGraph(dir)
	e.print = fp
	logErrors(dir, e.g)
	return e.g, e.err, true
}

// logErrors logs the load errors of a graph just loaded from dir.
func logErrors(dir string, g *graph) {
	if g != nil && len(g.Errors) > 0 {
		log.Printf("%s: load errors (the rest of the module is served): %s", dir, strings.Join(g.Errors, "; "))
	}
}

// evict removes, while the cache is over a bound, the least recently used
// entry other than cur, the kept directory and entries in use, holding
// c.mu. An evicted tree is moved aside at once (a new extraction may reuse
// its name) and returned, to be removed after c.mu is released.
func (c *cache) evict(cur *cacheEntry) (gone []string) {
	for len(c.entries) > c.maxEntries || c.bytes > c.maxBytes {
		var victim string
		var ve *cacheEntry
		for dir, e := range c.entries {
			if e == cur || dir == c.keep || e.users > 0 {
				continue
			}
			if ve == nil || e.used < ve.used {
				victim, ve = dir, e
			}
		}
		if ve == nil {
			return gone
		}
		delete(c.entries, victim)
		c.bytes -= ve.size
		if !ve.tree {
			continue
		}
		aside, err := os.MkdirTemp(filepath.Dir(victim), ".evicted-")
		if err == nil && os.Rename(victim, filepath.Join(aside, "tree")) == nil {
			gone = append(gone, aside)
			continue
		}
		if err == nil {
			os.Remove(aside)
		}
		os.RemoveAll(victim)
	}
	return gone
}

// fingerprint hashes the names, sizes and modification times of the files
// that make up the module at dir (as `go list ./...` sees it: no testdata,
// no directories starting with . or _, no nested modules).
func fingerprint(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir {
				if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "vendor" {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") && name != "go.mod" && name != "go.sum" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		h.Write([]byte(rel))
		h.Write([]byte{0})
		h.Write(strconv.AppendInt(nil, info.Size(), 10))
		h.Write([]byte{0})
		h.Write(strconv.AppendInt(nil, info.ModTime().UnixNano(), 10))
		h.Write([]byte{'\n'})
		return nil
	})
	if err != nil {
		return "", err
	}
	// With a vendor directory, the go command reads the vendored modules.
	if info, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil {
		h.Write([]byte("vendor/modules.txt\x00"))
		h.Write(strconv.AppendInt(nil, info.Size(), 10))
		h.Write([]byte{0})
		h.Write(strconv.AppendInt(nil, info.ModTime().UnixNano(), 10))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
