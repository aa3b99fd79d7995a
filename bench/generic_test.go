package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/stream"
)

// dataset is one benchmark input in every form the benchmarks need.
type dataset struct {
	name     string
	json     []byte // json.Marshal of the Go structs
	model    any    // gcf.ParseJSON(json): Object, []any, int64, float64, ...
	gcf      []byte // gcf.EncodeGeneric(model)
	anyValue any    // json.Unmarshal(json, &anyValue): map[string]any, []any, float64, ...
}

func newDataset(name string, v any) (*dataset, error) {
	d := &dataset{name: name, json: MarshalJSON(v)}
	var err error
	if d.model, err = gcf.ParseJSON(d.json); err != nil {
		return nil, fmt.Errorf("%s: ParseJSON: %w", name, err)
	}
	if d.gcf, err = gcf.EncodeGeneric(d.model); err != nil {
		return nil, fmt.Errorf("%s: EncodeGeneric: %w", name, err)
	}
	if err = json.Unmarshal(d.json, &d.anyValue); err != nil {
		return nil, fmt.Errorf("%s: json.Unmarshal: %w", name, err)
	}
	return d, nil
}

var (
	datasetsOnce sync.Once
	datasetsVal  []*dataset
	datasetsErr  error
)

// datasets returns the Employees (10,000 records) and Orders (2,000 orders)
// data sets, built once.
func datasets(tb testing.TB) []*dataset {
	tb.Helper()
	datasetsOnce.Do(func() {
		emp, err := newDataset("Employees", GenEmployees(10000))
		if err != nil {
			datasetsErr = err
			return
		}
		ord, err := newDataset("Orders", GenOrders(2000))
		if err != nil {
			datasetsErr = err
			return
		}
		datasetsVal = []*dataset{emp, ord}
	})
	if datasetsErr != nil {
		tb.Fatal(datasetsErr)
	}
	return datasetsVal
}

// walkEvents reads every event of d until io.EOF and returns how many there were.
func walkEvents(d *stream.Decoder) (int, error) {
	n := 0
	for {
		_, err := d.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// walkReaderEvents is walkEvents for the io.Reader-based gcf.Decoder.
func walkReaderEvents(d *gcf.Decoder) (int, error) {
	n := 0
	for {
		_, err := d.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

func BenchmarkGeneric(b *testing.B) {
	for _, ds := range datasets(b) {
		b.Run(ds.name, func(b *testing.B) {
			b.Run("GCF/Encode", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.gcf)))
				for b.Loop() {
					if _, err := gcf.EncodeGeneric(ds.model); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("GCF/EncodeSmallest", func(b *testing.B) {
				// The Smallest size with its default cost model
				// (gcf.EstimateTokens); issue 18 asks for at most twice
				// the time of GCF/Encode.
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.gcf)))
				for b.Loop() {
					if _, err := gcf.EncodeGeneric(ds.model, gcf.WithSize(gcf.Smallest)); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("JSON/Encode", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.json)))
				for b.Loop() {
					if _, err := json.Marshal(ds.anyValue); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("GCF/Decode", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.gcf)))
				m := StartCPU()
				for b.Loop() {
					if _, err := gcf.DecodeGeneric(ds.gcf); err != nil {
						b.Fatal(err)
					}
				}
				m.Stop(b)
			})
			b.Run("JSON/Decode", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.json)))
				m := StartCPU()
				for b.Loop() {
					var v any
					if err := json.Unmarshal(ds.json, &v); err != nil {
						b.Fatal(err)
					}
				}
				m.Stop(b)
			})
			b.Run("GCF/Events", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.gcf)))
				d := stream.NewBytesDecoder(ds.gcf, stream.Limits{})
				for b.Loop() {
					d.ResetBytes(ds.gcf, stream.Limits{})
					if _, err := walkEvents(d); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("GCF/EventsReader", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.gcf)))
				for b.Loop() {
					d := gcf.NewDecoder(bytes.NewReader(ds.gcf))
					if _, err := walkReaderEvents(d); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("LineScan/Decode", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(ds.gcf)))
				r := bytes.NewReader(ds.gcf)
				br := bufio.NewReader(r)
				for b.Loop() {
					r.Reset(ds.gcf)
					br.Reset(r)
					lines := 0
					for {
						_, err := br.ReadSlice('\n')
						if err == io.EOF {
							break
						}
						if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
							b.Fatal(err)
						}
						lines++
					}
					if lines == 0 {
						b.Fatal("no lines")
					}
				}
			})
		})
	}
}

// TestEventAllocsDoNotGrow checks that walking the events of a payload
// allocates a constant amount, independent of the number of rows.
func TestEventAllocsDoNotGrow(t *testing.T) {
	payload := func(n int) []byte {
		model, err := gcf.ParseJSON(MarshalJSON(GenEmployees(n)))
		if err != nil {
			t.Fatal(err)
		}
		data, err := gcf.EncodeGeneric(model)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(20, func() {
			d := stream.NewBytesDecoder(data, stream.Limits{})
			if _, err := walkEvents(d); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(payload(1000)), allocs(payload(10000))
	t.Logf("allocs per event walk: 1,000 rows = %v, 10,000 rows = %v", small, large)
	const slack = 5
	if large > small+slack {
		t.Errorf("event walk allocations grow with row count: 1,000 rows = %v, 10,000 rows = %v (allowed %v)", small, large, small+slack)
	}
}

// TestRoundTrip checks DecodeGeneric(EncodeGeneric(model)) == model for
// both data sets, comparing their JSON renderings.
func TestRoundTrip(t *testing.T) {
	for _, ds := range datasets(t) {
		t.Run(ds.name, func(t *testing.T) {
			want, err := gcf.ToJSON(ds.model)
			if err != nil {
				t.Fatal(err)
			}
			back, err := gcf.DecodeGeneric(ds.gcf)
			if err != nil {
				t.Fatal(err)
			}
			got, err := gcf.ToJSON(back)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				lo := max(i-80, 0)
				t.Fatalf("round trip differs at byte %d:\n got  ...%s\n want ...%s", i,
					got[lo:min(i+80, len(got))], want[lo:min(i+80, len(want))])
			}
			// The model must also be faithful to the source JSON.
			var a, b any
			if err := json.Unmarshal(want, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(ds.json, &b); err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(a, b) {
				t.Fatal("gcf.ToJSON(model) does not match the source JSON")
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
