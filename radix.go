package gcf

import (
	"hash/maphash"
	"math"
)

// radixItem is an element of a radix sort: a 64-bit key and the index of
// what it sorts.
type radixItem struct {
	key uint64
	idx int32
}

// radixSort sorts items by key, stably, with LSD passes of 11 bits. Passes
// whose digit is the same for every item are skipped, so small keys (ids,
// distances) cost one or two passes. tmp must be as long as items.
func radixSort(items, tmp []radixItem) []radixItem {
	const bits = 11
	const mask = 1<<bits - 1
	var counts [1 << bits]int32
	for shift := uint(0); shift < 64; shift += bits {
		clear(counts[:])
		for _, it := range items {
			counts[(it.key>>shift)&mask]++
		}
		if int(counts[(items[0].key>>shift)&mask]) == len(items) {
			continue // every item has this digit: the pass would not move anything
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
// one slice of int32 slots, no per-entry allocation, and a string compare
// only on a hash match. Lookups of edge endpoints dominate graph encoding.
type nameIndex struct {
	slots []int32 // symbol index + 1; 0 is empty
	syms  []Symbol
	seed  maphash.Seed
	mask  uint64
}

func newNameIndex(syms []Symbol) *nameIndex {
	size := 16
	for size < 2*len(syms) {
		size <<= 1
	}
	return &nameIndex{slots: make([]int32, size), syms: syms, seed: maphash.MakeSeed(), mask: uint64(size - 1)}
}

// add records symbol i under its name unless the name is already present.
func (x *nameIndex) add(i int) {
	name := x.syms[i].QualifiedName
	for h := maphash.String(x.seed, name) & x.mask; ; h = (h + 1) & x.mask {
		switch s := x.slots[h]; {
		case s == 0:
			x.slots[h] = int32(i + 1)
			return
		case x.syms[s-1].QualifiedName == name:
			return
		}
	}
}

// get returns the index of the first symbol added under name.
func (x *nameIndex) get(name string) (int, bool) {
	for h := maphash.String(x.seed, name) & x.mask; ; h = (h + 1) & x.mask {
		switch s := x.slots[h]; {
		case s == 0:
			return 0, false
		case x.syms[s-1].QualifiedName == name:
			return int(s - 1), true
		}
	}
}
