package generic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gcfkit/gcf/internal/box"
)

// Target types of the differential test. Their JSON names come from a
// small pool, so that random objects keyed from the same pool fill them,
// miss them, and collide with them in every way.
type dtLeaf struct {
	A     int      `json:"a"`
	B     string   `json:"b"`
	C     *float64 `json:"c"`
	N     uint8    `json:"n"`
	X     any      `json:"x"`
	Name  *string
	ID    int64   `json:"id"`
	M     float32 `json:"m"`
	Sub   bool    `json:"sub"`
	Items string  `json:"items,omitempty"`
	Skip  int     `json:"-"`
}

type dtMid struct {
	A     int16             `json:"a"`
	B     *dtLeaf           `json:"b"`
	C     dtLeaf            `json:"c"`
	N     []int             `json:"n"`
	Sub   map[string]dtLeaf `json:"sub"`
	Items []dtLeaf          `json:"items"`
	M     map[string]int    `json:"m"`
	X     []any             `json:"x"`
	Name  string
	ID    json.Number `json:"id"`
}

type dtRoot struct {
	A     []dtMid           `json:"a"`
	B     []*dtMid          `json:"b"`
	C     map[string]*dtMid `json:"c"`
	N     [][]int           `json:"n"`
	Sub   *dtRoot           `json:"sub"`
	Items []dtMid           `json:"items"`
	M     map[string]any    `json:"m"`
	X     *[]*int           `json:"x"`
	Name  []string          `json:"name"`
	ID    []byte            `json:"id"`
}

type DtEmbed struct {
	A int    `json:"a"`
	B string `json:"b"`
}

type dtHidden struct {
	Q  []int `json:"q"`
	ID uint  `json:"id"`
}

type dtEmbedded struct {
	DtEmbed
	dtHidden
	B    *string    `json:"b"` // shadows DtEmbed.B
	Sub  DtEmbed    `json:"sub"`
	When *time.Time `json:"x"`
}

type dtString struct {
	A int     `json:"a,string"`
	B dtLeaf  `json:"b"`
	C []int16 `json:"c"`
}

// dtGen makes random JSON-model values keyed from the pool of names.
type dtGen struct {
	r *rand.Rand
	g gen
}

var dtKeys = []string{"a", "b", "c", "n", "x", "id", "m", "sub", "items", "name", "Name", "A", "NAME", "Items", "zz", "a>b", "q"}

func (d *dtGen) key() string { return dtKeys[d.r.IntN(len(dtKeys))] }

func (d *dtGen) scalar() any {
	switch d.r.IntN(6) {
	case 0:
		return int64(d.r.IntN(300) - 20)
	case 1:
		return []string{"x", "", "1", "SGVsbG8=", "2024-01-02T03:04:05Z", "-", "a|b"}[d.r.IntN(7)]
	case 2:
		return []float64{1.5, -0.25, 1e20, 3}[d.r.IntN(4)]
	}
	return d.g.scalar()
}

func (d *dtGen) object(depth int, keys []string) Object {
	if keys == nil {
		keys = d.keys(d.r.IntN(5))
	}
	o := Object{}
	for _, k := range keys {
		if d.r.IntN(5) == 0 {
			continue
		}
		o = append(o, Member{Key: k, Value: d.value(depth - 1)})
	}
	return o
}

func (d *dtGen) keys(n int) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		k := d.key()
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func (d *dtGen) value(depth int) any {
	if depth <= 0 {
		return d.scalar()
	}
	switch d.r.IntN(7) {
	case 0, 1:
		return d.scalar()
	case 2:
		return d.object(depth, nil)
	case 3, 4: // uniform objects: tables, path columns, attachments, inline schemas
		keys := d.keys(1 + d.r.IntN(5))
		sub := d.keys(3 + d.r.IntN(2))
		arr := make([]any, d.r.IntN(5))
		for i := range arr {
			o := d.object(depth, keys)
			if d.r.IntN(2) == 0 {
				// a nested object with shared keys: flattened or inline
				inner := Object{}
				for _, k := range sub {
					inner = append(inner, Member{Key: k, Value: d.scalar()})
				}
				o = append(o, Member{Key: "sub", Value: inner})
				if _, dup := o.Get("sub"); dup && len(o) > 1 && o[len(o)-2].Key == "sub" {
					o = o[:len(o)-1]
				}
			}
			arr[i] = dedupe(o)
		}
		if d.r.IntN(3) == 0 {
			m := Object{}
			for i, x := range arr {
				m = append(m, Member{Key: fmt.Sprint("k", i), Value: x})
			}
			return m
		}
		return arr
	case 5:
		arr := make([]any, d.r.IntN(4))
		for i := range arr {
			arr[i] = d.scalar()
		}
		return arr
	}
	arr := make([]any, d.r.IntN(4))
	for i := range arr {
		arr[i] = d.value(depth - 1)
	}
	return arr
}

// dedupe keeps the first member of each key.
func dedupe(o Object) Object {
	out := Object{}
	for _, m := range o {
		if _, dup := out.Get(m.Key); !dup {
			out = append(out, m)
		}
	}
	return out
}

// fillRandom sets rv (addressable) to a random value of its type.
func fillRandom(r *rand.Rand, d *dtGen, rv reflect.Value, depth int) {
	t := rv.Type()
	if t == reflect.TypeFor[json.Number]() {
		rv.SetString([]string{"1", "-2.5", "1e3", "12345678901234567890"}[r.IntN(4)])
		return
	}
	if t == reflect.TypeFor[time.Time]() {
		rv.Set(reflect.ValueOf(time.Unix(r.Int64N(1<<32), 0).UTC()))
		return
	}
	switch t.Kind() {
	case reflect.String:
		rv.SetString(d.g.str())
	case reflect.Bool:
		rv.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		rv.SetInt(int64(r.Uint64()) >> (64 - t.Bits()) >> r.IntN(t.Bits()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		rv.SetUint(r.Uint64() >> (64 - t.Bits()) >> r.IntN(t.Bits()))
	case reflect.Float32, reflect.Float64:
		rv.SetFloat([]float64{0, 1.5, -2.25, 1e-7, 123456.789, 1e21}[r.IntN(6)])
	case reflect.Interface:
		if x := jsonModel(d.value(depth)); x != nil && r.IntN(3) > 0 {
			rv.Set(reflect.ValueOf(x))
		}
	case reflect.Pointer:
		if r.IntN(4) > 0 && depth > 0 {
			rv.Set(reflect.New(t.Elem()))
			fillRandom(r, d, rv.Elem(), depth-1)
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).IsExported() && r.IntN(5) > 0 {
				fillRandom(r, d, rv.Field(i), depth-1)
			}
		}
	case reflect.Slice:
		if r.IntN(6) == 0 || depth <= 0 {
			return
		}
		n := r.IntN(4)
		s := reflect.MakeSlice(t, n, n)
		for i := 0; i < n; i++ {
			fillRandom(r, d, s.Index(i), depth-1)
		}
		rv.Set(s)
	case reflect.Map:
		if r.IntN(6) == 0 || depth <= 0 {
			return
		}
		m := reflect.MakeMap(t)
		for i := r.IntN(4); i > 0; i-- {
			e := reflect.New(t.Elem()).Elem()
			fillRandom(r, d, e, depth-1)
			m.SetMapIndex(reflect.ValueOf(d.key()).Convert(t.Key()), e)
		}
		rv.Set(m)
	}
}

// treeUnmarshal is the tree path: DecodeGeneric, then assign.
func treeUnmarshal(data []byte, v any) error {
	x, err := DecodeGeneric(data)
	if err != nil {
		return err
	}
	return positioned((&Decoder{}).assign(v, x), 1, 1, 0, false)
}

// errClass names what kind of error err is: its SPEC category, and the
// encoding/json error it wraps.
func errClass(err error) string {
	if err == nil {
		return "ok"
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return string(CategoryOf(err)) + "/type:" + te.Value
	case errors.As(err, &se):
		return string(CategoryOf(err)) + "/json-syntax"
	}
	return string(CategoryOf(err)) + "/other"
}

// TestTypedDecodeMatchesTree: Unmarshal into typed targets, which fills
// them straight from the events, gives what the tree path (DecodeGeneric,
// then assignValue) gives: the same value, or an error of the same class.
// Payloads are random structs of the target types and random values keyed
// from the targets' names, encoded by Marshal; targets start empty or
// filled by another payload (null must leave a field as it was).
func TestTypedDecodeMatchesTree(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	d := &dtGen{r: r, g: gen{r: r}}
	targets := []func() any{
		func() any { return new(dtLeaf) },
		func() any { return new(dtMid) },
		func() any { return new(dtRoot) },
		func() any { return new(dtEmbedded) },
		func() any { return new(dtString) },
		func() any { return new([]dtLeaf) },
		func() any { return new([]*dtMid) },
		func() any { return new(map[string]dtLeaf) },
		func() any { return new(*dtMid) },
		func() any { return new([]int) },
		func() any { return new(string) },
	}
	n := 600
	if testing.Short() {
		n = 200
	}
	var payloads [][]byte
	for i := 0; i < n; i++ {
		var v any
		if i%2 == 0 {
			target := targets[r.IntN(len(targets))]()
			fillRandom(r, d, reflect.ValueOf(target).Elem(), 5)
			v = target
		} else {
			v = d.value(4)
		}
		data, err := Marshal(v)
		if err != nil {
			continue
		}
		payloads = append(payloads, data)
	}
	counts := map[string]int{}
	for i, data := range payloads {
		for _, newT := range targets {
			a, b := newT(), newT()
			if i%3 == 0 && i > 0 {
				// Both start from the same earlier payload's value.
				prev := payloads[i-1]
				if treeUnmarshal(prev, a) != nil || treeUnmarshal(prev, b) != nil {
					a, b = newT(), newT()
				}
			}
			errA := Unmarshal(data, a)
			errB := treeUnmarshal(data, b)
			ca, cb := errClass(errA), errClass(errB)
			counts[strings.Fields(ca)[0]]++
			if ca != cb {
				t.Fatalf("payload %d into %T: typed path %s (%v), tree path %s (%v)\n%s", i, a, ca, errA, cb, errB, data)
			}
			if errA == nil && !reflect.DeepEqual(a, b) {
				ja, _ := json.Marshal(a)
				jb, _ := json.Marshal(b)
				t.Fatalf("payload %d into %T: typed path\n%s\ntree path\n%s\npayload:\n%s", i, a, ja, jb, data)
			}
		}
	}
	if counts["ok"] < len(payloads) || counts["out_of_range/type:number"] == 0 {
		t.Fatalf("only %d decodes succeeded: the test does not exercise the typed path (%v)", counts["ok"], counts)
	}
	t.Logf("%d payloads x %d targets: %v", len(payloads), len(targets), counts)
}

// TestTypedDecodeShapes: hand-written payloads of the shapes the typed
// path fills itself (path columns with a null object, an inline schema and
// its reuse, inline array attachments, '>'-named attachments, a keyed map,
// two columns into one field) give what the tree path gives, and decode
// without error into dtRoot.
func TestTypedDecodeShapes(t *testing.T) {
	cases := []string{
		"GCF profile=generic\n## items [2]{a,\"b>a\",\"b>b\",\"b>n\"}\n1|2|x|3\n2|-|-|-\n",
		"GCF profile=generic\n## items [2]{a,c,n}\n@0 1|^{a,b,n}|^\n1|x|4\n.n [2]: 1,2\n@1 2|^|~\n3|y|5\n",
		"GCF profile=generic\n## c [2:]{key,a,b}\nk1|1|-\nk2|2|-\n",
		"GCF profile=generic\n## items [1]{a,\"b>a\",\"b>b\",\"b>n\",n}\n@0 1|2|x|3|^\n.n [2]: 1,2\n.\"a>b\" =5\n",
		"GCF profile=generic\n## items [3]{a,b,n,A}\n@0 1|^|^|~\n.b {}\n    a=2\n    b=x\n    n=3\n.n [2]: 1,2\n.\"a>b\" =5\n@1 2|-|^|~\n.n [0]\n.\"a>b\" {}\n    q=true\n@2 3|^|^|5\n.b {}\n    a=2\n    c=1.5\n    n=3\n.n [2]: 1,2\n",
	}
	for _, c := range cases {
		var a, b dtRoot
		errA := Unmarshal([]byte(c), &a)
		errB := treeUnmarshal([]byte(c), &b)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			t.Errorf("%q:\ntyped %s (%v)\ntree  %s (%v)", c, ja, errA, jb, errB)
		}
	}
}

// TestTypedDecodeAllocs: decoding a table into a slice of structs costs no
// allocation per row or field (strings share the arena's chunks; short
// nested tables share a slab), so ten times the rows is not ten times the
// allocations.
func TestTypedDecodeAllocs(t *testing.T) {
	if box.Purego {
		t.Skip("built with -tags purego: no slabs, one allocation per nested table")
	}
	type item struct {
		SKU string  `json:"sku"`
		Qty int     `json:"qty"`
		P   float64 `json:"price"`
	}
	type order struct {
		ID       string `json:"id"`
		Customer struct {
			Name string `json:"name"`
			Tier string `json:"tier"`
		} `json:"customer"`
		Items []item `json:"items"`
		OK    bool   `json:"ok"`
	}
	payload := func(n int) []byte {
		var sb strings.Builder
		fmt.Fprintf(&sb, "GCF profile=generic\n## orders [%d]{\"customer>name\",\"customer>tier\",id,items,ok}\n", n)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&sb, "@%d name%d|gold|ORD-%d|^|true\n.items [2]{price,qty,sku}\n    1.5|%d|S-%d\n    2.25|1|T-%d\n", i, i, i, i, i, i)
		}
		return []byte(sb.String())
	}
	allocs := func(n int) float64 {
		data := payload(n)
		return testing.AllocsPerRun(5, func() {
			var v struct {
				Orders []order `json:"orders"`
			}
			if err := Unmarshal(data, &v); err != nil || len(v.Orders) != n || v.Orders[n-1].Items[1].SKU != fmt.Sprint("T-", n-1) {
				t.Fatalf("%d orders: %v", n, err)
			}
		})
	}
	// Row by row through a Decoder: the slabs outlive each Decode call.
	var order1 order
	data := payload(2000)
	dec := NewDecoder(bytes.NewReader(data))
	for dec.PeekKind() != KindRow {
		if _, err := dec.Next(); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rows := 0
	for dec.More() {
		if err := dec.Decode(&order1); err != nil {
			t.Fatal(err)
		}
		rows++
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / uint64(rows); rows != 2000 || per > 512 {
		t.Fatalf("row by row: %d rows, %d bytes allocated per row", rows, per)
	}
	small, large := allocs(100), allocs(1000)
	// 900 more orders hold 5,400 more fields and 3,600 more strings; the
	// arena and the slabs grow by a chunk now and then.
	if large-small > 60 {
		t.Fatalf("100 orders: %.0f allocations, 1000 orders: %.0f", small, large)
	}
	t.Logf("100 orders: %.0f allocations, 1000 orders: %.0f", small, large)
}

// TestTypedDecodeHostileCount: a declared count does not size the slice of
// structs beyond a multiple of the input, however large the struct.
func TestTypedDecodeHostileCount(t *testing.T) {
	type wide struct {
		A   int       `json:"a"`
		Pad [64]int64 `json:"-"`
	}
	var v struct {
		Pad string `json:"pad"`
		T   []wide `json:"t"`
	}
	data := []byte("GCF profile=generic\npad=" + strings.Repeat("x", 200<<10) + "\n## t [90000]{a}\n1\n2\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := Unmarshal(data, &v)
	runtime.ReadMemStats(&after)
	if CategoryOf(err) != CountMismatch {
		t.Fatalf("want count_mismatch, got %v", err)
	}
	// 90,000 elements of 520 bytes would be 47 MB.
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Fatalf("decoding %d bytes allocated %d bytes", len(data), got)
	}
}

// TestTypedDecodeRowsMatchTree: Decoder.Decode of the rows of a root table
// one by one into a struct gives the elements the tree path gives for the
// whole table, or an error of the same category (rows with attachments,
// path columns and inline bodies take the typed row path; flat rows the
// row plan). Tables of random dtMid values are decoded as dtMid and, with
// mismatches, as dtLeaf.
func TestTypedDecodeRowsMatchTree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	d := &dtGen{r: r, g: gen{r: r}}
	tables, failed, attached := 0, 0, 0
	for i := 0; i < 400; i++ {
		var rows []dtMid
		fillRandom(r, d, reflect.ValueOf(&rows).Elem(), 5)
		data, err := Marshal(rows)
		if err != nil || len(rows) == 0 {
			continue
		}
		for _, et := range []reflect.Type{reflect.TypeFor[dtMid](), reflect.TypeFor[dtLeaf]()} {
			want := reflect.New(reflect.SliceOf(et))
			wantErr := treeUnmarshal(data, want.Interface())
			dec := NewDecoder(bytes.NewReader(data))
			for dec.PeekKind() != KindArrayStart {
				if _, err := dec.Next(); err != nil {
					t.Fatal(err)
				}
			}
			start, _ := dec.Next()
			if start.Form != FormTabular {
				break
			}
			tables++
			if wantErr != nil {
				failed++
			}
			if bytes.Contains(data, []byte("|^")) {
				attached++
			}
			got := reflect.New(reflect.SliceOf(et)).Elem()
			var gotErr error
			for dec.More() {
				row := reflect.New(et)
				if gotErr = dec.Decode(row.Interface()); gotErr != nil {
					break
				}
				got = reflect.Append(got, row.Elem())
			}
			if (gotErr == nil) != (wantErr == nil) || CategoryOf(gotErr) != CategoryOf(wantErr) {
				t.Fatalf("payload %d into %v: rows %v, tree %v\n%s", i, et, gotErr, wantErr, data)
			}
			if wantErr == nil && !reflect.DeepEqual(got.Interface(), want.Elem().Interface()) {
				ja, _ := json.Marshal(got.Interface())
				jb, _ := json.Marshal(want.Interface())
				t.Fatalf("payload %d into %v: rows\n%s\ntree\n%s\n%s", i, et, ja, jb, data)
			}
		}
	}
	if tables < 50 || attached < 20 || failed < 20 {
		t.Fatalf("only %d tables, %d with attachments, %d failing", tables, attached, failed)
	}
	t.Logf("%d tables (%d with attachments, %d failing)", tables, attached, failed)
}

// FuzzTypedDecode: for any input, Unmarshal into typed targets never
// panics and agrees with the tree path (DecodeGeneric, then assign): the
// same value, or the same error class.
func FuzzTypedDecode(f *testing.F) {
	seeds := []string{
		"GCF profile=generic\n## items [2]{a,\"b>a\",\"b>b\",\"b>n\"}\n1|2|x|3\n2|-|-|-\n",
		"GCF profile=generic\n## items [2]{a,c,n}\n@0 1|^{a,b,n}|^\n1|x|4\n.n [2]: 1,2\n@1 2|^|~\n3|y|5\n",
		"GCF profile=generic\n## c [2:]{key,a,b}\nk1|1|-\nk2|2|-\n",
		"GCF profile=generic\n## items [1]{a,\"b>a\",\"b>b\",\"b>n\",n}\n@0 1|2|x|3|^\n.n [2]: 1,2\n.\"a>b\" =5\n",
		"GCF profile=generic\n## a [1]{\"c>a\",\"c>b\",id,items,n}\n@0 x|y|ORD-1|^|3\n.items [2]{a,b,n}\n    1|s|2\n    2|t|3\n",
		"GCF profile=generic\nn[3]: 1,-,300\nb:\n  a=1\n  c=2.5\nm:\n  k=1\n",
		"GCF profile=generic\n## [2]{a,b}\n1|x\n2|y\n",
		"GCF profile=generic\n## rows [2]{\"c>f\",\"c>i\",id,items,total}\n@0 1.5|-3|7|^|2.25\n.items [1]{b,s,u}\n    true|x|9\n@1 -|300|8|^|1e400\n.items [0]\n",
		"GCF profile=generic\n## orders [3]{\"customer>email\",\"customer>name\",id,items,parts,total}\n@0 a@b|A B|ORD-1|^|^|1.5\n.items [2]{name,price,qty,sku}\n    Blue Lever|306.56|1|SKU-1\n    Red Cog|3.5|2|SKU-2\n.parts [1]{sku}\n    S\n@1 c@d|C|ORD-2|^|-|2\n.items [1]\n    Steel Gizmo|1.25|3|SKU-3\n@2 e@f|E|ORD-3|^|^|3\n.parts [1]\n    T\n.items [1]\n    x|y|z|w\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	targets := []func() any{
		func() any { return new(dtRoot) },
		func() any { return new(dtMid) },
		func() any { return new([]dtLeaf) },
		func() any { return new(dtEmbedded) },
		func() any { return new(drRoot) },
		func() any { return new(saRoot) },
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, newT := range targets {
			a, b := newT(), newT()
			errA := Unmarshal(data, a)
			errB := treeUnmarshal(data, b)
			if ca, cb := errClass(errA), errClass(errB); ca != cb {
				t.Fatalf("%T: typed %s (%v), tree %s (%v)", a, ca, errA, cb, errB)
			}
			if errA == nil && !reflect.DeepEqual(a, b) {
				t.Fatalf("%T: values differ", a)
			}
		}
	})
}
