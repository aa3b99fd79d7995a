package gcf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func ordersGCF(t testing.TB) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/examples/orders.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := ParseJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kinds lists the kinds of the remaining events of d.
func kinds(t *testing.T, d *Decoder) []string {
	t.Helper()
	var out []string
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev.Kind.String())
	}
}

const employees = `GCF profile=generic
note=hello
## staff [3]{id,name,dept,salary,active}
1|Ann|eng|100.5|true
2|Bo|ops|~|false
3|"Cy, Jr."|-|90|true
## tail [0]
`

type employee struct {
	ID     int      `json:"id"`
	Name   string   `json:"name"`
	Dept   *string  `json:"dept"`
	Salary float64  `json:"salary"`
	Active bool     `json:"active"`
	Extra  []string `json:"-"`
}

func TestDecoderDecodeRowsIntoStructs(t *testing.T) {
	d := NewDecoder(strings.NewReader(employees))
	for {
		ev, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindArrayStart && string(ev.Key) == "staff" {
			break
		}
	}
	var got []employee
	for d.More() {
		e := employee{Salary: -1}
		if err := d.Decode(&e); err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if len(got) != 3 {
		t.Fatalf("decoded %d rows, want 3", len(got))
	}
	if got[0].ID != 1 || got[0].Name != "Ann" || *got[0].Dept != "eng" || got[0].Salary != 100.5 || !got[0].Active {
		t.Errorf("row 0 = %+v", got[0])
	}
	if got[1].Salary != -1 {
		t.Errorf("a missing cell must leave the field alone, got salary %v", got[1].Salary)
	}
	if got[2].Name != "Cy, Jr." || got[2].Dept != nil || got[2].Salary != 90 {
		t.Errorf("row 2 = %+v", got[2])
	}
	if k := d.PeekKind(); k != KindArrayEnd {
		t.Fatalf("after the rows PeekKind = %v, want ArrayEnd", k)
	}
	if rest := kinds(t, d); strings.Join(rest, ",") != "array end,array start,array end,object end,end" {
		t.Errorf("rest = %v", rest)
	}
}

// The fast path and the general path (the row's JSON through
// encoding/json) must give the same struct and the same error class.
func TestDecoderRowFastPathMatchesEncodingJSON(t *testing.T) {
	type rec struct {
		A int8
		B uint16  `json:"b"`
		C string  `json:"c"`
		D *bool   `json:"d"`
		E float32 `json:"e"`
		F float64
	}
	cells := []string{"1", "-1", "300", "x", "true", "-", "~", "1.5", "1e400", `"7"`, "99999999999999999999"}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		row := make([]string, 6)
		for j := range row {
			row[j] = cells[r.IntN(len(cells))]
		}
		payload := "GCF profile=generic\n## [1]{A,b,c,d,e,f}\n" + strings.Join(row, "|") + "\n"
		var fast rec
		d := NewDecoder(strings.NewReader(payload))
		for d.PeekKind() != KindRow {
			if _, err := d.Next(); err != nil {
				break
			}
		}
		fastErr := d.Decode(&fast)

		var slow rec
		v, err := DecodeGeneric([]byte(payload))
		if err != nil {
			if fastErr == nil {
				t.Fatalf("%q: DecodeGeneric fails (%v) but Decode does not", payload, err)
			}
			continue
		}
		js, _ := ToJSON(v.([]any)[0])
		slowErr := json.Unmarshal(js, &slow)
		if !reflect.DeepEqual(fast, slow) || (fastErr == nil) != (slowErr == nil) {
			t.Fatalf("%q:\nfast %+v (%v)\njson %+v (%v)", payload, fast, fastErr, slow, slowErr)
		}
		var te *json.UnmarshalTypeError
		if fastErr != nil && !errors.As(fastErr, &te) {
			t.Fatalf("%q: fast-path error %T, want *json.UnmarshalTypeError", payload, fastErr)
		}
	}
}

func TestDecoderDecodeRowsWithAttachments(t *testing.T) {
	type item struct {
		SKU string  `json:"sku"`
		Qty int     `json:"qty"`
		P   float64 `json:"price"`
	}
	type order struct {
		ID       string `json:"id"`
		Customer struct {
			Name string `json:"name"`
		} `json:"customer"`
		Items []item  `json:"items"`
		Total float64 `json:"total"`
		Note  string  `json:"note"`
	}
	d := NewDecoder(bytes.NewReader(ordersGCF(t)))
	for d.PeekKind() != KindRow {
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
	}
	var orders []order
	for d.More() {
		var o order
		if err := d.Decode(&o); err != nil {
			t.Fatal(err)
		}
		orders = append(orders, o)
	}
	if len(orders) != 3 || orders[0].Customer.Name != "Alice Chen" || len(orders[0].Items) != 2 ||
		orders[0].Items[1].SKU != "UC-02" || orders[2].Note != "leave at door" || orders[1].Total != 89.99 {
		t.Fatalf("orders = %+v", orders)
	}
	// The keyed map that follows: rows decode to member values.
	ev, err := d.Next() // ArrayEnd
	if err != nil || ev.Kind != KindArrayEnd {
		t.Fatalf("got %v, %v", ev.Kind, err)
	}
	if ev, err = d.Next(); err != nil || ev.Kind != KindObjectStart || ev.Form != FormKeyed {
		t.Fatalf("got %v %v, %v", ev.Kind, ev.Form, err)
	}
	var wh []map[string]any
	for d.More() {
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		wh = append(wh, m)
	}
	if len(wh) != 2 || wh[1]["city"] != "San Francisco" || wh[0]["capacity"] != float64(12000) {
		t.Fatalf("warehouses = %v", wh)
	}
}

func TestDecoderDecodeWholeValues(t *testing.T) {
	data := ordersGCF(t)
	want, err := DecodeGeneric(data)
	if err != nil {
		t.Fatal(err)
	}
	// From the start: the root value, in DecodeGeneric's model.
	var got any
	d := NewDecoder(bytes.NewReader(data), WithOrderedObjects(), WithExactNumbers())
	if err := d.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode root = %v\nwant %v", got, want)
	}
	if err := d.Decode(&got); err != io.EOF {
		t.Fatalf("second Decode = %v, want io.EOF", err)
	}
	// Into a struct through its json tags.
	var doc struct {
		Store      string `json:"store"`
		Warehouses map[string]struct {
			City string `json:"city"`
		} `json:"warehouses"`
	}
	d.Reset(bytes.NewReader(data))
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Store != "north-1" || doc.Warehouses["ams"].City != "Amsterdam" {
		t.Fatalf("doc = %+v", doc)
	}
	// One member at a time.
	d.Reset(bytes.NewReader(data))
	var keys []string
	for {
		ev, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindObjectStart && ev.Role == RoleRoot {
			break
		}
	}
	for d.More() {
		k := d.PeekKind()
		if k != KindScalar && k != KindArrayStart && k != KindObjectStart {
			t.Fatalf("member starts with %v", k)
		}
		var m any
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, fmt.Sprintf("%T", m))
	}
	if strings.Join(keys, ",") != "string,[]interface {},jsonmodel.Object" {
		t.Fatalf("member types %v", keys)
	}
	if err := d.Decode(new(any)); err == nil || err == io.EOF {
		t.Fatalf("Decode at an ObjectEnd = %v, want an error", err)
	}
}

func TestDecoderSkip(t *testing.T) {
	data := ordersGCF(t)
	d := NewDecoder(bytes.NewReader(data))
	var seen []string
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, ev.Kind.String()+":"+string(ev.Key))
		if ev.Kind == KindArrayStart && string(ev.Key) == "orders" {
			if err := d.Skip(); err != nil {
				t.Fatal(err)
			}
		}
		if ev.Kind == KindRow && d.Depth() == 2 {
			if err := d.Skip(); err != nil { // the rest of the keyed map
				t.Fatal(err)
			}
		}
	}
	want := "header:|object start:|scalar:store|array start:orders|object start:warehouses|row:|object end:|end:"
	if strings.Join(seen, "|") != want {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(seen, "|"), want)
	}
	// Nothing open: Skip runs to the end.
	d.Reset(bytes.NewReader(data))
	if err := d.Skip(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Fatalf("after Skip: %v, want io.EOF", err)
	}
	// Skipped lines are still checked.
	bad := bytes.Replace(data, []byte("## orders [3]"), []byte("## orders [4]"), 1)
	d.Reset(bytes.NewReader(bad))
	for {
		ev, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindArrayStart {
			break
		}
	}
	if err := d.Skip(); !errors.Is(err, CountMismatch) {
		t.Fatalf("Skip over a short table = %v, want count_mismatch", err)
	}
}

func smallGraph(t *testing.T) []byte {
	p := &Payload{Tool: "find", Symbols: []Symbol{
		{QualifiedName: "a.F", Kind: "function", Score: 0.9, Provenance: "p", Distance: 0},
		{QualifiedName: "a.G", Kind: "method", Score: 0.5, Provenance: "p", Distance: 1},
		{QualifiedName: "a.H", Kind: "type", Score: 0.25, Provenance: "q", Distance: 1},
	}, Edges: []Edge{{Source: "a.F", Target: "a.G", EdgeType: "calls"}}}
	out, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDecoderGraph(t *testing.T) {
	data := smallGraph(t)
	want, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var p Payload
	d := NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&p); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&p, want) {
		t.Fatalf("Decode(&Payload) = %+v\nwant %+v", p, want)
	}
	if _, err := d.Next(); err != io.EOF {
		t.Fatalf("after the payload: %v", err)
	}

	// Symbols one by one; the targets group skipped whole.
	d.Reset(bytes.NewReader(data))
	var syms []Symbol
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind != KindGroup {
			continue
		}
		if string(ev.Key) != "related" {
			if err := d.Skip(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for d.More() {
			var s Symbol
			if err := d.Decode(&s); err != nil {
				t.Fatal(err)
			}
			syms = append(syms, s)
		}
	}
	if !reflect.DeepEqual(syms, want.Symbols[1:]) {
		t.Fatalf("related symbols %+v\nwant %+v", syms, want.Symbols[1:])
	}
}

func TestDecoderShortReadsSameValues(t *testing.T) {
	data := ordersGCF(t)
	var whole, short any
	if err := NewDecoder(bytes.NewReader(data)).Decode(&whole); err != nil {
		t.Fatal(err)
	}
	if err := NewDecoder(iotest.OneByteReader(bytes.NewReader(data))).Decode(&short); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(whole, short) {
		t.Fatal("one-byte reads decode a different value")
	}
}

func TestDecoderDecodeErrors(t *testing.T) {
	d := NewDecoder(strings.NewReader(employees))
	var e employee
	if err := d.Decode(e); err == nil {
		t.Fatal("Decode into a non-pointer must fail")
	}
	if err := d.Decode((*employee)(nil)); err == nil {
		t.Fatal("Decode into a nil pointer must fail")
	}
	d = NewDecoder(strings.NewReader("GCF profile=generic\n## [2]{a}\n1\n"))
	var v any
	err := d.Decode(&v)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Category != CountMismatch || se.Line == 0 {
		t.Fatalf("truncated table: %v", err)
	}
}

func TestDecoderRowDecodeAllocations(t *testing.T) {
	var b strings.Builder
	b.WriteString("GCF profile=generic\n## [?]{id,salary,active}\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&b, "%d|%d.5|true\n", i, i)
	}
	b.WriteString("##! summary counts=20000\n")
	data := []byte(b.String())
	type rec struct {
		ID     int64   `json:"id"`
		Salary float64 `json:"salary"`
		Active bool    `json:"active"`
	}
	d := NewDecoder(bytes.NewReader(data))
	r := bytes.NewReader(data)
	var sink rec
	run := func(rows int) {
		r.Reset(data)
		d.Reset(r)
		for d.PeekKind() != KindRow {
			d.Next()
		}
		for i := 0; i < rows && d.More(); i++ {
			if err := d.Decode(&sink); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(10)
	few := testing.AllocsPerRun(5, func() { run(10) })
	many := testing.AllocsPerRun(5, func() { run(20000) })
	if many > few {
		t.Fatalf("decoding 20000 rows into a struct allocates %v, 10 rows %v: rows must not allocate", many, few)
	}
}

func TestDecoderRequireSummary(t *testing.T) {
	cut := "GCF profile=generic\n## [?]{a}\n1\n2\n"
	var v any
	if err := NewDecoder(strings.NewReader(cut)).Decode(&v); err != nil {
		t.Fatalf("SPEC §8.6 accepts a [?] table without its trailer: %v", err)
	}
	err := NewDecoder(strings.NewReader(cut), WithRequireSummary()).Decode(&v)
	if !errors.Is(err, UnexpectedEOF) {
		t.Fatalf("WithRequireSummary: %v, want unexpected_eof", err)
	}
	if _, err := DecodeGeneric([]byte(cut+"##! summary counts=2\n"), WithRequireSummary()); err != nil {
		t.Fatal(err)
	}
}
