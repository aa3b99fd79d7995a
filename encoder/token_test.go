package encoder

import (
	"strings"
	"testing"
)

// IsToken accepts exactly %x21-7E at every position, inside and after
// the 8-byte blocks it checks at once.
func TestIsTokenEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c >= 0x21 && c <= 0x7E
		for pos := 0; pos < 19; pos++ {
			b := []byte(strings.Repeat("x", 19))
			b[pos] = byte(c)
			if got := IsToken(string(b)); got != want {
				t.Fatalf("IsToken with %#x at %d = %v, want %v", c, pos, got, want)
			}
		}
	}
}
