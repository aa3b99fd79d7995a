package peers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sync"
	"testing"

	"github.com/bytedance/sonic"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	goccy "github.com/goccy/go-json"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/bench"
)

// A peer is one JSON library under its default configuration.
type peer struct {
	name      string
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
	skip      string // why the peer does not run here, or ""
}

func sonicSkip() string {
	if !sonicNative {
		return "sonic v1.15.5 has no JIT build for this GOARCH or Go version; its fallback is encoding/json"
	}
	return ""
}

var peers = []peer{
	{name: "json", marshal: json.Marshal, unmarshal: json.Unmarshal},
	{name: "jsonv2", marshal: func(v any) ([]byte, error) { return jsonv2.Marshal(v) },
		unmarshal: func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) }},
	{name: "goccy", marshal: goccy.Marshal, unmarshal: goccy.Unmarshal},
	{name: "sonic", marshal: sonic.Marshal, unmarshal: sonic.Unmarshal, skip: sonicSkip()},
}

// A dataset holds one data set in every form the benchmarks start from.
type dataset struct {
	name  string
	graph *gcf.Payload // Graph: the payload (it is also the typed struct)
	model any          // Employees, Orders: the map[string]any/[]any a JSON user holds
	typed any          // pointer to the typed structs with json tags
	newT  func() any   // a new zero value of the typed structs, as a pointer
	gcf   []byte       // the gcf encoding
	json  []byte       // the encoding/json encoding of the typed value
}

var (
	dataOnce sync.Once
	dataSets []*dataset
	dataErr  error
)

func load(tb testing.TB) []*dataset {
	tb.Helper()
	dataOnce.Do(func() {
		g := bench.GraphPayload(10000)
		emps := bench.GenEmployees(10000)
		ords := bench.GenOrders(2000)
		sets := []*dataset{
			{name: "Graph", graph: g, typed: g, newT: func() any { return new(gcf.Payload) }},
			{name: "Employees", typed: &emps, newT: func() any { return new(bench.Employees) }},
			{name: "Orders", typed: &ords, newT: func() any { return new(bench.Orders) }},
		}
		for _, d := range sets {
			if d.json, dataErr = json.Marshal(d.typed); dataErr != nil {
				return
			}
			if d.graph != nil {
				d.gcf, dataErr = gcf.Encode(d.graph)
			} else {
				if dataErr = json.Unmarshal(d.json, &d.model); dataErr != nil {
					return
				}
				d.gcf, dataErr = gcf.Marshal(d.model)
			}
			if dataErr != nil {
				return
			}
		}
		dataSets = sets
	})
	if dataErr != nil {
		tb.Fatal(dataErr)
	}
	return dataSets
}

// encodeInput is the value Encode starts from: the payload on Graph, the
// map[string]any elsewhere.
func (d *dataset) encodeInput() any {
	if d.graph != nil {
		return d.graph
	}
	return d.model
}

// BenchmarkPeers is BenchmarkPeers/<Dataset>/<Op>/<Lib>; see
// docs/benchmarks.md for what each op starts from and ends with. It
// prints the machine first (bench.Machine), so that every table taken
// from its output names the CPU, the Go version, GOMAXPROCS and GOAMD64.
func BenchmarkPeers(b *testing.B) {
	machineOnce.Do(func() { fmt.Println("machine:", bench.Machine()) })
	for _, d := range load(b) {
		b.Run(d.name, func(b *testing.B) {
			b.Run("Encode", func(b *testing.B) { benchEncode(b, d, d.encodeInput()) })
			b.Run("EncodeStruct", func(b *testing.B) { benchEncode(b, d, d.typed) })
			b.Run("Decode", func(b *testing.B) { benchDecode(b, d, false) })
			b.Run("DecodeStruct", func(b *testing.B) { benchDecode(b, d, true) })
			b.Run("Walk", func(b *testing.B) { benchWalk(b, d) })
		})
	}
}

var machineOnce sync.Once

func benchEncode(b *testing.B, d *dataset, v any) {
	b.Run("gcf", func(b *testing.B) {
		enc := gcf.Marshal
		if p, ok := v.(*gcf.Payload); ok {
			enc = func(any) ([]byte, error) { return gcf.Encode(p) }
		}
		out, err := enc(v)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(out)))
		b.ReportAllocs()
		m := bench.StartCPU()
		for b.Loop() {
			if _, err := enc(v); err != nil {
				b.Fatal(err)
			}
		}
		m.Stop(b)
	})
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			if p.skip != "" {
				b.Skip(p.skip)
			}
			out, err := p.marshal(v)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			m := bench.StartCPU()
			for b.Loop() {
				if _, err := p.marshal(v); err != nil {
					b.Fatal(err)
				}
			}
			m.Stop(b)
		})
	}
}

// benchDecode decodes into any (typed false) or into the typed structs.
// gcf cannot decode a graph payload into any (it is not a JSON value): on
// Graph both ops decode into *gcf.Payload.
func benchDecode(b *testing.B, d *dataset, typed bool) {
	b.Run("gcf", func(b *testing.B) {
		b.SetBytes(int64(len(d.gcf)))
		b.ReportAllocs()
		m := bench.StartCPU()
		for b.Loop() {
			var err error
			switch {
			case d.graph != nil:
				var p gcf.Payload
				err = gcf.Unmarshal(d.gcf, &p)
			case typed:
				err = gcf.Unmarshal(d.gcf, d.newT())
			default:
				var v any
				err = gcf.Unmarshal(d.gcf, &v)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		m.Stop(b)
	})
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			if p.skip != "" {
				b.Skip(p.skip)
			}
			b.SetBytes(int64(len(d.json)))
			b.ReportAllocs()
			m := bench.StartCPU()
			for b.Loop() {
				var err error
				if typed {
					err = p.unmarshal(d.json, d.newT())
				} else {
					var v any
					err = p.unmarshal(d.json, &v)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			m.Stop(b)
		})
	}
}

// benchWalk reads every event of the gcf payload through gcf.NewDecoder
// and every token of the JSON through jsontext's Decoder.ReadToken.
func benchWalk(b *testing.B, d *dataset) {
	b.Run("gcf", func(b *testing.B) {
		b.SetBytes(int64(len(d.gcf)))
		b.ReportAllocs()
		r := bytes.NewReader(d.gcf)
		dec := gcf.NewDecoder(r)
		m := bench.StartCPU()
		for b.Loop() {
			r.Reset(d.gcf)
			dec.Reset(r)
			if n, err := walkGCF(dec); err != nil || n == 0 {
				b.Fatal(n, err)
			}
		}
		m.Stop(b)
	})
	b.Run("jsonv2", func(b *testing.B) {
		b.SetBytes(int64(len(d.json)))
		b.ReportAllocs()
		r := bytes.NewReader(d.json)
		dec := jsontext.NewDecoder(r)
		m := bench.StartCPU()
		for b.Loop() {
			r.Reset(d.json)
			dec.Reset(r)
			if n, err := walkJSON(dec); err != nil || n == 0 {
				b.Fatal(n, err)
			}
		}
		m.Stop(b)
	})
}

func walkGCF(d *gcf.Decoder) (int, error) {
	n := 0
	for {
		_, err := d.Read()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

func walkJSON(d *jsontext.Decoder) (int, error) {
	n := 0
	for {
		_, err := d.ReadToken()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// TestSameData checks that every op decodes what was encoded: gcf's
// decoded values, converted to JSON, equal encoding/json's, and the typed
// decode equals the generated structs.
func TestSameData(t *testing.T) {
	for _, d := range load(t) {
		t.Run(d.name, func(t *testing.T) {
			got := d.newT()
			if err := gcf.Unmarshal(d.gcf, got); err != nil {
				t.Fatal(err)
			}
			if d.graph != nil {
				// The wire orders symbols by distance and score: compare
				// pack roots, which identify the graph whatever the order.
				r1, err1 := gcf.PackRoot(d.graph)
				r2, err2 := gcf.PackRoot(got.(*gcf.Payload))
				if err1 != nil || err2 != nil || r1 != r2 {
					t.Fatalf("graph decode differs: %s %v vs %s %v", r1, err1, r2, err2)
				}
				return
			}
			if !reflect.DeepEqual(got, d.typed) {
				t.Fatalf("typed decode differs from the generated data")
			}
			var v any
			if err := gcf.Unmarshal(d.gcf, &v); err != nil {
				t.Fatal(err)
			}
			js, err := gcf.ToJSON(v)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal(js, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(d.json, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("decode into any differs from the JSON")
			}
		})
	}
}
