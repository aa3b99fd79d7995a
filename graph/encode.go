package graph

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/internal/strid"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Encode encodes p as a buffered, canonical graph-profile payload (SPEC
// §3.2, §5, §6, §6a, §16.1) and returns a fresh slice owned by the caller.
//
// Layout:
//
//   - Header `GCF profile=graph`, then ` tool=T` when p.Tool is non-empty,
//     ` budget=N` and ` tokens=N` when nonzero, ` symbols=N` always,
//     ` edges=N` when nonzero and ` pack_root=R` when p.PackRoot is
//     non-empty, in that order.
//   - Symbols grouped by Distance in ascending order (`## targets` 0,
//     `## related` 1, `## extended` 2, `## distance_N` N>2); only non-empty
//     groups get a header. Within a group symbols are ordered by Score
//     descending; ties keep their input order. IDs are assigned after
//     sorting, sequentially from 0 in emission order.
//   - Node lines `@id kind qname score provenance`: kind is KindAbbrev(Kind),
//     score has exactly two decimals, rounded half-to-even on the exact
//     double (0.125 -> 0.12, 0.375 -> 0.38); a result that rounds to
//     negative zero is written 0.00 (SPEC §2.3.1 forbids -0).
//   - `## edges [N]` when there are edges, then `@target<@source type`
//     (plus ` status`) sorted by source ID, target ID, then edge type;
//     ties keep input order. Edge endpoints are qualified names resolved to
//     the first symbol of p.Symbols (input order) with that name.
//
// Errors are *SyntaxError values without position; on error no bytes are
// returned:
//
//   - invalid_node_line: an empty Kind, a QualifiedName or Provenance that
//     is empty or holds whitespace or a control character (other Unicode
//     is written unchanged; see grIsName), a wire kind that is not a bare
//     key (SPEC §4 kind grammar), a negative Distance, or a Tool / PackRoot
//     that is not a valid header value (printable non-whitespace ASCII);
//   - invalid_utf8: a name that is not valid UTF-8 (Offset is the byte
//     offset in it);
//   - out_of_range: a NaN or infinite Score, a negative budget or token
//     count;
//   - invalid_edge_syntax: an edge type that is empty or holds whitespace
//     or a control character, or a Status that holds one (any other
//     Status is written as given; "" is none);
//   - unknown_edge_reference: an edge naming a symbol absent from p. Such an
//     edge is never dropped silently.
//
// Limits: opts are the decoder's options (WithMaxLineBytes, WithMaxElements
// for the symbols of one group and for the edges, WithMaxBytes; the
// decoder's defaults without them), and Encode refuses with the decoder's
// category (line_too_long, too_many_elements, payload_too_large) a payload
// that Decode given the same opts would reject.
//
// p is not modified. A nil p is an error.
func Encode(p *Payload, opts ...Option) ([]byte, error) {
	// appendGraph sizes the output once from the payload, so encoding
	// straight into a new slice is one allocation and no copy.
	c := options.Resolve(opts)
	out, err := appendGraph(nil, p, nil, c.Limits, c.Wire)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AppendEncode appends the canonical encoding of p (see Encode) to dst and
// returns the extended slice, under the limits of opts as Encode. On error
// it returns dst unchanged in length (bytes past len(dst) in its capacity
// may have been overwritten).
func AppendEncode(dst []byte, p *Payload, opts ...Option) ([]byte, error) {
	c := options.Resolve(opts)
	out, err := appendGraph(dst, p, nil, c.Limits, c.Wire)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// grLine is one symbol in emission order: the index into Payload.Symbols,
// its wire ID and whether it is a bare session reference.
type grLine struct {
	sym int
	id  int
	ref bool
}

// grEdge is one resolved edge.
type grEdge struct {
	src, tgt int
	typ      string
	status   string
}

// grSessionPlan lets a session assign IDs and decide references. assign is
// called once per symbol, in emission order, and returns the ID and whether
// the symbol is a bare reference.
type grSessionPlan interface {
	assign(s *Symbol) (id int, ref bool)
}

// appendGraph appends the buffered encoding of p. With a non-nil plan, IDs
// and references come from the session and ` session=true` ends the header.
func appendGraph(dst []byte, p *Payload, plan grSessionPlan, lim stream.Limits, wire stream.Wire) ([]byte, error) {
	if p == nil {
		return dst, lexer.Errorf(lexer.InvalidNodeLine, "nil graph payload")
	}
	if err := grCheckHeader(p.Tool, p.TokenBudget, p.TokensUsed); err != nil {
		return dst, err
	}
	if wire == stream.WireV1 && p.Tool == "" {
		return dst, lexer.Errorf(lexer.MissingProfile, "a v1 graph header requires tool= (SPEC-v1.1 §3): the payload has no Tool")
	}
	if p.PackRoot != "" && !encoder.IsToken(p.PackRoot) {
		return dst, lexer.Errorf(lexer.InvalidNodeLine, "pack_root %q is not a header value (printable non-whitespace ASCII)", p.PackRoot)
	}
	// One pass validates the symbols and sizes their lines (without the
	// ids), so the output is allocated once. Kinds and provenances repeat:
	// a string already validated (the same string, grSeen) is not checked
	// again.
	sc := getGrScratch()
	defer putGrScratch(sc)
	size := 128 + len(p.Tool) + len(p.PackRoot) + 64*8
	longest := len(p.Tool) + len(p.PackRoot) // names on the longest line, roughly
	lineLen := grow(&sc.lineLen, len(p.Symbols))
	cents := grow(&sc.cents, len(p.Symbols)) // scores in hundredths (encoder.ScoreCents; bit 63 the sign)
	var okKinds, okProvs grSeen              // validated
	// Whether every score is exactly its rounded hundredths (the double
	// nearest c/100), and the range of those signed hundredths: then the
	// hundredths order the scores as the doubles do (sortSymbolsCents).
	exact, minC, maxC := true, int64(math.MaxInt64), int64(math.MinInt64)
	for i := range p.Symbols {
		s := &p.Symbols[i]
		if !okKinds.has(s.Kind) || !okProvs.has(s.Provenance) || !grIsName(s.QualifiedName) ||
			math.IsNaN(s.Score) || math.IsInf(s.Score, 0) || s.Distance < 0 {
			if err := grCheckSymbol(s, i); err != nil {
				return dst, err
			}
			okKinds.add(s.Kind)
			okProvs.add(s.Provenance)
		}
		n := len(s.QualifiedName) + len(s.Provenance) + len(s.Kind)
		// '@', four separators and the newline around the id and fields
		lineLen[i] = 6 + len(KindAbbrev(s.Kind)) + len(s.QualifiedName) + len(s.Provenance)
		if c, neg, ok := encoder.ScoreCents(s.Score); ok {
			lineLen[i] += encoder.CentsLen(c, neg)
			if neg {
				c |= 1 << 63
			}
			if exact {
				if float64(c&^(1<<63))/100 == math.Abs(s.Score) {
					v := int64(c &^ (1 << 63))
					if neg {
						v = -v
					}
					minC, maxC = min(minC, v), max(maxC, v)
				} else {
					exact = false
				}
			}
			cents[i] = c
		} else {
			exact = false
			lineLen[i] += encoder.ScoreLen(s.Score)
			cents[i] = grSlowScore
		}
		size += lineLen[i]
		longest = max(longest, n)
	}
	var order, dists []int
	if exact && len(p.Symbols) >= 64 {
		order, dists = sc.sortSymbolsCents(p.Symbols, cents, minC, maxC)
	} else {
		order, dists = sc.sortSymbolsDist(p.Symbols)
	}
	// The ids and group headers, exactly when the ids are the positions.
	for pos, d := range dists {
		if pos == 0 || d != dists[pos-1] {
			size += len(encoder.SectionMark) + 1 + encoder.GroupNameLen(d)
		}
		if plan == nil {
			size += encoder.DigitsLen(pos)
		} else {
			size += 40 // an id of up to 10 digits, or a reference line
		}
	}
	lines := grow(&sc.lines, len(order))
	ids := grow(&sc.ids, len(order)) // ids[i]: symbol i's wire id
	posOf := ids                     // posOf[i]: symbol i's emission position
	if plan != nil {
		posOf = grow(&sc.posOf, len(order))
	}
	for pos, si := range order {
		id, ref := pos, false
		if plan != nil {
			id, ref = plan.assign(&p.Symbols[si])
			posOf[si] = pos
		}
		lines[pos] = grLine{sym: si, id: id, ref: ref}
		ids[si] = id
	}
	edges, shift, edgeBytes, edgeLongest, err := grResolveEdges(sc, p, lines, ids, posOf, wire)
	if err != nil {
		return dst, err
	}
	size += edgeBytes
	longest = max(longest, edgeLongest)
	l := encoder.NewLimiter(lim)
	if err := grCheckElements(p.Symbols, lines, len(edges), &l); err != nil {
		return dst, err
	}
	b := slices.Grow(dst, size)
	if wire == stream.WireV1 {
		b = v1AppendHeaderStart(b, p.Tool, p.TokenBudget, p.TokensUsed)
	} else {
		b = grAppendHeaderStart(b, p.Tool, p.TokenBudget, p.TokensUsed)
	}
	b = encoder.AppendHeaderInt(b, "symbols", int64(len(p.Symbols)))
	// v1 writes the edge count, and the edges section, whenever the
	// payload has edges, even when none resolved (fixture encode/008).
	v1Edges := wire == stream.WireV1 && len(p.Edges) > 0
	if len(edges) > 0 || v1Edges {
		b = encoder.AppendHeaderInt(b, "edges", int64(len(edges)))
	}
	if p.PackRoot != "" {
		b = encoder.AppendHeaderField(b, "pack_root", p.PackRoot)
	}
	if plan != nil {
		b = encoder.AppendHeaderField(b, "session", "true")
	}
	b = encoder.AppendLineEnd(b)

	if plan == nil {
		b = sc.appendNodes(b, p.Symbols, order, dists, lineLen, cents, ids)
	} else {
		group := -1
		for _, ln := range lines {
			s := &p.Symbols[ln.sym]
			if s.Distance != group {
				group = s.Distance
				b = encoder.AppendSectionMark(b)
				b = encoder.AppendGroupName(b, group)
				b = encoder.AppendLineEnd(b)
			}
			if ln.ref {
				b = encoder.AppendRef(b, int64(ln.id))
				b = encoder.AppendPreviouslySent(b)
				continue
			}
			b = grAppendNode(b, ln.id, s)
			b = encoder.AppendLineEnd(b)
		}
	}
	if len(edges) > 0 || v1Edges {
		b = encoder.AppendSection(b, encoder.EdgesSection)
		b = encoder.AppendCount(b, len(edges), false)
		b = encoder.AppendLineEnd(b)
		// The numbered kinds' line ends (` type[ status]` and the newline),
		// kind k's at tailBuf[tails[k-1]:tails[k]].
		tailBuf, tails := sc.tailBuf[:0], append(sc.tails[:0], 0)
		for _, k := range sc.kinds {
			tailBuf = append(encoder.AppendWordSep(tailBuf), k.typ...)
			if k.status != "" && (wire != stream.WireV1 || k.status != "unchanged") { // v1 omits the status "unchanged" (fixture encode/007)
				tailBuf = append(encoder.AppendWordSep(tailBuf), k.status...)
			}
			tailBuf = encoder.AppendLineEnd(tailBuf)
			tails = append(tails, len(tailBuf))
		}
		sc.tailBuf, sc.tails = tailBuf, tails
		for _, k := range edges {
			src, tgt := int(k.key>>shift), int(k.key&(1<<shift-1))
			if wire == stream.WireV1 {
				src, tgt = tgt, src // v1 keys are (target, source): see grResolveEdges
			}
			if k.aux > 0 {
				b = encoder.AppendEdgeRefs(b, int64(tgt), int64(src))
				b = append(b, tailBuf[tails[k.aux-1]:tails[k.aux]]...)
				continue
			}
			e := &p.Edges[k.idx]
			ge := grEdge{src: src, tgt: tgt, typ: e.EdgeType, status: e.Status}
			if wire == stream.WireV1 && ge.status == "unchanged" {
				ge.status = "" // v1 omits the status "unchanged" (fixture encode/007)
			}
			b = grAppendEdge(b, &ge)
		}
	}
	// Besides the names, a line holds at most ~360 bytes (ids, a score of
	// up to 310 digits, separators, header fields): only when that could
	// pass the limit are the lines measured.
	if !l.LineOK(longest + 400) {
		if err := l.Lines(b[len(dst):]); err != nil {
			return dst, err
		}
	}
	if err := l.Size(len(b) - len(dst)); err != nil {
		return dst, err
	}
	return b, nil
}

// appendNodes appends the group headers and node lines of the symbols in
// emission order (order, with their distances dists; ids[i] is symbol i's
// id, its position).
// lineLen[i] is symbol i's line length without its id. The lines are
// placed by offset and written in input order, so the symbols and their
// names are read sequentially, not in emission order; b must have room for
// the whole section.
func (sc *grScratch) appendNodes(b []byte, syms []Symbol, order, dists, lineLen []int, cents []uint64, ids []int) []byte {
	off := grow(&sc.offs, len(syms))
	base := len(b)
	cur := base
	group := -1
	heads := sc.heads[:0]
	for pos, si := range order {
		if d := dists[pos]; d != group {
			group = d
			heads = append(heads, grHead{cur, d})
			cur += len(encoder.SectionMark) + encoder.GroupNameLen(d) + 1
		}
		off[si] = cur
		cur += lineLen[si] + encoder.DigitsLen(pos)
	}
	sc.heads = heads
	if cur > cap(b) {
		b = slices.Grow(b, cur-len(b)) // not reached: the caller sized b from lineLen
	}
	b = b[:cur]
	for _, h := range heads {
		w := encoder.AppendGroupName(encoder.AppendSectionMark(b[h.off:h.off]), h.dist)
		_ = encoder.AppendLineEnd(w)
	}
	for i := range syms {
		o := off[i]
		s := &syms[i]
		if cents[i] == grSlowScore {
			_ = encoder.AppendLineEnd(grAppendNode(b[o:o], ids[i], s))
			continue
		}
		// grAppendNode, with the score rounded in the validation pass
		w := encoder.AppendRef(b[o:o], int64(ids[i]))
		w = append(encoder.AppendWordSep(w), KindAbbrev(s.Kind)...)
		w = append(encoder.AppendWordSep(w), s.QualifiedName...)
		w = encoder.AppendWordSep(w)
		c := cents[i]
		w = encoder.AppendCents(w, c&^(1<<63), c>>63 == 1)
		_ = encoder.AppendLineEnd(append(encoder.AppendWordSep(w), s.Provenance...))
	}
	return b
}

// grSlowScore marks a score appendNodes formats with encoder.AppendScore (|v| >=
// 2^44); no rounded score has every bit set.
const grSlowScore = ^uint64(0)

// grSeen remembers up to 8 strings (kinds, provenances) by identity
// (strid), so that one seen before is known without comparing bytes.
type grSeen struct {
	ids [8]uint64
	n   int
}

// has reports whether s was added (false for a string without identity).
func (g *grSeen) has(s string) bool {
	id, ok := strid.Of(s)
	if !ok {
		return false
	}
	// All eight slots, without an early exit: which one matches varies
	// from symbol to symbol, and a loop that stops there mispredicts.
	// Unused slots hold 0, which is no identity.
	m := g.ids[0] ^ id
	for i := 1; i < len(g.ids); i++ {
		m = min(m, g.ids[i]^id)
	}
	return m == 0
}

// add remembers s, replacing the oldest when full.
func (g *grSeen) add(s string) {
	id, ok := strid.Of(s)
	if !ok || g.has(s) {
		return
	}
	if g.n < len(g.ids) {
		g.ids[g.n] = id
		g.n++
		return
	}
	copy(g.ids[:], g.ids[1:])
	g.ids[len(g.ids)-1] = id
}

// grHead is a group header's offset and distance (appendNodes).
type grHead struct{ off, dist int }

// grCheckElements checks the symbols of each distance group (in emission
// order, lines) and the edges against the element limit.
func grCheckElements(syms []Symbol, lines []grLine, edges int, l *encoder.Limiter) error {
	if err := l.Elements(edges, "edge section"); err != nil {
		return err
	}
	if l.ElementsOK(len(lines)) {
		return nil
	}
	run := 0
	for i, ln := range lines {
		if i > 0 && syms[ln.sym].Distance != syms[lines[i-1].sym].Distance {
			run = 0
		}
		if run++; !l.ElementsOK(run) {
			return l.Elements(run, "symbol group")
		}
	}
	return nil
}

// grOrder returns the indices of syms in emission order: distance
// ascending, score descending, input order for ties. Scores must already
// be finite.
func grOrder(syms []Symbol) []int {
	var sc grScratch // a fresh scratch: the order it returns is owned by the caller
	return sc.sortSymbols(syms)
}

// sortSymbols is grOrder into the scratch's buffers; the result is valid
// until the scratch is reused.
func (sc *grScratch) sortSymbols(syms []Symbol) []int {
	order, _ := sc.sortSymbolsDist(syms)
	return order
}

// sortSymbolsDist is sortSymbols, also returning the distance of each
// symbol in emission order.
func (sc *grScratch) sortSymbolsDist(syms []Symbol) (order, dists []int) {
	order = grow(&sc.order, len(syms))
	dists = grow(&sc.dists, len(syms))
	if len(syms) < 64 {
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			sa, sb := &syms[a], &syms[b]
			if c := cmp.Compare(sa.Distance, sb.Distance); c != 0 {
				return c
			}
			return cmp.Compare(sb.Score, sa.Score)
		})
		for pos, si := range order {
			dists[pos] = syms[si].Distance
		}
		return order, dists
	}
	// Two stable radix sorts: by score descending, then by distance. The
	// items start in input order, so ties keep it.
	items := grow(&sc.items, 2*len(syms))
	a, tmp := items[:len(syms)], items[len(syms):]
	small := true // every distance fits in aux: the second sort need not read syms
	for i := range syms {
		d := syms[i].Distance
		small = small && d <= math.MaxInt32
		a[i] = radixItem{key: descFloatKey(syms[i].Score), idx: int32(i), aux: int32(min(d, math.MaxInt32))}
	}
	a = radixSort(a, tmp, &sc.counts)
	for i := range a {
		if small {
			a[i].key = uint64(a[i].aux)
		} else {
			a[i].key = uint64(syms[a[i].idx].Distance) // non-negative, checked
		}
	}
	if &a[0] == &items[0] {
		tmp = items[len(syms):]
	} else {
		tmp = items[:len(syms)]
	}
	a = radixSort(a, tmp, &sc.counts)
	for i, it := range a {
		order[i], dists[i] = int(it.idx), int(it.key)
	}
	return order, dists
}

// sortSymbolsCents is sortSymbolsDist for scores that are all exactly
// their hundredths: cents[i] is symbol i's |score| in hundredths with the
// sign in bit 63 (as appendGraph computes them) and minC..maxC the range
// of the signed hundredths. Distinct hundredths are distinct doubles in
// the same order, so one radix sort on (distance, maxC - hundredths),
// which spans a few bits, orders the symbols as the doubles would.
// Distances too large to share the key with the scores fall back to
// sortSymbolsDist.
func (sc *grScratch) sortSymbolsCents(syms []Symbol, cents []uint64, minC, maxC int64) (order, dists []int) {
	sb := uint(bits.Len64(uint64(maxC - minC)))
	maxD := 0
	for i := range syms {
		maxD = max(maxD, syms[i].Distance)
	}
	if uint(bits.Len(uint(maxD)))+sb > 64 {
		return sc.sortSymbolsDist(syms)
	}
	order = grow(&sc.order, len(syms))
	dists = grow(&sc.dists, len(syms))
	items := grow(&sc.items, 2*len(syms))
	a, tmp := items[:len(syms)], items[len(syms):]
	for i := range syms {
		c := cents[i]
		v := int64(c &^ (1 << 63))
		if c>>63 == 1 {
			v = -v
		}
		a[i] = radixItem{key: uint64(syms[i].Distance)<<sb | uint64(maxC-v), idx: int32(i)}
	}
	a = radixSort(a, tmp, &sc.counts)
	for i, it := range a {
		order[i], dists[i] = int(it.idx), int(it.key>>sb)
	}
	return order, dists
}

// grFirstByName maps each qualified name to the index of its first symbol
// in emission order (grOrder). Edges name symbols by qualified name, so
// when two symbols share one (different kinds), an edge means the one
// emitted first; resolving in emission rather than input order keeps
// Decode(Encode(p)) resolving every edge to the same symbol, so the wire is
// a fixed point and the pack root survives the round trip.
func grFirstByName(syms []Symbol, order []int) *nameIndex {
	return grIndexNames(newNameIndex(len(syms)), syms, order)
}

func grIndexNames(x *nameIndex, syms []Symbol, order []int) *nameIndex {
	for _, i := range order {
		x.add(syms[i].QualifiedName, i)
	}
	return x
}

// grResolveEdges validates p.Edges, maps their endpoints to the wire IDs
// of lines (the symbols in emission order) and returns them sorted by
// source ID, target ID, edge type and status: each item packs source and
// target ids in its key and indexes p.Edges. On WireV1 the key packs
// (target, source), the order v1 lines are written and sorted in. It also
// returns the bytes the edge types and statuses add to the output and the
// longest of them.
//
// An endpoint names the first symbol in emission order with that
// qualified name. Names are matched without a table of all names that
// would have to stay in cache (joinNames):
//
//  1. The symbols' name hashes are radix-sorted; runs of equal hashes give
//     each symbol the id of the first symbol with its name (canon).
//  2. An endpoint that is the very string of a symbol's name (same memory,
//     same length: strid) takes that symbol's canon id. Edges built from
//     the symbols, and decoded payloads, share their strings this way; the
//     join compares 64-bit identities, not names, in cache-sized tables
//     (partitioned by the identities' top bits at scale).
//  3. The other endpoints are hashed, radix-sorted and merged with the
//     symbols' hashes, and compared by name.
func grResolveEdges(sc *grScratch, p *Payload, lines []grLine, ids, posOf []int, wire stream.Wire) (keys []radixItem, shift uint, edgeBytes, longest int, err error) {
	if len(p.Edges) == 0 {
		return nil, 0, 0, 0, nil
	}
	if len(p.Edges) > math.MaxInt32 || len(lines) > math.MaxInt32 {
		return nil, 0, 0, 0, encoder.ElementsError(len(p.Edges), "edge section", math.MaxInt32)
	}
	// Pack (source, target) into as few bits as the largest id needs, so
	// the radix sort makes as few passes as possible.
	maxID := 1
	for i := range lines {
		maxID = max(maxID, lines[i].id)
	}
	if uint64(maxID) > maxSymbolID {
		limit := maxSymbolID // a variable: the constant does not fit a 32-bit int, where this cannot happen
		return nil, 0, 0, 0, encoder.ElementsError(maxID, "symbol id", int(limit))
	}
	shift = uint(bits.Len(uint(maxID)))
	cand, err := sc.joinNames(p, ids, posOf)
	if err != nil {
		return nil, 0, 0, 0, err
	}

	items := grow(&sc.items, 2*len(p.Edges))
	keys = items[:0:len(p.Edges)]
	// The few distinct (type, status) pairs get a number in sc.kinds; a
	// pair is validated when it is numbered, and the edge lines are written
	// from sc.kinds without reading p.Edges again. Past 64 pairs, the
	// others are validated edge by edge (aux 0).
	sc.kinds, sc.kindIDs = sc.kinds[:0], sc.kindIDs[:0]
	// A direct-mapped cache of the kinds found by identity, so that the
	// common edge finds its kind with one predictable comparison.
	var cache [64]grKindSlot
	for i := range p.Edges {
		e := &p.Edges[i]
		aux := int32(0)
		// The kind by identity first (inlined findKind for the common case).
		if t, ok := strid.Of(e.EdgeType); ok {
			if st, ok := strid.Of(e.Status); ok || e.Status == "" {
				sl := &cache[((t+3*st)*identMul)>>58]
				if sl.typ == t && sl.status == st && sl.aux != 0 {
					aux = sl.aux
				} else {
					for j, k := range sc.kindIDs {
						if k.typ == t && k.status == st {
							aux = int32(j + 1)
							*sl = grKindSlot{grKindID{t, st}, aux}
							break
						}
					}
				}
			}
		}
		if aux == 0 {
			aux = sc.findKind(e)
		}
		if aux == 0 {
			ce := e
			if wire == stream.WireV1 && e.Status == "unchanged" {
				c := *e // v1 omits the status "unchanged" (fixture encode/007)
				c.Status, ce = "", &c
			}
			if err := grCheckEdge(ce, i); err != nil {
				return nil, 0, 0, 0, err
			}
			aux = sc.addKind(e)
		}
		longest = max(longest, len(e.EdgeType)+len(e.Status))
		src, tgt := cand[2*i], cand[2*i+1]
		if wire == stream.WireV1 && (src == grNoSymbol || tgt == grNoSymbol) {
			continue // v1 encoders skip an edge to a symbol not in the payload (fixture encode/008)
		}
		if src == grNoSymbol {
			return nil, 0, 0, 0, lexer.Errorf(lexer.UnknownEdgeReference, "edge %d: source %q is not a symbol of the payload", i, e.Source)
		}
		if tgt == grNoSymbol {
			return nil, 0, 0, 0, lexer.Errorf(lexer.UnknownEdgeReference, "edge %d: target %q is not a symbol of the payload", i, e.Target)
		}
		if wire == stream.WireV1 {
			// v1 lines read @target<@source, and v1 encoders order them as
			// written: by target ID, then source ID (fixtures encode/007 and
			// 010; docs/legacy-v1.md on SPEC-v1.4 §12.1's wording).
			src, tgt = tgt, src
		}
		// `@tgt<@src type[ status]` and the newline
		edgeBytes += 5 + encoder.DigitsLen(int(src)) + encoder.DigitsLen(int(tgt)) + len(e.EdgeType)
		if e.Status != "" && (wire != stream.WireV1 || e.Status != "unchanged") {
			edgeBytes += 1 + len(e.Status)
		}
		keys = append(keys, radixItem{key: uint64(src)<<shift | uint64(tgt), idx: int32(i), aux: aux})
	}
	// Radix-sort compact keys (source id, target id: ids fit in 32 bits),
	// then order runs of equal keys by type and status. Equal edges are
	// identical on the wire, so the result is deterministic.
	if len(keys) == 0 {
		return keys, shift, edgeBytes, longest, nil // v1: every edge skipped
	}
	keys = radixSort(keys, items[len(p.Edges):len(p.Edges)+len(keys)], &sc.counts)
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi].key == keys[lo].key {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(keys[lo:hi], func(a, b radixItem) int {
				ea, eb := &p.Edges[a.idx], &p.Edges[b.idx]
				if c := cmp.Compare(ea.EdgeType, eb.EdgeType); c != 0 {
					return c
				}
				return cmp.Compare(ea.Status, eb.Status)
			})
		}
		lo = hi
	}
	return keys, shift, edgeBytes, longest, nil
}

// grCheckHeader validates the header fields shared by buffered, session,
// streaming and delta payloads.
func grCheckHeader(tool string, budget, tokens int) error {
	if tool != "" && !encoder.IsToken(tool) {
		return lexer.Errorf(lexer.InvalidNodeLine, "tool %q is not a header value (printable non-whitespace ASCII)", tool)
	}
	if budget < 0 {
		return lexer.Errorf(lexer.OutOfRange, "token budget %d is negative", budget)
	}
	if tokens < 0 {
		return lexer.Errorf(lexer.OutOfRange, "tokens used %d is negative", tokens)
	}
	return nil
}

// grAppendHeaderStart appends `GCF profile=graph` with the optional tool,
// budget and tokens fields (each only when set).
func grAppendHeaderStart(b []byte, tool string, budget, tokens int) []byte {
	b = encoder.AppendHeader(b, "graph")
	if tool != "" {
		b = encoder.AppendHeaderField(b, "tool", tool)
	}
	if budget != 0 {
		b = encoder.AppendHeaderInt(b, "budget", int64(budget))
	}
	if tokens != 0 {
		b = encoder.AppendHeaderInt(b, "tokens", int64(tokens))
	}
	return b
}

// grCheckSymbol validates everything a node line carries. i is the
// symbol's input index, for the message.
func grCheckSymbol(s *Symbol, i int) error {
	if s.Kind == "" {
		return lexer.Errorf(lexer.InvalidNodeLine, "symbol %d (%q): empty kind", i, s.QualifiedName)
	}
	if k := KindAbbrev(s.Kind); !lexer.IsBareKey(k) {
		return lexer.Errorf(lexer.InvalidNodeLine, "symbol %d (%q): kind %q is not a bare key (SPEC §4 kind grammar)", i, s.QualifiedName, k)
	}
	if !grIsName(s.QualifiedName) {
		return grNameErr(lexer.InvalidNodeLine, "symbol "+strconv.Itoa(i)+": qualified name", s.QualifiedName)
	}
	if !grIsName(s.Provenance) {
		return grNameErr(lexer.InvalidNodeLine, "symbol "+strconv.Itoa(i)+" ("+strconv.Quote(s.QualifiedName)+"): provenance", s.Provenance)
	}
	if math.IsNaN(s.Score) || math.IsInf(s.Score, 0) {
		return lexer.Errorf(lexer.OutOfRange, "symbol %d (%q): non-finite score %v", i, s.QualifiedName, s.Score)
	}
	if s.Distance < 0 {
		return lexer.Errorf(lexer.InvalidNodeLine, "symbol %d (%q): negative distance %d", i, s.QualifiedName, s.Distance)
	}
	return nil
}

// grCheckEdge validates the edge type and status of an edge.
func grCheckEdge(e *Edge, i int) error {
	if !grIsName(e.EdgeType) {
		return grNameErr(lexer.InvalidEdgeSyntax, "edge "+strconv.Itoa(i)+" ("+e.Source+" -> "+e.Target+"): edge type", e.EdgeType)
	}
	if e.Status != "" && !grIsName(e.Status) {
		return grNameErr(lexer.InvalidEdgeSyntax, "edge "+strconv.Itoa(i)+" ("+e.Source+" -> "+e.Target+"): status", e.Status)
	}
	return nil
}

// grIsName reports whether s may be a qualified name, provenance or edge
// type: a non-empty string of Unicode scalar values other than whitespace
// (White_Space) and controls (C0, DEL, C1). Node, edge and delta lines are
// split on spaces over code points (SPEC §2.4); the ABNF's %x21-7E is
// narrower, but the official fixture graph-decode/004 and the reference
// SDKs accept other code points (docs/ records the contradiction). ASCII
// names take grIsToken's fast path.
func grIsName(s string) bool {
	return encoder.IsToken(s) || (s != "" && grNameBad(s) < 0)
}

// grNameBad returns the offset of the first byte of s that begins a
// character a name may not hold, or invalid UTF-8; -1 if there is none.
func grNameBad(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7F {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r <= 0x9F || unicode.Is(unicode.White_Space, r) {
			return i
		}
		i += size
	}
	return -1
}

// grNameErr explains why s, which what names, is not a valid name (see
// grIsName): invalid_surrogate for the bytes of a surrogate code point,
// invalid_utf8 for other invalid UTF-8 (both with the byte offset in
// Offset), or category c.
func grNameErr(c lexer.Category, what, s string) error {
	if s == "" {
		return lexer.Errorf(c, "%s is empty", what)
	}
	i := grNameBad(s)
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		if lexer.IsEncodedSurrogate([]byte(s[i:])) {
			return &lexer.SyntaxError{Category: lexer.InvalidSurrogate, Offset: int64(i),
				Msg: what + " " + strconv.Quote(s) + " holds a UTF-16 surrogate code point at offset " + strconv.Itoa(i) +
					" (U+D800-U+DFFF are not Unicode scalar values, SPEC §2.2)"}
		}
		return &lexer.SyntaxError{Category: lexer.InvalidUTF8, Offset: int64(i),
			Msg: what + " " + strconv.Quote(s) + " is not valid UTF-8: invalid byte at offset " + strconv.Itoa(i)}
	}
	return &lexer.SyntaxError{Category: c, Offset: int64(i),
		Msg: fmt.Sprintf("%s %q holds %U at byte %d: names may hold any character but whitespace and controls", what, s, r, i)}
}

// grAppendNode appends `@id kind qname score provenance` (no newline). The
// symbol must have passed grCheckSymbol.
func grAppendNode(b []byte, id int, s *Symbol) []byte {
	b = encoder.AppendRef(b, int64(id))
	b = append(encoder.AppendWordSep(b), KindAbbrev(s.Kind)...)
	b = append(encoder.AppendWordSep(b), s.QualifiedName...)
	b = encoder.AppendScore(encoder.AppendWordSep(b), s.Score)
	return append(encoder.AppendWordSep(b), s.Provenance...)
}

// AppendScore appends the score v as the graph wire writes it (SPEC §5):
// exactly two decimals, rounded half to even on the exact binary value, no
// minus sign on a result of zero. v must be finite. It is
// encoder.AppendScore.
func AppendScore(b []byte, v float64) []byte { return encoder.AppendScore(b, v) }

// grAppendEdge appends `@target<@source type[ status]` and a newline.
func grAppendEdge(b []byte, e *grEdge) []byte {
	b = encoder.AppendEdgeRefs(b, int64(e.tgt), int64(e.src))
	b = append(encoder.AppendWordSep(b), e.typ...)
	if e.status != "" {
		b = append(encoder.AppendWordSep(b), e.status...)
	}
	return encoder.AppendLineEnd(b)
}

// grScratch holds the working arrays of one graph encode. They are pooled,
// so encoding a large payload again allocates only its output.
type grScratch struct {
	order   []int
	dists   []int
	lineLen []int
	cents   []uint64
	offs    []int
	ids     []int
	posOf   []int
	heads   []grHead
	lines   []grLine
	items   []radixItem
	counts  []int32 // radixSort's digit counts

	// The joins of edge endpoints with symbol names (grResolveEdges).
	seed    maphash.Seed
	symJoin []joinItem
	epJoin  []joinItem
	canon   []uint32
	// The identity join (joinIdentities).
	partCounts  []uint32
	partECounts []uint32
	partNext    []uint32
	symFull     []uint64
	symID       []uint32
	tab         []grIdentSlot
	epFull      []uint64
	epRef       []uint32
	pend        []uint32 // endpoints probed past their home slot
	pendF       []uint64 // their identities (times identMul)
	cand        []uint32
	named       []grNamed
	kinds       []grEdgeKind // distinct (type, status) pairs; radixItem.aux is index+1
	kindIDs     []grKindID   // their identities (strid), when they have them
	tailBuf     []byte       // their line ends (appendGraph)
	tails       []int
}

// grJoinKeyBits, when set by a test, replaces the join's key size (a few
// bits make many names share a key).
var grJoinKeyBits uint

// grNamed is a symbol's qualified name and the canon id of that name.
type grNamed struct {
	name string
	id   uint32
}

// grEdgeKind is an edge's type and status.
type grEdgeKind struct{ typ, status string }

// grKindID is an edge kind's type and status identities (strid.Of; 0 for
// none), which find an edge's kind without comparing bytes.
type grKindID struct{ typ, status uint64 }

// grKindSlot is a slot of grResolveEdges' kind cache: a kind's identities
// and its number (0: empty).
type grKindSlot struct {
	grKindID
	aux int32
}

// findKind returns the number (index+1) of e's type and status in
// sc.kinds, or 0.
func (sc *grScratch) findKind(e *Edge) int32 {
	if t, ok := strid.Of(e.EdgeType); ok {
		st, ok := strid.Of(e.Status)
		if ok || e.Status == "" { // no status has the identity 0
			for i, k := range sc.kindIDs {
				if k.typ == t && k.status == st {
					return int32(i + 1)
				}
			}
		}
	}
	for i, k := range sc.kinds {
		if k.typ == e.EdgeType && k.status == e.Status {
			return int32(i + 1)
		}
	}
	return 0
}

// addKind numbers e's type and status (validated) in sc.kinds while there
// are few and returns the number; 0 when there are too many.
func (sc *grScratch) addKind(e *Edge) int32 {
	if len(sc.kinds) == 64 {
		return 0
	}
	sc.kinds = append(sc.kinds, grEdgeKind{e.EdgeType, e.Status})
	t, _ := strid.Of(e.EdgeType)
	st, ok := strid.Of(e.Status)
	if !ok && e.Status != "" {
		t = 0 // a status without an identity: found by comparing bytes only
	}
	sc.kindIDs = append(sc.kindIDs, grKindID{t, st})
	return int32(len(sc.kinds))
}

// maxScratchItems bounds what a pooled scratch may keep (in elements of
// its largest array, twice the edge count); a scratch grown past it is
// dropped. It keeps the working arrays of payloads up to 2M edges (about
// 230 MB at that size), so encoding large payloads one after another does
// not allocate and clear them afresh each time, which cost more than the
// encode itself at 500k symbols (docs/benchmarks.md, "Scaling"). A pooled
// scratch is freed by the garbage collector when it goes unused for two
// collection cycles (sync.Pool).
const maxScratchItems = 1 << 22

var grScratchPool = sync.Pool{New: func() any { return new(grScratch) }}

func getGrScratch() *grScratch { return grScratchPool.Get().(*grScratch) }

func putGrScratch(sc *grScratch) {
	if cap(sc.items) > maxScratchItems || cap(sc.epJoin) > maxScratchItems || cap(sc.epFull) > maxScratchItems || cap(sc.pend) > maxScratchItems || cap(sc.pendF) > maxScratchItems {
		return
	}
	// The pool must not keep the caller's names alive.
	clear(sc.named[:cap(sc.named)])
	clear(sc.kinds[:cap(sc.kinds)])
	grScratchPool.Put(sc)
}

// grow returns (*buf)[:n], reallocating only when the capacity is short.
// Callers overwrite every element they read.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// maxSymbolID is the largest symbol id the edge join packs: two ids share
// a 64-bit sort key, and the two values above it are sentinels.
const maxSymbolID uint64 = math.MaxUint32 - 2
