package gcf

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// anyDocs are JSON documents whose GCF encoding, decoded into an
// interface, must give what encoding/json gives for the JSON.
var anyDocs = []string{
	`null`,
	`42`,
	`-1.5e-7`,
	`"text"`,
	`true`,
	`[]`,
	`{}`,
	`{"a":null,"b":[null,1,"x"],"c":{}}`,
	`{"big":9007199254740993,"max":9223372036854775807,"min":-9223372036854775808,"neg0":-0,"f":1e21,"g":0.1}`,
	`[9007199254740993,-9007199254740993,1,2.5]`,
	`{"users":[{"id":1,"name":"Ann","tags":["a","b"]},{"id":2,"name":"Bo","tags":[]}]}`,
	`{"rows":[{"id":1,"v":{"x":1,"y":[1,{"z":null}]}},{"id":2,"v":null}],"n":{"deep":{"er":{"est":[[1,[2,[3]]]]}}}}`,
	`{"keyed":{"k1":{"a":1,"b":"x"},"k2":{"a":2,"b":"y"}},"mixed":[1,"a",null,{"o":1},[2]]}`,
	`[{"a":1,"b":2},{"a":3,"b":4},{"a":5}]`,
	`{"s":"héllo ✓","e":"","q":"a|b,c=d"}`,
}

func jsonAny(t *testing.T, doc string) any {
	t.Helper()
	var want any
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(doc, err)
	}
	return want
}

func gcfOf(t *testing.T, doc string) []byte {
	t.Helper()
	x, err := ParseJSON([]byte(doc))
	if err != nil {
		t.Fatal(doc, err)
	}
	data, err := EncodeGeneric(x)
	if err != nil {
		t.Fatal(doc, err)
	}
	return data
}

// Unmarshal and Decoder.Decode into *any give encoding/json's forms:
// map[string]any, []any, float64 (gcf.Object and int64 before).
func TestUnmarshalAnyAsEncodingJSON(t *testing.T) {
	for _, doc := range anyDocs {
		want := jsonAny(t, doc)
		data := gcfOf(t, doc)
		var got any
		if err := Unmarshal(data, &got); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Unmarshal %s:\n got %#v\nwant %#v", doc, got, want)
		}
		var dec any
		if err := NewDecoder(bytes.NewReader(data)).Decode(&dec); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if !reflect.DeepEqual(dec, want) {
			t.Errorf("Decoder.Decode %s:\n got %#v\nwant %#v", doc, dec, want)
		}
		if a, ok := want.([]any); ok {
			var got []any
			if err := Unmarshal(data, &got); err != nil || !reflect.DeepEqual(got, a) {
				t.Errorf("Unmarshal %s into *[]any:\n got %#v (%v)\nwant %#v", doc, got, err, a)
			}
		}
	}
}

// Interfaces nested in structs, maps and slices get the same forms, as
// with encoding/json.
func TestUnmarshalNestedInterfacesAsEncodingJSON(t *testing.T) {
	type inner struct {
		V any `json:"v"`
	}
	type target struct {
		A  any            `json:"a"`
		B  []any          `json:"b"`
		C  map[string]any `json:"c"`
		D  *any           `json:"d"`
		E  []inner        `json:"e"`
		F  map[string]any `json:"f"`
		ID int            `json:"id"`
	}
	docs := []string{
		`{"a":{"x":1,"y":[1,2.5,{"z":9007199254740993}]},"b":[{"k":1},null,3],"c":{"m":{"n":1}},"d":{"p":1},"e":[{"v":{"q":1}},{"v":2},{"v":null}],"f":null,"id":7}`,
		`{"a":null,"b":[],"c":{},"d":null,"e":[],"id":1}`,
		`{"e":[{"v":[1,{"a":2}]},{"v":[3]}],"a":-9223372036854775808}`,
	}
	for _, doc := range docs {
		var want, got, dec target
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		data := gcfOf(t, doc)
		if err := Unmarshal(data, &got); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Unmarshal %s:\n got %#v\nwant %#v", doc, got, want)
		}
		if err := NewDecoder(bytes.NewReader(data)).Decode(&dec); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if !reflect.DeepEqual(dec, want) {
			t.Errorf("Decoder.Decode %s:\n got %#v\nwant %#v", doc, dec, want)
		}
		var wm, gm map[string]any
		var ws, gs []map[string]any
		_ = json.Unmarshal([]byte(doc), &wm)
		if err := Unmarshal(data, &gm); err != nil || !reflect.DeepEqual(gm, wm) {
			t.Errorf("Unmarshal %s into map: got %#v (%v)\nwant %#v", doc, gm, err, wm)
		}
		arr := "[" + doc + "," + doc + "]"
		_ = json.Unmarshal([]byte(arr), &ws)
		if err := Unmarshal(gcfOf(t, arr), &gs); err != nil || !reflect.DeepEqual(gs, ws) {
			t.Errorf("Unmarshal %s into []map: got %#v (%v)\nwant %#v", arr, gs, err, ws)
		}
	}
}

// Table rows decoded one at a time into *any are map[string]any too.
func TestDecoderRowsIntoAny(t *testing.T) {
	doc := `{"rows":[{"id":1,"n":"a"},{"id":2,"n":"b","x":{"y":3}}]}`
	var want struct{ Rows []any }
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(bytes.NewReader(gcfOf(t, doc)))
	for d.PeekKind() != KindRow {
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
	}
	var got []any
	for d.More() {
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	if !reflect.DeepEqual(got, want.Rows) {
		t.Fatalf("rows:\n got %#v\nwant %#v", got, want.Rows)
	}
}

// With both options, Unmarshal into *any gives exactly DecodeGeneric's
// value; each option alone keeps its own part.
func TestUnmarshalAnyOptions(t *testing.T) {
	for _, doc := range anyDocs {
		data := gcfOf(t, doc)
		want, err := DecodeGeneric(data)
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := Unmarshal(data, &got, WithOrderedObjects(), WithExactNumbers()); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v (%v)\nwant %#v", doc, got, err, want)
		}
	}
	data := gcfOf(t, `{"n":9007199254740993,"f":2.5,"o":{"b":1,"a":2}}`)
	var exact any
	if err := Unmarshal(data, &exact, WithExactNumbers()); err != nil {
		t.Fatal(err)
	}
	wantExact := map[string]any{"n": int64(9007199254740993), "f": 2.5, "o": map[string]any{"b": int64(1), "a": int64(2)}}
	if !reflect.DeepEqual(exact, wantExact) {
		t.Errorf("WithExactNumbers: %#v", exact)
	}
	var ordered any
	if err := Unmarshal(data, &ordered, WithOrderedObjects()); err != nil {
		t.Fatal(err)
	}
	wantOrdered := Object{{Key: "n", Value: float64(9007199254740993)}, {Key: "f", Value: 2.5}, {Key: "o", Value: Object{{Key: "b", Value: 1.0}, {Key: "a", Value: 2.0}}}}
	if !reflect.DeepEqual(ordered, wantOrdered) {
		t.Errorf("WithOrderedObjects: %#v", ordered)
	}
	// Nested interfaces follow the options as well.
	var s struct {
		O any `json:"o"`
		N any `json:"n"`
	}
	if err := Unmarshal(data, &s, WithOrderedObjects(), WithExactNumbers()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.O, Object{{Key: "b", Value: int64(1)}, {Key: "a", Value: int64(2)}}) || s.N != int64(9007199254740993) {
		t.Errorf("nested with options: %#v", s)
	}
}

// As with encoding/json, a *any holding a non-nil pointer is decoded
// into what the pointer points to; anything else it holds is replaced.
func TestUnmarshalAnyHoldingPointer(t *testing.T) {
	type pt struct{ X, Y int }
	data := gcfOf(t, `{"X":1,"Y":2}`)
	p := &pt{}
	var v any = p
	if err := Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v != any(p) || *p != (pt{1, 2}) {
		t.Fatalf("got %#v, %+v", v, p)
	}
	v = 5
	if err := Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v, map[string]any{"X": 1.0, "Y": 2.0}) {
		t.Fatalf("got %#v", v)
	}
}

// randomJSON returns a random JSON value as encoding/json would marshal
// it: records that share keys (so that tables form), nested containers,
// integers up to the int64 bounds, floats, strings, booleans and nulls.
func randomJSON(r *rand.Rand, depth int) any {
	keys := []string{"id", "name", "v", "x y", "a/b", "~t", ""}
	scalar := func() any {
		switch r.IntN(8) {
		case 0:
			return nil
		case 1:
			return r.IntN(2) == 0
		case 2:
			return []string{"", "text", "with, comma", "a|b", "-", "~", "héllo"}[r.IntN(7)]
		case 3:
			return []int64{0, -1, 1 << 53, 1<<53 + 1, math.MaxInt64, math.MinInt64}[r.IntN(6)]
		case 4:
			return []float64{0.1, -2.5, 1e21, 1e-7, 123456.789}[r.IntN(5)]
		}
		return r.Int64N(2000) - 1000
	}
	if depth <= 0 {
		return scalar()
	}
	switch r.IntN(4) {
	case 0:
		return scalar()
	case 1:
		m := map[string]any{}
		for range r.IntN(4) {
			m[keys[r.IntN(len(keys))]] = randomJSON(r, depth-1)
		}
		return m
	case 2:
		rows := make([]any, r.IntN(4))
		for i := range rows {
			m := map[string]any{}
			for _, k := range keys[:2+r.IntN(2)] {
				if r.IntN(6) > 0 {
					m[k] = randomJSON(r, depth-2)
				}
			}
			rows[i] = m
		}
		return rows
	}
	a := make([]any, r.IntN(4))
	for i := range a {
		a[i] = randomJSON(r, depth-1)
	}
	return a
}

// Random documents: Unmarshal into *any equals json.Unmarshal of the JSON,
// in each layout the encoder writes (v3.6 constant columns, v3.5.3, the
// Smallest cost), and agrees with the post-pass path and Decoder.Decode.
func TestUnmarshalAnyRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	for i := range 1500 {
		js, err := json.Marshal(randomJSON(r, 5))
		if err != nil {
			t.Fatal(err)
		}
		want := jsonAny(t, string(js))
		x, err := ParseJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range [][]Option{nil, {WithSpec(Spec353)}, {WithSize(Smallest)}} {
			data, err := EncodeGeneric(x, opts...)
			if err != nil {
				t.Fatalf("%d %s: %v", i, js, err)
			}
			var got any
			if err := Unmarshal(data, &got); err != nil {
				t.Fatalf("%d %s: %v", i, js, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%d %s:\n got %#v\nwant %#v", i, js, got, want)
			}
			checkAnyAgrees(t, string(js), data)
		}
	}
}
