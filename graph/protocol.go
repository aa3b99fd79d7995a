package graph

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
)

// DeltaThreshold is the largest size of a delta, as a fraction of the full
// payload, that Respond sends instead of the full payload (SPEC §10.1
// recommends 60%).
const DeltaThreshold = 0.6

// Outcome is the kind of answer of the three-outcome protocol (SPEC §10.3).
type Outcome int

// The three outcomes.
const (
	// OutcomeUnchanged: the consumer's root still identifies the result; the
	// answer is a header-only payload with unchanged=true.
	OutcomeUnchanged Outcome = iota + 1
	// OutcomeDelta: the consumer's root names a snapshot the producer kept;
	// the answer is a delta from it.
	OutcomeDelta
	// OutcomeFull: anything else; the answer is the full payload with its pack_root.
	OutcomeFull
)

func (o Outcome) String() string {
	switch o {
	case OutcomeUnchanged:
		return "unchanged"
	case OutcomeDelta:
		return "delta"
	case OutcomeFull:
		return "full"
	}
	return "invalid"
}

// Respond answers a consumer that holds the snapshot consumerRoot (empty
// when it holds none) with the current result, following SPEC §10.3: an
// unchanged payload when the roots match; a delta from prior when prior is
// the snapshot consumerRoot names and the delta is smaller than
// DeltaThreshold of the full payload; otherwise the full payload carrying
// pack_root. prior may be nil. current is not modified.
func Respond(current *Payload, consumerRoot string, prior *Payload) ([]byte, Outcome, error) {
	if current == nil {
		return nil, 0, lexer.Errorf(lexer.MalformedDelta, "Respond needs the current payload")
	}
	// Roots are computed over the snapshot as the wire carries it (scores
	// at two decimals), which is what a consumer holds and can verify.
	current = wireSnapshot(current)
	root, err := PackRoot(current)
	if err != nil {
		return nil, 0, err
	}
	if consumerRoot == root {
		out, err := EncodeUnchanged(current.Tool, root, len(current.Symbols))
		return out, OutcomeUnchanged, err
	}
	full := *current
	full.PackRoot = root
	fullBytes, err := Encode(&full)
	if err != nil {
		return nil, 0, err
	}
	if prior != nil && consumerRoot != "" {
		prior = wireSnapshot(prior)
		priorRoot, err := PackRoot(prior)
		if err == nil && priorRoot == consumerRoot {
			d, err := Diff(prior, current)
			if err != nil {
				return nil, 0, err
			}
			d.Tool, d.BaseRoot, d.NewRoot = current.Tool, priorRoot, root
			deltaBytes, err := EncodeDelta(d)
			if err != nil {
				return nil, 0, err
			}
			if float64(len(deltaBytes)) < DeltaThreshold*float64(len(fullBytes)) {
				return deltaBytes, OutcomeDelta, nil
			}
		}
	}
	return fullBytes, OutcomeFull, nil
}

// EncodeUnchanged writes the header-only answer of SPEC §10.3 outcome 1:
// `GCF profile=graph[ tool=T] unchanged=true pack_root=R symbols=N`.
func EncodeUnchanged(tool, packRoot string, symbols int) ([]byte, error) {
	if err := grCheckHeader(tool, 0, 0); err != nil {
		return nil, err
	}
	if !encoder.IsToken(packRoot) {
		return nil, lexer.Errorf(lexer.MalformedHeaderField, "pack_root %q is not a header value", packRoot)
	}
	if symbols < 0 {
		return nil, lexer.Errorf(lexer.OutOfRange, "negative symbol count %d", symbols)
	}
	b := encoder.AppendHeader(nil, "graph")
	if tool != "" {
		b = encoder.AppendHeaderField(b, "tool", tool)
	}
	b = encoder.AppendHeaderField(b, "unchanged", "true")
	b = encoder.AppendHeaderField(b, "pack_root", packRoot)
	b = encoder.AppendHeaderInt(b, "symbols", int64(symbols))
	return encoder.AppendLineEnd(b), nil
}

// Diff computes the delta that turns base into current: symbols are
// matched by identity (kind, qualified name; SPEC §9.1) and a symbol whose
// score, provenance or distance changed is removed and added again; edges
// are matched by (source, target, type). Removed symbols keep base order;
// added symbols come in current's emission order (distance, then score);
// edges are sorted by source, target and type, so the result is
// deterministic. ApplyDelta(base, Diff(base, current)) has the pack root
// of current.
func Diff(base, current *Payload) (*DeltaPayload, error) {
	if base == nil || current == nil {
		return nil, lexer.Errorf(lexer.MalformedDelta, "Diff needs two snapshots")
	}
	type ident struct{ kind, qname string }
	id := func(s *Symbol) ident { return ident{KindAbbrev(s.Kind), s.QualifiedName} }
	cur := make(map[ident]*Symbol, len(current.Symbols))
	for i := range current.Symbols {
		cur[id(&current.Symbols[i])] = &current.Symbols[i]
	}
	old := make(map[ident]*Symbol, len(base.Symbols))
	d := &DeltaPayload{Removed: []Symbol{}, Added: []Symbol{}, RemovedEdges: []Edge{}, AddedEdges: []Edge{}}
	for i := range base.Symbols {
		s := &base.Symbols[i]
		old[id(s)] = s
		if c, ok := cur[id(s)]; !ok || !sameSymbol(s, c) {
			d.Removed = append(d.Removed, Symbol{Kind: s.Kind, QualifiedName: s.QualifiedName})
		}
	}
	for _, i := range grOrder(current.Symbols) {
		s := &current.Symbols[i]
		if o, ok := old[id(s)]; !ok || !sameSymbol(o, s) {
			d.Added = append(d.Added, Symbol{QualifiedName: s.QualifiedName, Kind: s.Kind, Score: s.Score,
				Provenance: s.Provenance, Distance: s.Distance})
		}
	}
	type ekey struct{ src, tgt, typ string }
	ek := func(e *Edge) ekey { return ekey{e.Source, e.Target, e.EdgeType} }
	curEdges := make(map[ekey]bool, len(current.Edges))
	for i := range current.Edges {
		curEdges[ek(&current.Edges[i])] = true
	}
	oldEdges := make(map[ekey]bool, len(base.Edges))
	for i := range base.Edges {
		e := &base.Edges[i]
		if oldEdges[ek(e)] {
			continue
		}
		oldEdges[ek(e)] = true
		if !curEdges[ek(e)] {
			d.RemovedEdges = append(d.RemovedEdges, Edge{Source: e.Source, Target: e.Target, EdgeType: e.EdgeType})
		}
	}
	added := map[ekey]bool{}
	for i := range current.Edges {
		e := &current.Edges[i]
		if !oldEdges[ek(e)] && !added[ek(e)] {
			added[ek(e)] = true
			d.AddedEdges = append(d.AddedEdges, Edge{Source: e.Source, Target: e.Target, EdgeType: e.EdgeType})
		}
	}
	byEdge := func(a, b Edge) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Target, b.Target), cmp.Compare(a.EdgeType, b.EdgeType))
	}
	slices.SortFunc(d.RemovedEdges, byEdge)
	slices.SortFunc(d.AddedEdges, byEdge)
	return d, nil
}

// sameSymbol reports whether two symbols of one identity carry the same
// wire values (scores compare at their two-decimal wire precision).
func sameSymbol(a, b *Symbol) bool {
	return a.Provenance == b.Provenance && a.Distance == b.Distance &&
		string(encoder.AppendScore(nil, a.Score)) == string(encoder.AppendScore(nil, b.Score))
}

// Receive is the consumer side of SPEC §10.3-10.4: given the snapshot it
// holds (nil for none) and the producer's answer, it returns the snapshot
// to hold next. An unchanged answer must name held's root; a delta is
// decoded and applied atomically with both roots verified (root_mismatch
// otherwise, held untouched); a full payload is decoded, and its pack_root,
// when present, verified. On any error the caller keeps held and should
// ask for a full payload.
func Receive(held *Payload, answer []byte) (*Payload, Outcome, error) {
	header, _, _ := bytes.Cut(answer, []byte("\n"))
	fields := bytes.Fields(header)
	has := func(f string) bool {
		for _, x := range fields {
			if string(x) == f {
				return true
			}
		}
		return false
	}
	switch {
	case has("unchanged=true"):
		p, err := Decode(answer)
		if err != nil {
			return nil, 0, err
		}
		if held == nil {
			return nil, 0, lexer.Errorf(RootMismatch, "unchanged answer but no snapshot is held")
		}
		root, err := PackRoot(held)
		if err != nil {
			return nil, 0, err
		}
		if p.PackRoot != root {
			return nil, 0, lexer.Errorf(RootMismatch, "unchanged answer names %s but the held snapshot is %s", p.PackRoot, root)
		}
		return held, OutcomeUnchanged, nil
	case has("delta=true"):
		if held == nil {
			return nil, 0, lexer.Errorf(RootMismatch, "delta answer but no snapshot is held")
		}
		d, err := DecodeDelta(answer)
		if err != nil {
			return nil, 0, err
		}
		if d.BaseRoot == "" || d.NewRoot == "" {
			return nil, 0, lexer.Errorf(lexer.MalformedDelta, "a delta answer needs base_root and new_root")
		}
		p, err := ApplyDelta(held, d)
		if err != nil {
			return nil, 0, err
		}
		return p, OutcomeDelta, nil
	}
	p, err := Decode(answer)
	if err != nil {
		return nil, 0, err
	}
	if p.PackRoot != "" {
		root, err := PackRoot(p)
		if err != nil {
			return nil, 0, err
		}
		if root != p.PackRoot {
			return nil, 0, lexer.Errorf(RootMismatch, "pack_root %s does not identify the payload (its root is %s)", p.PackRoot, root)
		}
	}
	return p, OutcomeFull, nil
}

// wireSnapshot returns p with every score rounded as the wire writes it
// (two decimals, half to even), copying only when a score changes.
func wireSnapshot(p *Payload) *Payload {
	var out *Payload
	for i := range p.Symbols {
		w, err := lexer.ParseFloat(encoder.AppendScore(nil, p.Symbols[i].Score))
		if err != nil || w == p.Symbols[i].Score {
			continue
		}
		if out == nil {
			c := *p
			c.Symbols = slices.Clone(p.Symbols)
			out = &c
		}
		out.Symbols[i].Score = w
	}
	if out == nil {
		return p
	}
	return out
}
