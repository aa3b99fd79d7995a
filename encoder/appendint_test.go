package encoder_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
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

// TestAppendFloatShortDecimal: AppendFloat's decimal fast path writes what
// strconv's shortest 'f' form does, on decimal-like values (prices, ratios)
// and on random doubles around its bounds.
func TestAppendFloatShortDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var vals []float64
	for _, b := range []float64{1e-6, 1e-5, 1e-4, 1e-3, 0.1, 1, 10, 1e6, 1e8, 1e9, 1 << 31, 1 << 53} {
		vals = append(vals, b, math.Nextafter(b, 0), math.Nextafter(b, 2*b))
	}
	for i := 0; i < 300000; i++ {
		switch i % 4 {
		case 0: // a decimal with 0 to 6 fraction digits
			p := math.Pow10(r.IntN(7))
			vals = append(vals, float64(r.Int64N(2e9))/p)
		case 1: // random bits in range
			vals = append(vals, math.Float64frombits(r.Uint64()>>1))
		case 2: // a decimal nudged by an ulp
			v := float64(r.Int64N(1e8)) / 100
			vals = append(vals, math.Nextafter(v, math.Inf(1)))
		default:
			vals = append(vals, math.Exp(r.Float64()*60-30))
		}
	}
	// The integral shortcut and the short decimals around their bounds:
	// 300 neighbours each side of each bound, and integers (and tenths,
	// hundredths of them) of every size up to 2^53.
	for _, b := range []float64{0.01, 0.1, 1, 100, 1e9, 1 << 45, 1 << 53, 1e15, 1e16} {
		x, y := b, b
		for i := 0; i < 300; i++ {
			x, y = math.Nextafter(x, math.Inf(1)), math.Nextafter(y, 0)
			vals = append(vals, x, y)
		}
	}
	for i := 0; i < 100000; i++ {
		n := float64(r.Int64N(1 << uint(1+r.IntN(53))))
		vals = append(vals, n, n/10, n/100)
	}
	for _, v := range vals {
		for _, v := range []float64{v, -v} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
				continue
			}
			got, err := encoder.AppendFloat(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			if a := math.Abs(v); a >= 1e-6 && a < 1<<53 {
				if want := strconv.FormatFloat(v, 'f', -1, 64); string(got) != want {
					t.Fatalf("AppendFloat(%v) = %s, want %s", v, got, want)
				}
			} else if back, err := strconv.ParseFloat(string(got), 64); err != nil || back != v || !strings.ContainsRune(string(got), 'e') {
				t.Fatalf("AppendFloat(%v) = %s: want exponent notation that reads back (SPEC §2.3.1)", v, got)
			}
		}
	}
}

// TestAppendFloatFixed4 pins AppendFloat's fast path for 1e-4 <= |v| <
// 1e9 (a decimal of at most 4 fraction digits, found by one rounded
// product) byte for byte against strconv's shortest 'f' form, on two
// million values: decimals of 0 to 7 fraction digits, their neighbours a
// few ulps away, halfway products (n+0.5)/1e4, sums like 0.1+0.2, random
// doubles of the range and both bounds' neighbourhoods.
func TestAppendFloatFixed4(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(v float64) {
		for _, v := range []float64{v, -v} {
			if a := math.Abs(v); !(a >= 1e-4 && a < 1e9) {
				continue
			}
			got, err := encoder.AppendFloat([]byte("x"), v)
			if want := "x" + strconv.FormatFloat(v, 'f', -1, 64); err != nil || string(got) != want {
				t.Fatalf("AppendFloat(%v) = %q, %v; want %q", v, got, err, want)
			}
		}
	}
	for _, b := range []float64{1e-4, 1e-3, 0.5, 1, 1e4, 1e8, 1e9} {
		x, y := b, b
		for i := 0; i < 2000; i++ {
			check(x)
			check(y)
			x, y = math.Nextafter(x, math.Inf(1)), math.Nextafter(y, 0)
		}
	}
	for _, v := range []float64{0.1 + 0.2, 0.3, 1.1 * 1.1, 0.07 * 100, 1.005, 2.675, 1e9 - 1e-4, 1e9 - 0.5, 0.00015, 0.00005 + 0.0001, 999999999.9999} {
		check(v)
	}
	for i := 0; i < 2000000; i++ {
		switch i % 6 {
		case 0: // a decimal with 0 to 7 fraction digits
			check(float64(r.Int64N(1e13)) / math.Pow10(r.IntN(8)))
		case 1: // a short decimal nudged by 1 to 3 ulps
			v := float64(r.Int64N(1e12>>r.IntN(40))) / math.Pow10(r.IntN(5))
			for j := r.IntN(3); j >= 0; j-- {
				v = math.Nextafter(v, math.Inf(2*r.IntN(2)-1))
			}
			check(v)
		case 2: // a halfway product: (n + 0.5) / 1e4
			check((float64(r.Int64N(1e13)) + 0.5) / 1e4)
		case 3: // random bits of the range
			check(1e-4 + r.Float64()*math.Pow10(r.IntN(13)-4))
		case 4: // sums and products of two short decimals
			a, b := float64(r.IntN(1e6))/100, float64(r.IntN(1e4))/1000
			check(a + b)
			check(a * b)
		default: // a price, as the bench data sets hold
			check(float64(100+r.IntN(1e6)) / 100)
		}
	}
}
