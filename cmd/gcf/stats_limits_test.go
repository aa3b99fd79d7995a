package main

import (
	"fmt"
	"strings"
	"testing"
)

// expandingGCB is a valid GCB version 2 stream of about 2*copies bytes
// whose one signature is 130*copies bytes (copies of 130 bytes from 1 byte
// back, the format's largest expansion).
func expandingGCB(copies int) string {
	uv := func(b []byte, v uint64) []byte {
		for v >= 0x80 {
			b = append(b, byte(v)|0x80)
			v >>= 7
		}
		return append(b, byte(v))
	}
	L := 130 * copies
	b := []byte("GCB1\x02\x00\x00\x00\x00\x04")
	b = uv(b, uint64(1+L))
	b = append(b, 1, 0, 0, 1, 'a', 1, 1, 1, 0)
	b = uv(b, uint64(L))
	for range copies {
		b = append(b, 0xFF, 0x01)
	}
	return string(b)
}

// TestStatsLimits: gcf stats takes the limit flags, and a GCB file's text
// is bounded without them (it passed gcf.Limits{} to the GCB decoder).
func TestStatsLimits(t *testing.T) {
	bomb := expandingGCB(32 << 10) // 64 KiB expanding to 4 MiB
	if _, stderr, code := runCLI(t, bomb, "stats", "-"); code != exitInvalid || !strings.Contains(stderr, "payload_too_large") || !strings.Contains(stderr, "at byte 10") {
		t.Errorf("default limits: exit %d, %s", code, stderr)
	}
	if out, stderr, code := runCLI(t, bomb, "stats", "-max-bytes", fmt.Sprint(8<<20), "-"); code != exitOK || !strings.Contains(out, "GCB") {
		t.Errorf("-max-bytes 8 MiB: exit %d, %s", code, stderr)
	}
	// decode -codec gcb: refused by default, decoded with -max-bytes.
	if _, stderr, code := runCLI(t, bomb, "decode", "-codec", "gcb"); code != exitInvalid || !strings.Contains(stderr, "payload_too_large") {
		t.Errorf("decode -codec gcb: exit %d, %s", code, stderr)
	}
	if out, stderr, code := runCLI(t, bomb, "decode", "-codec", "gcb", "-max-bytes", fmt.Sprint(8<<20)); code != exitOK || len(out) < 130*(32<<10) {
		t.Errorf("decode -codec gcb -max-bytes 8 MiB: exit %d, %d bytes, %s", code, len(out), stderr)
	}
	in := `{"a":[1,2,3]}`
	if _, stderr, code := runCLI(t, in, "stats", "-max-bytes", "5", "-"); code != exitInvalid || !strings.Contains(stderr, "payload_too_large") {
		t.Errorf("-max-bytes 5: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, in, "stats", "-max-depth", "-1", "-"); code == exitOK {
		t.Errorf("-max-depth -1 accepted: %s", stderr)
	}
}
