package generic

import (
	"encoding/binary"
	"math/bits"
	"reflect"
	"unsafe"

	"github.com/gcfkit/gcf/lexer"
)

// scanRow is directRow on the row's text: for a plain line (printable
// ASCII without a quote; stream.RawRow reports a line that may be one, and
// scanRow checks its bytes as it reads them) it finds and
// classifies each cell as the stream's row scanner does on its plain path
// (stream's fastCells: the same tokens, the same kinds) and stores it
// straight into its field, without the stream's cells. It returns the
// row's id (-1 without `@N `), its bare `^` marker columns and its absent
// cells, for stream.CommitRow; ok false at anything else (a token the
// plain path leaves to the general scanner, a cell that does not fit its
// field, a width that is not want): the caller then has the row read by
// ReadRow, whose general row stores every field again.
func (t *typedDecoder) scanRow(base unsafe.Pointer, b []byte, ops []directOp) (id int64, marks uint64, absent cellSet, ok bool) {
	want := len(ops)
	i := 0
	id = -1
	if len(b) > 0 && b[0] == '@' {
		j := 1
		var v int64
		for j < len(b) && b[j] >= '0' && b[j] <= '9' && j <= 18 {
			v = v*10 + int64(b[j]-'0')
			j++
		}
		if j == 1 || j >= len(b) || b[j] != ' ' {
			return 0, 0, absent, false
		}
		id, i = v, j+1
	}
	for n := 0; ; n++ {
		if n == want || i >= len(b) {
			return 0, 0, absent, false
		}
		op := &ops[n]
		start := i
		c := b[i]
		if c >= '0' && c <= '9' || c == '-' {
			j := i
			if c == '-' {
				j++
			}
			digits := j
			var u uint64
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				u = u*10 + uint64(b[j]-'0')
				j++
			}
			nd := j - digits
			if nd > 0 && nd <= 18 && (b[digits] != '0' || nd == 1) && (j == len(b) || b[j] == '|') {
				v := int64(u)
				if c == '-' {
					v = -v
				}
				if !t.storeInt(base, op, v, b[start:j], start+1) {
					return 0, 0, absent, false
				}
				i = j
				goto next
			}
			if nd > 0 && nd <= 300 && (b[digits] != '0' || nd == 1) && j+1 < len(b) && b[j] == '.' {
				k := j + 1
				mant := u
				for k < len(b) && b[k] >= '0' && b[k] <= '9' {
					mant = mant*10 + uint64(b[k]-'0') // meaningful with 15 digits or fewer
					k++
				}
				if k > j+1 && (k == len(b) || b[k] == '|') {
					if fd := k - j - 1; nd+fd <= 15 && op.kind == reflect.Float64 {
						// mant < 10^15 < 2^53 and 10^fd are exact, and
						// the quotient is correctly rounded: the value
						// lexer.ParseFloat (and strconv) gives.
						f := float64(mant) / pow10[fd]
						if c == '-' {
							f = -f
						}
						*(*float64)(unsafe.Add(base, op.off)) = f
					} else if op.mode != opSkip {
						s := lexer.Scalar{Kind: lexer.KindFloat, Bytes: b[start:k], Col: start + 1}
						if op.mode != opStore || !t.store(unsafe.Add(base, op.off), op.n, &s) {
							return 0, 0, absent, false
						}
					}
					i = k
					goto next
				}
			}
		} else if c == '^' {
			if j := i + 1; (j == len(b) || b[j] == '|') && n < 64 {
				marks |= 1 << n // the attachment fills the field, or is skipped
				i = j
				goto next
			}
			return 0, 0, absent, false
		} else if c == ' ' {
			return 0, 0, absent, false
		}
		// Any other token runs to the next '|' (the line is plain: its
		// bytes are checked here, as RawRow asks; the others are digits,
		// '-', '.', '^', '@', ' ' and '|').
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			if notPlain(x) {
				return 0, 0, absent, false
			}
			if m := pipeMask(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto end
			}
			i += 8
		}
		for ; i < len(b) && b[i] != '|'; i++ {
			if c := b[i]; c < 0x20 || c >= 0x7f || c == '"' {
				return 0, 0, absent, false
			}
		}
	end:
		if i == start || b[i-1] == ' ' {
			return 0, 0, absent, false
		}
		// A bare string into a string field, the common cell, without a
		// lexer.Scalar; the rest in otherCell.
		if op.kind == reflect.String && c != '~' && (c < '0' || c > '9') && c != '-' &&
			!(c == 't' && string(b[start:i]) == "true") && !(c == 'f' && string(b[start:i]) == "false") {
			*(*string)(unsafe.Add(base, op.off)) = t.b.text(b[start:i])
		} else if !t.otherCell(base, op, b[start:i], c, start+1, n, &absent) {
			return 0, 0, absent, false
		}
	next:
		if i == len(b) {
			if n+1 != want {
				return 0, 0, absent, false
			}
			return id, marks, absent, true
		}
		i++ // the delimiter
	}
}

// otherCell is scanRow's classification and store of the plain token tok
// (c its first byte, at column col of the row, column n of the table) when
// it is not a plain number, nor a bare string into a string field. It
// reports false when the token needs the general row.
func (t *typedDecoder) otherCell(base unsafe.Pointer, op *directOp, tok []byte, c byte, col, n int, absent *cellSet) bool {
	var s lexer.Scalar
	switch {
	case c == 't' && string(tok) == "true":
		s = lexer.Scalar{Kind: lexer.KindBool, Bool: true, Bytes: tok}
	case c == 'f' && string(tok) == "false":
		s = lexer.Scalar{Kind: lexer.KindBool, Bytes: tok}
	case c >= '0' && c <= '9' || c == '-' || c == '~':
		if lexer.ClassifyPlainInto(&s, tok) != nil {
			return false
		}
	default:
		s = lexer.Scalar{Kind: lexer.KindString, Bytes: tok}
	}
	s.Col = col
	switch s.Kind {
	case lexer.KindMissing:
		absent.add(n)
		return true
	case lexer.KindNull:
		return true // a zeroed field, as the general row leaves it
	}
	switch op.mode {
	case opStore:
		return t.store(unsafe.Add(base, op.off), op.n, &s)
	case opAttach:
		return false
	}
	return true
}

// storeInt stores the integer cell v (text tok at column col) through op.
func (t *typedDecoder) storeInt(base unsafe.Pointer, op *directOp, v int64, tok []byte, col int) bool {
	switch op.mode {
	case opSkip:
		return true
	case opAttach:
		return false
	}
	p := unsafe.Add(base, op.off)
	switch op.n.kind {
	case reflect.Int64:
		*(*int64)(p) = v
		return true
	case reflect.Int:
		if int64(int(v)) == v {
			*(*int)(p) = int(v)
			return true
		}
	}
	s := lexer.Scalar{Kind: lexer.KindInt, Int: v, Bytes: tok, Col: col}
	return t.store(p, op.n, &s)
}

// pow10 holds the powers of ten that are exact in a float64, up to the
// fraction lengths scanRow parses itself.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// notPlain reports whether a byte of x is not printable ASCII (0x20-0x7E)
// or is the quote: with x's bytes ASCII, y = x^0x02 has a byte below 0x21
// exactly at a control or the quote (0x22^0x02 = 0x20), and x+1 a high bit
// exactly at DEL.
func notPlain(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	y := x ^ (0x02 * ones)
	return ((y-0x21*ones)&^y|(x+ones)|x)&highs != 0
}

// pipeMask has the high bit set in the lowest byte of x that is '|' (and
// perhaps spuriously above it).
func pipeMask(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	v := x ^ ('|' * ones)
	return (v - ones) &^ v & highs
}
