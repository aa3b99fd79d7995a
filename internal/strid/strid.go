//go:build !purego

// Package strid gives a string's identity: where its bytes are in memory
// and how many there are. Two strings with the same identity hold the same
// bytes; strings with the same bytes may have different identities (two
// copies). It lets a caller that joins many names match the ones that are
// the same string without reading their bytes.
//
// Built with the purego tag the package uses no unsafe code and Of reports
// no identity, so callers fall back to comparing bytes.
package strid

import "unsafe"

// Enabled reports whether Of can give identities (false with purego).
const Enabled = true

// Of returns an identity of s packed in 64 bits (the data address in the
// low 48 bits, the length above), and whether s has one: an empty string,
// a string of 65,536 bytes or more, or one whose address needs more than
// 48 bits has none. While both strings are reachable, Of(a) == Of(b) with
// ok true for both means a == b.
func Of(s string) (id uint64, ok bool) {
	p := uint64(uintptr(unsafe.Pointer(unsafe.StringData(s))))
	n := uint64(len(s))
	if n == 0 || n >= 1<<16 || p >= 1<<48 {
		return 0, false
	}
	return p | n<<48, true
}
