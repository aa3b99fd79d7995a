package ast_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/ast/differential"
	"github.com/gcfkit/gcf/stream"
)

// genericRecords encodes n records: a tabular section with a nested
// object attachment on every tenth row, plus a few nested sections.
func genericRecords(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	depts := []string{"Engineering", "Sales", "Marketing", "Finance", "Human Resources"}
	rows := make([]any, n)
	for i := range rows {
		o := gcf.Object{
			{Key: "id", Value: int64(i)},
			{Key: "name", Value: fmt.Sprintf("Person %d", r.IntN(100000))},
			{Key: "department", Value: depts[r.IntN(len(depts))]},
			{Key: "salary", Value: int64(40000 + r.IntN(100000))},
			{Key: "active", Value: r.IntN(2) == 0},
			{Key: "rating", Value: float64(r.IntN(500)) / 100},
		}
		if i%10 == 0 {
			o = append(o, gcf.Member{Key: "manager", Value: gcf.Object{{Key: "id", Value: int64(r.IntN(n))}, {Key: "note", Value: "a, b | c"}}})
		}
		rows[i] = o
	}
	v := gcf.Object{
		{Key: "config", Value: gcf.Object{{Key: "env", Value: "production"}, {Key: "db", Value: gcf.Object{{Key: "host", Value: "db.example.com"}, {Key: "port", Value: int64(5432)}}}}},
		{Key: "tags", Value: []any{"a", "b", "c"}},
		{Key: "employees", Value: rows},
	}
	b, err := gcf.EncodeGeneric(v)
	if err != nil {
		panic(err)
	}
	return b
}

// graphPayload encodes n symbols in four distance groups and 1.5n edges.
func graphPayload(n int) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	kinds := []string{"function", "method", "type", "interface", "var"}
	p := &gcf.Payload{Tool: "bench", TokenBudget: 5000}
	for i := 0; i < n; i++ {
		p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: fmt.Sprintf("github.com/org/repo/pkg%d.Sym%d", i%97, i),
			Kind: kinds[r.IntN(len(kinds))], Score: float64(r.IntN(100)) / 100, Provenance: "lsp_resolved", Distance: r.IntN(4)})
	}
	for i := 0; i < n*3/2; i++ {
		p.Edges = append(p.Edges, gcf.Edge{Source: p.Symbols[r.IntN(n)].QualifiedName, Target: p.Symbols[r.IntN(n)].QualifiedName, EdgeType: "calls"})
	}
	b, err := gcf.Encode(p)
	if err != nil {
		panic(err)
	}
	return b
}

// sized returns a payload of about size bytes made by gen.
func sized(gen func(int) []byte, size int) []byte {
	probe := gen(2000)
	n := int(float64(size) / float64(len(probe)) * 2000)
	return gen(n)
}

var (
	payloadMu sync.Mutex
	payloads  = map[string][]byte{}
)

func payload(b *testing.B, profile string, mb int) []byte {
	payloadMu.Lock()
	defer payloadMu.Unlock()
	k := fmt.Sprintf("%s/%d", profile, mb)
	if p, ok := payloads[k]; ok {
		return p
	}
	gen := genericRecords
	if profile == "graph" {
		gen = graphPayload
	}
	p := sized(gen, mb<<20)
	if err := differential.Compare(p, stream.Limits{}); err != nil || differential.Pull(p, stream.Limits{}) != nil {
		b.Fatalf("generated %s payload: %v", k, err)
	}
	payloads[k] = p
	return p
}

// BenchmarkValidate measures `gcf validate`'s parser (ast.Parse) beside the
// pull decoder on the same payloads of each profile at 1, 10 and 50 MB.
// Throughput should not fall with size (the AST path is linear).
func BenchmarkValidate(b *testing.B) {
	for _, profile := range []string{"generic", "graph"} {
		for _, mb := range []int{1, 10, 50} {
			b.Run(fmt.Sprintf("%s/%dMB/ast", profile, mb), func(b *testing.B) {
				if mb > 1 && testing.Short() {
					// The full AST of 50 MB takes about 5 GB: CI's one-iteration
					// run (-short) keeps to the 1 MB size.
					b.Skipf("-short: %d MB payloads are for full runs", mb)
				}
				data := payload(b, profile, mb)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, errs := ast.Parse(data, stream.Limits{}); len(errs) > 0 {
						b.Fatal(errs)
					}
				}
			})
			b.Run(fmt.Sprintf("%s/%dMB/pull", profile, mb), func(b *testing.B) {
				if mb > 1 && testing.Short() {
					b.Skipf("-short: %d MB payloads are for full runs", mb)
				}
				data := payload(b, profile, mb)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := differential.Pull(data, stream.Limits{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCheck measures the streaming validator (ast.Check) on the
// payloads of BenchmarkValidate.
func BenchmarkCheck(b *testing.B) {
	for _, profile := range []string{"generic", "graph"} {
		b.Run(profile+"/1MB", func(b *testing.B) {
			data := payload(b, profile, 1)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if errs := ast.Check(bytes.NewReader(data), stream.Limits{}); len(errs) > 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}
