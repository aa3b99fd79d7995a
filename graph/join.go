package graph

import (
	"cmp"
	"hash/maphash"
	"math/bits"
	"slices"

	"github.com/gcfkit/gcf/internal/strid"
)

// The edge join of Encode: every edge endpoint resolved to the wire id of
// the first symbol emitted with its name, by string identity (strid) where
// it can be and by a name index otherwise.

// grNoSymbol marks an endpoint that names no symbol; grUnjoined one not
// resolved yet.
const (
	grNoSymbol = ^uint32(0)
	grUnjoined = grNoSymbol - 1
)

// joinNames resolves every endpoint of p.Edges to the wire id of the
// first symbol in emission order with its name (see grResolveEdges):
// cand[2i] and cand[2i+1] are edge i's source and target, or grNoSymbol.
func (sc *grScratch) joinNames(p *Payload, ids, posOf []int) ([]uint32, error) {
	// Hash keys of about 8 bits more than the symbol count needs (so that
	// few names share one), rounded up to whole radix passes.
	keyBits := (uint(bits.Len(uint(len(ids)))) + 8 + 10) / 11 * 11
	keyBits = min(keyBits, 32)
	if grJoinKeyBits > 0 {
		keyBits = grJoinKeyBits
	}
	if sc.seed == (maphash.Seed{}) {
		sc.seed = maphash.MakeSeed()
	}
	seed, drop := sc.seed, 64-keyBits
	nsym := len(p.Symbols)

	// 1. The symbols' name hashes, in input order (sequential reads), sorted.
	symBuf := grow(&sc.symJoin, 2*nsym)
	sy := symBuf[:nsym]
	for i := range p.Symbols {
		sy[i] = joinItem{key: uint32(maphash.String(seed, p.Symbols[i].QualifiedName) >> drop), ref: uint32(i)}
	}
	sy = radixSortJoin(sy, symBuf[nsym:], keyBits)
	// canon[i]: the id of the first symbol in emission order named as
	// symbol i. A name alone under its key is its own; in a run of names
	// sharing a key (rare), in emission order, the first equal name gives it.
	canon := grow(&sc.canon, nsym)
	for i, id := range ids {
		canon[i] = uint32(id)
	}
	for lo := 0; lo < len(sy); {
		hi := lo + 1
		for hi < len(sy) && sy[hi].key == sy[lo].key {
			hi++
		}
		if hi-lo > 1 {
			run := sy[lo:hi]
			slices.SortFunc(run, func(a, b joinItem) int { return cmp.Compare(posOf[a.ref], posOf[b.ref]) })
			for j := 1; j < len(run); j++ {
				name := p.Symbols[run[j].ref].QualifiedName
				for k := 0; k < j; k++ {
					if p.Symbols[run[k].ref].QualifiedName == name {
						canon[run[j].ref] = canon[run[k].ref]
						break
					}
				}
			}
		}
		lo = hi
	}

	cand := grow(&sc.cand, 2*len(p.Edges))
	pending := len(cand)
	if strid.Enabled && sc.joinIdentities(p, canon, cand) {
		pending = 0
		for _, c := range cand {
			if c == grUnjoined {
				pending++
			}
		}
	} else {
		for i := range cand {
			cand[i] = grUnjoined
		}
	}
	if pending == 0 {
		return cand, nil
	}

	// 3. The endpoints left: hash their names, sort, merge with the
	// symbols' keys, compare names within a run of equal keys.
	epBuf := grow(&sc.epJoin, 2*pending)
	ep := epBuf[:0:pending]
	for i := range p.Edges {
		e := &p.Edges[i]
		if cand[2*i] == grUnjoined {
			ep = append(ep, joinItem{key: uint32(maphash.String(seed, e.Source) >> drop), ref: uint32(2 * i)})
		}
		if cand[2*i+1] == grUnjoined {
			ep = append(ep, joinItem{key: uint32(maphash.String(seed, e.Target) >> drop), ref: uint32(2*i + 1)})
		}
	}
	ep = radixSortJoin(ep, epBuf[pending:2*pending], keyBits)
	// named[j]: sy[j]'s name and canon id, filled for the keys endpoints
	// have (a pooled named is all empty: putGrScratch clears it).
	named := grow(&sc.named, nsym)
	for j, k := 0, 0; k < len(ep); {
		h := ep[k].key
		for j < len(sy) && sy[j].key < h {
			j++
		}
		hi := j
		for hi < len(sy) && sy[hi].key == h {
			hi++
		}
		for x := j; x < hi; x++ {
			if named[x].name == "" { // not filled yet (names are never empty)
				sym := sy[x].ref
				named[x] = grNamed{p.Symbols[sym].QualifiedName, canon[sym]}
			}
		}
		for ; k < len(ep) && ep[k].key == h; k++ {
			e := &p.Edges[ep[k].ref/2]
			name := e.Source
			if ep[k].ref%2 == 1 {
				name = e.Target
			}
			c := grNoSymbol
			for x := j; x < hi; x++ {
				if named[x].name == name {
					c = named[x].id
					break
				}
			}
			cand[ep[k].ref] = c
		}
	}
	return cand, nil
}

// joinIdentities resolves the endpoints that are the very string of some
// symbol's name (strid), writing canon ids into cand and grUnjoined
// elsewhere. It first checks a sample of edges and gives up, returning
// false with cand untouched, when few of them share the symbols' strings
// (a payload decoded from JSON, say), where it would only cost time.
//
// The symbols' identities go into an open-addressing table of at most
// about 2^grPartBits symbols: a large payload's symbols and endpoints are
// first partitioned by the top bits of their identities (one pass each,
// sequential writes into a few streams), and the table is filled with one
// partition's symbols at a time and probed by that partition's endpoints,
// so it stays in cache.
func (sc *grScratch) joinIdentities(p *Payload, canon, cand []uint32) bool {
	nsym := len(p.Symbols)
	var part uint // partition bits
	if l := uint(bits.Len(uint(nsym))); l > grPartBits {
		part = l - grPartBits
	}
	nparts := 1 << part
	pshift := 64 - part // f >> pshift is f's partition (0 when part is 0)

	// The symbols, partitioned (when there is more than one partition).
	counts := grow(&sc.partCounts, nparts+1)
	clear(counts)
	for i := range p.Symbols {
		if x, ok := strid.Of(p.Symbols[i].QualifiedName); ok {
			counts[(x*identMul)>>pshift+1]++
		}
	}
	largest := uint32(0)
	for k := 1; k <= nparts; k++ {
		largest = max(largest, counts[k])
		counts[k] += counts[k-1]
	}
	if largest == 0 {
		return false
	}
	symF := grow(&sc.symFull, int(counts[nparts]))
	symI := grow(&sc.symID, len(symF))
	next := grow(&sc.partNext, nparts)
	copy(next, counts[:nparts])
	for i := range p.Symbols {
		if x, ok := strid.Of(p.Symbols[i].QualifiedName); ok {
			f := x * identMul
			k := f >> pshift
			symF[next[k]], symI[next[k]] = f, canon[i]
			next[k]++
		}
	}
	// A table of 2^tb slots, refilled for each partition; a slot holds an
	// identity (0 is empty: no identity multiplies to 0) and its canon id.
	tb := uint(max(4, bits.Len32(2*largest-1)))
	tab := grow(&sc.tab, 1<<tb)
	hshift, mask := 64-tb, uint64(1)<<tb-1
	fill := func(k int) {
		clear(tab)
		for j := counts[k]; j < counts[k+1]; j++ {
			f := symF[j]
			h := (f << part) >> hshift
			for tab[h].f != 0 && tab[h].f != f {
				h = (h + 1) & mask
			}
			if tab[h].f == 0 { // the same string named twice: one canon id
				tab[h] = grIdentSlot{f, symI[j]}
			}
		}
	}
	probe := func(f uint64) uint32 {
		for h := (f << part) >> hshift; ; h = (h + 1) & mask {
			switch sl := &tab[h]; sl.f {
			case f:
				return sl.id
			case 0:
				return grUnjoined
			}
		}
	}

	// The sample: up to 32 sources of partition 0 (a random subset of the
	// names), from edges spread over the payload.
	fill(0)
	step := max(1, len(p.Edges)/(32<<part))
	sampled, hits := 0, 0
	for i := 0; i < len(p.Edges) && sampled < 32; i += step {
		if x, ok := strid.Of(p.Edges[i].Source); ok && (x*identMul)>>pshift == 0 {
			sampled++
			if probe(x*identMul) != grUnjoined {
				hits++
			}
		}
	}
	if sampled > 0 && 4*hits < sampled {
		return false
	}

	// first looks f up in its home slot and the next one alone, without a
	// branch on what it finds, so that the probes of many endpoints overlap
	// in the memory system: the id there (grUnjoined when f is not in the
	// table), and whether the probe must go on past two slots holding
	// other identities (a few percent of the names at this load).
	first := func(f uint64) (c uint32, more int) {
		h := (f << part) >> hshift
		s0, s1 := &tab[h], &tab[(h+1)&mask]
		g0, id0, g1, id1 := s0.f, s0.id, s1.f, s1.id // all read: conditional moves, not branches
		c = grUnjoined
		if g1 == f { // (never with an empty home slot: f would be there)
			c = id1
		}
		if g0 == f {
			c = id0
		}
		return c, grB2i(g0 != f) & grB2i(g0 != 0) & grB2i(g1 != f) & grB2i(g1 != 0)
	}
	if nparts == 1 { // one table, in cache: probe in edge order
		// The endpoints not found in the first two slots, resolved after
		// the pass (pend and their identities pendF, appended without a
		// branch).
		pend := grow(&sc.pend, 2*len(p.Edges))
		pendF := grow(&sc.pendF, len(pend))
		np := 0
		for i := range p.Edges {
			e := &p.Edges[i]
			c, more, f := grUnjoined, 0, uint64(0)
			if x, ok := strid.Of(e.Source); ok {
				f = x * identMul
				c, more = first(f)
			}
			cand[2*i] = c
			pend[np], pendF[np] = uint32(2*i), f
			np += more
			c, more, f = grUnjoined, 0, 0
			if x, ok := strid.Of(e.Target); ok {
				f = x * identMul
				c, more = first(f)
			}
			cand[2*i+1] = c
			pend[np], pendF[np] = uint32(2*i+1), f
			np += more
		}
		for k, j := range pend[:np] {
			cand[j] = probe(pendF[k])
		}
		return true
	}
	// Partition the endpoints, then probe partition by partition.
	ecounts := grow(&sc.partECounts, nparts+1)
	clear(ecounts)
	for i := range p.Edges {
		e := &p.Edges[i]
		if x, ok := strid.Of(e.Source); ok {
			ecounts[(x*identMul)>>pshift+1]++
		} else {
			cand[2*i] = grUnjoined
		}
		if x, ok := strid.Of(e.Target); ok {
			ecounts[(x*identMul)>>pshift+1]++
		} else {
			cand[2*i+1] = grUnjoined
		}
	}
	for k := 1; k <= nparts; k++ {
		ecounts[k] += ecounts[k-1]
	}
	epF := grow(&sc.epFull, int(ecounts[nparts]))
	epR := grow(&sc.epRef, len(epF))
	copy(next, ecounts[:nparts])
	for i := range p.Edges {
		e := &p.Edges[i]
		if x, ok := strid.Of(e.Source); ok {
			f := x * identMul
			k := f >> pshift
			epF[next[k]], epR[next[k]] = f, uint32(2*i)
			next[k]++
		}
		if x, ok := strid.Of(e.Target); ok {
			f := x * identMul
			k := f >> pshift
			epF[next[k]], epR[next[k]] = f, uint32(2*i+1)
			next[k]++
		}
	}
	for k := range nparts {
		if k > 0 {
			fill(k)
		}
		for j := ecounts[k]; j < ecounts[k+1]; j++ {
			cand[epR[j]] = probe(epF[j])
		}
	}
	return true
}

// grIdentSlot is a slot of the identity join's table: an identity times
// identMul (0: empty) and its canon id, side by side so that a probe reads
// one cache line.
type grIdentSlot struct {
	f  uint64
	id uint32
}

// grPartBits: the identity join's table holds at most about 2^grPartBits
// symbols (2^(grPartBits+1) slots of 16 bytes, 512 KB), so that it stays in
// cache while a partition's endpoints probe it. Tests set it lower to make
// many partitions of small payloads.
var grPartBits uint = 14

// identMul spreads a string identity (strid.Of) over all 64 bits; being
// odd, multiplying by it is a bijection, so products are equal exactly when
// the identities are.
const identMul = 0x9E3779B97F4A7C15

// grB2i is 1 for true and 0 for false (compiled without a branch).
func grB2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}
