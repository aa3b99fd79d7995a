//go:build gcf_noproxy

package main

import (
	"strings"
	"testing"
)

// Built without the proxy, `gcf proxy` says so and fails; the other
// commands are there.
func TestProxyOff(t *testing.T) {
	_, stderr, code := runCLI(t, "", "proxy", "--", "true")
	if code != 2 || !strings.Contains(stderr, "gcf_noproxy") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	out, _, code := runCLI(t, `[{"a":1}]`, "encode")
	if code != 0 || !strings.Contains(out, "{a}") {
		t.Errorf("encode: exit %d, %q", code, out)
	}
}
