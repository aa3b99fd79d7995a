package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/lexer"
)

// report prints err on stderr, as file:line:col: category: message followed
// by an excerpt of the offending line with a caret under the column when
// the input can be read back, and returns the exit status (see exitStatus).
func (e *env) report(in *input, err error, out *output) int {
	name := "gcf"
	var src io.ReaderAt
	if in != nil {
		name, src = in.name, in.src
	}
	var ie *ioError
	var se *gcf.SyntaxError
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(e.stderr, "gcf: %v\n", ie)
	case errors.As(err, &se) && se.Line > 0:
		e.diagnostic(name, se.Line, se.Column, se.Offset, string(se.Category), se.Msg, src)
	default:
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
	}
	return exitStatus(err, in, out)
}

// diagnostic prints one positioned problem and, when src can give it back,
// the excerpt of its line.
func (e *env) diagnostic(name string, line, col int, off int64, category, msg string, src io.ReaderAt) {
	// The library's advice for a v1.x payload, in command-line terms.
	msg = strings.Replace(msg, "decode it with WireV1", "decode it with -wire v1", 1)
	if category != "" {
		fmt.Fprintf(e.stderr, "%s:%d:%d: %s: %s\n", name, line, col, category, msg)
	} else {
		fmt.Fprintf(e.stderr, "%s:%d:%d: %s\n", name, line, col, msg)
	}
	if text, pad, ok := excerpt(src, off, col); ok {
		fmt.Fprintf(e.stderr, "  %s\n  %s^\n", text, pad)
	}
}

// excerptHalf is how many bytes an excerpt shows on each side of the
// column: a long line is never echoed whole.
const excerptHalf = 40

// excerpt returns at most about 2*excerptHalf bytes of the line holding
// byte offset off (at 1-based byte column col), marked with "..." where the
// line was cut, and the padding that puts a caret under off. ok is false
// when src cannot give the bytes back or they do not agree with the
// position (then no excerpt is better than a wrong one).
func excerpt(src io.ReaderAt, off int64, col int) (text, pad string, ok bool) {
	if src == nil || col < 1 || off < 0 {
		return "", "", false
	}
	lineStart := off - int64(col-1)
	if lineStart < 0 {
		return "", "", false
	}
	if lineStart > 0 {
		var b [1]byte
		if n, _ := src.ReadAt(b[:], lineStart-1); n == 1 && b[0] != '\n' {
			return "", "", false
		}
	}
	ws := max(lineStart, off-excerptHalf)
	want := int(off-ws) + excerptHalf + utf8.UTFMax
	buf := make([]byte, want)
	n, _ := src.ReadAt(buf, ws)
	buf = buf[:n]
	rel := int(off - ws)
	if rel > len(buf) || bytes.IndexByte(buf[:rel], '\n') >= 0 {
		return "", "", false
	}
	start, end := 0, len(buf)
	cutEnd := n == want
	if i := bytes.IndexByte(buf[rel:], '\n'); i >= 0 {
		end, cutEnd = rel+i, false
		if end > 0 && buf[end-1] == '\r' {
			end--
		}
	}
	if end > rel+excerptHalf {
		end, cutEnd = rel+excerptHalf, true
	}
	for start < rel && !utf8.RuneStart(buf[start]) {
		start++
	}
	for end > start && end < len(buf) && !utf8.RuneStart(buf[end]) {
		end--
	}
	if start == end && rel == 0 {
		return "", "", false // an empty line: nothing to show
	}
	var prefix, suffix string
	if ws+int64(start) > lineStart {
		prefix = "..."
	}
	if cutEnd {
		suffix = "..."
	}
	shown := buf[start:end]
	return prefix + printable(shown) + suffix, strings.Repeat(" ", len(prefix)) + caretPad(shown, rel-start+1), true
}

// printable shows bytes safely on a terminal: control bytes and invalid
// UTF-8 become '?'.
func printable(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError {
			r = '?'
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// caretPad is the run of spaces (tabs kept) that puts a caret under the
// 1-based byte column col of b, one column per character as printable
// shows it.
func caretPad(b []byte, col int) string {
	b = b[:min(max(col-1, 0), len(b))]
	var pad []byte
	for len(b) > 0 {
		_, size := utf8.DecodeRune(b)
		if b[0] == '\t' {
			pad = append(pad, '\t')
		} else {
			pad = append(pad, ' ')
		}
		b = b[size:]
	}
	return string(pad)
}

// position is a place in an input: the 0-based byte offset and the 1-based
// line and byte column.
type position struct {
	off       int64
	line, col int
}

// origin is the position of an input's first byte.
var origin = position{0, 1, 1}

// after returns the position just past b, read from p.
func (p position) after(b []byte) position {
	p.off += int64(len(b))
	if nl := bytes.Count(b, []byte{'\n'}); nl > 0 {
		p.line += nl
		p.col = len(b) - bytes.LastIndexByte(b, '\n')
	} else {
		p.col += len(b)
	}
	return p
}

// errorAt is a *gcf.SyntaxError at p.
func errorAt(p position, c gcf.Category, format string, args ...any) *gcf.SyntaxError {
	return &gcf.SyntaxError{Line: p.line, Column: p.col, Offset: p.off, Category: c, Msg: fmt.Sprintf(format, args...)}
}

// checkUTF8 returns an invalid_utf8 error at the first byte of b (which
// starts at p) that is not UTF-8, or nil.
func checkUTF8(b []byte, p position) *gcf.SyntaxError {
	if utf8.Valid(b) {
		return nil
	}
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	q := p.after(b[:i])
	if lexer.IsEncodedSurrogate(b[i:]) {
		return errorAt(q, gcf.InvalidSurrogate, "literal UTF-16 surrogate code point at byte offset %d (U+D800-U+DFFF are not Unicode scalar values)", q.off)
	}
	return errorAt(q, gcf.InvalidUTF8, "invalid UTF-8: byte 0x%02x at byte offset %d is not part of a UTF-8 character", b[i], q.off)
}
