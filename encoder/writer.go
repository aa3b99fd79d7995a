package encoder

import (
	"io"

	"github.com/valyala/bytebufferpool"
)

// MaxPooledBuffer is the largest buffer returned to the pool; bigger ones
// are dropped so one huge payload does not pin memory for later callers.
const MaxPooledBuffer = 1 << 20

// flushThreshold is the buffered size at which a Writer writes through.
const flushThreshold = 64 << 10

var pool bytebufferpool.Pool

// GetBuffer returns an empty pooled buffer.
func GetBuffer() *bytebufferpool.ByteBuffer { return pool.Get() }

// PutBuffer returns b to the pool unless it grew beyond MaxPooledBuffer.
func PutBuffer(b *bytebufferpool.ByteBuffer) {
	if b == nil || cap(b.B) > MaxPooledBuffer {
		return
	}
	b.Reset()
	pool.Put(b)
}

// Writer accumulates whole lines in a pooled buffer and writes them to an
// io.Writer in large chunks. A write error is sticky: every later call
// returns it.
type Writer struct {
	w   io.Writer
	buf *bytebufferpool.ByteBuffer
	err error
	n   int64 // bytes written to w
}

// NewWriter returns a Writer over w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Buf returns the pending bytes for appending. Callers append complete
// lines and then call Commit.
func (w *Writer) Buf() []byte {
	if w.buf == nil {
		w.buf = GetBuffer()
	}
	return w.buf.B
}

// Commit stores b (which must extend the slice returned by Buf) as pending
// output, writing through once enough has accumulated.
func (w *Writer) Commit(b []byte) error {
	w.buf.B = b
	if len(b) >= flushThreshold {
		return w.Flush()
	}
	return w.err
}

// Err returns the sticky write error, if any.
func (w *Writer) Err() error { return w.err }

// Written returns the number of bytes written to the underlying writer.
func (w *Writer) Written() int64 { return w.n }

// Flush writes all pending bytes.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if w.buf == nil || len(w.buf.B) == 0 {
		return nil
	}
	n, err := w.w.Write(w.buf.B)
	w.n += int64(n)
	if err == nil && n < len(w.buf.B) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = err
		return err
	}
	w.buf.B = w.buf.B[:0]
	return nil
}

// Release flushes and returns the buffer to the pool.
func (w *Writer) Release() error {
	err := w.Flush()
	PutBuffer(w.buf)
	w.buf = nil
	return err
}
