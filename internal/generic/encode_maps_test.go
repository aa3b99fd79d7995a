package generic

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gcfkit/gcf/internal/conformance"
)

// gmGen generates the map[string]any / []any values of the map fast path:
// tables of maps with overlapping key sets, nested maps that flatten or
// not, arrays of records under row fields, and every scalar type the
// general path accepts (and some it rejects or that the path leaves
// alone).
type gmGen struct{ fsGen }

var gmKeyPieces = []string{"id", "name", "a", "b", "c", "", "k>v", "x y", "é", "\xff", "#h", "1", "-", "items", "key", "_key", "true", "a|b", "z"}

func (g *gmGen) key() string {
	if g.r.Intn(8) == 0 {
		return g.str()
	}
	k := gmKeyPieces[g.r.Intn(len(gmKeyPieces))]
	if k == "\xff" && g.r.Intn(4) != 0 || (k == "k>v" || k == "") && g.r.Intn(3) != 0 {
		return "q"
	}
	return k
}

// scalar returns a scalar of a random Go type.
func (g *gmGen) scalar() any {
	switch g.r.Intn(24) {
	case 0:
		return nil
	case 1:
		return g.r.Intn(2) == 0
	case 2:
		return int(g.int64())
	case 3:
		return g.int64()
	case 4:
		return int32(g.r.Int31())
	case 5:
		return int16(g.r.Intn(1 << 16))
	case 6:
		return int8(g.r.Intn(256))
	case 7:
		return uint(g.r.Uint32())
	case 8:
		if g.r.Intn(10) == 0 {
			return uint64(math.MaxUint64)
		}
		return uint64(g.r.Int63())
	case 9:
		return uint32(g.r.Uint32())
	case 10:
		return uint16(g.r.Intn(1 << 16))
	case 11:
		return uint8(g.r.Intn(256))
	case 12:
		return uintptr(g.r.Intn(1000))
	case 13:
		return float32(g.float())
	case 14:
		return json.Number([]string{"12", "-0", "1.5", "1e400", "99999999999999999999", "abc", "3E2"}[g.r.Intn(7)])
	case 15:
		return map[string]any(nil)
	case 16:
		return float64(g.int64() % (1 << 54)) // integral floats, some above 2^53
	case 17:
		return math.Trunc(g.float())
	case 18:
		if g.r.Intn(5) == 0 {
			return []string{"x"} // a type the path leaves to the general one
		}
		return g.float()
	case 19, 20:
		return g.float()
	}
	return g.str()
}

// record returns a map with the keys, some left out, values produced by
// val.
func (g *gmGen) record(keys []string, val func(k string) any) map[string]any {
	m := map[string]any{}
	for _, k := range keys {
		if g.r.Intn(10) == 0 {
			continue
		}
		m[k] = val(k)
	}
	if g.r.Intn(15) == 0 {
		m[g.key()] = val("")
	}
	return m
}

func (g *gmGen) flatRecords(n int) []any {
	if g.r.Intn(8) == 0 {
		return nil
	}
	out := make([]any, g.r.Intn(n+1))
	for i := range out {
		out[i] = g.record([]string{"p", "q", "r"}[:2+g.r.Intn(2)], func(string) any { return g.scalar() })
	}
	return out
}

// table returns an array of maps sharing (mostly) one key pool.
func (g *gmGen) table(depth int) []any {
	var keys []string
	for i := 2 + g.r.Intn(4); i > 0; i-- {
		keys = append(keys, g.key())
	}
	// Per field: scalars, nested maps, arrays of records, a mix, or one
	// scalar in every row (a constant column, spec v3.6.0 §7.4.7).
	kinds := map[string]int{}
	consts := map[string]any{}
	for _, k := range keys {
		kinds[k] = g.r.Intn(6)
		consts[k] = g.scalar()
	}
	subKeys := []string{"a", "b", "c"}[:1+g.r.Intn(3)]
	n := 1 + g.r.Intn(6)
	if g.r.Intn(20) == 0 {
		n = 0
	}
	out := make([]any, n)
	for i := range out {
		out[i] = g.record(keys, func(k string) any {
			switch kinds[k] {
			case 1:
				switch g.r.Intn(12) {
				case 0:
					return nil
				case 1:
					return map[string]any{}
				case 2:
					return map[string]any{"a": nil, "b": nil, "c": nil}[subKeys[0]]
				case 3:
					return map[string]any{"a": map[string]any{"x": 1}}
				}
				m := map[string]any{}
				for _, s := range subKeys {
					m[s] = g.scalar()
				}
				if g.r.Intn(15) == 0 {
					m["d"] = 1
				}
				return m
			case 2:
				if g.r.Intn(12) == 0 {
					return g.scalar()
				}
				return g.flatRecords(3)
			case 3:
				if depth > 0 && g.r.Intn(3) == 0 {
					return g.value(depth - 1)
				}
				return g.scalar()
			case 5:
				if g.r.Intn(10) == 0 {
					return g.scalar() // not quite constant
				}
				return consts[k]
			}
			return g.scalar()
		})
	}
	if n > 0 && g.r.Intn(25) == 0 {
		out[g.r.Intn(n)] = g.scalar() // not all maps
	}
	return out
}

func (g *gmGen) value(depth int) any {
	switch g.r.Intn(10) {
	case 0, 1, 2:
		return g.table(depth)
	case 3:
		a := make([]any, g.r.Intn(5))
		for i := range a {
			a[i] = g.scalar()
		}
		return a
	case 4:
		if depth > 0 && g.r.Intn(2) == 0 {
			return []any{g.value(depth - 1), g.scalar()}
		}
		return []any(nil)
	case 5, 6:
		m := map[string]any{}
		for i := g.r.Intn(5); i > 0; i-- {
			if depth > 0 && g.r.Intn(2) == 0 {
				m[g.key()] = g.value(depth - 1)
			} else {
				m[g.key()] = g.scalar()
			}
		}
		return m
	case 7:
		if g.r.Intn(3) == 0 {
			return Object{{Key: "o", Value: 1}}
		}
		return map[string]any{"a": map[string]any{"x": g.scalar()}, "b": map[string]any{"y": 2}}
	case 8:
		// A map of records: a keyed map where they make a table.
		m := map[string]any{}
		for _, row := range g.table(depth) {
			m[g.key()+g.key()] = row
		}
		return m
	}
	return g.scalar()
}

// root returns a map or array root, shaped like the JSON a user holds.
func (g *gmGen) root() any {
	if g.r.Intn(4) == 0 {
		return g.table(2)
	}
	m := map[string]any{}
	for i := 1 + g.r.Intn(4); i > 0; i-- {
		m[g.key()] = g.value(2)
	}
	return m
}

// TestMapFastPathSameBytes: the map fast path writes exactly the bytes of
// the general path (normalize + appendLayout), and where it hands a value
// back the entry point's result (bytes or error) is the general path's.
func TestMapFastPathSameBytes(t *testing.T) {
	g := &gmGen{fsGen: fsGen{r: rand.New(rand.NewSource(1717))}}
	fast, fell, tables, consts := 0, 0, 0, 0
	for i := 0; i < 30000; i++ {
		v := g.root()
		lim := g.limits()
		v353 := i%5 == 4 // WithSpec(Spec353): no constant columns
		want, werr := appendLayout([]byte("pre"), v, lim, nil, v353)
		got, ok := appendMaps([]byte("pre"), v, lim, v353)
		if ok {
			fast++
			if declaresConstants(got[len("pre"):]) {
				if v353 {
					t.Fatalf("case %d: constant columns under Spec353:\n%s", i, got)
				}
				consts++
			}
			if bytes.Contains(got, []byte("\n## ")) || bytes.HasPrefix(got[len("pre"+"GCF profile=generic\n"):], []byte("## ")) {
				if bytes.Contains(got, []byte("]{")) {
					tables++
				}
			}
			if werr != nil {
				t.Fatalf("case %d: fast path wrote %q, general path failed: %v (%#v, %+v)", i, got, werr, v, lim)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: fast path\n%s\ngeneral path\n%s\n(%#v, %+v)", i, got, want, v, lim)
			}
		} else {
			fell++
		}
		out, err := appendGeneric([]byte("pre"), v, lim, v353, true)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("case %d: error %v, general path %v", i, err, werr)
		}
		if werr == nil && !bytes.Equal(out, want) {
			t.Fatalf("case %d: entry point\n%s\ngeneral path\n%s", i, out, want)
		}
	}
	if fast < 5000 || fell < 5000 || tables < 2000 || consts < 300 {
		t.Fatalf("fast path took %d values (%d with tables, %d with constant columns), fell back on %d: the generator does not exercise both", fast, tables, consts, fell)
	}
	t.Logf("fast path: %d (%d with tables, %d with constant columns), fallback: %d", fast, tables, consts, fell)
}

// FuzzMapFastPath: on the value json.Unmarshal gives for the input (with
// json.Number when the first byte is odd), under limits taken from the
// next bytes, the map fast path writes the general path's bytes or gives
// up; the entry point's result is always the general path's.
func FuzzMapFastPath(f *testing.F) {
	for _, s := range []string{
		`{"employees":[{"id":1,"name":"Ann","active":true},{"id":2,"name":"Bo","active":false}]}`,
		`{"orders":[{"id":"A","customer":{"name":"x","tier":"gold"},"items":[{"sku":"S","qty":2,"price":3.25}],"total":6.5},` +
			`{"id":"B","customer":null,"items":[{"sku":"T","qty":1,"price":0.1}],"total":0.1}]}`,
		`[{"a":1},{"b":[1,2]},{"a":{"x":null,"y":1}}]`,
		`{"k>v":[{"a>b":1}],"":[],"x y":{"n":{}},"q":[[1],{"z":1}]}`,
		`[{"a":{"b":{"c":1}}},{"a":{"b":{"c":2}}}]`,
		`{"a":[{"p":[{"q":1}]},{"p":[]},{"p":[{"q":"-"}]}]}`,
		`{"m":{"a":{"x":1},"b":{"x":2}},"s":"\u00e9|,\"","f":1e300,"g":-0.0,"h":12345678901234567890}`,
		// Constant columns (spec v3.6.0 §7.4.7): in a section, a keyed map,
		// an item table, null, quoted values, all constant, 1 against 1.0.
		`{"a":{"rows":[{"id":1,"r":"x","n":null},{"id":2,"r":"x","n":null}]}}`,
		`{"m":{"k1":{"a":1,"b":"x}"},"k2":{"a":2,"b":"x}"}}}`,
		`[[{"a":1,"b":2},{"a":1,"b":3}],5]`,
		`[{"a":"","b":"^","c":"^{x}","d":"a,b","e":"true","f":"a=b","g":1.0,"z":1},{"a":"","b":"^","c":"^{x}","d":"a,b","e":"true","f":"a=b","g":1,"z":2}]`,
		`[{"a":1,"b":2},{"a":1,"b":2}]`,
		`[{"id":1,"f":[{"a":1,"b":2},{"a":1,"b":3}]},{"id":2,"f":[{"a":1,"b":2},{"a":1,"b":4}]}]`,
	} {
		f.Add(byte(0), byte(0), s)
		f.Add(byte(1), byte(3), s)
		f.Add(byte(0), byte(0x80), s)
	}
	f.Fuzz(func(t *testing.T, mode, lims byte, s string) {
		d := json.NewDecoder(bytes.NewReader([]byte(s)))
		if mode&1 != 0 {
			d.UseNumber()
		}
		var v any
		if d.Decode(&v) != nil {
			return
		}
		lim := defaultLimits
		switch lims % 6 {
		case 1:
			lim.MaxDepth = 1 + int(mode>>1)%8
		case 2:
			lim.MaxElements = int(mode>>1) % 5
		case 3:
			lim.MaxFields = int(mode>>1) % 6
		case 4:
			lim.MaxLineBytes = 8 + int(mode>>1)
		case 5:
			lim.MaxBytes = int64(30 + int(mode))
		}
		v353 := lims&0x80 != 0 // WithSpec(Spec353)
		want, werr := appendLayout(nil, v, lim, nil, v353)
		if got, ok := appendMaps(nil, v, lim, v353); ok && (werr != nil || !bytes.Equal(got, want)) {
			t.Fatalf("fast path\n%s\ngeneral path (%v)\n%s", got, werr, want)
		}
		out, err := appendGeneric(nil, v, lim, v353, true)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() || werr == nil && !bytes.Equal(out, want) {
			t.Fatalf("entry point %q, %v; general path %q, %v", out, err, want, werr)
		}
	})
}

// TestMapFastPathDocuments: on the JSON documents of the conformance
// suite (every fixture input that is a JSON object or array) and of
// testdata/corpus, decoded by json.Unmarshal into maps, the map fast path
// writes the general path's bytes or gives up.
func TestMapFastPathDocuments(t *testing.T) {
	var docs [][]byte
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "corpus", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	for _, f := range loadFixtures(t, conformance.Dir(t)) {
		if in := bytes.TrimSpace(f.Input); len(in) > 0 && (in[0] == '{' || in[0] == '[') {
			docs = append(docs, in)
		}
	}
	fast := 0
	for i, doc := range docs {
		var v any
		if json.Unmarshal(doc, &v) != nil {
			continue
		}
		lim := defaultLimits
		want, werr := appendLayout(nil, v, lim, nil, false)
		got, ok := appendMaps(nil, v, lim, false)
		if !ok {
			continue
		}
		fast++
		if werr != nil || !bytes.Equal(got, want) {
			t.Fatalf("document %d: fast path\n%s\ngeneral path (%v)\n%s\ninput %s", i, got, werr, want, doc)
		}
	}
	if fast < 20 {
		t.Fatalf("the fast path took %d of %d documents; expected at least 20", fast, len(docs))
	}
	t.Logf("fast path took %d of %d documents", fast, len(docs))
}

// TestMapFastPathWide: wide records take the fast path; tables whose rows
// have many different key sets (the union of SPEC §7.4.3 over hundreds of
// keys), directly or in row 0's array attachment, are left to the general
// path rather than searched linearly. Either way the entry point writes
// the general path's bytes.
func TestMapFastPathWide(t *testing.T) {
	wide := make([]any, 300)
	for i := range wide {
		m := map[string]any{}
		for k := 0; k < 100; k++ {
			m["f"+strconv.Itoa(k)] = i * k
		}
		wide[i] = m
	}
	distinct := make([]any, 300)
	for i := range distinct {
		distinct[i] = map[string]any{"id": i, "k" + strconv.Itoa(i): true}
	}
	inner := make([]any, 200)
	for i := range inner {
		inner[i] = map[string]any{"x" + strconv.Itoa(i): i}
	}
	attached := []any{
		map[string]any{"a": 1, "items": inner},
		map[string]any{"a": 2, "items": []any{map[string]any{"x0": 1}}},
	}
	for _, c := range []struct {
		name string
		v    any
		fast bool
	}{
		{"wide", map[string]any{"rows": wide}, true},
		{"distinct key sets", map[string]any{"rows": distinct}, false},
		{"distinct key sets in row 0's attachment", attached, false},
	} {
		lim := defaultLimits
		want, werr := appendLayout(nil, c.v, lim, nil, false)
		if werr != nil {
			t.Fatalf("%s: %v", c.name, werr)
		}
		got, ok := appendMaps(nil, c.v, lim, false)
		if ok != c.fast {
			t.Errorf("%s: fast path taken %v, want %v", c.name, ok, c.fast)
		}
		if ok && !bytes.Equal(got, want) {
			t.Errorf("%s: fast path differs from the general path", c.name)
		}
		if out, err := appendGeneric(nil, c.v, lim, false, true); err != nil || !bytes.Equal(out, want) {
			t.Errorf("%s: entry point differs from the general path (%v)", c.name, err)
		}
	}
}

// TestMapFastPathManyKeySets: rows whose key sets all differ in size
// (each resolved by sorting its keys once, as the key set cache only looks
// back a few sets) give the general path's bytes.
func TestMapFastPathManyKeySets(t *testing.T) {
	rows := make([]any, 40)
	for i := range rows {
		m := map[string]any{}
		for k := 0; k <= i; k++ {
			m["k"+strconv.Itoa(k)] = k
		}
		rows[i] = m
	}
	v := map[string]any{"rows": rows, "again": rows[:3]}
	lim := defaultLimits
	want, werr := appendLayout(nil, v, lim, nil, false)
	got, ok := appendMaps(nil, v, lim, false)
	if werr != nil || !ok || !bytes.Equal(got, want) {
		t.Fatalf("fast path %v:\n%s\ngeneral path (%v):\n%s", ok, got, werr, want)
	}
}
