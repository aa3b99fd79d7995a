package gcf

import (
	"strconv"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
)

// GraphHeader is the header of a streaming graph payload (SPEC §8.1).
type GraphHeader struct {
	// Tool is the producing tool (` tool=`), omitted when empty. It must be
	// printable non-whitespace ASCII.
	Tool string
	// TokenBudget and TokensUsed are written as ` budget=` and ` tokens=`
	// when nonzero; they must not be negative.
	TokenBudget int
	TokensUsed  int
	// LabeledCounts selects the labeled trailer form of SPEC §8.4.1
	// (`counts=targets:2,related:1,edges:3`) instead of the default
	// positional one (`counts=2,1,3`).
	LabeledCounts bool
	// EdgesByID says the caller writes edges with WriteEdgeByID, naming
	// endpoints by the IDs WriteSymbol returned. The encoder then keeps no
	// index of qualified names, so its memory stays constant however many
	// symbols are written; WriteEdge (by name) is an error.
	EdgesByID bool
}

// graphStream is the state of a streaming graph payload.
type graphStream struct {
	labeled bool
	groups  []gsGroup      // non-empty groups in emission order
	ids     map[string]int // qualified name -> ID of its first symbol
	symbols int
	edges   int
	inEdges bool // `## edges [?]` written
}

type gsGroup struct {
	distance int
	count    int
}

func errGraphMode(method string) error {
	return lexer.Errorf(lexer.InvalidSchema, "%s is a generic-profile call; this encoder is writing a graph payload", method)
}

// BeginGraph starts a streaming graph-profile payload (SPEC §8) by writing
// its header `GCF profile=graph[ tool=T][ budget=N][ tokens=N]`; the
// symbol and edge counts are not known yet and are omitted (SPEC §8.1).
// It must be the first call on the encoder.
//
// Then WriteSymbol writes the symbols group by group, WriteEdge the edges
// under `## edges [?]`, and Close the trailer
// `##! summary symbols=N edges=M counts=...`: one count per non-empty
// distance group in emission order, then the edge count, which is always
// present (`counts=2,1,0`; labeled `counts=targets:2,related:1,edges:0`
// when h.LabeledCounts is set; `counts=0` or `counts=edges:0` for an empty
// graph).
//
// Memory does not grow with the payload except for the map from qualified
// name to ID that WriteEdge needs to resolve endpoints (one entry per
// distinct name; none with h.EdgesByID) and one small entry per distance
// group. Lines go out through the pooled writer as they are produced.
//
// After BeginGraph the generic-profile methods (Encode, WriteField,
// BeginTable, WriteRow, ...) fail, and BeginGraph fails once anything has
// been written.
func (e *Encoder) BeginGraph(h GraphHeader) error {
	if e.closed {
		return errClosed
	}
	if e.started || e.graph != nil {
		return lexer.Errorf(lexer.InvalidSchema, "BeginGraph must be the first call: this encoder has already started a payload")
	}
	if err := grCheckHeader(h.Tool, h.TokenBudget, h.TokensUsed); err != nil {
		return err
	}
	buf := e.w.Buf()
	var b []byte
	if e.wire == WireV1 {
		if h.Tool == "" {
			return lexer.Errorf(lexer.MissingProfile, "a v1 graph header requires tool= (SPEC-v1.1 §3): the header has no Tool")
		}
		b = v1AppendHeaderStart(buf, h.Tool, h.TokenBudget, h.TokensUsed)
	} else {
		b = grAppendHeaderStart(buf, h.Tool, h.TokenBudget, h.TokensUsed)
	}
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return err
	}
	e.started = true
	e.graph = &graphStream{labeled: h.LabeledCounts}
	if !h.EdgesByID {
		e.graph.ids = map[string]int{}
	}
	return nil
}

// WriteSymbol writes s as the node line `@id kind qname score provenance`
// and returns its ID: symbols are numbered from 0 in the order written
// (SPEC §5). Symbols must arrive grouped by Distance in ascending order; a
// group header (`## targets`, `## related`, `## extended`, `## distance_N`)
// is written whenever the distance changes, and within a group the
// producer's order is kept (a producer that wants the canonical order
// sorts each group by score descending first). The node line is validated
// as by Encode.
//
// On error the ID is -1 and nothing is written. Errors: invalid_schema
// without BeginGraph, after the first WriteEdge, or when s.Distance is
// lower than the current group's; the validation errors of Encode
// (invalid_node_line, out_of_range).
func (e *Encoder) WriteSymbol(s Symbol) (id int, err error) {
	if e.closed {
		return -1, errClosed
	}
	g := e.graph
	if g == nil {
		return -1, lexer.Errorf(lexer.InvalidSchema, "WriteSymbol before BeginGraph")
	}
	if g.inEdges {
		return -1, lexer.Errorf(lexer.InvalidSchema, "WriteSymbol(%q) after the first edge: symbols must precede edges", s.QualifiedName)
	}
	if err := grCheckSymbol(&s, g.symbols); err != nil {
		return -1, err
	}
	if n := len(s.QualifiedName) + len(s.Provenance) + len(s.Kind); !e.lim.LineOK(n) {
		// Refused before it is buffered.
		return -1, e.lim.Line(e.lines+1, n, []byte(s.QualifiedName))
	}
	newGroup := len(g.groups) == 0
	if !newGroup {
		cur := g.groups[len(g.groups)-1].distance
		if s.Distance < cur {
			return -1, lexer.Errorf(lexer.InvalidSchema, "WriteSymbol(%q): distance %d after group distance %d; groups must be written in ascending distance order", s.QualifiedName, s.Distance, cur)
		}
		newGroup = s.Distance != cur
	}
	if !newGroup {
		if err := e.lim.Elements(g.groups[len(g.groups)-1].count+1, "symbol group"); err != nil {
			return -1, err
		}
	}
	buf := e.w.Buf()
	b := buf
	if newGroup {
		b = encoder.AppendSectionMark(b)
		b = grAppendGroupName(b, s.Distance)
		b = encoder.AppendLineEnd(b)
	}
	id = g.symbols
	b = grAppendNode(b, id, &s)
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return -1, err
	}
	if newGroup {
		g.groups = append(g.groups, gsGroup{distance: s.Distance})
	}
	g.groups[len(g.groups)-1].count++
	g.symbols++
	if g.ids != nil {
		if _, ok := g.ids[s.QualifiedName]; !ok {
			g.ids[s.QualifiedName] = id
		}
	}
	return id, nil
}

// WriteEdge writes the edge line `@target<@source type[ status]`. Both
// endpoints are qualified names resolved to the first symbol written with
// that name; the first call writes the section header `## edges [?]`, and
// no symbol may follow. Edges are written in the order given (the
// canonical order is by source ID, then target ID).
//
// Errors: invalid_schema without BeginGraph; unknown_edge_reference when
// an endpoint names no symbol written so far (never dropped silently);
// invalid_edge_syntax for an invalid edge type or status.
func (e *Encoder) WriteEdge(ed Edge) error {
	if e.closed {
		return errClosed
	}
	g := e.graph
	if g == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteEdge before BeginGraph")
	}
	if g.ids == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteEdge: this graph was begun with EdgesByID; use WriteEdgeByID")
	}
	if err := grCheckEdge(&ed, g.edges); err != nil {
		return err
	}
	src, ok := g.ids[ed.Source]
	if !ok {
		return lexer.Errorf(lexer.UnknownEdgeReference, "edge %s -> %s: source %q has not been written", ed.Source, ed.Target, ed.Source)
	}
	tgt, ok := g.ids[ed.Target]
	if !ok {
		return lexer.Errorf(lexer.UnknownEdgeReference, "edge %s -> %s: target %q has not been written", ed.Source, ed.Target, ed.Target)
	}
	return e.writeEdge(src, tgt, ed.EdgeType, ed.Status)
}

// WriteEdgeByID writes the edge line `@target<@source type[ status]` with
// endpoints given by the IDs WriteSymbol returned; it needs no name index
// (see GraphHeader.EdgesByID). Errors: invalid_schema without BeginGraph;
// unknown_edge_reference for an ID not yet written; invalid_edge_syntax
// for an invalid edge type or status.
func (e *Encoder) WriteEdgeByID(source, target int, edgeType, status string) error {
	if e.closed {
		return errClosed
	}
	g := e.graph
	if g == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteEdgeByID before BeginGraph")
	}
	if !grIsName(edgeType) || status != "" && !grIsName(status) {
		ed := Edge{Source: "@" + strconv.Itoa(source), Target: "@" + strconv.Itoa(target), EdgeType: edgeType, Status: status}
		return grCheckEdge(&ed, g.edges)
	}
	for _, id := range [2]int{source, target} {
		if id < 0 || id >= g.symbols {
			return lexer.Errorf(lexer.UnknownEdgeReference, "edge @%d -> @%d: symbol @%d has not been written", source, target, id)
		}
	}
	return e.writeEdge(source, target, edgeType, status)
}

func (e *Encoder) writeEdge(src, tgt int, typ, status string) error {
	g := e.graph
	if err := e.lim.Elements(g.edges+1, "edge section"); err != nil {
		return err
	}
	buf := e.w.Buf()
	b := buf
	if !g.inEdges {
		b = encoder.AppendSection(b, "edges")
		b = encoder.AppendCount(b, -1, false)
		b = encoder.AppendLineEnd(b)
	}
	b = grAppendEdge(b, &grEdge{src: src, tgt: tgt, typ: typ, status: status})
	if err := e.commit(buf, b); err != nil {
		return err
	}
	g.inEdges = true
	g.edges++
	return nil
}

// closeGraph writes the graph trailer (SPEC §8.4, §8.4.1), flushes and
// releases the buffer.
func (e *Encoder) closeGraph() error {
	g := e.graph
	buf := e.w.Buf()
	if e.wire == WireV1 {
		b := v1AppendGraphSummary(buf, g)
		if err := e.commit(buf, b); err != nil {
			return err
		}
		e.closed = true
		g.ids = nil
		return e.w.Release()
	}
	b := encoder.AppendSummary(buf)
	b = encoder.AppendHeaderInt(b, "symbols", int64(g.symbols))
	b = encoder.AppendHeaderInt(b, "edges", int64(g.edges))
	b = encoder.AppendTrailerList(b, "counts")
	for i, gr := range g.groups {
		b = encoder.AppendListSep(b, i)
		if g.labeled {
			b = encoder.AppendLabelEnd(grAppendGroupName(b, gr.distance))
		}
		b = encoder.AppendInt(b, int64(gr.count))
	}
	b = encoder.AppendListSep(b, len(g.groups))
	if g.labeled {
		b = encoder.AppendLabelEnd(append(b, "edges"...))
	}
	b = encoder.AppendInt(b, int64(g.edges))
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return err
	}
	e.closed = true
	g.ids = nil
	return e.w.Release()
}
