package interop

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"github.com/gcfkit/gcf"
)

// Graph payloads (SPEC §3.2, §5, §6), sessions (§9) and deltas (§10):
// there the wire has no layout choices, so both SDKs must write the same
// bytes, and each must decode the other's output to the same payload.

var graphKinds = []string{"function", "type", "method", "interface", "var", "const", "resource", "table", "class",
	"selector", "field", "route_handler", "external", "file", "package", "service"}

func randSymbols(r *rand.Rand, n, base int) []gcf.Symbol {
	syms := make([]gcf.Symbol, n)
	for i := range syms {
		q := "pkg" + strconv.Itoa(r.IntN(4)) + "/mod.Sym" + strconv.Itoa(base+i)
		if r.IntN(10) == 0 {
			q = "héllo/ünïcode.Fn" + strconv.Itoa(base+i)
		}
		syms[i] = gcf.Symbol{
			QualifiedName: q,
			Kind:          graphKinds[r.IntN(len(graphKinds))],
			Score:         float64(r.IntN(1000)) / 1000, // three decimals: the two-decimal rounding is exercised
			Provenance:    []string{"lsp", "grep", "ast", "git"}[r.IntN(4)],
			Distance:      r.IntN(5),
		}
	}
	return syms
}

func randEdges(r *rand.Rand, syms []gcf.Symbol, n int) []gcf.Edge {
	edges := []gcf.Edge{} // never nil: the reference wants an array
	if len(syms) == 0 {
		return edges
	}
	seen := map[[3]string]bool{}
	for range n {
		e := gcf.Edge{
			Source:   syms[r.IntN(len(syms))].QualifiedName,
			Target:   syms[r.IntN(len(syms))].QualifiedName,
			EdgeType: []string{"calls", "imports", "implements", "references"}[r.IntN(4)],
			Status:   []string{"", "", "added", "removed"}[r.IntN(4)],
		}
		k := [3]string{e.Source, e.Target, e.EdgeType}
		if seen[k] {
			continue
		}
		seen[k] = true
		edges = append(edges, e)
	}
	return edges
}

func randPayload(r *rand.Rand, base int) *gcf.Payload {
	syms := randSymbols(r, r.IntN(12), base)
	p := &gcf.Payload{Tool: "context_for_task", Symbols: syms, Edges: randEdges(r, syms, r.IntN(15))}
	if r.IntN(2) == 0 {
		p.TokenBudget, p.TokensUsed = 4000, 100+r.IntN(3000)
	}
	return p
}

// samePayload compares two payloads, nil and empty slices alike.
func samePayload(a, b *gcf.Payload) bool {
	norm := func(p *gcf.Payload) gcf.Payload {
		q := *p
		if len(q.Symbols) == 0 {
			q.Symbols = nil
		}
		if len(q.Edges) == 0 {
			q.Edges = nil
		}
		return q
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInteropGraph: stateless encode and decode of random graph payloads.
func TestInteropGraph(t *testing.T) {
	run := refRunner(t)
	r := rand.New(rand.NewPCG(21, 5))
	const n = 1000
	ps := make([]*gcf.Payload, n)
	ours := make([][]byte, n)
	var reqs []request
	for i := range ps {
		ps[i] = randPayload(r, 0)
		out, err := gcf.Encode(ps[i], forBundle)
		if err != nil {
			t.Fatalf("payload %d: %v", i, err)
		}
		ours[i] = out
		reqs = append(reqs, request{Op: "e", In: mustJSON(t, ps[i])}, request{Op: "d", In: string(out)})
	}
	resps := run(reqs)
	identical, decA, decB := 0, 0, 0
	for i := range ps {
		enc, dec := resps[2*i], resps[2*i+1]
		if enc.Err != "" || dec.Err != "" {
			t.Errorf("payload %d: reference: encode %q, decode %q\n%s", i, enc.Err, dec.Err, ours[i])
			continue
		}
		if enc.Out == string(ours[i]) {
			identical++
		} else {
			t.Errorf("payload %d: encodings differ:\nours:\n%s\nreference:\n%s", i, ours[i], enc.Out)
		}
		mine, err := gcf.Decode(ours[i])
		if err != nil {
			t.Fatalf("payload %d: our decode: %v", i, err)
		}
		var theirs gcf.Payload
		if err := json.Unmarshal([]byte(dec.Out), &theirs); err != nil {
			t.Fatalf("payload %d: %v", i, err)
		}
		if samePayload(mine, &theirs) {
			decA++
		} else {
			t.Errorf("payload %d: the reference decodes our encoding differently:\nours:   %s\ntheirs: %s", i, mustJSON(t, mine), dec.Out)
		}
		if back, err := gcf.Decode([]byte(enc.Out)); err == nil && samePayload(back, mine) {
			decB++
		} else {
			t.Errorf("payload %d: we decode the reference's encoding differently (%v)", i, err)
		}
	}
	t.Logf("graph: %d payloads; byte-identical %d; the reference decodes ours as we do: %d; we decode the reference's as our own: %d", n, identical, decA, decB)
}

// TestInteropGraphSession: sequences of payloads through one session on
// each side (SPEC §9): the same bytes, call after call.
func TestInteropGraphSession(t *testing.T) {
	run := refRunner(t)
	r := rand.New(rand.NewPCG(22, 5))
	const n = 200
	var reqs []request
	var ours [][]string
	for range n {
		// Later calls repeat some symbols of earlier ones.
		var seq []*gcf.Payload
		pool := randSymbols(r, 16, 0)
		for c := range 3 {
			var syms []gcf.Symbol
			for _, s := range pool {
				if r.IntN(2) == 0 {
					syms = append(syms, s)
				}
			}
			syms = append(syms, randSymbols(r, r.IntN(3), 100*(c+1))...)
			canonicalOrder(syms)
			seq = append(seq, &gcf.Payload{Tool: "context_for_task", Symbols: syms, Edges: randEdges(r, syms, r.IntN(6))})
		}
		// Both SDKs, given symbols in canonical order (distance, then score
		// descending) and edges in id order, must agree; the reference does
		// not sort in a session (pinned in TestReferenceDefectsGraph).
		ids := map[string]int{}
		for _, p := range seq {
			for _, s := range p.Symbols {
				if _, ok := ids[s.QualifiedName]; !ok {
					ids[s.QualifiedName] = len(ids)
				}
			}
			sort.SliceStable(p.Edges, func(a, b int) bool {
				x, y := p.Edges[a], p.Edges[b]
				if ids[x.Source] != ids[y.Source] {
					return ids[x.Source] < ids[y.Source]
				}
				if ids[x.Target] != ids[y.Target] {
					return ids[x.Target] < ids[y.Target]
				}
				return x.EdgeType < y.EdgeType
			})
		}
		s := gcf.NewSession()
		var outs []string
		for _, p := range seq {
			out, err := gcf.EncodeWithSession(p, s, forBundle)
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, string(out))
		}
		ours = append(ours, outs)
		reqs = append(reqs, request{Op: "se", In: mustJSON(t, seq)})
	}
	identical, total := 0, 0
	for i, resp := range run(reqs) {
		if resp.Err != "" {
			t.Errorf("sequence %d: reference: %s", i, resp.Err)
			continue
		}
		for c := range ours[i] {
			total++
			if resp.Outs[c] == ours[i][c] {
				identical++
			} else {
				t.Errorf("sequence %d call %d: encodings differ:\nours:\n%s\nreference:\n%s", i, c, ours[i][c], resp.Outs[c])
			}
		}
	}
	t.Logf("graph sessions: %d calls in %d sessions; byte-identical %d", total, n, identical)
}

// canonicalOrder sorts symbols by distance, then by score descending (at
// the two decimals the wire carries), as SPEC §16.1 orders them.
func canonicalOrder(s []gcf.Symbol) {
	sort.SliceStable(s, func(a, b int) bool {
		if s[a].Distance != s[b].Distance {
			return s[a].Distance < s[b].Distance
		}
		return s[a].Score > s[b].Score
	})
}

// TestInteropGraphDelta: delta payloads (SPEC §10): the same bytes, and each
// side decodes the other's encoding.
func TestInteropGraphDelta(t *testing.T) {
	run := refRunner(t)
	r := rand.New(rand.NewPCG(23, 5))
	const n = 500
	ds := make([]*gcf.DeltaPayload, n)
	var reqs []request
	ours := make([]string, n)
	for i := range ds {
		rem := randSymbols(r, r.IntN(5), 0)
		add := randSymbols(r, r.IntN(5), 50)
		all := append(append([]gcf.Symbol{}, rem...), add...)
		d := &gcf.DeltaPayload{Tool: "context_for_task", BaseRoot: hex64(r), NewRoot: hex64(r),
			Removed: rem, Added: add, RemovedEdges: randEdges(r, all, r.IntN(4)), AddedEdges: randEdges(r, all, r.IntN(4))}
		for j := range d.Removed {
			d.Removed[j].Score, d.Removed[j].Provenance, d.Removed[j].Distance = 0, "", 0
		}
		for _, es := range [][]gcf.Edge{d.RemovedEdges, d.AddedEdges} {
			for j := range es {
				es[j].Status = ""
			}
		}
		// Both set: the reference writes tokens=0 savings=0% for zero
		// values, which SPEC §16.1 forbids (pinned in the defects test).
		d.DeltaTokens, d.FullTokens = 100+r.IntN(200), 1000+r.IntN(2000)
		ds[i] = d
		out, err := gcf.EncodeDelta(d, forBundle)
		if err != nil {
			t.Fatal(err)
		}
		ours[i] = string(out)
		reqs = append(reqs, request{Op: "de", In: mustJSON(t, d)}, request{Op: "dd", In: ours[i]})
	}
	resps := run(reqs)
	identical, decA, decB := 0, 0, 0
	for i := range ds {
		enc, dec := resps[2*i], resps[2*i+1]
		if enc.Err != "" || dec.Err != "" {
			t.Errorf("delta %d: reference: encode %q, decode %q\n%s", i, enc.Err, dec.Err, ours[i])
			continue
		}
		if enc.Out == ours[i] {
			identical++
		} else {
			t.Errorf("delta %d: encodings differ:\nours:\n%s\nreference:\n%s", i, ours[i], enc.Out)
		}
		mine, err := gcf.DecodeDelta([]byte(ours[i]))
		if err != nil {
			t.Fatalf("delta %d: our decode: %v", i, err)
		}
		var theirs gcf.DeltaPayload
		if err := json.Unmarshal([]byte(dec.Out), &theirs); err != nil {
			t.Fatalf("delta %d: %v", i, err)
		}
		if sameDelta(mine, &theirs) {
			decA++
		} else {
			t.Errorf("delta %d: the reference decodes our encoding differently:\nours:   %s\ntheirs: %s", i, mustJSON(t, mine), mustJSON(t, &theirs))
		}
		if back, err := gcf.DecodeDelta([]byte(enc.Out)); err == nil && sameDelta(back, mine) {
			decB++
		} else {
			t.Errorf("delta %d: we decode the reference's encoding differently (%v)", i, err)
		}
	}
	t.Logf("graph deltas: %d; byte-identical %d; the reference decodes ours as we do: %d; we decode the reference's as our own: %d", n, identical, decA, decB)
}

func sameDelta(a, b *gcf.DeltaPayload) bool {
	j := func(d *gcf.DeltaPayload) string {
		q := *d
		// The header's tokens= and savings= are informational; the
		// reference's decodeDelta does not return them.
		q.DeltaTokens, q.FullTokens = 0, 0
		for _, p := range []*[]gcf.Symbol{&q.Removed, &q.Added} {
			if len(*p) == 0 {
				*p = nil
			}
		}
		for _, p := range []*[]gcf.Edge{&q.RemovedEdges, &q.AddedEdges} {
			if len(*p) == 0 {
				*p = nil
			}
		}
		b, _ := json.Marshal(q)
		return string(b)
	}
	return j(a) == j(b)
}

func hex64(r *rand.Rand) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 64)
	for i := range b {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}
