package stream

import (
	"encoding/binary"
	"math/bits"

	"github.com/gcfkit/gcf/lexer"
)

// The fast row path. Most rows of real tables are plain: every cell is a
// bare token of printable ASCII, with no whitespace around it, no quotes
// and no markers. fastCells scans such a row in one pass, classifying each
// cell as it finds its end, and gives up (returning false) at the first
// byte that needs the general scanner, which then redoes the row and
// reports any error. The two must agree on every plain row; the fuzz
// targets and TestFastCellsMatchScanner check that they do.

// plainByte marks the bytes a fast cell may contain: printable ASCII
// except the cell delimiter and the quote.
var plainByte = func() (t [256]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = c != '|' && c != '"'
	}
	t[' '] = true // inside a cell only; edges are checked separately
	return t
}()

// fastCells fills d.cells with the want cells of b[p:], or returns ok
// false. marked reports that a cell is a bare ^ marker.
func (d *Decoder) fastCells(b []byte, p, want int) (ok, marked bool) {
	if cap(d.cells) < want {
		d.cells = make([]lexer.Scalar, 0, want)
	}
	cells := d.cells[:want]
	i := p
	for n := 0; ; n++ {
		if n == want || i >= len(b) {
			return false, false // a width mismatch or an empty last cell: the general path decides
		}
		start := i
		c := b[i]
		s := &cells[n]
		if c >= '0' && c <= '9' || c == '-' {
			// A plain integer, parsed while scanning.
			j := i
			if c == '-' {
				j++
			}
			digits := j
			// On a plain line a run of fewer than eight digits is measured
			// and read a word at a time (digitRun, parseDigits).
			var u, x uint64
			words := false
			if d.plain && len(b) >= 8 {
				var n int
				if n, x = digitRun(b, j); n < 8 {
					j += n
					words = true
				}
			}
			if !words {
				for j < len(b) && b[j] >= '0' && b[j] <= '9' {
					u = u*10 + uint64(b[j]-'0')
					j++
				}
			}
			if nd := j - digits; nd > 0 && nd <= 18 && (b[digits] != '0' || nd == 1) && (j == len(b) || b[j] == '|') {
				if words {
					u = parseDigits(x, nd)
				}
				v := int64(u)
				if c == '-' {
					v = -v
				}
				setCell(s, lexer.KindInt, v, b[start:j], start+1)
				i = j
				goto next
			}
			// A plain decimal fraction (int "." digits), the usual float.
			// Without an exponent only an integer part of more than 300
			// digits can overflow binary64; such a cell is classified below.
			if nd := j - digits; nd > 0 && nd <= 300 && (b[digits] != '0' || nd == 1) && j+1 < len(b) && b[j] == '.' {
				k := j + 1
				if d.plain && len(b) >= 8 {
					if n, _ := digitRun(b, k); n < 8 {
						k += n
					}
				}
				for k < len(b) && b[k] >= '0' && b[k] <= '9' {
					k++
				}
				if k > j+1 && (k == len(b) || b[k] == '|') {
					setCell(s, lexer.KindFloat, 0, b[start:k], start+1)
					i = k
					goto next
				}
			}
		} else if c == '^' {
			// A bare attachment marker; ^{...} takes the general path.
			if j := i + 1; j == len(b) || b[j] == '|' {
				setCell(s, lexer.KindAttach, 0, b[i:j], start+1)
				marked = true
				i = j
				goto next
			}
			return false, false
		} else if c == ' ' {
			return false, false
		}
		// Any other bare token: find its end, eight bytes at a time while
		// they last, then classify it. On a plain line (every byte a
		// plainByte or '|', lexer.CheckLineClass) the end is the next '|'.
		if d.plain {
			for i+8 <= len(b) {
				if m := zeroByte(binary.LittleEndian.Uint64(b[i:]) ^ ('|' * ones)); m != 0 {
					i += bits.TrailingZeros64(m) >> 3
					goto end
				}
				i += 8
			}
			for i < len(b) && b[i] != '|' {
				i++
			}
		end:
			if i == start || b[i-1] == ' ' {
				return false, false // whitespace at an edge
			}
		} else {
			for i+8 <= len(b) {
				if m := stopMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
					i += bits.TrailingZeros64(m) >> 3
					break
				}
				i += 8
			}
			for i < len(b) && plainByte[b[i]] {
				i++
			}
			if i < len(b) && b[i] != '|' || i == start || b[i-1] == ' ' {
				return false, false // a quote, a control or non-ASCII byte, or whitespace at an edge
			}
		}
		switch t := b[start:i]; {
		case c == 't' && string(t) == "true":
			setCell(s, lexer.KindBool, 0, t, start+1)
			s.Bool = true
		case c == 'f' && string(t) == "false":
			setCell(s, lexer.KindBool, 0, t, start+1)
		case c >= '0' && c <= '9' || c == '-' || c == '~':
			if lexer.ClassifyPlainInto(s, t) != nil {
				return false, false
			}
			s.Col = start + 1
		default:
			setCell(s, lexer.KindString, 0, t, start+1)
		}
	next:
		if i == len(b) {
			if n+1 != want {
				return false, false
			}
			d.cells = cells
			return true, marked
		}
		i++ // the delimiter
	}
}

// setCell overwrites every field of *s; field by field it compiles to
// plain stores, cheaper than assigning a composite literal.
func setCell(s *lexer.Scalar, k lexer.Kind, v int64, t []byte, col int) {
	s.Kind, s.Quoted, s.Escaped, s.Bool = k, false, false, false
	s.Int = v
	s.Bytes = t
	s.Col = col
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// stopMask has the high bit set in (at least) the lowest byte of x that is
// not a plainByte: '|', '"', a control byte, DEL or a non-ASCII byte. Bits
// above the lowest such byte may be spurious, so only its position counts.
func stopMask(x uint64) uint64 {
	return zeroByte(x^('|'*ones)) | zeroByte(x^('"'*ones)) | zeroByte(x^(0x7f*ones)) |
		(x-0x20*ones)&^x&highs | x&highs
}

// zeroByte has the high bit set in the lowest zero byte of v (and perhaps
// spuriously above it).
func zeroByte(v uint64) uint64 { return (v - ones) &^ v & highs }

// digitRun returns the number of ASCII digits at b[j:] when it is below
// eight (8 otherwise) and the word of the eight bytes from b[j] (bytes
// past the end read as 0), for a plain line (every byte 0x20-0x7E, so no
// byte's sum carries into the next) of at least eight bytes, j <= len(b).
func digitRun(b []byte, j int) (int, uint64) {
	var x uint64
	if j+8 <= len(b) {
		x = binary.LittleEndian.Uint64(b[j:])
	} else {
		x = binary.LittleEndian.Uint64(b[len(b)-8:]) >> (8 * (j + 8 - len(b)))
	}
	// A byte's high bit: above '9' (c+0x46 >= 0x80) or below '0' (c+0x50 < 0x80).
	nd := ((x + 0x46*ones) | ^(x + 0x50*ones)) & highs
	return bits.TrailingZeros64(nd) >> 3, x
}

// parseDigits returns the value of the n (1-8) ASCII digits in the low
// bytes of x, the first digit lowest.
func parseDigits(x uint64, n int) uint64 {
	x = (x - '0'*ones) << (8 * (8 - n)) // the digits in the high bytes, zeros below
	x = x*10 + x>>8                     // pairs
	return ((x&0x000000FF000000FF)*(100+1000000<<32) + (x>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
}
