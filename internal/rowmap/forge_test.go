//go:build !purego && go1.26 && !go1.27

package rowmap

import "testing"

// The runtime this toolchain builds with has the layout the package
// forges: the check at start-up must pass, or Map quietly makes every map.
func TestForgeOn(t *testing.T) {
	if !forge {
		t.Fatal("layoutOK found the Go 1.26 runtime's maps laid out otherwise")
	}
	if k := NewKeys([]string{"a", "b"}); !k.ok {
		t.Fatal("NewKeys made no template for two distinct keys")
	}
}
