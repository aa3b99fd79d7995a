package generic

// The graph-profile methods of the streaming Encoder: they hand the
// encoder's writer to a graph.Stream.

import (
	"github.com/gcfkit/gcf/graph"
	"github.com/gcfkit/gcf/lexer"
)

// errGraphMode is the error of a generic-profile call on an encoder
// writing a graph payload.
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
	g, err := graph.BeginStream(e.w, e.lim.Limits, e.wire, h)
	if err != nil {
		return err
	}
	e.started = true
	e.graph = g
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
	if e.graph == nil {
		return -1, lexer.Errorf(lexer.InvalidSchema, "WriteSymbol before BeginGraph")
	}
	return e.graph.WriteSymbol(s)
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
	if e.graph == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteEdge before BeginGraph")
	}
	return e.graph.WriteEdge(ed)
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
	if e.graph == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteEdgeByID before BeginGraph")
	}
	return e.graph.WriteEdgeByID(source, target, edgeType, status)
}
