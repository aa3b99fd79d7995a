//go:build purego

package nozero

// Bytes returns make([]byte, 0, n) with the purego tag.
func Bytes(n int) []byte { return make([]byte, 0, n) }
