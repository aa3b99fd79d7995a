package graph

import (
	"math"
	"strconv"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// EncodeDelta encodes a graph delta payload (SPEC §10, §10.1, §10.5) and
// returns a fresh slice owned by the caller:
//
//	GCF profile=graph[ tool=T] delta=true base_root=B new_root=N[ tokens=D][ savings=S%]
//	## removed
//	kind qname
//	## added
//	@i kind qname score provenance distance
//	## edges_removed
//	source -> target type
//	## edges_added
//	source -> target type
//
// tokens=DeltaTokens is written when DeltaTokens is nonzero (SPEC §3.2
// omits zero counts) and savings=S% when FullTokens is positive, with
// S = 100*(FullTokens-DeltaTokens)/FullTokens rounded to the nearest
// integer, halves away from zero (30 of 200 -> 85%). Sections come in the
// order above and only when non-empty; lines keep the order of d. Kinds are
// abbreviated (KindAbbrev); added IDs count from 0; scores are written as
// on node lines (two decimals, half-to-even). Edge Status is not carried:
// it must be "" or match its section ("removed" / "added").
//
// Errors (*SyntaxError, no position; no bytes returned): malformed_delta
// for an empty or non-header-value BaseRoot or NewRoot or a contradictory
// edge status; out_of_range for negative token counts or a non-finite
// score; and the token checks of Encode (invalid_node_line,
// invalid_edge_syntax) on every kind, qualified name, provenance and edge
// type, since all of them travel as whitespace-separated tokens.
//
// Limits: as for Encode, opts are the decoder's options, and EncodeDelta
// refuses with the decoder's category (line_too_long, too_many_elements
// for the lines of one section, payload_too_large) a delta that Decode
// given the same opts would reject.
func EncodeDelta(d *DeltaPayload, opts ...Option) ([]byte, error) {
	if d == nil {
		return nil, lexer.Errorf(lexer.MalformedDelta, "nil delta payload")
	}
	if err := dlCheck(d); err != nil {
		return nil, err
	}
	c := options.Resolve(opts)
	if c.Wire == stream.WireV1 && d.Tool == "" {
		return nil, lexer.Errorf(lexer.MissingProfile, "a v1 delta header requires tool= (SPEC-v1.1 §3): the delta has no Tool")
	}
	lim := encoder.NewLimiter(c.Limits)
	for _, n := range [...]int{len(d.Removed), len(d.Added), len(d.RemovedEdges), len(d.AddedEdges)} {
		if err := lim.Elements(n, "delta section"); err != nil {
			return nil, err
		}
	}
	buf := encoder.GetBuffer()
	b := dlAppend(buf.B[:0], d, c.Wire)
	err := lim.Output(b)
	var out []byte
	if err == nil {
		out = make([]byte, len(b))
		copy(out, b)
	}
	buf.B = b
	encoder.PutBuffer(buf)
	return out, err
}

// dlCheck validates everything EncodeDelta writes.
func dlCheck(d *DeltaPayload) error {
	if err := grCheckHeader(d.Tool, 0, 0); err != nil {
		return err
	}
	if !encoder.IsToken(d.BaseRoot) {
		return lexer.Errorf(lexer.MalformedDelta, "base_root %q must be a non-empty header value (printable non-whitespace ASCII)", d.BaseRoot)
	}
	if !encoder.IsToken(d.NewRoot) {
		return lexer.Errorf(lexer.MalformedDelta, "new_root %q must be a non-empty header value (printable non-whitespace ASCII)", d.NewRoot)
	}
	if d.DeltaTokens < 0 || d.FullTokens < 0 {
		return lexer.Errorf(lexer.OutOfRange, "negative token counts (delta %d, full %d)", d.DeltaTokens, d.FullTokens)
	}
	for i := range d.Removed {
		s := &d.Removed[i]
		if s.Kind == "" || !lexer.IsBareKey(KindAbbrev(s.Kind)) {
			return lexer.Errorf(lexer.InvalidNodeLine, "removed symbol %d (%q): kind %q is not a bare key", i, s.QualifiedName, s.Kind)
		}
		if !grIsName(s.QualifiedName) {
			return grNameErr(lexer.InvalidNodeLine, "removed symbol "+strconv.Itoa(i)+": qualified name", s.QualifiedName)
		}
	}
	for i := range d.Added {
		if err := grCheckSymbol(&d.Added[i], i); err != nil {
			return err
		}
	}
	if err := dlCheckEdges(d.RemovedEdges, "removed"); err != nil {
		return err
	}
	return dlCheckEdges(d.AddedEdges, "added")
}

func dlCheckEdges(edges []Edge, status string) error {
	for i := range edges {
		e := &edges[i]
		what := status + " edge " + strconv.Itoa(i)
		if !grIsName(e.Source) {
			return grNameErr(lexer.InvalidEdgeSyntax, what+": source", e.Source)
		}
		if !grIsName(e.Target) {
			return grNameErr(lexer.InvalidEdgeSyntax, what+": target", e.Target)
		}
		if !grIsName(e.EdgeType) {
			return grNameErr(lexer.InvalidEdgeSyntax, what+" ("+e.Source+" -> "+e.Target+"): edge type", e.EdgeType)
		}
		if e.Status != "" && e.Status != status {
			return lexer.Errorf(lexer.MalformedDelta, "%s edge %d (%s -> %s) has status %q", status, i, e.Source, e.Target, e.Status)
		}
	}
	return nil
}

func dlAppend(b []byte, d *DeltaPayload, wire stream.Wire) []byte {
	if wire == stream.WireV1 {
		b = encoder.AppendHeaderField(encoder.AppendV1Header(b), "tool", d.Tool)
	} else {
		b = grAppendHeaderStart(b, d.Tool, 0, 0)
	}
	b = encoder.AppendHeaderField(b, "delta", "true")
	b = encoder.AppendHeaderField(b, "base_root", d.BaseRoot)
	b = encoder.AppendHeaderField(b, "new_root", d.NewRoot)
	if d.DeltaTokens != 0 {
		b = encoder.AppendHeaderInt(b, "tokens", int64(d.DeltaTokens))
	}
	if d.FullTokens > 0 {
		b = encoder.AppendHeaderPercent(b, "savings", encoder.Savings(d.DeltaTokens, d.FullTokens))
	}
	b = encoder.AppendLineEnd(b)
	if len(d.Removed) > 0 {
		b = encoder.AppendSectionLine(b, "removed")
		for i := range d.Removed {
			b = encoder.AppendRemovedLine(b, KindAbbrev(d.Removed[i].Kind), d.Removed[i].QualifiedName)
			b = encoder.AppendLineEnd(b)
		}
	}
	if len(d.Added) > 0 {
		b = encoder.AppendSectionLine(b, "added")
		for i := range d.Added {
			b = grAppendNode(b, i, &d.Added[i])
			if wire != stream.WireV1 { // v1 added lines carry no distance
				b = encoder.AppendDistance(b, int64(d.Added[i].Distance))
			}
			b = encoder.AppendLineEnd(b)
		}
	}
	b = dlAppendEdges(b, "edges_removed", d.RemovedEdges)
	return dlAppendEdges(b, "edges_added", d.AddedEdges)
}

func dlAppendEdges(b []byte, section string, edges []Edge) []byte {
	if len(edges) == 0 {
		return b
	}
	b = encoder.AppendSectionLine(b, section)
	for i := range edges {
		b = encoder.AppendDeltaEdge(b, edges[i].Source, edges[i].Target, edges[i].EdgeType)
		b = encoder.AppendLineEnd(b)
	}
	return b
}

// dlSymKey is a symbol identity for delta application: the wire kind and
// the qualified name, so "fn" and "function" are the same symbol (they
// also hash the same in the pack root).
type dlSymKey struct{ kind, qname string }

func dlKeyOf(s *Symbol) dlSymKey { return dlSymKey{KindAbbrev(s.Kind), s.QualifiedName} }

type dlEdgeKey struct{ src, tgt, typ string }

func dlEdgeKeyOf(e *Edge) dlEdgeKey { return dlEdgeKey{e.Source, e.Target, e.EdgeType} }

// ApplyDelta applies d to the snapshot base atomically (SPEC §10.4) and
// returns the new snapshot. base is never modified, whatever the outcome.
//
// Steps, in order; the first failure is returned and nothing is applied:
//
//  1. When d.BaseRoot is non-empty, PackRoot(base) must equal it, else
//     root_mismatch.
//  2. The whole delta is validated (malformed_delta): every removed symbol
//     (matched by kind and qualified name, kinds compared in wire form)
//     must exist in base and be removed once; an added symbol must not
//     exist in base unless the same delta removes it (a replacement), must
//     be added once, and must have a kind, a qualified name, a finite score
//     and a non-negative distance; every removed edge (matched by source,
//     target and edge type; Status is ignored) must exist in base and be
//     removed once; an added edge must not exist in base unless removed by
//     the same delta, and must be added once; every edge of the result
//     must name symbols of the result by qualified name (this also rejects
//     removing a symbol whose edges the delta keeps).
//  3. The result is built on a copy: base symbols minus the removed ones,
//     in base order, then the added ones in delta order; edges likewise.
//     Tool and token counts are copied from base.
//  4. When d.NewRoot is non-empty, PackRoot(result) must equal it, else
//     root_mismatch; the result's PackRoot is then set to it. Otherwise
//     the result's PackRoot is empty.
//
// PackRoot errors (invalid_utf8, out_of_range, ...) are returned as they
// are. A nil base or d is malformed_delta.
func ApplyDelta(base *Payload, d *DeltaPayload) (*Payload, error) {
	if base == nil || d == nil {
		return nil, lexer.Errorf(lexer.MalformedDelta, "ApplyDelta needs a base snapshot and a delta")
	}
	if d.BaseRoot != "" {
		root, err := PackRoot(base)
		if err != nil {
			return nil, err
		}
		if root != d.BaseRoot {
			return nil, lexer.Errorf(RootMismatch, "base root does not equal delta base_root: the base snapshot's root is %s, base_root is %s", root, d.BaseRoot)
		}
	}

	// Validate symbols.
	baseSyms := make(map[dlSymKey]struct{}, len(base.Symbols))
	for i := range base.Symbols {
		baseSyms[dlKeyOf(&base.Symbols[i])] = struct{}{}
	}
	removed := make(map[dlSymKey]struct{}, len(d.Removed))
	for i := range d.Removed {
		k := dlKeyOf(&d.Removed[i])
		if _, ok := baseSyms[k]; !ok {
			return nil, lexer.Errorf(lexer.MalformedDelta, "removed symbol %d: removing symbol %s %s that does not exist in base", i, d.Removed[i].Kind, k.qname)
		}
		if _, dup := removed[k]; dup {
			return nil, lexer.Errorf(lexer.MalformedDelta, "removed symbol %d: removing symbol %s %s that does not exist in base (it is removed twice)", i, d.Removed[i].Kind, k.qname)
		}
		removed[k] = struct{}{}
	}
	added := make(map[dlSymKey]struct{}, len(d.Added))
	for i := range d.Added {
		s := &d.Added[i]
		k := dlKeyOf(s)
		if s.Kind == "" || s.QualifiedName == "" {
			return nil, lexer.Errorf(lexer.MalformedDelta, "added symbol %d has an empty kind or qualified name", i)
		}
		if math.IsNaN(s.Score) || math.IsInf(s.Score, 0) {
			return nil, lexer.Errorf(lexer.MalformedDelta, "added symbol %d (%s %s) has a non-finite score", i, k.kind, k.qname)
		}
		if s.Distance < 0 {
			return nil, lexer.Errorf(lexer.MalformedDelta, "added symbol %d (%s %s) has a negative distance", i, k.kind, k.qname)
		}
		if _, inBase := baseSyms[k]; inBase {
			if _, gone := removed[k]; !gone {
				return nil, lexer.Errorf(lexer.MalformedDelta, "added symbol %d: adding symbol %s %s that already exists in the base snapshot", i, s.Kind, k.qname)
			}
		}
		if _, dup := added[k]; dup {
			return nil, lexer.Errorf(lexer.MalformedDelta, "added symbol %d: adding symbol %s %s that already exists (it is added twice)", i, s.Kind, k.qname)
		}
		added[k] = struct{}{}
	}

	// Validate edges.
	baseEdges := make(map[dlEdgeKey]struct{}, len(base.Edges))
	for i := range base.Edges {
		baseEdges[dlEdgeKeyOf(&base.Edges[i])] = struct{}{}
	}
	removedEdges := make(map[dlEdgeKey]struct{}, len(d.RemovedEdges))
	for i := range d.RemovedEdges {
		k := dlEdgeKeyOf(&d.RemovedEdges[i])
		if _, ok := baseEdges[k]; !ok {
			return nil, lexer.Errorf(lexer.MalformedDelta, "removed edge %d: removing edge %s -> %s %s that does not exist in base", i, k.src, k.tgt, k.typ)
		}
		if _, dup := removedEdges[k]; dup {
			return nil, lexer.Errorf(lexer.MalformedDelta, "removed edge %d: removing edge %s -> %s %s that does not exist in base (it is removed twice)", i, k.src, k.tgt, k.typ)
		}
		removedEdges[k] = struct{}{}
	}
	addedEdges := make(map[dlEdgeKey]struct{}, len(d.AddedEdges))
	for i := range d.AddedEdges {
		k := dlEdgeKeyOf(&d.AddedEdges[i])
		if k.src == "" || k.tgt == "" || k.typ == "" {
			return nil, lexer.Errorf(lexer.MalformedDelta, "added edge %d has an empty source, target or edge type", i)
		}
		if _, inBase := baseEdges[k]; inBase {
			if _, gone := removedEdges[k]; !gone {
				return nil, lexer.Errorf(lexer.MalformedDelta, "added edge %d: adding edge %s -> %s %s that already exists in the base snapshot", i, k.src, k.tgt, k.typ)
			}
		}
		if _, dup := addedEdges[k]; dup {
			return nil, lexer.Errorf(lexer.MalformedDelta, "added edge %d: adding edge %s -> %s %s that already exists (it is added twice)", i, k.src, k.tgt, k.typ)
		}
		addedEdges[k] = struct{}{}
	}

	// Build the result on copies.
	res := &Payload{Tool: base.Tool, TokensUsed: base.TokensUsed, TokenBudget: base.TokenBudget}
	res.Symbols = make([]Symbol, 0, len(base.Symbols)-len(d.Removed)+len(d.Added))
	for i := range base.Symbols {
		if _, gone := removed[dlKeyOf(&base.Symbols[i])]; !gone {
			res.Symbols = append(res.Symbols, dlCopySymbol(&base.Symbols[i]))
		}
	}
	for i := range d.Added {
		res.Symbols = append(res.Symbols, dlCopySymbol(&d.Added[i]))
	}
	res.Edges = make([]Edge, 0, len(base.Edges)-len(d.RemovedEdges)+len(d.AddedEdges))
	for i := range base.Edges {
		if _, gone := removedEdges[dlEdgeKeyOf(&base.Edges[i])]; !gone {
			res.Edges = append(res.Edges, base.Edges[i])
		}
	}
	res.Edges = append(res.Edges, d.AddedEdges...)

	names := make(map[string]struct{}, len(res.Symbols))
	for i := range res.Symbols {
		names[res.Symbols[i].QualifiedName] = struct{}{}
	}
	for i := range res.Edges {
		e := &res.Edges[i]
		if _, ok := names[e.Source]; !ok {
			return nil, lexer.Errorf(lexer.MalformedDelta, "edge %s -> %s %s names %s, which is not in the resulting snapshot", e.Source, e.Target, e.EdgeType, e.Source)
		}
		if _, ok := names[e.Target]; !ok {
			return nil, lexer.Errorf(lexer.MalformedDelta, "edge %s -> %s %s names %s, which is not in the resulting snapshot", e.Source, e.Target, e.EdgeType, e.Target)
		}
	}

	if d.NewRoot != "" {
		root, err := PackRoot(res)
		if err != nil {
			return nil, err
		}
		if root != d.NewRoot {
			return nil, lexer.Errorf(RootMismatch, "the applied snapshot's root is not new_root: computed %s, expected %s", root, d.NewRoot)
		}
		res.PackRoot = root
	}
	return res, nil
}

// dlCopySymbol copies s, including its Components, so the result shares
// no mutable memory with the base or the delta.
func dlCopySymbol(s *Symbol) Symbol {
	c := *s
	if s.Components != nil {
		comp := *s.Components
		c.Components = &comp
	}
	return c
}
