package bench

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/stream"
)

type graphData struct {
	p        *gcf.Payload
	gcfBytes []byte
	jsonData []byte
}

var (
	graphOnce sync.Once
	graphVal  *graphData
)

func graphDataset(tb testing.TB) *graphData {
	graphOnce.Do(func() {
		p := GraphPayload(10000)
		enc, err := gcf.Encode(p)
		if err != nil {
			tb.Fatal(err)
		}
		js := MarshalJSON(p)
		graphVal = &graphData{p: p, gcfBytes: enc, jsonData: js}
	})
	return graphVal
}

// BenchmarkGraph compares the graph profile with encoding/json on the same
// 10,000-symbol, 20,000-edge payload.
func BenchmarkGraph(b *testing.B) {
	g := graphDataset(b)
	b.Run("GCF/Encode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(g.gcfBytes)))
		m := StartCPU()
		for b.Loop() {
			if _, err := gcf.Encode(g.p); err != nil {
				b.Fatal(err)
			}
		}
		m.Stop(b)
	})
	b.Run("JSON/Encode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(g.jsonData)))
		for b.Loop() {
			if _, err := json.Marshal(g.p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("GCF/Decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(g.gcfBytes)))
		for b.Loop() {
			if _, err := gcf.Decode(g.gcfBytes); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("JSON/Decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(g.jsonData)))
		for b.Loop() {
			var p gcf.Payload
			if err := json.Unmarshal(g.jsonData, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("GCF/Events", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(g.gcfBytes)))
		d := stream.NewBytesDecoder(nil, stream.Limits{})
		for b.Loop() {
			d.ResetBytes(g.gcfBytes, stream.Limits{})
			if _, err := walkEvents(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestGraphRoundTrip: the benchmark payload survives Encode/Decode as the
// same logical graph.
func TestGraphRoundTrip(t *testing.T) {
	g := graphDataset(t)
	back, err := gcf.Decode(g.gcfBytes)
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := gcf.PackRoot(g.p)
	r2, _ := gcf.PackRoot(back)
	if r1 != r2 {
		t.Fatalf("pack roots differ: %s vs %s", r1, r2)
	}
}

// TestGraphDecodeMemory: decoding allocates at most three times the input
// size in total, both for a payload with declared counts (gcf.Encode) and
// for a streamed one whose sections are [?] (the slices are then sized
// from a count of the input's lines). This is allocation, not the peak
// RSS; bench/scale's decodebuffered-graph phase measures that.
func TestGraphDecodeMemory(t *testing.T) {
	for _, in := range []struct {
		name string
		data []byte
	}{{"declared", graphDataset(t).gcfBytes}, {"stream", getStream(t, "Graph", "10k").stream}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		p, err := gcf.Decode(in.data)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		runtime.KeepAlive(p)
		total := after.TotalAlloc - before.TotalAlloc
		if limit := 3 * uint64(len(in.data)); total > limit {
			t.Errorf("%s: Decode allocated %d bytes for a %d-byte input (limit %d)", in.name, total, len(in.data), limit)
		}
		t.Logf("%s: Decode allocated %d bytes for a %d-byte input (%.2fx)", in.name, total, len(in.data), float64(total)/float64(len(in.data)))
	}
}

// TestGraphEventAllocsDoNotGrow: walking graph events allocates nothing
// per event.
func TestGraphEventAllocsDoNotGrow(t *testing.T) {
	small, err := gcf.Encode(GraphPayload(500))
	if err != nil {
		t.Fatal(err)
	}
	large := graphDataset(t).gcfBytes
	d := stream.NewBytesDecoder(large, stream.Limits{})
	walk := func(data []byte) {
		d.ResetBytes(data, stream.Limits{})
		if _, err := walkEvents(d); err != nil {
			t.Fatal(err)
		}
	}
	walk(large)
	a := testing.AllocsPerRun(5, func() { walk(small) })
	b := testing.AllocsPerRun(5, func() { walk(large) })
	if b > a {
		t.Fatalf("graph event allocations grow: %v for 500 symbols, %v for 10,000", a, b)
	}
	if !bytes.HasPrefix(large, []byte("GCF profile=graph")) {
		t.Fatal("not a graph payload")
	}
}
