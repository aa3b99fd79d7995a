package generic

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/gcfkit/gcf/encoder"
)

// Cell writers of the typed fast path (encode_structs.go): each appends a
// scalar and the cell delimiter to a buffer of the encoder's own, so they
// may write up to 8 bytes past the result within its capacity.

// fsIntCell appends v's canonical digits (encoder.AppendInt's) and the
// cell delimiter to b. Below 10^7 in magnitude the digits and the
// delimiter are one 8-byte store: the 8 digits of v as 4 pairs, the
// leading zeros shifted out.
func fsIntCell(b []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	if u >= 1e7 {
		return encoder.AppendCellSep(encoder.AppendInt(b, v))
	}
	l := len(b)
	if cap(b)-l < 9 {
		b = slices.Grow(b, 9)
	}
	if v < 0 {
		b = b[:l+1]
		b[l] = '-'
		l++
	}
	hi, lo := u/10000, u%10000
	// Byte i of w is the digit of 10^(7-i), 0 to 9: the first digit in
	// the low byte, as PutUint64 stores it first.
	w := uint64(fsDigitPairs[hi/100]) | uint64(fsDigitPairs[hi%100])<<16 |
		uint64(fsDigitPairs[lo/100])<<32 | uint64(fsDigitPairs[lo%100])<<48
	// The leading zero digits (7 at most: 0 is written "0") are the
	// trailing zero bytes of w; u < 10^7 leaves at least one.
	z := uint(bits.TrailingZeros64(w|1<<56)) &^ 7
	w = (w+0x3030303030303030)>>z | encoder.CellSep<<(64-z)
	binary.LittleEndian.PutUint64(b[l:l+8], w)
	return b[:l+9-int(z>>3)]
}

// fsDigitPairs[n] is the two decimal digits of n < 100 as values 0 to 9,
// the tens in the low byte.
var fsDigitPairs = func() (t [100]uint16) {
	for i := range t {
		t[i] = uint16(i/10) | uint16(i%10)<<8
	}
	return t
}()
