package wire_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/wire"
)

func TestBuiltins(t *testing.T) {
	if got := wire.ListNames(); got != "gcb, gcb1, gcf, gcf-v1, json" {
		t.Fatalf("ListNames() = %q", got)
	}
	var names []string
	for _, c := range wire.List() {
		names = append(names, c.Name())
		if wire.Description(c) == "" {
			t.Errorf("%s has no description", c.Name())
		}
	}
	if strings.Join(names, ",") != "gcb,gcb1,gcf,gcf-v1,json" {
		t.Fatalf("List() = %v", names)
	}
	for name, binary := range map[string]bool{"gcb": true, "gcb1": true, "gcf": false, "gcf-v1": false, "json": false} {
		c, err := wire.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if wire.IsBinary(c) != binary {
			t.Errorf("IsBinary(%s) = %v", name, !binary)
		}
	}
	for _, name := range []string{"gcf", "gcf-v1", "json"} {
		c, _ := wire.Get(name)
		if _, ok := c.(wire.DeltaCodec); !ok {
			t.Errorf("%s does not carry deltas", name)
		}
	}
}

func TestUnknownCodec(t *testing.T) {
	_, err := wire.Get("gcf-v9")
	if err == nil || !strings.Contains(err.Error(), `"gcf-v9"`) || !strings.Contains(err.Error(), "gcb, gcb1, gcf, gcf-v1, json") {
		t.Fatalf("error %v does not name the codec and the registered ones", err)
	}
	if _, err := wire.EncodeWith("nope", &gcf.Payload{}); err == nil {
		t.Fatal("EncodeWith of an unknown codec succeeded")
	}
	if _, err := wire.DecodeWith("nope", nil); err == nil {
		t.Fatal("DecodeWith of an unknown codec succeeded")
	}
}

// upper is a toy codec for the registration tests.
type upper struct{ name string }

func (u upper) Name() string { return u.name }
func (upper) Encode(w io.Writer, p *gcf.Payload) error {
	_, err := io.WriteString(w, strings.ToUpper(p.Tool))
	return err
}
func (upper) Decode(r io.Reader) (*gcf.Payload, error) {
	b, err := io.ReadAll(r)
	return &gcf.Payload{Tool: strings.ToLower(string(b))}, err
}

func TestRegisterDuplicatePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"json" already registered`) {
			t.Fatalf("recover() = %v", r)
		}
	}()
	wire.Register(upper{"json"})
}

// TestRegistryConcurrent registers and uses codecs from many goroutines
// (run with -race).
func TestRegistryConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	p := &gcf.Payload{Tool: "t", Symbols: []gcf.Symbol{{QualifiedName: "a", Kind: "function", Provenance: "lsp_resolved", Score: 0.5}}}
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			wire.Register(upper{fmt.Sprintf("test-upper-%d", i)})
			for _, name := range []string{"gcb", "gcb1", "gcf", "json", fmt.Sprintf("test-upper-%d", i)} {
				b, err := wire.EncodeWith(name, p)
				if err != nil {
					t.Error(err)
					return
				}
				back, err := wire.DecodeWith(name, b)
				if err != nil || back.Tool != "t" {
					t.Errorf("%s: %v %v", name, back, err)
				}
				_ = wire.ListNames()
				_ = wire.List()
			}
		}(i)
	}
	wg.Wait()
}

func TestJSONCodecSpellings(t *testing.T) {
	snake := `{"tool":"t","tokens_used":3,"token_budget":9,"pack_root":"r","symbols":[{"qualified_name":"a.B","kind":"type",
	"score":0.5,"provenance":"lsp_resolved","distance":1,"signature":"type B","components":{"blast_radius":0.1,"confidence":-0,
	"recency":0,"distance":1}}],"edges":[{"source":"a.B","target":"x","edge_type":"calls","status":"unchanged"}]}`
	p, err := wire.DecodeWith("json", []byte(snake))
	if err != nil {
		t.Fatal(err)
	}
	if p.TokensUsed != 3 || p.TokenBudget != 9 || p.PackRoot != "r" || p.Symbols[0].QualifiedName != "a.B" ||
		p.Symbols[0].Components.BlastRadius != 0.1 || p.Edges[0].EdgeType != "calls" || p.Edges[0].Status != "unchanged" {
		t.Fatalf("%+v", p)
	}
	out, err := wire.EncodeWith("json", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"qualifiedName"`, `"tokensUsed"`, `"edgeType"`, `"blastRadius"`, `"packRoot"`} {
		if !bytes.Contains(out, []byte(key)) {
			t.Errorf("output lacks %s:\n%s", key, out)
		}
	}
	back, err := wire.DecodeWith("json", out)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := wire.EncodeWith("json", back)
	if !bytes.Equal(out, again) {
		t.Fatalf("not stable:\n%s\n%s", out, again)
	}
	for _, bad := range []string{`{"tool":1}`, `{"symbols":[{"qualified_name":"a","qualifiedName":"b"}]}`, `{"extra":1}`, `[1]`, `{"tool":"a"`} {
		_, err := wire.DecodeWith("json", []byte(bad))
		if gcf.CategoryOf(err) == "" {
			t.Errorf("%s: error %v has no category", bad, err)
		}
	}
}

func TestGCFCodecDelta(t *testing.T) {
	c, _ := wire.Get("gcf")
	dc := c.(wire.DeltaCodec)
	d := &gcf.DeltaPayload{Tool: "t", BaseRoot: "b", NewRoot: "n", Added: []gcf.Symbol{{QualifiedName: "a", Kind: "function", Provenance: "p", Score: 1}}}
	var b bytes.Buffer
	if err := dc.EncodeDelta(&b, d); err != nil {
		t.Fatal(err)
	}
	back, err := dc.DecodeDelta(&b)
	if err != nil || back.NewRoot != "n" || len(back.Added) != 1 {
		t.Fatalf("%+v %v", back, err)
	}
}

// Example: encode a payload with each built-in codec.
func Example() {
	p := &gcf.Payload{Tool: "context_for_task", TokensUsed: 1847, TokenBudget: 5000,
		Symbols: []gcf.Symbol{
			{QualifiedName: "github.com/acme/api/auth.Authenticate", Kind: "function", Score: 0.95, Provenance: "lsp_resolved",
				Signature: "func Authenticate(ctx context.Context, token string) (*Session, error)"},
			{QualifiedName: "github.com/acme/api/auth.Session", Kind: "type", Score: 0.81, Provenance: "lsp_resolved",
				Signature: "type Session struct"},
		},
		Edges: []gcf.Edge{{Source: "github.com/acme/api/auth.Authenticate", Target: "github.com/acme/api/auth.Session", EdgeType: "references"}},
	}
	for _, name := range []string{"gcb", "gcb1", "gcf", "json"} {
		b, err := wire.EncodeWith(name, p)
		if err != nil {
			fmt.Println(name, err)
			continue
		}
		back, err := wire.DecodeWith(name, b)
		fmt.Printf("%-4s %3d bytes, decoded %d symbols, err=%v\n", name, len(b), len(back.Symbols), err)
	}
	// Output:
	// gcb  143 bytes, decoded 2 symbols, err=<nil>
	// gcb1 240 bytes, decoded 2 symbols, err=<nil>
	// gcf  244 bytes, decoded 2 symbols, err=<nil>
	// json 791 bytes, decoded 2 symbols, err=<nil>
}

// ExampleGCB1 shows the strict gcb1 encoder naming what GCB1 would lose,
// and the Lossy option that reproduces the product's behaviour.
func ExampleGCB1() {
	p := &gcf.Payload{Symbols: []gcf.Symbol{{QualifiedName: "a.F", Kind: "function", Provenance: "lsp_resolved", Distance: 300}}}
	_, err := wire.EncodeWith("gcb1", p)
	fmt.Println(err)
	b, _ := wire.GCB1{Lossy: true}.Append(nil, p)
	back, _ := wire.DecodeWith("gcb1", b)
	fmt.Println(back.Symbols[0].Distance)
	// Output:
	// unsupported_value: wire/gcb1: symbol 0 ("a.F"): distance 300 is outside 0..255 (GCB1 would lose it; use the gcb codec, or GCB1{Lossy: true} to reproduce the loss)
	// 44
}

// ExampleDecodeGCB shows an error on hostile input: a *gcf.SyntaxError
// with its category and byte offset, never a panic.
func ExampleDecodeGCB() {
	_, err := wire.DecodeGCB([]byte("GCB1\x02\x00\x00\x00\x00\x02\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00"), gcf.Limits{})
	var se *gcf.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Category, se.Offset)
	}
	fmt.Println(err)
	// Output:
	// invalid_count 11
	// invalid_count: wire/gcb: at byte 11: the symbol count is 18446744073709551615, more than the 1 the rest of the input can hold
}

// TestGCFV1 checks the legacy codec against the root package's v1 wire: the
// same bytes as gcf.Encode with WireV1, a v1 header, and a round trip; the
// v3 codec refuses its output.
func TestGCFV1(t *testing.T) {
	p := &gcf.Payload{Tool: "ctx", TokenBudget: 500, Symbols: []gcf.Symbol{
		{QualifiedName: "pkg.A", Kind: "function", Score: 0.9, Provenance: "lsp", Distance: 0},
		{QualifiedName: "pkg.B", Kind: "type", Score: 0.5, Provenance: "lsp", Distance: 1},
	}, Edges: []gcf.Edge{{Source: "pkg.A", Target: "pkg.B", EdgeType: "calls"}}}
	b, err := wire.EncodeWith("gcf-v1", p)
	if err != nil {
		t.Fatal(err)
	}
	want, err := gcf.Encode(p, gcf.WithWire(gcf.WireV1))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(want) || !strings.HasPrefix(string(b), "GCF tool=ctx") {
		t.Fatalf("gcf-v1 wrote\n%s\nwant\n%s", b, want)
	}
	back, err := wire.DecodeWith("gcf-v1", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Symbols) != 2 || len(back.Edges) != 1 || back.Edges[0].Source != "pkg.A" || back.Tool != "ctx" {
		t.Fatalf("round trip: %+v", back)
	}
	if _, err := wire.DecodeWith("gcf", b); err == nil || gcf.CategoryOf(err) != "missing_profile" {
		t.Fatalf("gcf (v3) decoding a v1 payload: %v, want missing_profile", err)
	}
}
