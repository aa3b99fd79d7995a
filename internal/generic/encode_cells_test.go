package generic

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestFsIntCell: fsIntCell writes strconv's digits and the delimiter,
// after what the buffer held, for every magnitude and both signs, with a
// buffer that must grow and one with room to spare.
func TestFsIntCell(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	vals := []int64{0, 1, 9, 10, 99, 100, 9999, 10000, 999999, 1000000, 9999999, 10000000, 10000001,
		99999999, 100000000, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(1); p <= math.MaxInt64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1)
	}
	for v := int64(0); v < 200000; v++ {
		vals = append(vals, v)
	}
	for i := 0; i < 200000; i++ {
		vals = append(vals, r.Int63n(20000000), r.Int63()>>r.Intn(63))
	}
	for _, v := range vals {
		for _, v := range []int64{v, -v} {
			want := "ab" + strconv.FormatInt(v, 10) + "|"
			for _, b := range [][]byte{[]byte("ab"), append(make([]byte, 0, 64), "ab"...)} {
				got := fsIntCell(b, v)
				if string(got) != want {
					t.Fatalf("fsIntCell(%d) = %q, want %q", v, got, want)
				}
			}
		}
	}
}
