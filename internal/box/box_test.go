package box

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strconv"
	"testing"
)

// TestLayout checks that boxed values behave like converted ones in every
// way the decoder's callers use them.
func TestLayout(t *testing.T) {
	var (
		ss Slab[string]
		fs Slab[float64]
		is Slab[int64]
		os Slab[[]any]
	)
	var got, want []any
	for i := range 3 * chunk {
		s := "s" + strconv.Itoa(i)
		got = append(got, ss.Box(s), fs.Box(float64(i)+0.5), is.Box(int64(i)<<40), os.Box([]any{s}))
		want = append(want, s, float64(i)+0.5, int64(i)<<40, []any{s})
	}
	runtime.GC() // the chunks must survive through the interfaces alone
	ss, fs, is, os = Slab[string]{}, Slab[float64]{}, Slab[int64]{}, Slab[[]any]{}
	runtime.GC()
	if !reflect.DeepEqual(got, want) {
		t.Fatal("boxed values differ from converted ones")
	}
	for i := range got {
		if i%4 != 3 && got[i] != want[i] {
			t.Fatalf("value %d: %v != %v under ==", i, got[i], want[i])
		}
	}
	if s, ok := got[0].(string); !ok || s != "s0" {
		t.Fatalf("assertion: %q %v", s, ok)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Fatalf("json: %s != %s", a, b)
	}
}
