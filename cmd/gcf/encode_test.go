package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encode -stream explains a nested value or an extra field with a hint,
// never with a Go type name, and says where the record is.
func TestEncodeStreamHints(t *testing.T) {
	in := `{"id":1,"customer":"a"}` + "\n" + `{"id":2}` + "\n" + `{"id":3,"customer":{"name":"Bo"}}` + "\n"
	_, stderr, code := runCLI(t, in, "encode", "-stream")
	want := `<stdin>:3:1: unsupported_value: record 3: field "customer" holds an object; -stream writes flat rows: list flat fields with -fields, or encode without -stream`
	if code != 1 || !strings.HasPrefix(stderr, want+"\n") {
		t.Fatalf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	// An optional key: record 1 lacks a field that a later record has.
	in = `{"id":1}` + "\n" + `{"id":2,"note":"x"}` + "\n"
	_, stderr, _ = runCLI(t, in, "encode", "-stream")
	if !strings.Contains(stderr, `record 2: field "note" is not among the fields of record 1 (id); a streaming table cannot add fields: list every field with -fields`) {
		t.Fatalf("optional key: %q", stderr)
	}
	// ... and -fields is the cure.
	out, stderr, code := runCLI(t, in, "encode", "-stream", "-q", "-fields", "id,note")
	if code != 0 || out != "GCF profile=generic\n## [?]{id,note}\n1|~\n2|x\n##! summary counts=2\n" {
		t.Fatalf("-fields: exit %d, %q, %q", code, out, stderr)
	}
	_, stderr, _ = runCLI(t, in, "encode", "-stream", "-fields", "id")
	if !strings.Contains(stderr, `record 2: field "note" is not listed in -fields (id)`) {
		t.Fatalf("-fields without the key: %q", stderr)
	}
	for _, in := range []string{`[{"a":[1]}]`, `[{"a":{}}]`, `{"a":1}` + "\n" + `{"a":1,"b":2}`, `[{"a":1},"x"]`, `[{"a":1e400}]`} {
		_, stderr, code := runCLI(t, in, "encode", "-stream")
		if code != 1 || strings.Contains(stderr, "gcf.") || strings.Contains(stderr, "[]interface") || strings.Contains(stderr, "map[") {
			t.Errorf("%s: exit %d, a Go type in %q", in, code, stderr)
		}
	}
}

// A failure midway on stdout exits non-zero and says how many records
// were written, and those records are on stdout.
func TestEncodeStreamFailureOnStdoutCountsRecords(t *testing.T) {
	in := "{\"id\":1}\n{\"id\":2}\n{\"id\":\n"
	out, stderr, code := runCLI(t, in, "encode", "-stream")
	if code != 1 || !strings.Contains(stderr, "gcf: 2 records written to stdout before the error; the output is incomplete\n") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if out != "GCF profile=generic\n## [?]{id}\n1\n2\n" {
		t.Fatalf("stdout %q", out)
	}
	if !strings.Contains(stderr, "<stdin>:4:1: unexpected_eof: record 3: the input ends inside the record (which starts at line 3, column 1)") {
		t.Fatalf("stderr %q", stderr)
	}
}

// A record whose JSON text is longer than 8 times -max-line is refused as
// soon as the bound is crossed, without reading the rest of it: a 1 GB
// string costs at most the bound.
func TestEncodeStreamBoundsARecord(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		bound int64
	}{
		{nil, 8 << 20},
		{[]string{"-max-line", "1000"}, 8000},
	} {
		src := &lazy{head: []byte(`{"id":1}` + "\n" + `{"id":2,"s":"`), fill: 'x', n: 1 << 30}
		var out, errb bytes.Buffer
		code := run(append([]string{"encode", "-stream"}, tc.flags...), src, &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "line_too_long: record 2: the record's JSON text is longer than") ||
			!strings.Contains(errb.String(), "raise -max-line") {
			t.Fatalf("%v: exit %d, stderr %q", tc.flags, code, errb.String())
		}
		if src.read > tc.bound+128<<10 {
			t.Fatalf("%v: read %d bytes of the record, bound %d", tc.flags, src.read, tc.bound)
		}
		// The diagnostic does not echo the long line.
		if len(errb.String()) > 1000 {
			t.Fatalf("%v: %d bytes of diagnostics", tc.flags, errb.Len())
		}
	}
	// Nesting is bounded by -max-depth as it is read.
	src := &lazy{head: []byte(`{"a":`), fill: '[', n: 1 << 30}
	var errb bytes.Buffer
	if code := run([]string{"encode", "-stream", "-max-depth", "10"}, src, &bytes.Buffer{}, &errb); code != 1 ||
		!strings.Contains(errb.String(), "<stdin>:1:15: depth_exceeded: record 1: JSON nesting deeper than 10") || src.read > 128<<10 {
		t.Fatalf("depth: %q, read %d", errb.String(), src.read)
	}
}

// JSON errors carry line:column of the input; invalid UTF-8 is
// invalid_utf8 with the byte offset.
func TestEncodeJSONErrorPositions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		in   string
		want string
	}{
		// The message and the exact column come from the JSON parser.
		{[]string{"encode", "-stream"}, "{\"a\":1}\n{\"a\":2}\n{\"a\": tru}\n", "<stdin>:3:"},
		{[]string{"encode", "-stream"}, "[\n {\"a\":1},\n {\"a\":@}\n]", "<stdin>:3:7: "},
		{[]string{"encode", "-stream"}, "{\"a\":1}\n{\"a\":\"\xff\"}\n", "<stdin>:2:7: invalid_utf8: record 2: invalid UTF-8: byte 0xff at byte offset 14 "},
		{[]string{"encode", "-stream"}, "[{\"a\":1} {\"a\":2}]", "<stdin>:1:10: record 1: expected , or ] after the record, found \"{\""},
		{[]string{"encode", "-stream"}, "{\"a\":[1}", "<stdin>:1:8: record 1: \"}\" does not close an open \"[\""},
		{[]string{"encode"}, "{\n  \"a\": [1,\n  2,,3]}", "<stdin>:3:5: "},
		{[]string{"encode"}, "{\"a\":\n\"x\xc3\"}", "<stdin>:2:3: invalid_utf8: invalid UTF-8: byte 0xc3 at byte offset 8 "},
		{[]string{"encode", "-profile", "graph"}, "{\"tool\":\"t\",\n\"symbols\":[}", "<stdin>:2:12: not a graph payload: invalid character '}'"},
		{[]string{"encode", "-profile", "graph"}, "{\"tool\":\"t\",\n\"bogus\":1}", "<stdin>: not a graph payload: unknown field \"bogus\""},
	} {
		out, stderr, code := runCLI(t, tc.in, tc.args...)
		stream := len(tc.args) > 1 && tc.args[1] == "-stream"
		if stream && !strings.Contains(stderr, ": record ") {
			t.Errorf("%q: the error does not name the record: %q", tc.in, stderr)
		}
		if code != 1 || out != "" && !stream || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v %q: exit %d, stderr %q, want prefix %q", tc.args, tc.in, code, stderr, tc.want)
		}
	}
}

// Positions that only gcf.ParseJSON can give: the second of two duplicate
// keys, a number out of range.
func TestEncodeJSONErrorPositionsFromParseJSON(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		in, want string
	}{
		{[]string{"encode"}, "{\"a\":1,\n \"a\":2}", "<stdin>:2:2: duplicate_key: "},
		{[]string{"encode"}, "{\"a\":1,\n \"b\":1e999}", "<stdin>:2:6: out_of_range: "},
		{[]string{"encode", "-stream"}, "{\"a\":1}\n{\"a\":1,\"a\":2}", "<stdin>:2:8: duplicate_key: record 2: "},
	} {
		_, stderr, code := runCLI(t, tc.in, tc.args...)
		if code != 1 || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v %q: exit %d, stderr %q, want prefix %q", tc.args, tc.in, code, stderr, tc.want)
		}
	}
}

// The size line compares the output with the input as minified JSON,
// whatever the input's layout, says so, and says which way.
func TestEncodeSizeLine(t *testing.T) {
	_, stderr, _ := runCLI(t, `[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]`, "encode")
	if want := "gcf: 61 bytes as minified JSON -> 48 bytes of GCF (13 bytes smaller, 21.3%)\n"; stderr != want {
		t.Errorf("smaller: %q, want %q", stderr, want)
	}
	// Pretty input: the comparison is with the same value minified (61
	// bytes), not with the 135 bytes given.
	pretty := "[\n  {\n    \"id\": 1,\n    \"name\": \"a\"\n  },\n  {\n    \"id\": 2,\n    \"name\": \"b\"\n  },\n  {\n    \"id\": 3,\n    \"name\": \"c\"\n  }\n]\n"
	_, stderr, _ = runCLI(t, pretty, "encode")
	if want := "gcf: 61 bytes as minified JSON -> 48 bytes of GCF (13 bytes smaller, 21.3%)\n"; stderr != want {
		t.Errorf("pretty: %q, want %q", stderr, want)
	}
	_, stderr, _ = runCLI(t, "  1\n", "encode")
	if want := "gcf: 1 bytes as minified JSON -> 23 bytes of GCF (22 bytes larger, 2200.0%)\n"; stderr != want {
		t.Errorf("larger: %q, want %q", stderr, want)
	}
	// -stream: the records as one minified array, [{...},{...}].
	_, stderr, _ = runCLI(t, "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}\n", "encode", "-stream")
	if want := "gcf: 41 bytes as minified JSON -> 65 bytes of GCF (24 bytes larger, 58.5%)\n"; stderr != want {
		t.Errorf("-stream: %q, want %q", stderr, want)
	}
	for _, args := range [][]string{{"encode", "-q"}, {"encode", "-q", "-stream"}} {
		if _, stderr, code := runCLI(t, `[{"a":1}]`, args...); code != 0 || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// minifiedSize is the length of json.Compact's output.
func TestMinifiedSize(t *testing.T) {
	for _, in := range []string{``, `1`, " {\"a b\" : [ 1 , \"x \\\" y\" ] }\n", "\"\\\\\" ", `{"<":"&"}`} {
		var b bytes.Buffer
		json.Compact(&b, []byte(in))
		if got := minifiedSize([]byte(in)); got != int64(b.Len()) {
			t.Errorf("minifiedSize(%q) = %d, want %d (%q)", in, got, b.Len(), b.String())
		}
	}
}

// encode -smallest writes a layout with fewer tokens than the canonical
// one where there is one, which decodes to the same value; -tokenizer
// selects the vocabulary; both are usage errors where they do not apply.
func TestEncodeSmallest(t *testing.T) {
	in := `{"a":{"x":1,"y":2,"z":3},"b":{"p":"q","r":"s","t":"u"},"tags":[]}`
	canon, _, code := runCLI(t, in, "encode", "-q")
	if code != 0 {
		t.Fatalf("canonical: exit %d", code)
	}
	for _, args := range [][]string{{"encode", "-q", "-smallest"}, {"encode", "-q", "-smallest", "-tokenizer", "cl100k"}} {
		out, stderr, code := runCLI(t, in, args...)
		if code != 0 || out == canon || !strings.Contains(out, "## a\n  x=1\n") {
			t.Fatalf("%v: exit %d, %q, %q (canonical %q)", args, code, out, stderr, canon)
		}
		back, _, code := runCLI(t, out, "decode")
		if code != 0 || strings.TrimSpace(back) != in {
			t.Fatalf("%v: decode: exit %d, %q", args, code, back)
		}
	}
	for _, args := range [][]string{
		{"encode", "-smallest", "-stream"},
		{"encode", "-smallest", "-profile", "graph"},
		{"encode", "-smallest", "-codec", "json"},
		{"encode", "-smallest", "-wire", "v1"},
		{"encode", "-tokenizer", "cl100k"},
		{"encode", "-smallest", "-tokenizer", "p50k"},
	} {
		if _, stderr, code := runCLI(t, in, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage); %q", args, code, stderr)
		}
	}
}

// encode -spec: 3.6.0 (the default) factors constant columns (spec v3.6.0
// §7.4.7), 3.5.3 writes every cell; anything else, or another profile or
// wire, is a usage error.
func TestEncodeSpecBytes(t *testing.T) {
	in := `[{"id":1,"r":"eu"},{"id":2,"r":"eu"}]`
	const v36 = "GCF profile=generic\n## [2]{id,r=eu}\n1\n2\n"
	const v353 = "GCF profile=generic\n## [2]{id,r}\n1|eu\n2|eu\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"encode", "-q"}, v36},
		{[]string{"encode", "-q", "-spec", "3.6.0"}, v36},
		{[]string{"encode", "-q", "-spec", "3.5.3"}, v353},
		{[]string{"encode", "-q", "-smallest", "-spec", "3.5.3"}, v353},
	} {
		if out, stderr, code := runCLI(t, in, c.args...); code != 0 || out != c.want {
			t.Errorf("%v: exit %d, %q, want %q; %q", c.args, code, out, c.want, stderr)
		}
	}
	for _, args := range [][]string{
		{"encode", "-spec", "3.7"},
		{"encode", "-spec", "3.5.3", "-wire", "v1"},
	} {
		if _, stderr, code := runCLI(t, in, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage); %q", args, code, stderr)
		}
	}
}

// gcf stats shows the smallest GCF beside canonical GCF for a generic
// payload, never with more tokens.
func TestStatsSmallestRow(t *testing.T) {
	in := `{"a":{"x":1,"y":2,"z":3},"b":{"p":"q","r":"s","t":"u"},"tags":[]}`
	out, stderr, code := runCLI(t, in, "stats", "-json", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var files []struct {
		Rows []struct {
			Format string `json:"format"`
			Tokens *int   `json:"tokens"`
		} `json:"formats"`
	}
	if err := json.Unmarshal([]byte(out), &files); err != nil || len(files) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	tok := map[string]int{}
	for _, r := range files[0].Rows {
		if r.Tokens != nil {
			tok[r.Format] = *r.Tokens
		}
	}
	s, ok := tok["GCF smallest"]
	if !ok || s > tok["GCF"] || s == 0 {
		t.Fatalf("rows %v", tok)
	}
}
