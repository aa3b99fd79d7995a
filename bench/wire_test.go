package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/conformance"
	"github.com/gcfkit/gcf/wire"
)

type wireCase struct {
	name      string
	p         *gcf.Payload
	json, gcb []byte
	gcf       []byte // the payload without what GCF refuses: edges to undeclared symbols, status "unchanged"
}

// wireCases loads the product's six benchmark payloads (golden/*.json of
// the wire reference pack) and the 10,000-symbol graph.
func wireCases(tb testing.TB) []*wireCase {
	dir := conformance.WireDir(tb)
	files, err := filepath.Glob(filepath.Join(dir, "golden", "0*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no golden cases in %s: %v", dir, err)
	}
	var ps []*gcf.Payload
	var names []string
	for _, f := range files {
		if strings.Contains(f, ".gcb.") || strings.Contains(f, "scorecard") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		p, err := wire.DecodeWith("json", data)
		if err != nil {
			tb.Fatal(err)
		}
		ps = append(ps, p)
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".json")[:2])
	}
	ps = append(ps, GraphPayload(10000))
	names = append(names, "graph10k")
	var out []*wireCase
	for i, p := range ps {
		c := &wireCase{name: names[i], p: p}
		c.json = MarshalJSON(p)
		if c.gcb, err = wire.EncodeWith("gcb", p); err != nil {
			tb.Fatal(err)
		}
		declared := map[string]bool{}
		for _, s := range p.Symbols {
			declared[s.QualifiedName] = true
		}
		q := *p
		q.Edges = nil
		for _, e := range p.Edges {
			if declared[e.Source] && declared[e.Target] {
				if e.Status == "unchanged" { // GCF knows added and removed only
					e.Status = ""
				}
				q.Edges = append(q.Edges, e)
			}
		}
		if c.gcf, err = gcf.Encode(&q); err != nil {
			tb.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// BenchmarkWire compares GCB version 2 with encoding/json (Marshal, and
// Unmarshal into a gcf.Payload) and with GCF's graph Decode, per case. Each
// result carries cpu-ns/op besides ns/op (see reportCPU).
func BenchmarkWire(b *testing.B) {
	var gcb wire.GCB
	for _, c := range wireCases(b) {
		b.Run(c.name+"/GCB/Encode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.json)))
			var buf []byte
			start := cpuNanos()
			for b.Loop() {
				var err error
				if buf, err = gcb.Append(buf[:0], c.p); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name+"/GCBCompact/Encode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.json)))
			compact := wire.GCB{Compact: true}
			var buf []byte
			start := cpuNanos()
			for b.Loop() {
				var err error
				if buf, err = compact.Append(buf[:0], c.p); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name+"/JSON/Encode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.json)))
			start := cpuNanos()
			for b.Loop() {
				if _, err := json.Marshal(c.p); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name+"/GCB/Decode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.json)))
			start := cpuNanos()
			for b.Loop() {
				if _, err := gcb.DecodeBytes(c.gcb); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name+"/JSON/Decode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.json)))
			start := cpuNanos()
			for b.Loop() {
				var p gcf.Payload
				if err := json.Unmarshal(c.json, &p); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name+"/GCF/Decode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.json)))
			start := cpuNanos()
			for b.Loop() {
				if _, err := gcf.Decode(c.gcf); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// reportCPU adds the metric cpu-ns/op: the process's CPU time per
// operation since start (GC included). On a machine shared with other
// work, ratios of cpu-ns/op are steadier than ratios of ns/op.
func reportCPU(b *testing.B, start int64) {
	if n := b.N; n > 0 {
		b.ReportMetric(float64(cpuNanos()-start)/float64(n), "cpu-ns/op")
	}
}
