package lexer

import (
	"encoding/binary"
	"math/bits"
)

// ScanDigits returns the index just past the run of ASCII decimal digits
// that starts at b[j], and the value of those digits modulo 2^64 (exact
// for runs of 19 digits or fewer). It reads eight bytes at a time while
// eight are left, so a row's numbers cost a few word operations each.
func ScanDigits(b []byte, j int) (uint64, int) {
	var u uint64
	for j+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[j:])
		n := digitRun(x)
		if n == 0 {
			return u, j
		}
		// The n digits, shifted to the top so that the bytes below stand
		// for leading zeros (the bytes above the run are shifted out; a
		// borrow of the subtraction only moves up, into them).
		u = u*pow10u[n] + eightDigits((x-0x3030303030303030)<<(64-8*n))
		j += n
		if n < 8 {
			return u, j
		}
	}
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		u = u*10 + uint64(b[j]-'0')
		j++
	}
	return u, j
}

// digitRun returns how many of the bytes of x, from the lowest, are ASCII
// digits before the first that is not (8 when all are).
func digitRun(x uint64) int {
	hi := x&0xF0F0F0F0F0F0F0F0 ^ 0x3030303030303030                        // non-zero where the high nibble is not 3
	lo := (x&0x0F0F0F0F0F0F0F0F + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0 // non-zero where the low nibble is above 9
	z := hi | lo
	nz := ((z&0x7F7F7F7F7F7F7F7F + 0x7F7F7F7F7F7F7F7F) | z) & 0x8080808080808080 // the high bit of each non-zero byte
	return bits.TrailingZeros64(nz) >> 3
}

// eightDigits returns the value of the eight digits 0-9 in the bytes of x,
// the most significant in the lowest byte.
func eightDigits(x uint64) uint64 {
	x = (x & 0x0F0F0F0F0F0F0F0F) * 2561 >> 8
	x = (x & 0x00FF00FF00FF00FF) * 6553601 >> 16
	return (x & 0x0000FFFF0000FFFF) * 42949672960001 >> 32
}

var pow10u = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000}
