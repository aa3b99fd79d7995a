package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/types"
	"io/fs"
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
}

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
		Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("loading the module at %s: %v", dir, err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no Go package under %s", dir)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if len(errs) < 5 {
				errs = append(errs, e.Error())
			}
		}
	})
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
		return nil, fmt.Errorf("no package under %s type-checked: %s", dir, strings.Join(errs, "; "))
	}
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
	b.g.Load = time.Since(start)
	return b.g, nil
}

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

// cache holds the graph of each directory, reloaded when its Go files change.
type cache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

type cacheEntry struct {
	mu    sync.Mutex
	print string
	g     *graph
	err   error
}

func newCache() *cache { return &cache{entries: map[string]*cacheEntry{}} }

// get returns the graph of dir, loading it when it is not cached or when
// a .go file, go.mod or go.sum under dir changed since it was loaded.
func (c *cache) get(dir string) (*graph, error) {
	c.mu.Lock()
	e, ok := c.entries[dir]
	if !ok {
		e = &cacheEntry{}
		c.entries[dir] = e
	}
	c.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	fp, err := fingerprint(dir)
	if err != nil {
		return nil, err
	}
	if e.print == fp && (e.g != nil || e.err != nil) {
		return e.g, e.err
	}
	e.g, e.err = loadGraph(dir)
	e.print = fp
	return e.g, e.err
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
	return hex.EncodeToString(h.Sum(nil)), nil
}
