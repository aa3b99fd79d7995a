package generic

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/gcfkit/gcf/encoder"
)

// Cell writers of the typed fast path (encode_structs.go): each appends a
// scalar and the cell delimiter; with spill, the bytes of the buffer past
// its length are the encoder's own, and the writer may store up to 8
// bytes past the result within its capacity.

// fsPlainCell is encoder.AppendPlainCell (the same bytes, and true
// wherever it is true), with strings of 4 to 32 bytes checked and copied
// a word at a time (fsSpecial): 4 to 7 bytes as two overlapping 4-byte
// words, 8 or more as 8-byte words, the last one ending at the string's
// end. A word with a byte to look at leaves s to AppendPlainCell. It is
// also true for such a string whose first byte is 't' or 'f' but which
// is not "true" or "false": that is all encoder.NeedsQuote looks at
// first for those bytes, so it would pass s too.
func fsPlainCell(b []byte, s string) ([]byte, bool) {
	n := len(s)
	if n < 4 || n > 32 || !encoder.PlainEnds(s) {
		return fsPlainStart(b, s)
	}
	l := len(b)
	if cap(b)-l < 32 {
		b = slices.Grow(b, 32)
	}
	// Every load below is within s (read, never written), every store
	// within the 32 bytes of room after l.
	sp := unsafe.Pointer(unsafe.StringData(s))
	dp := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), l)
	if n < 8 {
		w0, w1 := fsLoad32(sp), fsLoad32(unsafe.Add(sp, n-4))
		if fsSpecial(uint64(w0)|uint64(w1)<<32) != 0 {
			return encoder.AppendPlainCell(b, s)
		}
		fsStore32(dp, w0)
		fsStore32(unsafe.Add(dp, n-4), w1)
		return b[:l+n], true
	}
	var bad uint64
	for i := 0; i < n-8; i += 8 {
		w := fsLoad64(unsafe.Add(sp, i))
		bad |= fsSpecial(w)
		fsStore64(unsafe.Add(dp, i), w)
	}
	w := fsLoad64(unsafe.Add(sp, n-8))
	if bad|fsSpecial(w) != 0 {
		return encoder.AppendPlainCell(b, s)
	}
	fsStore64(unsafe.Add(dp, n-8), w)
	return b[:l+n], true
}

// fsPlainStart is fsPlainCell for a string it does not take at once: one
// of 4 to 32 bytes that ends in a byte other than a space and starts
// with 't' or 'f' without being "true" or "false" passes NeedsQuote's
// first-byte checks, so its first byte is copied and fsPlainCell checks
// the rest (as a cell of its own, which is stricter); any other string,
// or a rest it does not take, is AppendPlainCell's.
func fsPlainStart(b []byte, s string) ([]byte, bool) {
	n := len(s)
	if n >= 4 && n <= 32 && s[n-1] != ' ' && (s[0] == 't' || s[0] == 'f') && s != "true" && s != "false" {
		l := len(b)
		out, ok := fsPlainCell(append(b, s[0]), s[1:])
		if ok {
			return out, true
		}
		b = out[:l] // out is b and s[0] when fsPlainCell is false
	}
	return encoder.AppendPlainCell(b, s)
}

// fsSpecial has the high bit set in the bytes of w that may be ones
// AppendPlainCell stops at: a control byte (< 0x20), a byte from 0x7B up
// (also '|', and every byte of a multi-byte sequence), '[', '\\', ']',
// '"' or ','. It also flags the plain '{', '}', '~' and DEL, and no other
// byte: each lane's sums stay below 0x100 (x has no high bit), so no
// carry crosses into the next byte.
func fsSpecial(w uint64) uint64 {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	x := w &^ msb                                          // bytes from 0x80 up are flagged by w itself
	ge20 := x + (0x80-0x20)*lsb                            // high bit: x >= 0x20
	ge7B := x + (0x80-0x7B)*lsb                            // x >= 0x7B
	inBr := (x + (0x80-0x5B)*lsb) &^ (x + (0x80-0x5E)*lsb) // 0x5B <= x < 0x5E
	neQ := (x ^ '"'*lsb) + 0x7F*lsb                        // x != '"'
	neC := (x ^ ','*lsb) + 0x7F*lsb                        // x != ','
	return (w | ge7B | inBr | ^(ge20 & neQ & neC)) & msb
}

// fsIntCell appends v's canonical digits (encoder.AppendInt's) and the
// cell delimiter to b. Below 10^7 in magnitude the digits and the
// delimiter are one 8-byte store (fsDigits), with spill.
func fsIntCell(b []byte, v int64, spill bool) []byte {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	if u >= 1e7 || !spill {
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
	w, n := fsDigits(u)
	binary.LittleEndian.PutUint64(b[l:l+8], w|encoder.CellSep<<(8*n))
	return b[:l+n+1]
}

// fsFloatCell appends v's canonical form (encoder.AppendFloat's) and the
// cell delimiter to b; false for a non-finite v. A decimal of at most 4
// fraction digits (encoder.Fixed4) below 10^7 is two 8-byte stores: the
// integer digits (fsDigits), then the point, the fraction digits and the
// delimiter, with spill.
func fsFloatCell(b []byte, v float64, spill bool) ([]byte, bool) {
	t, ok := encoder.Fixed4(v)
	if !ok || t >= 1e11 || !spill {
		b, err := encoder.AppendFloat(b, v)
		return encoder.AppendCellSep(b), err == nil
	}
	l := len(b)
	if cap(b)-l < 24 {
		b = slices.Grow(b, 24)
	}
	if v < 0 {
		b = b[:l+1]
		b[l] = '-'
		l++
	}
	ip, f := t/10000, t%10000
	w, n := fsDigits(ip)
	binary.LittleEndian.PutUint64(b[l:l+8], w)
	l += n
	if f == 0 {
		b = b[:l+1]
		b[l] = encoder.CellSep
		return b, true
	}
	// The 4 fraction digits, the first in the low byte; the trailing
	// zeros (3 at most, f > 0) are the high zero bytes.
	d := uint32(fsDigitPairs[f/100]) | uint32(fsDigitPairs[f%100])<<16
	k := 4 - bits.LeadingZeros32(d)>>3
	x := '.' | uint64(d+0x30303030)&(1<<(8*k)-1)<<8 | encoder.CellSep<<(8*k+8)
	binary.LittleEndian.PutUint64(b[l:l+8], x)
	return b[:l+k+2], true
}

// fsIndent is encoder.AppendIndent: up to 4 levels (8 spaces) are one
// 8-byte store, with spill.
func fsIndent(b []byte, level int, spill bool) []byte {
	if level > 8/encoder.IndentWidth || !spill {
		return encoder.AppendIndent(b, level)
	}
	l := len(b)
	if cap(b)-l < 8 {
		b = slices.Grow(b, 8)
	}
	binary.LittleEndian.PutUint64(b[l:l+8], encoder.IndentByte*0x0101010101010101)
	return b[:l+encoder.IndentWidth*level]
}

// fsItemIndex appends the `@i` mark of row i and its word separator, as
// encoder.AppendItemIndex and AppendWordSep do; below 10^7 the digits
// and the separator are one 8-byte store (fsDigits), with spill.
func fsItemIndex(b []byte, i int, spill bool) []byte {
	if uint(i) >= 1e7 || !spill {
		return encoder.AppendWordSep(encoder.AppendItemIndex(b, i))
	}
	l := len(b)
	if cap(b)-l < 9 {
		b = slices.Grow(b, 9)
	}
	b = b[:l+1]
	b[l] = encoder.ItemMark
	w, n := fsDigits(uint64(i))
	binary.LittleEndian.PutUint64(b[l+1:l+9], w|encoder.WordSep<<(8*n))
	return b[:l+n+2]
}

// fsDigits returns the decimal digits of u < 10^7 in the low n bytes of
// w, the first digit in the low byte (as PutUint64 stores it first), and
// zero bytes above them.
func fsDigits(u uint64) (w uint64, n int) {
	hi, lo := u/10000, u%10000
	// Byte i of w is the digit of 10^(7-i), 0 to 9.
	w = uint64(fsDigitPairs[hi/100]) | uint64(fsDigitPairs[hi%100])<<16 |
		uint64(fsDigitPairs[lo/100])<<32 | uint64(fsDigitPairs[lo%100])<<48
	// The leading zero digits (7 at most: 0 is written "0") are the
	// trailing zero bytes of w; u < 10^7 leaves at least one.
	z := uint(bits.TrailingZeros64(w|1<<56)) &^ 7
	return (w + 0x3030303030303030) >> z, 8 - int(z>>3)
}

// fsDigitPairs[n] is the two decimal digits of n < 100 as values 0 to 9,
// the tens in the low byte.
var fsDigitPairs = func() (t [100]uint16) {
	for i := range t {
		t[i] = uint16(i/10) | uint16(i%10)<<8
	}
	return t
}()
