package wire

import "hash/maphash"

// nameTable maps the qualified names of a payload's symbols to the index of
// the first symbol with that name: open addressing over slots that hold
// the index+1 and 32 bits of the name's hash (compared before the name),
// with the names in a compact slice. It is faster than a map[string]int32
// on the 40,000 endpoint lookups of a large graph.
type nameTable struct {
	seed  maphash.Seed
	slots []uint64 // hash<<32 | index+1; 0 is empty
	names []string
	mask  uint64
}

func (t *nameTable) reset(n int) {
	if t.seed == (maphash.Seed{}) {
		t.seed = maphash.MakeSeed()
	}
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
}

// add enters s as the name of the next index unless s is already present.
func (t *nameTable) add(s string) {
	i := len(t.names)
	t.names = append(t.names, s)
	h := maphash.String(t.seed, s)
	tag := h >> 32 << 32
	for j := h & t.mask; ; j = (j + 1) & t.mask {
		v := t.slots[j]
		if v == 0 {
			t.slots[j] = tag | uint64(i+1)
			return
		}
		if v&^0xFFFFFFFF == tag && t.names[uint32(v)-1] == s {
			return
		}
	}
}

// find returns the index of the first name equal to s, or -1.
func (t *nameTable) find(s string) int {
	h := maphash.String(t.seed, s)
	tag := h >> 32 << 32
	for j := h & t.mask; ; j = (j + 1) & t.mask {
		v := t.slots[j]
		if v == 0 {
			return -1
		}
		if v&^0xFFFFFFFF == tag && t.names[uint32(v)-1] == s {
			return int(uint32(v) - 1)
		}
	}
}
