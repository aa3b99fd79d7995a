package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// encode of JSON text, from a regular file (transcode.EncodeJSONFrom) and
// from stdin (transcode.EncodeJSON), prints what EncodeGeneric(ParseJSON)
// returns, with -summary and -o too, and reports errors as the buffered
// path does: invalid UTF-8 and malformed JSON with their line:column.
func TestEncodeTranscoded(t *testing.T) {
	dir := t.TempDir()
	for _, in := range []string{
		`[{"id":1,"name":"a b","k":"c","tags":["x","y"],"geo":{"lat":1.5,"lon":2}},{"id":2,"name":"q","k":"c","tags":[],"geo":null}]`,
		`{"users":[{"id":1},{"id":2}],"n":3,"m":{"a":{"x":1},"b":{"x":2}}}`,
		`[{"a":[{"b":1}]}]`, // a record holding a table
		`[1,2]`,             // falls back
	} {
		v, err := gcf.ParseJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		want, err := gcf.EncodeGeneric(v)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "in.json")
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := runCLI(t, in, "encode", "-q")
		if code != 0 || out != string(want) {
			t.Errorf("stdin: exit %d, %q, %q; want %q", code, out, stderr, want)
		}
		out, stderr, code = runCLI(t, "", "encode", "-q", "-summary", p)
		if code != 0 || out != string(want)+"##! summary\n" {
			t.Errorf("file: exit %d, %q, %q; want %q", code, out, stderr, want)
		}
		o := filepath.Join(dir, "out.gcf")
		if _, stderr, code = runCLI(t, "", "encode", "-o", o, p); code != 0 || !strings.Contains(stderr, "bytes as minified JSON") {
			t.Errorf("-o: exit %d, %q", code, stderr)
		}
		if got, _ := os.ReadFile(o); string(got) != string(want) {
			t.Errorf("-o: %q, want %q", got, want)
		}
	}
	for in, msg := range map[string]string{
		"[{\"a\":\"\xff\"}]":     "1:8: invalid_utf8: invalid UTF-8: byte 0xff at byte offset 7",
		"[{\"a\":1},\n{\"a\":}]": "2:6: invalid_line: expected a JSON value",
	} {
		p := filepath.Join(dir, "bad.json")
		os.WriteFile(p, []byte(in), 0o644)
		for _, args := range [][]string{{"encode", p}, {"encode"}} {
			out, stderr, code := runCLI(t, in, args...)
			if code != 1 || out != "" || !strings.Contains(stderr, msg) {
				t.Errorf("%v %q: exit %d, stdout %q, stderr %q; want %q", args, in, code, out, stderr, msg)
			}
		}
	}
}

// A record over 512 KiB of JSON read from stdin (its heap would exceed
// the memory limit set for the input; the limit makes room for it): the
// buffered output, and the GC settings are restored after it.
func TestEncodeStdinLargeRecord(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"arcs":[[1,2],[3]],"objects":{"big":{"type":"GeometryCollection","geometries":[`)
	for i := 0; i < 30000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"Polygon","arcs":[[1,2,3]],"id":12345}`)
	}
	b.WriteString(`]},"small":{"type":"Point","geometries":[]}}}`)
	in := b.String()
	v, err := gcf.ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want, err := gcf.EncodeGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	gcp := debug.SetGCPercent(100)
	debug.SetGCPercent(gcp)
	ml := debug.SetMemoryLimit(-1)
	out, stderr, code := runCLI(t, in, "encode", "-q")
	if code != 0 || out != string(want) {
		t.Errorf("exit %d, %d bytes (want %d), %q", code, len(out), len(want), stderr)
	}
	if g := debug.SetGCPercent(gcp); g != gcp {
		t.Errorf("GOGC %d after the encode, want %d", g, gcp)
	}
	if m := debug.SetMemoryLimit(-1); m != ml {
		t.Errorf("memory limit %d after the encode, want %d", m, ml)
	}
}

// -buffered takes the whole-value path: the same output.
func TestEncodeBufferedFlag(t *testing.T) {
	in := `[{"id":1,"tags":["a"]},{"id":2,"tags":[]}]`
	a, _, c1 := runCLI(t, in, "encode", "-q")
	b, _, c2 := runCLI(t, in, "encode", "-q", "-buffered")
	if c1 != 0 || c2 != 0 || a != b || a == "" {
		t.Fatalf("exit %d %d: %q vs %q", c1, c2, a, b)
	}
	if _, _, code := runCLI(t, in, "encode", "-buffered", "-stream"); code != 2 {
		t.Fatalf("-buffered -stream: exit %d, want 2", code)
	}
}

// An encode limit broken after output was written: the error is the
// buffered path's, stdout holds a prefix of the output and stderr says it
// is incomplete; -o leaves nothing.
func TestEncodeTranscodedLateLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 20000; i++ {
		b.WriteString(`{"id":1,"name":"n"},`)
	}
	b.WriteString(`{"id":2,"name":"` + strings.Repeat("x", 300) + `"}]`)
	in := b.String()
	v, _ := gcf.ParseJSON([]byte(in))
	_, werr := gcf.EncodeGeneric(v, gcf.WithMaxLineBytes(200))
	if werr == nil {
		t.Fatal("no limit error from EncodeGeneric")
	}
	full, _ := gcf.EncodeGeneric(v)
	out, stderr, code := runCLI(t, in, "encode", "-max-line", "200")
	se := werr.(*gcf.SyntaxError)
	if code != 1 || !strings.Contains(stderr, se.Msg) || !strings.Contains(stderr, "bytes written to stdout before the error; the output is incomplete") {
		t.Fatalf("exit %d, stderr %q; want %q", code, stderr, se.Msg)
	}
	if out == "" || !strings.HasPrefix(string(full), out) {
		t.Fatalf("stdout (%d bytes) is not a prefix of the output", len(out))
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "in.json")
	os.WriteFile(p, []byte(in), 0o644)
	o := filepath.Join(dir, "out.gcf")
	if _, _, code := runCLI(t, "", "encode", "-max-line", "200", "-o", o, p); code != 1 {
		t.Fatalf("-o: exit %d", code)
	}
	if _, err := os.Stat(o); !os.IsNotExist(err) {
		t.Fatalf("-o left %s: %v", o, err)
	}
}
