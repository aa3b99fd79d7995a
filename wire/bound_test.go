package wire

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// expandingStream is a valid version 2 stream of one symbol, named "a",
// whose signature is copies copies of 130 bytes, each two bytes long (a
// copy from 1 byte back): the format's largest expansion, 65 to 1.
func expandingStream(copies int) []byte {
	L := 130 * copies
	b := []byte("GCB1\x02")
	b = append(b, 0, 0, 0, 0, 0x04) // tool "", tokens 0, budget 0, no pack root, E = 2
	b = appendUvarint(b, uint64(1+L))
	b = append(b, 1, 0)          // 1 symbol, 0 edges
	b = append(b, 0, 1, 'a')     // shares 0 bytes, rest "a"
	b = append(b, 1, 1, 1, 0x00) // kind function, provenance 1, flags: a signature, score 0
	b = appendUvarint(b, uint64(L))
	for range copies {
		b = append(b, 0xFF, 0x01)
	}
	return b
}

// TestGCBTextBound: without MaxBytes, a stream's text is bounded by
// TextBound of its size. A 64 KiB stream that expands to 4 MiB of text is
// refused with payload_too_large at the text length's offset (10), before
// the text is allocated; with MaxBytes set above the text, the same stream
// decodes (it is valid, only over the default bound).
func TestGCBTextBound(t *testing.T) {
	data := expandingStream(32 << 10)
	text := 1 + 130*(32<<10)
	if int64(text) <= TextBound(len(data)) {
		t.Fatalf("the crafted stream's text (%d) is within the bound %d", text, TextBound(len(data)))
	}
	var se *gcf.SyntaxError
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := DecodeGCB(data, gcf.Limits{})
	runtime.ReadMemStats(&after)
	if !errors.As(err, &se) || se.Category != gcf.PayloadTooLarge || se.Offset != 10 || !strings.Contains(se.Msg, "at byte 10:") {
		t.Fatalf("got %v, want payload_too_large at byte 10", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Fatalf("refusing the stream allocated %d bytes; the bound must trip before the %d bytes of text", n, text)
	}
	// The same through the io.Reader path and GCB1's decoder (one decoder).
	for _, c := range []Codec{GCB{}, GCB1{}} {
		if _, err := c.Decode(strings.NewReader(string(data))); gcf.CategoryOf(err) != gcf.PayloadTooLarge {
			t.Fatalf("%T.Decode: %v, want payload_too_large", c, err)
		}
	}
	// MaxBytes, when set, is the bound instead.
	p, err := DecodeGCB(data, gcf.Limits{MaxBytes: 8 << 20})
	if err != nil {
		t.Fatalf("MaxBytes 8 MiB: %v", err)
	}
	if len(p.Symbols) != 1 || len(p.Symbols[0].Signature) != text-1 || strings.Trim(p.Symbols[0].Signature, "a") != "" {
		t.Fatalf("decoded %d symbols, signature of %d bytes", len(p.Symbols), len(p.Symbols[0].Signature))
	}
	if _, err := DecodeGCB(data, gcf.Limits{MaxBytes: int64(text) - 1}); !errors.As(err, &se) || se.Category != gcf.PayloadTooLarge || se.Offset != 10 {
		t.Fatalf("MaxBytes one under the text: %v, want payload_too_large at byte 10", err)
	}
	// A small stream may always expand to DefaultTextFloor.
	small := expandingStream(DefaultTextFloor / 130)
	if _, err := DecodeGCB(small, gcf.Limits{}); err != nil {
		t.Fatalf("%d bytes expanding to %d: %v", len(small), 1+130*(DefaultTextFloor/130), err)
	}
}

// TestGCBEncodeTextBound: the encoder refuses what the decoder with the
// same limits would refuse to expand, and writes it when MaxBytes allows.
func TestGCBEncodeTextBound(t *testing.T) {
	p := &gcf.Payload{Symbols: []gcf.Symbol{{QualifiedName: "a", Kind: "function", Provenance: "ast_inferred",
		Signature: strings.Repeat("a", 4<<20)}}}
	c := GCB{Compact: true}
	if _, err := c.Append(nil, p); gcf.CategoryOf(err) != gcf.PayloadTooLarge {
		t.Fatalf("Compact encoding of a 4 MiB repeat: %v, want payload_too_large", err)
	}
	c.Limits.MaxBytes = 8 << 20
	b, err := c.Append(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if int64(4<<20) <= TextBound(len(b)) {
		t.Fatalf("the encoding (%d bytes) is within the default bound; the test shows nothing", len(b))
	}
	if _, err := DecodeGCB(b, gcf.Limits{}); gcf.CategoryOf(err) != gcf.PayloadTooLarge {
		t.Fatalf("default decoder: %v, want payload_too_large", err)
	}
	if q, err := DecodeGCB(b, c.Limits); err != nil || q.Symbols[0].Signature != p.Symbols[0].Signature {
		t.Fatalf("decoder with the encoder's limits: %v", err)
	}
	// The default encoder copies little and stays within the bound.
	if _, err := (GCB{}).Append(nil, p); err != nil {
		t.Fatalf("default encoder: %v", err)
	}
}

// endless yields the GCB magic then zero bytes until max, counting what
// was read.
type endless struct{ n, max int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.n >= r.max {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.max-r.n)]
	for i := range p {
		p[i] = 0
		if k := r.n + int64(i); k < 5 {
			p[i] = "GCB1\x02"[k]
		}
	}
	r.n += int64(len(p))
	return len(p), nil
}

// TestGCBDecodeStopsAtMaxBytes: Decode(io.Reader) reads at most MaxBytes+1
// bytes of a longer stream and refuses it with payload_too_large at byte
// MaxBytes.
func TestGCBDecodeStopsAtMaxBytes(t *testing.T) {
	for _, c := range []Codec{GCB{Limits: gcf.Limits{MaxBytes: 1024}}, GCB1{Limits: gcf.Limits{MaxBytes: 1024}}} {
		r := &endless{max: 64 << 20}
		_, err := c.Decode(r)
		var se *gcf.SyntaxError
		if !errors.As(err, &se) || se.Category != gcf.PayloadTooLarge || se.Offset != 1024 || !strings.Contains(se.Msg, "at byte 1024:") {
			t.Fatalf("%T: %v, want payload_too_large at byte 1024", c, err)
		}
		if r.n > 1025 {
			t.Fatalf("%T read %d bytes with MaxBytes 1024", c, r.n)
		}
	}
	// A stream of exactly MaxBytes is read whole (and decoded).
	p := &gcf.Payload{Tool: "t", Symbols: []gcf.Symbol{{QualifiedName: "a"}}}
	b, err := GCB{}.Append(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Codec{GCB{Limits: gcf.Limits{MaxBytes: int64(len(b))}}, GCB1{Limits: gcf.Limits{MaxBytes: int64(len(b))}}} {
		if q, err := c.Decode(strings.NewReader(string(b))); err != nil || q.Tool != "t" {
			t.Fatalf("%T, a stream of exactly MaxBytes: %v", c, err)
		}
		if _, err := c.Decode(strings.NewReader(string(b) + "x")); gcf.CategoryOf(err) != gcf.PayloadTooLarge {
			t.Fatalf("%T, one byte over: %v", c, err)
		}
	}
}
