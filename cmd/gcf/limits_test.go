package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// The limit flags reach the decoder (decode) and the spec-shaped parser
// (validate) with their categories.
func TestLimitFlagsOnDecodeAndValidate(t *testing.T) {
	nested := "GCF profile=generic\n## a\n  ## b\n    ## c\n      x=1\n"
	long := "GCF profile=generic\nv=" + strings.Repeat("x", 100) + "\n"
	wide := "GCF profile=generic\n## [1]{a,b,c}\n1|2|3\n"
	many := "GCF profile=generic\n## [3]{a}\n1\n2\n3\n"
	for _, tc := range []struct {
		in    string
		flags []string
		want  string
	}{
		{nested, []string{"-max-depth", "2"}, "depth_exceeded"},
		{long, []string{"-max-line", "50"}, "line_too_long"},
		{wide, []string{"-max-fields", "2"}, "too_many_fields"},
		{many, []string{"-max-elements", "2"}, "too_many_elements"},
		{many, []string{"-max-bytes", "20"}, "payload_too_large"},
	} {
		for _, cmd := range []string{"decode", "validate"} {
			args := append([]string{cmd}, tc.flags...)
			_, stderr, code := runCLI(t, tc.in, args...)
			if code != exitInvalid || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s %v: exit %d, stderr %q, want %s", cmd, tc.flags, code, stderr, tc.want)
			}
			// Without the flag, the same input is fine.
			if _, stderr, code := runCLI(t, tc.in, cmd); code != 0 {
				t.Errorf("%s without %v: exit %d, %s", cmd, tc.flags, code, stderr)
			}
		}
	}
	// decode -ndjson passes them on too.
	if _, stderr, code := runCLI(t, wide, "decode", "-ndjson", "-max-fields", "2"); code != 1 || !strings.Contains(stderr, "too_many_fields") {
		t.Errorf("decode -ndjson -max-fields: exit %d, %q", code, stderr)
	}
}

// lazy is a reader of n bytes made on demand: head, then fill repeated;
// read counts what was taken from it.
type lazy struct {
	head []byte
	fill byte
	n    int64
	read int64
}

func (l *lazy) Read(p []byte) (int, error) {
	if l.read >= l.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), l.n-l.read)]
	for i := range p {
		if k := l.read + int64(i); k < int64(len(l.head)) {
			p[i] = l.head[k]
		} else {
			p[i] = l.fill
		}
	}
	l.read += int64(len(p))
	return len(p), nil
}

// -max-bytes is applied while reading: a 1 GB input is refused after
// max-bytes+1 bytes, by every command.
func TestMaxBytesStopsReading(t *testing.T) {
	const gb = 1 << 30
	for _, tc := range []struct {
		args []string
		head string
		fill byte
	}{
		{[]string{"decode"}, "GCF profile=generic\nv=", 'x'},
		{[]string{"decode", "-ndjson"}, "GCF profile=generic\n## [?]{a}\n", '\n'},
		{[]string{"validate"}, "GCF profile=generic\nv=", 'x'},
		{[]string{"encode"}, `{"v":"`, 'x'},
		{[]string{"encode", "-stream"}, "", '\n'},
	} {
		src := &lazy{head: []byte(tc.head), fill: tc.fill, n: gb}
		var out, errb bytes.Buffer
		args := append(tc.args, "-max-bytes", "1000")
		code := run(args, src, &out, &errb)
		if code != exitInvalid || !strings.Contains(errb.String(), "payload_too_large") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		if src.read > 1001 {
			t.Errorf("%v: read %d bytes of a 1 GB input to refuse it at 1000", args, src.read)
		}
	}
	// An input that is exactly at the limit is fine. (On encode the limit
	// also bounds the output, which is the decoder's input.)
	in := "GCF profile=generic\na=1\n"
	if _, stderr, code := runCLI(t, in, "decode", "-max-bytes", fmt.Sprint(len(in))); code != 0 {
		t.Errorf("at the limit: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, in, "decode", "-max-bytes", fmt.Sprint(len(in)-1)); code != 1 || !strings.Contains(stderr, "payload_too_large") {
		t.Errorf("one byte over the limit: exit %d, %s", code, stderr)
	}
	in = `{"a":1}` + "\n"
	if _, stderr, code := runCLI(t, in, "encode", "-stream", "-q", "-max-bytes", "64"); code != 0 {
		t.Errorf("under the limit: exit %d, %s", code, stderr)
	}
	// NDJSON cut at the limit between two records is refused, not truncated.
	in = `{"a":1}` + "\n" + `{"a":2}` + "\n"
	if _, stderr, code := runCLI(t, in, "encode", "-stream", "-max-bytes", "8"); code != 1 || !strings.Contains(stderr, "payload_too_large") {
		t.Errorf("cut between records: exit %d, %s", code, stderr)
	}
}

// The encoder refuses what the decoder with the same limits would reject.
func TestEncodeHonoursLimitFlags(t *testing.T) {
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300)
	for _, tc := range []struct {
		in    string
		flags []string
		want  string
	}{
		{deep, nil, "depth_exceeded"},
		{`[[[1]]]`, []string{"-max-depth", "2"}, "depth_exceeded"},
		{`{"v":"` + strings.Repeat("x", 100) + `"}`, []string{"-max-line", "50"}, "line_too_long"},
		{`[{"a":1,"b":2,"c":3}]`, []string{"-max-fields", "2"}, "too_many_fields"},
		{`[1,2,3]`, []string{"-max-elements", "2"}, "too_many_elements"},
	} {
		out, stderr, code := runCLI(t, tc.in, append([]string{"encode"}, tc.flags...)...)
		if code != exitInvalid || out != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("encode %v: exit %d, stdout %q, stderr %q, want %s", tc.flags, code, out, stderr, tc.want)
		}
	}
	// encode -stream: a row longer than -max-line, though its JSON text is
	// within 8 times the limit.
	rec := `{"v":"` + strings.Repeat("x", 100) + `"}` + "\n"
	if _, stderr, code := runCLI(t, rec, "encode", "-stream", "-max-line", "60"); code != 1 || !strings.Contains(stderr, "line_too_long") {
		t.Errorf("encode -stream -max-line: exit %d, %q", code, stderr)
	}
}
