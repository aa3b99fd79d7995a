package wire

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The text coding's helpers, rewritten for speed, against their plain
// definitions: the encoder's output bytes depend on them.

func plainCommonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func randomName(r *rand.Rand) string {
	const alphabet = "ab/.:#xyzSQLite"
	b := make([]byte, r.IntN(40))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func TestCommonPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 2))
	names := []string{"", "a", "github.com/x/y/internal/store.SQLiteStore.PutNode", "pkg/mod.Type#method:x", "/abcd", "abcd/", "....", "abcdefghijklmnop"}
	for range 5000 {
		names = append(names, randomName(r))
	}
	for i, a := range names {
		b := names[(i*7+3)%len(names)]
		if p := a + b; true {
			for _, c := range []string{b, p[:len(a)], a + "z", p} {
				if got, want := commonPrefix(a, c), plainCommonPrefix(a, c); got != want {
					t.Fatalf("commonPrefix(%q, %q) = %d, want %d", a, c, got, want)
				}
			}
		}
	}
}

// TestLastSlash: lastSlash agrees with bytes.LastIndexByte on texts with
// '/' (and bytes next to it in value, and bytes >= 0x80) in every lane, at
// every start.
func TestLastSlash(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 7))
	alphabet := []byte{'/', '.', '0', 'a', 0x80, 0xAF, 0xFF, 0x00, 0x2F | 0x80}
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.IntN(40))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		from := 0
		if len(b) > 0 {
			from = r.IntN(len(b) + 1)
		}
		want := bytes.LastIndexByte(b[from:], '/')
		if want >= 0 {
			want += from
		}
		if got := lastSlash(b, from); got != want {
			t.Fatalf("lastSlash(%q, %d) = %d, want %d", b, from, got, want)
		}
	}
}
