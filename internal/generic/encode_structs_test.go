package generic

import (
	"bytes"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gcfkit/gcf/internal/box"
)

type fsFlat struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Dept   string `json:"department"`
	Salary int64  `json:"salary"`
	Active bool   `json:"active"`
}

type fsEmb struct {
	X int8 `json:"x"`
	Y string
}

type fsFlat2 struct {
	fsEmb
	U      uint64  `json:"u"`
	F      float64 `json:"f"`
	F32    float32 `json:"f32"`
	S      string  `json:"s,omitempty"`
	Skip   string  `json:"-"`
	AsStr  int     `json:",string"`
	hidden int
	U8     uint8 `json:"u8"`
}

type fsRoot struct {
	Title  string    `json:"title"`
	Count  int       `json:"count,omitempty"`
	Rows   []fsFlat  `json:"rows"`
	Others []fsFlat2 `json:"others,omitempty"`
	Ratio  float64   `json:"ratio"`
	Fixed  [2]fsFlat `json:"fixed"`
	Zero   int       `json:"zero,omitzero"`
}

type fsGen struct {
	r    *rand.Rand
	calm int // 1 + calm: how much rarer invalid strings and non-finite floats are
}

var fsPieces = []string{"", " ", "-", "a|b", "x,y", "#h", "@a", ".d", "\"q\"", "back\\slash", "line\nbreak",
	"tab\t", "é", "日本", "\xff", "true", "null", "12", "-3.5", "~", "^", "plain", "a b", "{x}", "[1]", "=", ":", "k>v"}

func (g fsGen) str() string {
	n := g.r.Intn(3)
	s := ""
	for i := 0; i < n; i++ {
		s += fsPieces[g.r.Intn(len(fsPieces))]
	}
	if g.r.Intn(40*(1+g.calm)) != 0 {
		for !utf8.ValidString(s) {
			s = fsPieces[g.r.Intn(len(fsPieces)-1)]
			if s == "\xff" {
				s = "ok"
			}
		}
	}
	return s
}

func (g fsGen) int64() int64 {
	switch g.r.Intn(8) {
	case 0:
		return math.MaxInt64
	case 1:
		return math.MinInt64
	case 2:
		return 0
	}
	return g.r.Int63n(2000000) - 1000000
}

func (g fsGen) float() float64 {
	switch g.r.Intn(60 * (1 + g.calm)) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1 - 2*g.r.Intn(2))
	}
	switch g.r.Intn(6) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 1e300
	case 3:
		return 1.5e-7
	}
	return g.r.NormFloat64() * 1e4
}

func (g fsGen) flat() fsFlat {
	return fsFlat{int(g.int64()), g.str(), g.str(), g.int64(), g.r.Intn(2) == 0}
}

func (g fsGen) flat2() fsFlat2 {
	u := uint64(g.r.Int63())
	if g.r.Intn(40) == 0 {
		u = math.MaxUint64
	}
	s := "set"
	if g.r.Intn(30) == 0 {
		s = "" // omitted: rows not uniform
	}
	return fsFlat2{fsEmb{int8(g.r.Intn(256) - 128), g.str()}, u, g.float(), float32(g.float()), s, "x", g.r.Intn(100), 7, uint8(g.r.Intn(256))}
}

func (g fsGen) flats(max int) []fsFlat {
	switch g.r.Intn(5) {
	case 0:
		return nil
	case 1:
		return []fsFlat{}
	}
	out := make([]fsFlat, 1+g.r.Intn(max))
	for i := range out {
		out[i] = g.flat()
	}
	return out
}

func (g fsGen) flats2(max int) []fsFlat2 {
	switch g.r.Intn(5) {
	case 0:
		return nil
	case 1:
		return []fsFlat2{}
	}
	out := make([]fsFlat2, 1+g.r.Intn(max))
	for i := range out {
		out[i] = g.flat2()
	}
	return out
}

func (g fsGen) value() any {
	switch g.r.Intn(7) {
	case 0:
		return g.flats(6)
	case 1:
		v := g.flats2(6)
		return &v
	case 2:
		m := map[string][]fsFlat2{}
		for i := g.r.Intn(4); i > 0; i-- {
			m[g.str()] = g.flats2(4)
		}
		return m
	case 3:
		r := fsRoot{Title: g.str(), Count: g.r.Intn(2), Rows: g.flats(5), Others: g.flats2(4), Ratio: g.float()}
		r.Fixed[0], r.Fixed[1] = g.flat(), g.flat()
		return &r
	case 4:
		r := fsRoot{Title: g.str(), Rows: g.flats(5), Ratio: 1}
		return r // not addressable: the array falls back
	case 5:
		a := [2]fsFlat{g.flat(), g.flat()}
		return &a
	}
	return struct {
		A []fsFlat  `json:"a"`
		B []fsFlat2 `json:"b"`
		C uint      `json:"c"`
		D float32   `json:"d"`
	}{g.flats(3), g.flats2(3), uint(g.r.Intn(9)), float32(g.float())}
}

func (g fsGen) limits() Limits {
	lim := defaultLimits
	if g.r.Intn(2) == 0 {
		return lim
	}
	switch g.r.Intn(5) {
	case 0:
		lim.MaxLineBytes = 10 + g.r.Intn(80)
	case 1:
		lim.MaxElements = g.r.Intn(6)
	case 2:
		lim.MaxFields = g.r.Intn(8)
	case 3:
		lim.MaxBytes = int64(20 + g.r.Intn(400))
	case 4:
		lim.MaxDepth = 1 + g.r.Intn(10)
	}
	return lim
}

// TestStructFastPathSameBytes: the typed fast path writes exactly the bytes
// of the general path (normalize + appendLayout), and where it hands a
// value back the result (bytes or error) is the general path's.
func TestStructFastPathSameBytes(t *testing.T) {
	if box.Purego {
		t.Skip("built with -tags purego: the typed fast path is off (it reads fields through unsafe), every value takes the general path")
	}
	g := fsGen{r: rand.New(rand.NewSource(17))}
	fast, fell, consts := 0, 0, 0
	for i := 0; i < 6000; i++ {
		v := g.value()
		lim := g.limits()
		v353 := i%5 == 4 // WithSpec(Spec353): no constant columns
		want, werr := appendLayout([]byte("pre"), v, lim, nil, v353)
		got, ok := appendStructs([]byte("pre"), v, lim, v353, i%2 == 0)
		if ok {
			fast++
			if declaresConstants(got[len("pre"):]) {
				if v353 {
					t.Fatalf("case %d: constant columns under Spec353:\n%s", i, got)
				}
				consts++
			}
			if werr != nil {
				t.Fatalf("case %d: fast path wrote %q, general path failed: %v (%#v, %+v)", i, got, werr, v, lim)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: fast path\n%s\ngeneral path\n%s\n(%#v)", i, got, want, v)
			}
		} else {
			fell++
		}
		// The entry point gives the general path's result either way.
		out, err := appendGeneric([]byte("pre"), v, lim, v353, true)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("case %d: error %v, general path %v", i, err, werr)
		}
		if !bytes.Equal(out, want) && werr == nil {
			t.Fatalf("case %d: entry point\n%s\ngeneral path\n%s", i, out, want)
		}
	}
	if consts < 300 {
		t.Fatalf("%d fast-path encodings with constant columns: the generator does not exercise factoring", consts)
	}
	if fast < 1000 || fell < 500 {
		t.Fatalf("fast path took %d values, fell back on %d: the generator does not exercise both", fast, fell)
	}
	t.Logf("fast path: %d, fallback: %d", fast, fell)
}

// Nested shapes: flattened structs (also through pointers), tables and
// inline arrays as attachments, awkward keys.

type fsGeo struct {
	Lat float64 `json:"lat"`
	Lng float32 `json:"lng"`
}

type fsAddr struct {
	Street string `json:"street name"`
	Geo    fsGeo  `json:"geo,omitempty"` // a struct is never empty
	Zip    uint16 `json:"zip"`
}

type fsCust struct {
	Name  string `json:"name"`
	Email string `json:"e|mail"`
	Tier  string `json:"tier"`
}

type fsItem struct {
	SKU   string  `json:"sku"`
	Qty   *int    `json:"qty"`
	Price float64 `json:"price"`
	Note  string  `json:"note,omitempty"`
}

type fsLine struct {
	Cust fsCust   `json:"cust"`
	N    []fsFlat `json:"n"`
	Tags []string `json:"tags"`
}

type fsOrder struct {
	ID       string     `json:"id"`
	Customer fsCust     `json:"customer"`
	Ship     *fsAddr    `json:"ship"`
	Items    []fsItem   `json:"items"`
	Tags     []string   `json:"tags"`
	Codes    [2]int16   `json:"codes"`
	Total    *float64   `json:"total"`
	Lines    []fsLine   `json:"lines,omitempty"`
	Flags    []bool     `json:"@flags"`
	Fixed    [1]fsItem  `json:"fixed"`
	Status   string     `json:"status"`
	_        struct{}   // unexported: ignored
	Deeper   *fsGeo     `json:"deeper"`
	Emb      fsEmbedded `json:"emb"`
}

type fsEmbedded struct {
	fsGeo
	Kind string `json:"kind"`
}

type fsOrderRoot struct {
	Title  string    `json:"title"`
	Orders []fsOrder `json:"orders"`
	Tags   []string  `json:"tags"`
	Score  *int      `json:"score"`
	Empty  []int32   `json:"empty"`
}

// Roots with sections (struct members).
type fsMeta struct {
	Version int      `json:"version"`
	Tags    []string `json:"tags,omitempty"`
	Owner   *fsCust  `json:"owner"`
	Geo     fsGeo    `json:"geo"`
	Items   []fsItem `json:"items"`
	Empty   struct{} `json:"empty"`
}

type fsPage struct {
	Meta   fsMeta    `json:"meta"`
	Next   *fsMeta   `json:"next,omitempty"`
	Orders []fsOrder `json:"orders"`
	Note   string    `json:"note,omitempty"`
}

// fsObjs is a keyed map in the general path when Note is omitted (every
// member an object).
type fsObjs struct {
	Note string `json:"note,omitempty"`
	A    fsGeo  `json:"a"`
	B    *fsGeo `json:"b"`
}

// Types the plan declines (the general path writes them).
type fsOddKey struct {
	A struct {
		B string `json:"x>y"`
	} `json:"a"`
}
type fsPtrLeaf struct {
	A struct {
		B *string `json:"b"`
	} `json:"a"`
}
type fsNoFields struct {
	A struct{} `json:"a"`
	B int      `json:"b"`
}
type fsRec struct {
	Name string  `json:"name"`
	Kids []fsRec `json:"kids"`
}
type fsPtrElems struct {
	Ptrs []*fsItem `json:"ptrs"`
}
type fsIface struct {
	A any `json:"a"`
}

func (g fsGen) maybe(n int) bool { return g.r.Intn(n) == 0 }

func (g fsGen) item() fsItem {
	it := fsItem{SKU: g.str(), Price: g.float(), Note: "n"}
	if !g.maybe(3) {
		q := int(g.int64())
		it.Qty = &q
	}
	if g.maybe(25 * (1 + g.calm)) {
		it.Note = ""
	}
	return it
}

func (g fsGen) items(max int) []fsItem {
	switch g.r.Intn(5) {
	case 0:
		return nil
	case 1:
		return []fsItem{}
	}
	out := make([]fsItem, 1+g.r.Intn(max))
	for i := range out {
		out[i] = g.item()
	}
	return out
}

func (g fsGen) strs() []string {
	switch g.r.Intn(4) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	out := make([]string, 1+g.r.Intn(3))
	for i := range out {
		out[i] = g.str()
	}
	return out
}

func (g fsGen) cust() fsCust { return fsCust{g.str(), g.str(), g.str()} }

func (g fsGen) order(ptrs bool) fsOrder {
	o := fsOrder{ID: g.str(), Customer: g.cust(), Items: g.items(3), Tags: g.strs(), Status: g.str()}
	o.Codes = [2]int16{int16(g.r.Intn(65536) - 32768), 0}
	if !g.maybe(2) {
		o.Ship = &fsAddr{Street: g.str(), Geo: fsGeo{g.float(), float32(g.float())}, Zip: uint16(g.r.Intn(65536))}
	}
	if !g.maybe(3) {
		t := g.float()
		o.Total = &t
	}
	if !g.maybe(20 * (1 + g.calm)) { // omitempty: absent otherwise
		o.Lines = make([]fsLine, 1+g.r.Intn(2))
		for i := range o.Lines {
			o.Lines[i] = fsLine{g.cust(), g.flats(3), g.strs()}
		}
	}
	if !g.maybe(3) {
		o.Flags = make([]bool, g.r.Intn(3))
	}
	o.Fixed[0] = g.item()
	if ptrs {
		o.Status = "" // nothing planned depends on it; see fsPtrElems
	}
	if g.maybe(4) {
		o.Deeper = &fsGeo{g.float(), 1}
	}
	o.Emb = fsEmbedded{fsGeo{1, 2}, g.str()}
	return o
}

func (g fsGen) orders(max int) []fsOrder {
	switch g.r.Intn(6) {
	case 0:
		return nil
	case 1:
		return []fsOrder{}
	}
	out := make([]fsOrder, 1+g.r.Intn(max))
	ptrs := g.maybe(10)
	for i := range out {
		out[i] = g.order(ptrs)
	}
	return out
}

func (g fsGen) meta() fsMeta {
	m := fsMeta{Version: int(g.int64()), Tags: g.strs(), Geo: fsGeo{g.float(), 2}, Items: g.items(3)}
	if g.maybe(2) {
		c := g.cust()
		m.Owner = &c
	}
	return m
}

func (g fsGen) page() any {
	switch g.r.Intn(4) {
	case 0:
		o := fsObjs{A: fsGeo{g.float(), 1}}
		if g.maybe(2) {
			o.Note = g.str()
		}
		if g.maybe(2) {
			o.B = &fsGeo{1, 2}
		}
		return &o
	case 1:
		return fsPage{Meta: g.meta(), Orders: g.orders(2)} // not addressable
	}
	p := &fsPage{Meta: g.meta(), Orders: g.orders(3), Note: g.str()}
	if g.maybe(2) {
		m := g.meta()
		p.Next = &m
	}
	return p
}

func (g fsGen) nested() any {
	k := g.r.Intn(4)
	if k == 3 {
		k += g.r.Intn(6)
	}
	switch k {
	case 0:
		if g.maybe(2) {
			return g.page()
		}
		return g.orders(4)
	case 1:
		v := g.orders(4)
		return &v
	case 2:
		m := map[string][]fsOrder{}
		for i := g.r.Intn(3); i > 0; i-- {
			m[g.str()] = g.orders(3)
		}
		return m
	case 3:
		r := fsOrderRoot{Title: g.str(), Orders: g.orders(4), Tags: g.strs()}
		if g.maybe(2) {
			s := int(g.int64())
			r.Score = &s
		}
		if g.maybe(2) {
			r.Empty = []int32{}
		}
		return &r
	case 4:
		return []fsOddKey{{}, {}}
	case 5:
		s := "s"
		v := []fsPtrLeaf{{}, {}}
		v[1].A.B = &s
		return v
	case 6:
		return []fsNoFields{{B: 1}, {B: 2}}
	case 7:
		return []fsRec{{"a", []fsRec{{"b", nil}}}, {"c", nil}}
	}
	if g.maybe(2) {
		it := g.item()
		return []fsPtrElems{{[]*fsItem{&it}}}
	}
	return []fsIface{{1}, {"x"}}
}

// fsSame checks one value: where the fast path takes it, its bytes are
// the general path's (and the general path did not fail); the entry point
// gives the general path's result either way. It reports whether the fast
// path took the value.
func fsSame(t *testing.T, i int, v any, lim Limits) bool {
	t.Helper()
	return fsSameSpec(t, i, v, lim, false)
}

// fsSameSpec is fsSame, with v353 for WithSpec(Spec353).
func fsSameSpec(t *testing.T, i int, v any, lim Limits, v353 bool) bool {
	t.Helper()
	want, werr := appendLayout([]byte("pre"), v, lim, nil, v353)
	got, ok := appendStructs([]byte("pre"), v, lim, v353, i%2 == 0)
	if ok {
		if werr != nil {
			t.Fatalf("case %d: fast path wrote\n%s\ngeneral path failed: %v (%+v)", i, got, werr, lim)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: fast path\n%s\ngeneral path\n%s", i, got, want)
		}
	}
	out, err := appendGeneric([]byte("pre"), v, lim, v353, true)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("case %d: error %v, general path %v", i, err, werr)
	}
	if !bytes.Equal(out, want) && werr == nil {
		t.Fatalf("case %d: entry point\n%s\ngeneral path\n%s", i, out, want)
	}
	return ok
}

// TestStructFastPathNestedSameBytes is TestStructFastPathSameBytes over
// nested shapes (flattened structs, pointers, attachments with shared
// array schemas) and types the plan declines.
func TestStructFastPathNestedSameBytes(t *testing.T) {
	if box.Purego {
		t.Skip("built with -tags purego: the typed fast path is off (it reads fields through unsafe), every value takes the general path")
	}
	g := fsGen{r: rand.New(rand.NewSource(18))}
	fast, fell := 0, 0
	for i := 0; i < 6000; i++ {
		g.calm = i % 8
		if fsSame(t, i, g.nested(), g.limits()) {
			fast++
		} else {
			fell++
		}
	}
	if fast < 1000 || fell < 1000 {
		t.Fatalf("fast path took %d values, fell back on %d: the generator does not exercise both", fast, fell)
	}
	t.Logf("fast path: %d, fallback: %d", fast, fell)
}

// FuzzStructFastPath drives the generators of the two tests above from
// the fuzzer's seed (which value, how calm, which limits).
func FuzzStructFastPath(f *testing.F) {
	for _, seed := range []int64{0, 1, 17, 18, 1 << 40} {
		f.Add(seed, uint8(0))
		f.Add(seed, uint8(7))
		f.Add(seed, uint8(0x47)) // WithSpec(Spec353)
	}
	f.Fuzz(func(t *testing.T, seed int64, calm uint8) {
		g := fsGen{r: rand.New(rand.NewSource(seed)), calm: int(calm % 16)}
		var v any
		if calm&0x80 != 0 {
			v = g.value()
		} else {
			v = g.nested()
		}
		fsSameSpec(t, 0, v, g.limits(), calm&0x40 != 0)
	})
}

// Tables and arrays reached through an unexported embedded struct, in a
// root and in rows: read through reflect (attachments) and offsets (cells).
type fsInner struct {
	Items []fsItem  `json:"items"`
	Arr   [2]fsGeo  `json:"arr"`
	Tags  [2]string `json:"tags"`
}

type fsEmbRow struct {
	fsInner
	N int `json:"n"`
}

type fsEmbRoot struct {
	fsInner
	Rows  []fsEmbRow  `json:"rows"`
	Fixed [2]fsEmbRow `json:"fixed"`
}

func TestStructFastPathEmbedded(t *testing.T) {
	if box.Purego {
		t.Skip("built with -tags purego: the typed fast path is off (it reads fields through unsafe), every value takes the general path")
	}
	q := 3
	it := []fsItem{{SKU: "a", Qty: &q, Note: "n"}, {SKU: "b|c", Price: 2.5, Note: "m"}}
	r := fsEmbRoot{fsInner: fsInner{Items: it, Tags: [2]string{"x", ""}}, Rows: []fsEmbRow{{fsInner{Items: it}, 1}, {fsInner{}, 2}}}
	r.Fixed[1].Items = it[:1]
	fast := 0
	for i, v := range []any{r, &r, r.Rows, &r.Fixed, &r.Rows} {
		if fsSame(t, i, v, defaultLimits) {
			fast++
		}
	}
	if fast != 4 { // r is not addressable: its arrays fall back
		t.Fatalf("fast path took %d of 5 values, want 4", fast)
	}
}

// Rows written from fsRows.cellv: scalars, a flattened struct's leaves and
// sequences' `^` or `-` cells, as in an order with its items.
type fsCellItem struct {
	SKU   string  `json:"sku"`
	Name  string  `json:"name"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

type fsCellOrder struct {
	ID       string        `json:"id"`
	Customer fsCust        `json:"customer"`
	Items    []fsCellItem  `json:"items"`
	Tags     []string      `json:"tags"`
	Codes    [2]int16      `json:"codes"`
	Fixed    [1]fsCellItem `json:"fixed"`
	Total    float64       `json:"total"`
	Status   string        `json:"status"`
	On       bool          `json:"on"`
	N        int64         `json:"n"`
	U        uint32        `json:"u"`
	F32      float32       `json:"f32"`
}

// fsEdgeFloats are floats at the bounds of the cell writers' forms (1e-4,
// 10^7 integer digits, 4 fraction digits, 1e9, 2^53) and beside them.
var fsEdgeFloats = []float64{0, math.Copysign(0, -1), 1e-4, 9.9999e-5, 0.00015, 1e7 - 1e-4, 1e7, 1e7 + 0.5,
	9999999.5, 1e9 - 1, 1e9, 1e9 + 0.5, 123.45, -123.45, 0.1 + 0.2, 1.5e-7, 5e-324, math.MaxFloat64,
	1 << 53, -(1 << 53), 99.99, 4744.12, 1e6 + 0.0001, 0.5, -0.25, math.NaN(), math.Inf(1)}

func (g fsGen) edgeFloat() float64 {
	if g.maybe(2) {
		return fsEdgeFloats[g.r.Intn(len(fsEdgeFloats))]
	}
	if g.maybe(2) {
		return float64(g.r.Intn(5000000)-100) / 100
	}
	return g.float()
}

func (g fsGen) cellItems() []fsCellItem {
	switch g.r.Intn(5) {
	case 0:
		return nil
	case 1:
		return []fsCellItem{}
	}
	out := make([]fsCellItem, 1+g.r.Intn(4))
	for i := range out {
		out[i] = fsCellItem{g.str(), g.str(), int(g.int64()), g.edgeFloat()}
	}
	return out
}

func (g fsGen) cellOrders() []fsCellOrder {
	out := make([]fsCellOrder, g.r.Intn(5))
	for i := range out {
		o := &out[i]
		*o = fsCellOrder{ID: g.str(), Customer: g.cust(), Items: g.cellItems(), Tags: g.strs(), Total: g.edgeFloat(),
			Status: g.str(), On: g.maybe(2), N: g.int64(), U: uint32(g.r.Int63()), F32: float32(g.edgeFloat())}
		o.Codes[0] = int16(g.r.Intn(65536) - 32768)
		if it := g.cellItems(); len(it) > 0 {
			o.Fixed[0] = it[0]
		}
	}
	if g.maybe(3) && len(out) > 1 {
		out[1].Status = out[0].Status // constant columns, sometimes
		out[1].Total = out[0].Total
	}
	return out
}

// TestStructFastPathCellRows: rows written from cellv (flattened leaves,
// `^` and `-` cells, every scalar kind, nil and empty item slices, strings
// that need quotes, floats at the writers' bounds) are the general path's
// bytes.
func TestStructFastPathCellRows(t *testing.T) {
	if box.Purego {
		t.Skip("built with -tags purego: the typed fast path is off (it reads fields through unsafe), every value takes the general path")
	}
	if p := fsPlanOf(reflect.TypeOf([]fsCellOrder{})); !p.ok || !p.elem.rows.cells || !fsPlanOf(reflect.TypeOf([]fsCellItem{})).elem.rows.cells {
		t.Fatal("fsCellOrder's rows are not planned as cellv rows")
	}
	g := fsGen{r: rand.New(rand.NewSource(26))}
	fast := 0
	for i := 0; i < 6000; i++ {
		g.calm = i % 8
		v := g.cellOrders()
		lim := defaultLimits
		if g.maybe(4) {
			lim = g.limits()
		}
		var x any = v
		switch i % 3 {
		case 1:
			x = &v
		case 2:
			x = map[string][]fsCellOrder{"a": v, "b|c": v[:len(v)/2]}
		}
		if fsSameSpec(t, i, x, lim, i%5 == 0) {
			fast++
		}
	}
	if fast < 3000 {
		t.Fatalf("fast path took %d values of 6000", fast)
	}
	t.Logf("fast path: %d", fast)
}

type fsStrRow struct {
	S string `json:"s"`
	T string `json:"t"`
	N int    `json:"n"`
}

// TestStructFastPathStringCells: string cells written by the cellv loop
// (its 8-16-byte words, fsPlainCell, the quoting fallback) are the
// general path's bytes, for every ASCII byte (and two multi-byte
// characters) at every position of strings of 1 to 40 bytes, with rows
// of such strings side by side.
func TestStructFastPathStringCells(t *testing.T) {
	if box.Purego {
		t.Skip("built with -tags purego: the typed fast path is off (it reads fields through unsafe), every value takes the general path")
	}
	pieces := []string{"é", "日"}
	for c := 0; c < 128; c++ {
		pieces = append(pieces, string(rune(c)))
	}
	for k, piece := range pieces {
		var rows []fsStrRow
		for n := 1; n <= 40; n++ {
			for i := 0; i+len(piece) <= n; i++ {
				s := strings.Repeat("a", i) + piece + strings.Repeat("b", n-i-len(piece))
				rows = append(rows, fsStrRow{S: s, T: "t" + s, N: n})
			}
		}
		if !fsSame(t, k, rows, defaultLimits) {
			t.Fatalf("piece %q: the fast path fell back", piece)
		}
	}
}
