package graph

// The legacy v1 graph wire (SPEC-v1.1 §3, SPEC-v1.4; docs/legacy-v1.md)
// is a mode of this package's encoders (the WireV1 branches of
// appendGraph, dlAppend and Stream), as it is a mode of stream's decoder;
// these are its syntax pieces that v3 has no counterpart for.

import "github.com/gcfkit/gcf/encoder"

// v1AppendHeaderStart appends the v1 graph header start `GCF tool=T
// budget=N tokens=N` (SPEC-v1.1 §3; v1 encoders write budget and tokens
// even when zero).
func v1AppendHeaderStart(b []byte, tool string, budget, tokens int) []byte {
	b = encoder.AppendHeaderField(encoder.AppendV1Header(b), "tool", tool)
	b = encoder.AppendHeaderInt(b, "budget", int64(budget))
	return encoder.AppendHeaderInt(b, "tokens", int64(tokens))
}

// v1AppendGraphSummary appends the v1.4 graph trailer
// `## _summary symbols=N edges=M sections=targets:2,related:1,edges:M`.
func v1AppendGraphSummary(b []byte, symbols, edges int, groups []gsGroup) []byte {
	b = encoder.AppendV1Summary(b)
	b = encoder.AppendHeaderInt(b, "symbols", int64(symbols))
	b = encoder.AppendHeaderInt(b, "edges", int64(edges))
	b = encoder.AppendTrailerList(b, "sections")
	for i, gr := range groups {
		b = encoder.AppendListSep(b, i)
		b = encoder.AppendLabelEnd(encoder.AppendGroupName(b, gr.distance))
		b = encoder.AppendInt(b, int64(gr.count))
	}
	b = encoder.AppendListSep(b, len(groups))
	b = encoder.AppendLabelEnd(encoder.AppendEdgesLabel(b))
	b = encoder.AppendInt(b, int64(edges))
	return encoder.AppendLineEnd(b)
}
