package main

import (
	"strings"
	"testing"
)

// A [?] stream without its ##! summary trailer is accepted with a warning
// on stderr that names -require-summary (SPEC §8.6: SHOULD warn, MUST NOT
// reject); with -require-summary it is an error.
func TestMissingSummaryWarnsOrFails(t *testing.T) {
	cut := "GCF profile=generic\n## [?]{a}\n1\n2\n"
	whole := cut + "##! summary counts=2\n"
	for _, args := range [][]string{{"decode"}, {"decode", "-ndjson"}, {"validate"}, {"validate", "-json"}} {
		out, stderr, code := runCLI(t, cut, args...)
		if code != 0 || !strings.Contains(stderr, "<stdin>: warning: ") || !strings.Contains(stderr, "no ##! summary trailer") ||
			!strings.Contains(stderr, "may have been cut") || !strings.Contains(stderr, "-require-summary") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if strings.Contains(out, "warning") {
			t.Errorf("%v: the warning reached stdout: %q", args, out)
		}
		_, stderr, code = runCLI(t, whole, args...)
		if code != 0 || stderr != "" {
			t.Errorf("%v with the trailer: exit %d, stderr %q", args, code, stderr)
		}
		strict := append(append([]string(nil), args...), "-require-summary")
		out, stderr, code = runCLI(t, cut, strict...)
		report := stderr
		if args[len(args)-1] == "-json" {
			report = out
		}
		if code != exitInvalid || !strings.Contains(report, "unexpected_eof") || strings.Contains(stderr, "warning") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", strict, code, out, stderr)
		}
		if _, stderr, code = runCLI(t, whole, strict...); code != 0 || stderr != "" {
			t.Errorf("%v with the trailer: exit %d, stderr %q", strict, code, stderr)
		}
	}
	// decode names how many sections are unconfirmed.
	_, stderr, _ := runCLI(t, "GCF profile=generic\n## a [?]{x}\n1\n## b [?]{x}\n2\n", "decode")
	if !strings.Contains(stderr, "2 [?] sections have no ##! summary trailer") {
		t.Errorf("count: %q", stderr)
	}
	// The JSON goes to stdout, alone.
	out, _, _ := runCLI(t, cut, "decode")
	if out != `[{"a":1},{"a":2}]`+"\n" {
		t.Errorf("stdout %q", out)
	}
}
