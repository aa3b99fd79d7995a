package transcode

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// withStubMin runs fn with records of at least n bytes read member by
// member (nested.go).
func withStubMin(n int, fn func()) {
	old := stubMin
	stubMin = n
	defer func() { stubMin = old }()
	fn()
}

// nestedTables are documents whose records hold arrays that stream
// inside them: tables in records, at several depths, under a shared
// array schema, expanded, beside members that do not stream.
var nestedTables = []string{
	// TopoJSON: a keyed table of GeometryCollections, each holding a table
	`{"type":"Topology","arcs":[[[0,0],[1,2]],[[3,4]]],"objects":{"counties":{"type":"GeometryCollection","geometries":[{"type":"Polygon","id":"1001","arcs":[[0,1]]},{"type":"MultiPolygon","id":"1003","arcs":[[[2]],[[3,4]]]},{"type":"Polygon","arcs":[[5]],"properties":{"name":"x"}}]},"states":{"type":"GeometryCollection","geometries":[{"type":"Polygon","id":"01","arcs":[[0]]},{"type":"Polygon","id":"02","arcs":[[1]]}]}},"transform":{"scale":[1,2],"translate":[0,0]}}`,
	// the table first, members after it, a '>' name
	`[{"rows":[{"a":1,"b":"x"},{"a":2,"b":"y"}],"name":"t1","x>y":[{"q":1}]},{"name":"t2","rows":[{"a":3}],"x>y":5}]`,
	// tables in tables in records
	`[{"id":1,"t":[{"k":1,"u":[{"z":1},{"z":2}]},{"k":2,"u":[{"z":3}]}]},{"id":2,"t":[{"k":3,"u":[]}]}]`,
	// shared array schema: row 0's array and later ones streamed or not
	`[{"id":1,"items":[{"sku":"a","q":1},{"sku":"b","q":2}]},{"id":2,"items":[{"sku":"c","q":3}]},{"id":3},{"id":4,"items":null}]`,
	`[{"id":1,"items":[{"sku":"a","q":1}]},{"id":2,"items":[{"q":3,"sku":"c"}]}]`,
	`[{"id":1,"items":[{"sku":"a","q":1}]},{"id":2,"items":[{"sku":"c","q":3,"r":1}]}]`,
	`[{"id":1,"items":[{"sku":"a","q":1}]},{"id":2,"items":[[1],{"sku":"c"}]}]`,
	`[{"id":1,"items":[{"sku":"a","q":[1]}]},{"id":2,"items":[{"sku":"c","q":[2]}]}]`,
	`[{"id":1,"items":[1,2]},{"id":2,"items":[{"sku":"c","q":3}]}]`,
	`[{"id":1,"items":[]},{"id":2,"items":[{"sku":"c","q":3}]},{"id":3,"items":[{"sku":"d","q":4}]}]`,
	`[{"id":1,"items":[{"sku":"a"}]},{"id":2,"items":[{"sku":"b"},7]}]`,
	`[{"items":[{"":1}]},{"items":[{"":2}]}]`,
	`[{"items":[{"a>b":1}]},{"items":[{"a>b":2}]}]`,
	`[{"items":[{}]},{"items":[{}]}]`,
	// expanded arrays, inline ones, objects, in a record
	`[{"a":[[1,2],[3]],"b":[1,2,3],"c":{"x":[{"y":1}]},"d":[null,{"k":1}],"e":[{"k":1},{"k":2,"q":[{"r":1}]}]}]`,
	`{"k1":{"g":[{"a":1},{"a":2}],"s":1},"k2":{"s":2,"g":[{"a":3}]},"k3":{"g":[[1]]}}`,
	`{"k1":{"g":[{"a":1}]},"k2":{"g":[{"a":{"b":1}},{"a":{"b":2}}]}}`,
	// constant columns inside an attached table are not factored
	`[{"t":[{"c":1,"v":1},{"c":1,"v":2}]},{"t":[{"c":1,"v":3}]}]`,
	`{"d":{"t":[{"c":1,"v":1},{"c":1,"v":2}]}}`,
	`{"m":{"a":{"t":[{"c":1}],"u":{"p":1,"q":2,"r":3}},"b":{"t":[{"c":2}],"u":{"p":4,"q":5,"r":6}}}}`,
	// sections: a root member object that is no keyed table, its arrays streamed
	`{"data":{"meta":{"n":2},"results":[{"a":1},{"a":2}],"x":1}}`,
	`{"response":{"numFound":3,"docs":[{"id":1,"t":[{"z":1}]},{"id":2}],"facets":[[1],[2]],"empty":[],"prims":[1,2],"o":{}}}`,
	`{"s":{"t":[{"c":1,"v":1},{"c":1,"v":2}],"u":2},"n":1}`,
	`{"s":{"t":[{"o":{"a":1}},{"o":{"a":2}}],"k":"v"}}`,
	`{"a":{"b":{"c":[{"x":1}]},"d":[{"y":1}],"e":[{"k1":{"v":1},"k2":{"v":2}}]}}`,
	`{"k":{"a":{"x":1},"b":[{"x":2}]},"l":{"a":[{"x":1}],"b":{"x":2}}}`,
	`{"s":{"t":[{"a>b":1},{"c":[{"d":1}]}],"u":[{"":1}]}}`,
	`{"s":{}, "t":{"u":[{"a":1}]}}`,
}

// nestedHostile are invalid or limit-breaking documents whose errors
// arise inside records read member by member.
var nestedHostile = []string{
	`[{"a":[{"x":1}],"a":[{"x":2}]}]`,
	`[{"a":[{"x":1,"x":2}]}]`,
	`[{"a":[{"x":1},]}]`,
	`[{"a":[{"x":1}] "b":1}]`,
	`[{"a":[{"x":1e999}]}]`,
	`[{"a":[{"x":` + strings.Repeat("[", 260) + strings.Repeat("]", 260) + `}]}]`,
	`[{"a":[{"x":` + strings.Repeat("[", 251) + strings.Repeat("]", 251) + `}]}]`,
	`[{"a":[{"x":` + strings.Repeat("[", 252) + strings.Repeat("]", 252) + `}]}]`,
	`[{"a":[{"x":` + strings.Repeat("[", 253) + strings.Repeat("]", 253) + `}]}]`,
	"[{\"a\":[{\"x\":\"\xff\"}]}]",
}

// Records read member by member give the buffered bytes and errors on
// every shape the transcoder streams, every hostile document and the
// generated ones: each record (stubMin 1) holds its arrays as streams.
func TestEncodeJSONNestedDifferential(t *testing.T) {
	withStubMin(1, func() {
		all := append(append(append(append([]string{}, streamed...), streamedNested...), nestedTables...), fallback...)
		for _, s := range all {
			check(t, "lazy "+s, []byte(s))
			check(t, "lazy v3.5.3 "+s, []byte(s), gcf.WithSpec(gcf.Spec353))
		}
		for _, s := range append(append([]string{}, hostile...), nestedHostile...) {
			check(t, fmt.Sprintf("lazy %.60q", s), []byte(s))
		}
		rng := rand.New(rand.NewSource(26))
		for i := 0; i < 300; i++ {
			data := randomDoc(rng)
			check(t, "lazy "+string(data), data)
		}
		for i := 0; i < 200; i++ {
			data := randomNested(rng, 3)
			check(t, "lazy "+string(data), data)
			check(t, "lazy v3.5.3 "+string(data), data, gcf.WithSpec(gcf.Spec353))
		}
	})
	for _, s := range append(nestedTables, nestedHostile...) {
		check(t, s, []byte(s))
	}
	rng := rand.New(rand.NewSource(27))
	for i := 0; i < 100; i++ {
		data := randomNested(rng, 3)
		check(t, string(data), data)
	}
}

// The limits, broken inside a table streamed in a record, give the
// buffered path's error with its line number from the payload's start.
func TestEncodeJSONNestedLimits(t *testing.T) {
	withStubMin(1, func() {
		for _, s := range []string{nestedTables[0], nestedTables[2], nestedTables[3], nestedTables[14],
			`{"n":1,"orders":[{"id":1,"items":[{"sku":"a","q":1},{"sku":"b","q":2}]},{"id":2,"items":[{"sku":"a long sku value","q":3,"w":{"x":[1,2,3,4,5,6]}}]}],"cfg":{"a":{"b":"a long string value here"}},"arcs":[[[1,2],[3,4]],[[5,6,7,8,9,10,11,12]]]}`,
		} {
			data := []byte(s)
			w, _ := want(data)
			for n := 4; n < 60; n += 3 {
				check(t, fmt.Sprintf("%s max line %d", s, n), data, gcf.WithMaxLineBytes(n))
			}
			for n := 20; n < len(w)+2; n += 5 {
				check(t, fmt.Sprintf("%s max bytes %d", s, n), data, gcf.WithMaxBytes(int64(n)))
			}
			for n := 0; n < 9; n++ {
				check(t, fmt.Sprintf("%s max elements %d", s, n), data, gcf.WithMaxElements(n))
				check(t, fmt.Sprintf("%s max fields %d", s, n), data, gcf.WithMaxFields(n))
				check(t, fmt.Sprintf("%s max depth %d", s, n), data, gcf.WithMaxDepth(n))
			}
		}
	})
}

// A TopoJSON record holding a table is not parsed whole: the longest
// value parsed is a row of its table, not the record (issue 26).
func TestEncodeJSONNestedNotWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"Topology","objects":{"counties":{"type":"GeometryCollection","geometries":[`)
	for i := 0; i < 2000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"Polygon","id":"%05d","arcs":[[%d,%d]]}`, i, i, -i-1)
	}
	b.WriteString(`]},"states":{"type":"GeometryCollection","geometries":[{"type":"Polygon","id":"01","arcs":[[0]]}]}},"arcs":[[[0,0],[1,1]]]}`)
	topo := []byte(b.String())
	// An API response: the records in a section, no keyed table.
	b.Reset()
	b.WriteString(`{"data":{"total":2000,"items":[`)
	for i := 0; i < 2000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"n%d","tags":[{"t":"a"}]}`, i, i)
	}
	b.WriteString(`],"next":null}}`)
	for _, data := range [][]byte{topo, []byte(b.String())} {
		withStubMin(1<<10, func() {
			var got bytes.Buffer
			var longest int64
			err := StreamJSONWith(&got, bytes.NewReader(data), func(n int64) { longest = n })
			w, _ := want(data)
			if err != nil || !bytes.Equal(got.Bytes(), w) {
				t.Fatalf("err %v, output differs: %v", err, !bytes.Equal(got.Bytes(), w))
			}
			if longest > 200 {
				t.Errorf("longest value parsed: %d bytes of %d; the record was parsed whole", longest, len(data))
			}
		})
	}
}

// Limits broken late in a table streamed in a record, after its first
// 64 KiB of output were flushed, give the buffered path's errors.
func TestEncodeJSONNestedLimitsFlushed(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[{"name":"c","g":[`)
	for i := 0; i < 5000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		id := fmt.Sprintf("%05d", i)
		if i == 4000 {
			id = strings.Repeat("x", 200)
		}
		fmt.Fprintf(&b, `{"type":"Polygon","id":"%s","arcs":[[%d,%d]],"t":[{"a":%d}]}`, id, i, -i-1, i)
	}
	b.WriteString(`],"after":[{"z":1}],"s":"x"},{"name":"d","g":[{"id":"1"}]}]`)
	data := []byte(b.String())
	w, err := want(data)
	if err != nil || len(w) < 3*encFlushAt {
		t.Fatalf("%v, %d bytes of output", err, len(w))
	}
	withStubMin(1<<10, func() {
		check(t, "flushed", data)
		check(t, "flushed v3.5.3", data, gcf.WithSpec(gcf.Spec353))
		for _, o := range []gcf.Option{
			gcf.WithMaxLineBytes(100), gcf.WithMaxLineBytes(250),
			gcf.WithMaxBytes(int64(len(w) - 1)), gcf.WithMaxBytes(int64(len(w) - 40)), gcf.WithMaxBytes(int64(len(w) / 2)),
			gcf.WithMaxBytes(int64(len(w))),
		} {
			check(t, "flushed limit", data, o)
		}
		var out bytes.Buffer
		if err := EncodeJSON(&out, data, gcf.WithMaxLineBytes(100)); gcf.CategoryOf(err) != gcf.LineTooLong || out.Len() < encFlushAt {
			t.Errorf("MaxLineBytes 100: %v after %d bytes; want line_too_long after the first flushes", err, out.Len())
		}
	})
}

// randomNested is a document of records holding arrays of records (and
// other values), depth levels deep.
func randomNested(rng *rand.Rand, depth int) []byte {
	var b strings.Builder
	scalars := []string{`1`, `2`, `"x"`, `null`, `true`, `""`, `1.5`}
	var value func(d int)
	records := func(d int) {
		b.WriteByte('[')
		for n := rng.Intn(4); n >= 0; n-- {
			value(d)
			if n > 0 {
				b.WriteByte(',')
			}
		}
		b.WriteByte(']')
	}
	value = func(d int) {
		switch r := rng.Intn(10); {
		case r < 6 || d == 0:
			if d == 0 || r < 2 {
				b.WriteString(scalars[rng.Intn(len(scalars))])
				return
			}
			b.WriteByte('{')
			keys := []string{"a", "b", "c", "t", "u"}
			first := true
			for _, k := range keys {
				if rng.Intn(3) == 0 {
					continue
				}
				if !first {
					b.WriteByte(',')
				}
				first = false
				fmt.Fprintf(&b, "%q:", k)
				if k == "t" || k == "u" {
					records(d - 1)
				} else if k == "c" && rng.Intn(2) == 0 {
					fmt.Fprintf(&b, `{"p":%s,"q":%s}`, scalars[rng.Intn(len(scalars))], scalars[rng.Intn(len(scalars))])
				} else {
					b.WriteString(scalars[rng.Intn(len(scalars))])
				}
			}
			b.WriteByte('}')
		case r < 8:
			records(d - 1)
		default:
			b.WriteString(scalars[rng.Intn(len(scalars))])
		}
	}
	if rng.Intn(2) == 0 {
		records(depth)
	} else {
		b.WriteString(`{"m":`)
		records(depth)
		b.WriteString(`,"k":{"x":`)
		value(depth)
		b.WriteString(`,"y":`)
		value(depth)
		b.WriteString(`}}`)
	}
	return []byte(b.String())
}

// The public documents (testdata/corpus, and the vega-datasets JSON files
// where the proxy tests' npm packages are installed) give the buffered
// bytes with every record read member by member.
func TestEncodeJSONNestedPublic(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*.json")
	vega, _ := filepath.Glob("../cmd/gcf/testdata/mcp-servers/node_modules/vega-datasets/data/*.json")
	if len(vega) == 0 {
		t.Log("vega-datasets not installed (cmd/gcf/testdata/mcp-servers): testdata/corpus only")
	}
	files = append(files, vega...)
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	withStubMin(1<<12, func() {
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
	})
}

// Many short arrays of containers in a long record, read from a file:
// reading each again costs its own bytes, not a window each (a 64 KiB
// window per stub allocated 1.3 GB here).
func TestEncodeJSONNestedManyStubs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[{"id":1`)
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, `,"a%d":[{}]`, i)
	}
	b.WriteString(`},{"id":2}]`)
	data := []byte(b.String())
	wide := gcf.WithMaxFields(1 << 16)
	w, err := want(data, wide)
	if err != nil {
		t.Fatal(err)
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	var got bytes.Buffer
	if err := EncodeJSONFrom(&got, bytes.NewReader(data), wide); err != nil || !bytes.Equal(got.Bytes(), w) {
		t.Fatalf("%v; output equal: %v", err, bytes.Equal(got.Bytes(), w))
	}
	runtime.ReadMemStats(&ms1)
	if n := ms1.TotalAlloc - ms0.TotalAlloc; n > 200<<20 {
		t.Errorf("%d MiB allocated for %d bytes of JSON", n>>20, len(data))
	}
}
