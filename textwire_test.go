package gcf

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/internal/conformance"
	"github.com/gcfkit/gcf/legacy"
)

// v1Payloads returns every v1 payload the legacy suite carries (decode and
// streaming inputs, encode, session and delta outputs, generic outputs,
// error inputs), for seeds and whole-suite properties.
func v1Payloads(t testing.TB) [][]byte {
	t.Helper()
	out, err := conformance.V1Payloads()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// v3CannotExpress lists the categories with which Migrate refuses what the
// v1 decoder accepts but v3 has no form for.
var v3CannotExpress = map[Category]bool{InvalidScore: true, InvalidNodeLine: true, UnsupportedValue: true, OutOfRange: true, DuplicateKey: true}

// decodeV1 decodes a v1 payload with the decoder its header calls for.
func decodeV1(data []byte, opts ...Option) error {
	opts = append(opts, WithWire(WireV1))
	var err error
	switch {
	case legacy.IsGraphHead(head5(data)) && isDeltaHeader(data):
		_, err = DecodeDelta(data, opts...)
	case legacy.IsGraphHead(head5(data)):
		_, err = graphEvents(data, opts...)
	default:
		_, err = DecodeGeneric(data, opts...)
	}
	return err
}

// checkMigrateProperty is the migration property on arbitrary input: when
// the v1 decoder rejects data, Migrate fails too, with a positioned error;
// when it accepts, Migrate either writes a v3 payload that decodes to the
// same value or refuses with a category that names what v3 cannot carry.
func checkMigrateProperty(t *testing.T, data []byte) {
	var out bytes.Buffer
	merr := Migrate(bytes.NewReader(data), &out)
	derr := decodeV1(data)
	if merr != nil {
		var se *SyntaxError
		if !errors.As(merr, &se) || se.Category == "" || se.Line < 1 || se.Column < 1 {
			t.Fatalf("migrate error without category and position: %#v\ninput %q", merr, data)
		}
	}
	switch {
	case derr != nil && merr == nil:
		t.Fatalf("v1 decode fails (%v) but migrate succeeds\ninput %q\noutput %q", derr, data, out.Bytes())
	case derr == nil && merr != nil && !v3CannotExpress[CategoryOf(merr)]:
		t.Fatalf("v1 decode succeeds but migrate fails: %v\ninput %q", merr, data)
	case derr == nil && merr == nil:
		if err := sameMigrated(data, out.Bytes()); err != nil {
			t.Fatalf("%v\ninput %q\noutput %q", err, data, out.Bytes())
		}
	}
}

// TestMigrateV1Suite checks the migration property on every payload of the
// legacy suite, and that each one that decodes also migrates.
func TestMigrateV1Suite(t *testing.T) {
	conformance.DirV1(t)
	payloads := v1Payloads(t)
	if len(payloads) < 50 {
		t.Fatalf("%d v1 payloads in the legacy suite; want 50 or more", len(payloads))
	}
	migrated := 0
	for _, p := range payloads {
		checkMigrateProperty(t, p)
		if decodeV1(p) == nil {
			if err := Migrate(bytes.NewReader(p), io.Discard); err != nil {
				t.Errorf("a fixture payload that decodes does not migrate: %v\n%s", err, p)
			}
			migrated++
		}
	}
	t.Logf("%d payloads, %d migrated and decoded to the same value", len(payloads), migrated)
}

// FuzzMigrateV1 feeds random v1 payloads through Migrate and both decoders
// (checkMigrateProperty), and checks that v1 decoding never panics and
// reports every error with a category and a position.
func FuzzMigrateV1(f *testing.F) {
	for _, p := range v1Payloads(f) {
		f.Add(p)
	}
	for _, s := range v1Hostile {
		f.Add([]byte(s))
	}
	for _, l := range v1Layouts {
		f.Add([]byte(l.want))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkMigrateProperty(t, data)
		for _, lim := range []Option{WithLimits(Limits{MaxDepth: 4, MaxLineBytes: 120, MaxElements: 8, MaxFields: 4})} {
			if err := decodeV1(data, lim); err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) || se.Category == "" || se.Line < 1 || se.Column < 1 {
					t.Fatalf("tight limits: error without category and position: %#v", err)
				}
			}
		}
		// A generic value that decodes encodes back on the v1 wire to the
		// same value.
		if legacy.IsGraphHead(head5(data)) {
			return
		}
		v, err := DecodeGeneric(data, WithWire(WireV1))
		if err != nil {
			return
		}
		enc, err := EncodeGeneric(v, WithWire(WireV1))
		if o, ok := v.(Object); ok && len(o) == 0 {
			// A lone ## _summary trailer decodes to {}, which v1 cannot
			// write: it would be no bytes, an empty input.
			if CategoryOf(err) != UnsupportedValue {
				t.Fatalf("{} on v1: %v, want unsupported_value\ninput %q", err, data)
			}
			return
		}
		if err != nil {
			t.Fatalf("decoded v1 value does not encode on v1: %v\ninput %q", err, data)
		}
		back, err := DecodeGeneric(enc, WithWire(WireV1))
		if err != nil || !jsonEqual(back, v) {
			t.Fatalf("v1 decode(encode(v)) != v: %v\ninput %q\nencoded %q", err, data, enc)
		}
	})
}

// v1Hostile are hostile v1 inputs: huge declared counts, deep nesting,
// invalid UTF-8, overlong numbers.
var v1Hostile = []string{
	"## items [99999999999999999999]{a}\n1\n",
	"## items [9223372036854775807]\n@0 x\n",
	"GCF tool=t symbols=99999999999999999999\n",
	"GCF tool=t\n## edges [99999999999]\n",
	"tags[99999999999]: a\n",
	"GCF tool=t\n## targets\n@99999999999999999999 fn a 0.1 x\n",
	"a=\xff\xfe\n",
	"GCF tool=\xc3\x28\n",
	"GCF tool=t\n## targets\n@0 fn a\xed\xa0\x80 0.1 x\n",
	"## t [1]{a}\n\"\xff\"\n",
	"n=99999999999999999999\n",
	"f=1." + strings.Repeat("9", 400) + "\n",
	"GCF tool=t\n## targets\n@0 fn a 1" + strings.Repeat("0", 400) + ".5 x\n",
}

// TestV1Hostile: each hostile input ends in an error with a category and a
// position (or decodes), never a panic, and no declared count sizes an
// allocation.
func TestV1Hostile(t *testing.T) {
	deep := strings.Builder{}
	for i := 0; i < 400; i++ {
		deep.WriteString(strings.Repeat("  ", i) + "## k\n")
	}
	deepRows := strings.Builder{}
	for i := 0; i < 400; i++ {
		deepRows.WriteString(strings.Repeat("  ", i) + "## k [1]{a}\n" + strings.Repeat("  ", i) + "@0 1\n")
	}
	inputs := append([]string{deep.String(), deepRows.String()}, v1Hostile...)
	want := map[int]Category{0: DepthExceeded, 1: DepthExceeded, 2: TooManyElements, 3: TooManyElements, 4: OutOfRange, 5: TooManyElements,
		6: TooManyElements, 7: InvalidSymbolID, 8: InvalidUTF8, 9: InvalidUTF8, 10: InvalidSurrogate, 11: InvalidUTF8, 12: OutOfRange}
	for i, in := range inputs {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := decodeV1([]byte(in))
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
			t.Errorf("input %d: decoding allocated %d bytes", i, grew)
		}
		if c, ok := want[i]; ok {
			if CategoryOf(err) != c {
				t.Errorf("input %d %q: got %v, want %s", i, trim(in), err, c)
			}
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 {
				t.Errorf("input %d: error without position: %#v", i, err)
			}
		}
		checkMigrateProperty(t, []byte(in))
	}
}

func trim(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// TestV1Truncated cuts every v1 fixture payload at every byte: each prefix
// decodes or fails with a category and a position, and the migration
// property holds on it.
func TestV1Truncated(t *testing.T) {
	conformance.DirV1(t)
	for _, p := range v1Payloads(t) {
		for n := 0; n < len(p); n++ {
			checkMigrateProperty(t, p[:n])
		}
	}
}

// TestV3RefusesV1: the default decoders name a v1 payload and the way out.
func TestV3RefusesV1(t *testing.T) {
	for _, in := range []string{
		"GCF tool=t budget=5 symbols=1\n## targets\n@0 fn a.A 0.90 x\n",
		"GCF\n",
	} {
		_, err := Decode([]byte(in))
		if CategoryOf(err) != MissingProfile || !strings.Contains(err.Error(), "this is a GCF v1.x payload; decode it with WireV1 or run `gcf migrate`") {
			t.Errorf("Decode(%q) = %v", in, err)
		}
		_, err = DecodeGeneric([]byte(in))
		if CategoryOf(err) != MissingProfile {
			t.Errorf("DecodeGeneric(%q) = %v", in, err)
		}
		d := NewDecoder(strings.NewReader(in))
		if _, err := d.Next(); CategoryOf(err) != MissingProfile {
			t.Errorf("NewDecoder(%q).Next() = %v", in, err)
		}
	}
	// And the v1 decoder names a v3 payload.
	_, err := Decode([]byte("GCF profile=graph tool=t symbols=0\n"), WithWire(WireV1))
	if CategoryOf(err) != UnknownProfile {
		t.Errorf("v1 Decode of a v3 payload: %v", err)
	}
}

// TestMigrateRefuses: what v3 cannot carry is an error, never dropped.
func TestMigrateRefuses(t *testing.T) {
	for in, c := range map[string]Category{
		"GCF tool=t\n## targets\n@0 fn a.A 0.125 x\n":    InvalidScore,    // three significant decimals
		"GCF tool=t\n## targets\n@0 my-kind a.A 0.5 x\n": InvalidNodeLine, // not a v3 bare key
	} {
		if err := decodeV1([]byte(in)); err != nil {
			t.Fatalf("v1 decode of %q: %v", in, err)
		}
		err := Migrate(strings.NewReader(in), io.Discard)
		if CategoryOf(err) != c {
			t.Errorf("Migrate(%q) = %v, want %s", in, err, c)
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != 3 {
			t.Errorf("Migrate(%q): error not on line 3: %v", in, err)
		}
	}
}

// TestMigrateConstantMemory migrates a 16 MB v1 graph payload read from a
// stream and requires the heap to stay far below the payload's size.
func TestMigrateConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the 16 MB migration")
	}
	const symbols = 200000
	r := &v1Graph{n: symbols}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapInuse
	peak := base
	w := &heapProbe{peak: &peak}
	if err := Migrate(r, w); err != nil {
		t.Fatal(err)
	}
	if r.read < 8<<20 {
		t.Fatalf("read only %d bytes", r.read)
	}
	if grew := peak - base; grew > 4<<20 {
		t.Fatalf("heap in use grew by %d bytes migrating %d bytes", grew, r.read)
	}
	t.Logf("migrated %d bytes to %d; heap in use grew by at most %d bytes", r.read, w.n, peak-base)
}

// v1Graph generates a v1 graph payload of n symbols and n-1 edges.
type v1Graph struct {
	n, i, e int
	buf     []byte
	read    int
}

func (g *v1Graph) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) {
		switch {
		case g.i == 0 && g.e == 0 && g.buf == nil:
			g.buf = append(g.buf, "GCF tool=gen budget=1 tokens=2\n## targets\n"...)
			g.buf = append(g.buf, "@0 fn pkg.Sym0 0.5 lsp\n"...)
			g.i = 1
		case g.i < g.n:
			g.buf = append(g.buf, "@"...)
			g.buf = strconv.AppendInt(g.buf, int64(g.i), 10)
			g.buf = append(g.buf, " method github.com/org/repo/pkg.Symbol"...)
			g.buf = strconv.AppendInt(g.buf, int64(g.i), 10)
			g.buf = append(g.buf, " 0.25 ast_inferred\n"...)
			g.i++
			if g.i == g.n {
				g.buf = append(g.buf, "## edges\n"...)
				g.e = 1
			}
		case g.e < g.n:
			g.buf = append(g.buf, "@0<@"...)
			g.buf = strconv.AppendInt(g.buf, int64(g.e), 10)
			g.buf = append(g.buf, " calls\n"...)
			g.e++
		default:
			if len(g.buf) == 0 {
				return 0, io.EOF
			}
			n := copy(p, g.buf)
			g.buf = g.buf[n:]
			g.read += n
			return n, nil
		}
	}
	n := copy(p, g.buf)
	g.buf = append(g.buf[:0], g.buf[n:]...)
	g.read += n
	return n, nil
}

// heapProbe discards what it is given and samples the heap in use.
type heapProbe struct {
	peak  *uint64
	n     int
	calls int
}

func (h *heapProbe) Write(p []byte) (int, error) {
	h.n += len(p)
	if h.calls++; h.calls%8 == 0 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		*h.peak = max(*h.peak, m.HeapInuse)
	}
	return len(p), nil
}

// TestEncoderV1Streams: NewEncoder with WireV1 writes v1 streams (a graph
// with `## edges [?]` and the v1.4 `## _summary` trailer, tables with
// `[?]`) that the v1 decoders read back, and refuses what v1 cannot carry.
func TestEncoderV1Streams(t *testing.T) {
	var b bytes.Buffer
	enc := NewEncoder(&b, WithWire(WireV1))
	if err := enc.BeginGraph(GraphHeader{Tool: "t", TokenBudget: 10}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []Symbol{{QualifiedName: "a.A", Kind: "function", Score: 0.9, Provenance: "x"},
		{QualifiedName: "a.B", Kind: "type", Score: 0.5, Provenance: "y", Distance: 3}} {
		if _, err := enc.WriteSymbol(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.WriteEdge(Edge{Source: "a.B", Target: "a.A", EdgeType: "calls"}); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	want := "GCF tool=t budget=10 tokens=0\n## targets\n@0 fn a.A 0.90 x\n## distance_3\n@1 type a.B 0.50 y\n## edges [?]\n@0<@1 calls\n" +
		"## _summary symbols=2 edges=1 sections=targets:1,distance_3:1,edges:1\n"
	if b.String() != want {
		t.Fatalf("got\n%swant\n%s", b.String(), want)
	}
	p, err := Decode(b.Bytes(), WithWire(WireV1), WithRequireSummary())
	if err != nil || len(p.Symbols) != 2 || len(p.Edges) != 1 || p.Symbols[1].Distance != 3 {
		t.Fatalf("decode: %v %+v", err, p)
	}
	checkMigrate(t, b.Bytes())

	b.Reset()
	enc = NewEncoder(&b, WithWire(WireV1))
	if err := enc.BeginTable("", "a"); CategoryOf(err) != UnsupportedValue {
		t.Fatalf("root array on v1: %v", err)
	}
	if err := enc.BeginKeyedTable("m", "a"); CategoryOf(err) != UnsupportedValue {
		t.Fatalf("keyed table on v1: %v", err)
	}
	enc.BeginTable("t1", "a", "b")
	enc.WriteRow("x", Missing)
	enc.BeginTable("t2", "c")
	enc.WriteRow(1.5)
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	want = "## t1 [?]{a,b}\nx|-\n## t2 [?]{c}\n1.5\n## _summary sections=t1:1,t2:1\n"
	if b.String() != want {
		t.Fatalf("got\n%swant\n%s", b.String(), want)
	}
	v, err := DecodeGeneric(b.Bytes(), WithWire(WireV1), WithRequireSummary())
	if err != nil || mustJSON(v) != `{"t1":[{"a":"x","b":null}],"t2":[{"c":1.5}]}` {
		t.Fatalf("decode: %v %s", err, mustJSON(v))
	}
	checkMigrate(t, b.Bytes())
}

// TestV1ErrorMapping: each of the 14 decoder error conditions of SPEC-v1.1
// §12.5 yields the §16.5 category docs/legacy-v1.md maps it to.
func TestV1ErrorMapping(t *testing.T) {
	graph := func(in string) error { _, err := Decode([]byte(in), WithWire(WireV1)); return err }
	delta := func(in string) error { _, err := DecodeDelta([]byte(in), WithWire(WireV1)); return err }
	generic := func(in string) error { _, err := DecodeGeneric([]byte(in), WithWire(WireV1)); return err }
	for _, tc := range []struct {
		condition string
		decode    func(string) error
		in        string
		want      Category
		line, col int
	}{
		{"invalid header", graph, "INVALID tool=test\n@0 fn pkg.Foo 0.9 lsp\n", MissingHeader, 1, 1},
		{"missing tool", graph, "GCF budget=5\n", MissingProfile, 1, 1},
		{"malformed header field", graph, "GCF tool=t budget\n", MalformedHeaderField, 1, 12},
		{"invalid node line", graph, "GCF tool=t\n## targets\n@0 fn a.A 0.5\n", InvalidNodeLine, 3, 1},
		{"invalid symbol id", graph, "GCF tool=t\n## targets\n@x fn a.A 0.5 x\n", InvalidSymbolID, 3, 2},
		{"invalid score", graph, "GCF tool=t\n## targets\n@0 fn a.A high x\n", InvalidScore, 3, 11},
		{"invalid edge syntax", graph, "GCF tool=t\n## targets\n@0 fn a.A 0.5 x\n## edges\n@0@0 calls\n", InvalidEdgeSyntax, 5, 1},
		{"unknown edge reference", graph, "GCF tool=t\n## targets\n@0 fn a.A 0.5 x\n## edges\n@0<@3 calls\n", UnknownEdgeReference, 5, 5},
		{"malformed delta section", delta, "GCF tool=t delta=true base_root=a new_root=b\n## changed\n", MalformedDelta, 2, 4},
		{"row width mismatch", generic, "## t [1]{a,b}\n1\n", RowWidthMismatch, 2, 1},
		{"invalid count", generic, "## t [x]{a}\n", InvalidCount, 1, 6},
		{"count mismatch", generic, "## t [2]{a}\n1\n", CountMismatch, 2, 1},
		{"unterminated quote", generic, "## t [1]{a}\n\"x\n", UnterminatedQuote, 2, 1},
		{"invalid escape", generic, "a=\"\\q\"\n", InvalidEscape, 1, 4},
	} {
		err := tc.decode(tc.in)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Category != tc.want || se.Line != tc.line || se.Column != tc.col {
			t.Errorf("%s: got %v, want %s at %d:%d", tc.condition, err, tc.want, tc.line, tc.col)
		}
	}
}
