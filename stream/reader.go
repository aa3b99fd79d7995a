package stream

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"

	"github.com/gcfkit/gcf/lexer"
)

// lineReader splits an io.Reader into lines without the terminator (LF,
// with a trailing CR removed). Its buffer grows up to the line limit and is
// then reused, so memory is bounded by the longest line.
type lineReader struct {
	r        io.Reader
	buf      []byte // own, or the caller's input after resetBytes
	own      []byte // the buffer reset reads into (nil until an io.Reader needs one)
	start    int    // first unconsumed byte in buf
	end      int    // end of valid data in buf
	eof      bool
	rerr     error
	offset   int64 // input offset of buf[0]
	maxLine  int
	maxBytes int64
	lineNo   int
	lineOff  int64 // offset of the current line
	empty    int   // consecutive reads that returned nothing
}

const minRead = 32 << 10

func (lr *lineReader) reset(r io.Reader, maxLine int, maxBytes int64) {
	lr.r = r
	if cap(lr.own) == 0 && r != nil {
		lr.own = make([]byte, minRead)
	}
	lr.buf = lr.own[:cap(lr.own)]
	lr.start, lr.end = 0, 0
	lr.eof = r == nil
	lr.rerr = nil
	lr.offset = 0
	lr.maxLine = maxLine
	lr.maxBytes = maxBytes
	lr.lineNo = 0
	lr.lineOff = 0
}

// resetBytes makes the reader serve data directly, without copying and
// without allocating a read buffer; a later reset never reads into data.
func (lr *lineReader) resetBytes(data []byte, maxLine int, maxBytes int64) {
	lr.reset(nil, maxLine, maxBytes)
	lr.buf = data
	lr.end = len(data)
	lr.eof = true
}

// next returns the next line, or io.EOF. The slice is valid until the next call.
func (lr *lineReader) next() ([]byte, error) {
	scanFrom := lr.start
	for {
		if i := bytes.IndexByte(lr.buf[scanFrom:lr.end], '\n'); i >= 0 {
			nl := scanFrom + i
			if nl-lr.start > lr.maxLine {
				return nil, lr.tooLong()
			}
			line := lr.buf[lr.start:nl]
			lr.lineOff = lr.offset + int64(lr.start)
			lr.start = nl + 1
			lr.lineNo++
			return trimCR(line), nil
		}
		if lr.end-lr.start > lr.maxLine {
			return nil, lr.tooLong()
		}
		if lr.eof {
			if lr.rerr != nil {
				return nil, lr.rerr
			}
			if lr.start == lr.end {
				return nil, io.EOF
			}
			line := lr.buf[lr.start:lr.end]
			lr.lineOff = lr.offset + int64(lr.start)
			lr.start = lr.end
			lr.lineNo++
			return trimCR(line), nil
		}
		scanned := lr.end - lr.start
		lr.fill()
		scanFrom = lr.start + scanned
	}
}

// nextClean is next with lexer.CheckLineClass's answer for a line that
// is already in the buffer, ends in LF and holds only bytes 0x20-0x7F: one
// pass finds the newline and the line's class together (plain reports
// that no byte is DEL or the quote; controls is false and there is no
// error). Any other line (a control byte, CR, non-ASCII, over the limit,
// not yet read in full) gives ok false and leaves the reader as it was,
// for next and CheckLineClass to decide.
func (lr *lineReader) nextClean() (line []byte, plain, ok bool) {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	b := lr.buf[lr.start:lr.end]
	// acc collects the high bits (non-ASCII); odd has a high bit for DEL
	// (x+1 carries into it) or the quote.
	var acc, odd uint64
	for i := 0; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// The lowest byte below 0x20 is marked exactly (no borrow reaches
		// it from below): the newline, or a control byte.
		if low := (x - 0x20*lo) &^ x & hi; low != 0 {
			k := bits.TrailingZeros64(low) >> 3
			nl := i + k
			if b[nl] != '\n' || nl > lr.maxLine {
				return nil, false, false
			}
			x &= 1<<(8*k) - 1 // the bytes before the newline
			q := x ^ ('"' * lo)
			if (acc|x)&hi != 0 {
				return nil, false, false
			}
			odd |= (x + lo) | (q-lo)&^q
			lr.lineOff = lr.offset + int64(lr.start)
			lr.start += nl + 1
			lr.lineNo++
			return b[:nl], odd&hi == 0, true
		}
		acc |= x
		q := x ^ ('"' * lo)
		odd |= (x + lo) | (q-lo)&^q
	}
	return nil, false, false
}

func (lr *lineReader) tooLong() error {
	return &lexer.SyntaxError{Line: lr.lineNo + 1, Column: lr.maxLine + 1, Offset: lr.offset + int64(lr.start),
		Category: lexer.LineTooLong, Msg: "line exceeds the line-length limit"}
}

// fill reads more input, compacting or growing the buffer (up to the line limit).
func (lr *lineReader) fill() {
	if lr.start > 0 {
		n := copy(lr.buf, lr.buf[lr.start:lr.end])
		lr.offset += int64(lr.start)
		lr.start, lr.end = 0, n
	}
	if lr.end == len(lr.buf) {
		size := 2 * len(lr.buf)
		if limit := lr.maxLine + minRead; size > limit {
			size = limit
		}
		if size <= len(lr.buf) {
			size = len(lr.buf) + minRead
		}
		nb := make([]byte, size)
		copy(nb, lr.buf[:lr.end])
		lr.buf, lr.own = nb, nb
	}
	n, err := lr.r.Read(lr.buf[lr.end:])
	if n < 0 || n > len(lr.buf)-lr.end {
		n, err = 0, errors.New("reader returned an invalid count")
	}
	if n == 0 && err == nil {
		if lr.empty++; lr.empty >= 100 {
			err = io.ErrNoProgress
		}
	} else {
		lr.empty = 0
	}
	lr.end += n
	if lr.maxBytes > 0 && lr.offset+int64(lr.end) > lr.maxBytes {
		lr.eof = true
		lr.rerr = &lexer.SyntaxError{Line: lr.lineNo + 1, Column: 1, Offset: lr.maxBytes,
			Category: lexer.PayloadTooLarge, Msg: "payload exceeds the total size limit"}
		return
	}
	if err != nil {
		lr.eof = true
		if !errors.Is(err, io.EOF) {
			lr.rerr = &lexer.SyntaxError{Line: lr.lineNo + 1, Column: 1, Offset: lr.offset + int64(lr.end),
				Category: lexer.ReadFailure, Msg: "reading input: " + err.Error(), Err: err}
		}
	}
}

func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}
