package generic

import (
	"bytes"
	"runtime"
	"strings"
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

// TestArenaChunk: a chunk has at least the capacity asked for and no length, and
// strings copied into chunks made over recycled, non-zero memory hold
// exactly their bytes (the chunk's unwritten bytes are never read).
func TestArenaChunk(t *testing.T) {
	for _, n := range []int{1, 16, 100, 16 << 10, 40 << 10} {
		c := arenaChunk(n)
		if len(c) != 0 || cap(c) < n {
			t.Fatalf("arenaChunk(%d): len %d, cap %d", n, len(c), cap(c))
		}
	}
	for i := 0; i < 64; i++ {
		junk := bytes.Repeat([]byte{0xAA}, 16<<10) // freed below: the chunks may reuse its non-zero memory
		runtime.KeepAlive(junk)
	}
	runtime.GC()
	b := &builder{chunk: 16}
	var got, want []string
	for i := 0; i < 5000; i++ {
		tok := []byte(strings.Repeat("x", i%40) + "!")
		got = append(got, b.text(tok))
		want = append(want, string(tok))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q, want %q", i, got[i], want[i])
		}
	}
}
