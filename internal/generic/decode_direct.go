package generic

import (
	"reflect"
	"unsafe"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// scanRow is directRow on the row's text: for a plain line (printable
// ASCII without a quote, which stream.RawRow reports) it has the stream's
// plain-row scanner (stream.ScanPlainRow, the one the stream's own rows go
// through) find and classify the cells, and stores each straight into its
// field, without the stream's row checks or an event. It returns the row's id
// (-1 without `@N `), its bare `^` marker columns and its absent cells,
// for stream.CommitRow; ok false at anything else (a token the plain
// scanner leaves to the general one, a cell that does not fit its field, a
// width that is not len(ops)): the caller then has the row read by
// ReadRow, whose general row stores every field again.
func (t *typedDecoder) scanRow(base unsafe.Pointer, b []byte, ops []directOp) (id int64, marks uint64, absent cellSet, ok bool) {
	if cap(t.cells) < len(ops) {
		t.cells = make([]lexer.Scalar, len(ops))
	}
	cells := t.cells[:len(ops)]
	if id, ok = stream.ScanPlainRow(b, cells); !ok {
		return 0, 0, absent, false
	}
	for n := range cells {
		op, c := &ops[n], &cells[n]
		switch c.Kind {
		case lexer.KindInt:
			if !t.storeInt(base, op, c.Int, c.Bytes, c.Col) {
				return 0, 0, absent, false
			}
			continue
		case lexer.KindString:
			if op.mode == opStore && op.n.kind == reflect.String {
				*(*string)(unsafe.Add(base, op.off)) = t.b.text(c.Bytes)
				continue
			}
		case lexer.KindFloat:
			if op.mode == opStore && op.n.kind == reflect.Float64 {
				if f, short := shortDecimal(c.Bytes); short {
					*(*float64)(unsafe.Add(base, op.off)) = f
					continue
				}
			}
		case lexer.KindMissing:
			absent.add(n)
			continue
		case lexer.KindNull:
			continue // a zeroed field, as the general row leaves it
		case lexer.KindAttach:
			if n >= 64 {
				return 0, 0, absent, false
			}
			marks |= 1 << n // the attachment fills the field, or is skipped
			continue
		}
		switch op.mode {
		case opStore:
			if !t.store(unsafe.Add(base, op.off), op.n, c) {
				return 0, 0, absent, false
			}
		case opAttach:
			return 0, 0, absent, false
		}
	}
	return id, marks, absent, true
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

// shortDecimal returns the value of a plain decimal t (-?digits.digits, as
// the stream's plain-row scanner classifies lexer.KindFloat) of 15 digits
// or fewer, with ok true: the digits (< 10^15 < 2^53) and the power of ten
// are exact and the quotient is correctly rounded, the value
// lexer.ParseFloat (and strconv) gives. Longer decimals are the caller's.
func shortDecimal(t []byte) (f float64, ok bool) {
	neg := len(t) > 0 && t[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	if len(t)-i > 16 {
		return 0, false
	}
	var mant uint64
	frac := -1
	for ; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
		case c == '.' && frac < 0:
			frac = len(t) - i - 1
		default:
			return 0, false // an exponent or sign: lexer.ParseFloat's
		}
	}
	if frac < 1 || frac > 15 {
		return 0, false
	}
	f = float64(mant) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// pow10 holds the powers of ten that are exact in a float64, up to the
// fraction lengths shortDecimal takes.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}
