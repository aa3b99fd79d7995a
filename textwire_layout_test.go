package gcf

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/stream"
)

// v1Layouts pins the bytes the v1 encoder writes for nested objects: the
// original v1 encoder's layout (docs/legacy-v1.md), where a nested
// object's `## key` header and its members are indented together, one
// level (two spaces) deeper than its parent's members, from the first
// level on. Arrays stay at their object's member indent; a table row's
// nested fields go beneath the row, arrays first. Where `## key` would read
// as part of the block an array's last element leaves open, the object is
// `.key` with its members beneath.
var v1Layouts = []struct {
	name, json, want string
}{
	{"one level",
		`{"app":"shop","store":{"host":"db.local","port":6000}}`,
		"app=shop\n  ## store\n  host=db.local\n  port=6000\n"},
	{"first member an object",
		`{"svc":{"on":true,"n":1},"v":2}`,
		"  ## svc\n  on=true\n  n=1\nv=2\n"},
	{"two levels and siblings",
		`{"a":{"b":{"x":1},"y":2},"c":{"z":3}}`,
		"  ## a\n    ## b\n    x=1\n  y=2\n  ## c\n  z=3\n"},
	{"empty objects",
		`{"a":{},"b":{"c":{}},"d":1}`,
		"  ## a\n  ## b\n    ## c\nd=1\n"},
	{"four levels beside tables and inline arrays",
		`{"cfg":{"tags":["p","q"],"l1":{"rows":[{"id":1,"n":"a"},{"id":2,"n":"b"}],"l2":{"l3":{"deep":true},"ports":[80,443]},"after":"x"},"none":[]},"top":1}`,
		"  ## cfg\n  tags[2]: p,q\n    ## l1\n    ## rows [2]{id,n}\n    1|a\n    2|b\n      ## l2\n        ## l3\n        deep=true\n      ports[2]: 80,443\n    after=x\n  ## none [0]\ntop=1\n"},
	{"objects in table rows, three levels",
		`{"orders":[{"id":1,"buyer":{"name":"A","addr":{"city":"X","geo":{"lat":1.5}}},"tags":["t"]},{"id":2,"buyer":{"name":"B"},"tags":[]}]}`,
		"## orders [2]{id}\n@0 1\n  tags[1]: t\n  ## buyer\n  name=A\n    ## addr\n    city=X\n      ## geo\n      lat=1.5\n@1 2\n  ## tags [0]\n  ## buyer\n  name=B\n"},
	{"row object whose first member is an object",
		`{"t":[{"id":1,"c":{"d":{"x":1},"y":2}}]}`,
		"## t [1]{id}\n@0 1\n  ## c\n    ## d\n    x=1\n  y=2\n"},
	{"row object with a table member",
		`{"t":[{"id":1,"o":{"lines":[{"sku":"a","q":1}],"note":"n","m":{"k":1}}}],"z":0}`,
		"## t [1]{id}\n@0 1\n  .o\n    ## lines [1]{sku,q}\n    a|1\n    note=n\n      ## m\n      k=1\nz=0\n"},
	{"object after items: .key",
		`{"list":[{"a":1,"o":{"b":2}},{"c":3,"p":{"q":1}}],"after":{"x":1}}`,
		"## list [2]\n@0\n  a=1\n    ## o\n    b=2\n@1\n  c=3\n    ## p\n    q=1\n.after\n  x=1\n"},
	{"object after a row with nested fields: .key",
		`{"t":[{"id":1},{"id":2,"n":{"k":1}}],"o":{"y":1}}`,
		"## t [2]{id}\n1\n@1 2\n  ## n\n  k=1\n.o\n  y=1\n"},
	{"object after a row without nested fields",
		`{"t":[{"id":1,"n":{"k":1}},{"id":2}],"o":{"y":1}}`,
		"## t [2]{id}\n@0 1\n  ## n\n  k=1\n2\n  ## o\n  y=1\n"},
	{"objects after items",
		`{"l":[{"a":{"b":1}}],"x":{"c":1},"y":{"d":2},"z":3,"w":{"e":4}}`,
		"## l [1]\n@0\n    ## a\n    b=1\n.x\n  c=1\n.y\n  d=2\nz=3\n  ## w\n  e=4\n"},
	{"object after items inside an object",
		`{"w":{"l":[{"a":{"b":1}}],"o":{"c":2}}}`,
		"  ## w\n  ## l [1]\n  @0\n      ## a\n      b=1\n  .o\n    c=2\n"},
	{"objects in expanded items",
		`{"mixed":[{"a":1,"o":{"b":2,"p":{"c":3}}},{"c":3}]}`,
		"## mixed [2]\n@0\n  a=1\n    ## o\n    b=2\n      ## p\n      c=3\n@1\n  c=3\n"},
}

// TestV1NestedLayout: the v1 encoder writes the original encoder's layout
// byte for byte, and every v1 path reads it back to the value: DecodeGeneric,
// NewDecoder, ast.ValidateV1, Migrate.
func TestV1NestedLayout(t *testing.T) {
	for _, tc := range v1Layouts {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ParseJSON([]byte(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			got, err := EncodeGeneric(v, WithWire(WireV1))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("encoded\n%s\nwant\n%s", got, tc.want)
			}
			checkV1Reads(t, tc.want, v)
		})
	}
}

// checkV1Reads checks that every v1 path reads data as the value want.
func checkV1Reads(t *testing.T, data string, want any) {
	t.Helper()
	back, err := DecodeGeneric([]byte(data), WithWire(WireV1))
	if err != nil || !jsonEqual(back, want) {
		t.Fatalf("DecodeGeneric: %v, %s\nwant %s\ninput\n%s", err, mustJSON(back), mustJSON(want), data)
	}
	d := NewDecoder(strings.NewReader(data), WithWire(WireV1))
	//lint:ignore SA1019 Decoder.DecodeGeneric is deprecated but kept working; this test reads through it
	back, err = d.DecodeGeneric()
	if err != nil || !jsonEqual(back, want) {
		t.Fatalf("NewDecoder: %v, %s\nwant %s\ninput\n%s", err, mustJSON(back), mustJSON(want), data)
	}
	if list := ast.ValidateV1([]byte(data), stream.Limits{}); len(list) > 0 {
		t.Fatalf("ValidateV1: %v\ninput\n%s", list, data)
	}
	var v3 bytes.Buffer
	if err := Migrate(strings.NewReader(data), &v3); err != nil {
		t.Fatalf("Migrate: %v\ninput\n%s", err, data)
	}
	back, err = DecodeGeneric(v3.Bytes())
	if err != nil || !jsonEqual(back, want) {
		t.Fatalf("the migrated payload: %v, %s\nwant %s\nmigrated\n%s", err, mustJSON(back), mustJSON(want), v3.Bytes())
	}
}

// TestV1NestedLayoutsRead: the SPEC-v1.4 example's layout (a `## key`
// header at its parent's indent, the members beneath it), the original
// encoder's layout (header and members together, one level deeper), the
// form this library wrote before it followed the original encoder, and
// mixes of them, at three and more levels and beside tables and inline
// arrays, all read as the same value on every v1 path.
func TestV1NestedLayoutsRead(t *testing.T) {
	for _, tc := range []struct {
		json   string
		inputs []string
	}{
		{`{"name":"app","db":{"host":"h","pool":{"size":5,"limits":{"max":9,"ids":[1,2]}},"tags":["a","b"]},"rows":[{"x":1}]}`, []string{
			// SPEC-v1.4 example layout
			"name=app\n## db\n  host=h\n  ## pool\n    size=5\n    ## limits\n      max=9\n      ids[2]: 1,2\n  tags[2]: a,b\n## rows [1]{x}\n1\n",
			// original encoder layout
			"name=app\n  ## db\n  host=h\n    ## pool\n    size=5\n      ## limits\n      max=9\n      ids[2]: 1,2\n  tags[2]: a,b\n## rows [1]{x}\n1\n",
			// SPEC parent, original children
			"name=app\n## db\n  host=h\n    ## pool\n    size=5\n      ## limits\n      max=9\n      ids[2]: 1,2\n  tags[2]: a,b\n## rows [1]{x}\n1\n",
			// original parent, SPEC-v1.1 nested-ref child, original grandchild
			"name=app\n  ## db\n  host=h\n  .pool\n    size=5\n      ## limits\n      max=9\n      ids[2]: 1,2\n  tags[2]: a,b\n## rows [1]{x}\n1\n",
		}},
		{`{"t":[{"id":1,"c":{"d":{"e":{"x":1}},"y":2},"n":[{"k":1}]},{"id":2,"c":{"y":3},"n":[]}],"after":true}`, []string{
			// original: objects beside their headers beneath the row
			"## t [2]{id}\n@0 1\n  ## n [1]{k}\n  1\n  ## c\n    ## d\n      ## e\n      x=1\n  y=2\n@1 2\n  ## n [0]\n  ## c\n  y=3\nafter=true\n",
			// SPEC: members beneath the headers
			"## t [2]{id}\n@0 1\n  ## c\n    ## d\n      ## e\n        x=1\n    y=2\n  ## n [1]{k}\n  1\n@1 2\n  ## c\n    y=3\n  ## n [0]\nafter=true\n",
			// SPEC-v1.1 nested-ref
			"## t [2]{id}\n@0 1\n  .c\n    ## d\n      ## e\n        x=1\n    y=2\n  ## n [1]{k}\n  1\n@1 2\n  .c\n    y=3\n  ## n [0]\nafter=true\n",
			// the layout this library wrote before: a flat object ends at
			// the row's next `## key [N]` field
			"## t [2]{id}\n@0 1\n  ## c\n    ## d\n      ## e\n        x=1\n    y=2\n  ## n [1]{k}\n  1\n@1 2\n  ## c\n  y=3\n  ## n [0]\nafter=true\n",
		}},
		{`{"m":[{"o":{"p":{"q":{"r":1}},"s":2}},{"z":[1]}]}`, []string{
			"## m [2]\n@0\n    ## o\n      ## p\n        ## q\n        r=1\n    s=2\n@1\n  z[1]: 1\n",
			"## m [2]\n@0\n  ## o\n    ## p\n      ## q\n        r=1\n    s=2\n@1\n  z[1]: 1\n",
		}},
	} {
		v, err := ParseJSON([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range tc.inputs {
			checkV1Reads(t, in, v)
		}
	}
}

// TestV1NestedIndentErrors: what neither layout allows is still
// invalid_indent: a member two levels under its object, a root scalar
// indented, an object header two levels deeper than its parent's members.
func TestV1NestedIndentErrors(t *testing.T) {
	for _, in := range []string{
		"    ## a\n    x=1\n",
		"  x=1\n",
		"  hello\n",
		"  ## a\n      x=1\n",
		"## a\n  x=1\n      ## b\n",
		"## t [1]{id}\n@0 1\n    ## c\n    x=1\n",
		"## t [1]{id}\n@0 1\n  ## c\n      x=1\n",
	} {
		_, err := DecodeGeneric([]byte(in), WithWire(WireV1))
		if CategoryOf(err) != InvalidIndent {
			t.Errorf("%q: %v, want invalid_indent", in, err)
		}
		found := false
		for _, e := range ast.ValidateV1([]byte(in), stream.Limits{}) {
			found = found || e.Category == InvalidIndent
		}
		if !found {
			t.Errorf("ValidateV1 %q: no invalid_indent", in)
		}
		if err := Migrate(strings.NewReader(in), io.Discard); CategoryOf(err) != InvalidIndent {
			t.Errorf("Migrate %q: %v, want invalid_indent", in, err)
		}
	}
}

// TestV1EmptyInput: an input with no header and no value (zero bytes, or
// only blank and comment lines) is missing_header at 1:1 on every v1 path,
// as an empty input is for v3; the encoders refuse to write one.
func TestV1EmptyInput(t *testing.T) {
	for _, in := range []string{"", "\n", "\n\n# note\n"} {
		check := func(path string, err error) {
			t.Helper()
			var se *SyntaxError
			if !errors.As(err, &se) || se.Category != MissingHeader || se.Line != 1 || se.Column != 1 {
				t.Errorf("%s of %q: %v, want 1:1 missing_header", path, in, err)
			}
		}
		_, err := DecodeGeneric([]byte(in), WithWire(WireV1))
		check("DecodeGeneric", err)
		_, err = Decode([]byte(in), WithWire(WireV1))
		check("Decode", err)
		_, err = DecodeDelta([]byte(in), WithWire(WireV1))
		check("DecodeDelta", err)
		//lint:ignore SA1019 Decoder.DecodeGeneric is deprecated but kept working; this test reads through it
		_, err = NewDecoder(strings.NewReader(in), WithWire(WireV1)).DecodeGeneric()
		check("NewDecoder.DecodeGeneric", err)
		d := NewDecoder(strings.NewReader(in), WithWire(WireV1))
		for err == nil || err != io.EOF && CategoryOf(err) == "" {
			if _, err = d.Next(); err != nil {
				break
			}
		}
		check("NewDecoder.Next", err)
		check("Migrate", Migrate(strings.NewReader(in), io.Discard))
		list := ast.ValidateV1([]byte(in), stream.Limits{})
		if len(list) != 1 || list[0].Category != MissingHeader || list[0].Pos.Line != 1 || list[0].Pos.Column != 1 {
			t.Errorf("ValidateV1 of %q: %v, want one 1:1 missing_header", in, list)
		}
		// v3 refuses the same input with the same category.
		_, err = DecodeGeneric([]byte(in))
		check("DecodeGeneric (v3)", err)
	}
	if _, err := EncodeGeneric(Object{}, WithWire(WireV1)); CategoryOf(err) != UnsupportedValue {
		t.Errorf("EncodeGeneric({}) on v1: %v, want unsupported_value", err)
	}
	var buf bytes.Buffer
	if err := NewEncoder(&buf, WithWire(WireV1)).Close(); CategoryOf(err) != UnsupportedValue || buf.Len() != 0 {
		t.Errorf("closing an empty v1 stream: %v, %q; want unsupported_value and no output", err, buf.Bytes())
	}
}

// v1Gen generates values the v1 wire carries, rich in nesting: objects in
// objects, tables whose rows have nested fields, expanded arrays of
// objects, inline arrays, empty objects and arrays, with keys from a small
// set so that tables form and members collide across levels.
type v1Gen struct{ r *rand.Rand }

func (g v1Gen) scalar() any {
	switch g.r.IntN(5) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return int64(g.r.IntN(100))
	default:
		return string(rune('p' + g.r.IntN(4)))
	}
}

func (g v1Gen) object(depth int, keys []string) Object {
	o := Object{}
	if keys == nil {
		keys = []string{"a", "b", "c", "d", "e"}[:g.r.IntN(5)]
	}
	for _, k := range keys {
		o = append(o, Member{Key: k, Value: g.value(depth - 1)})
	}
	return o
}

func (g v1Gen) value(depth int) any {
	if depth <= 0 {
		return g.scalar()
	}
	switch g.r.IntN(7) {
	case 0, 1:
		return g.scalar()
	case 2, 3:
		return g.object(depth, nil)
	case 4: // objects with the same scalar keys: a table, rows with nested fields
		n := g.r.IntN(4)
		arr := make([]any, n)
		for i := range arr {
			o := Object{{Key: "id", Value: int64(i)}}
			for _, k := range []string{"x", "y"}[:g.r.IntN(3)] {
				o = append(o, Member{Key: k, Value: g.value(depth - 1)})
			}
			if g.r.IntN(2) == 0 {
				o = append(o, Member{Key: "n", Value: g.object(depth-1, nil)})
			}
			if g.r.IntN(3) == 0 {
				o = append(o, Member{Key: "l", Value: []any{g.scalar(), g.scalar()}})
			}
			arr[i] = o
		}
		return arr
	case 5: // objects and scalars: an expanded array
		arr := make([]any, g.r.IntN(4))
		for i := range arr {
			if g.r.IntN(3) == 0 {
				arr[i] = g.scalar()
			} else {
				arr[i] = g.object(depth, nil)
			}
		}
		return arr
	default:
		arr := make([]any, g.r.IntN(3))
		for i := range arr {
			arr[i] = g.scalar()
		}
		return arr
	}
}

// TestV1NestedRoundTrip: what the v1 encoder writes, the v1 decoder reads
// back to the same value, for random deeply nested values.
func TestV1NestedRoundTrip(t *testing.T) {
	g := v1Gen{rand.New(rand.NewPCG(1, 22))}
	for i := 0; i < 20000; i++ {
		v := g.object(5, nil)
		if len(v) == 0 {
			continue
		}
		enc, err := EncodeGeneric(v, WithWire(WireV1))
		if err != nil {
			if CategoryOf(err) == UnsupportedValue {
				continue // an array directly in an array
			}
			t.Fatalf("%v\nvalue %s", err, mustJSON(v))
		}
		back, err := DecodeGeneric(enc, WithWire(WireV1))
		if err != nil || !jsonEqual(back, v) {
			t.Fatalf("decode(encode(v)) != v: %v\nvalue   %s\ndecoded %s\nencoded\n%s", err, mustJSON(v), mustJSON(back), enc)
		}
	}
}
