package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gcfkit/gcf"
)

// chunkSize is the size of the pieces readChunks holds stdin in.
const chunkSize = 1 << 20

// chunks holds an input that cannot be read again (stdin) in memory, in
// pieces of chunkSize bytes, so that reading it costs its size and no more
// (a growing slice would cost up to three times as much while it grows);
// it is an io.ReadSeeker over those bytes.
type chunks struct {
	parts [][]byte
	size  int64
	off   int64
}

// readChunks reads the whole input, never more than -max-bytes (+1 to see
// that it is too large), with readAll's errors.
func readChunks(in *input) (*chunks, error) {
	c := &chunks{}
	for {
		p := make([]byte, chunkSize)
		n, err := io.ReadFull(in.r, p)
		if n > 0 {
			c.parts = append(c.parts, p[:n])
			c.size += int64(n)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", in.name, err)
		}
	}
	if in.r.overLimit() {
		return nil, &gcf.SyntaxError{Category: gcf.PayloadTooLarge,
			Msg: fmt.Sprintf("the input is larger than -max-bytes %d", in.r.limit)}
	}
	return c, nil
}

func (c *chunks) Read(p []byte) (int, error) {
	if c.off >= c.size {
		return 0, io.EOF
	}
	i, at := c.off/chunkSize, c.off%chunkSize
	n := copy(p, c.parts[i][at:])
	c.off += int64(n)
	return n, nil
}

func (c *chunks) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += c.off
	case io.SeekEnd:
		off += c.size
	}
	if off < 0 {
		return 0, errors.New("chunks: seek before the start")
	}
	c.off = off
	return off, nil
}

// ReadAt reads from offset off, for a diagnostic's excerpt.
func (c *chunks) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) && off < c.size {
		i, at := off/chunkSize, off%chunkSize
		k := copy(p[n:], c.parts[i][at:])
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// bytes returns the input as one slice.
func (c *chunks) bytes() []byte {
	b := make([]byte, 0, c.size)
	for _, p := range c.parts {
		b = append(b, p...)
	}
	return b
}
