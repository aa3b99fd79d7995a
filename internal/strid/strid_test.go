package strid

import (
	"strings"
	"testing"
)

// TestOf: the same string has one identity, a copy or a prefix sharing its
// memory has another, and empty or very long strings have none.
func TestOf(t *testing.T) {
	s := strings.Repeat("name.", 10)
	a, ok := Of(s)
	b, ok2 := Of(s[0:])
	if Enabled != ok || ok != ok2 || a != b {
		t.Fatalf("Of(s) = %x %v, again %x %v", a, ok, b, ok2)
	}
	if !Enabled {
		t.Skip("purego: Of reports no identity")
	}
	if c, ok := Of(strings.Clone(s)); !ok || c == a {
		t.Fatalf("a copy has identity %x %v, the original %x", c, ok, a)
	}
	if c, ok := Of(s[:len(s)-1]); !ok || c == a {
		t.Fatalf("a prefix has identity %x %v, the original %x", c, ok, a)
	}
	if _, ok := Of(""); ok {
		t.Fatal("the empty string has an identity")
	}
	if _, ok := Of(strings.Repeat("x", 1<<16)); ok {
		t.Fatal("a 64 KiB string has an identity")
	}
}
