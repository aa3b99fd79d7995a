package bench

// Generators for the streaming benchmarks (bench/stream_test.go) and the
// scale program (bench/scale): deterministic records produced one at a
// time, so a payload of any size can be written through the streaming
// encoder without holding it in memory.

import (
	"math/rand/v2"
	"strconv"

	"github.com/gcfkit/gcf"
)

// EmployeeFields are the columns of the streamed Employees table, in the
// order of the Employee struct's json tags.
var EmployeeFields = []string{"id", "name", "department", "salary", "active"}

// fullNames holds every "First Last" combination so that generating a
// record does not allocate.
var fullNames = func() []string {
	out := make([]string, 0, len(firstNames)*len(lastNames))
	for _, f := range firstNames {
		for _, l := range lastNames {
			out = append(out, f+" "+l)
		}
	}
	return out
}()

// EmployeeGen yields the records of GenEmployees one at a time: the first n
// records it returns equal GenEmployees(n).Employees. It does not allocate.
type EmployeeGen struct {
	r    *rand.Rand
	next int
}

// NewEmployeeGen returns a generator positioned at the first record.
func NewEmployeeGen() *EmployeeGen {
	return &EmployeeGen{r: rand.New(rand.NewPCG(employeesSeed, 0))}
}

// Next returns the next record.
func (g *EmployeeGen) Next() Employee {
	g.next++
	r := g.r
	// Same draws, in the same order, as GenEmployees.
	fi, li := r.IntN(len(firstNames)), r.IntN(len(lastNames))
	return Employee{
		ID:         g.next,
		Name:       fullNames[fi*len(lastNames)+li],
		Department: pick(r, departments),
		Salary:     40000 + r.IntN(160000),
		Active:     r.IntN(10) < 8,
	}
}

// BeginEmployees opens the streamed table `## employees [?]{id,name,...}`.
func BeginEmployees(e *gcf.Encoder) error {
	return e.BeginTable("employees", EmployeeFields...)
}

// WriteEmployee writes one row of the table opened by BeginEmployees.
func WriteEmployee(e *gcf.Encoder, emp *Employee) error {
	return e.WriteRow(emp.ID, emp.Name, emp.Department, emp.Salary, emp.Active)
}

// WriteEmployeesStream writes n generated records as a streaming generic
// payload: `## employees [?]{...}`, n rows and (on Close, which the caller
// does) the `##! summary counts=n` trailer.
func WriteEmployeesStream(e *gcf.Encoder, n int) error {
	if err := BeginEmployees(e); err != nil {
		return err
	}
	g := NewEmployeeGen()
	for range n {
		emp := g.Next()
		if err := WriteEmployee(e, &emp); err != nil {
			return err
		}
	}
	return nil
}

// Graph stream generator: n symbols numbered 0..n-1 with qualified names
// like GraphPayload's, written in five distance groups of n/5 (symbol i
// has distance 5i/n, so groups come in ascending order as the streaming
// encoder requires), then 2n edges between uniformly random symbols.

var (
	graphKinds = []string{"function", "method", "type", "interface", "var", "const", "field", "package"}
	graphProvs = []string{"lsp_resolved", "ast_inferred", "rwr", "lsp"}
	graphTypes = []string{"calls", "references", "imports", "implements"}
)

// GraphStreamHeader is the header of the generated graph stream.
var GraphStreamHeader = gcf.GraphHeader{Tool: "context_for_task", TokenBudget: 50000, TokensUsed: 41237}

// GraphGen yields the symbols and edges of a streamed graph of n symbols.
type GraphGen struct {
	n   int
	r   *rand.Rand
	buf []byte
}

// NewGraphGen returns a generator for a graph of n symbols and 2n edges.
func NewGraphGen(n int) *GraphGen {
	return &GraphGen{n: n, r: rand.New(rand.NewPCG(4, uint64(n)))}
}

// AppendSymbolName appends the qualified name of symbol i.
func AppendSymbolName(b []byte, i int) []byte {
	b = append(b, "github.com/acme/service/pkg"...)
	b = strconv.AppendInt(b, int64(i%97), 10)
	b = append(b, ".Symbol"...)
	return strconv.AppendInt(b, int64(i), 10)
}

func (g *GraphGen) name(i int) string {
	g.buf = AppendSymbolName(g.buf[:0], i)
	return string(g.buf)
}

// Symbol returns symbol i; call it for i = 0, 1, ..., n-1 in order.
func (g *GraphGen) Symbol(i int) gcf.Symbol {
	r := g.r
	return gcf.Symbol{
		QualifiedName: g.name(i),
		Kind:          graphKinds[r.IntN(len(graphKinds))],
		Score:         float64(r.IntN(100)) / 100,
		Provenance:    graphProvs[r.IntN(len(graphProvs))],
		Distance:      int(int64(i) * 5 / int64(g.n)),
	}
}

// EdgeEnds draws the endpoints and type of the next edge.
func (g *GraphGen) EdgeEnds() (src, tgt int, typ string) {
	r := g.r
	return r.IntN(g.n), r.IntN(g.n), graphTypes[r.IntN(len(graphTypes))]
}

// Edge returns the next edge with freshly built endpoint names (two small
// string allocations; use EdgeEnds with a name table to avoid them).
func (g *GraphGen) Edge() gcf.Edge {
	s, t, typ := g.EdgeEnds()
	return gcf.Edge{Source: g.name(s), Target: g.name(t), EdgeType: typ}
}

// EdgeIDs are the endpoints of one generated edge, by symbol ID.
type EdgeIDs struct {
	Source, Target int
	Type           string
}

// GraphStream returns the symbols and edges of the generated graph of n
// symbols, for benchmarks that must not time the generation. Edges share
// the name strings of the symbols; ids holds the same edges by symbol ID.
func GraphStream(n int) ([]gcf.Symbol, []gcf.Edge, []EdgeIDs) {
	g := NewGraphGen(n)
	syms := make([]gcf.Symbol, n)
	for i := range syms {
		syms[i] = g.Symbol(i)
	}
	edges := make([]gcf.Edge, 2*n)
	ids := make([]EdgeIDs, 2*n)
	for i := range edges {
		s, t, typ := g.EdgeEnds()
		edges[i] = gcf.Edge{Source: syms[s].QualifiedName, Target: syms[t].QualifiedName, EdgeType: typ}
		ids[i] = EdgeIDs{s, t, typ}
	}
	return syms, edges, ids
}

// streamHeader is GraphStreamHeader for a producer that writes edges by ID
// (the pipeline form: the encoder keeps no name index).
func streamHeader() gcf.GraphHeader {
	h := GraphStreamHeader
	h.EdgesByID = true
	return h
}

// WriteGraph writes syms and edges (by ID) as a streaming graph payload
// (the caller closes e, which writes the trailer).
func WriteGraph(e *gcf.Encoder, syms []gcf.Symbol, edges []EdgeIDs) error {
	if err := e.BeginGraph(streamHeader()); err != nil {
		return err
	}
	for i := range syms {
		if _, err := e.WriteSymbol(syms[i]); err != nil {
			return err
		}
	}
	for i := range edges {
		if err := e.WriteEdgeByID(edges[i].Source, edges[i].Target, edges[i].Type, ""); err != nil {
			return err
		}
	}
	return nil
}

// WriteGraphStream generates and writes a graph of n symbols and 2n edges
// on the fly, holding nothing but the generator state (the caller closes e).
// Edges go by ID, so the encoder holds no name index either.
func WriteGraphStream(e *gcf.Encoder, n int) error {
	if err := e.BeginGraph(streamHeader()); err != nil {
		return err
	}
	g := NewGraphGen(n)
	for i := range n {
		if _, err := e.WriteSymbol(g.Symbol(i)); err != nil {
			return err
		}
	}
	for range 2 * n {
		s, t, typ := g.EdgeEnds()
		if err := e.WriteEdgeByID(s, t, typ, ""); err != nil {
			return err
		}
	}
	return nil
}

// GraphPayloadOf builds the buffered Payload holding the same graph as
// GraphStream(n), for the buffered Encode/Decode benchmarks.
func GraphPayloadOf(syms []gcf.Symbol, edges []gcf.Edge) *gcf.Payload {
	return &gcf.Payload{
		Tool: GraphStreamHeader.Tool, TokenBudget: GraphStreamHeader.TokenBudget, TokensUsed: GraphStreamHeader.TokensUsed,
		Symbols: syms, Edges: edges,
	}
}
