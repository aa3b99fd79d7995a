//go:build !purego

package box

import "testing"

type obj []struct{ K string }

func TestBoxDoesNotAllocatePerValue(t *testing.T) {
	var s Slab[string]
	var sink any
	n := testing.AllocsPerRun(chunk*4, func() { sink = s.Box("x") })
	_ = sink
	if n > 0.01 {
		t.Fatalf("%.3f allocations per value", n)
	}
}

func TestBoxRejectsPointerShapes(t *testing.T) {
	for name, f := range map[string]func(){
		"pointer": func() { var s Slab[*int]; s.Box(nil) },
		"map":     func() { var s Slab[map[string]int]; s.Box(nil) },
		"struct":  func() { var s Slab[obj]; s.Box(nil) }, // a slice: accepted
	} {
		func() {
			defer func() {
				if r := recover(); (r != nil) != (name != "struct") {
					t.Errorf("%s: panic %v", name, r)
				}
			}()
			f()
		}()
	}
}

// SetChunk sizes the chunks made after it; the values stay intact across
// chunks.
func TestSetChunk(t *testing.T) {
	var s Slab[string]
	s.SetChunk(4)
	var got []any
	for i := range 9 {
		got = append(got, s.Box(string(rune('a'+i))))
	}
	if cap(s.buf) != 4 || len(s.buf) != 1 {
		t.Fatalf("after 9 values in chunks of 4: len %d cap %d, want 1 and 4", len(s.buf), cap(s.buf))
	}
	for i, v := range got {
		if v != string(rune('a'+i)) {
			t.Fatalf("value %d = %v", i, v)
		}
	}
	s.SetChunk(0)
	s.buf = s.buf[:cap(s.buf)]
	s.Box("z")
	if cap(s.buf) != chunk {
		t.Fatalf("after SetChunk(0): chunk cap %d, want %d", cap(s.buf), chunk)
	}
}
