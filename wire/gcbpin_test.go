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
// from pieces that exercise the word-start text coding: primer words, words of
// the qualified names, name separators, repeated names, external edge
// endpoints.
func signatureLikePayload(r *rand.Rand) *gcf.Payload {
	words := []string{"func", "(s *Server)", "ctx", "store", "SQLiteStore", "PutNode", "types.Hash", "error)",
		"(", ")", ",", " ", ".", "/", ":", "#", "*", "[]", "github.com/acme/svc/internal", "Indexer", "processFile"}
	for _, w := range []string{"(ctx context.Context, ", "context.Context", ", error)", "map[string]any", "[]string",
		"[]byte", "int64", "float64", "interface{}", " struct", " interface", "types."} { // words of the primer
		words = append(words, w, w)
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
// Compact) for 2,000 generated payloads hash to a recorded digest. Speed
// work on the encoder must choose the same output; a change of the coding
// changes this digest on purpose, with docs/wire.md. History: 21d869c (the
// default coding searched the shared start and end, primer words and own
// names); branch gcbenc (the default coding copies at word starts through a
// hash table of the window's word starts).
func TestGCBEncodeBytesPinned(t *testing.T) {
	const want = "298f27ee420061b78143955be9b693962741ecc2fdf31038ebc6c3a232335dbf"
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
