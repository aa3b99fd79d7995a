package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEncodeStreamArrayAndNDJSON(t *testing.T) {
	want := "GCF profile=generic\n## [?]{id,name}\n1|a\n2|\"b,c\"\n##! summary counts=2\n"
	for _, in := range []string{
		` [{"id":1,"name":"a"}, {"id":2,"name":"b,c"}] `,
		"{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b,c\"}\n",
		"{\"id\":1,\"name\":\"a\"}{\"name\":\"b,c\",\"id\":2}", // concatenated, keys reordered
	} {
		out, stderr, code := runCLI(t, in, "encode", "-stream")
		if code != 0 || out != want {
			t.Errorf("%q: code %d, stderr %q\n%s", in, code, stderr, out)
		}
	}
	// A declared schema and a table name; absent fields become ~.
	out, _, code := runCLI(t, `[{"a":1},{"b":true}]`, "encode", "-stream", "-fields", "a, b", "-table", "t")
	if want := "GCF profile=generic\n## t [?]{a,b}\n1|~\n~|true\n##! summary counts=2\n"; code != 0 || out != want {
		t.Errorf("-fields: code %d\n%s", code, out)
	}
	// Empty inputs stay valid payloads.
	if out, _, code := runCLI(t, "[]", "encode", "-stream"); code != 0 || out != "GCF profile=generic\n## [0]\n" {
		t.Errorf("empty array: code %d %q", code, out)
	}
	if out, _, code := runCLI(t, "", "encode", "-stream", "-fields", "x"); code != 0 || out != "GCF profile=generic\n## [?]{x}\n##! summary counts=0\n" {
		t.Errorf("empty NDJSON with fields: code %d %q", code, out)
	}
}

func TestEncodeStreamRejectsRecordsOutsideTheSchema(t *testing.T) {
	for in, want := range map[string]string{
		"{\"id\":1}\n{\"id\":2,\"x\":3}\n": "<stdin>:2:1: invalid_schema: record 2: field \"x\" is not among the fields of record 1 (id); a streaming table cannot add fields: list every field with -fields\n",
		`[{"id":1},{"id":[1]}]`:            "<stdin>:1:11: unsupported_value: record 2: field \"id\" holds an array; -stream writes flat rows",
		`[{"id":1},7]`:                     "<stdin>:1:11: unsupported_value: record 2 is not a JSON object (found \"7\")",
		`[{"id":1},`:                       "<stdin>:1:11: unexpected_eof: record 2: the input ends inside the JSON array (no closing ])",
		`[{"id":1}] x`:                     "<stdin>:1:12: unexpected data after the JSON array",
		`{"a>b":1}`:                        "invalid_schema: streamed field name \"a>b\"",
	} {
		_, stderr, code := runCLI(t, in, "encode", "-stream")
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%q: code %d, stderr %q, want %q", in, code, stderr, want)
		}
	}
}

// endless yields NDJSON records for ever.
type endless struct {
	n   int
	buf []byte
}

func (e *endless) Read(p []byte) (int, error) {
	for len(e.buf) < len(p) {
		e.buf = fmt.Appendf(e.buf, "{\"id\":%d,\"name\":\"n%d\"}\n", e.n, e.n)
		e.n++
	}
	n := copy(p, e.buf)
	e.buf = e.buf[:copy(e.buf, e.buf[n:])]
	return n, nil
}

// limitWriter fails once more than max bytes were written.
type limitWriter struct{ n, max int }

var errFull = errors.New("output full")

func (w *limitWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if w.n > w.max {
		return 0, errFull
	}
	return len(p), nil
}

// encode -stream must write as it reads: an endless input reaches a full
// output instead of being read to the end first.
func TestEncodeStreamWritesAsItReads(t *testing.T) {
	src := &endless{}
	_, _, err := encodeStream(src, &limitWriter{max: 1 << 20}, streamOptions{}, nil)
	if !errors.Is(err, errFull) {
		t.Fatalf("got %v, want the writer's error", err)
	}
	if src.n > 250_000 {
		t.Fatalf("read %d records to fill 1 MB of output", src.n)
	}
}

func TestDecodeNDJSON(t *testing.T) {
	enc, _, code := runCLI(t, "", "encode", "-q", filepath.Join("..", "..", "testdata", "examples", "orders.json"))
	if code != 0 {
		t.Fatal("encode failed")
	}
	out, stderr, code := runCLI(t, enc, "decode", "-ndjson", "-progress")
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// Every record with its place: the root member, the three orders and
	// the two warehouses of the keyed map (docs/ndjson.md).
	if len(lines) != 6 || lines[0] != `{"path":"store","value":"north-1"}` ||
		!strings.HasPrefix(lines[1], `{"table":"orders","row":{"id":"ORD-1001","customer":{"name":"Alice Chen"`) ||
		!strings.Contains(lines[1], `"items":[{"sku":"WM-01"`) ||
		lines[4] != `{"table":"warehouses","key":"ams","row":{"city":"Amsterdam","capacity":12000,"open":true}}` {
		t.Fatalf("ndjson:\n%s", out)
	}
	if !strings.Contains(stderr, "6 records") || !strings.Contains(stderr, "(done)") {
		t.Fatalf("progress: %q", stderr)
	}
	// Round trip: NDJSON -> streaming GCF -> NDJSON.
	gcfOut, _, code := runCLI(t, "{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":null}\n", "encode", "-stream")
	back, _, code2 := runCLI(t, gcfOut, "decode", "-ndjson")
	if code != 0 || code2 != 0 || back != "{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":null}\n" {
		t.Fatalf("round trip: %q", back)
	}
	// Graph payloads are records too: a header line, then symbols and edges.
	if out, stderr, code := runCLI(t, "GCF profile=graph\n", "decode", "-ndjson"); code != 0 || !strings.HasPrefix(out, `{"type":"header",`) {
		t.Fatalf("graph input: %d %q %q", code, out, stderr)
	}
}

func TestDecodeNDJSONErrorShowsLineFromFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.gcf")
	var b bytes.Buffer
	b.WriteString("GCF profile=generic\n## [?]{id,name}\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "%d|n%d\n", i, i)
	}
	b.WriteString("5000|x|y\n")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "", "decode", "-ndjson", p)
	want := p + ":5003:1: row_width_mismatch"
	if code != 1 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "\n  5000|x|y\n  ^\n") {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
}
