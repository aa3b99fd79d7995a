package encoder_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/gcfkit/gcf/encoder"
)

// TestAppendIntStrconv: AppendInt writes strconv's decimal form.
func TestAppendIntStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := []int64{0, 9, 10, 99, 100, 101, 999, 1000, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(1); p > 0 && p <= math.MaxInt64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1, -p+1, -p, -p-1, 10*p-1)
	}
	for i := 0; i < 100000; i++ {
		vals = append(vals, int64(r.Uint64())>>r.IntN(64))
	}
	for _, v := range vals {
		for _, v := range []int64{v, -v} {
			got := string(encoder.AppendInt([]byte("x"), v))
			if want := "x" + strconv.FormatInt(v, 10); got != want {
				t.Fatalf("AppendInt(%d) = %q, want %q", v, got, want)
			}
		}
	}
}
