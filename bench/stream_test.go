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

// Streaming benchmarks (docs/streaming.md). Every input is a streaming
// payload written by the streaming encoder:
//
//   - Graph/<Size>: BeginGraph, WriteSymbol x n (five distance groups),
//     WriteEdge x 2n, Close (`## edges [?]` and the `##! summary` trailer).
//   - Employees/<Size>: BeginTable("employees", id,name,department,salary,
//     active), WriteRow x n, Close (`[?]` and `##! summary counts=n`).
//
// Sizes: 10k = 10,000 symbols (+20,000 edges) or records; 500k = 500,000
// symbols (+1,000,000 edges) or records. Data is generated once per size.

var streamSizes = map[string]int{"10k": 10_000, "100k": 100_000, "500k": 500_000}

// streamData is one streaming benchmark input.
type streamData struct {
	profile, size string
	n             int
	stream        []byte // the streaming payload

	// Encoder inputs (kept so the encode benchmarks time only encoding).
	emps  []Employee
	syms  []gcf.Symbol
	edges []gcf.Edge
	ids   []EdgeIDs // the same edges by symbol ID

	bufOnce  sync.Once
	model    any          // Employees: the JSON data model of {"employees": [...]}
	payload  *gcf.Payload // Graph: the same graph as a buffered Payload
	buffered []byte       // EncodeGeneric(model) or Encode(payload)
	bufErr   error
}

var (
	streamMu  sync.Mutex
	streamSet = map[string]*streamData{}
)

// getStream returns the input for profile ("Graph" or "Employees") and
// size, generating it on first use.
func getStream(tb testing.TB, profile, size string) *streamData {
	tb.Helper()
	streamMu.Lock()
	defer streamMu.Unlock()
	key := profile + "/" + size
	if d := streamSet[key]; d != nil {
		return d
	}
	n, ok := streamSizes[size]
	if !ok {
		tb.Fatalf("unknown size %q", size)
	}
	d := &streamData{profile: profile, size: size, n: n}
	var buf bytes.Buffer
	e := gcf.NewEncoder(&buf)
	var err error
	switch profile {
	case "Graph":
		d.syms, d.edges, d.ids = GraphStream(n)
		err = WriteGraph(e, d.syms, d.ids)
	case "Employees":
		d.emps = GenEmployees(n).Employees
		if err = BeginEmployees(e); err == nil {
			for i := range d.emps {
				if err = WriteEmployee(e, &d.emps[i]); err != nil {
					break
				}
			}
		}
	default:
		tb.Fatalf("unknown profile %q", profile)
	}
	if err == nil {
		err = e.Close()
	}
	if err != nil {
		tb.Fatalf("%s: encoding the stream: %v", key, err)
	}
	d.stream = buf.Bytes()
	streamSet[key] = d
	return d
}

// buffers builds the buffered model and encoding of d on first use.
func (d *streamData) buffers(tb testing.TB) {
	tb.Helper()
	d.bufOnce.Do(func() {
		switch d.profile {
		case "Graph":
			d.payload = GraphPayloadOf(d.syms, d.edges)
			d.buffered, d.bufErr = gcf.Encode(d.payload)
		case "Employees":
			if d.model, d.bufErr = gcf.ParseJSON(MarshalJSON(Employees{Employees: d.emps})); d.bufErr == nil {
				d.buffered, d.bufErr = gcf.EncodeGeneric(d.model)
			}
		}
	})
	if d.bufErr != nil {
		tb.Fatalf("%s/%s: buffered encoding: %v", d.profile, d.size, d.bufErr)
	}
}

// kindCounts counts the events of one walk by kind.
type kindCounts [256]int

// walkKinds reads every event of d until io.EOF, counting kinds.
func walkKinds(d *gcf.Decoder, c *kindCounts) error {
	*c = kindCounts{}
	for {
		ev, err := d.Next()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		c[ev.Kind]++
	}
}

// check verifies that a walk saw every record of d.
func (d *streamData) check(c *kindCounts) error {
	switch d.profile {
	case "Graph":
		if c[stream.KindSymbol] != d.n || c[stream.KindEdge] != 2*d.n || c[gcf.KindSummary] != 1 {
			return fmt.Errorf("graph walk saw %d symbols, %d edges, %d summaries; want %d, %d, 1",
				c[stream.KindSymbol], c[stream.KindEdge], c[gcf.KindSummary], d.n, 2*d.n)
		}
	case "Employees":
		if c[gcf.KindRow] != d.n || c[gcf.KindSummary] != 1 {
			return fmt.Errorf("table walk saw %d rows, %d summaries; want %d, 1", c[gcf.KindRow], c[gcf.KindSummary], d.n)
		}
	}
	return nil
}

// benchEvents times gcf.Decoder walking every event of d.stream. One
// decoder and one bytes.Reader are reused (Reset), so only the walk counts.
func benchEvents(b *testing.B, d *streamData) {
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	r := bytes.NewReader(d.stream)
	dec := gcf.NewDecoder(r)
	var c kindCounts
	// One walk before the timed loop grows the decoder's buffers, so the
	// loop measures the steady state (b.Loop starts timing at its first call).
	if err := walkKinds(dec, &c); err != nil {
		b.Fatal(err)
	}
	m := StartCPU()
	for b.Loop() {
		r.Reset(d.stream)
		dec.Reset(r)
		if err := walkKinds(dec, &c); err != nil {
			b.Fatal(err)
		}
	}
	m.Stop(b)
	if err := d.check(&c); err != nil {
		b.Fatal(err)
	}
}

// benchEventsRead is benchEvents through the lower-level stream.Decoder's
// Read, which returns a pointer to the decoder's event instead of copying it.
func benchEventsRead(b *testing.B, d *streamData) {
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	r := bytes.NewReader(d.stream)
	dec := stream.NewDecoder(r, stream.Limits{})
	var c kindCounts
	walk := func() error {
		c = kindCounts{}
		for {
			ev, err := dec.Read()
			if err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			c[ev.Kind]++
		}
	}
	if err := walk(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r.Reset(d.stream)
		dec.Reset(r)
		if err := walk(); err != nil {
			b.Fatal(err)
		}
	}
	if err := d.check(&c); err != nil {
		b.Fatal(err)
	}
}

// benchLineScan times bufio.Reader.ReadSlice('\n') over the same bytes: the
// ceiling for any line-oriented decoder.
func benchLineScan(b *testing.B, d *streamData) {
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	r := bytes.NewReader(d.stream)
	br := bufio.NewReaderSize(r, 64<<10)
	lines := 0
	m := StartCPU()
	for b.Loop() {
		r.Reset(d.stream)
		br.Reset(r)
		lines = 0
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
	}
	m.Stop(b)
	if lines < d.n {
		b.Fatalf("line scan saw %d lines for %d records", lines, d.n)
	}
}

// BenchmarkStream compares the pull decoder (gcf.NewDecoder, every event)
// with a plain line scan of the same streaming payload. EventsRead is the
// same walk through stream.Decoder.Read (no Event copy), for reference.
func BenchmarkStream(b *testing.B) {
	for _, profile := range []string{"Graph", "Employees"} {
		for _, size := range []string{"10k", "500k"} {
			b.Run(profile+"/"+size, func(b *testing.B) {
				d := getStream(b, profile, size)
				b.Run("Events", func(b *testing.B) { benchEvents(b, d) })
				b.Run("EventsRead", func(b *testing.B) { benchEventsRead(b, d) })
				b.Run("LineScan", func(b *testing.B) { benchLineScan(b, d) })
			})
		}
	}
}

// BenchmarkScale times decode and encode of both profiles at 10k and 500k
// (50x) to show linear scaling. Every op reports the streaming payload's
// size as its bytes, so MB/s are comparable across ops.
//
//	Decode          gcf.NewDecoder over the stream, every event (as Stream/Events)
//	Encode          streaming encoder into io.Discard (WriteRow / WriteSymbol+WriteEdge)
//	DecodeBuffered  gcf.DecodeGeneric / gcf.Decode of the same streaming bytes
//	EncodeBuffered  gcf.EncodeGeneric / gcf.Encode of the same data, held in memory
//	AppendBuffered  gcf.AppendGeneric / gcf.AppendEncode of the same into a buffer
//	                kept across ops: EncodeBuffered without a fresh output
//	EncodeJSON      encoding/json Marshal of the same data (typed structs), for comparison
//	DecodeJSON      encoding/json Unmarshal of that JSON into the same structs
func BenchmarkScale(b *testing.B) {
	for _, profile := range []string{"Graph", "Employees"} {
		for _, size := range []string{"10k", "500k"} {
			b.Run(profile+"/"+size, func(b *testing.B) {
				d := getStream(b, profile, size)
				b.Run("Decode", func(b *testing.B) { benchEvents(b, d) })
				b.Run("Encode", func(b *testing.B) { benchStreamEncode(b, d) })
				b.Run("DecodeBuffered", func(b *testing.B) { benchBufferedDecode(b, d) })
				b.Run("EncodeBuffered", func(b *testing.B) { benchBufferedEncode(b, d) })
				b.Run("AppendBuffered", func(b *testing.B) { benchBufferedAppend(b, d) })
				b.Run("EncodeJSON", func(b *testing.B) { benchJSONEncode(b, d) })
				b.Run("DecodeJSON", func(b *testing.B) { benchJSONDecode(b, d) })
			})
		}
	}
}

func benchStreamEncode(b *testing.B, d *streamData) {
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	m := StartCPU()
	for b.Loop() {
		e := gcf.NewEncoder(io.Discard)
		var err error
		switch d.profile {
		case "Graph":
			err = WriteGraph(e, d.syms, d.ids)
		case "Employees":
			if err = BeginEmployees(e); err == nil {
				for i := range d.emps {
					if err = WriteEmployee(e, &d.emps[i]); err != nil {
						break
					}
				}
			}
		}
		if err == nil {
			err = e.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	m.Stop(b)
}

func benchBufferedDecode(b *testing.B, d *streamData) {
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	m := StartCPU()
	for b.Loop() {
		var err error
		switch d.profile {
		case "Graph":
			_, err = gcf.Decode(d.stream)
		case "Employees":
			_, err = gcf.DecodeGeneric(d.stream)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	m.Stop(b)
}

func benchBufferedEncode(b *testing.B, d *streamData) {
	d.buffers(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	m := StartCPU()
	for b.Loop() {
		var err error
		switch d.profile {
		case "Graph":
			_, err = gcf.Encode(d.payload)
		case "Employees":
			_, err = gcf.EncodeGeneric(d.model)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	m.Stop(b)
}

// benchBufferedAppend is benchBufferedEncode into one buffer reused across
// ops, so that the time of getting fresh memory for a large output (page
// faults, collections of the benchmark's live data) is left out.
func benchBufferedAppend(b *testing.B, d *streamData) {
	d.buffers(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	var buf []byte
	m := StartCPU()
	for b.Loop() {
		var err error
		switch d.profile {
		case "Graph":
			buf, err = gcf.AppendEncode(buf[:0], d.payload)
		case "Employees":
			buf, err = gcf.AppendGeneric(buf[:0], d.model)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	m.Stop(b)
}

// TestStreamEventAllocsConstant: walking every event of a streaming payload
// through gcf.NewDecoder allocates no more for 100,000 records than for
// 10,000 (nothing per event). BenchmarkStream shows the same at 500k.
func TestStreamEventAllocsConstant(t *testing.T) {
	for _, profile := range []string{"Graph", "Employees"} {
		t.Run(profile, func(t *testing.T) {
			small, large := getStream(t, profile, "10k"), getStream(t, profile, "100k")
			r := bytes.NewReader(nil)
			dec := gcf.NewDecoder(r)
			var c kindCounts
			walk := func(d *streamData) {
				r.Reset(d.stream)
				dec.Reset(r)
				if err := walkKinds(dec, &c); err != nil {
					t.Fatal(err)
				}
				if err := d.check(&c); err != nil {
					t.Fatal(err)
				}
			}
			walk(large) // grow the decoder's buffers first
			a := testing.AllocsPerRun(3, func() { walk(small) })
			b := testing.AllocsPerRun(3, func() { walk(large) })
			t.Logf("allocs per walk: 10k = %v, 100k = %v", a, b)
			if b > a {
				t.Fatalf("event walk allocations grow with size: %v for 10k, %v for 100k", a, b)
			}
		})
	}
}

// TestStreamPayloadsRoundTrip: the streaming payloads decode, through the
// buffered decoders, to the data they were written from.
func TestStreamPayloadsRoundTrip(t *testing.T) {
	t.Run("Graph", func(t *testing.T) {
		d := getStream(t, "Graph", "10k")
		p, err := gcf.Decode(d.stream)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Symbols) != d.n || len(p.Edges) != 2*d.n {
			t.Fatalf("decoded %d symbols, %d edges; want %d, %d", len(p.Symbols), len(p.Edges), d.n, 2*d.n)
		}
		r1, _ := gcf.PackRoot(GraphPayloadOf(d.syms, d.edges))
		r2, _ := gcf.PackRoot(p)
		if r1 != r2 {
			t.Fatalf("pack roots differ: %s vs %s", r1, r2)
		}
	})
	t.Run("Employees", func(t *testing.T) {
		d := getStream(t, "Employees", "10k")
		v, err := gcf.DecodeGeneric(d.stream)
		if err != nil {
			t.Fatal(err)
		}
		got, err := gcf.ToJSON(v)
		if err != nil {
			t.Fatal(err)
		}
		if want := MarshalJSON(Employees{Employees: d.emps}); !jsonEqualBytes(got, want) {
			t.Fatal("DecodeGeneric(stream) differs from the source records")
		}
	})
	t.Run("Generator", func(t *testing.T) {
		g, want := NewEmployeeGen(), GenEmployees(100).Employees
		for i := range want {
			if got := g.Next(); got != want[i] {
				t.Fatalf("record %d: EmployeeGen %+v, GenEmployees %+v", i, got, want[i])
			}
		}
	})
}

func jsonEqualBytes(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && jsonEqual(x, y)
}

// jsonValue is the typed Go value of the data set, as encoding/json sees it.
func (d *streamData) jsonValue() any {
	if d.profile == "Graph" {
		return &gcf.Payload{Symbols: d.syms, Edges: d.edges}
	}
	return &Employees{Employees: d.emps}
}

func benchJSONEncode(b *testing.B, d *streamData) {
	v := d.jsonValue()
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	for b.Loop() {
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

func benchJSONDecode(b *testing.B, d *streamData) {
	data, err := json.Marshal(d.jsonValue())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(d.stream)))
	for b.Loop() {
		var err error
		if d.profile == "Graph" {
			var p gcf.Payload
			err = json.Unmarshal(data, &p)
		} else {
			var e Employees
			err = json.Unmarshal(data, &e)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
