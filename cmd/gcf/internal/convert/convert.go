// Package convert turns YAML, TOML, CSV and MessagePack documents into JSON
// text, with well-kept parsers, so that the gcf command can encode them; the
// mapping of each format to the JSON model is in docs/proxy.md ("Inputs
// beyond JSON").
package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gcfkit/gcf"
)

// Formats are the names ToJSON takes, besides "json" (the identity).
var Formats = []string{"yaml", "toml", "csv", "msgpack"}

// Limits bound a conversion: MaxDepth the nesting of containers (0: no
// limit), MaxBytes the JSON text written (0: max(64 MiB, 64 times the
// input), which bounds the expansion of YAML aliases).
type Limits struct {
	MaxDepth int
	MaxBytes int64
}

// ToJSON converts one document in format (json, yaml, toml, csv or msgpack)
// to minified JSON text, keeping the order of keys where the format's parser
// reports it; an error is a *gcf.SyntaxError with a line:column (a byte
// offset for MessagePack) wherever the parser gives one.
func ToJSON(format string, data []byte, lim Limits) ([]byte, error) {
	max := lim.MaxBytes
	if max <= 0 {
		max = int64(64) << 20
		if n := 64 * int64(len(data)); n > max {
			max = n
		}
	}
	w := &writer{maxDepth: lim.MaxDepth, maxBytes: max}
	if format != "json" && format != "msgpack" && !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		line := 1 + bytes.Count(data[:i], []byte{'\n'})
		col := i - bytes.LastIndexByte(data[:i], '\n')
		return nil, errAt(line, col, int64(i), gcf.InvalidUTF8, "%s: a byte that is not UTF-8 (0x%02x)", strings.ToUpper(format), data[i])
	}
	var err error
	switch format {
	case "json":
		return data, nil
	case "yaml":
		err = fromYAML(w, data)
	case "toml":
		err = fromTOML(w, data)
	case "csv":
		err = fromCSV(w, data)
	case "msgpack":
		err = fromMsgpack(w, data)
	default:
		return nil, fmt.Errorf("unknown input format %q (json, yaml, toml, csv or msgpack)", format)
	}
	if err != nil {
		var se *gcf.SyntaxError
		if errors.As(err, &se) && se.Line > 0 {
			se.Offset = offsetOf(data, se.Line, se.Column)
		}
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// offsetOf is the byte offset of line:col (1-based, col in bytes) in data,
// clamped to its length.
func offsetOf(data []byte, line, col int) int64 {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return int64(len(data))
		}
		off += i + 1
	}
	return int64(min(off+max(col-1, 0), len(data)))
}

// Known reports whether format is one ToJSON takes.
func Known(format string) bool {
	switch format {
	case "json", "yaml", "toml", "csv", "msgpack":
		return true
	}
	return false
}

// writer writes minified JSON text, counting the nesting of containers and
// the bytes written against the limits.
type writer struct {
	buf      bytes.Buffer
	depth    int
	maxDepth int
	maxBytes int64
	first    []bool // per open container: no member written yet
}

// errAt is a *gcf.SyntaxError at line:col (0:0 for none) and offset off.
func errAt(line, col int, off int64, c gcf.Category, format string, args ...any) *gcf.SyntaxError {
	return &gcf.SyntaxError{Line: line, Column: col, Offset: off, Category: c, Msg: fmt.Sprintf(format, args...)}
}

// check refuses output past the byte limit.
func (w *writer) check() error {
	if int64(w.buf.Len()) > w.maxBytes {
		return errAt(0, 0, 0, gcf.PayloadTooLarge, "the document converts to more than %d bytes of JSON", w.maxBytes)
	}
	return nil
}

// sep writes the comma before a member other than a container's first.
func (w *writer) sep() {
	if n := len(w.first); n > 0 {
		if !w.first[n-1] {
			w.buf.WriteByte(',')
		}
		w.first[n-1] = false
	}
}

// open starts an object ('{') or an array ('[').
func (w *writer) open(c byte) error {
	w.sep()
	w.depth++
	if w.maxDepth > 0 && w.depth > w.maxDepth {
		return errAt(0, 0, 0, gcf.DepthExceeded, "nesting deeper than %d levels", w.maxDepth)
	}
	w.buf.WriteByte(c)
	w.first = append(w.first, true)
	return w.check()
}

// close ends the innermost container with c ('}' or ']').
func (w *writer) close(c byte) {
	w.depth--
	w.first = w.first[:len(w.first)-1]
	w.buf.WriteByte(c)
}

// key writes an object member's key and colon.
func (w *writer) key(k string) error {
	w.sep()
	w.str(k)
	w.buf.WriteByte(':')
	w.first[len(w.first)-1] = true // the value that follows takes no comma
	return w.check()
}

// str writes s as a JSON string (without HTML escapes).
func (w *writer) str(s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes; invalid UTF-8 becomes U+FFFD
	w.buf.Write(bytes.TrimSuffix(b.Bytes(), []byte{'\n'}))
}

// scalar writes a string, bool, null or finite number.
func (w *writer) scalar(v any) error {
	w.sep()
	switch v := v.(type) {
	case nil:
		w.buf.WriteString("null")
	case bool:
		w.buf.WriteString(strconv.FormatBool(v))
	case string:
		w.str(v)
	case int64:
		w.buf.WriteString(strconv.FormatInt(v, 10))
	case uint64:
		w.buf.WriteString(strconv.FormatUint(v, 10))
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return errAt(0, 0, 0, gcf.OutOfRange, "%v has no JSON form", v)
		}
		b, _ := json.Marshal(v) // finite: always encodes, in encoding/json's shortest form
		w.buf.Write(b)
	default:
		return errAt(0, 0, 0, gcf.UnsupportedValue, "a %T has no JSON form", v)
	}
	return w.check()
}
