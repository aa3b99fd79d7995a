//go:build amd64 || arm64

package generic

import "unsafe"

// Word loads and stores of the cell writers at any address: one
// instruction each where unaligned access is (amd64, arm64). The bytes
// are in native order, which a lane-wise check and a copy do not see.

func fsLoad64(p unsafe.Pointer) uint64     { return *(*uint64)(p) }
func fsLoad32(p unsafe.Pointer) uint32     { return *(*uint32)(p) }
func fsStore64(p unsafe.Pointer, w uint64) { *(*uint64)(p) = w }
func fsStore32(p unsafe.Pointer, w uint32) { *(*uint32)(p) = w }
