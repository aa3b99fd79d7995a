package options

import (
	"testing"

	"github.com/gcfkit/gcf/stream"
)

// Resolve applies options in order, skips nil ones and fills in every
// limit left zero, with or without options.
func TestResolve(t *testing.T) {
	if got := Resolve(nil); got.Limits != DefaultLimits || got.Wire != stream.WireV3 {
		t.Fatalf("no options: %+v", got)
	}
	c := Resolve([]Option{
		func(c *Config) { c.Limits.MaxDepth = 3 },
		nil,
		func(c *Config) { c.Limits.MaxDepth = 5; c.Spec = "3.5.3" },
	})
	if c.Limits.MaxDepth != 5 || c.Spec != "3.5.3" {
		t.Fatalf("later option did not win: %+v", c)
	}
	want := DefaultLimits
	want.MaxDepth = 5
	if c.Limits != want {
		t.Fatalf("defaults not filled in: %+v, want %+v", c.Limits, want)
	}
}
