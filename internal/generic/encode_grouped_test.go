package generic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/internal/conformance"
)

// groupedJSON encodes the JSON array text in with GroupBy(key, col).
func groupedJSON(t *testing.T, in, key, col string, opts ...Option) ([]byte, error) {
	t.Helper()
	v, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	return EncodeGeneric(v, append(opts, GroupBy(key, col))...)
}

// TestGroupedEncodeBytes pins the grouped layout (spec v3.6.0 §7.4.8; no
// upstream encode fixture exists): the @key column, the group column kept
// at its place in the union, groups in order of first appearance with
// records in their relative order, `~` for absent and `-` for null cells,
// subheader values written as cells, other constant columns factored.
func TestGroupedEncodeBytes(t *testing.T) {
	const h = "GCF profile=generic\n"
	for _, tc := range []struct {
		name, in, key, col, want string
	}{
		{"basic", `[{"id":"u1","name":"Alice","dept":"Sales","level":3},{"id":"u2","name":"Bob","dept":"Engineering","level":1},
			{"id":"u3","name":"Carol","dept":"Engineering","level":4},{"id":"u4","name":"Dave","dept":"Sales","level":2},
			{"id":"u5","name":"Eve","dept":"Support","level":2},{"id":"u6","name":"Frank","dept":"Engineering","level":5}]`, "id", "dept",
			"## [6]{@id,name,dept,level} group=dept\ndept=Sales [2]\nu1|Alice|3\nu4|Dave|2\ndept=Engineering [3]\nu2|Bob|1\nu3|Carol|4\nu6|Frank|5\ndept=Support [1]\nu5|Eve|2\n"},
		{"single group", `[{"id":1,"k":"a","v":1},{"id":2,"k":"a","v":2}]`, "id", "k",
			"## [2]{@id,k,v} group=k\nk=a [2]\n1|1\n2|2\n"},
		{"null group", `[{"id":1,"g":null,"x":1},{"id":2,"g":"east","x":2},{"id":3,"g":null,"x":3}]`, "id", "g",
			"## [3]{@id,g,x} group=g\ng=- [2]\n1|1\n3|3\ng=east [1]\n2|2\n"},
		{"numbers and booleans", `[{"id":"a","n":2.5},{"id":"b","n":-3},{"id":"c","n":2.5},{"id":"d","n":true},{"id":"e","n":1e21}]`, "id", "n",
			"## [5]{@id,n} group=n\nn=2.5 [2]\na\nc\nn=-3 [1]\nb\nn=true [1]\nd\nn=1e+21 [1]\ne\n"},
		{"quoted group values", `[{"id":1,"g":"a|b"},{"id":2,"g":"true"},{"id":3,"g":""},{"id":4,"g":"-"},{"id":5,"g":"~"},
			{"id":6,"g":" x"},{"id":7,"g":"12"},{"id":8,"g":"x=y [2]"},{"id":9,"g":"q\"\n"},{"id":10,"g":"#h"},{"id":11,"g":"a,b"}]`, "id", "g",
			"## [11]{@id,g} group=g\n" + `g="a|b" [1]` + "\n1\n" + `g="true" [1]` + "\n2\n" + `g="" [1]` + "\n3\n" + `g="-" [1]` + "\n4\n" +
				`g="~" [1]` + "\n5\n" + `g=" x" [1]` + "\n6\n" + `g="12" [1]` + "\n7\n" + "g=x=y [2] [1]\n8\n" + `g="q\"\n" [1]` + "\n9\n" +
				`g="#h" [1]` + "\n10\n" + `g="a,b" [1]` + "\n11\n"},
		{"quoted names", `[{"the id":1,"a b":"x","n":1},{"the id":2,"a b":"y","n":2}]`, "the id", "a b",
			"## [2]{@\"the id\",\"a b\",n} group=\"a b\"\n\"a b\"=x [1]\n1|1\n\"a b\"=y [1]\n2|2\n"},
		{"absent and null cells", `[{"id":1,"g":"a","x":null},{"id":2,"g":"a","y":5},{"id":3,"g":"b","x":1,"y":null}]`, "id", "g",
			"## [3]{@id,g,x,y} group=g\ng=a [2]\n1|-|~\n2|~|5\ng=b [1]\n3|1|-\n"},
		{"constants factored", `[{"id":1,"region":"us","dept":"a","tag":"x,y","x":1},{"id":2,"region":"us","dept":"b","tag":"x,y","x":2},{"id":3,"region":"us","dept":"a","tag":"x,y","x":3}]`,
			"id", "dept", "## [3]{@id,region=us,dept,tag=\"x,y\",x} group=dept\ndept=a [2]\n1|1\n3|3\ndept=b [1]\n2|2\n"},
		{"null and numeric constants", `[{"id":1,"n":null,"g":"a","z":0},{"id":2,"n":null,"g":"a","z":0}]`, "id", "g",
			"## [2]{@id,n=-,g,z=0} group=g\ng=a [2]\n1\n2\n"},
		{"one record: nothing factored", `[{"id":1,"region":"us","g":"a"}]`, "id", "g",
			"## [1]{@id,region,g} group=g\ng=a [1]\n1|us\n"},
		{"a column absent somewhere is not constant", `[{"id":1,"r":"us","g":"a"},{"id":2,"g":"a"}]`, "id", "g",
			"## [2]{@id,r,g} group=g\ng=a [2]\n1|us\n2|~\n"},
		{"group column first, key last", `[{"g":"a","v":1,"id":"k1"},{"g":"b","v":2,"id":"k2"}]`, "id", "g",
			"## [2]{g,v,@id} group=g\ng=a [1]\n1|k1\ng=b [1]\n2|k2\n"},
		{"union order", `[{"id":1,"g":"a"},{"x":1,"id":2,"g":"b"}]`, "id", "g",
			"## [2]{@id,g,x} group=g\ng=a [1]\n1|~\ng=b [1]\n2|1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := groupedJSON(t, tc.in, tc.key, tc.col)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if string(got) != h+tc.want {
				t.Fatalf("got\n%s\nwant\n%s%s", got, h, tc.want)
			}
			checkGroupedRoundTrip(t, tc.in, tc.key, tc.col, got)
		})
	}
}

// checkGroupedRoundTrip decodes a grouped encoding of the JSON array in
// and compares it with the records regrouped: as the plain canonical
// encoding decodes them, ordered group by group (first appearance) and
// within a group as given, each record's members in field-union order.
func checkGroupedRoundTrip(t *testing.T, in, key, col string, got []byte) {
	t.Helper()
	back, err := DecodeGeneric(got)
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, got)
	}
	v, _ := ParseJSON([]byte(in))
	want := regroup(t, v, col)
	if !jsonEqualOrdered(back, want) {
		t.Fatalf("decode(grouped) = %v\nwant the records regrouped: %v\n%s", back, want, got)
	}
}

// regroup returns the records of v (a JSON array of objects) as the plain
// encoding carries them, regrouped by col as GroupBy does.
func regroup(t *testing.T, v any, col string) []any {
	t.Helper()
	plain, err := EncodeGeneric(v)
	if err != nil {
		t.Fatalf("plain encode: %v", err)
	}
	pv, err := DecodeGeneric(plain)
	if err != nil {
		t.Fatalf("plain decode: %v", err)
	}
	recs := pv.([]any)
	// Members in the input's union order, as the grouped encoder declares
	// them: the plain encoding moves a '>'-named field to an attachment,
	// after the row's columns, so its decoded order is not the input's
	// (FuzzGroupedEncode found `{"00>>0":null,"id":"","g":""}`).
	union := geUnion(recs, nil)
	if in, ok := v.([]any); ok && len(in) == len(recs) {
		union = geUnion(in, nil)
	}
	var order []string
	groups := map[string][]any{}
	for _, r := range recs {
		o := r.(Object)
		var g any
		var ordered Object
		for _, f := range union {
			if x, ok, _ := geLookup(o, f, 0); ok {
				ordered = append(ordered, Member{Key: f, Value: x})
				if f == col {
					g = x
				}
			}
		}
		k := fmt.Sprintf("%T:%v", g, g)
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], ordered)
	}
	var out []any
	for _, k := range order {
		out = append(out, groups[k]...)
	}
	return out
}

// TestGroupedEncodeErrors: every refusal of GroupBy is an error with its
// category and a message naming the problem; none panics and none writes.
func TestGroupedEncodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, key, col string
		opts               []Option
		cat                Category
		msg                string
	}{
		{"not an array", `{"id":1}`, "id", "g", nil, InvalidGroupHeader, "non-empty array of objects, not an object"},
		{"scalar", `3`, "id", "g", nil, InvalidGroupHeader, "not a number"},
		{"empty array", `[]`, "id", "g", nil, InvalidGroupHeader, "not an empty array"},
		{"record not an object", `[{"id":1,"g":1},2]`, "id", "g", nil, InvalidGroupHeader, "record 1 is a number"},
		{"nested object", `[{"id":1,"g":1,"o":{"a":1}}]`, "id", "g", nil, InvalidGroupHeader, `record 0 holds an object in field "o"`},
		{"nested array", `[{"id":1,"g":1},{"id":2,"g":1,"a":[1]}]`, "id", "g", nil, InvalidGroupHeader, `record 1 holds an array in field "a"`},
		{"key is column", `[{"id":1}]`, "id", "id", nil, InvalidGroupHeader, "same field"},
		{"key absent", `[{"id":1,"g":1},{"g":2}]`, "id", "g", nil, InvalidGroupHeader, `record 1 has no key field "id"`},
		{"key absent everywhere", `[{"g":1}]`, "id", "g", nil, InvalidGroupHeader, `record 0 has no key field "id"`},
		{"key null", `[{"id":null,"g":1}]`, "id", "g", nil, InvalidGroupHeader, `record 0 has a null key "id"`},
		{"key repeated", `[{"id":"a","g":1},{"id":"b","g":1},{"id":"a","g":2}]`, "id", "g", nil, DuplicateKey, "records 0 and 2 have the same key a"},
		{"key repeated as a value", `[{"id":1,"g":1},{"id":1.0,"g":2}]`, "id", "g", nil, DuplicateKey, "records 0 and 1 have the same key 1"},
		{"key repeated across types", `[{"id":1000000000000000000,"g":1},{"id":1e18,"g":2}]`, "id", "g", nil, DuplicateKey, "records 0 and 1"},
		{"group column absent", `[{"id":1,"g":1},{"id":2}]`, "id", "g", nil, InvalidGroupHeader, `record 1 has no group field "g"`},
		{"group values equal only as values", `[{"id":1,"g":1000000000000000000},{"id":2,"g":1e18}]`, "id", "g", nil, DuplicateGroup, "records 0 and 1"},
		{"path-like field", `[{"id":1,"g":1,"a>b":2}]`, "id", "g", nil, InvalidGroupHeader, `field "a>b" would be read as a '>' path column`},
		{"path-like key", `[{"a>b":1,"g":1}]`, "a>b", "g", nil, InvalidGroupHeader, `field "a>b"`},
		{"spec v3.5.3", `[{"id":1,"g":1}]`, "id", "g", []Option{WithSpec(Spec353)}, InvalidGroupHeader, `WithSpec("3.5.3") cannot carry it`},
		{"unknown spec", `[{"id":1,"g":1}]`, "id", "g", []Option{WithSpec("3.7")}, InvalidGroupHeader, `WithSpec("3.7")`},
		{"v1 wire", `[{"id":1,"g":1}]`, "id", "g", []Option{WithWire(WireV1)}, InvalidGroupHeader, "v1 wire has no value-grouping"},
		{"too many elements", `[{"id":1,"g":1},{"id":2,"g":1}]`, "id", "g", []Option{WithMaxElements(1)}, TooManyElements, ""},
		{"too many fields", `[{"id":1,"g":1,"x":1}]`, "id", "g", []Option{WithMaxFields(2)}, TooManyFields, ""},
		{"line too long", `[{"id":1,"g":"a","x":"` + strings.Repeat("x", 40) + `"}]`, "id", "g", []Option{WithMaxLineBytes(30)}, LineTooLong, ""},
		{"payload too large", `[{"id":1,"g":"a"},{"id":2,"g":"b"}]`, "id", "g", []Option{WithMaxBytes(40)}, PayloadTooLarge, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := groupedJSON(t, tc.in, tc.key, tc.col, tc.opts...)
			if err == nil {
				t.Fatalf("no error; wrote\n%s", got)
			}
			if got != nil {
				t.Errorf("an error and output %q", got)
			}
			if c := CategoryOf(err); c != tc.cat {
				t.Errorf("category %q, want %q (%v)", c, tc.cat, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

// TestGroupedEncodeModelErrors: what normalization refuses is refused
// with its category; a string that is not valid UTF-8 is named by its path.
func TestGroupedEncodeModelErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		cat  Category
		msg  string
	}{
		{"bad utf-8 cell", []any{Object{{Key: "id", Value: int64(1)}, {Key: "g", Value: "a"}, {Key: "x", Value: "\xff"}}}, InvalidUTF8, `"/0/x"`},
		{"bad utf-8 key value", []any{Object{{Key: "id", Value: "\xff"}, {Key: "g", Value: "a"}}}, InvalidUTF8, `"/0/id"`},
		{"bad utf-8 group value", []any{Object{{Key: "id", Value: int64(1)}, {Key: "g", Value: "a\xff"}}}, InvalidUTF8, `"/0/g"`},
		{"bad utf-8 field name", []any{Object{{Key: "id", Value: int64(1)}, {Key: "g", Value: "a"}, {Key: "\xff", Value: int64(1)}}}, InvalidUTF8, "key"},
		{"NaN", []any{Object{{Key: "id", Value: int64(1)}, {Key: "g", Value: 0.0}, {Key: "x", Value: nan()}}}, OutOfRange, ""},
		{"channel", []any{map[string]any{"id": 1, "g": make(chan int)}}, UnsupportedValue, ""},
		{"duplicate member", []any{Object{{Key: "id", Value: int64(1)}, {Key: "g", Value: "a"}, {Key: "g", Value: "b"}}}, DuplicateKey, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EncodeGeneric(tc.v, GroupBy("id", "g"))
			if err == nil {
				t.Fatalf("no error; wrote\n%s", got)
			}
			if c := CategoryOf(err); c != tc.cat || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v (category %q), want category %q saying %q", err, c, tc.cat, tc.msg)
			}
		})
	}
}

func nan() float64 { z := 0.0; return z / z }

// TestGroupedEncodeGoValues: maps and structs are normalized to the JSON
// model first (map keys sorted), then grouped like the same JSON, and
// AppendGeneric and NewEncoder(...).Encode write the same bytes.
func TestGroupedEncodeGoValues(t *testing.T) {
	type rec struct {
		ID   string `json:"id"`
		Team string `json:"team"`
		N    int    `json:"n,omitempty"`
	}
	structs := []rec{{"a", "x", 1}, {"b", "y", 0}, {"c", "x", 3}}
	maps := []map[string]any{{"id": "a", "team": "x", "n": 1}, {"id": "b", "team": "y"}, {"id": "c", "team": "x", "n": 3}}
	const want = "GCF profile=generic\n## [3]{@id,team,n} group=team\nteam=x [2]\na|1\nc|3\nteam=y [1]\nb|~\n"
	const wantMaps = "GCF profile=generic\n## [3]{@id,n,team} group=team\nteam=x [2]\na|1\nc|3\nteam=y [1]\nb|~\n"
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{{"structs", structs, want}, {"maps", maps, wantMaps}} {
		got, err := EncodeGeneric(tc.v, GroupBy("id", "team"))
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %q, %v\nwant %q", tc.name, got, err, tc.want)
		}
		app, err := AppendGeneric([]byte("prefix"), tc.v, GroupBy("id", "team"))
		if err != nil || string(app) != "prefix"+tc.want {
			t.Errorf("%s: AppendGeneric got %q, %v", tc.name, app, err)
		}
		var buf bytes.Buffer
		enc := NewEncoder(&buf, GroupBy("id", "team"))
		if err := enc.Encode(tc.v); err != nil || buf.String() != tc.want {
			t.Errorf("%s: NewEncoder.Encode got %q, %v", tc.name, buf.String(), err)
		}
	}
	// AppendGeneric keeps dst on error.
	if out, err := AppendGeneric([]byte("keep"), []any{}, GroupBy("id", "team")); err == nil || string(out) != "keep" {
		t.Errorf("AppendGeneric on error = %q, %v", out, err)
	}
	// A grouped encode ignores WithSize: its layout is fixed.
	got, err := EncodeGeneric(structs, GroupBy("id", "team"), WithSize(Smallest))
	if err != nil || string(got) != want {
		t.Errorf("with Smallest: %q, %v", got, err)
	}
	// The default encode is not grouped.
	if got, _ := EncodeGeneric(structs); bytes.Contains(got, []byte("group=")) {
		t.Errorf("ungrouped encode wrote a group clause:\n%s", got)
	}
}

// TestGroupedEncodeFixtures: encoding the records of every value-grouping
// decode fixture whose input is a grouped table, with the key and group
// column that input declares, gives that input byte for byte (its groups
// are in first-appearance order and its constants are the factored ones).
func TestGroupedEncodeFixtures(t *testing.T) {
	dir := conformance.DirV36(t)
	head := regexp.MustCompile(`\{@([A-Za-z_][A-Za-z0-9_]*)[,}].* group=([A-Za-z_][A-Za-z0-9_]*)\n`)
	n := 0
	for _, f := range loadFixtures(t, dir) {
		if f.Operation != "decode" || f.ExpectedError != "" {
			continue
		}
		var in string
		if json.Unmarshal(f.Input, &in) != nil {
			continue
		}
		m := head.FindStringSubmatch(in)
		if m == nil {
			continue
		}
		n++
		t.Run(f.path, func(t *testing.T) {
			v, err := ParseJSON(f.Expected)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EncodeGeneric(v, GroupBy(m[1], m[2]))
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if string(got) != in {
				t.Errorf("got\n%s\nwant (the fixture's input)\n%s", got, in)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no grouped decode fixture under %s", dir)
	}
}

// TestGroupedEncodeProperty: for seeded random records (scalars, absent
// fields, nulls, tricky strings; group values drawn from a small pool),
// the grouped encoding decodes to the same records regrouped, and so to
// the same multiset of records as the input.
func TestGroupedEncodeProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 7))
	pool := []any{nil, true, false, int64(0), int64(-7), 2.5, 1e21, "", "a", "a|b", "x=y [3]", "-", "~", "^", "true", " s", "é", "a,b", "}", "\n"}
	names := []string{"id", "g", "x", "y z", "w", "@v", ""}
	for iter := 0; iter < 400; iter++ {
		n := 1 + r.IntN(12)
		groups := pool[:1+r.IntN(len(pool))]
		recs := make([]any, n)
		for i := range recs {
			o := Object{{Key: "id", Value: keyValue(r, i)}}
			if r.IntN(2) == 0 { // the group column sits anywhere among the others
				o = append(o, Member{Key: "g", Value: groups[r.IntN(len(groups))]})
			}
			for _, f := range names[2:] {
				switch r.IntN(4) {
				case 0: // absent
				case 1: // the same in every record that has it: maybe factored
					o = append(o, Member{Key: f, Value: "c"})
				default:
					o = append(o, Member{Key: f, Value: pool[r.IntN(len(pool))]})
				}
			}
			if _, ok, _ := geLookup(o, "g", 0); !ok {
				o = append(o, Member{Key: "g", Value: groups[r.IntN(len(groups))]})
			}
			r.Shuffle(len(o), func(a, b int) { o[a], o[b] = o[b], o[a] })
			recs[i] = o
		}
		got, err := EncodeGeneric(recs, GroupBy("id", "g"))
		if err != nil {
			t.Fatalf("iteration %d: %v\n%v", iter, err, recs)
		}
		back, err := DecodeGeneric(got)
		if err != nil {
			t.Fatalf("iteration %d: decode: %v\n%s", iter, err, got)
		}
		if want := regroupValue(t, recs, "g"); !jsonEqualOrdered(back, want) {
			t.Fatalf("iteration %d: decode(grouped) = %v\nwant %v\n%s", iter, back, want, got)
		}
		if a, b := multiset(t, back), multiset(t, recs); !slices.Equal(a, b) {
			t.Fatalf("iteration %d: records differ as a multiset\n%v\n%v", iter, a, b)
		}
	}
}

// keyValue is a unique key for record i, of one of several types.
func keyValue(r *rand.Rand, i int) any {
	switch r.IntN(3) {
	case 0:
		return int64(i)
	case 1:
		return fmt.Sprintf("k%d", i)
	}
	return fmt.Sprintf("%d|%d", i, i) // quoted in a row
}

func regroupValue(t *testing.T, recs []any, col string) []any {
	t.Helper()
	b, err := json.Marshal(toJSONable(recs))
	if err != nil {
		t.Fatal(err)
	}
	v, err := ParseJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	return regroup(t, v, col)
}

// toJSONable turns Objects into ordered JSON text through json.RawMessage.
func toJSONable(v any) any {
	switch x := v.(type) {
	case Object:
		var b bytes.Buffer
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.Key)
			val, _ := json.Marshal(toJSONable(m.Value))
			b.Write(k)
			b.WriteByte(':')
			b.Write(val)
		}
		b.WriteByte('}')
		return json.RawMessage(b.Bytes())
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = toJSONable(x[i])
		}
		return out
	}
	return v
}

// multiset returns each record as canonical JSON (members sorted), sorted.
func multiset(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, r := range v.([]any) {
		m := map[string]any{}
		for _, mem := range r.(Object) {
			m[mem.Key] = mem.Value
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// FuzzGroupedEncode: whatever JSON value, GroupBy("id", "g") either
// refuses it with a categorized error or writes a payload that decodes to
// the records regrouped.
func FuzzGroupedEncode(f *testing.F) {
	for _, s := range []string{`[{"id":1,"g":"a","x":1},{"id":2,"g":"b","x":1},{"id":3,"g":"a"}]`,
		`[{"g":null,"id":"a|b"},{"id":"c","g":"-"}]`, `[{"id":1,"g":1},{"id":1.0,"g":2}]`, `[{"id":1,"g":{"a":1}}]`, `{"id":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		if err != nil {
			return
		}
		out, err := EncodeGeneric(v, GroupBy("id", "g"))
		if err != nil {
			if CategoryOf(err) == "" {
				t.Fatalf("error without a category: %v", err)
			}
			return
		}
		back, err := DecodeGeneric(out)
		if err != nil {
			t.Fatalf("decode: %v\n%s", err, out)
		}
		if want := regroup(t, v, "g"); !jsonEqualOrdered(back, want) {
			t.Fatalf("decode(grouped) = %v\nwant %v\n%s", back, want, out)
		}
	})
}

// TestGroupedEncodeLimitsAgree: under each limit at and just below what
// the grouped payload needs, the encoder refuses exactly what DecodeGeneric
// with the same option rejects, with the same category.
func TestGroupedEncodeLimitsAgree(t *testing.T) {
	v, err := ParseJSON([]byte(`[{"id":"a","g":"x","n":1,"c":"k"},{"id":"b","g":"y","n":22,"c":"k"},{"id":"c","g":"x","n":333,"c":"k"}]`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeGeneric(v, GroupBy("id", "g"))
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, l := range strings.Split(string(out), "\n") {
		longest = max(longest, len(l))
	}
	var opts []Option
	for _, n := range []int{longest - 1, longest} {
		opts = append(opts, WithMaxLineBytes(n))
	}
	for _, n := range []int64{int64(len(out)) - 1, int64(len(out))} {
		opts = append(opts, WithMaxBytes(n))
	}
	for _, n := range []int{1, 2, 3} {
		opts = append(opts, WithMaxElements(n), WithMaxFields(n+1), WithMaxDepth(n))
	}
	refused := 0
	for i, o := range opts {
		got, eerr := EncodeGeneric(v, GroupBy("id", "g"), o)
		_, derr := DecodeGeneric(out, o)
		if (eerr == nil) != (derr == nil) || CategoryOf(eerr) != CategoryOf(derr) {
			t.Errorf("option %d: encode %v, decode %v", i, eerr, derr)
		}
		if eerr == nil && string(got) != string(out) {
			t.Errorf("option %d: wrote\n%s", i, got)
		}
		if eerr != nil {
			refused++
		}
	}
	if refused < 4 {
		t.Errorf("only %d options refused; the test does not reach the limits", refused)
	}
}
