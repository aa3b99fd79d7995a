package transcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/bench"
)

// benchGraph is a deterministic graph payload of n symbols and 2n edges.
func benchGraph(n int) *gcf.Payload {
	kinds := []string{"function", "method", "type", "interface", "var", "const", "field", "package"}
	provs := []string{"lsp_resolved", "ast_inferred", "rwr", "lsp"}
	types := []string{"calls", "references", "imports", "implements"}
	p := &gcf.Payload{Tool: "context_for_task", TokenBudget: 50000, TokensUsed: 41237}
	for i := range n {
		p.Symbols = append(p.Symbols, gcf.Symbol{
			QualifiedName: fmt.Sprintf("github.com/acme/service/pkg%d.Symbol%d", i%97, i),
			Kind:          kinds[i%len(kinds)],
			Score:         float64(i*37%100) / 100,
			Provenance:    provs[i%len(provs)],
			Distance:      i * 5 / n,
		})
	}
	for i := range 2 * n {
		p.Edges = append(p.Edges, gcf.Edge{
			Source:   p.Symbols[i*7919%n].QualifiedName,
			Target:   p.Symbols[i*104729%n].QualifiedName,
			EdgeType: types[i%len(types)],
		})
	}
	return p
}

type benchInput struct {
	name string
	gcf  []byte
}

func benchInputs(b *testing.B) []benchInput {
	var out []benchInput
	for _, d := range []struct {
		name string
		v    any
	}{{"Employees", bench.GenEmployees(10000)}, {"Orders", bench.GenOrders(2000)}} {
		v, err := gcf.ParseJSON(bench.MarshalJSON(d.v))
		if err != nil {
			b.Fatal(err)
		}
		enc, err := gcf.EncodeGeneric(v)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, benchInput{d.name, enc})
	}
	enc, err := gcf.Encode(benchGraph(10000))
	if err != nil {
		b.Fatal(err)
	}
	return append(out, benchInput{"Graph", enc})
}

// BenchmarkDecode compares ToJSON with today's buffered `gcf decode`
// (the whole input in memory, DecodeGeneric + gcf.ToJSON, or Decode +
// json.Marshal for a graph), and shows ToNDJSON. Each writes to
// io.Discard; the buffered path is given the input already in memory.
func BenchmarkDecode(b *testing.B) {
	for _, in := range benchInputs(b) {
		b.Run(in.name+"/buffered", func(b *testing.B) {
			b.SetBytes(int64(len(in.gcf)))
			b.ReportAllocs()
			for b.Loop() {
				js, err := buffered(in.gcf, "")
				if err != nil {
					b.Fatal(err)
				}
				io.Discard.Write(js)
			}
		})
		b.Run(in.name+"/ToJSON", func(b *testing.B) {
			b.SetBytes(int64(len(in.gcf)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ToJSON(io.Discard, bytes.NewReader(in.gcf), Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(in.name+"/ToNDJSON", func(b *testing.B) {
			b.SetBytes(int64(len(in.gcf)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ToNDJSON(io.Discard, bytes.NewReader(in.gcf), Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBenchInputs keeps the benchmark honest: ToJSON and the buffered
// path agree on its inputs.
func TestBenchInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the benchmark data sets")
	}
	for _, d := range []struct {
		name string
		v    any
	}{{"Employees", bench.GenEmployees(500)}, {"Orders", bench.GenOrders(100)}} {
		v, err := gcf.ParseJSON(bench.MarshalJSON(d.v))
		if err != nil {
			t.Fatal(err)
		}
		enc, err := gcf.EncodeGeneric(v)
		if err != nil {
			t.Fatal(err)
		}
		checkSame(t, d.name, enc)
	}
	enc, err := gcf.Encode(benchGraph(500))
	if err != nil {
		t.Fatal(err)
	}
	checkSame(t, "Graph", enc)
	js, _ := json.Marshal(benchGraph(3))
	t.Logf("graph sample: %s", js)
}
