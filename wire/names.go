package wire

import "hash/maphash"

// nameTable maps the qualified names of a payload's symbols to the index of
// the first symbol with that name: open addressing over int32 slots that
// hold index+1, the names themselves staying in the symbols. It is faster
// than a map[string]int32 on the 40,000 endpoint lookups of a large graph.
type nameTable struct {
	seed  maphash.Seed
	slots []int32
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
		t.slots = make([]int32, size)
	}
	t.mask = uint64(size - 1)
}

// add enters names[i] unless the name is already present.
func (t *nameTable) add(names func(int) string, i int) {
	s := names(i)
	for h := maphash.String(t.seed, s) & t.mask; ; h = (h + 1) & t.mask {
		v := t.slots[h]
		if v == 0 {
			t.slots[h] = int32(i + 1)
			return
		}
		if names(int(v-1)) == s {
			return
		}
	}
}

// find returns the index of the first name equal to s, or -1.
func (t *nameTable) find(names func(int) string, s string) int {
	for h := maphash.String(t.seed, s) & t.mask; ; h = (h + 1) & t.mask {
		v := t.slots[h]
		if v == 0 {
			return -1
		}
		if names(int(v-1)) == s {
			return int(v - 1)
		}
	}
}
