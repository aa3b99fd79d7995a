package generic

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/gcfkit/gcf/encoder"
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

// TestFsFloatCell: fsFloatCell writes encoder.AppendFloat's form and the
// delimiter, after what the buffer held: decimals of 0 to 6 fraction
// digits on both sides of 10^7 and of the 4-digit bound, their ulp
// neighbours, both zeros, huge, tiny and non-finite values.
func TestFsFloatCell(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	vals := []float64{0, math.Copysign(0, -1), 1e-4, 1e-5, 0.5, 1, 9999999.9999, 1e7, 1e7 - 0.5, 1e9, 1e9 - 1e-4,
		1e15, 1e21, 5e-324, math.MaxFloat64, 0.1 + 0.2, 306.56, 1064.64, 100.1, 0.0001, 0.001, 12.3456, 12.34567}
	for i := 0; i < 400000; i++ {
		v := float64(r.Int63n(1e12>>uint(r.Intn(30)))) / math.Pow10(r.Intn(7))
		vals = append(vals, v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, 0), r.NormFloat64()*math.Pow10(r.Intn(12)))
	}
	for _, v := range vals {
		for _, v := range []float64{v, -v} {
			want, err := encoder.AppendFloat([]byte("ab"), v)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range [][]byte{[]byte("ab"), append(make([]byte, 0, 64), "ab"...)} {
				got, ok := fsFloatCell(b, v)
				if !ok || string(got) != string(want)+"|" {
					t.Fatalf("fsFloatCell(%v) = %q, %v; want %q", v, got, ok, string(want)+"|")
				}
			}
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, ok := fsFloatCell(nil, v); ok {
			t.Fatalf("fsFloatCell(%v) reports ok", v)
		}
	}
}
