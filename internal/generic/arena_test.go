package generic

import (
	"bytes"
	"testing"
)

// TestBuilderTextShort checks the arena's copies of short strings (the
// two-word copy when both buffers have room for 16 bytes, the plain copy
// otherwise): each string equals its input, and no later copy changes an
// earlier string's bytes.
func TestBuilderTextShort(t *testing.T) {
	for _, chunk := range []int{1, 5, 64} {
		b := &builder{chunk: chunk} // arenaLen: max(4*chunk, n) bytes a chunk
		src := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz"), 4)
		var got, want []string
		for i := 0; i < 400; i++ {
			l := i % 21
			at := (i * 7) % (len(src) - l + 1)
			capEnd := at + l + (i/21)%20 // capacity past the token: 0-19 bytes
			if capEnd > len(src) {
				capEnd = len(src)
			}
			tok := src[at : at+l : capEnd]
			got = append(got, b.text(tok))
			want = append(want, string(tok))
			for j := range got {
				if got[j] != want[j] {
					t.Fatalf("chunk %d, after copy %d: string %d = %q, want %q", chunk, i, j, got[j], want[j])
				}
			}
		}
	}
}
