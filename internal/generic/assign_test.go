package generic

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

type asInner struct {
	A int     `json:"a"`
	B *string `json:"b"`
}

type AsEmbedded struct {
	E  string
	E2 int `json:"e2"`
}

type asPtrEmbedded struct{ P int }

type asTarget struct {
	AsEmbedded
	Name    string            `json:"name"`
	Count   int8              `json:"count"`
	U       uint16            `json:"u"`
	F       float64           `json:"f"`
	F32     float32           `json:"f32"`
	OK      bool              `json:"ok"`
	In      asInner           `json:"in"`
	PIn     *asInner          `json:"pin"`
	List    []asInner         `json:"list"`
	M       map[string]int    `json:"m"`
	MA      map[string]any    `json:"ma"`
	Any     any               `json:"any"`
	When    time.Time         `json:"when"`
	Num     json.Number       `json:"num"`
	Bytes   []byte            `json:"bytes"`
	Arr     [2]int            `json:"arr"`
	Str     int               `json:"str,string"`
	Skip    int               `json:"-"`
	MapKeys map[int]string    `json:"mk"`
	Nested  [][]int           `json:"nested"`
	Iface   fmt.Stringer      `json:"iface"`
	MS      map[string]string `json:"ms"`
}

type asWithPtrEmbed struct {
	*asPtrEmbedded
	X int `json:"x"`
}

// TestAssignValueMatchesJSON: Decode's direct assignment gives what
// ToJSON + json.Unmarshal gave (the value, or whether it fails) on every
// shape the plan handles and on the mismatches it hands to encoding/json.
func TestAssignValueMatchesJSON(t *testing.T) {
	docs := []string{
		`{"name":"x","count":5,"u":7,"f":1.5,"f32":0.1,"ok":true,"in":{"a":1,"b":"s"},"pin":{"a":2,"b":null},"list":[{"a":3},{"A":4,"B":"t"}],"m":{"k":1,"j":2},"ma":{"x":[1,2.5,"s",null,{"y":true}]},"any":{"a":[1,{"b":2}]},"when":"2024-01-02T03:04:05Z","num":12.5,"bytes":"aGVsbG8=","arr":[1,2],"str":"42","Skip":9,"mk":{"1":"a"},"nested":[[1],[2,3]],"ms":{"a":"b"},"E":"emb","e2":3}`,
		`{"NAME":"case","Count":-3,"IN":{"A":9}}`,
		`{"count":300}`,
		`{"count":1.5}`,
		`{"u":-1}`,
		`{"name":5}`,
		`{"in":[1,2]}`,
		`{"list":{"a":1}}`,
		`{"m":{"k":"v"}}`,
		`{"f":9007199254740993}`,
		`{"name":null,"pin":null,"list":null,"m":null,"any":null,"count":null}`,
		`{"iface":null}`,
		`{"any":12345678901234567}`,
		`{"unknown":{"deep":[1,2,3]},"ok":false}`,
		`{"ok":"true"}`,
		`{"f":3}`,
		`{"bytes":null,"when":null}`,
	}
	for _, doc := range docs {
		x, err := ParseJSON([]byte(doc))
		if err != nil {
			t.Fatal(doc, err)
		}
		check := func(newV func() any) {
			t.Helper()
			want, got := newV(), newV()
			data, _ := ToJSON(x)
			werr := json.Unmarshal(data, want)
			x, _ := ParseJSON([]byte(doc)) // assign converts x in place
			gerr := (&Decoder{}).assign(got, x)
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("%s into %T: error %v, encoding/json %v", doc, got, gerr, werr)
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("%s into %T:\n got %+v\nwant %+v", doc, got, got, want)
			}
		}
		check(func() any { return new(asTarget) })
		check(func() any { return &asTarget{Name: "pre", M: map[string]int{"old": 1}, List: []asInner{{A: 7}}} })
		check(func() any { return new(map[string]any) })
		check(func() any { return new(map[string]json.RawMessage) })
		check(func() any { return new(asWithPtrEmbed) })
		check(func() any { return new(*asTarget) })
		check(func() any { var s fmt.Stringer; return &s })
	}
}

// TestMarshalConcurrent: encodes running at once get their own slabs (the
// pooled copy of the value is never shared), so each output is the one a
// lone encode gives.
func TestMarshalConcurrent(t *testing.T) {
	type rec struct {
		ID   int     `json:"id"`
		Name string  `json:"name"`
		Tags []any   `json:"tags"`
		F    float64 `json:"f"`
	}
	inputs := make([]any, 8)
	want := make([][]byte, len(inputs))
	for i := range inputs {
		rows := make([]rec, 200+i)
		for j := range rows {
			rows[j] = rec{ID: j * (i + 1), Name: fmt.Sprintf("n%d-%d", i, j), Tags: []any{"a", j}, F: float64(j) / 4}
		}
		inputs[i] = map[string]any{"rows": rows, "i": i}
		b, err := Marshal(inputs[i])
		if err != nil {
			t.Fatal(err)
		}
		want[i] = b
	}
	errs := make(chan error, len(inputs))
	for i := range inputs {
		go func() {
			for range 20 {
				got, err := Marshal(inputs[i])
				if err == nil && string(got) != string(want[i]) {
					err = fmt.Errorf("input %d: output differs from a lone encode", i)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range inputs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
