package transcode

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"github.com/gcfkit/gcf/internal/conformance"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// buffered is today's `gcf decode` (cmd/gcf, func decode): the whole input
// in memory, the decoder chosen from the header line, JSON printed with a
// newline; indent applies json.Indent as -indent does.
func buffered(data []byte, indent string) ([]byte, error) {
	header, _, _ := bytes.Cut(data, []byte("\n"))
	graph, delta := false, false
	for _, f := range bytes.Fields(header) {
		graph = graph || string(f) == "profile=graph"
		delta = delta || string(f) == "delta=true"
	}
	var js []byte
	var err error
	switch {
	case graph && delta:
		var d *gcf.DeltaPayload
		if d, err = gcf.DecodeDelta(data); err == nil {
			js, err = json.Marshal(d)
		}
	case graph:
		var p *gcf.Payload
		if p, err = gcf.Decode(data); err == nil {
			js, err = json.Marshal(p)
		}
	default:
		var v any
		if v, err = gcf.DecodeGeneric(data); err == nil {
			js, err = gcf.ToJSON(v)
		}
	}
	if err != nil {
		return nil, err
	}
	if indent != "" {
		var buf bytes.Buffer
		if err := json.Indent(&buf, js, "", indent); err != nil {
			return nil, err
		}
		js = buf.Bytes()
	}
	return append(js, '\n'), nil
}

// conformanceDir is the shared suite's directory (internal/conformance:
// a test failure when $GCF_CONFORMANCE_DIR names nothing, a visible skip
// when the default ../shared/conformance is absent).
func conformanceDir(t *testing.T) string { return conformance.Dir(t) }

// payload is one GCF text found in a fixture.
type payload struct {
	name string
	data []byte
}

// fixturePayloads returns every GCF payload of the conformance suite: the
// input of decode and error fixtures, the expected output of encode
// fixtures, and any other string of a fixture that starts with a header.
func fixturePayloads(t *testing.T) []payload { return payloadsIn(t, conformanceDir(t)) }

// payloadsIn is fixturePayloads for the suite in dir.
func payloadsIn(t *testing.T, dir string) []payload {
	var out []payload
	err := filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var f any
		if err := json.Unmarshal(raw, &f); err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		n := 0
		var walk func(v any, key string)
		walk = func(v any, key string) {
			switch x := v.(type) {
			case string:
				if key == "inputBase64" {
					if b, err := base64.StdEncoding.DecodeString(x); err == nil && bytes.HasPrefix(b, []byte("GCF")) {
						out = append(out, payload{rel + "#" + key, b})
					}
					return
				}
				if strings.HasPrefix(x, "GCF") {
					n++
					out = append(out, payload{rel + "#" + key, []byte(x)})
				}
			case []any:
				for _, e := range x {
					walk(e, key)
				}
			case map[string]any:
				keys := make([]string, 0, len(x))
				for k := range x {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					walk(x[k], k)
				}
			}
		}
		walk(f, "")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// examplePayloads encodes testdata/examples/*.json: graph.json as a graph
// payload, the others with the generic profile.
func examplePayloads(t *testing.T) []payload {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/examples: %v", err)
	}
	var out []payload
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var enc []byte
		if filepath.Base(f) == "graph.json" {
			var p gcf.Payload
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			enc, err = gcf.Encode(&p)
			if err != nil {
				t.Fatal(err)
			}
		} else {
			v, err := gcf.ParseJSON(raw)
			if err != nil {
				t.Fatal(err)
			}
			if enc, err = gcf.EncodeGeneric(v); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, payload{filepath.Base(f), enc})
	}
	return out
}

// sameError reports whether two decode errors are the same: the same
// *SyntaxError category and position, or the same text.
func sameError(a, b error) bool {
	var sa, sb *gcf.SyntaxError
	if errors.As(a, &sa) && errors.As(b, &sb) {
		return sa.Category == sb.Category && sa.Line == sb.Line && sa.Column == sb.Column
	}
	return a.Error() == b.Error()
}

// checkSame runs ToJSON on data, compact and indented, and compares with
// the buffered path byte for byte (or error for error). It reports whether
// the payload decoded.
func checkSame(t *testing.T, name string, data []byte) bool {
	t.Helper()
	ok := true
	for _, indent := range []string{"", "  "} {
		want, werr := buffered(data, indent)
		var got bytes.Buffer
		res, gerr := ToJSON(&got, bytes.NewReader(data), Options{Indent: indent})
		switch {
		case werr != nil && gerr != nil:
			if !sameError(werr, gerr) {
				t.Errorf("%s: errors differ:\nbuffered: %v\nToJSON:   %v", name, werr, gerr)
			}
			ok = false
		case werr != nil:
			t.Errorf("%s: buffered path fails (%v) but ToJSON succeeds with %q", name, werr, got.String())
			ok = false
		case gerr != nil:
			t.Errorf("%s: ToJSON fails: %v (indent %q)", name, gerr, indent)
			ok = false
		case !bytes.Equal(got.Bytes(), want):
			t.Errorf("%s (indent %q):\n got %s\nwant %s", name, indent, got.Bytes(), want)
		case res.Profile != "generic" && res.Profile != "graph":
			t.Errorf("%s: profile %q", name, res.Profile)
		}
	}
	return ok
}

// TestToJSONConformance: ToJSON prints what `gcf decode` printed, byte for
// byte, for every payload of the conformance suite that decodes, and
// fails with the same error (category, line, column) for every other.
func TestToJSONConformance(t *testing.T) {
	ps := fixturePayloads(t)
	decoded := 0
	for _, p := range ps {
		if checkSame(t, p.name, p.data) {
			decoded++
		}
	}
	t.Logf("%d payloads compared, %d decoded", len(ps), decoded)
	if decoded < 150 {
		t.Errorf("only %d payloads decoded; the suite holds more", decoded)
	}
}

// TestToJSONConformanceV36 runs the spec v3.6.0 fixtures (constant
// columns, value-grouping) through ToJSON: every payload as the buffered
// path prints it, each decode fixture's expected JSON with its key order,
// each error fixture's category.
func TestToJSONConformanceV36(t *testing.T) {
	dir := conformance.DirV36(t)
	for _, p := range payloadsIn(t, dir) {
		checkSame(t, p.name, p.data)
	}
	decoded, failed := 0, 0
	err := filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var f struct {
			Operation     string
			Input         string
			Expected      json.RawMessage
			ExpectedError string
		}
		if err := json.Unmarshal(raw, &f); err != nil || (f.Operation != "decode" && f.Operation != "error") {
			return nil
		}
		var got bytes.Buffer
		_, gerr := ToJSON(&got, strings.NewReader(f.Input), Options{})
		if f.Operation == "error" {
			failed++
			if string(gcf.CategoryOf(gerr)) != f.ExpectedError {
				t.Errorf("%s: want %s, got %v", p, f.ExpectedError, gerr)
			}
			return nil
		}
		decoded++
		v, err := gcf.ParseJSON(f.Expected)
		if err != nil {
			return err
		}
		want, err := gcf.ToJSON(v) // keeps the fixture's key order
		if err != nil {
			return err
		}
		if gerr != nil || !bytes.Equal(bytes.TrimSpace(got.Bytes()), want) {
			t.Errorf("%s: got %s (%v)\nwant %s", p, got.Bytes(), gerr, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if decoded == 0 || failed == 0 {
		t.Fatalf("no v3.6 decode (%d) or error (%d) fixtures under %s", decoded, failed, dir)
	}
}

func TestToJSONExamples(t *testing.T) {
	for _, p := range examplePayloads(t) {
		if !checkSame(t, p.name, p.data) {
			t.Errorf("%s did not decode", p.name)
		}
	}
}

// ToNDJSON prints a factored or grouped table's records whole, as it
// prints the unfactored table.
func TestToNDJSONConstantColumns(t *testing.T) {
	factored := "GCF profile=generic\n## t [2]{@id,r=eu,g,x} group=g\ng=a [1]\n1|5\ng=b [1]\n2|6\n"
	plain := "GCF profile=generic\n## t [2]{id,r,g,x}\n1|eu|a|5\n2|eu|b|6\n"
	var a, b bytes.Buffer
	if _, err := ToNDJSON(&a, strings.NewReader(factored), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ToNDJSON(&b, strings.NewReader(plain), Options{}); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() || !strings.Contains(a.String(), `"row":{"id":1,"r":"eu","g":"a","x":5}`) {
		t.Fatalf("factored:\n%s\nplain:\n%s", a.String(), b.String())
	}
}
