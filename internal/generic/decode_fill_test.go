package generic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
)

// TestFillCacheConcurrent: payloads whose tables declare different headers
// (column subsets and orders, path columns, shared attachment schemas),
// decoded into one type again and again from many goroutines at once
// through the fill plans fillCaches shares, give what the tree path gives.
// Run under -race it also checks that the shared plans are only read.
func TestFillCacheConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 33))
	var payloads [][]byte
	var want []saRoot
	for len(payloads) < 60 {
		keys := []string{"id", "total", "status"}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		keys = keys[:1+r.IntN(3)]
		orders := make([]any, 1+r.IntN(5))
		for j := range orders {
			o := saObject(r, keys, false)
			if r.IntN(2) == 0 {
				o["customer"] = saObject(r, []string{"name", "email"}, false)
			}
			o["items"] = saItems(r, false)
			if r.IntN(2) == 0 {
				o["parts"] = saItems(r, false)
			}
			orders[j] = o
		}
		data, err := Marshal(map[string]any{"orders": orders})
		if err != nil {
			t.Fatal(err)
		}
		var c saRoot
		if err := treeUnmarshal(data, &c); err != nil {
			t.Fatalf("tree path: %v\n%s", err, data)
		}
		payloads, want = append(payloads, data), append(want, c)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for round := 0; round < 20; round++ {
				for k := range payloads {
					i := (k + g*7 + round) % len(payloads)
					var a saRoot
					if err := Unmarshal(payloads[i], &a); err != nil {
						errs <- fmt.Sprintf("payload %d: %v\n%s", i, err, payloads[i])
						return
					}
					if !reflect.DeepEqual(a, want[i]) {
						ja, _ := json.Marshal(a)
						jc, _ := json.Marshal(want[i])
						errs <- fmt.Sprintf("payload %d:\ntyped %s\ntree  %s\n%s", i, ja, jc, payloads[i])
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// fcRow is a type only TestFillCacheBounded decodes into.
type fcRow struct {
	A int `json:"a"`
}

// TestFillCacheBounded: a stream of 10,000 distinct table headers into one
// type leaves at most maxCachedFills plans cached for it, and every
// payload still decodes.
func TestFillCacheBounded(t *testing.T) {
	for i := 0; i < 10000; i++ {
		data := fmt.Sprintf("GCF profile=generic\n## rows [2]{a,k%d}\n%d|x\n%d|y\n", i, i, i+1)
		var v struct {
			Rows []fcRow `json:"rows"`
		}
		if err := Unmarshal([]byte(data), &v); err != nil || len(v.Rows) != 2 || v.Rows[0].A != i || v.Rows[1].A != i+1 {
			t.Fatalf("header %d: %v %+v", i, err, v)
		}
	}
	ci, ok := fillCaches.Load(reflect.TypeFor[fcRow]())
	if !ok {
		t.Fatal("no fill plans cached for fcRow")
	}
	c := ci.(*fillCache)
	c.mu.RLock()
	n := len(c.m)
	c.mu.RUnlock()
	if n != maxCachedFills {
		t.Fatalf("%d fill plans cached for fcRow, want %d", n, maxCachedFills)
	}
}

// TestFillCacheReused: a second Unmarshal of a payload reuses the first
// one's fill plan (the same nodes) instead of building another.
func TestFillCacheReused(t *testing.T) {
	type row struct {
		B string `json:"b"`
		C int    `json:"c"`
	}
	data := []byte("GCF profile=generic\n## rows [2]{b,c}\nx|1\ny|2\n")
	var v struct {
		Rows []row `json:"rows"`
	}
	if err := Unmarshal(data, &v); err != nil || len(v.Rows) != 2 {
		t.Fatalf("%v %+v", err, v)
	}
	get := func() *tableFill {
		ci, ok := fillCaches.Load(reflect.TypeFor[row]())
		if !ok {
			t.Fatal("no fill plans cached")
		}
		c := ci.(*fillCache)
		c.mu.RLock()
		defer c.mu.RUnlock()
		if len(c.m) != 1 {
			t.Fatalf("%d plans cached, want 1", len(c.m))
		}
		for _, f := range c.m {
			return f
		}
		return nil
	}
	first := get()
	if err := Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != first || first == nil {
		t.Fatalf("plan %p after the second decode, %p after the first", got, first)
	}
}
