package rowmap

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// made is what Map must equal: the map made by the runtime.
func made(keys []string, vals []any) map[string]any {
	m := make(map[string]any, len(keys))
	for j, k := range keys {
		m[k] = vals[j]
	}
	return m
}

// TestForgedMaps checks that the maps Map returns behave as the runtime's
// own in every way a caller can use a map, across chunks and collections:
// lookups (of long keys too, which the runtime compares without hashing),
// len, iteration, reflect, encoding/json, maps.Clone, assignment, growth
// past one group, deletion and clear.
func TestForgedMaps(t *testing.T) {
	long := strings.Repeat("k", 70)
	sets := [][]string{
		{"a"}, {"", "x"}, {"name", "price", "qty", "sku"},
		{"customer", "id", "items", "status", "total"},
		{"a", "b", "c", "d", "e", "f", "g", "h"},
		{long, long + "1", "short"},
		{"a", "b", "c", "d", "e", "f", "g", "h", "i"}, // more than a group: made
		{"a", "b", "a"}, // a repeated key: made, the last value kept
	}
	var s Slab
	s.SetChunk(3)
	type record struct {
		keys []string
		vals []any
		m    map[string]any
	}
	var recs []record
	for round := 0; round < 50; round++ {
		for si, keys := range sets {
			k := NewKeys(keys)
			vals := make([]any, len(keys))
			for j := range vals {
				switch j % 4 {
				case 0:
					vals[j] = fmt.Sprint("v", round, si, j)
				case 1:
					vals[j] = float64(round*100 + j)
				case 2:
					vals[j] = nil
				default:
					vals[j] = []any{true, "x"}
				}
			}
			buf := append([]any(nil), vals...)
			m := s.Map(k, buf)
			clear(buf) // Map keeps no reference to the values' slice
			recs = append(recs, record{keys, vals, m})
		}
		runtime.GC()
	}
	for i, r := range recs {
		want := made(r.keys, r.vals)
		if !reflect.DeepEqual(r.m, want) || len(r.m) != len(want) {
			t.Fatalf("record %d: %#v, want %#v", i, r.m, want)
		}
		for k, v := range want {
			if got, ok := r.m[k]; !ok || !reflect.DeepEqual(got, v) {
				t.Fatalf("record %d: [%q] = %v, %v; want %v", i, k, got, ok, v)
			}
		}
		for _, k := range []string{"zz", "b\x00", long + "2", strings.Repeat("k", 71), "nam", "namf"} {
			if _, ok := r.m[k]; ok != hasKey(want, k) {
				t.Fatalf("record %d: lookup of absent %q found it", i, k)
			}
		}
		n := 0
		for k, v := range r.m {
			if wv, ok := want[k]; !ok || !reflect.DeepEqual(v, wv) {
				t.Fatalf("record %d: iteration gave %q: %v", i, k, v)
			}
			n++
		}
		if n != len(want) {
			t.Fatalf("record %d: iteration gave %d members, want %d", i, n, len(want))
		}
		gj, _ := json.Marshal(r.m)
		wj, _ := json.Marshal(want)
		if string(gj) != string(wj) {
			t.Fatalf("record %d: json %s, want %s", i, gj, wj)
		}
		if c := maps.Clone(r.m); !reflect.DeepEqual(c, want) {
			t.Fatalf("record %d: clone %v", i, c)
		}
	}
	// Writes: assignments to present keys, growth past a group, deletion,
	// clear; the neighbours in the chunk are untouched.
	for i, r := range recs {
		want := made(r.keys, r.vals)
		for _, k := range r.keys {
			r.m[k], want[k] = "changed", "changed"
		}
		for j := 0; j < 12; j++ {
			k := fmt.Sprint("new", j)
			r.m[k], want[k] = j, j
		}
		delete(r.m, r.keys[0])
		delete(want, r.keys[0])
		if !reflect.DeepEqual(r.m, want) {
			t.Fatalf("record %d after writes: %#v, want %#v", i, r.m, want)
		}
		if i%2 == 0 {
			clear(r.m)
			r.m["after"] = 1.0
			if len(r.m) != 1 || r.m["after"] != 1.0 {
				t.Fatalf("record %d after clear: %#v", i, r.m)
			}
		}
	}
	runtime.GC()
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// Many small maps of one key set, with collections running while they are
// made and the first ones only reachable through the later ones' values.
func TestForgedMapsUnderGC(t *testing.T) {
	k := NewKeys([]string{"id", "next", "name"})
	var s Slab
	var prev map[string]any
	for i := 0; i < 20000; i++ {
		prev = s.Map(k, []any{float64(i), prev, strings.Repeat("n", i%40)})
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i := 19999; i >= 0; i-- {
		if prev["id"] != float64(i) || prev["name"] != strings.Repeat("n", i%40) || len(prev) != 3 {
			t.Fatalf("map %d: %#v", i, prev)
		}
		prev, _ = prev["next"].(map[string]any)
	}
	if prev != nil {
		t.Fatal("chain too long")
	}
}
