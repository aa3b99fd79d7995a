package stream

import (
	"math/bits"

	"github.com/gcfkit/gcf/lexer"
)

// Cell classes by first byte, for fastCells.
const (
	ccString = iota // a bare string (or a token the classifier decides, below)
	ccNumber        // 0-9 or -
	ccTrue          // t
	ccFalse         // f
	ccTilde         // ~
	ccCaret         // ^
	ccSlow          // a byte the general scanner must judge: space, quote, control, non-ASCII, '|'
)

var cellClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= '0' && c <= '9' || c == '-':
			t[c] = ccNumber
		case c == 't':
			t[c] = ccTrue
		case c == 'f':
			t[c] = ccFalse
		case c == '~':
			t[c] = ccTilde
		case c == '^':
			t[c] = ccCaret
		case c <= ' ' || c == '"' || c == '|' || c >= 0x7f:
			t[c] = ccSlow
		}
	}
	return t
}()

// fastCells fills d.cells with the want cells of b[p:], or returns false.
// It sets d.fastMarkers when a cell is a bare ^ marker. Each cell's end is
// found eight bytes at a time (stopMask), and the cell is classified by
// its first byte.
func (d *Decoder) fastCells(b []byte, p, want int) bool {
	if cap(d.cells) < want {
		d.cells = make([]lexer.Scalar, 0, want)
	}
	cells := d.cells[:want]
	d.fastMarkers = false
	n := len(b)
	i := p
	for k := range cells {
		if i >= n {
			return false
		}
		start := i
		class := cellClass[b[i]]
		if class == ccSlow {
			return false
		}
		var m uint64
		for {
			if m = stopMask(word(b, i)); m != 0 {
				break
			}
			i += 8
		}
		end := i + bits.TrailingZeros64(m)>>3
		last := k == want-1
		if end == n {
			if !last {
				return false
			}
		} else if b[end] != '|' || last {
			return false
		}
		if b[end-1] == ' ' {
			return false
		}
		t := b[start:end]
		s := &cells[k]
		switch class {
		case ccString:
			setCell(s, lexer.KindString, 0, t, start+1)
		case ccNumber:
			if !fastNumber(s, t, start) {
				return false
			}
		case ccTrue:
			if string(t) == "true" {
				setCell(s, lexer.KindBool, 0, t, start+1)
				s.Bool = true
			} else {
				setCell(s, lexer.KindString, 0, t, start+1)
			}
		case ccFalse:
			if string(t) == "false" {
				setCell(s, lexer.KindBool, 0, t, start+1)
			} else {
				setCell(s, lexer.KindString, 0, t, start+1)
			}
		case ccTilde:
			kind := lexer.KindString
			if len(t) == 1 {
				kind = lexer.KindMissing
			}
			setCell(s, kind, 0, t, start+1)
		case ccCaret:
			if len(t) != 1 {
				return false // ^{...}: the general path
			}
			setCell(s, lexer.KindAttach, 0, t, start+1)
			d.fastMarkers = true
		}
		i = end + 1
	}
	d.cells = cells
	return true
}

// fastNumber classifies a token that starts with a digit or '-': a
// canonical integer of up to 18 digits, a plain decimal fraction, null
// ("-"), or a string; anything else (exponents, long integers) returns
// false for the general path.
func fastNumber(s *lexer.Scalar, t []byte, start int) bool {
	j := 0
	if t[0] == '-' {
		j = 1
	}
	digits := j
	var u uint64
	for {
		w := padWord(t, j, '|')
		k := bits.TrailingZeros64(nonDigits(w)) >> 3
		if k > 0 {
			u = u*pow10[k] + parseDigits(w, k)
		}
		j += k
		if k < 8 || j-digits > 18 {
			break
		}
	}
	nd := j - digits
	if nd == 0 || nd > 18 || t[digits] == '0' && nd > 1 {
		if len(t) == 1 { // "-"
			setCell(s, lexer.KindNull, 0, t, start+1)
			return true
		}
		return lexer.ClassifyPlainInto(s, t) == nil && setCol(s, start)
	}
	if j == len(t) {
		v := int64(u)
		if digits == 1 {
			v = -v
		}
		setCell(s, lexer.KindInt, v, t, start+1)
		return true
	}
	if t[j] == '.' && j+1 < len(t) {
		f := j + 1
		for f < len(t) && t[f] >= '0' && t[f] <= '9' {
			f++
		}
		if f == len(t) {
			setCell(s, lexer.KindFloat, 0, t, start+1)
			return true
		}
	}
	return lexer.ClassifyPlainInto(s, t) == nil && setCol(s, start)
}

func setCol(s *lexer.Scalar, start int) bool { s.Col = start + 1; return true }
