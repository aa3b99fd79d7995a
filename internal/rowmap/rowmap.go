//go:build !purego && go1.26 && !go1.27

package rowmap

import (
	"unsafe"
)

// header mirrors internal/runtime/maps.Map (Go 1.26); the blank fields
// are globalDepth and globalShift, tombstonePossible, and clearSeq.
type header struct {
	used    uint64
	seed    uintptr
	dirPtr  unsafe.Pointer
	dirLen  int
	_       [2]uint8
	writing uint8
	_       bool
	_       uint64
}

// slot mirrors a slot of a map[string]any group: the key, then the value.
type slot struct {
	key string
	val any
}

// group mirrors a map[string]any group: the control word (one byte per
// slot: 0x80 empty, else the low 7 bits of the key's hash) and 8 slots.
type group struct {
	ctrl  uint64
	slots [groupSlots]slot
}

// cell is one forged map: its header and its only group.
type cell struct {
	h header
	g group
}

const (
	groupSlots = 8
	ctrlEmpty  = 0x80
)

// forge reports whether the runtime's maps are laid out as the mirrors
// say (checked once, at start-up).
var forge = layoutOK()

// layoutOK builds maps with the runtime and compares their words with
// what the mirrors predict: a header with the count, no directory
// (a small map) and a group pointer; a group whose full control bytes
// are below 0x80 and whose slots hold the keys and values put in, at the
// slots' stride, eight of them. It only compares words.
func layoutOK() bool {
	if unsafe.Sizeof(header{}) != 48 || unsafe.Sizeof(group{}) != 8+groupSlots*32 {
		return false
	}
	keys := [groupSlots]string{"k0", "key1", "k2", "longer key 3", "k4", "k5", "k6", "k7"}
	vals := [groupSlots]any{}
	for i := range vals {
		vals[i] = &keys[i] // distinct pointers, compared as words
	}
	for n := 1; n <= groupSlots; n++ {
		m := make(map[string]any, n)
		for i := 0; i < n; i++ {
			m[keys[i]] = vals[i]
		}
		h := *(**header)(unsafe.Pointer(&m))
		if h.used != uint64(n) || h.dirLen != 0 || h.dirPtr == nil || h.writing != 0 {
			return false
		}
		g := (*group)(h.dirPtr)
		found := 0
		for s := 0; s < groupSlots; s++ {
			c := uint8(g.ctrl >> (8 * s))
			if c == ctrlEmpty {
				continue
			}
			if c >= 0x80 {
				return false
			}
			kw := (*[2]uintptr)(unsafe.Pointer(&g.slots[s].key))
			vw := (*[2]uintptr)(unsafe.Pointer(&g.slots[s].val))
			match := false
			for i := 0; i < n; i++ {
				iv := (*[2]uintptr)(unsafe.Pointer(&vals[i]))
				if kw[0] == uintptr(unsafe.Pointer(unsafe.StringData(keys[i]))) && kw[1] == uintptr(len(keys[i])) && *vw == *iv {
					match = true
				}
			}
			if !match {
				return false
			}
			found++
		}
		if found != n {
			return false
		}
	}
	return true
}

// Keys is the key set of a kind of record (a table's columns), with the
// template a forged map copies: the hash seed, the control word and the
// slot of each key.
type Keys struct {
	keys []string
	seed uintptr
	ctrl uint64
	pos  [groupSlots]uint8
	ok   bool // forged maps: a small set of distinct keys
}

// NewKeys returns the key set of records whose members are keys, in that
// order. The keys must not be changed afterwards.
func NewKeys(keys []string) *Keys {
	k := &Keys{keys: keys}
	if !forge || len(keys) == 0 || len(keys) > groupSlots {
		return k
	}
	m := make(map[string]any, len(keys))
	for _, key := range keys {
		m[key] = nil
	}
	if len(m) != len(keys) {
		return k // a repeated key
	}
	h := *(**header)(unsafe.Pointer(&m))
	g := (*group)(h.dirPtr)
	for j, key := range keys {
		p := -1
		for s := range g.slots {
			if uint8(g.ctrl>>(8*s)) < 0x80 && g.slots[s].key == key {
				p = s
			}
		}
		if p < 0 {
			return k
		}
		k.pos[j] = uint8(p)
	}
	k.seed, k.ctrl, k.ok = h.seed, g.ctrl, true
	return k
}

// Len is the number of keys.
func (k *Keys) Len() int { return len(k.keys) }

// Slab carves forged maps from chunks. The zero value is ready for use;
// a Slab is not safe for concurrent use.
type Slab struct {
	cells []cell
	n     int // maps per chunk; 0: defaultChunk
}

// defaultChunk is the maps per chunk (about 20 KB).
const defaultChunk = 64

// SetChunk makes the chunks made from now on hold n maps (the default for
// n <= 0), for a caller that knows it makes few.
func (s *Slab) SetChunk(n int) { s.n = n }

// Map returns a new map holding keys k with the values vals, in order
// (len(vals) == k.Len()).
func (s *Slab) Map(k *Keys, vals []any) map[string]any {
	if !k.ok {
		return makeMap(k, vals)
	}
	if len(s.cells) == 0 {
		n := s.n
		if n <= 0 {
			n = defaultChunk
		}
		s.cells = make([]cell, n)
	}
	c := &s.cells[0]
	s.cells = s.cells[1:]
	c.h.used = uint64(len(k.keys))
	c.h.seed = k.seed
	c.h.dirPtr = unsafe.Pointer(&c.g)
	c.g.ctrl = k.ctrl
	vals = vals[:len(k.keys)]
	for j, key := range k.keys {
		sl := &c.g.slots[k.pos[j]&(groupSlots-1)]
		sl.key, sl.val = key, vals[j]
	}
	h := &c.h
	return *(*map[string]any)(unsafe.Pointer(&h))
}

// makeMap makes the map and assigns its members.
func makeMap(k *Keys, vals []any) map[string]any {
	m := make(map[string]any, len(k.keys))
	for j, key := range k.keys {
		m[key] = vals[j]
	}
	return m
}
