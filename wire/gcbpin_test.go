package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// signatureLikePayload builds a payload of code-like names and signatures
// from pieces that exercise the fast text coding: primer words, words of
// the qualified names, name separators, repeated names, external edge
// endpoints.
func signatureLikePayload(r *rand.Rand) *gcf.Payload {
	words := []string{"func", "(s *Server)", "ctx", "store", "SQLiteStore", "PutNode", "types.Hash", "error)",
		"(", ")", ",", " ", ".", "/", ":", "#", "*", "[]", "github.com/acme/svc/internal", "Indexer", "processFile"}
	for _, w := range primerWords {
		words = append(words, w.s, w.s)
	}
	p := &gcf.Payload{Tool: "t"}
	n := r.IntN(40)
	for j := 0; j < n; j++ {
		var q, sig strings.Builder
		for k := r.IntN(6); k >= 0; k-- {
			q.WriteString(words[r.IntN(len(words))])
			q.WriteByte(".:#/"[r.IntN(4)])
		}
		for k := r.IntN(20); k >= 0; k-- {
			sig.WriteString(words[r.IntN(len(words))])
			if r.IntN(2) == 0 {
				sig.WriteByte(' ')
			}
		}
		if r.IntN(3) == 0 && j > 0 {
			q.Reset()
			q.WriteString(p.Symbols[r.IntN(j)].QualifiedName)
		}
		p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: q.String(), Signature: sig.String(),
			Kind: kindTable[r.IntN(len(kindTable))], Provenance: "lsp", Score: float64(r.IntN(100)) / 100})
	}
	for j := r.IntN(2 * (n + 1)); j > 0 && n > 0; j-- {
		src := p.Symbols[r.IntN(n)].QualifiedName
		if r.IntN(4) == 0 {
			src = words[r.IntN(len(words))]
		}
		p.Edges = append(p.Edges, gcf.Edge{Source: src, Target: p.Symbols[r.IntN(n)].QualifiedName,
			EdgeType: edgeTypeTable[r.IntN(5)]})
	}
	return p
}

// TestGCBEncodeBytesPinned: the encoder's output bytes (default and
// Compact) for 2,000 generated payloads hash to the digest of the encoder
// at 21d869c. Speed work on the encoder must choose the same output; a
// change of the coding changes this digest on purpose, with docs/wire.md.
func TestGCBEncodeBytesPinned(t *testing.T) {
	const want = "d69244805d4f3c86d9cc8c1a72d680ce3a05c813d6b86499f20b2d5b40d05275"
	h := sha256.New()
	r := rand.New(rand.NewPCG(26, 26))
	for i := 0; i < 2000; i++ {
		var p *gcf.Payload
		if i%2 == 0 {
			p = randomPayload(r)
		} else {
			p = signatureLikePayload(r)
		}
		for _, c := range []GCB{{}, {Compact: true}} {
			enc, err := c.Append(nil, p)
			if err != nil {
				t.Fatal(err)
			}
			h.Write(enc)
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		t.Fatalf("the encodings hash to %s, want %s", got, want)
	}
}
