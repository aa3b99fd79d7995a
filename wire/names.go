package wire

import "hash/maphash"

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
}

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
	h := a*0x9E3779B97F4A7C15 ^ b*0xC2B2AE3D27D4EB4F ^ uint64(n)
	h ^= h >> 29
	h *= 0x94D049BB133111EB
	return h ^ h>>32
}

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
	clear(t.names)
	t.names = t.names[:0]
	t.strong = false
}

// add enters s as the name of the next index unless s is already present.
func (t *nameTable) add(s string) {
	t.names = append(t.names, s)
	if !t.insert(len(t.names)-1) && !t.strong {
		t.rehash()
	}
}

// insert enters names[i] unless it is present; it reports false, without
// entering it, when the quick hash probed past maxProbe.
func (t *nameTable) insert(i int) bool {
	s := t.names[i]
	h := t.hash(s)
	tag := h >> 32 << 32
	for j, n := h&t.mask, 0; ; j, n = (j+1)&t.mask, n+1 {
		v := t.slots[j]
		if v == 0 {
			t.slots[j] = tag | uint64(i+1)
			return true
		}
		if v&^0xFFFFFFFF == tag && t.names[uint32(v)-1] == s {
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
	h := t.hash(s)
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
