package transcode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/conformance"
)

// streamed are documents of the shapes that stream (docs/transcode-json.md).
var streamed = []string{
	`[]`,
	` [ {"id":1,"name":"a b","tags":["x","y"]} , {"id":2,"name":"c","tags":[]} ] `,
	`[{"id":1,"k":"c"},{"id":2,"k":"c"},{"id":3,"k":"c"}]`,
	`[{"a":1,"b":1},{"a":1,"b":1}]`,
	`[{"a":1},{"b":2},{"a":null,"c":[1,"x",true,null,1.5]}]`,
	`[{"b":1,"a":2},{"a":3,"b":4}]`,
	`[{"geo":{"lat":1.5,"lon":2}},{"geo":null},{},{"geo":{"lat":-0.0,"lon":1e3}}]`,
	`[{"o":{"a":{"b":1,"c":"x"},"d":null}},{"o":{"a":{"b":2,"c":null},"d":true}}]`,
	`[{"s":"","t":"a|b","u":"-","v":"~","w":"^","x":" lead","y":"é\u00e9\n"}]`,
	`[{"n":9223372036854775807,"m":-9223372036854775808,"f":1e-7,"g":1E22,"h":0.1}]`,
	`[{"x":1},{"x":1.0},{"x":1}]`,
	`[{"x":"1"},{"x":1}]`,
	`[{"":1,"a b":2,"@":3,"#x":4,"k=v":5}]`,
	`[{"tags":[]},{"tags":[]}]`,
	`{}`,
	`{"a":{"x":1},"b":{"x":2,"y":null}}`,
	`{"a":{"x":1,"key":2},"b":{"x":2,"_key":3}}`,
	`{"users":[{"id":1,"tags":["a"]},{"id":2,"tags":["b","c"]}],"n":3,"arr":[1,"two",null],"e":[],"o":{},"s":"x y"}`,
	`{"m":{"k1":{"v":1},"k2":{"v":2}},"t":[{"a":1}]}`,
	`{"x":1,"y":[true,false]}`,
}

// streamedNested are documents of the shapes that stream through the
// buffered encoder's row, item and member writers: records holding
// tables, objects that do not flatten, '>' names, sections, expanded
// arrays (docs/transcode-json.md).
var streamedNested = []string{
	`[{"a":1},2]`,
	`[{},{}]`,
	`[{"a":[{"b":1}]},{"a":[{"b":2}]}]`,
	`[{"a>b":1}]`,
	`[{"o":{"a":null}},{"o":{"a":null}}]`,
	`[{"o":{"a":1,"b":2,"c":3}},{"o":{"a":1,"c":3,"b":2}}]`,
	`[{"o":{"":1}}]`,
	`[{"o":{"a":1}},{"o":2}]`,
	`{"a":{"x":1}}`,
	`{"a":{"x":1},"b":2}`,
	`{"s":{"a":1,"b":2}}`,
	`{"a":[[1]]}`,
	`[[1,2],[3]]`,
	`[{"a":` + strings.Repeat("[", 254) + strings.Repeat("]", 254) + `}]`, // 256 deep: the limit
	// orders: records holding arrays of records (shared array schema, SPEC §7.4.5.3)
	`[{"id":1,"items":[{"sku":"a","q":1},{"sku":"b","q":2}],"c":"x"},{"id":2,"items":[{"sku":"c","q":3}],"c":"x"},{"id":3,"items":[],"c":"x"},{"id":4,"c":"x"},{"id":5,"items":null,"c":"x"}]`,
	`[{"id":1,"items":[{"sku":"a"}]},{"id":2,"items":[{"q":1}]}]`,
	`[{"id":1,"items":[{"sku":"a","x":{"y":1}}]},{"id":2,"items":[{"sku":"b","x":{"y":2}}]}]`,
	`[{"id":1,"items":[{"sku":"a"}]},{"id":2,"items":[1,[2]]}]`,                   // row 0 unsafe: expanded
	`{"k1":{"items":[{"sku":"a"}]},"k2":{"items":[{"b":1},2]},"k3":{"items":[]}}`, // keyed, row 0 unsafe: sections
	`[{"id":1,"items":[1,2]},{"id":2,"items":[{"sku":"b"}]}]`,
	`[{"id":1,"items":[{"sku":"a"}],"n":1},{"id":2,"items":[{"sku":"a"}],"n":1}]`,
	// github issues: nested objects that flatten, do not flatten, take the inline schema
	`[{"user":{"login":"a","id":1,"site_admin":false},"labels":[{"name":"bug","color":"f00"}],"milestone":null,"pr":{"url":"u","diff":{"x":[1]}}},{"user":{"login":"b","id":2,"site_admin":true},"labels":[],"milestone":{"t":"m","n":1},"pr":null}]`,
	`[{"p":{"a":1,"b":"x","c":null}},{"p":{"a":2,"b":"y","c":true}},{}]`,
	`[{"p":{"a":1,"b":"x","c":null}},{"p":null}]`,
	`[{"p":{"":1,"b":"x","c":null}},{"p":{"":2,"b":"y","c":3}}]`,
	`[{"p":{"a":{},"b":1}},{"p":{"a":{},"b":2}}]`,
	`{"a":{"p":{"x":1,"y":2,"z":3}},"b":{"p":{"x":4,"y":5,"z":6}}}`,
	`[{"a>b":1,"c":2},{"a>b":[1,2],"c":3},{"a>b":{"x":1},"c":4}]`,
	`[{"a>b":1}, {"x":2}]`,
	// GeoJSON and TopoJSON
	`{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"mag":1.5,"place":"x"},"geometry":{"type":"Point","coordinates":[1.5,-2,10]},"id":"a"},{"type":"Feature","properties":{"mag":2,"place":"y"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},"id":"b"}]}`,
	`{"type":"Topology","transform":{"scale":[1,2],"translate":[0,0]},"objects":{"land":{"type":"MultiPolygon","arcs":[[[0]],[[1,2]]]}},"arcs":[[[0,0],[1,2]],[[3,4]],[]]}`,
	`{"type":"Topology","objects":{"a":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[0]],"id":1},{"type":"Polygon","arcs":[[1]],"id":2}]}}}`,
	// app config, k8s: root objects with sections
	`{"app":{"name":"x","port":8080,"db":{"host":"h","pool":{"min":1,"max":5}}},"features":["a","b"],"env":{"prod":{"debug":false},"dev":{"debug":true,"extra":[1]}}}`,
	`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"w","labels":{"app":"w"}},"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":80}],"env":[{"name":"A","value":"1"}]}]}}}}`,
	`{"a":1,"b":{},"c":[],"d":[{"x":1},{"y":[{"z":1}]}],"e":{"k":{"v":1}},"f":[{"x":1},[2]],"g":[null,{}]}`,
	`[[{"a":1},{"a":2}],{"k1":{"v":1},"k2":{"v":2}},{"k":{"v":1}},[],[[]],"s",null,{}]`,
	`[{"k1":{"v":1},"k2":{"v":[{"a":1}]}},{"x":1}]`,
	`{"a":{"x>y":1},"b":{"x>y":2}}`,
	`{"m":{"k1":{"v":[{"a":1}],"w":{"p":1,"q":2,"r":3}},"k2":{"v":[{"a":2}],"w":{"p":4,"q":5,"r":6}}},"n":[{"key":1,"v":{"x":[]}}]}`,
	`[{"":[1],"a":[{"":1}]},{"":[],"a":[{"":2}]}]`,
	`[{"a":[{"b":[{"c":1}]}]},{"a":[{"b":[{"c":2}]}]}]`,
	`{"x":[{"a":{"b":1}},{"a":{"b":[1]}}],"y":[{"a":null},{"a":[]}]}`,
}

// fallback are documents that take the buffered path.
var fallback = []string{
	`1`, `"s"`, `null`,
	`[1,2,3]`,
}

// hostile are invalid JSON texts; each must give ParseJSON's error.
var hostile = []string{
	``, ` `, `[`, `[{`, `[{"a":1}`, `[{"a":1},`, `[{"a":1}]]`, `[{"a":1}] x`,
	`[{"a":1,"a":2}]`, `{"a":1,"a":2}`, `{"a":{"x":1},"a":{"x":1}}`, `{"m":{"k":{"v":1},"k":{"v":2}}}`,
	`[{"a":1e400}]`, `[{"a":99999999999999999999}]`, `[{"a":-}]`, `[{"a":01}]`,
	"[{\"a\":\"\xff\"}]", "[{\"\xc3\":1}]", "\xef\xbb\xbf[]", `[{"a":"\ud800"}]`, `[{"a":"\x"}]`,
	"[{\"a\":\"\x01\"}]", `[{"a":tru}]`, `[{"a":1 2}]`, `[{"a" 1}]`, `[{1:1}]`, `{"a":[1,]}`,
	`[{"a":"unterminated}]`, `[{"a":[1,2}]`, `[{"a":{"b":1]}]`, `{"a":1,}`, `[,]`,
	strings.Repeat("[", 300) + strings.Repeat("]", 300),
	`[{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}]`,
	`{"t":[{"a":` + strings.Repeat("[", 254) + strings.Repeat("]", 254) + `}]}`,
	`[{"a":` + `{"b":` + strings.Repeat("[", 254) + strings.Repeat("]", 254) + `}}]`,
}

// want is the buffered encoder's answer.
func want(data []byte, opts ...gcf.Option) ([]byte, error) {
	v, err := gcf.ParseJSON(data, opts...)
	if err != nil {
		return nil, err
	}
	return gcf.EncodeGeneric(v, opts...)
}

// shortReader returns at most a few bytes a read, so that the feed's
// window moves inside values.
type shortReader struct {
	*bytes.Reader
	n int
}

func (r *shortReader) Read(p []byte) (int, error) {
	r.n = r.n%7 + 1
	return r.Reader.Read(p[:min(len(p), r.n)])
}

// check compares EncodeJSON and EncodeJSONFrom with the buffered path on
// data: the same bytes, or the same error (category, position, message).
func check(t *testing.T, name string, data []byte, opts ...gcf.Option) {
	t.Helper()
	w, werr := want(data, opts...)
	for _, from := range []bool{false, true} {
		var got bytes.Buffer
		var gerr error
		if from {
			gerr = EncodeJSONFrom(&got, &shortReader{Reader: bytes.NewReader(data)}, opts...)
		} else {
			gerr = EncodeJSON(&got, data, opts...)
		}
		switch {
		case werr != nil || gerr != nil:
			if werr == nil || gerr == nil || werr.Error() != gerr.Error() || gcf.CategoryOf(werr) != gcf.CategoryOf(gerr) {
				t.Fatalf("%s (from reader %v): error %v, want %v", name, from, gerr, werr)
			}
		case !bytes.Equal(got.Bytes(), w):
			t.Fatalf("%s (from reader %v):\n got %q\nwant %q", name, from, got.Bytes(), w)
		}
	}
}

// streams reports whether the first pass accepts data (no fallback).
func streams(data []byte, opts ...gcf.Option) bool {
	lim, _, _ := settings(opts)
	d := &doc{maxDepth: lim.MaxDepth, maxElems: lim.MaxElements}
	d.open = func(off, _ int64) (*feed, error) { return &feed{buf: data[off:], base: off, mark: -1}, nil }
	return d.plan() == nil
}

// StreamJSONFrom streams what streams and refuses the rest, writing
// nothing.
func TestStreamJSONFrom(t *testing.T) {
	for _, s := range append(append([]string{}, streamed...), streamedNested...) {
		var got bytes.Buffer
		w, _ := want([]byte(s))
		if err := StreamJSONFrom(&got, strings.NewReader(s)); err != nil || !bytes.Equal(got.Bytes(), w) {
			t.Errorf("%s: %v, %q", s, err, got.Bytes())
		}
	}
	for _, s := range append(append([]string{}, fallback...), hostile...) {
		var got bytes.Buffer
		if err := StreamJSONFrom(&got, strings.NewReader(s)); err != ErrNotStreamed || got.Len() > 0 {
			t.Errorf("%.40q: %v, %d bytes written", s, err, got.Len())
		}
	}
}

func TestEncodeJSONDifferential(t *testing.T) {
	for _, s := range append(append([]string{}, streamed...), streamedNested...) {
		if !streams([]byte(s)) {
			t.Errorf("%s falls back; it should stream", s)
		}
		check(t, s, []byte(s))
		check(t, s+" v3.5.3", []byte(s), gcf.WithSpec(gcf.Spec353))
	}
	for _, s := range fallback {
		if streams([]byte(s)) {
			t.Errorf("%s streams; it should fall back", s)
		}
		check(t, s, []byte(s))
	}
	for _, s := range hostile {
		if _, err := gcf.ParseJSON([]byte(s)); err == nil {
			t.Errorf("%.40q: ParseJSON accepts it", s)
		}
		check(t, fmt.Sprintf("%.40q", s), []byte(s))
	}
}

func TestEncodeJSONLimits(t *testing.T) {
	doc := []byte(`{"users":[{"id":1,"name":"a long name here","tags":["a","b","c"]},{"id":2,"name":"x","tags":[]}],"k":{"a":{"v":1},"b":{"v":2}},"n":1}`)
	for _, o := range []gcf.Option{
		gcf.WithMaxLineBytes(12), gcf.WithMaxLineBytes(20), gcf.WithMaxBytes(40), gcf.WithMaxBytes(100),
		gcf.WithMaxElements(1), gcf.WithMaxElements(2), gcf.WithMaxFields(2), gcf.WithMaxDepth(2),
		gcf.WithMaxDepth(4), gcf.WithMaxBytes(int64(len(doc) - 1)),
		gcf.WithSize(gcf.Smallest), gcf.WithWire(gcf.WireV1),
	} {
		check(t, "limits", doc, o)
	}
	// Limits broken inside the parts the buffered encoder's writers write
	// (attachments, items, sections): the same error, line numbers
	// counted from the payload's start.
	for _, nested := range []string{
		`{"n":1,"orders":[{"id":1,"items":[{"sku":"a","q":1},{"sku":"b","q":2}]},{"id":2,"items":[{"sku":"a long sku value","q":3,"w":{"x":[1,2,3,4,5,6]}}]}],"cfg":{"a":{"b":"a long string value here"}},"arcs":[[[1,2],[3,4]],[[5,6,7,8,9,10,11,12]]]}`,
		`[{"id":1,"p":{"a":1,"b":2,"c":3,"d":4}},{"id":2,"p":{"a":1,"b":2,"c":3,"d":4}},{"id":3,"p":{"a":11111111,"b":2,"c":3,"d":4}}]`,
		`[[1,2],{"a":[1,2,3,4,5,6,7]},{"k1":{"a":1,"b":2,"c":3},"k2":{"a":1}}]`,
	} {
		data := []byte(nested)
		w, _ := want(data)
		for n := 4; n < 40; n += 3 {
			check(t, fmt.Sprintf("%s max line %d", nested, n), data, gcf.WithMaxLineBytes(n))
		}
		for n := 20; n < len(w)+2; n += 7 {
			check(t, fmt.Sprintf("%s max bytes %d", nested, n), data, gcf.WithMaxBytes(int64(n)))
		}
		for n := 0; n < 9; n++ {
			check(t, fmt.Sprintf("%s max elements %d", nested, n), data, gcf.WithMaxElements(n))
			check(t, fmt.Sprintf("%s max fields %d", nested, n), data, gcf.WithMaxFields(n))
			check(t, fmt.Sprintf("%s max depth %d", nested, n), data, gcf.WithMaxDepth(n))
		}
	}
	// A streamed document still gives the limit's error.
	var out bytes.Buffer
	err := EncodeJSON(&out, doc, gcf.WithMaxLineBytes(12))
	if gcf.CategoryOf(err) != gcf.LineTooLong {
		t.Errorf("MaxLineBytes 12: %v, want line_too_long", err)
	}
}

// TestEncodeJSONRandom: generated record arrays of the streamed shapes,
// with missing, null, constant and nested fields, in both spec versions.
func TestEncodeJSONRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 300; i++ {
		data := randomDoc(rng)
		check(t, string(data), data)
		check(t, string(data), data, gcf.WithSpec(gcf.Spec353))
	}
}

func randomDoc(rng *rand.Rand) []byte {
	scalars := []string{`1`, `2`, `-0`, `1.5`, `1e2`, `"x"`, `"a b"`, `""`, `"1"`, `true`, `null`, `"-"`}
	keys := []string{"id", "name", "k", "tags", "geo", "n"}
	var b strings.Builder
	rows := 1 + rng.Intn(5)
	record := func() {
		b.WriteByte('{')
		first := true
		for _, k := range keys {
			if rng.Intn(4) == 0 {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			fmt.Fprintf(&b, "%q:", k)
			switch {
			case k == "tags":
				b.WriteByte('[')
				for j := rng.Intn(4); j > 0; j-- {
					b.WriteString(scalars[rng.Intn(len(scalars))])
					if j > 1 {
						b.WriteByte(',')
					}
				}
				b.WriteByte(']')
			case k == "geo" && rng.Intn(5) > 0:
				fmt.Fprintf(&b, `{"lat":%s,"lon":{"x":%s,"y":1}}`, scalars[rng.Intn(len(scalars))], scalars[rng.Intn(3)])
			case k == "k":
				b.WriteString(scalars[rng.Intn(2)])
			default:
				b.WriteString(scalars[rng.Intn(len(scalars))])
			}
		}
		b.WriteByte('}')
	}
	switch rng.Intn(3) {
	case 0:
		b.WriteByte('[')
		for r := 0; r < rows; r++ {
			if r > 0 {
				b.WriteByte(',')
			}
			record()
		}
		b.WriteByte(']')
	case 1:
		b.WriteByte('{')
		for r := 0; r < rows+1; r++ {
			if r > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"m%d":`, r)
			record()
		}
		b.WriteByte('}')
	default:
		b.WriteString(`{"t":[`)
		for r := 0; r < rows; r++ {
			if r > 0 {
				b.WriteByte(',')
			}
			record()
		}
		b.WriteString(`],"s":1}`)
	}
	return []byte(b.String())
}

// encodeInputs returns the JSON texts of the corpus and of the conformance
// suite's encode fixtures (read in place).
func encodeInputs(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	files, _ := filepath.Glob("../testdata/corpus/*.json")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	dirs := []string{}
	for _, find := range []func() (string, error){conformance.Find, conformance.FindV36} {
		dir, err := find()
		if err != nil {
			t.Fatal(err)
		}
		if dir != "" {
			dirs = append(dirs, dir)
		}
	}
	for _, dir := range dirs {
		walkEncodeFixtures(dir, out)
	}
	return out
}

// walkEncodeFixtures adds the input of every encode fixture under dir.
func walkEncodeFixtures(dir string, out map[string][]byte) {
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		var fx struct {
			Operation string          `json:"operation"`
			Input     json.RawMessage `json:"input"`
		}
		if json.Unmarshal(raw, &fx) == nil && fx.Operation == "encode" && len(fx.Input) > 0 {
			out[p] = fx.Input
		}
		return nil
	})
}

func TestEncodeJSONCorpus(t *testing.T) {
	conformance.Dir(t) // fails or skips as every conformance test does
	in := encodeInputs(t)
	n := 0
	for name, data := range in {
		if streams(data) {
			n++
		}
		check(t, name, data)
	}
	t.Logf("%d inputs, %d streamed", len(in), n)
}

// FuzzEncodeJSONBytes: on any input, EncodeJSON writes the bytes of
// EncodeGeneric(ParseJSON(input)) or fails with the same error.
func FuzzEncodeJSONBytes(f *testing.F) {
	for _, s := range append(append(append(append(append(append([]string{}, streamed...), streamedNested...), fallback...), hostile...), nestedTables...), nestedHostile...) {
		f.Add([]byte(s))
	}
	for _, data := range encodeInputs(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, "fuzz", data)
		// Every record read member by member, its arrays streamed.
		withStubMin(1, func() { check(t, "fuzz lazy", data) })
	})
}

// errWriter fails every write.
type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestEncodeJSONWriteError(t *testing.T) {
	if err := EncodeJSON(errWriter{}, []byte(streamed[1])); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("got %v, want the writer's error", err)
	}
}

// brokenReader fails after its first n bytes (hostile_test.go has a
// failingReader for io.Reader).
type brokenReader struct {
	*bytes.Reader
	n int64
}

var errBroken = errors.New("read failed")

func (r *brokenReader) Read(p []byte) (int, error) {
	if off, _ := r.Seek(0, io.SeekCurrent); off >= r.n {
		return 0, errBroken
	}
	return r.Reader.Read(p[:min(int64(len(p)), r.n)])
}

// A reader that fails gives its error, never a partial payload; the
// input starts at the reader's offset.
func TestEncodeJSONFromReader(t *testing.T) {
	data := []byte(streamed[1])
	var got bytes.Buffer
	if err := EncodeJSONFrom(&got, &brokenReader{bytes.NewReader(data), 10}); !errors.Is(err, errBroken) || got.Len() > 0 {
		t.Errorf("got %v and %d bytes, want the read error and nothing", err, got.Len())
	}
	r := bytes.NewReader(append([]byte("xyz"), data...))
	r.Seek(3, io.SeekStart)
	w, _ := want(data)
	got.Reset()
	if err := EncodeJSONFrom(&got, r); err != nil || !bytes.Equal(got.Bytes(), w) {
		t.Errorf("from offset 3: %v, %q", err, got.Bytes())
	}
}

// Every document of testdata/corpus streams: API records holding tables
// (orders, github-issues), root objects with sections (app-config,
// k8s-deployment, openapi), and gives the buffered path's bytes.
func TestEncodeJSONCorpusStreams(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*.json")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !streams(data) {
			t.Errorf("%s falls back", p)
		}
		check(t, p, data)
	}
}

// StreamJSONWith tells each new longest record during the first pass,
// before any output.
func TestStreamJSONWith(t *testing.T) {
	for _, c := range []struct {
		doc     string
		longest int64
		calls   int
	}{
		{`[{"a":1},{"a":"xxxx"},{"a":"x"}]`, int64(len(`{"a":"xxxx"}`)), 2},
		{`{"n":1,"t":[{"a":1}],"s":{"k":[1,2,3]},"x":[[1],[22]]}`, int64(len(`{"k":[1,2,3]}`)), 3}, // 1, {"a":1}, then the whole of s
		{`[]`, 0, 0},
		{`{"a":` + strings.Repeat(" ", 100) + `{"b":{"c":[1,2]}}` + strings.Repeat(" ", 50) + `,"t":[{"a":[1]}]}`, int64(len(`{"b":{"c":[1,2]}}`)), 2},
	} {
		for _, r := range []io.ReadSeeker{strings.NewReader(c.doc), &shortReader{Reader: bytes.NewReader([]byte(c.doc))}} {
			var got bytes.Buffer
			calls, longest := 0, int64(0)
			err := StreamJSONWith(&got, r, func(n int64) {
				if got.Len() > 0 || n <= longest {
					t.Errorf("%s: %d after %d, %d bytes of output", c.doc, n, longest, got.Len())
				}
				calls++
				longest = n
			})
			w, _ := want([]byte(c.doc))
			if err != nil || calls != c.calls || longest != c.longest || !bytes.Equal(got.Bytes(), w) {
				t.Errorf("%s: err %v, %d calls (want %d), longest %d (want %d)", c.doc, err, calls, c.calls, longest, c.longest)
			}
		}
	}
	if err := StreamJSONWith(io.Discard, strings.NewReader(`[1,2]`), nil); err != ErrNotStreamed {
		t.Errorf("[1,2]: %v", err)
	}
}
