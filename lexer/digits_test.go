package lexer

import (
	"math/rand/v2"
	"testing"
)

// scanDigitsBytewise is ScanDigits one byte at a time, the reference.
func scanDigitsBytewise(b []byte, j int) (uint64, int) {
	var u uint64
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		u = u*10 + uint64(b[j]-'0')
		j++
	}
	return u, j
}

// TestScanDigits: ScanDigits agrees with a byte-at-a-time scan on runs of
// every length (0 to 40 digits) at every offset, followed by every byte
// value, in lines of every length.
func TestScanDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 26))
	for i := 0; i < 300000; i++ {
		pre, run, post := r.IntN(4), r.IntN(41), r.IntN(12)
		b := make([]byte, 0, pre+run+post)
		for range pre {
			b = append(b, byte(r.IntN(256)))
		}
		for range run {
			b = append(b, byte('0'+r.IntN(10)))
		}
		for k := range post {
			c := byte(r.IntN(256))
			if k > 0 && r.IntN(2) == 0 {
				c = byte('0' + r.IntN(10))
			}
			b = append(b, c)
		}
		u, end := ScanDigits(b, pre)
		wu, wend := scanDigitsBytewise(b, pre)
		if u != wu || end != wend {
			t.Fatalf("%q at %d: got %d, %d; want %d, %d", b, pre, u, end, wu, wend)
		}
	}
	for c := 0; c < 256; c++ { // each byte after seven digits and after one
		for _, s := range []string{"1234567", "9"} {
			b := append([]byte(s), byte(c), '0', '0', '0', '0', '0', '0', '0', '0')
			u, end := ScanDigits(b, 0)
			wu, wend := scanDigitsBytewise(b, 0)
			if u != wu || end != wend {
				t.Fatalf("%q: got %d, %d; want %d, %d", b, u, end, wu, wend)
			}
		}
	}
}

// FuzzScanDigits: ScanDigits agrees with a byte-at-a-time scan.
func FuzzScanDigits(f *testing.F) {
	f.Add([]byte("12345678901234567890|x"), 0)
	f.Add([]byte("@12 0|99:"), 1)
	f.Fuzz(func(t *testing.T, b []byte, j int) {
		if j < 0 || j > len(b) {
			return
		}
		u, end := ScanDigits(b, j)
		wu, wend := scanDigitsBytewise(b, j)
		if u != wu || end != wend {
			t.Fatalf("%q at %d: got %d, %d; want %d, %d", b, j, u, end, wu, wend)
		}
	})
}
