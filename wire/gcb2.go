package wire

import (
	"encoding/hex"
	"io"
	"math/bits"
	"sync"

	"github.com/gcfkit/gcf"
)

// GCB is GCB version 2: a compact binary layout that carries every
// *gcf.Payload exactly (any string, kind, provenance, edge type, status,
// distance and float64; pack roots; edges to names that are not symbols).
// Its layout is specified byte by byte in docs/wire.md. Decode reads
// version 1 streams too (see DecodeGCB).
//
// Empty and nil slices are the same payload: decoding yields empty,
// non-nil Symbols and Edges. Components are kept as given (nil or not).
type GCB struct {
	// Limits bound Decode (and what Encode writes): MaxElements the symbols
	// and edges (zero: the default), MaxBytes the input and the decoded
	// text (zero: no input limit, and text at most TextBound of the
	// stream's size).
	Limits gcf.Limits
	// Compact makes Encode search the whole window for repeats at every
	// position (an LZ77 match finder) instead of trying one copy per word
	// start: about 9% smaller on signature-heavy payloads (under 1% of
	// their JSON size), 3-5 times slower to encode. Decoding is the same.
	Compact bool
}

func (GCB) Name() string { return "gcb" }
func (GCB) Binary() bool { return true }

func (GCB) Description() string {
	return "GCB version 2: compact, lossless binary for IPC and caches (reads version 1 too)"
}

func (c GCB) Encode(w io.Writer, p *gcf.Payload) error {
	if err := checkEncodeLimits(p, c.Limits); err != nil {
		return err
	}
	e := encPool.Get().(*v2enc)
	b, err := e.append(e.out[:0], p, c.Compact)
	if err == nil {
		err = checkEncodedSize(len(b), e.textLen, c.Limits)
	}
	if err == nil {
		_, err = w.Write(b)
	}
	e.out = b
	e.release()
	return err
}

// Append appends the version 2 encoding of p to dst.
//
// Encode and Append refuse, with the decoder's categories, a payload that
// a decoder with the same Limits would reject (more symbols or edges than
// MaxElements, an encoding larger than MaxBytes).
func (c GCB) Append(dst []byte, p *gcf.Payload) ([]byte, error) {
	if err := checkEncodeLimits(p, c.Limits); err != nil {
		return dst, err
	}
	e := encPool.Get().(*v2enc)
	b, err := e.append(dst, p, c.Compact)
	if err == nil {
		err = checkEncodedSize(len(b)-len(dst), e.textLen, c.Limits)
	}
	e.release()
	if err != nil {
		return dst, err
	}
	return b, nil
}

func (c GCB) Decode(r io.Reader) (*gcf.Payload, error) {
	data, err := readMax(r, c.Limits.MaxBytes)
	if err != nil {
		return nil, err
	}
	return c.DecodeBytes(data)
}

// DecodeBytes decodes a GCB stream of either version held in memory.
func (c GCB) DecodeBytes(data []byte) (*gcf.Payload, error) { return DecodeGCB(data, c.Limits) }

// lzPrimer is the text every version 2 stream's back-references may reach
// before its own text: fragments common in code signatures. It is part of
// the format (docs/wire.md); changing it needs a new version byte.
const lzPrimer = "func (s *) (ctx context.Context, opts ) ([]string, error) (*types.Hash, bool) " +
	"map[string]any []byte int64 float64 interface{} type  struct interface " +
	"def (self, ) -> None: async function (): Promise<void> class  extends  implements public static "

// Version 2 constants.
const (
	v2MinSymbol   = 6   // shared, suffix length, kind, provenance, flags, score
	v2MinEdge     = 3   // source, target, type and status
	v2MaxShared   = 255 // longest prefix a name shares with the previous one
	lzMinMatch    = 4
	lzMaxMatch    = 130
	lzMaxLiteral  = 128
	v2MaxExpand   = 65 // text bytes per input byte, at most (a 2-byte match of 130)
	numSmallMax   = 200
	numDecimalLo  = 0xC9
	numDecimalHi  = 0xEF
	numRaw        = 0xFF
	numDecimalMid = 0xDC // exponent 0
	distEscape    = 63
)

var statusTable = []string{"", "added", "removed", "unchanged"}

var statusIDs = indexOf(statusTable)

// identMinEdges is the fewest edges for which the encoder tries the
// names' identity index (nameTable.indexIdentities): building it costs
// about a lookup per symbol.
const identMinEdges = 32

// v2enc is the pooled state of one encode.
type v2enc struct {
	out  []byte
	nums []uint32 // number codes (numCode)
	wide []wideNum
	ones [1 - minDefaultExponent]int
	// packed and npacked count the one-byte hundredths (numCode).
	packed  uint64
	npacked int
	names   nameTable
	ends    []uint32 // resolved edge endpoints, two per edge
	pend    []uint32 // endpoints not found in their home slot (by identity)
	ext     []string // external endpoint names in order of first use
	extIx   map[string]uint32
	dyn     [4]map[string]uint64
	last    [4]enumEntry
	// lastFP caches the last value of each enum by fingerprint (strings
	// of at most 16 bytes; last holds longer ones).
	lastFP [4]fpEntry
	// dynFP caches dynamic table values of at most 16 bytes by
	// fingerprint, in front of dyn (filled and cleared while dyn[t] is
	// not nil).
	dynFP [4][64]fpEntry
	qpos  []int32 // window position of each symbol's qualified name
	refs  []windowRef
	// LZ state: text mirrors the decoder's arena (primer, then every text).
	lzOn    bool
	wordsOn bool
	words   *[wordSize]int32
	text    []byte
	head    []int32
	prev    []int32
	indexed int
	textLen int // the text bytes of the last encoding
}

var encPool = sync.Pool{New: func() any { return &v2enc{extIx: map[string]uint32{}} }}

func (e *v2enc) release() {
	if cap(e.out) > 1<<20 {
		e.out = nil
	}
	if cap(e.names.slots) > 1<<18 {
		e.names.slots, e.names.names, e.names.ids = nil, nil, nil
	}
	clear(e.names.names) // drop the references to the payload's strings
	clear(e.extIx)
	for i := range e.dyn {
		if e.dyn[i] != nil {
			e.dynFP[i] = [64]fpEntry{}
		}
		e.dyn[i] = nil
		e.last[i].s, e.last[i].id = "", 0
		e.lastFP[i] = fpEntry{}
	}
	clear(e.ext)
	clear(e.refs)
	e.ext, e.refs = e.ext[:0], e.refs[:0]
	e.lzOn = false
	e.wordsOn = false
	e.text = e.text[:0]
	e.prev = e.prev[:0]
	if cap(e.text) > 1<<20 {
		e.text, e.prev = nil, nil
	}
	if cap(e.nums) > 1<<16 {
		e.nums = nil
	}
	if cap(e.wide) > 1<<12 {
		e.wide = nil
	}
	if cap(e.ends) > 1<<17 {
		e.ends, e.pend = nil, nil
	}
	encPool.Put(e)
}

const (
	tabKind = iota
	tabProvenance
	tabEdgeType
	tabStatus
)

var staticTables = [4]struct {
	names []string
	ids   tableIndex
}{{kindTable, kindIDs}, {provenanceTable, provenanceIDs}, {edgeTypeTable, edgeTypeIDs}, {statusTable, statusIDs}}

// enum returns the table value of s: its static or dynamic id, or 0 when
// s is new (the caller writes it as a literal, after which it has the next
// dynamic id).
func (e *v2enc) enum(t int, s string) uint64 {
	// fingerprintOf, its usual cases inline
	var fp fingerprint
	short := true
	switch n := len(s); {
	case n >= 8 && n <= 16:
		fp = fingerprint{load64(s, 0), load64(s, n-8), n}
	case n >= 4 && n < 8:
		fp = fingerprint{uint64(load32(s, 0)) | uint64(load32(s, n-4))<<32, 0, n}
	default:
		fp, short = fingerprintOf(s)
	}
	if short {
		if l := &e.lastFP[t]; l.id != 0 && l.fp == fp {
			return l.id
		}
		if id := staticFPs[t].find(fp); id != 0 {
			e.lastFP[t] = fpEntry{fp, id}
			return id
		}
	} else if l := &e.last[t]; l.id != 0 && l.s == s {
		return l.id
	}
	var dc *fpEntry // the dynamic cache's slot of s
	if short && e.dyn[t] != nil {
		dc = &e.dynFP[t][dynSlot(fp)]
		if dc.id != 0 && dc.fp == fp {
			e.lastFP[t] = *dc
			return dc.id
		}
	}
	id, ok := uint64(0), false
	if !short { // the fingerprints hold every shorter static string
		id, ok = staticID(t, s)
	}
	if !ok {
		if id, ok = e.dyn[t][s]; !ok {
			if e.dyn[t] == nil {
				e.dyn[t] = map[string]uint64{}
				if short {
					dc = &e.dynFP[t][dynSlot(fp)]
				}
			}
			id = uint64(len(staticTables[t].names) + 1 + len(e.dyn[t]))
			e.dyn[t][s] = id
			if dc != nil {
				*dc = fpEntry{fp, id}
			}
			return 0
		}
		if dc != nil {
			*dc = fpEntry{fp, id}
		}
	}
	if short {
		e.lastFP[t] = fpEntry{fp, id}
	} else {
		e.last[t] = enumEntry{s, id}
	}
	return id
}

// fingerprint is a string of at most 16 bytes as its length and two words
// that hold all its bytes: equal fingerprints are equal strings.
type fingerprint struct {
	lo, hi uint64
	n      int
}

// fingerprintOf returns the fingerprint of s, if s has at most 16 bytes.
func fingerprintOf(s string) (fingerprint, bool) {
	switch n := len(s); {
	case n > 16:
		return fingerprint{}, false
	case n >= 8:
		return fingerprint{load64(s, 0), load64(s, n-8), n}, true
	case n >= 4:
		return fingerprint{uint64(load32(s, 0)) | uint64(load32(s, n-4))<<32, 0, n}, true
	default:
		var x uint64
		for i := 0; i < n; i++ {
			x |= uint64(s[i]) << (8 * i)
		}
		return fingerprint{x, 0, n}, true
	}
}

// dynSlot is the slot of a fingerprint in a dynamic cache.
func dynSlot(fp fingerprint) uint64 {
	return ((fp.lo ^ fp.hi*0x9E3779B97F4A7C15) + uint64(fp.n)) * 0xff51afd7ed558ccd >> 58
}

// fpEntry is a table value and the fingerprint of its string.
type fpEntry struct {
	fp fingerprint
	id uint64
}

// fpTable is a direct-mapped table of a static enum table's strings of at
// most 16 bytes, by fingerprint, with a multiplier under which no two
// collide.
type fpTable struct {
	k     uint64
	slots [256]fpEntry
}

func (t *fpTable) slot(fp fingerprint) uint64 {
	return ((fp.lo ^ fp.hi*0x9E3779B97F4A7C15) + uint64(fp.n)) * t.k >> 56
}

// find returns the table value of the string of fp, or 0.
func (t *fpTable) find(fp fingerprint) uint64 {
	if e := &t.slots[t.slot(fp)]; e.fp == fp {
		return e.id // 0 for an empty slot
	}
	return 0
}

var staticFPs = func() (out [4]fpTable) {
	for ti := range staticTables {
		t := &out[ti]
	search:
		for k := uint64(0xff51afd7ed558ccd); ; k += 0x9E3779B97F4A7C16 {
			t.k = k
			t.slots = [256]fpEntry{}
			for i, s := range staticTables[ti].names {
				fp, ok := fingerprintOf(s)
				if !ok {
					continue
				}
				e := &t.slots[t.slot(fp)]
				if e.id != 0 {
					continue search
				}
				*e = fpEntry{fp, uint64(i + 1)}
			}
			break
		}
	}
	return out
}()

// staticBuckets index the static tables by a cheap key of a string (its
// length and first and last bytes), so that a lookup compares one or two
// strings instead of hashing.
var staticBuckets [4][256][]uint8

func staticKey(s string) uint8 { return uint8(len(s)*31 + int(s[0])*7 + int(s[len(s)-1])) }

func init() {
	for t := range staticTables {
		for i, s := range staticTables[t].names {
			if s != "" {
				k := staticKey(s)
				staticBuckets[t][k] = append(staticBuckets[t][k], uint8(i+1))
			}
		}
	}
}

// staticID returns the static table id of s in table t.
func staticID(t int, s string) (uint64, bool) {
	if s == "" {
		if t == tabStatus {
			return statusIDs[""], true
		}
		return 0, false
	}
	names := staticTables[t].names
	for _, id := range staticBuckets[t][staticKey(s)] {
		if names[id-1] == s {
			return uint64(id), true
		}
	}
	return 0, false
}

// enumEntry is a table string and its value, cached by an encoder.
type enumEntry struct {
	s  string
	id uint64
}

func appendString(b []byte, s string) []byte {
	b = appendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendEnum writes s as a table value (uvarint), with its literal when
// it is new.
func (e *v2enc) appendEnum(b []byte, t int, s string) []byte {
	id := e.enum(t, s)
	b = appendUvarint(b, id)
	if id == 0 {
		b = appendString(b, s)
	}
	return b
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func (e *v2enc) append(dst []byte, p *gcf.Payload, compact bool) ([]byte, error) {
	if p == nil {
		return dst, &gcf.SyntaxError{Category: gcf.UnsupportedValue, Msg: "wire/gcb: nil payload"}
	}
	// Numbers first: their default exponent goes in the header.
	e.names.reset(len(p.Symbols))
	nums := e.nums[:0]
	e.wide, e.ones, e.packed, e.npacked = e.wide[:0], [len(e.ones)]int{}, 0, 0
	textLen := 0
	for i := range p.Symbols {
		s := &p.Symbols[i]
		c0 := e.numCode(s.Score)
		if c0 == notHundredth {
			c0 = e.wideCode(s.Score)
		}
		nums = append(nums, c0)
		if c := s.Components; c != nil {
			c1, c2, c3, c4 := e.numCode(c.BlastRadius), e.numCode(c.Confidence), e.numCode(c.Recency), e.numCode(c.Distance)
			if c1|c2|c3|c4 >= notHundredth {
				for _, x := range [...]struct {
					c *uint32
					v float64
				}{{&c1, c.BlastRadius}, {&c2, c.Confidence}, {&c3, c.Recency}, {&c4, c.Distance}} {
					if *x.c == notHundredth {
						*x.c = e.wideCode(x.v)
					}
				}
			}
			nums = append(nums, c1, c2, c3, c4)
		}
		if e.npacked += 5; e.npacked > 511-5 {
			e.flushOnes()
		}
		textLen += len(s.QualifiedName) + len(s.Signature)
		e.names.add(s.QualifiedName)
	}
	e.nums = nums
	E := e.exponent()
	ones := &oneByte[-E]
	// Edge endpoints: symbol indexes, or names outside the symbols.
	ends := e.ends[:0]
	nsym := uint32(len(p.Symbols))
	// Endpoints that are the very strings of the symbols' names (checked
	// on the first edge) are found by identity, without reading them.
	byID := false
	if len(p.Edges) >= identMinEdges {
		if i := e.names.find(p.Edges[0].Source); i >= 0 && sameString(e.names.names[i], p.Edges[0].Source) {
			byID = e.names.indexIdentities()
		}
	}
	// external returns the endpoint of a name that no symbol has.
	external := func(name string) uint32 {
		if k, ok := e.extIx[name]; ok {
			return nsym + k
		}
		k := uint32(len(e.ext))
		e.extIx[name] = k
		e.ext = append(e.ext, name)
		textLen += len(name)
		return nsym + k
	}
	endpoint := func(name string) uint32 {
		if byID {
			if i := e.names.findIdent(name); i >= 0 {
				return uint32(i)
			}
		}
		if i := e.names.find(name); i >= 0 {
			return uint32(i)
		}
		return external(name)
	}
	if byID {
		// Each endpoint looked up in its home slot of the identity index
		// without a branch on what is there, so that the lookups overlap
		// in the memory system; the others (pend, appended without a
		// branch) resolved after, in edge order, which keeps the order of
		// the external names.
		if cap(ends) < 2*len(p.Edges) {
			ends = make([]uint32, 2*len(p.Edges))
		}
		ends = ends[:2*len(p.Edges)]
		if cap(e.pend) < len(ends) {
			e.pend = make([]uint32, len(ends))
		}
		pend := e.pend[:len(ends)]
		np := e.names.homeIdents(p.Edges, ends, pend)
		for _, j := range pend[:np] {
			ed := &p.Edges[j/2]
			name := ed.Source
			if j%2 == 1 {
				name = ed.Target
			}
			ends[j] = endpoint(name)
		}
	} else {
		for i := range p.Edges {
			ed := &p.Edges[i]
			src := uint32(e.names.find(ed.Source))
			if int32(src) < 0 {
				src = external(ed.Source)
			}
			dst := uint32(e.names.find(ed.Target))
			if int32(dst) < 0 {
				dst = external(ed.Target)
			}
			ends = append(ends, src, dst)
		}
	}
	e.ends = ends

	b := append(dst, gcbMagic...)
	b = append(b, gcbVersion2)
	b = appendString(b, p.Tool)
	b = appendUvarint(b, zigzag(int64(p.TokensUsed)))
	b = appendUvarint(b, zigzag(int64(p.TokenBudget)))
	switch pr := p.PackRoot; {
	case pr == "":
		b = append(b, 0)
	case len(pr) == 64 && isLowerHex(pr):
		b = append(b, 1)
		b, _ = hex.AppendDecode(b, []byte(pr)) // checked: 64 lowercase hex digits
	default:
		b = appendUvarint(b, uint64(len(pr))+2)
		b = append(b, pr...)
	}
	b = appendUvarint(b, zigzag(int64(E)))
	b = appendUvarint(b, uint64(textLen))
	e.textLen = textLen
	b = appendUvarint(b, uint64(len(p.Symbols)))
	b = appendUvarint(b, uint64(len(p.Edges)))

	prev := ""
	ni := 0
	wpos := len(lzPrimer) // the decoder's window length
	e.qpos = e.qpos[:0]
	for i := range p.Symbols {
		s := &p.Symbols[i]
		q := s.QualifiedName
		shared := min(commonPrefix(prev, q), v2MaxShared)
		b = appendUvarint(b, uint64(shared))
		b = appendString(b, q[shared:])
		prev = q
		// appendEnum, inline
		if id := e.enum(tabKind, s.Kind); id != 0 {
			b = appendUvarint(b, id)
		} else {
			b = appendString(append(b, 0), s.Kind)
		}
		if id := e.enum(tabProvenance, s.Provenance); id != 0 {
			b = appendUvarint(b, id)
		} else {
			b = appendString(append(b, 0), s.Provenance)
		}
		f := byte(0)
		if s.Signature != "" {
			f |= 1
		}
		if s.Components != nil {
			f |= 2
		}
		if s.Distance >= 0 && s.Distance < distEscape {
			b = append(b, f|byte(s.Distance)<<2)
		} else {
			b = append(b, f|distEscape<<2)
			b = appendUvarint(b, zigzag(int64(s.Distance)))
		}
		if x, ok := oneByteOf(ones, nums[ni]); ok { // appendNumCode, inline
			b = append(b, x)
		} else {
			b = e.appendNumCode(b, nums[ni], E)
		}
		ni++
		qpos := wpos
		e.qpos = append(e.qpos, int32(qpos))
		wpos += len(q)
		switch {
		case s.Signature != "" && compact:
			e.startLZ(p, i)
			e.text = append(e.text, q...)
			start := len(e.text)
			e.text = append(e.text, s.Signature...)
			b = e.lz(b, start)
		case s.Signature != "":
			e.startWords(p, i)
			e.text = append(e.text, q...)
			e.indexName(len(e.text)-len(q), len(e.text)-len(q)+shared)
			start := len(e.text)
			e.text = append(e.text, s.Signature...)
			b = e.wordText(b, start)
		case e.wordsOn:
			e.text = append(e.text, q...)
			e.indexName(len(e.text)-len(q), len(e.text)-len(q)+shared)
		case e.lzOn:
			e.text = append(e.text, q...)
		}
		wpos += len(s.Signature)
		if c := s.Components; c != nil {
			for _, c := range nums[ni : ni+4] {
				if x, ok := oneByteOf(ones, c); ok { // appendNumCode, inline
					b = append(b, x)
				} else {
					b = e.appendNumCode(b, c, E)
				}
			}
			ni += 4
		}
	}
	defined := uint32(0) // external names written so far
	var prevExt windowRef
	// newExternal writes the text of external name x (the next one) of
	// edge i.
	newExternal := func(b []byte, i int, x uint32) []byte {
		name := e.ext[defined]
		if compact {
			e.startLZ(p, len(p.Symbols))
			start := len(e.text)
			e.text = append(e.text, name...)
			b = e.lz(b, start)
		} else {
			// Share a start with the previous external name, the
			// edge's other endpoint or the last symbol.
			e.refs = append(e.refs[:0], prevExt)
			if other := ends[2*i+1]; other < nsym && other != x {
				e.refs = append(e.refs, windowRef{int(e.qpos[other]), p.Symbols[other].QualifiedName})
			}
			if o := ends[2*i]; o < nsym && o != x {
				e.refs = append(e.refs, windowRef{int(e.qpos[o]), p.Symbols[o].QualifiedName})
			}
			if n := len(p.Symbols); n > 0 {
				e.refs = append(e.refs, windowRef{int(e.qpos[n-1]), p.Symbols[n-1].QualifiedName})
			}
			b = prefixText(b, name, wpos, e.refs)
			prevExt = windowRef{wpos, name}
		}
		wpos += len(name)
		defined++
		return b
	}
	for i := range p.Edges {
		ed := &p.Edges[i]
		src, dst := ends[2*i], ends[2*i+1]
		b = appendUvarint(b, uint64(src))
		if src >= nsym && src-nsym == defined {
			b = newExternal(b, i, src)
		}
		b = appendUvarint(b, uint64(dst))
		if dst >= nsym && dst-nsym == defined {
			b = newExternal(b, i, dst)
		}
		t := e.enum(tabEdgeType, ed.EdgeType)
		st := uint64(3)
		switch ed.Status {
		case "":
			st = 0
		case "added":
			st = 1
		case "removed":
			st = 2
		}
		b = appendUvarint(b, t<<2|st)
		if t == 0 {
			b = appendString(b, ed.EdgeType)
		}
		if st == 3 {
			b = e.appendEnum(b, tabStatus, ed.Status)
		}
	}
	return b, nil
}

// startLZ makes e.text hold the primer and the texts of the symbols before
// symbol upTo, the first time a back-reference coding is needed.
func (e *v2enc) startLZ(p *gcf.Payload, upTo int) {
	if e.lzOn {
		return
	}
	e.lzOn = true
	e.text = append(e.text[:0], lzPrimer...)
	for i := 0; i < upTo; i++ {
		e.text = append(e.text, p.Symbols[i].QualifiedName...)
		e.text = append(e.text, p.Symbols[i].Signature...)
	}
	if e.head == nil {
		e.head = make([]int32, 1<<12)
	} else {
		clear(e.head)
	}
	e.prev = e.prev[:0]
	e.indexed = 0
}

func hash4(b []byte) uint32 {
	return (uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24) * 2654435761 >> 20
}

// indexTo enters the positions of e.text before pos into the
// hash chains.
func (e *v2enc) indexTo(pos int) {
	t := e.text
	for ; e.indexed < pos && e.indexed+lzMinMatch <= len(t); e.indexed++ {
		h := hash4(t[e.indexed:])
		for len(e.prev) <= e.indexed {
			e.prev = append(e.prev, 0)
		}
		e.prev[e.indexed] = e.head[h]
		e.head[h] = int32(e.indexed + 1)
	}
}

// lz writes e.text[start:] as a length and back-reference operations.
func (e *v2enc) lz(b []byte, start int) []byte {
	t := e.text
	end := len(t)
	b = appendUvarint(b, uint64(end-start))
	lit := start
	for pos := start; pos < end; {
		if pos+lzMinMatch > end {
			pos++
			continue
		}
		e.indexTo(pos)
		bestLen, bestDist := 0, 0
		cand := e.head[hash4(t[pos:])]
		limit := min(end-pos, lzMaxMatch)
		for n := 0; cand > 0 && n < 8; n++ {
			c := int(cand - 1)
			cand = e.prev[c]
			if t[c+bestLen] != t[pos+bestLen] {
				continue // cannot be longer than the best
			}
			l := 0
			for l < limit && t[c+l] == t[pos+l] {
				l++
			}
			if l > bestLen {
				bestLen, bestDist = l, pos-c
				if l >= 32 || l == limit {
					break
				}
			}
		}
		if bestLen >= lzMinMatch && bestLen > 1+uvarintLen(uint64(bestDist)) {
			b = appendLiterals(b, t[lit:pos])
			b = append(b, 0x80|byte(bestLen-3))
			b = appendUvarint(b, uint64(bestDist))
			pos += bestLen
			lit = pos
			continue
		}
		pos++
	}
	return appendLiterals(b, t[lit:end])
}

func isIdent(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// identByte marks the bytes isIdent accepts.
var identByte = func() (t [256]bool) {
	for c := range t {
		t[c] = isIdent(byte(c))
	}
	return t
}()

// windowRef is a text of the window and its position there.
type windowRef struct {
	pos int
	s   string
}

// commonPrefix returns the length of the longest common start of a and b,
// comparing 8 bytes at a time.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := load64(a, i) ^ load64(b, i); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// load32 returns the 4 bytes of s at i as a little-endian word.
func load32(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// load64 returns the 8 bytes of s at i as a little-endian word.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// appendCopy appends copy operations of n >= 3 bytes from dist back.
func appendCopy(b []byte, n, dist int) []byte {
	for n > lzMaxMatch {
		k := lzMaxMatch
		if n-k < 3 {
			k = n - 3
		}
		b = append(b, 0x80|byte(k-3))
		b = appendUvarint(b, uint64(dist))
		n -= k
	}
	b = append(b, 0x80|byte(n-3))
	return appendUvarint(b, uint64(dist))
}

// prefixText writes s, which starts at window position wpos, as a text:
// a copy of the longest start it shares with one of refs, then literals.
func prefixText(b []byte, s string, wpos int, refs []windowRef) []byte {
	b = appendUvarint(b, uint64(len(s)))
	best, bestPos := 0, 0
	for _, r := range refs {
		if l := commonPrefix(s, r.s); l > best {
			best, bestPos = l, r.pos
		}
	}
	if best < lzMinMatch {
		best = 0
	} else {
		b = appendCopy(b, best, wpos-bestPos)
	}
	return appendLiterals(b, s[best:])
}

func appendLiterals[T string | []byte](b []byte, lit T) []byte {
	for len(lit) > 0 {
		n := min(len(lit), lzMaxLiteral)
		b = append(b, byte(n-1))
		b = append(b, lit[:n]...)
		lit = lit[n:]
	}
	return b
}

// The default signature coding: copies found only at word starts, through
// a small hash table of the 4 bytes that start each word of the window.

const (
	wordBits = 10
	wordSize = 1 << wordBits
)

// load32b returns the 4 bytes of t at i as a little-endian word.
func load32b(t []byte, i int) uint32 {
	t = t[i : i+4]
	return uint32(t[0]) | uint32(t[1])<<8 | uint32(t[2])<<16 | uint32(t[3])<<24
}

// load64b returns the 8 bytes of t at i as a little-endian word.
func load64b(t []byte, i int) uint64 {
	t = t[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

func hashWord(t []byte, i int) uint32 {
	return load32b(t, i) * 2654435761 >> (32 - wordBits)
}

// primerWordTable is the word table of the primer alone: where each word
// start of the primer is (the last one of a hash), 0 for none: the primer
// starts with "func", which a word of another hash cannot match.
var primerWordTable = func() (tab [wordSize]int32) {
	t := []byte(lzPrimer)
	prevIdent := false
	for i := 0; i+4 <= len(t); i++ {
		ident := identByte[t[i]]
		if !(prevIdent && ident) {
			tab[hashWord(t, i)] = int32(i)
		}
		prevIdent = ident
	}
	return tab
}()

// startWords makes e.text hold the primer and the texts of the symbols
// before symbol upTo, with the word table of the primer and those texts'
// names, the first time a signature is coded.
func (e *v2enc) startWords(p *gcf.Payload, upTo int) {
	if e.wordsOn {
		return
	}
	e.wordsOn = true
	if e.words == nil {
		e.words = new([wordSize]int32)
	}
	*e.words = primerWordTable
	e.text = append(e.text[:0], lzPrimer...)
	prev := ""
	for i := 0; i < upTo; i++ {
		q := p.Symbols[i].QualifiedName
		at := len(e.text)
		e.text = append(e.text, q...)
		e.indexName(at, at+min(commonPrefix(prev, q), v2MaxShared))
		e.text = append(e.text, p.Symbols[i].Signature...)
		prev = q
	}
}

// indexName enters into the word table the word starts (see wordText) of
// the qualified name at e.text[at:], in its last path segment (after its
// last '/', if any) and at or after e.text[from].
func (e *v2enc) indexName(at, from int) {
	t := e.text
	last := len(t) - 4
	seg := at
	if j := lastSlash(t, from); j >= 0 {
		seg = j + 1
	}
	tab := e.words
	p := max(seg, from)
	prevIdent := p > seg && identByte[t[p-1]]
	for ; p <= last; p++ {
		ident := identByte[t[p]]
		if !(prevIdent && ident) {
			tab[hashWord(t, p)] = int32(p)
		}
		prevIdent = ident
	}
}

// lastSlash returns the index of the last '/' of t at or after from, or
// -1, reading 8 bytes at a time.
func lastSlash(t []byte, from int) int {
	i := len(t)
	for ; i-8 >= from; i -= 8 {
		x := load64b(t, i-8) ^ '/'*lsb8
		// 0x80 in exactly the bytes of x that are zero
		if z := ^((x&low7 + low7) | x | low7); z != 0 {
			return i - 8 + (63-bits.LeadingZeros64(z))>>3
		}
	}
	for i > from {
		if i--; t[i] == '/' {
			return i
		}
	}
	return -1
}

const (
	lsb8 = 0x0101010101010101
	low7 = 0x7F7F7F7F7F7F7F7F
)

// wordText writes e.text[start:] as a text: at each word start (a byte
// that is not a letter, digit or '_', or one that follows such a byte) a
// copy of the longest run it shares with the last word start of the window
// whose first 4 bytes hash the same, literals between. The word starts it
// passes enter the table.
func (e *v2enc) wordText(b []byte, start int) []byte {
	t := e.text
	end := len(t)
	b = appendUvarint(b, uint64(end-start))
	tab := e.words
	lit := start
	prevIdent := false
	for pos := start; pos+4 <= end; {
		ident := identByte[t[pos]]
		if prevIdent && ident {
			pos++
			continue
		}
		prevIdent = ident
		var l, cand int
		if pos+8 <= end {
			// The candidate's first 4 bytes and the start of the match
			// in one comparison of 8 bytes.
			u := load64b(t, pos)
			h := uint32(u) * 2654435761 >> (32 - wordBits)
			cand = int(tab[h])
			tab[h] = int32(pos)
			x := load64b(t, cand) ^ u
			if uint32(x) != 0 {
				pos++
				continue
			}
			if x != 0 {
				l = bits.TrailingZeros64(x) >> 3
			} else {
				l = 8
				for pos+l+8 <= end {
					if x := load64b(t, cand+l) ^ load64b(t, pos+l); x != 0 {
						l += bits.TrailingZeros64(x) >> 3
						goto matched
					}
					l += 8
				}
				for pos+l < end && t[cand+l] == t[pos+l] {
					l++
				}
			}
		} else {
			w := load32b(t, pos)
			h := w * 2654435761 >> (32 - wordBits)
			cand = int(tab[h])
			tab[h] = int32(pos)
			if load32b(t, cand) != w {
				pos++
				continue
			}
			l = 4
			for pos+l < end && t[cand+l] == t[pos+l] {
				l++
			}
		}
	matched:
		// A copy is taken when it is shorter than its bytes: always when
		// its distance takes at most 2 bytes (l >= 4).
		if dist := pos - cand; l <= lzMaxMatch && dist < 1<<14 {
			if lit < pos {
				b = appendLiterals(b, t[lit:pos])
			}
			if dist < 0x80 {
				b = append(b, 0x80|byte(l-3), byte(dist))
			} else {
				b = append(b, 0x80|byte(l-3), byte(dist)|0x80, byte(dist>>7))
			}
		} else if l > 1+uvarintLen(uint64(dist)) {
			b = appendLiterals(b, t[lit:pos])
			b = appendCopy(b, l, dist)
		} else {
			pos++
			continue
		}
		pos += l
		lit = pos
		prevIdent = identByte[t[pos-1]]
	}
	return appendLiterals(b, t[lit:end])
}
