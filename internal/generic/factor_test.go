package generic

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/internal/box"
	"github.com/gcfkit/gcf/stream"
)

// declaresConstants reports whether a table declaration in text has a
// constant column (spec v3.6.0 §7.4.7), as the pull decoder reads it.
func declaresConstants(text []byte) bool {
	d := stream.NewBytesDecoder(text, stream.Limits{})
	for {
		ev, err := d.Next()
		if err != nil {
			return false
		}
		if len(ev.Consts) > 0 {
			return true
		}
	}
}

// factorCases are canonical encodings with constant columns (spec v3.6.0
// §7.4.7) beyond the root arrays the fixtures pin: the scope this module
// factors (docs/spec-notes.md, "Spec v3.6.0 on the encode side").
var factorCases = []struct {
	name, in, want string
}{
	{"nested section", `{"a":{"rows":[{"id":1,"r":"x"},{"id":2,"r":"x"}]}}`,
		"## a\n  ## rows [2]{id,r=x}\n  1\n  2\n"},
	{"keyed map, never the key column", `{"m":{"k1":{"a":1,"b":"x"},"k2":{"a":2,"b":"x"}}}`,
		"## m [2:]{key,a,b=x}\nk1|1\nk2|2\n"},
	{"keyed map, every value column constant", `{"m":{"k1":{"a":1,"b":"x"},"k2":{"a":1,"b":"x"}}}`,
		"## m [2:]{key,a=1,b=x}\nk1\nk2\n"},
	{"item table", `[[{"a":1,"b":2},{"a":1,"b":3}],5]`,
		"## [2]\n@0 [2]{a=1,b}\n  2\n  3\n@1 =5\n"},
	{"null constant", `[{"id":1,"n":null},{"id":2,"n":null}]`,
		"## [2]{id,n=-}\n1\n2\n"},
	{"quoted constants",
		`[{"a":"","b":"^","c":"^{x}","d":"a,b","e":"x}y","f":"true","g":"12","h":"-","i":"~","j":" a","k":"#x","l":"a|b","z":1},` +
			`{"a":"","b":"^","c":"^{x}","d":"a,b","e":"x}y","f":"true","g":"12","h":"-","i":"~","j":" a","k":"#x","l":"a|b","z":2}]`,
		`## [2]{a="",b="^",c="^{x}",d="a,b",e="x}y",f="true",g="12",h="-",i="~",j=" a",k="#x",l="a|b",z}` + "\n1\n2\n"},
	{"bare constants", `[{"m":"a=b","n":"^{ab","o":true,"p":1.5,"q":"x y","z":1},{"m":"a=b","n":"^{ab","o":true,"p":1.5,"q":"x y","z":2}]`,
		"## [2]{m=a=b,n=^{ab,o=true,p=1.5,q=x y,z}\n1\n2\n"},
	{"all constant: the last stays bare", `[{"a":1,"b":2},{"a":1,"b":2}]`,
		"## [2]{a=1,b}\n2\n2\n"},
	{"single record", `[{"a":1,"b":2}]`,
		"## [1]{a,b}\n1|2\n"},
	{"1 and 1.0 are the same, 1 and \"1\" are not", `[{"a":1,"b":"1"},{"a":1.0,"b":1}]`,
		"## [2]{a=1,b}\n\"1\"\n1\n"},
	{"absent in a row", `[{"a":1,"b":2},{"b":3}]`,
		"## [2]{a,b}\n1|2\n~|3\n"},
	{"attachment tables keep their constants", `[{"id":1,"f":[{"a":1,"b":2},{"a":1,"b":3}]},{"id":2,"f":[{"a":1,"b":2}]}]`,
		"## [2]{id,f}\n@0 1|^\n.f [2]{a,b}\n    1|2\n    1|3\n@1 2|^\n.f [1]\n    1|2\n"},
	{"path columns are not factored", `[{"id":1,"o":{"x":1,"y":2}},{"id":2,"o":{"x":1,"y":2}}]`,
		"## [2]{id,\"o>x\",\"o>y\"}\n1|1|2\n2|1|2\n"},
	{"'>'-named fields have no column", `[{"c":5,"x>y":1},{"c":5,"x>y":1}]`,
		"## [2]{c}\n@0 5\n.\"x>y\" =1\n@1 5\n.\"x>y\" =1\n"},
	{"quoted names", `[{"a=b":1,"@x":"y","z":1},{"a=b":1,"@x":"y","z":2}]`,
		"## [2]{\"a=b\"=1,\"@x\"=y,z}\n1\n2\n"},
	{"keyed label beside a constant key field", `{"m":{"k":{"key":1,"_key":2},"l":{"key":1,"_key":3}}}`,
		"## m [2:]{__key,key=1,_key}\nk|2\nl|3\n"},
	{"a column holding an object in some row", `[{"a":1,"o":1},{"a":2,"o":{"x":1}}]`,
		"## [2]{a,o}\n1|1\n@1 2|^\n.o {}\n    x=1\n"},
}

// TestFactorBytes: canonical output factors constant columns where the
// scope says and writes each value as §7.4.7.2 and docs/spec-notes.md
// say; every output decodes back to its input, and WithSpec(Spec353)
// writes the v3.5.3 bytes (every cell in the rows).
func TestFactorBytes(t *testing.T) {
	for _, c := range factorCases {
		v, err := ParseJSON([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeGeneric(v)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if want := "GCF profile=generic\n" + c.want; string(got) != want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.name, got, want)
		}
		back, err := DecodeGeneric(got)
		if err != nil || !jsonEqual(back, v) {
			t.Errorf("%s: decode(encode(v)) = %v, %v", c.name, back, err)
		}
		old, err := EncodeGeneric(v, WithSpec(Spec353))
		if err != nil {
			t.Fatalf("%s: Spec353: %v", c.name, err)
		}
		if declaresConstants(old) {
			t.Errorf("%s: Spec353 wrote constant columns:\n%s", c.name, old)
		}
		if back, err := DecodeGeneric(old); err != nil || !jsonEqual(back, v) {
			t.Errorf("%s: Spec353: decode(encode(v)) = %v, %v", c.name, back, err)
		}
	}
}

// TestFactorSpec353 pins the v3.5.3 bytes of a factored table for every
// encoding path: the three sources, AppendGeneric, Smallest and the
// buffered Encoder.Encode.
func TestFactorSpec353(t *testing.T) {
	const v36 = "GCF profile=generic\n## [2]{id,n=-,region=eu}\n1\n2\n"
	const v353 = "GCF profile=generic\n## [2]{id,n,region}\n1|-|eu\n2|-|eu\n"
	type row struct {
		ID     int     `json:"id"`
		N      *string `json:"n"`
		Region string  `json:"region"`
	}
	structs := []row{{1, nil, "eu"}, {2, nil, "eu"}}
	maps := []any{map[string]any{"id": 1, "region": "eu", "n": nil}, map[string]any{"id": 2, "region": "eu", "n": nil}}
	tree := []any{Object{{Key: "id", Value: int64(1)}, {Key: "n", Value: nil}, {Key: "region", Value: "eu"}}, Object{{Key: "id", Value: int64(2)}, {Key: "n", Value: nil}, {Key: "region", Value: "eu"}}}
	for _, v := range []any{structs, maps, tree} {
		for _, c := range []struct {
			opts []Option
			want string
		}{{nil, v36}, {[]Option{WithSpec(Spec36)}, v36}, {[]Option{WithSpec(Spec353)}, v353}} {
			got, err := EncodeGeneric(v, c.opts...)
			if err != nil || string(got) != c.want {
				t.Errorf("EncodeGeneric(%T, %d opts) = %q, %v; want %q", v, len(c.opts), got, err, c.want)
			}
			got, err = AppendGeneric([]byte("x"), v, c.opts...)
			if err != nil || string(got) != "x"+c.want {
				t.Errorf("AppendGeneric(%T) = %q, %v", v, got, err)
			}
			var buf bytes.Buffer
			if err := NewEncoder(&buf, c.opts...).Encode(v); err != nil || buf.String() != c.want {
				t.Errorf("Encoder.Encode(%T) = %q, %v", v, buf.String(), err)
			}
			small, err := EncodeGeneric(v, append(c.opts, WithSize(Smallest))...)
			if err != nil || string(small) != c.want {
				t.Errorf("Smallest(%T) = %q, %v; want %q", v, small, err, c.want)
			}
		}
		if got, err := Marshal(v); err != nil || string(got) != v36 {
			t.Errorf("Marshal(%T) = %q, %v", v, got, err)
		}
	}
}

// TestFactorSourcesAgree: structs, maps and the Object tree of the same
// records give the same factored bytes, through the fast paths where they
// take the value (struct columns are compared as typed fields, map values
// as the canonical cells they make).
func TestFactorSourcesAgree(t *testing.T) {
	type geo struct {
		Lat float64 `json:"lat"`
	}
	// Fields in key order, as maps are written.
	type row struct {
		Comma string   `json:"comma"`
		F32   float32  `json:"f32"`
		Geo   geo      `json:"geo"`
		ID    int      `json:"id"`
		Note  *string  `json:"note"`
		On    bool     `json:"on"`
		Score float64  `json:"score"`
		Tags  []string `json:"tags"`
		Tier  string   `json:"tier"`
	}
	s := "same"
	for _, rows := range [][]row{
		{{"a,}b", 0.1, geo{1}, 1, &s, true, 0, nil, "gold"}, {"a,}b", 0.1, geo{1}, 2, &s, true, math.Copysign(0, -1), nil, "gold"}},
		{{"", 0.5, geo{1}, 1, nil, false, 1, []string{"x"}, "gold"}, {"", 0.5, geo{2}, 2, nil, true, 2, nil, "gold"}, {"", 0.5, geo{3}, 3, &s, false, 3, nil, "gold"}},
		{{"^", 0, geo{}, 1, nil, false, 1, nil, ""}, {"^", 0, geo{}, 1, nil, false, 1, nil, ""}},
	} {
		want, err := appendLayout(nil, rows, defaultLimits, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		if !declaresConstants(want) {
			t.Fatalf("no constant column:\n%s", want)
		}
		if got, ok := appendStructs(nil, rows, defaultLimits, false, true); !ok && !box.Purego || ok && !bytes.Equal(got, want) {
			t.Errorf("struct path (took it: %v)\n%s\ngeneral path\n%s", ok, got, want)
		}
		js, _ := json.Marshal(rows)
		var m any
		if err := json.Unmarshal(js, &m); err != nil {
			t.Fatal(err)
		}
		if got, ok := appendMaps(nil, m, defaultLimits, false); ok && !bytes.Equal(got, want) {
			t.Errorf("map path\n%s\ngeneral path\n%s", got, want)
		}
		d := json.NewDecoder(bytes.NewReader(js))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if got, err := EncodeGeneric(m); err != nil || !bytes.Equal(got, want) {
			t.Errorf("json.Number maps\n%s\ngeneral path\n%s", got, want)
		}
		tree, err := ParseJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := EncodeGeneric(tree); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Object tree\n%s\nstructs\n%s", got, want)
		}
		if back, err := DecodeGeneric(want); err != nil || !jsonEqual(back, tree) {
			t.Errorf("round trip: %v", err)
		}
	}
}

// TestFactorSmallestPrices: the Smallest size keeps factoring where it
// costs less, and is never priced above canonical output.
func TestFactorSmallestPrices(t *testing.T) {
	long := strings.Repeat("constant ", 8)
	v := []any{Object{{Key: "id", Value: int64(1)}, {Key: "t", Value: long}}, Object{{Key: "id", Value: int64(2)}, {Key: "t", Value: long}}, Object{{Key: "id", Value: int64(3)}, {Key: "t", Value: long}}}
	canon, err := EncodeGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	small, err := EncodeGeneric(v, WithSize(Smallest))
	if err != nil {
		t.Fatal(err)
	}
	if !declaresConstants(small) || EstimateTokens(string(small)) > EstimateTokens(string(canon)) {
		t.Errorf("Smallest\n%s\ncanonical\n%s", small, canon)
	}
}

// A last constant whose value starts "^{" is quoted (with the closing '}'
// it would read as a complete ^{...} marker); found by the interop gate's
// constant-column documents. Every source writes the same bytes, and they
// decode back.
func TestFactorLastMarkerLikeValue(t *testing.T) {
	type rec struct {
		ID int    `json:"a"`
		C  string `json:"c"`
	}
	const want = "GCF profile=generic\n## [2]{a,c=\"^{abc\"}\n0\n1\n"
	for name, v := range map[string]any{
		"object":  []any{Object{{Key: "a", Value: int64(0)}, {Key: "c", Value: "^{abc"}}, Object{{Key: "a", Value: int64(1)}, {Key: "c", Value: "^{abc"}}},
		"maps":    []any{map[string]any{"a": 0, "c": "^{abc"}, map[string]any{"a": 1, "c": "^{abc"}},
		"structs": []rec{{0, "^{abc"}, {1, "^{abc"}},
	} {
		out, err := EncodeGeneric(v)
		if err != nil || string(out) != want {
			t.Errorf("%s: %q, %v; want %q", name, out, err, want)
			continue
		}
		if _, err := DecodeGeneric(out); err != nil {
			t.Errorf("%s: does not decode: %v", name, err)
		}
	}
}
