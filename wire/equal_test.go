package wire

import (
	"math"

	"github.com/gcfkit/gcf"
)

// payloadsEqual compares payloads exactly: floats by their bits (NaN
// equals NaN of the same bits, -0 differs from 0), nil and empty slices
// alike, components by presence and value.
func payloadsEqual(a, b *gcf.Payload) bool {
	if a.Tool != b.Tool || a.TokensUsed != b.TokensUsed || a.TokenBudget != b.TokenBudget || a.PackRoot != b.PackRoot ||
		len(a.Symbols) != len(b.Symbols) || len(a.Edges) != len(b.Edges) {
		return false
	}
	for i := range a.Symbols {
		x, y := &a.Symbols[i], &b.Symbols[i]
		if x.QualifiedName != y.QualifiedName || x.Kind != y.Kind || !sameFloat(x.Score, y.Score) ||
			x.Provenance != y.Provenance || x.Distance != y.Distance || x.Signature != y.Signature ||
			(x.Components == nil) != (y.Components == nil) {
			return false
		}
		if c, d := x.Components, y.Components; c != nil && (!sameFloat(c.BlastRadius, d.BlastRadius) ||
			!sameFloat(c.Confidence, d.Confidence) || !sameFloat(c.Recency, d.Recency) || !sameFloat(c.Distance, d.Distance)) {
			return false
		}
	}
	for i := range a.Edges {
		if a.Edges[i] != b.Edges[i] {
			return false
		}
	}
	return true
}

func sameFloat(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
