package generic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// Targets whose attachment tables share their schema (the Orders shape):
// typedDecoder.attachShared opens them without an event.
type saItem struct {
	SKU   string  `json:"sku"`
	Name  string  `json:"name"`
	Qty   int8    `json:"qty"`
	Price float64 `json:"price"`
}

type saOrder struct {
	ID       string `json:"id"`
	Customer struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"customer"`
	Items  []saItem `json:"items"`
	Parts  []saItem `json:"parts"`
	Total  float64  `json:"total"`
	Status string   `json:"status"`
}

type saRoot struct {
	Orders []saOrder `json:"orders"`
}

// saValue returns a random value for key k: mostly one that fits, with
// odd ones (other types, out of range, null) when odd.
func saValue(r *rand.Rand, k string, odd bool) (any, bool) {
	if odd {
		switch r.IntN(10) {
		case 0:
			return nil, true
		case 1:
			return nil, false
		case 2:
			return []any{"x", 300, 1.5, true, "", -129}[r.IntN(6)], true
		}
	}
	switch k {
	case "sku", "id", "status", "name":
		return []string{"SKU-1", "Blue Lever", "a", "paid", "x y z", "ORD-00001"}[r.IntN(6)], true
	case "email":
		return "a.b@example.com", true
	case "qty":
		return r.IntN(20), true
	case "price", "total":
		return float64(r.IntN(100000)) / 100, true
	}
	return nil, true
}

func saObject(r *rand.Rand, keys []string, odd bool) map[string]any {
	o := map[string]any{}
	for _, k := range keys {
		if v, ok := saValue(r, k, odd); ok {
			o[k] = v
		}
	}
	return o
}

func saItems(r *rand.Rand, odd bool) any {
	if odd && r.IntN(8) == 0 {
		return []any{1, "x"}
	}
	a := make([]any, r.IntN(4))
	for i := range a {
		a[i] = saObject(r, []string{"sku", "name", "qty", "price"}, odd)
	}
	return a
}

var saShared = regexp.MustCompile(`(?m)^ *\.(items|parts) \[[0-9]+\]$`)

// saMutate damages one line of data the ways a shared attachment's head
// line or its rows can be wrong.
func saMutate(r *rand.Rand, data string) string {
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	i := 2 + r.IntN(len(lines)-2)
	l := lines[i]
	switch r.IntN(12) {
	case 0:
		lines = append(lines[:i], lines[i+1:]...)
	case 1:
		lines = append(lines[:i+1], lines[i:]...)
	case 2:
		lines[i] = strings.Replace(l, "]", "1]", 1)
	case 3:
		lines[i] = strings.Replace(l, "[", "[?", 1)
	case 4:
		lines[i] = strings.Replace(l, "]", ":]", 1)
	case 5:
		lines[i] = "  " + l
	case 6:
		lines[i] = l + " x"
	case 7:
		lines[i] = strings.Replace(l, ".items", ".parts", 1)
	case 8:
		lines[i] = strings.Replace(l, "^", "-", 1)
	case 9:
		lines[i] = strings.Replace(l, "[", "[0", 1)
	case 10:
		b := []byte(l)
		if len(b) > 0 {
			const set = "x|^.[]{} \"\x01\xff9"
			b[r.IntN(len(b))] = set[r.IntN(len(set))]
		}
		lines[i] = string(b)
	case 11:
		lines[i] = strings.Replace(l, "|", "||", 1)
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestSharedAttachmentMatchesTree: Unmarshal into rows whose attachment
// tables share their schema (the tables attachShared opens without an
// event) gives what the tree path gives, on payloads as the encoder
// writes them and on each damaged in one line: the same value, or the
// same error (category, line and column; the class for type errors).
func TestSharedAttachmentMatchesTree(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 31))
	shared, failed := 0, 0
	for i := 0; i < 3000; i++ {
		odd := r.IntN(3) == 0
		orders := make([]any, 1+r.IntN(6))
		for j := range orders {
			o := saObject(r, []string{"id", "total", "status"}, odd)
			o["customer"] = saObject(r, []string{"name", "email"}, odd)
			if !odd || r.IntN(6) != 0 {
				o["items"] = saItems(r, odd)
			}
			if r.IntN(3) == 0 {
				o["parts"] = saItems(r, odd)
			}
			orders[j] = o
		}
		b, err := Marshal(map[string]any{"orders": orders})
		if err != nil {
			t.Fatal(err)
		}
		data := string(b)
		if i%2 == 1 {
			data = saMutate(r, data)
		}
		if saShared.MatchString(data) {
			shared++
		}
		var a, c saRoot
		errA := Unmarshal([]byte(data), &a)
		errC := treeUnmarshal([]byte(data), &c)
		if errClass(errA) != errClass(errC) || fmt.Sprint(errA) != fmt.Sprint(errC) && !strings.Contains(errClass(errA), "/type:") {
			t.Fatalf("payload %d: typed %v, tree %v\n%s", i, errA, errC, data)
		}
		if errA != nil {
			failed++
			continue
		}
		if !reflect.DeepEqual(a, c) {
			ja, _ := json.Marshal(a)
			jc, _ := json.Marshal(c)
			t.Fatalf("payload %d:\ntyped %s\ntree  %s\n%s", i, ja, jc, data)
		}
	}
	if shared < 1000 || failed < 500 {
		t.Fatalf("only %d payloads with a shared attachment table, %d failing", shared, failed)
	}
	t.Logf("%d payloads with a shared attachment table, %d failing", shared, failed)
}

// TestSharedAttachmentCases: shared attachment tables in orders the
// encoder does not write (a later column's table first, each with a type
// error: the tree path reports the earlier column's), and head lines the
// stream must refuse, decode as the tree path has them.
func TestSharedAttachmentCases(t *testing.T) {
	const head = "GCF profile=generic\n## orders [2]{id,items,parts}\n@0 a|^|^\n.items [1]{sku,name,qty,price}\n    s|n|1|2.5\n.parts [1]{sku,name,qty,price}\n    s|n|1|2.5\n"
	cases := []string{
		"@1 b|^|^\n.parts [1]\n    s|n|x|2.5\n.items [1]\n    s|n|1|true\n",
		"@1 b|^|^\n.parts [1]\n    s|n|1|2.5\n.items [1]\n    s|n|300|2.5\n",
		"@1 b|^|^\n.items [1]\n    s|n|300|2.5\n.parts [1]\n    s|n|x|2.5\n",
		"@1 b|^|^\n.parts [2]\n    s|n|1|2.5\n    t|m|2|3.5\n.items [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n    s|n|1|2.5\n.items [1]\n    s|n|1|2.5\n",
		"@1 b|^|-\n.items [1]\n    s|n|1|2.5\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [2]\n    s|n|1|2.5\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n    s|n|1|2.5\n    s|n|1|2.5\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n    s|n|1\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n    @0 s|n|1|2.5\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n      s|n|1|2.5\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n  .items [1]\n    s|n|1|2.5\n  .parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [0]\n.parts [?]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n    s|n|1|2.5\n.parts [1]\n    s|n|1|2.5\n.extra [1]\n    1\n",
		"@1 b|^|^\n.items [1]\n    s|\"n|m\"|1|2.5\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n    s|n|1|2.5\n.parts [1]\n    s|n\xff|1|2.5\n",
		"@1 b|^|^\n.items [1]\xff\n    s|n|1|2.5\n.parts [1]\n    s|n|1|2.5\n",
		"@1 b|^|^\n.items [1]\n    s|n|1|2.5\n.parts [1]\n",
	}
	for i, c := range cases {
		data := []byte(head + c)
		var a, b saRoot
		errA := Unmarshal(data, &a)
		errB := treeUnmarshal(data, &b)
		if errClass(errA) != errClass(errB) || fmt.Sprint(errA) != fmt.Sprint(errB) && !strings.Contains(errClass(errA), "/type:") {
			t.Errorf("case %d: typed %v, tree %v\n%s", i, errA, errB, data)
			continue
		}
		if errA == nil && !reflect.DeepEqual(a, b) {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			t.Errorf("case %d:\ntyped %s\ntree  %s", i, ja, jb)
		}
	}
}
