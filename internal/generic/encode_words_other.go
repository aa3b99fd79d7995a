//go:build !(amd64 || arm64)

package generic

import (
	"encoding/binary"
	"unsafe"
)

// Word loads and stores of the cell writers at any address, byte by byte
// where unaligned access may fault (see encode_words.go).

func fsLoad64(p unsafe.Pointer) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(p), 8))
}

func fsLoad32(p unsafe.Pointer) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice((*byte)(p), 4))
}

func fsStore64(p unsafe.Pointer, w uint64) {
	binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(p), 8), w)
}

func fsStore32(p unsafe.Pointer, w uint32) {
	binary.LittleEndian.PutUint32(unsafe.Slice((*byte)(p), 4), w)
}
