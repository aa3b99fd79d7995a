package graph

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
)

// packRootPrefix is the algorithm prefix of a gcf-pack-root-v1 root.
const packRootPrefix = "sha256:"

// PackRoot returns the canonical pack root of the graph snapshot p,
// algorithm gcf-pack-root-v1 (SPEC §10.2): "sha256:" followed by 64
// lowercase hex digits of the SHA-256 of CanonicalPackBytes(p).
//
// Only the logical graph counts: symbols (kind, qualified name, score,
// provenance, distance) and edges (endpoints and type). Tool, token counts,
// PackRoot, Signature, Components and edge Status do not, nor does the
// order of symbols or edges.
func PackRoot(p *Payload) (string, error) {
	b, err := CanonicalPackBytes(p)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	out := make([]byte, len(packRootPrefix)+hex.EncodedLen(len(sum)))
	copy(out, packRootPrefix)
	hex.Encode(out[len(packRootPrefix):], sum[:])
	return string(out), nil
}

// CanonicalPackBytes returns the bytes gcf-pack-root-v1 hashes (SPEC §10.2
// steps 1-6): one record per symbol
//
//	S<TAB>kind<TAB>qualified_name<TAB>score<TAB>provenance<TAB>distance<LF>
//
// and one per edge
//
//	E<TAB>source_kind<TAB>source_qname<TAB>target_kind<TAB>target_qname<TAB>edge_type<LF>
//
// where kind is the wire abbreviation (KindAbbrev), score is in canonical
// number form (SPEC §2.3.1: 1.0 -> "1", 0.78 -> "0.78") and distance is
// decimal. Each edge endpoint is resolved by qualified name to the first
// symbol of p.Symbols with that name, which supplies its kind. Symbol
// records sorted bytewise come first, then edge records sorted bytewise.
//
// Errors: invalid_utf8 when any string is not valid UTF-8, out_of_range for
// a NaN or infinite score, invalid_node_line for a negative distance,
// unknown_edge_reference for an edge endpoint that names no symbol. A nil p
// is the empty graph.
func CanonicalPackBytes(p *Payload) ([]byte, error) {
	if p == nil {
		return []byte{}, nil
	}
	var buf []byte
	// Record boundaries as offsets: buf may move while it grows.
	symEnds := make([]int, 0, len(p.Symbols))
	for i := range p.Symbols {
		s := &p.Symbols[i]
		if err := prCheckUTF8("symbol", i, s.Kind, s.QualifiedName, s.Provenance); err != nil {
			return nil, err
		}
		if s.Distance < 0 {
			return nil, lexer.Errorf(lexer.InvalidNodeLine, "symbol %d (%q): negative distance %d", i, s.QualifiedName, s.Distance)
		}
		buf = append(buf, 'S', '\t')
		buf = append(buf, KindAbbrev(s.Kind)...)
		buf = append(buf, '\t')
		buf = append(buf, s.QualifiedName...)
		buf = append(buf, '\t')
		var err error
		if buf, err = encoder.AppendFloat(buf, s.Score); err != nil {
			return nil, lexer.Errorf(lexer.OutOfRange, "symbol %d (%q): non-finite score %v", i, s.QualifiedName, s.Score)
		}
		buf = append(buf, '\t')
		buf = append(buf, s.Provenance...)
		buf = append(buf, '\t')
		buf = strconv.AppendInt(buf, int64(s.Distance), 10)
		buf = encoder.AppendLineEnd(buf)
		symEnds = append(symEnds, len(buf))
	}
	var byName *nameIndex
	if len(p.Edges) > 0 {
		byName = grFirstByName(p.Symbols, grOrder(p.Symbols))
	}
	edgeEnds := make([]int, 0, len(p.Edges))
	for i := range p.Edges {
		e := &p.Edges[i]
		if err := prCheckUTF8("edge", i, e.Source, e.Target, e.EdgeType); err != nil {
			return nil, err
		}
		si, ok := byName.get(e.Source)
		if !ok {
			return nil, lexer.Errorf(lexer.UnknownEdgeReference, "edge %d: source %q is not a symbol of the snapshot", i, e.Source)
		}
		ti, ok := byName.get(e.Target)
		if !ok {
			return nil, lexer.Errorf(lexer.UnknownEdgeReference, "edge %d: target %q is not a symbol of the snapshot", i, e.Target)
		}
		buf = append(buf, 'E', '\t')
		buf = append(buf, KindAbbrev(p.Symbols[si].Kind)...)
		buf = append(buf, '\t')
		buf = append(buf, e.Source...)
		buf = append(buf, '\t')
		buf = append(buf, KindAbbrev(p.Symbols[ti].Kind)...)
		buf = append(buf, '\t')
		buf = append(buf, e.Target...)
		buf = append(buf, '\t')
		buf = append(buf, e.EdgeType...)
		buf = encoder.AppendLineEnd(buf)
		edgeEnds = append(edgeEnds, len(buf))
	}
	recs := make([][]byte, 0, len(symEnds)+len(edgeEnds))
	start := 0
	for _, end := range symEnds {
		recs = append(recs, buf[start:end])
		start = end
	}
	for _, end := range edgeEnds {
		recs = append(recs, buf[start:end])
		start = end
	}
	slices.SortFunc(recs[:len(symEnds)], bytes.Compare)
	slices.SortFunc(recs[len(symEnds):], bytes.Compare)
	out := make([]byte, 0, len(buf))
	for _, r := range recs {
		out = append(out, r...)
	}
	return out, nil
}

// prCheckUTF8 reports the first string of fields that is not valid UTF-8
// (SPEC §10.2 step 1).
func prCheckUTF8(what string, i int, fields ...string) error {
	for _, f := range fields {
		if !utf8.ValidString(f) {
			return lexer.Errorf(lexer.InvalidUTF8, "%s %d: %q is not valid UTF-8", what, i, f)
		}
	}
	return nil
}
