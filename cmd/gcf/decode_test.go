package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// decode -ndjson writes every record with its table's path, or refuses
// with an error naming what it cannot represent; it never exits 0 after
// dropping data.
func TestDecodeNDJSONNeverDropsData(t *testing.T) {
	for _, in := range []string{
		"GCF profile=generic\n## a [1]{x}\n1\n## b [1]{y}\n2\n",          // rows of two tables
		"GCF profile=generic\n## m [2:]{key,x}\nk1|1\nk2|2\n",            // a keyed table
		"GCF profile=generic\nname=x\n## rows [1]{x}\n1\n",               // data outside tables
		"GCF profile=generic\n## t [?]{x}\n1\n2\n##! summary counts=2\n", // a streamed table
	} {
		out, stderr, code := runCLI(t, in, "decode", "-ndjson")
		if code != 0 {
			if stderr == "" {
				t.Errorf("%q: exit %d without a reason", in, code)
			}
			continue
		}
		// Every line is a JSON object naming its table, and every scalar
		// of the input is in the output.
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil || len(v) == 0 {
				t.Errorf("%q: line %q is not a JSON object", in, line)
			}
		}
		for _, want := range []string{"1", "2", "k1", "k2", "x"} {
			if strings.Contains(in, "|"+want+"\n") || strings.Contains(in, "\n"+want+"|") || strings.Contains(in, "\n"+want+"\n") {
				if !strings.Contains(out, want) {
					t.Errorf("%q: %s dropped from %q", in, want, out)
				}
			}
		}
	}
}

// decode and decode -ndjson stop at an error near the start of a huge
// input instead of reading it whole first. (validate reads on, to report
// every problem; TestValidateStopsAtLongLine covers its hostile case.)
func TestDecodeStopsEarly(t *testing.T) {
	for _, args := range [][]string{{"decode", "-ndjson"}, {"decode"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			src := &lazy{head: []byte("GCF profile=generic\n## [?]{a}\n1|2\n"), fill: '\n', n: 1 << 30}
			var errb bytes.Buffer
			code := run(args, src, &bytes.Buffer{}, &errb)
			if code != 1 || !strings.Contains(errb.String(), "<stdin>:3:") {
				t.Fatalf("exit %d, stderr %q", code, errb.String())
			}
			if src.read > 1<<20 {
				t.Fatalf("read %d bytes to report an error on line 3", src.read)
			}
		})
	}
}

// An error more than 64 KiB into stdin still gets its excerpt: stdin's
// last bytes are kept for diagnostics.
func TestDecodeErrorExcerptFromStdin(t *testing.T) {
	var b strings.Builder
	b.WriteString("GCF profile=generic\n## [?]{id,name}\n")
	for i := 0; i < 17000; i++ {
		b.WriteString("1|n\n")
	}
	b.WriteString("2|x|y\n")
	for _, args := range [][]string{{"decode"}, {"decode", "-ndjson"}} {
		_, stderr, code := runCLI(t, b.String(), args...)
		if code != 1 || !strings.HasPrefix(stderr, "<stdin>:17003:") || !strings.Contains(stderr, "\n  2|x|y\n") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// validate stops reading at a line longer than the limit: the rest of a
// 1 GB line is never read, so memory and time stay bounded.
func TestValidateStopsAtLongLine(t *testing.T) {
	src := &lazy{head: []byte("GCF profile=generic\nv="), fill: 'x', n: 1 << 30}
	var errb bytes.Buffer
	code := run([]string{"validate"}, src, &bytes.Buffer{}, &errb)
	if code != 1 || !strings.Contains(errb.String(), "<stdin>:2:1048577: line_too_long") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if src.read > 4<<20 {
		t.Fatalf("read %d bytes to report a line over the 1 MiB limit", src.read)
	}
}
