package transcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// words are strings that collide with GCF or PATH syntax somewhere.
var words = []string{"", "a", "b", "id", "name", "-", "~", "^", "true", "null", "0", "01", "1e5", " x", "a|b", "a,b",
	"#x", "@0", ".x", "a=b", "\"q\"", "a\\b", "tab\there", "line\nbreak", "\x01", "café", "😀", "a>b", ">", "a.b",
	"[0]", "<tag>&", "\u2028", "x y", "{}", "## x", "ERR[1]: x"}

type valueGen struct{ r *rand.Rand }

func (g *valueGen) str() string {
	if g.r.IntN(3) == 0 {
		return strconv.Itoa(g.r.IntN(1000))
	}
	return words[g.r.IntN(len(words))]
}

func (g *valueGen) key() string {
	if g.r.IntN(2) == 0 {
		return []string{"id", "name", "qty", "tags", "meta", "items", "x"}[g.r.IntN(7)]
	}
	return g.str()
}

func (g *valueGen) scalar() any {
	switch g.r.IntN(7) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return int64(g.r.IntN(2000) - 1000)
	case 3:
		return []float64{0.5, -2.25, 1e-7, 1e21, 6.022e23, 3.0, 1e300}[g.r.IntN(7)]
	default:
		return g.str()
	}
}

// record returns an object over a fixed schema, with some keys left out,
// some values nested (objects become `>` path columns, arrays attachments).
func (g *valueGen) record(schema []string, depth int) gcf.Object {
	var o gcf.Object
	for i, k := range schema {
		if g.r.IntN(6) == 0 {
			continue // a ~ cell
		}
		var v any
		switch {
		case depth > 0 && i%3 == 2 && g.r.IntN(2) == 0:
			v = g.value(depth - 1)
		case depth > 0 && i%3 == 1 && g.r.IntN(3) == 0:
			v = gcf.Object{{Key: "city", Value: g.scalar()}, {Key: "zip", Value: g.scalar()}}
		default:
			v = g.scalar()
		}
		o = append(o, gcf.Member{Key: k, Value: v})
	}
	return o
}

func (g *valueGen) schema() []string {
	var s []string
	seen := map[string]bool{}
	for n := 1 + g.r.IntN(5); n > 0; n-- {
		if k := g.key(); !seen[k] {
			seen[k] = true
			s = append(s, k)
		}
	}
	return s
}

func (g *valueGen) value(depth int) any {
	if depth <= 0 {
		return g.scalar()
	}
	switch g.r.IntN(7) {
	case 0: // an object
		var o gcf.Object
		seen := map[string]bool{}
		for n := g.r.IntN(5); n > 0; n-- {
			if k := g.key(); !seen[k] {
				seen[k] = true
				o = append(o, gcf.Member{Key: k, Value: g.value(depth - 1)})
			}
		}
		return o
	case 1, 2: // records: a table
		s := g.schema()
		a := []any{}
		for n := g.r.IntN(5); n > 0; n-- {
			a = append(a, g.record(s, depth-1))
		}
		return a
	case 3: // a map of records: a keyed map
		s := g.schema()
		var o gcf.Object
		for n := 1 + g.r.IntN(4); n > 0; n-- {
			o = append(o, gcf.Member{Key: "k" + strconv.Itoa(n) + g.str(), Value: g.record(s, depth-1)})
		}
		return o
	case 4: // scalars: an inline array
		a := []any{}
		for n := g.r.IntN(4); n > 0; n-- {
			a = append(a, g.scalar())
		}
		return a
	case 5: // mixed: an expanded array
		a := []any{}
		for n := g.r.IntN(4); n > 0; n-- {
			a = append(a, g.value(depth-1))
		}
		return a
	}
	return g.scalar()
}

// randomPayloads encodes n random values.
func randomPayloads(t *testing.T, n int) [][]byte {
	var out [][]byte
	features := map[string]int{}
	for seed := range uint64(n) {
		g := &valueGen{r: rand.New(rand.NewPCG(seed, 11))}
		var v any
		if seed%4 == 0 {
			v = g.value(4)
		} else {
			o := gcf.Object{}
			for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
				o = append(o, gcf.Member{Key: g.key() + strconv.Itoa(i), Value: g.value(4)})
			}
			v = o
		}
		data, err := gcf.EncodeGeneric(v)
		if err != nil {
			continue // a value the encoder refuses; not this package's business
		}
		for _, f := range []string{":]{", ">", "^", "~", "|", "\n@"} {
			if bytes.Contains(data, []byte(f)) {
				features[f]++
			}
		}
		out = append(out, data)
	}
	t.Logf("%d payloads; payloads with a keyed map, >, ^, ~, |, @: %v", len(out), features)
	for _, f := range []string{":]{", ">", "^", "~", "|", "\n@"} {
		if features[f] == 0 {
			t.Errorf("no random payload has %q", f)
		}
	}
	return out
}

// TestToJSONRandom compares ToJSON with the buffered path on random
// payloads full of tables, path columns, attachments and keyed maps.
func TestToJSONRandom(t *testing.T) {
	for i, data := range randomPayloads(t, 400) {
		if !checkSame(t, fmt.Sprintf("random %d:\n%s", i, data), data) {
			t.Errorf("random %d did not decode:\n%s", i, data)
		}
	}
}

// TestToNDJSONLossless rebuilds the value of every payload from its NDJSON
// lines and compares it with gcf.DecodeGeneric's.
func TestToNDJSONLossless(t *testing.T) {
	ps := randomPayloads(t, 400)
	for _, s := range mixedPayloads {
		ps = append(ps, []byte(s))
	}
	for i, data := range ps {
		want, err := gcf.DecodeGeneric(data)
		if err != nil {
			t.Fatalf("payload %d: %v", i, err)
		}
		var out bytes.Buffer
		res, err := ToNDJSON(&out, bytes.NewReader(data), Options{})
		if err != nil {
			t.Fatalf("payload %d: %v\n%s", i, err, data)
		}
		nl := int64(bytes.Count(out.Bytes(), []byte("\n")))
		if res.Records != nl {
			t.Errorf("payload %d: Records %d, lines %d", i, res.Records, nl)
		}
		got, err := rebuild(out.Bytes(), isArray(want))
		if err != nil {
			t.Fatalf("payload %d: %v\n%s\nNDJSON:\n%s", i, err, data, out.Bytes())
		}
		wj, _ := gcf.ToJSON(want)
		gj, _ := gcf.ToJSON(got)
		if !bytes.Equal(wj, gj) {
			t.Errorf("payload %d:\n%s\nNDJSON:\n%s\nrebuilt %s\n   want %s", i, data, out.Bytes(), gj, wj)
		}
	}
}

func isArray(v any) bool { _, ok := v.([]any); return ok }

// mixedPayloads hold tables, keyed maps and loose values side by side.
var mixedPayloads = []string{
	"GCF profile=generic\nstore=north-1\n## orders [2]{id,total}\n1|9.5\n2|-\n## warehouses [2:]{key,code,city}\nams|x|Amsterdam\n\"a.b\"|y|Berlin\n" +
		"## a\n  ## \"x.y\"\n    ## rows [1]{k,v}\n    1|2\n  z=1\n## empty [0]\n## e\n## items [3]\n@0 =1\n@1 [2]{a}\n  x\n  y\n@2 {}\n",
	"GCF profile=generic\n## [?]{id,name}\n1|a\n2|b\n##! summary counts=2\n",
	"GCF profile=generic\n## t [?]{id,name}\n1|a\n2|b\n##! summary counts=2\n",
	"GCF profile=generic\n=42\n",
	"GCF profile=generic\n",
}

// rebuild turns NDJSON lines back into a value: the elements of a root
// array, or the tagged records of docs/ndjson.md.
func rebuild(nd []byte, rootArray bool) (any, error) {
	lines := bytes.Split(bytes.TrimSuffix(nd, []byte("\n")), []byte("\n"))
	if len(nd) == 0 {
		lines = nil
	}
	if rootArray {
		a := []any{}
		for _, l := range lines {
			v, err := gcf.ParseJSON(l)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, nil
	}
	root := &tree{}
	for _, l := range lines {
		v, err := gcf.ParseJSON(l)
		if err != nil {
			return nil, err
		}
		rec, ok := v.(gcf.Object)
		if !ok {
			return nil, fmt.Errorf("line %s is not an object", l)
		}
		if p, ok := rec.Get("path"); ok {
			segs, err := parsePath(p.(string))
			if err != nil {
				return nil, err
			}
			val, _ := rec.Get("value")
			root.at(segs).leaf, root.at(segs).isLeaf = val, true
			continue
		}
		p, _ := rec.Get("table")
		segs, err := parsePath(p.(string))
		if err != nil {
			return nil, err
		}
		row, _ := rec.Get("row")
		t := root.at(segs)
		if k, keyed := rec.Get("key"); keyed {
			t.kind = 'o'
			t.keys = append(t.keys, k.(string))
			t.kids = append(t.kids, &tree{leaf: row, isLeaf: true})
		} else {
			t.kind = 'a'
			t.kids = append(t.kids, &tree{leaf: row, isLeaf: true})
		}
	}
	return root.value(), nil
}

// tree is a value being rebuilt.
type tree struct {
	kind   byte // 'o' object, 'a' array
	keys   []string
	kids   []*tree
	leaf   any
	isLeaf bool
}

// segment is a PATH segment: a key, or an index when key is nil.
type segment struct {
	key   *string
	index int
}

func (t *tree) at(segs []segment) *tree {
	for _, s := range segs {
		if s.key == nil {
			t.kind = 'a'
			for len(t.kids) <= s.index {
				t.kids = append(t.kids, &tree{})
			}
			t = t.kids[s.index]
			continue
		}
		t.kind = 'o'
		found := -1
		for i, k := range t.keys {
			if k == *s.key {
				found = i
			}
		}
		if found < 0 {
			t.keys = append(t.keys, *s.key)
			t.kids = append(t.kids, &tree{})
			found = len(t.kids) - 1
		}
		t = t.kids[found]
	}
	return t
}

func (t *tree) value() any {
	if t.isLeaf {
		return t.leaf
	}
	if t.kind == 'a' {
		a := []any{}
		for _, k := range t.kids {
			a = append(a, k.value())
		}
		return a
	}
	o := gcf.Object{}
	for i, k := range t.kids {
		o = append(o, gcf.Member{Key: t.keys[i], Value: k.value()})
	}
	return o
}

// parsePath parses the PATH syntax: keys joined by '.', bare or as JSON
// strings, and [N] indexes.
func parsePath(p string) ([]segment, error) {
	var segs []segment
	for i := 0; i < len(p); {
		switch c := p[i]; {
		case c == '.' && len(segs) > 0:
			i++
		case c == '[':
			end := strings.IndexByte(p[i:], ']')
			n, err := strconv.Atoi(p[i+1 : i+end])
			if err != nil {
				return nil, fmt.Errorf("path %q: %v", p, err)
			}
			segs = append(segs, segment{index: n})
			i += end + 1
		case c == '"':
			dec := json.NewDecoder(strings.NewReader(p[i:]))
			var k string
			if err := dec.Decode(&k); err != nil {
				return nil, fmt.Errorf("path %q: %v", p, err)
			}
			segs = append(segs, segment{key: &k})
			i += int(dec.InputOffset())
		default:
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			k := p[i:j]
			if !bareSegment([]byte(k)) {
				return nil, fmt.Errorf("path %q: bad bare segment %q", p, k)
			}
			segs = append(segs, segment{key: &k})
			i = j
		}
	}
	return segs, nil
}
