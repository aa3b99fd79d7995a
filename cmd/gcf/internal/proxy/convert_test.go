package proxy

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/cmd/gcf/internal/convert"
	"github.com/vmihailenco/msgpack/v5"
)

// resourceResult is a tools/call result with one embedded resource block.
func resourceResult(id, mimeType, field, value string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"resource","resource":{"uri":"file:///x","mimeType":%s,%s:%s}}]}}`,
		id, quoteJSON(mimeType), quoteJSON(field), quoteJSON(value))
}

const callT = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}` + "\n"

// recordsYAML is a list of records in YAML, which GCF writes as a table.
const recordsYAML = `- {id: 1, name: alpha, score: 0.5}
- {id: 2, name: beta, score: 1.5}
- {id: 3, name: gamma, score: 2.5}
- {id: 4, name: delta, score: 3.5}
- {id: 5, name: epsilon, score: 4.5}
`

// block returns the first content block of the tools/call result line.
func block(t *testing.T, line string) map[string]any {
	t.Helper()
	var msg struct {
		Result struct {
			Content []map[string]any `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &msg); err != nil || len(msg.Result.Content) != 1 {
		t.Fatalf("not a result with one block (%v): %s", err, line)
	}
	return msg.Result.Content[0]
}

// decodesTo checks that the GCF text gcfText decodes to the value of the
// document doc in format.
func decodesTo(t *testing.T, gcfText string, doc []byte, format string) {
	t.Helper()
	js, err := convert.ToJSON(format, doc, convert.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := gcf.DecodeGeneric([]byte(gcfText))
	if err != nil {
		t.Fatalf("the converted block does not decode: %v\n%s", err, gcfText)
	}
	got, _ := json.Marshal(v)
	var a, b any
	json.Unmarshal(got, &a)
	json.Unmarshal(js, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the converted block decodes to\n%s\nwant\n%s", got, js)
	}
}

func TestConvertDeclaredResource(t *testing.T) {
	p := New(Options{Verbose: true, Log: &bytes.Buffer{}})
	_, out := relay(t, p, callT, resourceResult("1", "application/yaml", "text", recordsYAML)+"\n")
	res := block(t, out)["resource"].(map[string]any)
	if res["mimeType"] != GCFMediaType || res["uri"] != "file:///x" {
		t.Fatalf("resource %v", res)
	}
	decodesTo(t, res["text"].(string), []byte(recordsYAML), "yaml")
	if tot := p.Totals(); tot.Rewritten != 1 || tot.After >= tot.Before {
		t.Errorf("totals %+v", tot)
	}

	// A MessagePack blob, built with the library from the same records.
	var recs []map[string]any
	js, _ := convert.ToJSON("yaml", []byte(recordsYAML), convert.Limits{})
	json.Unmarshal(js, &recs)
	mp, err := msgpack.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	p = New(Options{})
	_, out = relay(t, p, callT, resourceResult("1", "application/msgpack", "blob", base64.StdEncoding.EncodeToString(mp))+"\n")
	res = block(t, out)["resource"].(map[string]any)
	if _, hasBlob := res["blob"]; hasBlob || res["mimeType"] != GCFMediaType {
		t.Fatalf("msgpack blob not converted: %v", res)
	}
	decodesTo(t, res["text"].(string), mp, "msgpack")
}

// The proxy never guesses a format: YAML-looking text, or a resource that
// does not declare a convertible type, passes unchanged; so does a declared
// block where GCF is not cheaper, or any block under -format json.
func TestConvertNeverGuesses(t *testing.T) {
	for _, c := range []struct {
		name   string
		opts   Options
		server string
	}{
		{"plain text", Options{}, callResult("1", recordsYAML)},
		{"text/plain resource", Options{}, resourceResult("1", "text/plain", "text", recordsYAML)},
		{"-format json", Options{Rewriter: Rewriter{Format: JSON}}, resourceResult("1", "application/yaml", "text", recordsYAML)},
		{"-convert, not cheaper", Options{ConvertTools: map[string]string{"t": "yaml"}}, callResult("1", "Note: x")},
		{"csv, not cheaper", Options{}, resourceResult("1", "text/csv", "text", "a\n1\n")},
		{"-convert, not YAML", Options{ConvertTools: map[string]string{"t": "yaml"}}, callResult("1", "a: [1\n")},
		{"-convert of another tool", Options{ConvertTools: map[string]string{"u": "yaml"}}, callResult("1", recordsYAML)},
	} {
		_, out := relay(t, New(c.opts), callT, c.server+"\n")
		if out != c.server+"\n" {
			t.Errorf("%s: the block changed:\n%s", c.name, out)
		}
	}
}

func TestConvertOptIn(t *testing.T) {
	p := New(Options{ConvertTools: map[string]string{"t": "yaml"}})
	_, out := relay(t, p, callT, callResult("1", recordsYAML)+"\n")
	b := block(t, out)
	if b["type"] != "text" {
		t.Fatalf("block %v", b)
	}
	decodesTo(t, b["text"].(string), []byte(recordsYAML), "yaml")
	// A JSON block of that tool still goes the JSON way.
	_, out = relay(t, p, callT, callResult("1", table)+"\n")
	if txt := block(t, out)["text"].(string); !strings.HasPrefix(txt, "GCF profile=generic\n") {
		t.Errorf("JSON block of a -convert tool: %q", txt)
	}
}

// Real documents: a vega-datasets CSV served as a text/csv resource, and a
// GitHub workflow (YAML) from a tool named with -convert.
func TestConvertRealDocuments(t *testing.T) {
	nm := filepath.Join("..", "..", "testdata", "mcp-servers", "node_modules")
	csvData, err := os.ReadFile(filepath.Join(nm, "vega-datasets", "data", "stocks.csv"))
	if err != nil {
		t.Skipf("skip: the real documents are in %s, absent (npm ci in cmd/gcf/testdata/mcp-servers): %v", nm, err)
	}
	// CSV is a table already, and its values are strings, which GCF quotes
	// where they look like numbers: GCF costs more, so the block stays.
	p := New(Options{})
	server := resourceResult("1", "text/csv; charset=utf-8", "text", string(csvData)) + "\n"
	_, out := relay(t, p, callT, server)
	tot := p.Totals()
	if out != server || tot.Blocks != 1 || tot.After != tot.Before {
		t.Fatalf("stocks.csv: totals %+v, or the block changed", tot)
	}
	if _, c, _ := p.opts.Convert(csvData, "csv", string(csvData)); c.Form != FormText {
		t.Errorf("stocks.csv: form %q", c.Form)
	}
	t.Logf("stocks.csv as text/csv: %d tokens, GCF not cheaper: unchanged", tot.Before)

	yml, err := os.ReadFile(filepath.Join(nm, "json-schema-traverse", ".github", "workflows", "build.yml"))
	if err != nil {
		t.Skipf("skip: the GitHub workflow of json-schema-traverse is absent: %v", err)
	}
	p = New(Options{ConvertTools: map[string]string{"t": "yaml"}})
	_, out = relay(t, p, callT, callResult("1", string(yml))+"\n")
	tot = p.Totals()
	if tot.Blocks != 1 || tot.After > tot.Before {
		t.Fatalf("workflow: totals %+v", tot)
	}
	if txt := block(t, out)["text"].(string); tot.Rewritten == 1 {
		decodesTo(t, txt, yml, "yaml")
	} else if txt != string(yml) {
		t.Errorf("workflow neither converted nor unchanged")
	}
	t.Logf("build.yml with -convert t=yaml: %d -> %d tokens", tot.Before, tot.After)
}

func TestParseConvert(t *testing.T) {
	for in, want := range map[string][2]string{"read=yaml": {"read", "yaml"}, "read=CSV": {"read", "csv"}, "a=b=csv": {}, "t=json": {}, "t=xml": {}, "=yaml": {}, "t": {}} {
		tool, f, ok := ParseConvert(in)
		if ok != (want[0] != "") || tool != want[0] || f != want[1] {
			t.Errorf("ParseConvert(%q) = %q, %q, %v", in, tool, f, ok)
		}
	}
	for mt, want := range map[string]string{"application/yaml": "yaml", "text/csv; charset=utf-8": "csv", "application/toml": "toml", "application/msgpack": "msgpack", "text/plain": "", "application/json": "", "": ""} {
		if got := FormatOfMediaType(mt); got != want {
			t.Errorf("FormatOfMediaType(%q) = %q, want %q", mt, got, want)
		}
	}
}
