package transcode

import (
	"bytes"
	"errors"
	"io"
)

// errFallback stops a pass of the JSON transcoder: the document holds a
// shape it does not stream, or the JSON is not valid (gcf.ParseJSON, run
// on the whole input, then gives the exact error).
var errFallback = errors.New("transcode: fall back to the buffered encoder")

// feed reads JSON text for the transcoder's passes: from one byte slice
// (r nil), or from a reader through a window that holds at least the
// value being scanned.
type feed struct {
	r    io.Reader // nil: buf is the whole input
	src  *source   // r's position, shared by the feeds that read r
	buf  []byte
	pos  int   // next unread byte of buf
	base int64 // the input offset of buf[0]
	mark int   // buf[mark:] is kept when the window moves (-1: from pos)
	win  int   // the window's least size (0: window)
	eof  bool  // r has no more bytes
	err  error
}

// window is the size of a reader feed's first buffer; it grows to hold
// the longest value scanned.
const window = 64 << 10

// source is a seekable input shared by several feeds, each reading from
// its own offset: a feed seeks r before reading if another moved it.
type source struct {
	r     io.ReadSeeker
	start int64 // the input's offset in r
	pos   int64 // r's offset less start; -1: unknown
}

// feedAt returns a feed of the input from offset off on, for a value of
// size bytes there (size < 0: the rest): its first window is no larger
// than the value, so that reading many short values again costs no more
// than their bytes.
func (s *source) feedAt(off, size int64) *feed {
	win := window
	if size >= 0 && size < window {
		win = int(size) + 1
	}
	return &feed{r: s.r, src: s, base: off, buf: make([]byte, 0, win), mark: -1, win: win}
}

// fill reads more bytes into the window, keeping buf[mark:] (or
// buf[pos:]), and reports whether any came. It returns the distance the
// kept bytes moved towards the start of buf.
func (f *feed) fill() (bool, int) {
	if f.r == nil || f.eof {
		return false, 0
	}
	keep := f.pos
	if f.mark >= 0 {
		keep = f.mark
	}
	shift := keep
	f.base += int64(shift)
	if shift > 0 {
		n := copy(f.buf, f.buf[keep:])
		f.buf = f.buf[:n]
		f.pos -= shift
		if f.mark >= 0 {
			f.mark -= shift
		}
	}
	win := window
	if f.win > 0 {
		win = f.win
	}
	if cap(f.buf)-len(f.buf) < win/2 {
		nb := make([]byte, len(f.buf), 2*cap(f.buf)+win)
		copy(nb, f.buf)
		f.buf = nb
	}
	if s := f.src; s != nil {
		if at := f.base + int64(len(f.buf)); s.pos != at {
			if _, err := s.r.Seek(s.start+at, io.SeekStart); err != nil {
				f.eof, f.err, s.pos = true, err, -1
				return false, shift
			}
			s.pos = at
		}
	}
	for {
		n, err := f.r.Read(f.buf[len(f.buf):cap(f.buf)])
		f.buf = f.buf[:len(f.buf)+n]
		if f.src != nil {
			f.src.pos += int64(n)
		}
		if err != nil {
			f.eof = true
			if err != io.EOF {
				f.err = err
			}
		}
		if n > 0 || f.eof {
			return n > 0, shift
		}
	}
}

// offset returns the input offset of the next unread byte.
func (f *feed) offset() int64 { return f.base + int64(f.pos) }

// peek skips white space and returns the next byte (false at the end).
func (f *feed) peek() (byte, bool) {
	for {
		for f.pos < len(f.buf) {
			switch c := f.buf[f.pos]; c {
			case ' ', '\t', '\n', '\r':
				f.pos++
			default:
				return c, true
			}
		}
		if ok, _ := f.fill(); !ok {
			return 0, false
		}
	}
}

// expect consumes c, the next byte after white space.
func (f *feed) expect(c byte) error {
	if b, ok := f.peek(); !ok || b != c {
		return errFallback
	}
	f.pos++
	return nil
}

// value returns the bytes of the next JSON value, found by its brackets
// and quotes only (gcf.ParseJSON validates them); they are valid until
// the next call on f.
func (f *feed) value() ([]byte, error) { return f.scan(true, -1) }

// skip passes over the next JSON value as value does, keeping none of it.
func (f *feed) skip() error {
	_, err := f.scan(false, -1)
	return err
}

// valueUpTo is value for a value shorter than limit bytes; a longer one
// it may skip instead, returning nil (the window then does not grow to
// hold it).
func (f *feed) valueUpTo(limit int) ([]byte, error) { return f.scan(true, limit) }

// scan is value; without keep the window need not hold the whole value,
// and the bytes it returns are only the end of it. With limit ≥ 0, keep
// ends once limit bytes of the value are held, and scan returns nil.
func (f *feed) scan(keep bool, limit int) ([]byte, error) {
	c, ok := f.peek()
	if !ok {
		return nil, errFallback
	}
	f.mark = f.pos
	defer func() { f.mark = -1 }()
	i := f.pos + 1
	held := keep
	// drop stops keeping a value past limit before the window moves.
	drop := func() {
		if keep && limit >= 0 && i-f.mark >= limit {
			keep = false
		}
		if !keep {
			f.mark = i
		}
	}
	// at makes buf[i] readable, moving the window if it must.
	at := func() bool {
		for i >= len(f.buf) {
			drop()
			ok, shift := f.fill()
			i -= shift
			if !ok {
				return false
			}
		}
		return true
	}
	depth, str := 0, false
	switch c {
	case '{', '[':
		depth = 1
	case '"':
		str = true
	}
	for depth > 0 || str {
		buf := f.buf
		for i < len(buf) {
			if str {
				j, closed := strEnd(buf, i)
				if i = j; !closed {
					break
				}
				if str = false; depth == 0 {
					break
				}
				continue
			}
			switch buf[i] {
			case '"':
				str = true
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			i++
			if depth == 0 {
				break
			}
		}
		if depth == 0 && !str {
			return f.ended(i, held && !keep)
		}
		drop()
		ok, shift := f.fill()
		if i -= shift; !ok {
			return nil, errFallback
		}
	}
	for ; at(); i++ {
		switch f.buf[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r', '{', '[', '"', ':':
			return f.ended(i, held && !keep)
		}
	}
	return f.ended(i, held && !keep)
}

// ended ends a scan at buf[i]: the value's bytes held, or nil if dropped.
func (f *feed) ended(i int, dropped bool) ([]byte, error) {
	v := f.buf[min(f.mark, i):i]
	f.pos = i
	if dropped {
		return nil, nil
	}
	return v, nil
}

// strEnd finds the end of the string whose body continues at buf[i]: the
// offset after its closing quote and true, or the offset to resume at
// once more bytes are read and false. A backslash escapes the byte after
// it. Each byte is looked at a bounded number of times.
func strEnd(buf []byte, i int) (int, bool) {
	q := -1 // the next '"' at or after i (len(buf): none)
	for {
		if q < i {
			if k := bytes.IndexByte(buf[i:], '"'); k >= 0 {
				q = i + k
			} else {
				q = len(buf)
			}
		}
		k := bytes.IndexByte(buf[i:q], '\\')
		if k < 0 {
			if q == len(buf) {
				return len(buf), false
			}
			return q + 1, true
		}
		if i += k; i+1 >= len(buf) {
			return i, false // resume at the backslash
		}
		i += 2
	}
}

// next consumes the ',' between elements or the closing byte end; it
// reports whether another element follows.
func (f *feed) next(end byte) (bool, error) {
	c, ok := f.peek()
	if !ok {
		return false, errFallback
	}
	f.pos++
	switch c {
	case ',':
		return true, nil
	case end:
		return false, nil
	}
	return false, errFallback
}

// array calls fn once per element of the array that comes next, with f
// at the element; fn consumes it.
func (f *feed) array(fn func(i int) error) (int, error) {
	if err := f.expect('['); err != nil {
		return 0, err
	}
	if c, ok := f.peek(); ok && c == ']' {
		f.pos++
		return 0, nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return i, err
		}
		more, err := f.next(']')
		if err != nil || !more {
			return i + 1, err
		}
	}
}

// object calls fn once per member of the object that comes next, with its
// key (as gcf.ParseJSON reads it) and f at the value; fn consumes it.
func (f *feed) object(fn func(i int, key string) error) (int, error) {
	if err := f.expect('{'); err != nil {
		return 0, err
	}
	if c, ok := f.peek(); ok && c == '}' {
		f.pos++
		return 0, nil
	}
	for i := 0; ; i++ {
		if c, ok := f.peek(); !ok || c != '"' {
			return i, errFallback
		}
		kb, err := f.value()
		if err != nil {
			return i, err
		}
		key, err := parseString(kb)
		if err != nil {
			return i, err
		}
		if err := f.expect(':'); err != nil {
			return i, err
		}
		if err := fn(i, key); err != nil {
			return i, err
		}
		more, err := f.next('}')
		if err != nil || !more {
			return i + 1, err
		}
	}
}

// end reports whether only white space is left.
func (f *feed) end() error {
	if _, ok := f.peek(); ok || f.err != nil {
		return errFallback
	}
	return nil
}
