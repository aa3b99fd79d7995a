package fuzz

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/ast/differential"
	"github.com/gcfkit/gcf/stream"
)

// tightLimits are small enough for the fuzzer to reach every limit of
// SPEC §12 (depth, line length, elements, fields), so that both parsers
// are also compared where they give up.
var tightLimits = stream.Limits{MaxDepth: 6, MaxLineBytes: 200, MaxElements: 40, MaxFields: 12}

// FuzzDifferential: the pull decoder (package stream) and the
// spec-mirroring AST parser (packages grammar and ast) agree on arbitrary
// bytes, under the default limits and under tight ones, in the sense of
// differential.Compare: same accept/reject decision and, on reject, the
// same category on the same first line. Neither may panic or hang.
func FuzzDifferential(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	regress, _ := filepath.Glob(filepath.Join("..", "testdata", "differential", "*.gcf"))
	for _, p := range regress {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range encodedSeeds() {
		f.Add(s)
	}
	for _, c := range keyedCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := differential.Compare(data, stream.Limits{}); err != nil {
			t.Fatalf("default limits: %v\ninput: %q", err, data)
		}
		if err := differential.Compare(data, tightLimits); err != nil {
			t.Fatalf("tight limits: %v\ninput: %q", err, data)
		}
	})
}

// encodedSeeds returns encoder output for a few deterministic random
// values of each profile.
func encodedSeeds() [][]byte {
	var out [][]byte
	for seed := uint64(1); seed <= 24; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		if b, err := gcf.EncodeGeneric(randValue(r, 0)); err == nil {
			out = append(out, b)
		}
		if b, err := gcf.EncodeGeneric(randRecords(r)); err == nil {
			out = append(out, b)
		}
		if b, err := gcf.Encode(randGraph(r)); err == nil {
			out = append(out, b)
		}
	}
	return out
}

var fuzzKeys = []string{"id", "name", "a", "b", "a>b", "x y", "", "key", "_k", "1", "true", "-", "~", "^", "#c", "@id", ".f", "é", "a,b", "p|q"}
var fuzzStrings = []string{"", "plain", "x y", " pad ", "-", "~", "^", "^{a,b}", "true", "12", "01", "1.5", "-0", "a|b", "a,b", "\"q\"", "tab\tc", "ERR[404]: x", "#h", "@1", ".d", "ü", "\u2028", "9223372036854775808"}

func randScalar(r *rand.Rand) any {
	switch r.IntN(6) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return int64(r.IntN(2000) - 1000)
	case 3:
		return float64(r.IntN(100000)) / 100
	default:
		return fuzzStrings[r.IntN(len(fuzzStrings))]
	}
}

func randValue(r *rand.Rand, depth int) any {
	if depth > 3 {
		return randScalar(r)
	}
	switch r.IntN(4) {
	case 0:
		return randScalar(r)
	case 1:
		n := r.IntN(4)
		o := gcf.Object{}
		used := map[string]bool{}
		for i := 0; i < n; i++ {
			k := fuzzKeys[r.IntN(len(fuzzKeys))]
			if used[k] {
				continue
			}
			used[k] = true
			o = append(o, gcf.Member{Key: k, Value: randValue(r, depth+1)})
		}
		return o
	case 2:
		return randRecordsDepth(r, depth+1)
	default:
		n := r.IntN(4)
		a := make([]any, n)
		for i := range a {
			a[i] = randValue(r, depth+1)
		}
		return a
	}
}

func randRecords(r *rand.Rand) any { return randRecordsDepth(r, 0) }

// randRecordsDepth makes arrays of similar objects, which encode as tables
// with attachments, inline schemas, shared schemas and flattened columns.
func randRecordsDepth(r *rand.Rand, depth int) any {
	n := 1 + r.IntN(4)
	keys := fuzzKeys[:3+r.IntN(4)]
	a := make([]any, n)
	for i := range a {
		o := gcf.Object{}
		for _, k := range keys {
			if r.IntN(5) == 0 {
				continue // absent: ~
			}
			var v any = randScalar(r)
			if depth < 3 && r.IntN(4) == 0 {
				v = randValue(r, depth+1)
			}
			o = append(o, gcf.Member{Key: k, Value: v})
		}
		a[i] = o
	}
	if r.IntN(3) == 0 {
		o := gcf.Object{}
		for i, v := range a {
			o = append(o, gcf.Member{Key: fmt.Sprintf("k%d", i), Value: v})
		}
		return o
	}
	return a
}

func randGraph(r *rand.Rand) *gcf.Payload {
	p := &gcf.Payload{Tool: "fuzz", TokenBudget: r.IntN(3) * 100}
	n := 1 + r.IntN(6)
	kinds := []string{"function", "type", "method", "widget"}
	for i := 0; i < n; i++ {
		p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: fmt.Sprintf("pkg.S%d", i), Kind: kinds[r.IntN(len(kinds))],
			Score: float64(r.IntN(100)) / 100, Provenance: "lsp", Distance: r.IntN(4)})
	}
	for i := 0; i < r.IntN(6); i++ {
		p.Edges = append(p.Edges, gcf.Edge{Source: fmt.Sprintf("pkg.S%d", r.IntN(n)), Target: fmt.Sprintf("pkg.S%d", r.IntN(n)), EdgeType: "calls"})
	}
	return p
}
