// Package wire turns graph payloads (*gcf.Payload) into bytes and back
// through named codecs, for the three layers a code-intelligence system
// has: GCF text for a model's context window, GCB binary for IPC and
// caches, JSON for debugging and export.
//
// The built-in codecs, registered at init:
//
//	gcf    GCF v3.6.0 graph profile, through the root package (text; deltas too)
//	gcb    GCB version 2: compact, lossless binary (the default binary codec)
//	gcb1   GCB version 1, byte-compatible with the product that defined it;
//	       refuses what version 1 would lose (GCB1{Lossy: true} reproduces the loss)
//	gcf-v1 the legacy GCF v1.x graph wire (text; deltas too; docs/legacy-v1.md)
//	json   JSON with the conformance fixtures' field names (reads snake_case too)
//
// A codec is looked up by name (Get, EncodeWith, DecodeWith); an unknown
// name is an error that lists the registered ones. Register adds a codec
// of one's own:
//
//	func init() { wire.Register(myCodec{}) } // Name() "my-codec"
//
// The registry is safe for concurrent use. Decoders treat their input as
// untrusted: every failure is a *gcf.SyntaxError with a SPEC §16.5
// category, at a byte offset for binary input, never a panic.
package wire

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/gcfkit/gcf"
)

// Codec encodes graph payloads to bytes and decodes them back. Name is
// the registry key. Encode writes one payload to w; Decode reads one
// payload from r, to its end. Implementations are safe for concurrent use.
type Codec interface {
	Name() string
	Encode(w io.Writer, p *gcf.Payload) error
	Decode(r io.Reader) (*gcf.Payload, error)
}

// DeltaCodec is a Codec that also carries graph deltas (SPEC §10).
type DeltaCodec interface {
	Codec
	EncodeDelta(w io.Writer, d *gcf.DeltaPayload) error
	DecodeDelta(r io.Reader) (*gcf.DeltaPayload, error)
}

// Describer is implemented by codecs that describe themselves in one line.
type Describer interface{ Description() string }

// binaryCodec is implemented by codecs whose output is not text.
type binaryCodec interface{ Binary() bool }

// IsBinary reports whether c writes bytes that are not text (a terminal
// should not receive them): codecs with a Binary method returning true.
func IsBinary(c Codec) bool {
	b, ok := c.(binaryCodec)
	return ok && b.Binary()
}

// Description returns c's one-line description, or "" when it has none.
func Description(c Codec) string {
	if d, ok := c.(Describer); ok {
		return d.Description()
	}
	return ""
}

var (
	mu     sync.RWMutex
	codecs = map[string]Codec{}
)

// Register adds c under c.Name(). It panics when the name is empty or
// already registered, or c is nil: registration happens at init, where a
// clash is a programming error.
func Register(c Codec) {
	if c == nil {
		panic("wire: Register of a nil codec")
	}
	name := c.Name()
	if name == "" {
		panic("wire: Register of a codec with an empty name")
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := codecs[name]; dup {
		panic(fmt.Sprintf("wire: codec %q already registered", name))
	}
	codecs[name] = c
}

// Get returns the codec registered under name, or an error that lists the
// registered names.
func Get(name string) (Codec, error) {
	mu.RLock()
	c, ok := codecs[name]
	mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("wire: unknown codec %q (registered: %s)", name, ListNames())
	}
	return c, nil
}

// List returns the registered codecs sorted by name.
func List() []Codec {
	mu.RLock()
	out := make([]Codec, 0, len(codecs))
	for _, c := range codecs {
		out = append(out, c)
	}
	mu.RUnlock()
	slices.SortFunc(out, func(a, b Codec) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// ListNames returns the registered names, sorted and joined by ", "
// ("gcb, gcb1, gcf, gcf-v1, json" with the built-ins).
func ListNames() string {
	mu.RLock()
	names := make([]string, 0, len(codecs))
	for n := range codecs {
		names = append(names, n)
	}
	mu.RUnlock()
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// EncodeWith encodes p with the codec registered under name.
func EncodeWith(name string, p *gcf.Payload) ([]byte, error) {
	c, err := Get(name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := c.Encode(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodeWith decodes data with the codec registered under name.
func DecodeWith(name string, data []byte) (*gcf.Payload, error) {
	c, err := Get(name)
	if err != nil {
		return nil, err
	}
	if bd, ok := c.(bytesDecoder); ok {
		return bd.DecodeBytes(data)
	}
	return c.Decode(bytes.NewReader(data))
}

// bytesDecoder is implemented by codecs that decode from memory without
// a reader (DecodeWith uses it to save a copy).
type bytesDecoder interface {
	DecodeBytes(data []byte) (*gcf.Payload, error)
}

func init() {
	Register(gcfCodec{})
	Register(gcfCodec{v1: true})
	Register(jsonCodec{})
	Register(GCB{})
	Register(GCB1{})
}

// readAll reads r to its end; a failure is a read_error.
func readAll(r io.Reader) ([]byte, error) { return readMax(r, 0) }

// readMax reads r to its end, or, when max > 0, to at most max+1 bytes:
// a stream longer than max is payload_too_large at byte offset max, found
// without reading (or holding) more than one byte past the limit. A read
// failure is a read_error.
func readMax(r io.Reader, max int64) ([]byte, error) {
	if max > 0 {
		r = io.LimitReader(r, max+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &gcf.SyntaxError{Category: gcf.ReadError, Offset: int64(len(data)),
			Msg: "reading the input: " + err.Error(), Err: err}
	}
	if max > 0 && int64(len(data)) > max {
		return nil, tooLarge(max)
	}
	return data, nil
}

// tooLarge is the payload_too_large error of an input longer than max
// bytes, at offset max (the first byte past the limit).
func tooLarge(max int64) error {
	return &gcf.SyntaxError{Category: gcf.PayloadTooLarge, Offset: max,
		Msg: fmt.Sprintf("wire/gcb: at byte %d: the input is longer than the limit of %d bytes (Limits.MaxBytes)", max, max)}
}
