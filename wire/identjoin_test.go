package wire

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/strid"
)

// identPayload builds a payload whose edge endpoints are mostly the very
// strings of its symbols' names, some equal copies of them, some names of
// no symbol; with dup, two symbols share a name (in different memory).
func identPayload(r *rand.Rand, n int, dup bool) *gcf.Payload {
	p := &gcf.Payload{Tool: "t"}
	for i := 0; i < n; i++ {
		p.Symbols = append(p.Symbols, gcf.Symbol{
			QualifiedName: fmt.Sprintf("github.com/acme/pkg%d.Sym%d", i%7, i),
			Kind:          "function", Score: float64(r.IntN(100)) / 100, Provenance: "lsp", Distance: r.IntN(3),
		})
	}
	if dup && n > 2 {
		p.Symbols[n-1].QualifiedName = strings.Clone(p.Symbols[1].QualifiedName)
	}
	end := func() string {
		s := p.Symbols[r.IntN(n)].QualifiedName
		switch r.IntN(8) {
		case 0:
			return strings.Clone(s) // equal, other memory
		case 1:
			return fmt.Sprintf("external.Name%d", r.IntN(5)) // no symbol
		case 2:
			return s[:len(s)-1] // shares memory, names no symbol (or another one)
		case 3:
			if r.IntN(4) == 0 {
				return "" // no identity
			}
		}
		return s
	}
	for i := 0; i < 3*n; i++ {
		p.Edges = append(p.Edges, gcf.Edge{Source: end(), Target: end(), EdgeType: "calls"})
	}
	p.Edges[0].Source = p.Symbols[r.IntN(n)].QualifiedName // the shared strings are noticed
	if dup && n > 2 {
		p.Edges[1].Source = p.Symbols[n-1].QualifiedName // the second of a name means the first
	}
	return p
}

// TestGCBIdentityEndpoints: endpoints resolved through the identity index
// give the bytes of endpoints resolved by content (every endpoint a copy),
// with copies, external names, prefixes sharing memory and duplicate
// names; and the index is used when the strings are shared.
func TestGCBIdentityEndpoints(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	for it := 0; it < 200; it++ {
		n := 3 + r.IntN(120)
		p := identPayload(r, n, it%4 == 0)
		q := *p
		q.Edges = append([]gcf.Edge(nil), p.Edges...)
		for i := range q.Edges {
			q.Edges[i].Source, q.Edges[i].Target = strings.Clone(q.Edges[i].Source), strings.Clone(q.Edges[i].Target)
		}
		got, err := GCB{}.Append(nil, p)
		want, err2 := GCB{}.Append(nil, &q)
		if fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("iteration %d: errors %v and %v", it, err, err2)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("iteration %d (%d symbols): shared endpoints encode differently from copies", it, n)
		}
	}
	var tab nameTable
	p := identPayload(r, 50, false)
	tab.reset(len(p.Symbols))
	for _, s := range p.Symbols {
		tab.add(s.QualifiedName)
	}
	if got := tab.indexIdentities(); got != strid.Enabled {
		t.Fatalf("indexIdentities() = %v without duplicate names, want %v", got, strid.Enabled)
	}
	if strid.Enabled {
		if i := tab.findIdent(p.Symbols[7].QualifiedName); i != 7 {
			t.Fatalf("findIdent(symbol 7's name) = %d", i)
		}
		if i := tab.findIdent(strings.Clone(p.Symbols[7].QualifiedName)); i != -1 {
			t.Fatalf("findIdent(a copy) = %d, want -1", i)
		}
	}
	tab.add(strings.Clone(p.Symbols[3].QualifiedName))
	if tab.indexIdentities() {
		t.Fatal("indexIdentities() with two equal names reported true")
	}
}
