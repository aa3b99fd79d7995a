package graph

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// refEncodeGraph is a plain reference of Encode's ordering and edge
// resolution: a stable comparison sort of the symbols, a Go map from each
// name to its first symbol in emission order, a stable comparison sort of
// the edges. It shares only the line writers with Encode, so the
// differential test below checks the radix sorts and the name join.
func refEncodeGraph(p *Payload, wire stream.Wire) ([]byte, error) {
	if err := grCheckHeader(p.Tool, p.TokenBudget, p.TokensUsed); err != nil {
		return nil, err
	}
	for i := range p.Symbols {
		if err := grCheckSymbol(&p.Symbols[i], i); err != nil {
			return nil, err
		}
	}
	order := make([]int, len(p.Symbols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := &p.Symbols[a], &p.Symbols[b]
		if c := cmp.Compare(sa.Distance, sb.Distance); c != 0 {
			return c
		}
		return cmp.Compare(sb.Score, sa.Score)
	})
	first := map[string]int{}
	for id, si := range order {
		if _, ok := first[p.Symbols[si].QualifiedName]; !ok {
			first[p.Symbols[si].QualifiedName] = id
		}
	}
	// status is the edge's own status: v1 writes "unchanged" as no status
	// but Encode orders edges by the status they have (v1 only).
	type refEdge struct {
		grEdge
		status string
	}
	var edges []refEdge
	for i := range p.Edges {
		e := p.Edges[i]
		status := e.Status
		if wire == stream.WireV1 && e.Status == "unchanged" {
			e.Status = ""
		}
		if err := grCheckEdge(&e, i); err != nil {
			return nil, err
		}
		src, ok := first[e.Source]
		if !ok && wire == stream.WireV1 {
			continue
		}
		if !ok {
			return nil, lexer.Errorf(lexer.UnknownEdgeReference, "edge %d: source %q is not a symbol of the payload", i, e.Source)
		}
		tgt, ok := first[e.Target]
		if !ok && wire == stream.WireV1 {
			continue
		}
		if !ok {
			return nil, lexer.Errorf(lexer.UnknownEdgeReference, "edge %d: target %q is not a symbol of the payload", i, e.Target)
		}
		edges = append(edges, refEdge{grEdge{src: src, tgt: tgt, typ: e.EdgeType, status: e.Status}, status})
	}
	slices.SortStableFunc(edges, func(a, b refEdge) int {
		if wire == stream.WireV1 { // v1: by target, then source
			a.src, a.tgt, b.src, b.tgt = a.tgt, a.src, b.tgt, b.src
		}
		return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.tgt, b.tgt),
			cmp.Compare(a.typ, b.typ), cmp.Compare(a.status, b.status))
	})
	var b []byte
	if wire == stream.WireV1 {
		b = v1AppendHeaderStart(b, p.Tool, p.TokenBudget, p.TokensUsed)
	} else {
		b = grAppendHeaderStart(b, p.Tool, p.TokenBudget, p.TokensUsed)
	}
	b = append(b, " symbols="+strconv.Itoa(len(p.Symbols))...)
	if len(edges) > 0 || (wire == stream.WireV1 && len(p.Edges) > 0) {
		b = append(b, " edges="+strconv.Itoa(len(edges))...)
	}
	if p.PackRoot != "" {
		b = append(b, " pack_root="+p.PackRoot...)
	}
	b = append(b, '\n')
	group := -1
	for id, si := range order {
		if d := p.Symbols[si].Distance; d != group {
			group = d
			b = encoder.AppendGroupName(append(b, "## "...), d)
			b = append(b, '\n')
		}
		b = append(grAppendNode(b, id, &p.Symbols[si]), '\n')
	}
	if len(edges) > 0 || (wire == stream.WireV1 && len(p.Edges) > 0) {
		b = append(encoder.AppendCount(append(b, "## edges "...), len(edges), false), '\n')
		for i := range edges {
			b = grAppendEdge(b, &edges[i].grEdge)
		}
	}
	return b, nil
}

// randomGraphPayload makes payloads that stress the join: names from a
// small pool (duplicates), names that are prefixes of one another in the
// same memory (same data pointer, different lengths), endpoints that share
// the symbols' strings and endpoints that are equal copies, unknown names,
// sparse distances (empty groups), tied and negative scores, many edge
// types, statuses.
func randomGraphPayload(r *rand.Rand) *Payload {
	n := r.IntN(400)
	switch r.IntN(8) {
	case 0:
		n = r.IntN(5)
	case 1:
		n = 500 + r.IntN(3000)
	}
	base := strings.Repeat("pkg.Name", 8) + "ü.Ω"
	pool := make([]string, 1+r.IntN(2*n+1))
	for i := range pool {
		switch r.IntN(4) {
		case 0:
			k := 5 + r.IntN(len(base)-4)
			for !utf8.ValidString(base[:k]) {
				k--
			}
			pool[i] = base[:k] // shares base's memory
		default:
			pool[i] = fmt.Sprintf("pkg%d.S%d", r.IntN(7), r.IntN(3*n+3))
		}
	}
	dists := []int{0, 1, 2, 3, 7, 40}[:1+r.IntN(6)]
	kinds := []string{"function", "type", "method", "interface", "package", "mystery"}
	types := []string{"calls", "references", "imports", "implements"}
	if r.IntN(4) == 0 {
		for i := range 80 {
			types = append(types, "t"+strconv.Itoa(i))
		}
	}
	statuses := []string{"", "", "", "added", "removed"}
	p := &Payload{Tool: "t"}
	for range n {
		score := float64(r.IntN(7)) / 4
		switch r.IntN(6) {
		case 0:
			score = -score
		case 1:
			score = r.Float64() * 1e6
		case 2:
			score = math.Copysign(0, -1)
		}
		p.Symbols = append(p.Symbols, Symbol{
			QualifiedName: pool[r.IntN(len(pool))],
			Kind:          kinds[r.IntN(len(kinds))],
			Score:         score,
			Provenance:    "lsp",
			Distance:      dists[r.IntN(len(dists))],
		})
	}
	copies := r.IntN(4) // 0: endpoints are copies of the names; 1: their strings; else mixed
	name := func() string {
		k := r.IntN(20)
		if n > 0 && copies == 0 && k > 0 {
			return strings.Clone(p.Symbols[r.IntN(n)].QualifiedName)
		}
		if n > 0 && copies == 1 && k > 0 {
			return p.Symbols[r.IntN(n)].QualifiedName
		}
		switch {
		case k == 0:
			return "unknown.X" + strconv.Itoa(r.IntN(3))
		case k < 8 && n > 0:
			return strings.Clone(p.Symbols[r.IntN(n)].QualifiedName) // equal bytes, other memory
		case n > 0:
			return p.Symbols[r.IntN(n)].QualifiedName // the symbol's own string
		}
		return pool[r.IntN(len(pool))]
	}
	m := r.IntN(3*n + 2)
	for range m {
		p.Edges = append(p.Edges, Edge{Source: name(), Target: name(),
			EdgeType: types[r.IntN(len(types))], Status: statuses[r.IntN(len(statuses))]})
	}
	if r.IntN(3) > 0 { // mostly payloads whose edges all resolve
		known := p.Edges[:0]
		for _, e := range p.Edges {
			if !strings.HasPrefix(e.Source, "unknown.") && !strings.HasPrefix(e.Target, "unknown.") {
				known = append(known, e)
			}
		}
		p.Edges = known
	}
	return p
}

// TestGraphEncodeMatchesReference: Encode (radix sorts, sort-merge name
// joins by identity and by hash) writes the reference's bytes, and reports
// the same error, on random payloads, on both wires, with join keys of the
// normal size and of a few bits (many names per key), and with the identity
// join in one table or partitioned.
func TestGraphEncodeMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2026))
	iters := 300
	if testing.Short() {
		iters = 80
	}
	var compared, failed int
	defer func() { grJoinKeyBits, grPartBits = 0, 14 }()
	for it := range iters {
		p := randomGraphPayload(r)
		grJoinKeyBits = []uint{0, 0, 1, 3}[r.IntN(4)]   // few key bits: many names share a key
		grPartBits = []uint{14, 14, 0, 2, 6}[r.IntN(5)] // many partitions of the identity join
		for _, wire := range []stream.Wire{stream.WireV3, stream.WireV1} {
			if wire == stream.WireV1 && r.IntN(3) > 0 {
				for i := range p.Edges {
					if r.IntN(4) == 0 {
						p.Edges[i].Status = "unchanged"
					}
				}
			}
			want, werr := refEncodeGraph(p, wire)
			got, gerr := Encode(p, withWire(wire), withMaxElements(1<<30))
			if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("payload %d wire %v: error %v, reference %v", it, wire, gerr, werr)
			}
			if gerr != nil {
				failed++
				continue
			}
			if !bytes.Equal(got, want) {
				gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				i := 0
				for i < min(len(gl), len(wl)) && gl[i] == wl[i] {
					i++
				}
				t.Fatalf("payload %d wire %v (%d symbols, %d edges): output differs from the reference at line %d:\ngot  %q\nwant %q",
					it, wire, len(p.Symbols), len(p.Edges), i+1, gl[min(i, len(gl)-1)], wl[min(i, len(wl)-1)])
			}
			compared++
		}
	}
	t.Logf("%d outputs compared, %d errors compared", compared, failed)
	if compared < iters/2 || failed == 0 {
		t.Fatalf("too few outputs (%d) or no errors (%d) compared", compared, failed)
	}
}

// FuzzGraphEncodeReference builds a payload from the input bytes (names
// from a small pool, so that they repeat and share memory, or copied;
// distances, scores, kinds, edge types and statuses from the next bytes)
// and checks Encode against refEncodeGraph on both wires.
func FuzzGraphEncodeReference(f *testing.F) {
	f.Add([]byte("\x05\x03abcdefghijklmnop"), uint8(0), uint8(0))
	f.Add([]byte("\x40\x80\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"), uint8(2), uint8(1))
	f.Add(bytes.Repeat([]byte{0x11, 0x93, 0x2a, 0xff}, 64), uint8(1), uint8(3))
	pool := []string{"a", "a.B", "a.B.c", "pkg.X", "pkg.Y", "ü.Ω", "x\u00a0y", "pkg.Zzzzzzzzzzzzz"}
	kinds := []string{"function", "type", "method", "iface", "mystery", ""}
	types := []string{"calls", "references", "x y", "imports"}
	statuses := []string{"", "", "added", "removed", "unchanged", "bad"}
	f.Fuzz(func(t *testing.T, data []byte, keyBits, partBits uint8) {
		defer func() { grJoinKeyBits, grPartBits = 0, 14 }()
		grJoinKeyBits = uint(keyBits % 6) // 0: the normal size
		grPartBits = []uint{14, 0, 1, 3}[partBits%4]
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		name := func(b int) string {
			s := pool[b%len(pool)]
			if b&0x80 != 0 {
				s = strings.Clone(s)
			}
			return s
		}
		p := &Payload{Tool: "t"}
		for n := next() % 64; n > 0; n-- {
			b := next()
			p.Symbols = append(p.Symbols, Symbol{QualifiedName: name(b), Kind: kinds[next()%len(kinds)],
				Score: float64(int8(next())) / 8, Provenance: "lsp", Distance: next() % 5})
		}
		for len(data) >= 4 {
			p.Edges = append(p.Edges, Edge{Source: name(next()), Target: name(next()),
				EdgeType: types[next()%len(types)], Status: statuses[next()%len(statuses)]})
		}
		for _, wire := range []stream.Wire{stream.WireV3, stream.WireV1} {
			want, werr := refEncodeGraph(p, wire)
			got, gerr := Encode(p, withWire(wire))
			if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("wire %v: error %v, reference %v", wire, gerr, werr)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("wire %v: got\n%s\nwant\n%s", wire, got, want)
			}
		}
	})
}
