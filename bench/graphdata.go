package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/gcfkit/gcf"
)

// GraphPayload generates a deterministic code graph: n symbols spread over
// distances 0-4 and 2n edges between them.
func GraphPayload(n int) *gcf.Payload {
	r := rand.New(rand.NewPCG(3, uint64(n)))
	kinds := []string{"function", "method", "type", "interface", "var", "const", "field", "package"}
	provs := []string{"lsp_resolved", "ast_inferred", "rwr", "lsp"}
	p := &gcf.Payload{Tool: "context_for_task", TokenBudget: 50000, TokensUsed: 41237}
	for i := 0; i < n; i++ {
		p.Symbols = append(p.Symbols, gcf.Symbol{
			QualifiedName: fmt.Sprintf("github.com/acme/service/pkg%d.Symbol%d", i%97, i),
			Kind:          kinds[r.IntN(len(kinds))],
			Score:         float64(r.IntN(100)) / 100, // the wire carries two decimals
			Provenance:    provs[r.IntN(len(provs))],
			Distance:      r.IntN(5),
		})
	}
	types := []string{"calls", "references", "imports", "implements"}
	for i := 0; i < 2*n; i++ {
		p.Edges = append(p.Edges, gcf.Edge{
			Source:   p.Symbols[r.IntN(n)].QualifiedName,
			Target:   p.Symbols[r.IntN(n)].QualifiedName,
			EdgeType: types[r.IntN(len(types))],
		})
	}
	return p
}
