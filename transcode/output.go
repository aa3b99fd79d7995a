package transcode

import "io"

// flushAt is the buffered output size at which out writes to its writer.
const flushAt = 32 << 10

// output collects JSON in buf and writes it to w in chunks. While hold is
// positive (a row is being assembled out of order) nothing is written, so
// offsets into buf stay valid.
type output struct {
	w    io.Writer
	buf  []byte
	hold int
	ind  *indenter // nil: compact
}

// maybeFlush writes buf out once it is large and nothing holds it.
func (o *output) maybeFlush() error {
	if o.hold == 0 && len(o.buf) >= flushAt {
		return o.flush()
	}
	return nil
}

// flush writes everything buffered; a write error is returned as is.
func (o *output) flush() error {
	if len(o.buf) == 0 {
		return nil
	}
	var err error
	if o.ind != nil {
		err = o.ind.write(o.w, o.buf)
	} else {
		_, err = o.w.Write(o.buf)
	}
	o.buf = o.buf[:0]
	return err
}

// indenter re-indents compact JSON as it streams past, producing exactly
// what json.Indent(dst, src, "", unit) produces for the whole text: a
// newline and one unit per level after `{`, `[` and `,`, ": " after a
// key, and `{}` / `[]` for empty containers. Its state carries across
// calls, so the text may be cut anywhere.
type indenter struct {
	unit       string
	depth      int
	inString   bool
	escaped    bool
	needIndent bool // a `{` or `[` was written and its first element not yet seen
	out        []byte
}

func (in *indenter) newline() {
	in.out = append(in.out, '\n')
	for i := 0; i < in.depth; i++ {
		in.out = append(in.out, in.unit...)
	}
}

func (in *indenter) write(w io.Writer, src []byte) error {
	in.out = in.out[:0]
	for _, c := range src {
		if in.inString {
			in.out = append(in.out, c)
			switch {
			case in.escaped:
				in.escaped = false
			case c == '\\':
				in.escaped = true
			case c == '"':
				in.inString = false
			}
			continue
		}
		if in.needIndent && c != '}' && c != ']' {
			in.needIndent = false
			in.depth++
			in.newline()
		}
		switch c {
		case '"':
			in.inString = true
			in.out = append(in.out, c)
		case '{', '[':
			in.needIndent = true
			in.out = append(in.out, c)
		case ',':
			in.out = append(in.out, c)
			in.newline()
		case ':':
			in.out = append(in.out, c, ' ')
		case '}', ']':
			if in.needIndent {
				in.needIndent = false
			} else {
				in.depth--
				in.newline()
			}
			in.out = append(in.out, c)
		default:
			in.out = append(in.out, c)
		}
	}
	_, err := w.Write(in.out)
	if cap(in.out) > 4*flushAt {
		in.out = nil
	}
	return err
}
