package graph

import (
	"hash/maphash"
	"math"
	"math/bits"
)

// radixItem is an element of a radix sort: a 64-bit key and the index of
// what it sorts.
type radixItem struct {
	key uint64
	idx int32
	aux int32 // a caller's extra datum, carried along (it fills padding)
}

// radixSort sorts items by key, stably, with LSD passes over the bits in
// which keys differ. Digits are as wide as the item count makes worthwhile (8 to 14
// bits; 11 above 2^16 items), evened out over the passes, and a pass whose
// digit is the same for every item is skipped, so small keys (ids,
// distances) cost one or two passes. tmp must be as long as items; counts
// is scratch for the digit counts (grown as needed, returned).
func radixSort(items, tmp []radixItem, counts *[]int32) []radixItem {
	if len(items) == 0 {
		return items
	}
	// Only the bits that differ between keys need sorting: those from the
	// lowest to the highest bit set in (AND of the keys) XOR (OR of them).
	and, or := ^uint64(0), uint64(0)
	for i := range items {
		and &= items[i].key
		or |= items[i].key
	}
	diff := and ^ or
	if diff == 0 {
		return items
	}
	lo := bits.TrailingZeros64(diff)
	nb := bits.Len64(diff) - lo
	// Wide digits save passes while the arrays stay in cache; past that,
	// each of 2^width destinations is a separate stream of writes, and
	// more than 2^11 of them thrash the TLB.
	width := min(14, max(8, bits.Len(uint(len(items)))))
	if len(items) > 1<<16 {
		width = 11
	}
	passes := (nb + width - 1) / width
	width = (nb + passes - 1) / passes
	mask := uint64(1)<<width - 1
	cnt := grow(counts, 1<<width)
	for shift := lo; shift < lo+nb; shift += width {
		clear(cnt)
		for i := range items {
			cnt[(items[i].key>>shift)&mask]++
		}
		if int(cnt[(items[0].key>>shift)&mask]) == len(items) {
			continue // every item has this digit: the pass would not move anything
		}
		pos := int32(0)
		for d, c := range cnt {
			cnt[d] = pos
			pos += c
		}
		for _, it := range items {
			d := (it.key >> shift) & mask
			tmp[cnt[d]] = it
			cnt[d]++
		}
		items, tmp = tmp, items
	}
	return items
}

// descFloatKey maps a non-NaN float to a key whose ascending order is the
// float's descending order; both zeros map to the same key.
func descFloatKey(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	b := math.Float64bits(f)
	if b>>63 == 1 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	return ^b
}

// nameIndex maps qualified names to symbol indexes with open addressing:
// one slice of slots holding the name itself, so a lookup touches one slot
// (no pointer chase into the symbols) and compares strings only on a hash
// match. Lookups of edge endpoints dominate graph encoding.
type nameIndex struct {
	slots []nameSlot
	seed  maphash.Seed
	mask  uint64
}

type nameSlot struct {
	name string
	idx  int32 // symbol index + 1; 0 is empty
}

func newNameIndex(n int) *nameIndex {
	return new(nameIndex).reset(n)
}

// reset sizes an empty index for n names, reusing its slots. An index that
// held names must have had its slots cleared (putGrScratch does this).
func (x *nameIndex) reset(n int) *nameIndex {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if cap(x.slots) >= size {
		x.slots = x.slots[:size] // empty: a pooled index is cleared when returned
	} else {
		x.slots = make([]nameSlot, size)
	}
	if x.seed == (maphash.Seed{}) {
		x.seed = maphash.MakeSeed()
	}
	x.mask = uint64(size - 1)
	return x
}

// add records index i under name unless the name is already present.
func (x *nameIndex) add(name string, i int) {
	for h := maphash.String(x.seed, name) & x.mask; ; h = (h + 1) & x.mask {
		switch sl := &x.slots[h]; {
		case sl.idx == 0:
			*sl = nameSlot{name: name, idx: int32(i + 1)}
			return
		case sl.name == name:
			return
		}
	}
}

// get returns the index first added under name.
func (x *nameIndex) get(name string) (int, bool) {
	for h := maphash.String(x.seed, name) & x.mask; ; h = (h + 1) & x.mask {
		switch sl := &x.slots[h]; {
		case sl.idx == 0:
			return 0, false
		case sl.name == name:
			return int(sl.idx - 1), true
		}
	}
}

// joinItem is an element of a hash join by sorting: a name's hash, cut to
// a few bits, and what the name belongs to.
type joinItem struct {
	key uint32
	ref uint32
}

// radixSortJoin sorts items by key, stably, with LSD passes of 11 bits
// over the low keyBits bits; tmp must be as long as items.
func radixSortJoin(items, tmp []joinItem, keyBits uint) []joinItem {
	if len(items) == 0 {
		return items
	}
	const bits = 11
	const mask = 1<<bits - 1
	var counts [1 << bits]int32
	for shift := uint(0); shift < keyBits; shift += bits {
		clear(counts[:])
		for _, it := range items {
			counts[(it.key>>shift)&mask]++
		}
		if int(counts[(items[0].key>>shift)&mask]) == len(items) {
			continue
		}
		pos := int32(0)
		for d, c := range counts {
			counts[d] = pos
			pos += c
		}
		for _, it := range items {
			d := (it.key >> shift) & mask
			tmp[counts[d]] = it
			counts[d]++
		}
		items, tmp = tmp, items
	}
	return items
}
