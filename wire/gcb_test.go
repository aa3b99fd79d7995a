package wire

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/conformance"
)

// randomPayload builds a payload that exercises everything version 2 must
// carry: any string (unicode, controls, invalid UTF-8, empty), table and
// unknown kinds, provenances, edge types and statuses, any distance, any
// float64, pack roots of every form, edges to names that are not symbols.
func randomPayload(r *rand.Rand) *gcf.Payload {
	str := func() string {
		switch r.IntN(6) {
		case 0:
			return ""
		case 1: // a qualified name sharing prefixes
			return fmt.Sprintf("github.com/acme/svc/pkg%d.Type%d.Method%d", r.IntN(4), r.IntN(5), r.IntN(50))
		case 2: // unicode
			runes := []rune{'é', 'Ж', '世', '界', '😀', 'a', '.', '/', ' ', '\t', '\n', 0, 0x7f, 0x85, 0x2028, 0xFFFD}
			var b strings.Builder
			for n := r.IntN(20); n > 0; n-- {
				b.WriteRune(runes[r.IntN(len(runes))])
			}
			return b.String()
		case 3: // arbitrary bytes, invalid UTF-8 included
			b := make([]byte, r.IntN(30))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			return string(b)
		case 4: // long and repetitive, for the back-references
			return strings.Repeat("func (s *Store) Get(ctx context.Context) error ", 1+r.IntN(8))
		}
		return fmt.Sprintf("w%d", r.IntN(1000))
	}
	pick := func(table []string) string {
		if r.IntN(3) == 0 {
			return str()
		}
		return table[r.IntN(len(table))]
	}
	num := func() float64 {
		switch r.IntN(9) {
		case 0:
			return float64(r.IntN(101)) / 100
		case 1:
			return math.Float64frombits(r.Uint64()) // NaNs with payloads, subnormals, anything
		case 2:
			return []float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), 0, math.MaxFloat64,
				math.SmallestNonzeroFloat64, 1e40, 1e-50, 0.1 + 0.2, 1 << 53, 1<<53 + 2, -1e22, 1e23}[r.IntN(14)]
		case 3:
			return float64(r.Int64N(1<<60) - 1<<59)
		case 4:
			return (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
		case 5:
			return float64(r.IntN(100000)) / 1000
		case 6:
			return -float64(r.IntN(300)) / 100
		}
		return r.Float64()
	}
	p := &gcf.Payload{Tool: str(), TokensUsed: int(r.Int64()) >> r.IntN(64), TokenBudget: -r.IntN(3) * r.IntN(1<<20)}
	switch r.IntN(4) {
	case 0:
		p.PackRoot = strings.Repeat("0123456789abcdef", 4)
	case 1:
		p.PackRoot = str()
	case 2:
		p.PackRoot = strings.Repeat("0123456789ABCDEF", 4) // upper case: not the packed form
	}
	for n := r.IntN(40); n > 0; n-- {
		s := gcf.Symbol{QualifiedName: str(), Kind: pick(kindTable), Score: num(), Provenance: pick(provenanceTable)}
		switch r.IntN(4) {
		case 0:
			s.Distance = r.IntN(3)
		case 1:
			s.Distance = r.IntN(200)
		case 2:
			s.Distance = int(r.Int64()) >> r.IntN(64)
		}
		if r.IntN(2) == 0 {
			s.Signature = str()
		}
		if r.IntN(2) == 0 {
			s.Components = &gcf.Components{BlastRadius: num(), Confidence: num(), Recency: num(), Distance: num()}
		}
		p.Symbols = append(p.Symbols, s)
	}
	name := func() string {
		if len(p.Symbols) > 0 && r.IntN(4) != 0 {
			return p.Symbols[r.IntN(len(p.Symbols))].QualifiedName
		}
		return str()
	}
	for n := r.IntN(60); n > 0; n-- {
		p.Edges = append(p.Edges, gcf.Edge{Source: name(), Target: name(), EdgeType: pick(edgeTypeTable),
			Status: pick(statusTable)})
	}
	return p
}

// TestGCBRoundTripProperty: every random payload round-trips exactly
// through gcb, and every proper prefix of its encoding is an error at an
// offset inside the input, never a panic.
func TestGCBRoundTripProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	n := 1500
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		p := randomPayload(r)
		codec := GCB{Compact: i%2 == 1}
		enc, err := codec.Append(nil, p)
		if err != nil {
			t.Fatalf("payload %d: %v", i, err)
		}
		back, err := DecodeWith("gcb", enc)
		if err != nil {
			t.Fatalf("payload %d: decode: %v", i, err)
		}
		if !payloadsEqual(back, p) {
			t.Fatalf("payload %d: round trip differs\n got %#v\nwant %#v", i, back, p)
		}
		again, _ := codec.Append(nil, back)
		if !bytes.Equal(again, enc) {
			t.Fatalf("payload %d: re-encoding is not byte-identical", i)
		}
		if i%25 == 0 {
			for cut := 0; cut < len(enc); cut++ {
				checkDecodeError(t, enc[:cut])
			}
			checkDecodeError(t, append(enc[:len(enc):len(enc)], 0))
		}
	}
}

// checkDecodeError: data is not a valid stream; decoding it fails with a
// *gcf.SyntaxError carrying a category and an offset within data.
func checkDecodeError(t *testing.T, data []byte) {
	t.Helper()
	p, err := DecodeGCB(data, gcf.Limits{})
	if err == nil {
		t.Fatalf("decoded %d invalid bytes (%x) as %+v", len(data), data, p)
	}
	var se *gcf.SyntaxError
	if !errors.As(err, &se) || se.Category == "" || se.Offset < 0 || se.Offset > int64(len(data)) {
		t.Fatalf("error %v (%T) has no category or an offset outside 0..%d", err, err, len(data))
	}
	if !strings.Contains(se.Msg, fmt.Sprintf("at byte %d:", se.Offset)) {
		t.Fatalf("message does not name the offset %d: %s", se.Offset, se.Msg)
	}
}

var notShort = func(a, b float64) float64 { return a + b }(0.1, 0.2) // 0.30000000000000004

func TestGCBNumbers(t *testing.T) {
	for _, c := range []struct {
		v    float64
		size int // bytes of the number under the default exponent -2
	}{
		{0.78, 1}, {0, 1}, {1, 1}, {2, 1}, {0.05, 1}, {2.01, 3}, {0.785, 3}, {-0.5, 2}, {math.Copysign(0, -1), 2},
		{1e40, 9}, {math.NaN(), 9}, {math.Inf(-1), 9}, {notShort, 9}, {123456789, 5}, {1e22, 3}, {1e40, 9},
	} {
		d := shortestDecimal(c.v)
		b := appendNum(nil, d, c.v, -2)
		if len(b) != c.size {
			t.Errorf("%v: %d bytes (%x), want %d", c.v, len(b), b, c.size)
		}
		dec := &v2dec{r: &reader{b: b}, E: -2}
		got, err := dec.num()
		if err != nil || !sameFloat(got, c.v) && !(math.IsNaN(got) && math.IsNaN(c.v)) {
			t.Errorf("%v: decoded %v, %v", c.v, got, err)
		}
	}
}

// TestGCBDefaultExponent: scores with two decimals get E = -2.
func TestGCBDefaultExponent(t *testing.T) {
	nums := []decimal{shortestDecimal(0.78), shortestDecimal(0.5), shortestDecimal(1), shortestDecimal(0.05)}
	if E := plainExponent(nums); E != -2 {
		t.Fatalf("E = %d, want -2", E)
	}
}

// TestGCBHostile: hand-made streams that break each rule fail with the
// category and offset of the fault.
func TestGCBHostile(t *testing.T) {
	hdr := func(rest ...byte) []byte { return append([]byte("GCB1\x02"), rest...) }
	maxVarint := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}
	overflow := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}
	for _, c := range []struct {
		name string
		in   []byte
		cat  gcf.Category
		off  int64
	}{
		{"empty", nil, gcf.UnexpectedEOF, 0},
		{"bad magic", []byte("GCBX\x02"), gcf.MissingHeader, 0},
		{"version 3", []byte("GCB1\x03"), gcf.UnknownProfile, 4},
		{"varint overflow in the tool length", hdr(overflow...), gcf.OutOfRange, 5},
		{"tool length 2^64-1", hdr(maxVarint...), gcf.InvalidCount, 5},
		{"tool longer than the input", hdr(5, 'a'), gcf.InvalidCount, 5},
		{"symbol count 2^64-1", hdr(append([]byte{0, 0, 0, 0, 0x02, 0}, append(maxVarint, 0)...)...), gcf.InvalidCount, 11},
		{"symbol count over the bytes left", hdr(0, 0, 0, 0, 0x02, 0, 3, 0, 0, 0, 0, 0, 0, 0), gcf.InvalidCount, 11},
		{"exponent out of range", hdr(0, 0, 0, 0, 100, 0, 0, 0), gcf.InvalidScore, 9},
		{"text length over the expansion bound", hdr(0, 0, 0, 0, 0x02, 0xff, 0x7f, 0, 0), gcf.InvalidCount, 10},
		{"trailing byte", hdr(0, 0, 0, 0, 0x02, 0, 0, 0, 0), gcf.TrailingCharacters, 13},
		{"edge to no symbol", hdr(0, 0, 0, 0, 0x02, 0, 0, 1, 5, 0, 4, 0), gcf.UnknownEdgeReference, 13},
		{"kind id past its table", hdr(0, 0, 0, 0, 0x02, 1, 1, 0, 0, 1, 'a', 99, 1, 0, 0), gcf.InvalidNodeLine, 16},
		{"shared prefix longer than the previous name", hdr(0, 0, 0, 0, 0x02, 2, 2, 0, 0, 1, 'a', 1, 1, 0, 0, 3, 1, 'b', 1, 1, 0, 0), gcf.InvalidNodeLine, 20},
		{"reserved number code", hdr(0, 0, 0, 0, 0x02, 1, 1, 0, 0, 1, 'a', 1, 1, 0, 0xF5), gcf.InvalidScore, 19},
		{"signature copy from before the primer", hdr(0, 0, 0, 0, 0x02, 5, 1, 0, 0, 1, 'a', 1, 1, 1, 0, 4, 0x81, 0xff, 0x7f), gcf.OutOfRange, 21},
		{"text shorter than declared", hdr(0, 0, 0, 0, 0x02, 5, 1, 0, 0, 1, 'a', 1, 1, 0, 0), gcf.CountMismatch, 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeGCB(c.in, gcf.Limits{})
			var se *gcf.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *gcf.SyntaxError", err)
			}
			if se.Category != c.cat || se.Offset != c.off {
				t.Fatalf("got %s at %d (%v), want %s at %d", se.Category, se.Offset, err, c.cat, c.off)
			}
		})
	}
}

// TestGCBLimits: MaxElements and MaxBytes bound what a decoder accepts.
func TestGCBLimits(t *testing.T) {
	p := &gcf.Payload{Symbols: []gcf.Symbol{{QualifiedName: "a"}, {QualifiedName: "b"}, {QualifiedName: "c"}}}
	enc, err := GCB{}.Append(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (GCB{Limits: gcf.Limits{MaxElements: 2}}).DecodeBytes(enc); gcf.CategoryOf(err) != gcf.InvalidCount {
		t.Fatalf("MaxElements 2: %v", err)
	}
	if _, err := (GCB{Limits: gcf.Limits{MaxBytes: 10}}).DecodeBytes(enc); gcf.CategoryOf(err) != gcf.PayloadTooLarge {
		t.Fatalf("MaxBytes 10: %v", err)
	}
	if _, err := (GCB{Limits: gcf.Limits{MaxElements: 3}}).DecodeBytes(enc); err != nil {
		t.Fatal(err)
	}
	// The encoders refuse what the decoder with the same limits rejects.
	for _, c := range []interface {
		Append([]byte, *gcf.Payload) ([]byte, error)
	}{GCB{Limits: gcf.Limits{MaxElements: 2}}, GCB1{Limits: gcf.Limits{MaxElements: 2}}} {
		if _, err := c.Append(nil, p); gcf.CategoryOf(err) != gcf.TooManyElements {
			t.Fatalf("%T MaxElements 2: %v", c, err)
		}
	}
	if _, err := (GCB{Limits: gcf.Limits{MaxBytes: 10}}).Append(nil, p); gcf.CategoryOf(err) != gcf.PayloadTooLarge {
		t.Fatalf("encode MaxBytes 10: %v", err)
	}
}

// TestDecodeProbes runs the product's decoder probes
// (golden/edge-cases/decode-probes.txt) through our decoder. Where the
// product decoded, we decode the same payload, except that bytes after
// the last edge are an error here (trailing_characters at their offset),
// and the stream without them decodes to the product's payload. Where the
// product failed or panicked, we return a *gcf.SyntaxError at an offset
// inside the input.
func TestDecodeProbes(t *testing.T) {
	f, err := os.Open(filepath.Join(conformance.WireDir(t), "golden", "edge-cases", "decode-probes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type probe struct {
		name, hex, result string
	}
	var probes []*probe
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			probes = append(probes, &probe{name: line[3:]})
		case strings.HasPrefix(line, "input_hex:"):
			probes[len(probes)-1].hex = strings.TrimSpace(line[len("input_hex:"):])
		case strings.HasPrefix(line, "result:") || len(probes) > 0 && probes[len(probes)-1].result != "":
			pr := probes[len(probes)-1]
			pr.result += strings.TrimPrefix(line, "result: ") + "\n"
		}
	}
	if len(probes) != 15 {
		t.Fatalf("read %d probes, want 15", len(probes))
	}
	for _, pr := range probes {
		t.Run(pr.name, func(t *testing.T) {
			in, err := hex.DecodeString(pr.hex)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeGCB(in, gcf.Limits{})
			if strings.HasPrefix(pr.result, "ERROR") {
				if err == nil {
					t.Fatalf("product: %s; we decoded %+v", strings.TrimSpace(pr.result), got)
				}
				checkDecodeError(t, in)
				t.Logf("product: %s; ours: %v", strings.TrimSpace(pr.result), err)
				return
			}
			var se *gcf.SyntaxError
			if errors.As(err, &se) && se.Category == gcf.TrailingCharacters {
				t.Logf("trailing bytes: %v", err)
				in = in[:se.Offset]
				got, err = DecodeGCB(in, gcf.Limits{})
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := DecodeWith("json", []byte(strings.TrimPrefix(pr.result, "OK\n")))
			if err != nil {
				t.Fatal(err)
			}
			// The product's result is JSON, which shows invalid UTF-8 as
			// U+FFFD: compare our payload as JSON shows it.
			js, err := EncodeWith("json", got)
			if err != nil {
				t.Fatal(err)
			}
			if got, err = DecodeWith("json", js); err != nil {
				t.Fatal(err)
			}
			if !payloadsEqual(got, want) {
				t.Fatalf("got %+v\nwant %+v", got, want)
			}
		})
	}
}

// TestGCBPrefixCompression: names sharing a package path cost only their
// ends, and a signature repeating its symbol's name and earlier
// signatures costs a fraction of its length.
func TestGCBPrefixCompression(t *testing.T) {
	p := &gcf.Payload{}
	for i := 0; i < 20; i++ {
		name := fmt.Sprintf("github.com/acme/service/internal/store.Store.Method%02d", i)
		p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: name, Kind: "method", Provenance: "lsp_resolved", Score: 0.5,
			Signature: fmt.Sprintf("func (s *Store) Method%02d(ctx context.Context, key string) ([]byte, error)", i)})
	}
	enc, err := GCB{}.Append(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	raw := 0
	for _, s := range p.Symbols {
		raw += len(s.QualifiedName) + len(s.Signature)
	}
	if len(enc)*5 > raw {
		t.Fatalf("%d bytes for %d bytes of names and signatures: less than 5x smaller", len(enc), raw)
	}
	compact, _ := GCB{Compact: true}.Append(nil, p)
	if len(compact)*5 > raw {
		t.Fatalf("Compact: %d bytes for %d bytes of names and signatures: less than 5x smaller", len(compact), raw)
	}
	t.Logf("%d bytes for %d bytes of text", len(enc), raw)
}

func TestGCBEncodeNil(t *testing.T) {
	if _, err := (GCB{}).Append(nil, nil); gcf.CategoryOf(err) != gcf.UnsupportedValue {
		t.Fatal(err)
	}
	if _, err := (GCB1{}).Append(nil, nil); gcf.CategoryOf(err) != gcf.UnsupportedValue {
		t.Fatal(err)
	}
}

// FuzzDecodeGCB: no input makes the decoder panic; what it accepts
// re-encodes (as version 2) to a stream that decodes to the same payload.
func FuzzDecodeGCB(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 20; i++ {
		enc, _ := GCB{Compact: i%2 == 1}.Append(nil, randomPayload(r))
		f.Add(enc)
	}
	f.Add([]byte("GCB1\x01\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeGCB(data, gcf.Limits{MaxElements: 1 << 16})
		if err != nil {
			var se *gcf.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > int64(len(data)) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		enc, err := GCB{}.Append(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeGCB(enc, gcf.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !payloadsEqual(back, p) {
			t.Fatal("re-encoding changed the payload")
		}
		_ = utf8.ValidString
	})
}

// TestShortestDecimal: toDecimal gives as many significant digits as
// strconv's shortest formatting, and the same double back.
func TestShortestDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	check := func(v float64) {
		d := shortestDecimal(v)
		if !d.ok {
			return
		}
		if got := d.value(); !sameFloat(got, v) {
			t.Fatalf("%v: value %v", v, got)
		}
		digits := strings.TrimLeft(strings.Replace(strings.SplitN(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e", 2)[0], ".", "", 1), "0")
		m := strconv.FormatUint(d.m, 10)
		if d.e < 0 || v == 0 {
			if strings.TrimRight(m, "0") != m && d.e < 0 || len(strings.TrimRight(m, "0")) != len(strings.TrimRight(digits, "0")) && v != 0 {
				t.Fatalf("%v: mantissa %s e%d, shortest digits %s", v, m, d.e, digits)
			}
		}
	}
	for i := 0; i <= 100000; i++ {
		check(float64(i) / 100)
		check(-float64(i) / 1000)
		check(float64(r.IntN(1<<30)) / math.Pow(10, float64(r.IntN(12))))
	}
}
