package wire

import (
	"hash/maphash"
	"math/bits"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/strid"
)

// nameTable maps the qualified names of a payload's symbols to the index of
// the first symbol with that name: open addressing over slots that hold
// the index+1 and 32 bits of the name's hash (compared before the name),
// with the names in a compact slice. It is faster than a map[string]int32
// on the 40,000 endpoint lookups of a large graph.
//
// The hash first reads only a name's length and last 16 bytes (quickHash),
// where the names of one payload differ. Names alike there collide, so a
// probe longer than maxProbe switches the table to a seeded hash of the
// whole name (maphash) for the rest of the encode, rebuilding it: a hostile
// payload costs one rebuild, never a quadratic encode.
type nameTable struct {
	seed   maphash.Seed
	slots  []uint64 // hash<<32 | index+1; 0 is empty
	names  []string
	mask   uint64
	strong bool // the slots are by maphash
	dups   bool // two names are equal (the identity index is not built)
	// The identity index (indexIdentities): each name's string identity
	// (strid) times identMul, and its index.
	ids    []identSlot
	idMask uint64
	idHash uint // f >> idHash is an identity's home slot
}

// identSlot is a slot of the identity index: an identity times identMul
// (0: empty, as no identity multiplies to 0) and the name's index.
type identSlot struct {
	f uint64
	i uint32
}

// identMul spreads a string identity over 64 bits; being odd, multiplying
// by it is a bijection, so products are equal exactly when identities are.
const identMul = 0x9E3779B97F4A7C15

// maxProbe is the longest probe of the quick hash before the table
// switches to maphash (the table is at most half full, so a probe of a
// good hash is rarely past a few slots).
const maxProbe = 24

// quickHash hashes the length and the last 16 bytes of s.
func quickHash(s string) uint64 {
	n := len(s)
	var a, b uint64
	if n >= 16 {
		a, b = load64(s, n-8), load64(s, n-16)
	} else {
		for i := 0; i < n; i++ {
			if i < 8 {
				a |= uint64(s[i]) << (8 * i)
			} else {
				b |= uint64(s[i]) << (8 * (i - 8))
			}
		}
	}
	return quickMix(a, b, n)
}

// quickMix is quickHash of a string of n bytes whose last 16 bytes (or
// all, zero-padded) are the words a (the last 8) and b.
func quickMix(a, b uint64, n int) uint64 {
	h := a*0x9E3779B97F4A7C15 ^ b*0xC2B2AE3D27D4EB4F ^ uint64(n)
	h ^= h >> 29
	h *= 0x94D049BB133111EB
	return h ^ h>>32
}

// hash returns the table's hash of s. (find and insert hash names of 16
// bytes or more, all of a code graph's, without calling it.)
func (t *nameTable) hash(s string) uint64 {
	if t.strong {
		return maphash.String(t.seed, s)
	}
	return quickHash(s)
}

func (t *nameTable) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if cap(t.slots) >= size {
		t.slots = t.slots[:size]
		clear(t.slots)
	} else {
		t.slots = make([]uint64, size)
	}
	t.mask = uint64(size - 1)
	t.names = t.names[:0] // cleared by the encoder's release
	t.strong = false
	t.dups = false
}

// add enters s as the name of the next index unless s is already present
// (insert, inline for names of 16 bytes or more).
func (t *nameTable) add(s string) {
	t.names = append(t.names, s)
	i := len(t.names) - 1
	n := len(s)
	if n < 16 || t.strong {
		if !t.insert(i) && !t.strong {
			t.rehash()
		}
		return
	}
	h := quickMix(load64(s, n-8), load64(s, n-16), n)
	tag := h >> 32 << 32
	for j, k := h&t.mask, 0; ; j, k = (j+1)&t.mask, k+1 {
		v := t.slots[j]
		if v == 0 {
			t.slots[j] = tag | uint64(i+1)
			return
		}
		if v&^0xFFFFFFFF == tag && t.names[uint32(v)-1] == s {
			t.dups = true
			return
		}
		if k == maxProbe {
			t.rehash()
			return
		}
	}
}

// insert enters names[i] unless it is present; it reports false, without
// entering it, when the quick hash probed past maxProbe.
func (t *nameTable) insert(i int) bool {
	s := t.names[i]
	var h uint64
	if n := len(s); n >= 16 && !t.strong { // hash, inline
		h = quickMix(load64(s, n-8), load64(s, n-16), n)
	} else {
		h = t.hash(s)
	}
	tag := h >> 32 << 32
	for j, n := h&t.mask, 0; ; j, n = (j+1)&t.mask, n+1 {
		v := t.slots[j]
		if v == 0 {
			t.slots[j] = tag | uint64(i+1)
			return true
		}
		if v&^0xFFFFFFFF == tag && t.names[uint32(v)-1] == s {
			t.dups = true
			return true
		}
		if n == maxProbe && !t.strong {
			return false
		}
	}
}

// rehash switches the table to maphash and enters every name again.
func (t *nameTable) rehash() {
	if t.seed == (maphash.Seed{}) {
		t.seed = maphash.MakeSeed()
	}
	t.strong = true
	clear(t.slots)
	for i := range t.names {
		t.insert(i)
	}
}

// find returns the index of the first name equal to s, or -1.
func (t *nameTable) find(s string) int {
	var h uint64
	if n := len(s); n >= 16 && !t.strong { // hash, inline
		h = quickMix(load64(s, n-8), load64(s, n-16), n)
	} else {
		h = t.hash(s)
	}
	tag := h >> 32 << 32
	for j, n := h&t.mask, 0; ; j, n = (j+1)&t.mask, n+1 {
		v := t.slots[j]
		if v == 0 {
			return -1
		}
		if v&^0xFFFFFFFF == tag && t.names[uint32(v)-1] == s {
			return int(uint32(v) - 1)
		}
		if n == maxProbe && !t.strong {
			t.rehash()
			return t.find(s)
		}
	}
}

// indexIdentities builds an index of the names by string identity (strid:
// the same memory and length), for payloads whose edge endpoints are the
// very strings of their symbols' names (built in memory, or decoded by a
// decoder that shares them), so that findIdent finds them without reading
// their bytes. It reports false, building nothing, when identities are
// unavailable (purego) or two names are equal: then the index of a string
// would not always be the first of its name.
func (t *nameTable) indexIdentities() bool {
	if !strid.Enabled || t.dups || len(t.names) == 0 {
		return false
	}
	size := 16
	for size < 2*len(t.names) {
		size <<= 1
	}
	if cap(t.ids) >= size {
		t.ids = t.ids[:size]
		clear(t.ids)
	} else {
		t.ids = make([]identSlot, size)
	}
	t.idMask = uint64(size - 1)
	t.idHash = uint(64 - bits.TrailingZeros(uint(size)))
	for i, s := range t.names {
		x, ok := strid.Of(s)
		if !ok {
			continue
		}
		f := x * identMul
		for h := f >> t.idHash; ; h = (h + 1) & t.idMask {
			if sl := &t.ids[h]; sl.f == 0 {
				*sl = identSlot{f, uint32(i)}
				break
			}
			// (an equal identity is an equal name: not with !dups)
		}
	}
	return true
}

// findIdent returns the index of the name that is the very string s
// (after indexIdentities reported true), or -1: s may still equal a name
// held in other memory (find).
func (t *nameTable) findIdent(s string) int {
	x, ok := strid.Of(s)
	if !ok {
		return -1
	}
	f := x * identMul
	for h := f >> t.idHash; ; h = (h + 1) & t.idMask {
		switch sl := &t.ids[h]; sl.f {
		case f:
			return int(sl.i)
		case 0:
			return -1
		}
	}
}

// homeIdents looks every endpoint of edges up in its home slot of the
// identity index alone (after indexIdentities reported true), reading the
// slot without a branch on what it holds, so that the lookups of many
// endpoints overlap in the memory system. Endpoint k (2i the source of
// edge i, 2i+1 its target) found there gets its index in ends[k]; the
// others (further on, a copy of a name, no name: findIdent and find tell)
// are listed in pend, in order, and counted in the result. ends and pend
// hold 2*len(edges).
func (t *nameTable) homeIdents(edges []gcf.Edge, ends, pend []uint32) int {
	ids, shift := t.ids, t.idHash
	np := 0
	for k := range ends {
		s := edges[k/2].Source
		if k%2 == 1 {
			s = edges[k/2].Target
		}
		x, _ := strid.Of(s) // 0 without an identity
		f := x * identMul
		sl := &ids[f>>shift]
		g, i := sl.f, sl.i // both read: a conditional move, not a branch
		miss := 0
		if g != f {
			miss = 1
		}
		if x == 0 { // not taken for the shared strings this is for
			miss = 1
		}
		ends[k], pend[np] = i, uint32(k)
		np += miss
	}
	return np
}

// sameString reports whether a and b are the very same string (strid);
// false with purego.
func sameString(a, b string) bool {
	x, ok := strid.Of(a)
	y, _ := strid.Of(b)
	return ok && x == y
}
