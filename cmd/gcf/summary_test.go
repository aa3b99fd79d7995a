package main

import (
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
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

// A buffered payload cut at a line boundary may still be valid: encode
// -summary ends it with the ##! summary trailer, which every decoder
// accepts, and -require-summary refuses any cut of it; the canonical bytes
// are unchanged without -summary.
func TestBufferedSummaryTrailer(t *testing.T) {
	for _, tc := range []struct {
		file, profile, trailer string
	}{
		{"orders.json", "generic", "##! summary\n"},
		{"graph.json", "graph", "##! summary symbols=4 edges=3 counts=2,1,1,3\n"},
	} {
		path := filepath.Join("..", "..", "testdata", "examples", tc.file)
		canon, _, code := runCLI(t, "", "encode", "-q", "-profile", tc.profile, path)
		if code != 0 {
			t.Fatalf("%s: exit %d", tc.file, code)
		}
		out, stderr, code := runCLI(t, "", "encode", "-q", "-summary", "-profile", tc.profile, path)
		if code != 0 || out != canon+tc.trailer {
			t.Fatalf("%s -summary: exit %d, %s\n%s\nwant the canonical bytes and %q", tc.file, code, stderr, out, tc.trailer)
		}
		// The library's decoders accept it and read the same value.
		switch tc.profile {
		case "generic":
			a, err1 := gcf.DecodeGeneric([]byte(canon))
			b, err2 := gcf.DecodeGeneric([]byte(out))
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("%s: DecodeGeneric: %v, %v, equal %v", tc.file, err1, err2, reflect.DeepEqual(a, b))
			}
		case "graph":
			a, err1 := gcf.Decode([]byte(canon))
			b, err2 := gcf.Decode([]byte(out))
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("%s: Decode: %v, %v, equal %v", tc.file, err1, err2, reflect.DeepEqual(a, b))
			}
		}
		dec := gcf.NewDecoder(strings.NewReader(out), gcf.WithRequireSummary())
		for {
			if _, err := dec.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: NewDecoder: %v", tc.file, err)
			}
		}
		for _, args := range [][]string{{"decode", "-require-summary"}, {"validate", "-require-summary"}, {"decode"}, {"validate"}} {
			if _, stderr, code := runCLI(t, out, args...); code != 0 || stderr != "" {
				t.Errorf("%s %v: exit %d, %s", tc.file, args, code, stderr)
			}
		}
		// Every cut at a line boundary is refused with -require-summary.
		lines := strings.SplitAfter(out, "\n")
		accepted := 0
		for n := 1; n < len(lines)-1; n++ {
			cut := strings.Join(lines[:n], "")
			for _, args := range [][]string{{"decode", "-require-summary"}, {"decode", "-ndjson", "-require-summary"}, {"validate", "-require-summary"}, {"validate", "-json", "-require-summary"}} {
				if args[1] == "-ndjson" && tc.profile == "graph" {
					continue
				}
				if _, _, code := runCLI(t, cut, args...); code != exitInvalid {
					t.Errorf("%s cut after line %d, %v: exit %d, want 1", tc.file, n, args, code)
				}
			}
			if _, _, code := runCLI(t, cut, "decode"); code == 0 {
				accepted++
			}
		}
		// Without the flag, some cuts pass unnoticed: the limit the
		// trailer is for.
		if accepted == 0 {
			t.Errorf("%s: no cut decodes without -require-summary; the test shows nothing", tc.file)
		}
		// A comment or a blank line after the trailer is still the end.
		if _, stderr, code := runCLI(t, out+"# done\n\n", "decode", "-require-summary"); code != 0 {
			t.Errorf("%s: trailer, comment: exit %d, %s", tc.file, code, stderr)
		}
	}
	// The stream's trailer satisfies -require-summary as it did.
	stream, _, _ := runCLI(t, `[{"a":1},{"a":2}]`, "encode", "-q", "-stream", "-summary")
	if _, stderr, code := runCLI(t, stream, "decode", "-require-summary"); code != 0 || !strings.HasSuffix(stream, "##! summary counts=2\n") {
		t.Errorf("stream: exit %d, %s, %q", code, stderr, stream)
	}
	// -summary writes GCF v3 text only.
	for _, args := range [][]string{{"encode", "-summary", "-codec", "gcb", "-o", "x"}, {"encode", "-summary", "-wire", "v1"}} {
		if _, _, code := runCLI(t, `{"a":1}`, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// endsWithSummary finds the trailer however the input is split into reads:
// the last line that is neither blank nor a comment decides.
func TestEndsWithSummaryAcrossReads(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"GCF profile=generic\na=1\n##! summary\n", true},
		{"GCF profile=generic\na=1\n##! summary", true},
		{"GCF profile=generic\na=1\n##! summary counts=2\n\n# done\n  \n", true},
		{"GCF profile=generic\n##! summary\na=1\n", false},
		{"GCF profile=generic\na=1\n", false},
		{"GCF profile=generic\na=1\n##! summaryx\n", false},
		{"GCF profile=generic\na=1\n## b\n", false},
		{"", false},
		{"GCF profile=generic\n##! summary\n" + strings.Repeat(" ", 40) + "x=1\n", false},
		{"GCF profile=generic\n##! summary\n" + strings.Repeat(" ", 40) + "# a comment\n", true},
	} {
		for size := 1; size <= len(tc.in)+1; size++ {
			r := &inReader{r: &chunked{s: tc.in, size: size}}
			if _, err := io.ReadAll(r); err != nil {
				t.Fatal(err)
			}
			if got := r.endsWithSummary(); got != tc.want {
				t.Errorf("%q in reads of %d: %v, want %v", tc.in, size, got, tc.want)
			}
			if got, want := r.last.lines, strings.Count(tc.in, "\n"); got != want {
				t.Errorf("%q in reads of %d: %d lines, want %d", tc.in, size, got, want)
			}
		}
	}
}

// chunked returns s in reads of at most size bytes.
type chunked struct {
	s    string
	size int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.size)], c.s)
	c.s = c.s[n:]
	return n, nil
}
