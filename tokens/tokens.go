// Package tokens counts the tokens that a language model's byte-pair-encoding
// tokenizer sees in a text, with the vocabularies models use: o200k_base (the
// default, GPT-4o and later) and cl100k_base (GPT-4, GPT-3.5).
//
// The vocabularies are embedded (through github.com/tiktoken-go/tokenizer), so
// counting works offline. The package is a tool for measuring payloads, not a
// part of the format: the core gcf package never imports it, and only the
// command line, the benchmarks and gcfmcp do.
package tokens

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding names a tokenizer vocabulary.
type Encoding string

// The vocabularies a Counter can use.
const (
	O200kBase  Encoding = "o200k_base"  // GPT-4o, GPT-4.1, GPT-5, o-series
	Cl100kBase Encoding = "cl100k_base" // GPT-4, GPT-3.5
)

// Default is the vocabulary used when none is named.
const Default = O200kBase

// Encodings lists the supported vocabularies, the default first.
func Encodings() []Encoding { return []Encoding{O200kBase, Cl100kBase} }

// ParseEncoding returns the vocabulary named by s, which may be the full name
// ("o200k_base") or its short form ("o200k"), in any case; "" is Default.
func ParseEncoding(s string) (Encoding, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "o200k", "o200k_base":
		return O200kBase, nil
	case "cl100k", "cl100k_base":
		return Cl100kBase, nil
	}
	return "", fmt.Errorf("tokens: unknown tokenizer %q (known: o200k, cl100k)", s)
}

// Counter counts tokens with one vocabulary. It is safe for concurrent use.
type Counter struct {
	enc   Encoding
	codec tokenizer.Codec
}

var (
	mu       sync.Mutex
	counters = map[Encoding]*Counter{}
)

// New returns the Counter for enc. Counters are shared: loading a vocabulary
// takes tens of milliseconds the first time, and nothing after that.
func New(enc Encoding) (*Counter, error) {
	mu.Lock()
	defer mu.Unlock()
	if c, ok := counters[enc]; ok {
		return c, nil
	}
	var name tokenizer.Encoding
	switch enc {
	case O200kBase:
		name = tokenizer.O200kBase
	case Cl100kBase:
		name = tokenizer.Cl100kBase
	default:
		return nil, fmt.Errorf("tokens: unknown tokenizer %q (known: %s, %s)", enc, O200kBase, Cl100kBase)
	}
	codec, err := tokenizer.Get(name)
	if err != nil {
		return nil, fmt.Errorf("tokens: loading %s: %w", enc, err)
	}
	c := &Counter{enc: enc, codec: codec}
	counters[enc] = c
	return c, nil
}

// MustNew is New for the known vocabularies; it panics on an unknown one.
func MustNew(enc Encoding) *Counter {
	c, err := New(enc)
	if err != nil {
		panic(err)
	}
	return c
}

// Encoding returns the vocabulary c counts with.
func (c *Counter) Encoding() Encoding { return c.enc }

// Count returns the number of tokens in text. Invalid UTF-8 is counted as
// the tokenizer sees its bytes; special-token spellings such as
// "<|endoftext|>" are counted as ordinary text, since a payload never holds
// special tokens.
func (c *Counter) Count(text string) int {
	n, err := c.codec.Count(text)
	if err != nil {
		// The codec reports errors only in its strict UTF-8 mode, which a
		// Counter never sets.
		panic("tokens: " + err.Error())
	}
	return n
}

// CountBytes is Count for a byte slice.
func (c *Counter) CountBytes(text []byte) int { return c.Count(string(text)) }

// Count returns the number of o200k_base tokens in text.
func Count(text string) int { return MustNew(Default).Count(text) }
