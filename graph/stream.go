package graph

import (
	"errors"
	"strconv"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// StreamHeader is the header of a streaming graph payload (SPEC §8.1)
// (gcf.GraphHeader is an alias).
type StreamHeader struct {
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

// Stream writes one streaming graph-profile payload (SPEC §8) through an
// encoder.Writer: BeginStream writes the header, WriteSymbol the symbols
// group by group, WriteEdge or WriteEdgeByID the edges, Close the trailer.
// gcf.Encoder's BeginGraph, WriteSymbol, WriteEdge, WriteEdgeByID and
// Close call it directly; see them for the contract. Every method leaves
// the stream unchanged when it fails. Not safe for concurrent use.
type Stream struct {
	w       *encoder.Writer
	lim     encoder.Limiter
	wire    stream.Wire
	total   int64 // bytes committed so far
	lines   int   // lines committed so far
	closed  bool
	labeled bool
	groups  []gsGroup      // non-empty groups in emission order
	ids     map[string]int // qualified name -> ID of its first symbol
	symbols int
	edges   int
	inEdges bool // `## edges [?]` written
}

// ErrClosed is the error of a call on a closed Stream (and a closed
// gcf.Encoder).
var ErrClosed = errors.New("gcf: encoder is closed")

type gsGroup struct {
	distance int
	count    int
}

// BeginStream writes the header `GCF profile=graph[ tool=T][ budget=N][
// tokens=N]` (or the v1 graph header on stream.WireV1) to w under the
// limits lim and returns the Stream that writes the rest; nothing is
// written on error. gcf.Encoder.BeginGraph is the public entry.
func BeginStream(w *encoder.Writer, lim stream.Limits, wire stream.Wire, h StreamHeader) (*Stream, error) {
	if err := grCheckHeader(h.Tool, h.TokenBudget, h.TokensUsed); err != nil {
		return nil, err
	}
	e := &Stream{w: w, lim: encoder.NewLimiter(lim), wire: wire, labeled: h.LabeledCounts}
	buf := e.w.Buf()
	var b []byte
	if e.wire == stream.WireV1 {
		if h.Tool == "" {
			return nil, lexer.Errorf(lexer.MissingProfile, "a v1 graph header requires tool= (SPEC-v1.1 §3): the header has no Tool")
		}
		b = v1AppendHeaderStart(buf, h.Tool, h.TokenBudget, h.TokensUsed)
	} else {
		b = grAppendHeaderStart(buf, h.Tool, h.TokenBudget, h.TokensUsed)
	}
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return nil, err
	}
	if !h.EdgesByID {
		e.ids = map[string]int{}
	}
	return e, nil
}

// commit checks the whole lines b[len(buf):] that a call appended to the
// pending output buf against the line and size limits and commits them.
// On error nothing is committed and the pending output stays buf.
func (e *Stream) commit(buf, b []byte) error {
	added := b[len(buf):]
	n, err := e.lim.LinesFrom(added, e.lines+1)
	if err != nil {
		return err
	}
	if err := e.lim.Total(e.total + int64(len(added))); err != nil {
		return err
	}
	e.total += int64(len(added))
	e.lines += n
	return e.w.Commit(b)
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
func (e *Stream) WriteSymbol(s Symbol) (id int, err error) {
	if e.closed {
		return -1, ErrClosed
	}
	if e.inEdges {
		return -1, lexer.Errorf(lexer.InvalidSchema, "WriteSymbol(%q) after the first edge: symbols must precede edges", s.QualifiedName)
	}
	if err := grCheckSymbol(&s, e.symbols); err != nil {
		return -1, err
	}
	if n := len(s.QualifiedName) + len(s.Provenance) + len(s.Kind); !e.lim.LineOK(n) {
		// Refused before it is buffered.
		return -1, e.lim.Line(e.lines+1, n, []byte(s.QualifiedName))
	}
	newGroup := len(e.groups) == 0
	if !newGroup {
		cur := e.groups[len(e.groups)-1].distance
		if s.Distance < cur {
			return -1, lexer.Errorf(lexer.InvalidSchema, "WriteSymbol(%q): distance %d after group distance %d; groups must be written in ascending distance order", s.QualifiedName, s.Distance, cur)
		}
		newGroup = s.Distance != cur
	}
	if !newGroup {
		if err := e.lim.Elements(e.groups[len(e.groups)-1].count+1, "symbol group"); err != nil {
			return -1, err
		}
	}
	buf := e.w.Buf()
	b := buf
	if newGroup {
		b = encoder.AppendSectionMark(b)
		b = encoder.AppendGroupName(b, s.Distance)
		b = encoder.AppendLineEnd(b)
	}
	id = e.symbols
	b = grAppendNode(b, id, &s)
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return -1, err
	}
	if newGroup {
		e.groups = append(e.groups, gsGroup{distance: s.Distance})
	}
	e.groups[len(e.groups)-1].count++
	e.symbols++
	if e.ids != nil {
		if _, ok := e.ids[s.QualifiedName]; !ok {
			e.ids[s.QualifiedName] = id
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
func (e *Stream) WriteEdge(ed Edge) error {
	if e.closed {
		return ErrClosed
	}
	if e.ids == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteEdge: this graph was begun with EdgesByID; use WriteEdgeByID")
	}
	if err := grCheckEdge(&ed, e.edges); err != nil {
		return err
	}
	src, ok := e.ids[ed.Source]
	if !ok {
		return lexer.Errorf(lexer.UnknownEdgeReference, "edge %s -> %s: source %q has not been written", ed.Source, ed.Target, ed.Source)
	}
	tgt, ok := e.ids[ed.Target]
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
func (e *Stream) WriteEdgeByID(source, target int, edgeType, status string) error {
	if e.closed {
		return ErrClosed
	}
	if !grIsName(edgeType) || status != "" && !grIsName(status) {
		ed := Edge{Source: "@" + strconv.Itoa(source), Target: "@" + strconv.Itoa(target), EdgeType: edgeType, Status: status}
		return grCheckEdge(&ed, e.edges)
	}
	for _, id := range [2]int{source, target} {
		if id < 0 || id >= e.symbols {
			return lexer.Errorf(lexer.UnknownEdgeReference, "edge @%d -> @%d: symbol @%d has not been written", source, target, id)
		}
	}
	return e.writeEdge(source, target, edgeType, status)
}

func (e *Stream) writeEdge(src, tgt int, typ, status string) error {
	if err := e.lim.Elements(e.edges+1, "edge section"); err != nil {
		return err
	}
	buf := e.w.Buf()
	b := buf
	if !e.inEdges {
		b = encoder.AppendSection(b, encoder.EdgesSection)
		b = encoder.AppendCount(b, -1, false)
		b = encoder.AppendLineEnd(b)
	}
	b = grAppendEdge(b, &grEdge{src: src, tgt: tgt, typ: typ, status: status})
	if err := e.commit(buf, b); err != nil {
		return err
	}
	e.inEdges = true
	e.edges++
	return nil
}

// Close writes the graph trailer (SPEC §8.4, §8.4.1), flushes and
// releases the buffer; it does nothing on a closed stream. If the trailer
// cannot be written, the stream stays open.
func (e *Stream) Close() error {
	if e.closed {
		return nil
	}
	buf := e.w.Buf()
	if e.wire == stream.WireV1 {
		b := v1AppendGraphSummary(buf, e.symbols, e.edges, e.groups)
		if err := e.commit(buf, b); err != nil {
			return err
		}
		e.closed = true
		e.ids = nil
		return e.w.Release()
	}
	b := encoder.AppendSummary(buf)
	b = encoder.AppendHeaderInt(b, "symbols", int64(e.symbols))
	b = encoder.AppendHeaderInt(b, "edges", int64(e.edges))
	b = encoder.AppendTrailerList(b, "counts")
	for i, gr := range e.groups {
		b = encoder.AppendListSep(b, i)
		if e.labeled {
			b = encoder.AppendLabelEnd(encoder.AppendGroupName(b, gr.distance))
		}
		b = encoder.AppendInt(b, int64(gr.count))
	}
	b = encoder.AppendListSep(b, len(e.groups))
	if e.labeled {
		b = encoder.AppendLabelEnd(encoder.AppendEdgesLabel(b))
	}
	b = encoder.AppendInt(b, int64(e.edges))
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return err
	}
	e.closed = true
	e.ids = nil
	return e.w.Release()
}

// Closed reports whether Close has closed the stream.
func (e *Stream) Closed() bool { return e.closed }
