package generic

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/stream"
)

// Invalid UTF-8 anywhere in encoder input is an invalid_utf8 error that
// says where the string is and, in Offset, where in it the bad byte is;
// never a silent U+FFFD.
func TestEncodeGenericInvalidUTF8(t *testing.T) {
	keyed := func(k string) Object {
		return Object{{Key: k, Value: Object{{Key: "v", Value: int64(1)}}}, {Key: "b", Value: Object{{Key: "v", Value: int64(2)}}}}
	}
	cases := []struct {
		name string
		v    any
		path string
		off  int64
	}{
		{"root scalar", "ab\xff", "", 2},
		{"member value", Object{{Key: "a", Value: "x\xffy"}}, "/a", 1},
		{"member key", Object{{Key: "k\xfe", Value: int64(1)}}, "/k\xfe", 1},
		{"section key", Object{{Key: "\xfek", Value: Object{{Key: "a", Value: int64(1)}}}}, "/\xfek", 0},
		{"keyed-map key", Object{{Key: "k", Value: keyed("\xfe")}}, "/k/\xfe", 0},
		{"inline element", Object{{Key: "a", Value: []any{"ok", "\xc3("}}}, "/a/1", 0},
		{"row cell", []any{Object{{Key: "a", Value: "é\xff"}}, Object{{Key: "a", Value: "b"}}}, "/0/a", 2},
		{"field name", []any{Object{{Key: "é\x80", Value: int64(1)}}}, "/0/é\x80", 2},
		{"flattened path", []any{Object{{Key: "p", Value: Object{{Key: "q\xff", Value: int64(1)}}}}, Object{{Key: "p", Value: Object{{Key: "q\xff", Value: int64(2)}}}}}, "/0/p/q\xff", 1},
		{"expanded item", []any{"\xff", []any{int64(1)}}, "/0", 0},
		{"truncated rune", Object{{Key: "a", Value: "abc\xe2\x82"}}, "/a", 3},
		// SPEC §2.2: a surrogate's bytes are invalid_surrogate (TestSurrogates).
		{"surrogate half", Object{{Key: "a", Value: "x\xed\xa0\x80"}}, "/a", 1},
	}
	for _, c := range cases {
		out, err := EncodeGeneric(c.v)
		var se *SyntaxError
		want := InvalidUTF8
		if c.name == "surrogate half" {
			want = InvalidSurrogate
		}
		if !errors.As(err, &se) || se.Category != want {
			t.Errorf("%s: got %q, %v; want %s", c.name, out, err, want)
			continue
		}
		if se.Offset != c.off || se.Path != c.path || se.Line != 0 {
			t.Errorf("%s: offset %d, path %q, line %d; want offset %d and path %q", c.name, se.Offset, se.Path, se.Line, c.off, c.path)
		}
		if c.path != "" && !strings.HasPrefix(err.Error(), strconv.Quote(c.path)+": "+string(want)+": ") {
			t.Errorf("%s: Error() = %q, want it to start with the quoted path", c.name, err)
		}
		if out != nil {
			t.Errorf("%s: returned bytes on error", c.name)
		}
	}
	// Valid non-ASCII text is written unchanged.
	out, err := EncodeGeneric(Object{{Key: "k", Value: "héllo ௗ"}})
	if err != nil || string(out) != "GCF profile=generic\nk=héllo ௗ\n" {
		t.Errorf("got %q, %v", out, err)
	}
}

// nest wraps leaf k times in the container shape wrap.
func nest(k int, leaf any, wrap func(level int, inner any) any) any {
	v := leaf
	for i := 0; i < k; i++ {
		v = wrap(i, v)
	}
	return v
}

// depthShapes are ways to nest one level: each maps onto the decoder's
// frames differently (tabular rows and flattened objects open none).
var depthShapes = map[string]func(level int, inner any) any{
	"object":   func(_ int, in any) any { return Object{{Key: "a", Value: in}} },
	"array":    func(_ int, in any) any { return []any{in} },
	"expanded": func(_ int, in any) any { return []any{int64(1), in} },
	"table with attachment": func(_ int, in any) any {
		return []any{Object{{Key: "x", Value: int64(1)}, {Key: "a", Value: []any{in}}}}
	},
	"keyed map": func(_ int, in any) any {
		return Object{{Key: "k", Value: Object{{Key: "v", Value: in}}}, {Key: "m", Value: Object{{Key: "v", Value: int64(2)}}}}
	},
	"flattened": func(_ int, in any) any {
		return []any{Object{{Key: "p", Value: Object{{Key: "q", Value: in}}}}}
	},
	"section member": func(_ int, in any) any {
		return Object{{Key: "s", Value: Object{{Key: "t", Value: in}, {Key: "u", Value: int64(1)}}}}
	},
	"mixed": func(level int, in any) any {
		switch level % 4 {
		case 0:
			return []any{Object{{Key: "x", Value: int64(1)}, {Key: "a", Value: in}}}
		case 1:
			return Object{{Key: "o", Value: in}}
		case 2:
			return []any{"s", in}
		}
		return Object{{Key: "k", Value: Object{{Key: "v", Value: in}}}, {Key: "m", Value: Object{{Key: "v", Value: "w"}}}}
	},
}

// TestEncodeDepthMatchesDecoder sweeps nesting around small depth limits
// over several container shapes: EncodeGeneric with WithMaxDepth(n)
// succeeds exactly when DecodeGeneric with WithMaxDepth(n) accepts the
// encoding, every success decodes under that limit, and a refusal is
// depth_exceeded.
func TestEncodeDepthMatchesDecoder(t *testing.T) {
	leaves := []any{int64(7), Object{}, []any{}, []any{int64(1), int64(2)}, Object{{Key: "z", Value: "w"}}}
	for name, wrap := range depthShapes {
		for li, leaf := range leaves {
			for k := 0; k <= 12; k++ {
				v := nest(k, leaf, wrap)
				ref, err := EncodeGeneric(v)
				if err != nil {
					t.Fatalf("%s/%d/k=%d: %v", name, li, k, err)
				}
				accepted := 0
				for n := 1; n <= 10; n++ {
					out, encErr := EncodeGeneric(v, WithMaxDepth(n))
					_, decErr := DecodeGeneric(ref, WithMaxDepth(n))
					if (encErr == nil) != (decErr == nil) {
						t.Fatalf("%s/%d/k=%d/max=%d: encode %v, decode %v\n%s", name, li, k, n, encErr, decErr, ref)
					}
					if encErr != nil {
						if CategoryOf(encErr) != DepthExceeded || CategoryOf(decErr) != DepthExceeded {
							t.Fatalf("%s/%d/k=%d/max=%d: encode %v, decode %v", name, li, k, n, encErr, decErr)
						}
						continue
					}
					accepted++
					if _, err := DecodeGeneric(out, WithMaxDepth(n)); err != nil {
						t.Fatalf("%s/%d/k=%d/max=%d: encoded but does not decode: %v", name, li, k, n, err)
					}
				}
				if k >= 10 && accepted == 10 {
					t.Fatalf("%s/%d/k=%d: no limit refused it", name, li, k)
				}
			}
		}
	}
}

// A deeply nested value fails fast with its depth, before any output: a
// 20 KB JSON array nested 10,000 deep used to become ~100 MB of GCF.
func TestEncodeDeepInputFailsFast(t *testing.T) {
	v, err := ParseJSON([]byte(strings.Repeat("[", 9999)+strings.Repeat("]", 9999)), WithMaxDepth(10000))
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(1, func() {
		_, err = EncodeGeneric(v)
	})
	if CategoryOf(err) != DepthExceeded || !strings.Contains(err.Error(), "-max-depth") {
		t.Fatalf("got %v", err)
	}
	if allocs > 50 {
		t.Errorf("%v allocations: the encoder wrote before checking depth", allocs)
	}
	// Just within the default limit it encodes and decodes.
	v, _ = ParseJSON([]byte(strings.Repeat("[", 256) + strings.Repeat("]", 256)))
	out, err := EncodeGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeGeneric(out); err != nil {
		t.Fatal(err)
	}
	// ParseJSON refuses 257 levels under the same default; with its limit
	// raised, the encoder still does.
	if _, err := ParseJSON([]byte(strings.Repeat("[", 257) + strings.Repeat("]", 257))); CategoryOf(err) != DepthExceeded {
		t.Fatalf("ParseJSON, 257 deep: got %v", err)
	}
	v, err = ParseJSON([]byte(strings.Repeat("[", 257)+strings.Repeat("]", 257)), WithMaxDepth(300))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EncodeGeneric(v); CategoryOf(err) != DepthExceeded {
		t.Fatalf("257 deep: got %v", err)
	}
}

// TestEncodeLimitsProperty: for random JSON-model values and small random
// limits, EncodeGeneric accepts exactly what DecodeGeneric with the same
// limits accepts in the unlimited encoding, so what it writes always
// decodes, and a refusal carries a limit category.
func TestEncodeLimitsProperty(t *testing.T) {
	limitCats := map[Category]bool{DepthExceeded: true, LineTooLong: true, TooManyElements: true, TooManyFields: true, PayloadTooLarge: true}
	r := rand.New(rand.NewPCG(3, 5))
	g := &gen{r: r}
	refused := map[Category]int{}
	for i := 0; i < 3000; i++ {
		v := g.value(1 + i%5)
		ref, err := EncodeGeneric(v)
		if err != nil {
			t.Fatalf("encode %s: %v", mustJSON(v), err)
		}
		var opts []Option
		if r.IntN(2) == 0 {
			opts = append(opts, WithMaxDepth(1+r.IntN(5)))
		}
		if r.IntN(2) == 0 {
			opts = append(opts, WithMaxLineBytes(19+r.IntN(60)))
		}
		if r.IntN(2) == 0 {
			opts = append(opts, WithMaxElements(1+r.IntN(4)))
		}
		if r.IntN(2) == 0 {
			opts = append(opts, WithMaxFields(1+r.IntN(4)))
		}
		if r.IntN(3) == 0 {
			opts = append(opts, WithMaxBytes(int64(20+r.IntN(300))))
		}
		out, encErr := EncodeGeneric(v, opts...)
		_, decErr := DecodeGeneric(ref, opts...)
		if (encErr == nil) != (decErr == nil) {
			t.Fatalf("encode: %v\ndecode: %v\nvalue %s\nwire:\n%s", encErr, decErr, mustJSON(v), ref)
		}
		if encErr != nil {
			if !limitCats[CategoryOf(encErr)] {
				t.Fatalf("encode refused with %v", encErr)
			}
			refused[CategoryOf(encErr)]++
			continue
		}
		if !bytes.Equal(out, ref) {
			t.Fatalf("limits changed the encoding:\n%s\n---\n%s", out, ref)
		}
	}
	for c := range limitCats {
		if refused[c] == 0 {
			t.Errorf("no value was refused with %s: the test does not exercise it", c)
		}
	}
}

// The cases of the issue, at the default limits where they are cheap: the
// encoder used to write payloads that the default decoder rejects.
func TestEncodeGenericLimits(t *testing.T) {
	big := strings.Repeat("x", 1<<20) // a value line of 1 MiB + "v="
	wide := Object{}
	for i := 0; i < 4097; i++ {
		wide = append(wide, Member{Key: "f" + strconv.Itoa(i), Value: int64(i)})
	}
	cells := make([]any, 0, 3)
	for i := 0; i < 3; i++ {
		// Varying cells: constant ones would be factored into the
		// declaration (spec v3.6.0 §7.4.7) and leave short rows.
		cells = append(cells, Object{{Key: "a", Value: strings.Repeat("y", 400) + strconv.Itoa(i)}, {Key: "b", Value: strings.Repeat("z", 400) + strconv.Itoa(i)}})
	}
	cases := []struct {
		name string
		v    any
		opts []Option
		cat  Category
		flag string
	}{
		{"string over 1 MiB", Object{{Key: "v", Value: big}}, nil, LineTooLong, "-max-line"},
		{"long row", cells, []Option{WithMaxLineBytes(700)}, LineTooLong, "-max-line"},
		{"long inline array", Object{{Key: "a", Value: []any{strings.Repeat("q", 60), strings.Repeat("r", 60)}}}, []Option{WithMaxLineBytes(100)}, LineTooLong, "-max-line"},
		{"long declaration", []any{wide[:300]}, []Option{WithMaxLineBytes(1000)}, LineTooLong, "-max-line"},
		{"4097 columns", []any{wide}, nil, TooManyFields, "-max-fields"},
		{"too many members", Object{{Key: "a", Value: int64(1)}, {Key: "b", Value: int64(2)}, {Key: "c", Value: int64(3)}}, []Option{WithMaxElements(2)}, TooManyElements, "-max-elements"},
		{"too many items", Object{{Key: "a", Value: []any{int64(1), int64(2), int64(3)}}}, []Option{WithMaxElements(2)}, TooManyElements, "-max-elements"},
		{"too many rows", cells, []Option{WithMaxElements(2)}, TooManyElements, "-max-elements"},
		{"too many bytes", cells, []Option{WithMaxBytes(1000)}, PayloadTooLarge, "-max-bytes"},
		{"too deep", nest(6, int64(1), depthShapes["object"]), []Option{WithMaxDepth(5)}, DepthExceeded, "-max-depth"},
	}
	for _, c := range cases {
		ref, refErr := EncodeGeneric(c.v, WithMaxLineBytes(1<<30), WithMaxFields(1<<20))
		if refErr != nil {
			t.Fatalf("%s: %v", c.name, refErr)
		}
		if _, err := DecodeGeneric(ref, c.opts...); CategoryOf(err) != c.cat {
			t.Errorf("%s: the decoder gives %v, want %s", c.name, err, c.cat)
		}
		out, err := AppendGeneric([]byte("prefix"), c.v, c.opts...)
		if CategoryOf(err) != c.cat || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%s: got %v, want %s naming %s", c.name, err, c.cat, c.flag)
		}
		if string(out) != "prefix" {
			t.Errorf("%s: %d bytes left after the error", c.name, len(out)-6)
		}
		if len(err.Error()) > 400 {
			t.Errorf("%s: message of %d bytes", c.name, len(err.Error()))
		}
	}
}

// The graph encoders refuse what Decode with the same limits rejects.
func TestGraphEncodeLimits(t *testing.T) {
	long := "pkg." + strings.Repeat("x", 200)
	p := &Payload{Symbols: []Symbol{
		{QualifiedName: "a.A", Kind: "function", Score: 0.9, Provenance: "lsp"},
		{QualifiedName: "a.B", Kind: "function", Score: 0.8, Provenance: "lsp"},
		{QualifiedName: long, Kind: "type", Score: 0.5, Provenance: "lsp", Distance: 1},
	}, Edges: []Edge{{Source: "a.A", Target: "a.B", EdgeType: "calls"}, {Source: "a.B", Target: "a.A", EdgeType: "calls"}}}
	ref, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		opts []Option
		cat  Category
	}{
		{"long node line", []Option{WithMaxLineBytes(100)}, LineTooLong},
		{"group of two", []Option{WithMaxElements(1)}, TooManyElements},
		{"payload size", []Option{WithMaxBytes(int64(len(ref) - 1))}, PayloadTooLarge},
		{"just fits", []Option{WithMaxBytes(int64(len(ref))), WithMaxLineBytes(250), WithMaxElements(2)}, ""},
	}
	for _, c := range cases {
		_, decErr := Decode(ref, c.opts...)
		out, err := Encode(p, c.opts...)
		if CategoryOf(err) != c.cat || CategoryOf(decErr) != c.cat {
			t.Errorf("%s: Encode %v, Decode %v; want %q", c.name, err, decErr, c.cat)
		}
		if err == nil && !bytes.Equal(out, ref) {
			t.Errorf("%s: output changed", c.name)
		}
		if _, err := EncodeWithSession(p, NewSession(), c.opts...); c.cat != "" && CategoryOf(err) != c.cat {
			t.Errorf("%s: EncodeWithSession %v", c.name, err)
		}
	}
	d := &DeltaPayload{BaseRoot: "a", NewRoot: "b", Added: p.Symbols, AddedEdges: p.Edges}
	if _, err := EncodeDelta(d, WithMaxLineBytes(100)); CategoryOf(err) != LineTooLong {
		t.Errorf("EncodeDelta line: %v", err)
	}
	if _, err := EncodeDelta(d, WithMaxElements(2)); CategoryOf(err) != TooManyElements {
		t.Errorf("EncodeDelta elements: %v", err)
	}
	if _, err := EncodeDelta(d, WithMaxBytes(50)); CategoryOf(err) != PayloadTooLarge {
		t.Errorf("EncodeDelta bytes: %v", err)
	}
}

// The streaming Encoder: a call that would break a limit fails with the
// decoder's category, writes nothing and leaves the encoder as it was, so
// the payload can still be finished and decodes.
func TestEncoderLimits(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf, WithMaxLineBytes(64), WithMaxElements(3), WithMaxFields(3))
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	want := func(err error, c Category) {
		t.Helper()
		if CategoryOf(err) != c {
			t.Fatalf("got %v, want %s", err, c)
		}
	}
	want(e.WriteField("big", strings.Repeat("v", 100)), LineTooLong)
	must(e.WriteField("k", "v"))
	want(e.BeginTable("wide", "a", "b", "c", "d"), TooManyFields)
	want(e.BeginKeyedTable("wide", "a", "b", "c"), TooManyFields)
	must(e.BeginTable("t", "a", "b"))
	want(e.WriteRow(int64(1), strings.Repeat("x", 1<<20)), LineTooLong) // refused before it is buffered
	want(e.WriteRow(strings.Repeat("é", 20), strings.Repeat("ü", 20)), LineTooLong)
	want(e.WriteRow("ok", "bad\xff"), InvalidUTF8)
	want(e.WriteRecord(Object{{Key: "a", Value: Object{{Key: "x", Value: int64(1)}}}}), UnsupportedValue)
	want(e.BeginTable(strings.Repeat("n", 70), "a"), LineTooLong) // the open table stays open
	for i := 0; i < 3; i++ {
		must(e.WriteRow(int64(i), "y"))
	}
	want(e.WriteRow(int64(3), "y"), TooManyElements)
	must(e.BeginTable("u", "a"))
	want(e.BeginTable("w", "a"), TooManyElements) // k, t, u and w: four root members
	must(e.Close())
	wantOut := "GCF profile=generic\nk=v\n## t [?]{a,b}\n0|y\n1|y\n2|y\n## u [?]{a}\n##! summary counts=3,0\n"
	if buf.String() != wantOut {
		t.Fatalf("got %q\nwant %q", buf.String(), wantOut)
	}
	if _, err := DecodeGeneric(buf.Bytes(), WithMaxLineBytes(64), WithMaxElements(3), WithMaxFields(3), WithRequireSummary()); err != nil {
		t.Fatal(err)
	}

	// Close checks its trailer too, and MaxBytes covers the whole stream.
	buf.Reset()
	e = NewEncoder(&buf, WithMaxBytes(36)) // header 20 + table 12 + row 2
	must(e.BeginTable("t", "a"))
	must(e.WriteRow(int64(1)))
	want(e.WriteRow(int64(22)), PayloadTooLarge)
	want(e.Close(), PayloadTooLarge)

	// Graph streaming.
	buf.Reset()
	e = NewEncoder(&buf, WithMaxLineBytes(64), WithMaxElements(1))
	must(e.BeginGraph(GraphHeader{}))
	_, err := e.WriteSymbol(Symbol{QualifiedName: strings.Repeat("q", 80), Kind: "function", Score: 1, Provenance: "lsp"})
	want(err, LineTooLong)
	_, err = e.WriteSymbol(Symbol{QualifiedName: "a.A", Kind: "function", Score: 1, Provenance: "lsp"})
	must(err)
	_, err = e.WriteSymbol(Symbol{QualifiedName: "a.B", Kind: "function", Score: 1, Provenance: "lsp"})
	want(err, TooManyElements)
	must(e.WriteEdge(Edge{Source: "a.A", Target: "a.A", EdgeType: "calls"}))
	want(e.WriteEdge(Edge{Source: "a.A", Target: "a.A", EdgeType: "uses"}), TooManyElements)
	must(e.Close())
	if _, err := Decode(buf.Bytes(), WithMaxLineBytes(64), WithMaxElements(1)); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
}

// Options resolve to the same limits whether or not any is given, and a
// zero or negative limit option means its default on every path: the
// encoder refuses at the default, as the decoder does.
func TestOptionsResolveOnce(t *testing.T) {
	if got := newConfig(nil).Limits; got != (Limits{}).Resolved() {
		t.Fatalf("no options: %+v", got)
	}
	if got := newConfig([]Option{WithLimits(Limits{MaxDepth: -1}), nil}).Limits; got != (Limits{}).Resolved() {
		t.Fatalf("zero and negative limits: %+v", got)
	}
	deep := any("x")
	for range stream.DefaultMaxDepth + 1 {
		deep = []any{deep}
	}
	for _, opts := range [][]Option{nil, {WithMaxDepth(0)}, {WithMaxDepth(-3)}} {
		if _, err := EncodeGeneric(deep, opts...); CategoryOf(err) != DepthExceeded {
			t.Errorf("%d options: err = %v, want depth_exceeded", len(opts), err)
		}
		if _, err := ParseJSON([]byte(strings.Repeat("[", stream.DefaultMaxDepth+1)+strings.Repeat("]", stream.DefaultMaxDepth+1)), opts...); CategoryOf(err) != DepthExceeded {
			t.Errorf("ParseJSON, %d options: err = %v, want depth_exceeded", len(opts), err)
		}
	}
}
