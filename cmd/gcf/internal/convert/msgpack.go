package convert

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/gcfkit/gcf"
	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// fromMsgpack writes the one MessagePack value in data as JSON: maps must
// have string keys (their order is kept), bin becomes its base64 text
// (standard alphabet, padded), the timestamp extension (-1) an RFC 3339
// string, and any other extension type is refused, as are data after the
// value. A declared length is checked against the bytes left before
// anything is read or allocated for it.
func fromMsgpack(w *writer, data []byte) error {
	r := bytes.NewReader(data)
	m := &mp{w: w, r: r, d: msgpack.NewDecoder(r), n: int64(len(data))}
	if len(data) == 0 {
		return m.errorf("", "the input holds no MessagePack value")
	}
	if err := m.value(); err != nil {
		return err
	}
	if r.Len() > 0 {
		return m.errorf(gcf.TrailingCharacters, "data after the MessagePack value")
	}
	return nil
}

// mp walks a MessagePack value with the library's decoder.
type mp struct {
	w *writer
	r *bytes.Reader
	d *msgpack.Decoder
	n int64
}

// off is the offset of the next byte to decode.
func (m *mp) off() int64 { return m.n - int64(m.r.Len()) }

// errorf is an error at the next byte's offset.
func (m *mp) errorf(c gcf.Category, format string, args ...any) error {
	off := m.off()
	return errAt(0, 0, off, c, "MessagePack at byte offset %d: %s", off, fmt.Sprintf(format, args...))
}

// fail wraps a decoder error at the current offset.
func (m *mp) fail(err error) error {
	var se *gcf.SyntaxError
	if errors.As(err, &se) {
		if se.Offset == 0 && se.Line == 0 {
			se.Offset = m.off()
			se.Msg = fmt.Sprintf("MessagePack at byte offset %d: %s", se.Offset, se.Msg)
		}
		return se
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return m.errorf(gcf.UnexpectedEOF, "the data end inside a value")
	}
	return m.errorf("", "%v", err)
}

// length checks a declared count of n items (each at least one byte)
// against the bytes left.
func (m *mp) length(n int, what string) error {
	if n > m.r.Len() {
		return m.errorf(gcf.UnexpectedEOF, "a %s of %d declared with %d bytes left", what, n, m.r.Len())
	}
	return nil
}

// raw reads a str (which must be UTF-8) or bin body: its length, checked,
// then its bytes.
func (m *mp) raw(str bool) ([]byte, error) {
	n, err := m.d.DecodeBytesLen()
	if err != nil {
		return nil, m.fail(err)
	}
	if n <= 0 {
		return nil, nil
	}
	if n > m.r.Len() {
		return nil, m.errorf(gcf.UnexpectedEOF, "a string of %d bytes declared with %d bytes left", n, m.r.Len())
	}
	at := m.off()
	b := make([]byte, n)
	if err := m.d.ReadFull(b); err != nil {
		return nil, m.fail(err)
	}
	if str && !utf8.Valid(b) {
		return nil, errAt(0, 0, at, gcf.InvalidUTF8, "MessagePack at byte offset %d: a string that is not UTF-8", at)
	}
	return b, nil
}

// value writes the next value.
func (m *mp) value() error {
	c, err := m.d.PeekCode()
	if err != nil {
		return m.fail(err)
	}
	switch {
	case msgpcode.IsFixedMap(c) || c == msgpcode.Map16 || c == msgpcode.Map32:
		at := m.off()
		n, err := m.d.DecodeMapLen()
		if err != nil {
			return m.fail(err)
		}
		if err := m.length(2*n, "map"); err != nil {
			return err
		}
		if err := m.w.open('{'); err != nil {
			return m.fail(err)
		}
		seen := make(map[string]bool)
		for i := 0; i < n; i++ {
			kc, err := m.d.PeekCode()
			if err != nil {
				return m.fail(err)
			}
			if !msgpcode.IsString(kc) && !msgpcode.IsFixedString(kc) {
				return m.errorf(gcf.UnsupportedValue, "a map key that is not a string (code 0x%02x): JSON keys are strings", kc)
			}
			kat := m.off()
			kb, err := m.raw(true)
			if err != nil {
				return err
			}
			k := string(kb)
			if seen[k] {
				return errAt(0, 0, kat, gcf.DuplicateKey, "MessagePack at byte offset %d: the key %q again in the map at offset %d", kat, k, at)
			}
			seen[k] = true
			if err := m.w.key(k); err != nil {
				return m.fail(err)
			}
			if err := m.value(); err != nil {
				return err
			}
		}
		m.w.close('}')
		return nil
	case msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32:
		n, err := m.d.DecodeArrayLen()
		if err != nil {
			return m.fail(err)
		}
		if err := m.length(n, "array"); err != nil {
			return err
		}
		if err := m.w.open('['); err != nil {
			return m.fail(err)
		}
		for i := 0; i < n; i++ {
			if err := m.value(); err != nil {
				return err
			}
		}
		m.w.close(']')
		return nil
	case msgpcode.IsString(c) || msgpcode.IsFixedString(c):
		b, err := m.raw(true)
		if err != nil {
			return err
		}
		return m.scalar(string(b))
	case msgpcode.IsBin(c):
		b, err := m.raw(false)
		if err != nil {
			return err
		}
		return m.scalar(base64.StdEncoding.EncodeToString(b))
	case msgpcode.IsExt(c):
		at := m.off()
		id, n, err := m.d.DecodeExtHeader()
		if err != nil {
			return m.fail(err)
		}
		if id != -1 {
			return errAt(0, 0, at, gcf.UnsupportedValue, "MessagePack at byte offset %d: extension type %d has no JSON form", at, id)
		}
		if n != 4 && n != 8 && n != 12 {
			return errAt(0, 0, at, gcf.UnsupportedValue, "MessagePack at byte offset %d: a timestamp of %d bytes (4, 8 or 12)", at, n)
		}
		// Decode the timestamp again from its start, with the library.
		if _, err := m.r.Seek(at, io.SeekStart); err != nil {
			return m.fail(err)
		}
		m.d.Reset(m.r)
		t, err := m.d.DecodeTime()
		if err != nil {
			return m.fail(err)
		}
		return m.scalar(t.UTC().Format(time.RFC3339Nano))
	}
	v, err := m.d.DecodeInterfaceLoose()
	if err != nil {
		return m.fail(err)
	}
	switch x := v.(type) {
	case float32:
		v = float64(x)
	}
	return m.scalar(v)
}

// scalar writes a scalar, placing a refusal at the current offset.
func (m *mp) scalar(v any) error {
	if err := m.w.scalar(v); err != nil {
		return m.fail(err)
	}
	return nil
}
