package convert

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/vmihailenco/msgpack/v5"
)

// nodeModules is the npm tree the proxy tests install (npm ci in
// cmd/gcf/testdata/mcp-servers); tests that read real documents from it skip
// without it.
func nodeModules(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "mcp-servers", "node_modules")
	if _, err := os.Stat(filepath.Join(dir, "vega-datasets")); err != nil {
		t.Skipf("skip: the real documents are in %s, absent: run npm ci in cmd/gcf/testdata/mcp-servers", dir)
	}
	return dir
}

// keysInOrder returns the keys of the JSON object text obj, in order.
func keysInOrder(t *testing.T, obj []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %.80s", obj)
	}
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// roundTrip checks that js, converted JSON, encodes to GCF that decodes to
// the same value.
func roundTrip(t *testing.T, js []byte) {
	t.Helper()
	v, err := gcf.ParseJSON(js)
	if err != nil {
		t.Fatalf("the converted JSON does not parse: %v", err)
	}
	enc, err := gcf.EncodeGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := gcf.DecodeGeneric(enc)
	if err != nil {
		t.Fatalf("GCF of the converted JSON does not decode: %v", err)
	}
	var a, b any
	bj, _ := json.Marshal(back)
	json.Unmarshal(js, &a)
	json.Unmarshal(bj, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("GCF does not decode to the converted JSON")
	}
}

func TestCSVVegaDatasets(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(nodeModules(t), "vega-datasets", "data", "*.csv"))
	if len(files) < 10 {
		t.Fatalf("%d CSV files in vega-datasets, want at least 10", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		js, err := ToJSON("csv", data, Limits{})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var recs []map[string]string // every value a string
		if err := json.Unmarshal(js, &recs); err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		if len(recs) != len(rows)-1 {
			t.Errorf("%s: %d records, want %d", filepath.Base(f), len(recs), len(rows)-1)
		}
		last := recs[len(recs)-1]
		for i, h := range rows[0] {
			if last[h] != rows[len(rows)-1][i] {
				t.Errorf("%s: last record's %q = %q, want %q", filepath.Base(f), h, last[h], rows[len(rows)-1][i])
			}
		}
		var first []json.RawMessage
		json.Unmarshal(js, &first)
		if got := keysInOrder(t, first[0]); !reflect.DeepEqual(got, rows[0]) {
			t.Errorf("%s: keys %v, want the header's order %v", filepath.Base(f), got, rows[0])
		}
		roundTrip(t, js)
	}
	t.Logf("%d vega-datasets CSV files converted", len(files))
}

func TestYAMLGitHubWorkflow(t *testing.T) {
	path := filepath.Join(nodeModules(t), "json-schema-traverse", ".github", "workflows", "build.yml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("skip: the GitHub workflow %s is absent (json-schema-traverse changed its package?): %v", path, err)
	}
	js, err := ToJSON("yaml", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// YAML 1.2: "on" is a string key, not true; 10.x a string.
	if got, want := keysInOrder(t, js), []string{"name", "on", "jobs"}; !reflect.DeepEqual(got, want) {
		t.Errorf("top-level keys %v, want %v (the document's order)", got, want)
	}
	var doc struct {
		Jobs map[string]struct {
			Strategy struct {
				Matrix map[string][]any
			}
			Steps []map[string]any
		}
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if nv := doc.Jobs["build"].Strategy.Matrix["node-version"]; !reflect.DeepEqual(nv, []any{"10.x", "12.x", "14.x"}) {
		t.Errorf("node-version = %#v", nv)
	}
	if n := len(doc.Jobs["build"].Steps); n < 3 {
		t.Errorf("%d steps", n)
	}
	roundTrip(t, js)
}

func TestYAMLMapping(t *testing.T) {
	doc := "base: &b {x: 1, y: [a, b]}\nuse: *b\nmerged:\n  <<: *b\n  z: 2\n200: ok\ntrue: yes\nwhen: !!timestamp 2001-12-14T21:59:43.10-05:00\nbin: !!binary aGVsbG8=\nplain: 2001-12-14\n"
	js, err := ToJSON("yaml", []byte(doc), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"base":{"x":1,"y":["a","b"]},"use":{"x":1,"y":["a","b"]},"merged":{"x":1,"y":["a","b"],"z":2},"200":"ok","true":"yes","when":"2001-12-14T21:59:43.1-05:00","bin":"aGVsbG8=","plain":"2001-12-14"}`
	if string(js) != want {
		t.Errorf("got  %s\nwant %s", js, want)
	}
}

// pyproject is a real TOML document: gyp-next's pyproject.toml, in the
// node-gyp that npm bundles.
func pyproject(t *testing.T) []byte {
	t.Helper()
	out, err := exec.Command("npm", "root", "-g").Output()
	if err != nil {
		t.Skipf("skip: npm is not available to locate node-gyp's pyproject.toml: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "npm", "node_modules", "node-gyp", "gyp", "pyproject.toml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("skip: no pyproject.toml in npm's node-gyp: %v", err)
	}
	return data
}

func TestTOMLPyproject(t *testing.T) {
	js, err := ToJSON("toml", pyproject(t), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		BuildSystem struct {
			Requires []string `json:"requires"`
		} `json:"build-system"`
		Project struct {
			Name    string           `json:"name"`
			Authors []map[string]any `json:"authors"`
		} `json:"project"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Project.Name == "" || len(doc.BuildSystem.Requires) == 0 || len(doc.Project.Authors) == 0 {
		t.Errorf("project or build-system missing: %s", js)
	}
	keys := keysInOrder(t, js)
	if !sortedStrings(keys) {
		t.Errorf("top-level keys %v, want byte order", keys)
	}
	roundTrip(t, js)
}

func sortedStrings(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] > s[i] {
			return false
		}
	}
	return true
}

func TestTOMLDatetimes(t *testing.T) {
	doc := "odt = 1979-05-27T07:32:00.999-07:00\nldt = 1979-05-27T07:32:00\nld = 1979-05-27\nlt = 07:32:00\n"
	js, err := ToJSON("toml", []byte(doc), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ld":"1979-05-27","ldt":"1979-05-27T07:32:00","lt":"07:32:00","odt":"1979-05-27T07:32:00.999-07:00"}`
	if string(js) != want {
		t.Errorf("got  %s\nwant %s", js, want)
	}
	if _, err := ToJSON("toml", []byte("x = inf\n"), Limits{}); !errors.Is(err, gcf.OutOfRange) {
		t.Errorf("inf: %v, want out_of_range", err)
	}
}

// toMsgpack writes the JSON text js as MessagePack with the library's
// encoder, keeping the order of keys.
func toMsgpack(t *testing.T, js []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var walk func() error
	walk = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok := tok.(type) {
		case json.Delim:
			var items []json.RawMessage
			if tok == '{' {
				var keys []string
				for dec.More() {
					k, _ := dec.Token()
					var raw json.RawMessage
					if err := dec.Decode(&raw); err != nil {
						return err
					}
					keys = append(keys, k.(string))
					items = append(items, raw)
				}
				dec.Token()
				enc.EncodeMapLen(len(keys))
				for i, k := range keys {
					enc.EncodeString(k)
					sub := json.NewDecoder(bytes.NewReader(items[i]))
					saved := dec
					dec = sub
					dec.UseNumber()
					if err := walk(); err != nil {
						return err
					}
					dec = saved
				}
				return nil
			}
			for dec.More() {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return err
				}
				items = append(items, raw)
			}
			dec.Token()
			enc.EncodeArrayLen(len(items))
			for _, it := range items {
				saved := dec
				dec = json.NewDecoder(bytes.NewReader(it))
				dec.UseNumber()
				if err := walk(); err != nil {
					return err
				}
				dec = saved
			}
			return nil
		case json.Number:
			if i, err := tok.Int64(); err == nil {
				return enc.EncodeInt(i)
			}
			f, _ := tok.Float64()
			return enc.EncodeFloat64(f)
		case string:
			return enc.EncodeString(tok)
		case bool:
			return enc.EncodeBool(tok)
		case nil:
			return enc.EncodeNil()
		}
		return io.ErrUnexpectedEOF
	}
	if err := walk(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestMsgpackFromRealJSON(t *testing.T) {
	for _, name := range []string{"orders.json", "graph.json"} {
		js, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		mp := toMsgpack(t, js)
		got, err := ToJSON("msgpack", mp, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := sameTokens(got, js); err != nil {
			t.Errorf("%s: MessagePack converts to\n%s\n%v", name, got, err)
		}
	}
}

// sameTokens compares two JSON texts token by token: the same keys in the
// same order, numbers by value (0.40 went through a float64).
func sameTokens(a, b []byte) error {
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	for i := 0; ; i++ {
		ta, ea := da.Token()
		tb, eb := db.Token()
		if ea == io.EOF && eb == io.EOF {
			return nil
		}
		if ea != nil || eb != nil || ta != tb {
			return fmt.Errorf("token %d: %v (%v), want %v (%v)", i, ta, ea, tb, eb)
		}
	}
}

func TestMsgpackTypes(t *testing.T) {
	enc := func(f func(e *msgpack.Encoder)) []byte {
		var b bytes.Buffer
		f(msgpack.NewEncoder(&b))
		return b.Bytes()
	}
	bin := enc(func(e *msgpack.Encoder) { e.EncodeMapLen(1); e.EncodeString("b"); e.EncodeBytes([]byte("hello")) })
	if js, err := ToJSON("msgpack", bin, Limits{}); err != nil || string(js) != `{"b":"aGVsbG8="}` {
		t.Errorf("bin: %s %v", js, err)
	}
	intKey := enc(func(e *msgpack.Encoder) { e.EncodeMapLen(1); e.EncodeInt(1); e.EncodeString("x") })
	if _, err := ToJSON("msgpack", intKey, Limits{}); !errors.Is(err, gcf.UnsupportedValue) || !strings.Contains(err.Error(), "offset 1") {
		t.Errorf("int key: %v, want unsupported_value at offset 1", err)
	}
	ext := []byte{0x91, 0xd4, 0x05, 0x00} // [fixext1 type 5]
	if _, err := ToJSON("msgpack", ext, Limits{}); !errors.Is(err, gcf.UnsupportedValue) || !strings.Contains(err.Error(), "offset 1: extension type 5") {
		t.Errorf("ext: %v", err)
	}
	ts := enc(func(e *msgpack.Encoder) { e.EncodeArrayLen(1); e.EncodeTime(mustTime(t)) })
	if js, err := ToJSON("msgpack", ts, Limits{}); err != nil || string(js) != `["2001-12-15T02:59:43.1Z"]` {
		t.Errorf("timestamp: %s %v", js, err)
	}
	// A map of 2^32-1 pairs declared in 6 bytes: refused before any allocation.
	if _, err := ToJSON("msgpack", []byte{0xdf, 0xff, 0xff, 0xff, 0xff, 0xc0}, Limits{}); !errors.Is(err, gcf.UnexpectedEOF) {
		t.Errorf("huge map: %v, want unexpected_eof", err)
	}
	if _, err := ToJSON("msgpack", []byte{0xdb, 0xff, 0xff, 0xff, 0xf0, 'a'}, Limits{}); !errors.Is(err, gcf.UnexpectedEOF) {
		t.Errorf("huge string: %v, want unexpected_eof", err)
	}
	if _, err := ToJSON("msgpack", []byte{0x91, 0xa2, 'a', 0xff}, Limits{}); !errors.Is(err, gcf.InvalidUTF8) || !strings.Contains(err.Error(), "offset 2") {
		t.Errorf("invalid UTF-8 string: %v, want invalid_utf8 at offset 2", err)
	}
	if _, err := ToJSON("csv", []byte("a\nx\xff\n"), Limits{}); !errors.Is(err, gcf.InvalidUTF8) || !strings.HasPrefix(err.Error(), "2:2:") {
		t.Errorf("CSV not UTF-8: %v, want invalid_utf8 at 2:2", err)
	}
	if _, err := ToJSON("msgpack", []byte{0xc0, 0xc0}, Limits{}); !errors.Is(err, gcf.TrailingCharacters) || !strings.Contains(err.Error(), "offset 1") {
		t.Errorf("trailing: %v", err)
	}
	if _, err := ToJSON("msgpack", []byte{0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 1}, Limits{}); !errors.Is(err, gcf.OutOfRange) {
		t.Errorf("NaN: %v, want out_of_range", err)
	}
}

func mustTime(t *testing.T) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, "2001-12-14T21:59:43.10-05:00")
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func TestErrorsArePlaced(t *testing.T) {
	for _, c := range []struct {
		format, doc string
		line, col   int
		off         int64
		cat         gcf.Category
		msg         string
	}{
		{"yaml", "x: 1\na: [1\n", 2, 4, 8, "", "YAML: "},
		{"yaml", "a: 1\na: 2\n", 2, 1, 5, gcf.DuplicateKey, "already"},
		{"toml", "a = 1\na = 2\n", 2, 1, 6, gcf.DuplicateKey, "TOML: "},
		{"toml", "[t]\nx = \n", 2, 5, 8, "", "TOML: "},
		{"csv", "id,name\n1,a\n2,b,c\n", 3, 1, 12, "", "another number of fields"},
		{"csv", "id,id\n1,2\n", 1, 1, 0, gcf.DuplicateKey, `"id" twice`},
		{"csv", "a\n\"x\n", 2, 4, 5, "", "CSV: "},
	} {
		_, err := ToJSON(c.format, []byte(c.doc), Limits{})
		var se *gcf.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s %q: %v, want a *gcf.SyntaxError", c.format, c.doc, err)
			continue
		}
		if se.Line != c.line || (c.col > 0 && se.Column != c.col) || se.Offset != c.off || se.Category != c.cat || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s %q: %d:%d (offset %d) %s: %s; want %d:%d (offset %d) %s, %q", c.format, c.doc, se.Line, se.Column, se.Offset, se.Category, se.Msg, c.line, c.col, c.off, c.cat, c.msg)
		}
	}
}

func TestLimits(t *testing.T) {
	deep := map[string][]byte{
		"yaml":    []byte("a: [[[[1]]]]\n"),
		"toml":    []byte("a = [[[[1]]]]\n"),
		"msgpack": {0x81, 0xa1, 'a', 0x91, 0x91, 0x91, 0x91, 0x01},
	}
	for f, doc := range deep {
		if _, err := ToJSON(f, doc, Limits{MaxDepth: 5}); err != nil {
			t.Errorf("%s: depth 5 under a limit of 5: %v", f, err)
		}
		if _, err := ToJSON(f, doc, Limits{MaxDepth: 4}); !errors.Is(err, gcf.DepthExceeded) {
			t.Errorf("%s: depth 5 over a limit of 4: %v, want depth_exceeded", f, err)
		}
	}
	if _, err := ToJSON("csv", []byte("a\n1\n"), Limits{MaxDepth: 1}); !errors.Is(err, gcf.DepthExceeded) {
		t.Errorf("csv: records at depth 2 over a limit of 1: %v", err)
	}
	// Aliases expand: nine levels of nine references are 9^9 leaves.
	var bomb strings.Builder
	bomb.WriteString("a0: &a0 [x]\n")
	for i := 1; i <= 9; i++ {
		refs := strings.Repeat("*a"+string(rune('0'+i-1))+",", 9)
		bomb.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.TrimSuffix(refs, ",") + "]\n")
	}
	if _, err := ToJSON("yaml", []byte(bomb.String()), Limits{MaxBytes: 1 << 20}); !errors.Is(err, gcf.PayloadTooLarge) {
		t.Errorf("alias expansion: %v, want payload_too_large", err)
	}
}
