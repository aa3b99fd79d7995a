package graph

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/stream"
)

// TestSortSymbolsCents checks the hundredths-keyed sort against the
// defining order (distance ascending, score descending, input order for
// ties; -0 equals 0), and that Encode, which takes it for payloads whose
// scores are all exact hundredths, numbers the symbols in that order.
func TestSortSymbolsCents(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := 64 + r.IntN(300)
		syms := make([]Symbol, n)
		spread := []int64{3, 100, 10000, 1 << 40}[round%4]
		for i := range syms {
			c := r.Int64N(spread) - spread/3
			score := float64(c) / 100
			if c == 0 && r.IntN(2) == 0 {
				score = math.Copysign(0, -1)
			}
			d := r.IntN(4)
			if round%5 == 0 {
				d = r.IntN(1 << 20)
			}
			syms[i] = Symbol{QualifiedName: "s" + strconv.Itoa(i), Kind: "function", Score: score, Provenance: "lsp", Distance: d}
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		slices.SortStableFunc(want, func(a, b int) int {
			if c := cmp.Compare(syms[a].Distance, syms[b].Distance); c != 0 {
				return c
			}
			return cmp.Compare(syms[b].Score, syms[a].Score)
		})
		cents := make([]uint64, n)
		minC, maxC := int64(math.MaxInt64), int64(math.MinInt64)
		for i, s := range syms {
			c, neg, ok := encoder.ScoreCents(s.Score)
			if !ok || float64(c)/100 != math.Abs(s.Score) {
				t.Fatalf("score %v is not exact hundredths", s.Score)
			}
			v := int64(c)
			if neg {
				v, c = -v, c|1<<63
			}
			cents[i] = c
			minC, maxC = min(minC, v), max(maxC, v)
		}
		var sc grScratch
		got, dists := sc.sortSymbolsCents(syms, cents, minC, maxC)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: order %v, want %v", round, got[:min(n, 20)], want[:min(n, 20)])
		}
		for pos, si := range got {
			if dists[pos] != syms[si].Distance {
				t.Fatalf("round %d: dists[%d] = %d, want %d", round, pos, dists[pos], syms[si].Distance)
			}
		}
		out, err := Encode(&Payload{Symbols: syms})
		if err != nil {
			t.Fatal(err)
		}
		pos := 0
		for _, line := range strings.Split(string(out), "\n") {
			if !strings.HasPrefix(line, "@") {
				continue
			}
			if f := strings.Fields(line); f[2] != syms[want[pos]].QualifiedName {
				t.Fatalf("round %d: line %q at position %d, want %s", round, line, pos, syms[want[pos]].QualifiedName)
			}
			pos++
		}
		if pos != n {
			t.Fatalf("round %d: %d node lines, want %d", round, pos, n)
		}
	}
}

// TestGraphEncodeKindCache encodes edges of many kinds (types and
// statuses, shared strings and copies, more than the kind cache's slots
// and the numbered kinds) in a random order and checks the result against
// the reference encoder, so that a kind found through the cache is the
// edge's own.
func TestGraphEncodeKindCache(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var types, statuses []string
	for i := range 90 {
		types = append(types, "type"+strconv.Itoa(i))
	}
	statuses = append(statuses, "", "added", "changed", "unchanged")
	p := &Payload{}
	for i := range 300 {
		p.Symbols = append(p.Symbols, Symbol{QualifiedName: "s" + strconv.Itoa(i), Kind: "function", Score: float64(r.IntN(100)) / 100, Provenance: "lsp"})
	}
	for range 5000 {
		typ := types[r.IntN(len(types))]
		if r.IntN(8) == 0 {
			typ = strings.Clone(typ)
		}
		p.Edges = append(p.Edges, Edge{
			Source:   p.Symbols[r.IntN(len(p.Symbols))].QualifiedName,
			Target:   p.Symbols[r.IntN(len(p.Symbols))].QualifiedName,
			EdgeType: typ,
			Status:   statuses[r.IntN(len(statuses))],
		})
	}
	for _, wire := range []stream.Wire{stream.WireV3, stream.WireV1} {
		q := *p
		q.Tool = "t"
		want, err := refEncodeGraph(&q, wire)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Encode(&q, withWire(wire), withMaxElements(1<<30))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("wire %v: the encoding differs from the reference's", wire)
		}
	}
}
