package graph

import (
	"strconv"

	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/stream"
)

// Test helpers: the options the root's WithX functions make (package gcf
// imports graph, so graph's tests cannot import gcf), and the wire form of
// a delta, as the root's conformance runner has them.

func withWire(w stream.Wire) Option { return func(c *options.Config) { c.Wire = w } }

func withMaxElements(n int) Option {
	return func(c *options.Config) { c.Limits.MaxElements = n }
}

// wireScore is a score as a node line carries it: two decimals.
func wireScore(f float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 2, 64), 64)
	if err != nil {
		panic(err)
	}
	return r
}

// deltaAsWire is what decoding the encoding of d must give: d with
// scores on two decimals and without what the wire does not carry
// (FullTokens, which only enters the savings figure; Signature and
// Components of added symbols; edge Status, which is the section's).
// Empty sections decode as empty, non-nil slices.
func deltaAsWire(d *DeltaPayload) *DeltaPayload {
	w := *d
	w.FullTokens = 0
	w.Removed = make([]Symbol, len(d.Removed))
	for i, s := range d.Removed {
		w.Removed[i] = Symbol{QualifiedName: s.QualifiedName, Kind: s.Kind}
	}
	w.Added = make([]Symbol, len(d.Added))
	for i, s := range d.Added {
		w.Added[i] = Symbol{QualifiedName: s.QualifiedName, Kind: s.Kind, Score: wireScore(s.Score), Provenance: s.Provenance, Distance: s.Distance}
	}
	w.RemovedEdges = make([]Edge, len(d.RemovedEdges))
	for i, e := range d.RemovedEdges {
		w.RemovedEdges[i] = Edge{Source: e.Source, Target: e.Target, EdgeType: e.EdgeType}
	}
	w.AddedEdges = make([]Edge, len(d.AddedEdges))
	for i, e := range d.AddedEdges {
		w.AddedEdges[i] = Edge{Source: e.Source, Target: e.Target, EdgeType: e.EdgeType}
	}
	return &w
}
