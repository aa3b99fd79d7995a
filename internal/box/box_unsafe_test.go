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
