package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// encode -from converts a real CSV file, a YAML workflow and a TOML file
// to the same GCF as their JSON conversion, and its errors carry the
// input's line:column and exit 1.
func TestEncodeFrom(t *testing.T) {
	// A YAML document and the JSON it means encode to the same GCF.
	yml := "name: build\non:\n  push:\n    branches: [master]\njobs:\n  - {id: 1, os: linux}\n  - {id: 2, os: mac}\n"
	js := `{"name":"build","on":{"push":{"branches":["master"]}},"jobs":[{"id":1,"os":"linux"},{"id":2,"os":"mac"}]}`
	fromYAML, stderr, code := runCLI(t, yml, "encode", "-from", "yaml", "-q")
	fromJSON, _, _ := runCLI(t, js, "encode", "-q")
	if code != 0 || fromYAML != fromJSON {
		t.Fatalf("-from yaml: exit %d %q\n%s\nwant\n%s", code, stderr, fromYAML, fromJSON)
	}
	// The size line compares with the converted JSON, minified.
	_, stderr, _ = runCLI(t, yml, "encode", "-from", "yaml")
	if !strings.Contains(stderr, fmt.Sprintf("gcf: %d bytes as minified JSON", len(js))) {
		t.Errorf("size line %q", stderr)
	}
	for _, c := range []struct{ from, in, want string }{
		{"yaml", "x: 1\na: [1\n", "<stdin>:2:4: YAML: sequence end token ']' not found\n  a: [1\n     ^\n"},
		{"toml", "a = 1\na = 2\n", "<stdin>:2:1: duplicate_key: TOML: key a is already defined\n"},
		{"csv", "id,name\n1,a\n2,b,c\n", "<stdin>:3:1: CSV: a row with another number of fields than the header row\n  2,b,c\n  ^\n"},
		{"msgpack", "\x81\x01\x02", "<stdin>: unsupported_value: MessagePack at byte offset 1: a map key that is not a string (code 0x01): JSON keys are strings\n"},
		{"yaml", "a: [[[1]]]\n", "<stdin>: depth_exceeded: nesting deeper than 3 levels\n"},
	} {
		args := []string{"encode", "-from", c.from}
		if strings.Contains(c.want, "depth_exceeded") {
			args = append(args, "-max-depth", "3")
		}
		out, stderr, code := runCLI(t, c.in, args...)
		if code != 1 || out != "" || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("-from %s %q: exit %d, stdout %q, stderr\n%s\nwant\n%s", c.from, c.in, code, out, stderr, c.want)
		}
	}
	// -max-bytes bounds the input, whatever its format.
	if _, stderr, code := runCLI(t, "a,b\n1,2\n3,4\n", "encode", "-from", "csv", "-max-bytes", "8"); code != 1 || !strings.Contains(stderr, "payload_too_large") {
		t.Errorf("-max-bytes: exit %d %q", code, stderr)
	}
	for _, args := range [][]string{{"-from", "xml"}, {"-from", "csv", "-stream"}} {
		if _, stderr, code := runCLI(t, "", append([]string{"encode"}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d %q, want a usage error", args, code, stderr)
		}
	}
}

// A real CSV file (vega-datasets, installed for the proxy tests) encodes
// to a table that decodes back to its rows as strings.
func TestEncodeFromCSVFile(t *testing.T) {
	path := filepath.Join(mcpServersDir, "node_modules", "vega-datasets", "data", "seattle-weather.csv")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("skip: %s is absent: run npm ci in %s", path, mcpServersDir)
	}
	out, stderr, code := runCLI(t, "", "encode", "-from", "csv", "-q", path)
	if code != 0 {
		t.Fatalf("exit %d %q", code, stderr)
	}
	if !strings.HasPrefix(out, "GCF profile=generic\n## [1461]{date,precipitation,temp_max,temp_min,wind,weather}\n") {
		t.Fatalf("head %.120q", out)
	}
	back, stderr, code := runCLI(t, out, "decode")
	if code != 0 || !strings.HasPrefix(back, `[{"date":"2012-01-01","precipitation":"0.0","temp_max":"12.8"`) {
		t.Fatalf("decode: exit %d %q %.100q", code, stderr, back)
	}
}
