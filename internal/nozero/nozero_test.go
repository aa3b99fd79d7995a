package nozero

import (
	"bytes"
	"testing"
)

// TestBytes: the slice has the length and capacity asked for, is writable
// throughout, and two slices do not share memory.
func TestBytes(t *testing.T) {
	for _, n := range []int{1, 7, 4096, 1 << 20} {
		a, b := Bytes(n), Bytes(n)
		if len(a) != 0 || cap(a) != n {
			t.Fatalf("Bytes(%d): len %d cap %d", n, len(a), cap(a))
		}
		a = append(a, bytes.Repeat([]byte{'a'}, n)...)
		b = append(b, bytes.Repeat([]byte{'b'}, n)...)
		if &a[0] == &b[0] || bytes.Count(a, []byte{'a'}) != n || bytes.Count(b, []byte{'b'}) != n {
			t.Fatalf("Bytes(%d): the slices share memory or lost bytes", n)
		}
	}
}
