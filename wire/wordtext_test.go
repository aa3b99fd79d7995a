package wire

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gcfkit/gcf"
)

// The default signature coding and the numbers' fast path, against plain
// definitions: the encoder's output bytes depend on them.

// plainWordStart reports whether t[p] starts a word of a text or name
// segment that starts at t[seg]: the first byte, a byte that is not a
// letter, digit or '_', or one that follows such a byte.
func plainWordStart(t []byte, seg, p int) bool {
	return p == seg || !isIdent(t[p]) || !isIdent(t[p-1])
}

func plainHash(t []byte, p int) uint32 {
	w := uint32(t[p]) | uint32(t[p+1])<<8 | uint32(t[p+2])<<16 | uint32(t[p+3])<<24
	return w * 2654435761 >> (32 - wordBits)
}

// plainSignatures codes the signatures of p as the default encoder does,
// written plainly: the window in one slice, the word table a map from the
// hash to the last position entered (the primer's word starts first), every
// match extended byte by byte.
func plainSignatures(p *gcf.Payload) []byte {
	t := []byte(lzPrimer)
	tab := map[uint32]int{}
	for i := 0; i+4 <= len(t); i++ {
		if plainWordStart(t, 0, i) {
			tab[plainHash(t, i)] = i
		}
	}
	var out []byte
	prev := ""
	for _, s := range p.Symbols {
		q := s.QualifiedName
		at := len(t)
		t = append(t, q...)
		seg := at + bytes.LastIndexByte(t[at:], '/') + 1
		for i := max(seg, at+min(plainCommonPrefix(prev, q), v2MaxShared)); i+4 <= len(t); i++ {
			if plainWordStart(t, seg, i) {
				tab[plainHash(t, i)] = i
			}
		}
		prev = q
		if s.Signature == "" {
			continue
		}
		start := len(t)
		t = append(t, s.Signature...)
		out = appendUvarint(out, uint64(len(s.Signature)))
		lit := start
		for pos := start; pos+4 <= len(t); {
			if !plainWordStart(t, start, pos) {
				pos++
				continue
			}
			h := plainHash(t, pos)
			cand, ok := tab[h]
			tab[h] = pos
			if !ok || !bytes.Equal(t[cand:cand+4], t[pos:pos+4]) {
				pos++
				continue
			}
			l := 0
			for pos+l < len(t) && t[cand+l] == t[pos+l] {
				l++
			}
			if l <= 1+uvarintLen(uint64(pos-cand)) {
				pos++
				continue
			}
			out = appendLiterals(out, t[lit:pos])
			out = appendCopy(out, l, pos-cand)
			pos += l
			lit = pos
		}
		out = appendLiterals(out, t[lit:])
	}
	return out
}

// fastSignatures drives the encoder's word coding over p's symbols as
// append does.
func fastSignatures(p *gcf.Payload) []byte {
	e := &v2enc{}
	var out []byte
	prev := ""
	for i, s := range p.Symbols {
		q := s.QualifiedName
		shared := min(commonPrefix(prev, q), v2MaxShared)
		prev = q
		if s.Signature != "" {
			e.startWords(p, i)
		} else if !e.wordsOn {
			continue
		}
		at := len(e.text)
		e.text = append(e.text, q...)
		e.indexName(at, at+shared)
		if s.Signature != "" {
			start := len(e.text)
			e.text = append(e.text, s.Signature...)
			out = e.wordText(out, start)
		}
	}
	return out
}

func TestWordTextPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	for i := 0; i < 3000; i++ {
		var p *gcf.Payload
		switch i % 3 {
		case 0:
			p = signatureLikePayload(r)
		case 1:
			p = randomPayload(r)
		default: // short texts and names with and without '/', repeats
			p = &gcf.Payload{}
			for j := r.IntN(30); j >= 0; j-- {
				sig := randomName(r)
				if r.IntN(4) == 0 {
					sig = ""
				}
				p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: randomName(r), Signature: sig})
			}
		}
		if got, want := fastSignatures(p), plainSignatures(p); !bytes.Equal(got, want) {
			t.Fatalf("payload %d: the word coding differs from its plain definition\n got %x\nwant %x", i, got, want)
		}
	}
}

// plainExponent is the default exponent of nums by its definition: the
// one in minDefaultExponent..0 under which the most numbers are one byte
// long, the greatest on a tie.
func plainExponent(nums []decimal) int {
	best, bestCount := 0, -1
	for E := 0; E >= minDefaultExponent; E-- {
		n := 0
		for _, d := range nums {
			if _, ok := d.smallLoop(E); ok {
				n++
			}
		}
		if n > bestCount {
			best, bestCount = E, n
		}
	}
	return best
}

// TestNumbersFastPath: the numbers' codes (the hundredths table, the
// packed counts) give the exponent and the bytes of the plain definitions
// (the general shortest-decimal search, smallLoop), on every hundredth,
// its neighbouring doubles and edge values, in lists longer than a flush.
func TestNumbersFastPath(t *testing.T) {
	var vs []float64
	for k := 0; k <= 400; k++ {
		v := float64(k) / 100
		vs = append(vs, v, -v, math.Nextafter(v, 0), math.Nextafter(v, 10), v*1.0000000000000002)
	}
	vs = append(vs, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 2.555, 2.5549999999999997,
		2.55, 2.56, 5e-324, math.MaxFloat64, 1e22, 100, 20, 123456789, 0.1+0.2, 0.001, 0.0001, 1e-6, 1e-7)
	r := rand.New(rand.NewPCG(26, 4))
	for range 20000 {
		vs = append(vs, r.Float64()*3, float64(r.IntN(300))/100+r.NormFloat64()*1e-15, float64(r.IntN(300))/1000)
	}
	for _, v := range vs {
		if d, want := shortestDecimal(v), findDecimal(v); d.m != want.m || d.e != want.e || d.neg != want.neg || d.ok != want.ok {
			t.Fatalf("shortestDecimal(%v) = %+v, want %+v", v, d, want)
		}
	}
	e := &v2enc{}
	for i := 0; i < 400; i++ {
		// Lists of mostly hundredths, of up to 1,600 numbers.
		n := r.IntN(1600)
		if i%4 == 0 {
			n = r.IntN(12)
		}
		list := make([]float64, n)
		for j := range list {
			list[j] = vs[r.IntN(len(vs))]
			if r.IntN(3) > 0 {
				list[j] = float64(r.IntN(300)) / 100
			}
		}
		e.wide, e.ones, e.packed, e.npacked = e.wide[:0], [len(e.ones)]int{}, 0, 0
		codes := make([]uint32, n)
		ds := make([]decimal, n)
		for j, v := range list {
			if codes[j] = e.numCode(v); codes[j] == notHundredth {
				codes[j] = e.wideCode(v)
			}
			if e.npacked++; e.npacked == 511 { // the most e.packed holds
				e.flushOnes()
			}
			ds[j] = findDecimal(v)
		}
		E, want := e.exponent(), plainExponent(ds)
		if E != want {
			t.Fatalf("list %d: exponent %d, want %d", i, E, want)
		}
		for j, v := range list {
			got := e.appendNumCode(nil, codes[j], E)
			var w []byte
			if c, ok := ds[j].smallLoop(E); ok {
				w = []byte{c}
			} else {
				w = appendWideNum(nil, ds[j], v)
			}
			if !bytes.Equal(got, w) {
				t.Fatalf("%v under E=%d: %x, want %x", v, E, got, w)
			}
		}
	}
}

// TestEnumFingerprints: fingerprints are equal exactly when the strings
// are, and the fingerprint tables give the static id of every static
// string of at most 16 bytes and 0 for any other string.
func TestEnumFingerprints(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 5))
	var strs []string
	for ti := range staticTables {
		strs = append(strs, staticTables[ti].names...)
	}
	for _, s := range append([]string(nil), strs...) {
		for i := 0; i <= len(s); i++ {
			strs = append(strs, s[:i], s[i:], s[:i]+"x"+s[i:])
		}
	}
	for range 3000 {
		b := make([]byte, r.IntN(18))
		for i := range b {
			b[i] = "ab\x00\xff"[r.IntN(4)]
		}
		strs = append(strs, string(b))
	}
	for i, a := range strs {
		fa, oka := fingerprintOf(a)
		if oka != (len(a) <= 16) {
			t.Fatalf("fingerprintOf(%q): ok %v", a, oka)
		}
		for _, b := range []string{strs[(i*7+1)%len(strs)], strs[(i+1)%len(strs)], a} {
			fb, okb := fingerprintOf(b)
			if oka && okb && (fa == fb) != (a == b) {
				t.Fatalf("fingerprints of %q and %q: equal %v", a, b, fa == fb)
			}
		}
		if !oka {
			continue
		}
		for ti := range staticTables {
			want, _ := staticID(ti, a)
			if got := staticFPs[ti].find(fa); got != want {
				t.Fatalf("table %d, %q: id %d, want %d", ti, a, got, want)
			}
		}
	}
}

// TestNameTable: the name table gives the first index of every name and -1
// for others, against a map, on random names and on hostile ones (alike in
// their length and last 16 bytes, which the quick hash reads), and switches
// to maphash on the hostile ones instead of probing them all.
func TestNameTable(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 6))
	check := func(names, others []string, wantStrong bool) {
		t.Helper()
		var nt nameTable
		nt.reset(len(names))
		first := map[string]int{}
		for i, s := range names {
			nt.add(s)
			if _, ok := first[s]; !ok {
				first[s] = i
			}
		}
		for _, s := range append(names, others...) {
			want, ok := first[s]
			if !ok {
				want = -1
			}
			if got := nt.find(s); got != want {
				t.Fatalf("find(%q) = %d, want %d", s, got, want)
			}
		}
		if nt.strong != wantStrong {
			t.Fatalf("strong = %v, want %v", nt.strong, wantStrong)
		}
	}
	for range 200 {
		var names, others []string
		for j := r.IntN(300); j >= 0; j-- {
			names = append(names, randomName(r))
			if r.IntN(5) == 0 {
				names = append(names, names[r.IntN(len(names))])
			}
			others = append(others, randomName(r))
		}
		var nt nameTable
		nt.reset(len(names))
		for _, s := range names {
			nt.add(s)
		}
		check(names, others, nt.strong)
	}
	// Hostile: 2,000 names that differ only before their last 16 bytes.
	var names, others []string
	for i := range 2000 {
		names = append(names, fmt.Sprintf("pkg%06d/x.SameSuffixOfSixteen", i))
		others = append(others, fmt.Sprintf("alt%06d/x.SameSuffixOfSixteen", i))
	}
	check(names, others, true)
	// Lookups all alike, of names not in the table: one probe each, from
	// the same slot.
	names, others = names[:0], others[:0]
	for i := range 2000 {
		names = append(names, fmt.Sprintf("github.com/acme/svc/pkg.Symbol%06d", i))
		others = append(others, fmt.Sprintf("pkg%06d/x.SameSuffixOfSixteen", i))
	}
	check(names, others, false)
}

// TestEnumValues: v2enc.enum (its inline fingerprints, caches and dynamic
// tables) gives the table values of the plain definition: a static
// string's id, else the dynamic id of the string's first appearance in
// the stream (0 at that appearance), for streams of static strings, their
// pieces and variants, and random strings of 0-20 bytes.
func TestEnumValues(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 8))
	var pool []string
	for ti := range staticTables {
		for _, s := range staticTables[ti].names {
			pool = append(pool, s, s+"x", "x"+s)
			if len(s) > 1 {
				pool = append(pool, s[1:], s[:len(s)-1])
			}
		}
	}
	for range 300 {
		b := make([]byte, r.IntN(21))
		for i := range b {
			b[i] = "ab_\x00\xff"[r.IntN(5)]
		}
		pool = append(pool, string(b))
	}
	for round := 0; round < 200; round++ {
		e := &v2enc{}
		dyn := [4]map[string]uint64{{}, {}, {}, {}}
		for range r.IntN(400) {
			ti := r.IntN(4)
			s := pool[r.IntN(len(pool))]
			if r.IntN(3) == 0 { // a copy in other memory
				s = string(append([]byte(nil), s...))
			}
			want, ok := staticID(ti, s)
			if !ok {
				if want, ok = dyn[ti][s]; !ok {
					dyn[ti][s] = uint64(len(staticTables[ti].names) + 1 + len(dyn[ti]))
				}
			}
			if got := e.enum(ti, s); got != want {
				t.Fatalf("round %d: enum(%d, %q) = %d, want %d", round, ti, s, got, want)
			}
		}
	}
}
