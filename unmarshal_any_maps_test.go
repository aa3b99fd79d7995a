package gcf

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gcfkit/gcf/internal/conformance"
)

// postPassAny is what Unmarshal stored in a *any before the maps were
// built from the events: DecodeGeneric's ordered model (Unmarshal with
// both options), converted afterwards by anyForm.value.
func postPassAny(data []byte) (any, error) {
	var x any
	err := Unmarshal(data, &x, WithOrderedObjects(), WithExactNumbers())
	return jsonModel(x), err
}

// jsonModel converts a value of DecodeGeneric's ordered model to what
// encoding/json stores in an interface (the post-pass's conversion): objects
// as map[string]any (a repeated key keeps its last value), integers as
// float64.
func jsonModel(x any) any {
	switch v := x.(type) {
	case Object:
		m := make(map[string]any, len(v))
		for _, mb := range v {
			m[mb.Key] = jsonModel(mb.Value)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = jsonModel(e)
		}
		return v
	case int64:
		return float64(v)
	}
	return x
}

// checkAnyAgrees requires Unmarshal and Decoder.Decode into *any (the
// direct build) to give what the post-pass gives for data: the same value
// or the same error, message (line:column) and category alike.
func checkAnyAgrees(t *testing.T, name string, data []byte) {
	t.Helper()
	checkRowsAgree(t, name, data)
	want, wantErr := postPassAny(data)
	var got any
	err := Unmarshal(data, &got)
	var dec any
	decErr := NewDecoder(bytes.NewReader(data)).Decode(&dec)
	if decErr == io.EOF {
		decErr = errors.New("gcf: Unmarshal: the payload holds no value") // what Unmarshal says
	}
	for _, c := range []struct {
		how string
		v   any
		err error
	}{{"Unmarshal", got, err}, {"Decoder.Decode", dec, decErr}} {
		if (c.err == nil) != (wantErr == nil) || c.err != nil && (c.err.Error() != wantErr.Error() || CategoryOf(c.err) != CategoryOf(wantErr)) {
			t.Fatalf("%s: %s error %v (%s), post-pass %v (%s)", name, c.how, c.err, CategoryOf(c.err), wantErr, CategoryOf(wantErr))
		}
		if c.err == nil && !reflect.DeepEqual(c.v, want) {
			t.Fatalf("%s: %s\n got %#v\nwant %#v", name, c.how, c.v, want)
		}
	}
}

// rowsAny decodes every table row of data into a *any, one Decode per
// row, walking the other events with Next.
func rowsAny(data []byte, opts ...Option) ([]any, error) {
	d := NewDecoder(bytes.NewReader(data), opts...)
	var rows []any
	for {
		if d.PeekKind() == KindRow {
			var v any
			if err := d.Decode(&v); err != nil {
				return rows, err
			}
			rows = append(rows, v)
			continue
		}
		if _, err := d.Next(); err != nil {
			if err == io.EOF {
				return rows, nil
			}
			return rows, err
		}
	}
}

// checkRowsAgree requires Decoder.Decode of single rows into *any to give
// what the post-pass gives, row by row, and the same error.
func checkRowsAgree(t *testing.T, name string, data []byte) int {
	t.Helper()
	got, err := rowsAny(data)
	want, wantErr := rowsAny(data, WithOrderedObjects(), WithExactNumbers())
	for i := range want {
		want[i] = jsonModel(want[i])
	}
	if (err == nil) != (wantErr == nil) || err != nil && (err.Error() != wantErr.Error() || CategoryOf(err) != CategoryOf(wantErr)) {
		t.Fatalf("%s: rows: error %v, post-pass %v", name, err, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: rows\n got %#v\nwant %#v", name, got, want)
	}
	return len(got)
}

// Every corpus document: Unmarshal into *any equals json.Unmarshal of the
// JSON, and the post-pass path, in each layout the encoder writes.
func TestUnmarshalAnyMapsCorpus(t *testing.T) {
	rows := 0
	defer func() {
		if !t.Failed() && rows < 1000 {
			t.Errorf("only %d rows decoded one at a time", rows)
		}
	}()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, file := range files {
		js, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := jsonAny(t, string(js))
		x, err := ParseJSON(js)
		if err != nil {
			t.Fatal(file, err)
		}
		for _, opts := range [][]Option{nil, {WithSpec(Spec353)}, {WithSize(Smallest)}} {
			data, err := EncodeGeneric(x, opts...)
			if err != nil {
				t.Fatal(file, err)
			}
			var got any
			if err := Unmarshal(data, &got); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: Unmarshal into *any differs from json.Unmarshal", file)
			}
			checkAnyAgrees(t, file, data)
			rows += checkRowsAgree(t, file, data)
		}
	}
}

// Every string input of the conformance suites (v3.5.3 and v3.6.0:
// decode fixtures, error fixtures): the direct build agrees with the
// post-pass on value and error, and a decode fixture's value is
// json.Unmarshal of its expected JSON.
func TestUnmarshalAnyMapsConformance(t *testing.T) {
	var n, decoded int
	for _, dir := range []string{conformance.Dir(t), conformance.DirV36(t)} {
		for _, f := range loadFixtures(t, dir) {
			var in []byte
			switch {
			case f.InputBase64 != "":
				b, err := base64.StdEncoding.DecodeString(f.InputBase64)
				if err != nil {
					t.Fatal(f.path, err)
				}
				in = b
			default:
				var s string
				if json.Unmarshal(f.Input, &s) != nil {
					continue // a JSON input: an encode fixture
				}
				in = []byte(s)
			}
			n++
			checkAnyAgrees(t, f.path, in)
			if f.Operation != "decode" || len(f.Expected) == 0 || isGraph(f) {
				continue
			}
			var want, got any
			if err := json.Unmarshal(f.Expected, &want); err != nil {
				t.Fatal(f.path, err)
			}
			if err := Unmarshal(in, &got); err != nil {
				t.Fatalf("%s: %v", f.path, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s:\n got %#v\nwant %#v", f.path, got, want)
			}
			decoded++
		}
	}
	if n < 100 || decoded < 20 {
		t.Fatalf("only %d string inputs, %d decode fixtures", n, decoded)
	}
	t.Logf("%d inputs, %d decode fixtures", n, decoded)
}

// Hand-written payloads for what the encoder seldom writes: path columns
// with absent and null leaves, attachments into path columns, '>'-named
// attachments (and one colliding with a field), inline bodies, keyed maps
// with attachments and repeated keys, constant columns and groups,
// repeated object keys, truncated and malformed input.
var anyMapsSeeds = []string{
	"GCF profile=generic\n## items [2]{a,\"b>a\",\"b>b\",\"b>n\"}\n1|2|x|3\n2|-|-|-\n",
	"GCF profile=generic\n## items [3]{a,\"b>a\",\"b>b\"}\n1|~|~\n2|-|~\n3|~|-\n",
	"GCF profile=generic\n## items [2]{a,c,n}\n@0 1|^{a,b,n}|^\n1|x|4\n.n [2]: 1,2\n@1 2|^|~\n3|y|5\n",
	"GCF profile=generic\n## c [2:]{key,a,b}\nk1|1|-\nk2|2|-\n",
	"GCF profile=generic\n## c [2:]{key,a,b}\nk1|1|-\nk1|2|x\n",
	"GCF profile=generic\n## items [1]{a,\"b>a\",\"b>b\",\"b>n\",n}\n@0 1|2|x|3|^\n.n [2]: 1,2\n.\"a>b\" =5\n",
	"GCF profile=generic\n## items [1]{a,n}\n@0 1|^\n.n [1]: 1\n.a =5\n",
	"GCF profile=generic\n## a [1]{\"c>a\",\"c>b\",id,items,n}\n@0 x|y|ORD-1|^|3\n.items [2]{a,b,n}\n    1|s|2\n    2|t|3\n",
	"GCF profile=generic\n## a [1]{\"c>a\",\"c>b\",id}\n@0 ^|y|1\n.\"c>a\" [2]: 1,2\n",
	"GCF profile=generic\nn[3]: 1,-,300\nb:\n  a=1\n  c=2.5\nm:\n  k=1\n",
	"GCF profile=generic\n## [2]{a,b}\n1|x\n2|y\n",
	"GCF profile=generic\na=1\na=2\nb=-9223372036854775808\nc=9007199254740993\n",
	"GCF profile=generic\n## [3]{id,t=x,n=7}\n1\n2\n3\n",
	"GCF profile=generic\n## [2]{id,x}\n1|\n",
	"GCF profile=generic\n## [2]{id,x}\n1|2|3\n",
	"GCF profile=generic\n## items [2]{a}\n1\n",
	"GCF profile=generic\nx=1e999\n",
	"GCF profile=graph\n",
	"",
}

func TestUnmarshalAnyMapsSeeds(t *testing.T) {
	for i, s := range anyMapsSeeds {
		checkAnyAgrees(t, fmt.Sprint("seed ", i), []byte(s))
	}
}

// FuzzUnmarshalAnyMaps: for any input, the direct build and the post-pass
// agree on the value, or on the error's message and category.
func FuzzUnmarshalAnyMaps(f *testing.F) {
	for _, s := range anyMapsSeeds {
		f.Add([]byte(s))
	}
	r := rand.New(rand.NewPCG(26, 2))
	for range 20 {
		js, _ := json.Marshal(randomJSON(r, 5))
		if x, err := ParseJSON(js); err == nil {
			if data, err := EncodeGeneric(x); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAnyAgrees(t, "input", data)
	})
}

// An empty array written inline (`id[0]:`, as the Smallest layout does in
// an expanded record) decodes to an empty []any, not a nil one (which
// encoding/json would marshal as null); the first decoded array, before
// any slab existed, came back nil.
func TestEmptyInlineArrayNotNil(t *testing.T) {
	data := []byte("GCF profile=generic\n## [1]\n@0 {}\n  id[0]:\n")
	v, err := DecodeGeneric(data)
	if err != nil {
		t.Fatal(err)
	}
	if id := v.([]any)[0].(Object)[0].Value.([]any); id == nil {
		t.Fatal("DecodeGeneric: id is a nil []any")
	}
	var got any
	if err := Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if id := got.([]any)[0].(map[string]any)["id"].([]any); id == nil {
		t.Fatal("Unmarshal: id is a nil []any")
	}
	if js, _ := json.Marshal(got); string(js) != `[{"id":[]}]` {
		t.Fatalf("as JSON: %s", js)
	}
}
