//go:build !purego

// Package nozero allocates byte slices whose memory is not cleared first,
// for a writer that overwrites every byte it exposes (an encoder that has
// sized its output exactly). Clearing a large fresh output costs as much as
// a pass of writing it.
//
// Built with the purego tag it uses no unsafe code and Bytes is make.
package nozero

import (
	"strings"
	"unsafe"
)

// Bytes returns a slice of length 0 and capacity n (n > 0) whose contents
// are undefined: the caller must write every byte before it is read, and
// must not reslice past what it wrote.
func Bytes(n int) []byte {
	// strings.Builder.Grow allocates without clearing; the builder is
	// dropped here, so its buffer becomes the caller's.
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0) // a non-empty String has the buffer's address
	return unsafe.Slice(unsafe.StringData(sb.String()), n)[:0:n]
}
