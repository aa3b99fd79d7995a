package wire

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/gcfkit/gcf"
)

// GCB streams start with the magic "GCB1" and a version byte: 1 for the
// product's layout (GCB1), 2 for the lossless layout (see docs/wire.md).
// One decoder reads both.
const gcbMagic = "GCB1"

const (
	gcbVersion1 = 1
	gcbVersion2 = 2
)

// Enumeration tables shared by both versions (ids from 1; GCB1 writes 0
// for anything else).
var (
	kindTable = []string{"function", "type", "method", "interface", "var", "const", "resource", "table",
		"class", "selector", "field", "route_handler", "external", "file", "package", "service", "env_var", "process"}
	provenanceTable = []string{"ast_inferred", "ast_resolved", "lsp_resolved", "otel_trace", "scip_resolved",
		"runtime_observed", "structural"}
	edgeTypeTable = []string{"calls", "imports", "implements", "references", "handles_route", "depends_on",
		"deploys", "exposes", "configures", "extends", "overrides", "decorates", "throws", "owned_by",
		"authored_by", "tests", "runtime_calls", "runtime_rpc", "runtime_produces", "runtime_consumes",
		"contains", "member_of", "documents", "consumes_endpoint", "implements_rpc", "consumes_rpc",
		"gated_by_flag", "deployed_by", "tested_by", "publishes", "subscribes", "connects_to", "similar_to",
		"co_tested_with", "type_hint_of", "accesses_field", "reads_env", "executes_process"}
)

// tableIndex maps every table string to its id.
type tableIndex map[string]uint64

func indexOf(t []string) tableIndex {
	m := make(tableIndex, len(t))
	for i, s := range t {
		m[s] = uint64(i + 1)
	}
	return m
}

var (
	kindIDs       = indexOf(kindTable)
	provenanceIDs = indexOf(provenanceTable)
	edgeTypeIDs   = indexOf(edgeTypeTable)
)

// defaultElements is the element limit of the zero Limits.
var defaultElements = elementLimit(gcf.Limits{})

// elementLimit returns l's element limit, with the gcf decoder's default
// when l leaves it zero.
func elementLimit(l gcf.Limits) int { return l.Resolved().MaxElements }

// DecodeGCB decodes a GCB stream of either version (the version byte
// tells them apart) under the limits l: MaxElements bounds the symbols and
// the edges, MaxBytes the input and, for version 2, the decoded text
// (without MaxBytes, the text is at most TextBound(len(data))). Every
// failure is a *gcf.SyntaxError whose Offset is the byte where it was
// found; no count or length from the input sizes an allocation before it
// is checked against the bytes that remain.
func DecodeGCB(data []byte, l gcf.Limits) (*gcf.Payload, error) {
	return decodeGCB(data, l, false)
}

// decodeGCB is DecodeGCB; with decimals, version 1 numbers decode as the
// shortest decimal of their float32 (see GCB1.Float32Decimals).
func decodeGCB(data []byte, l gcf.Limits, decimals bool) (*gcf.Payload, error) {
	r := &reader{b: data}
	if l.MaxBytes > 0 && int64(len(data)) > l.MaxBytes {
		return nil, tooLarge(l.MaxBytes)
	}
	if len(data) < len(gcbMagic) {
		if string(data) != gcbMagic[:len(data)] {
			return nil, r.errf(gcf.MissingHeader, "not a GCB stream: it does not start with %q", gcbMagic)
		}
		r.off = len(data)
		return nil, r.errf(gcf.UnexpectedEOF, "the input ends inside the magic %q", gcbMagic)
	}
	if string(data[:4]) != gcbMagic {
		return nil, r.errf(gcf.MissingHeader, "not a GCB stream: it starts with %q, not %q", data[:4], gcbMagic)
	}
	r.off = 4
	v, err := r.byte1("the version byte")
	if err != nil {
		return nil, err
	}
	switch v {
	case gcbVersion1:
		return decodeV1(r, l, decimals)
	case gcbVersion2:
		return decodeV2(r, l)
	}
	r.off--
	return nil, r.errf(gcf.UnknownProfile, "GCB version %d is not supported (1 and 2 are)", v)
}

// reader reads a binary stream held in memory, with the offset of every
// failure.
type reader struct {
	b   []byte
	off int
}

func (r *reader) rest() int { return len(r.b) - r.off }

func (r *reader) errf(c gcf.Category, format string, args ...any) *gcf.SyntaxError {
	return &gcf.SyntaxError{Category: c, Offset: int64(r.off),
		Msg: "wire/gcb: at byte " + strconv.Itoa(r.off) + ": " + fmt.Sprintf(format, args...)}
}

func (r *reader) eof(what string) error {
	return r.errf(gcf.UnexpectedEOF, "the input ends inside %s", what)
}

func (r *reader) byte1(what string) (byte, error) {
	if r.off >= len(r.b) {
		return 0, r.eof(what)
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

// uvarint reads an unsigned LEB128 number of at most 10 bytes (as Go's
// encoding/binary, non-minimal forms included).
func (r *reader) uvarint(what string) (uint64, error) {
	if r.off < len(r.b) && r.b[r.off] < 0x80 {
		r.off++
		return uint64(r.b[r.off-1]), nil
	}
	var x uint64
	var s uint
	for i := 0; ; i++ {
		if r.off+i >= len(r.b) {
			r.off += i
			return 0, r.eof(what)
		}
		c := r.b[r.off+i]
		if i == 9 && c > 1 {
			return 0, r.errf(gcf.OutOfRange, "%s: the varint overflows 64 bits", what)
		}
		if c < 0x80 {
			r.off += i + 1
			return x | uint64(c)<<s, nil
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
}

// count reads a uvarint that counts or measures something; it must be at
// most max.
func (r *reader) count(what string, max int) (int, error) {
	at := r.off
	v, err := r.uvarint(what)
	if err != nil {
		return 0, err
	}
	if max < 0 {
		max = 0
	}
	if v > uint64(max) {
		r.off = at
		return 0, r.errf(gcf.InvalidCount, "%s is %d, more than the %d the rest of the input can hold", what, v, max)
	}
	return int(v), nil
}

// length reads a uvarint byte length, which must not exceed the bytes
// that follow it.
func (r *reader) length(what string) (int, error) {
	at := r.off
	v, err := r.uvarint(what)
	if err != nil {
		return 0, err
	}
	if v > uint64(r.rest()) {
		r.off = at
		return 0, r.errf(gcf.InvalidCount, "%s is %d, more than the %d bytes that follow", what, v, r.rest())
	}
	return int(v), nil
}

// bytesN reads n bytes (already checked non-negative).
func (r *reader) bytesN(n int, what string) ([]byte, error) {
	if n > r.rest() {
		r.off = len(r.b)
		return nil, r.eof(what)
	}
	b := r.b[r.off : r.off+n]
	r.off += n
	return b, nil
}

func (r *reader) f32(what string) (float64, error) {
	b, err := r.bytesN(4, what)
	if err != nil {
		return 0, err
	}
	return float64(math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)), nil
}

func (r *reader) end() error {
	if r.off != len(r.b) {
		return r.errf(gcf.TrailingCharacters, "%d bytes after the last edge", len(r.b)-r.off)
	}
	return nil
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// writeTo writes b to w.
func writeTo(w io.Writer, b []byte, err error) error {
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// checkEncodeLimits refuses a payload whose symbols or edges a decoder
// with the limits l would refuse to count.
func checkEncodeLimits(p *gcf.Payload, l gcf.Limits) error {
	if p == nil {
		return nil
	}
	max := l.MaxElements
	if max <= 0 {
		max = defaultElements
	}
	if len(p.Symbols) <= max && len(p.Edges) <= max {
		return nil
	}
	for _, c := range [...]struct {
		what string
		n    int
	}{{"symbols", len(p.Symbols)}, {"edges", len(p.Edges)}} {
		if c.n > max {
			return &gcf.SyntaxError{Category: gcf.TooManyElements,
				Msg: fmt.Sprintf("wire/gcb: %d %s exceed the element limit of %d (raise Limits.MaxElements, on the decoder too)", c.n, c.what, max)}
		}
	}
	return nil
}

// checkEncodedSize refuses an encoding of n bytes larger than l.MaxBytes,
// or whose text (text bytes, version 2; 0 for version 1) the decoder with
// the limits l would refuse to expand.
func checkEncodedSize(n, text int, l gcf.Limits) error {
	if l.MaxBytes <= 0 && text <= DefaultTextFloor {
		return nil // within TextBound of any size
	}
	if l.MaxBytes > 0 && int64(n) > l.MaxBytes {
		return &gcf.SyntaxError{Category: gcf.PayloadTooLarge,
			Msg: fmt.Sprintf("wire/gcb: the encoding is %d bytes, over the limit of %d (raise Limits.MaxBytes, on the decoder too)", n, l.MaxBytes)}
	}
	if bound := textBound(n, l); int64(text) > bound {
		return &gcf.SyntaxError{Category: gcf.PayloadTooLarge,
			Msg: fmt.Sprintf("wire/gcb: the encoding holds %d bytes of text in %d bytes, over the decoder's bound of %d (%s; raise Limits.MaxBytes, on the decoder too)",
				text, n, bound, textBoundRule(l))}
	}
	return nil
}

// Without Limits.MaxBytes, a version 2 stream of n bytes may expand to at
// most TextBound(n) bytes of text (qualified names, signatures, external
// names): DefaultTextRatio times its size, and never less than
// DefaultTextFloor. The format allows 65 times (a 2-byte copy of 130
// bytes), which a crafted stream reaches; our encoders reach about 3.3
// on real payloads (docs/wire.md). With MaxBytes set, the text is at most
// MaxBytes instead.
const (
	DefaultTextRatio = 8
	DefaultTextFloor = 1 << 20
)

// TextBound is the most text a version 2 stream of n bytes may declare
// under the default limits (MaxBytes 0).
func TextBound(n int) int64 { return max(DefaultTextFloor, DefaultTextRatio*int64(n)) }

// textBound is the most text a version 2 stream of n bytes may declare
// under l.
func textBound(n int, l gcf.Limits) int64 {
	if l.MaxBytes > 0 {
		return l.MaxBytes
	}
	return TextBound(n)
}

func textBoundRule(l gcf.Limits) string {
	if l.MaxBytes > 0 {
		return "Limits.MaxBytes"
	}
	return fmt.Sprintf("without Limits.MaxBytes: %d times the stream's size, at least %d", DefaultTextRatio, DefaultTextFloor)
}
