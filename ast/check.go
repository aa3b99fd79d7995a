package ast

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strconv"

	"github.com/gcfkit/gcf/grammar"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// smallPayload is the size up to which Check parses the whole payload
// with Parse, for every context-sensitive diagnostic.
const smallPayload = 256 << 10

// MaxErrors is how many problems Check lists; past it, one final entry of
// category TooManyErrors says how many more were found.
const MaxErrors = 1000

// TooManyErrors is the category of Check's last entry when it found more
// than MaxErrors problems. It is not a SPEC §16.5 category.
const TooManyErrors lexer.Category = "too_many_errors"

// Check reads one GCF payload from r and reports every problem it finds, in order,
// in memory bounded by the limits (the longest line and the nesting depth), never by the input size.
//
// It runs two parsers over one read of the input: the pull decoder of
// package stream, which checks counts, structure, indentation, attachments
// and limits and stops at its first error, and the grammar of package
// grammar, which checks every line with its one-line production in the
// context of the open bodies (grammar.Checker) and carries on past errors.
// Their diagnostics are merged in position order, a problem both report on
// one line with one category is listed once, and the list holds at most
// MaxErrors entries plus a final TooManyErrors entry. Past the pull
// decoder's first error only the grammar's (line-level and structural)
// problems are found; Parse gives every context-sensitive diagnostic of a
// small payload, and Check uses it for payloads of up to 256 KiB. An empty list means the payload is valid. A read error
// ends the check with a lexer.ReadFailure entry.
func Check(r io.Reader, limits stream.Limits) ErrorList {
	var out collector
	// A small payload gets every diagnostic of the full AST (Parse), which
	// costs about 100 bytes of memory per input byte: below smallPayload
	// that stays a few tens of megabytes.
	head := make([]byte, smallPayload+1)
	n, err := io.ReadFull(r, head)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		_, errs := Parse(head[:n], limits)
		for _, e := range errs {
			out.add(e)
		}
		return out.list()
	case err != nil:
		return out.list(&Error{Pos: Pos{Line: 1, Column: 1}, Category: lexer.ReadFailure, Msg: err.Error()})
	}
	r = io.MultiReader(bytes.NewReader(head[:n]), r)
	sp := &splitter{maxLine: limits.Resolved().MaxLineBytes, maxBytes: limits.MaxBytes}
	sp.check = grammar.NewChecker(limits, func(d grammar.Diagnostic) {
		out.add(&Error{Pos: pos(d.Pos), Category: d.Category, Msg: d.Msg})
	})
	tee := &teeReader{r: r, w: sp}
	dec := stream.NewDecoder(tee, limits)
	var pullErr *Error
	for {
		_, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *lexer.SyntaxError
			if !errors.As(err, &se) || se.Category == lexer.ReadFailure {
				// The input could not be read: nothing more can be checked.
				return out.list(&Error{Pos: Pos{Line: dec.Line(), Column: 1}, Category: lexer.ReadFailure, Msg: err.Error()})
			}
			pullErr = &Error{Pos: Pos{Offset: int(se.Offset), Line: se.Line, Column: se.Column}, Category: se.Category, Msg: se.Msg}
			break
		}
	}
	if pullErr != nil && pullErr.Category != lexer.PayloadTooLarge && pullErr.Category != lexer.LineTooLong {
		// Let the grammar see the rest of the input. (Past a line longer
		// than the limit, which may run on for gigabytes, nothing is read.)
		if _, err := io.Copy(io.Discard, tee); err != nil {
			return out.list(pullErr, &Error{Pos: Pos{Line: sp.lines + 1, Column: 1}, Category: lexer.ReadFailure, Msg: err.Error()})
		}
	}
	if !sp.over {
		sp.end()
	}
	if pullErr != nil && out.has(pullErr.Pos.Line, pullErr.Category) {
		pullErr = nil // the grammar reported it too
	}
	return out.list(pullErr)
}

// teeReader is io.TeeReader that stops reading once its writer has seen
// all it needs (the size limit was passed).
type teeReader struct {
	r io.Reader
	w *splitter
}

func (t *teeReader) Read(p []byte) (int, error) {
	if t.w.over {
		return 0, io.EOF
	}
	n, err := t.r.Read(p)
	if n > 0 {
		t.w.write(p[:n])
	}
	return n, err
}

// splitter cuts the bytes the pull decoder reads into lines for the
// grammar's Checker. It keeps at most one line (up to the line limit).
type splitter struct {
	check    *grammar.Checker
	maxLine  int
	maxBytes int64
	part     []byte // the start of the current line, while it fits the limit
	partLen  int    // the current line's length so far
	lineOff  int    // offset of the current line
	total    int64  // bytes seen
	lines    int
	over     bool // more than maxBytes: the rest is not checked
}

func (s *splitter) write(p []byte) {
	if s.over {
		return
	}
	if s.maxBytes > 0 && s.total+int64(len(p)) > s.maxBytes {
		// The pull decoder reports payload_too_large; the partial line at
		// the limit is not checked.
		p = p[:s.maxBytes-s.total]
		s.over = true
	}
	s.total += int64(len(p))
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.keep(p)
			break
		}
		line := p[:i]
		n := s.partLen + i
		if s.partLen > 0 {
			s.keep(line)
			line = s.part
		}
		s.lines++
		s.check.Line(line, s.lineOff, n)
		s.lineOff += n + 1
		s.part, s.partLen = s.part[:0], 0
		p = p[i+1:]
	}
}

// keep adds p to the current line, storing bytes only while the line fits
// the limit (a longer line is reported by its length alone).
func (s *splitter) keep(p []byte) {
	if s.partLen+len(p) <= s.maxLine {
		s.part = append(s.part, p...)
	}
	s.partLen += len(p)
}

// end checks the last line (one without an LF) and ends the check.
func (s *splitter) end() {
	if s.partLen > 0 {
		s.lines++
		s.check.Line(s.part, s.lineOff, s.partLen)
	}
	s.check.End(int(s.total))
}

// collector keeps the first MaxErrors problems by position, and counts the rest.
type collector struct {
	errs    ErrorList
	dropped int
	last    Pos // position of the last dropped problem
}

func (c *collector) add(e *Error) {
	c.errs = append(c.errs, e)
	if len(c.errs) >= 2*MaxErrors {
		c.trim()
	}
}

func (c *collector) trim() {
	sort.Stable(c.errs)
	if len(c.errs) > MaxErrors {
		c.dropped += len(c.errs) - MaxErrors
		for _, e := range c.errs[MaxErrors:] {
			if c.last.Before(e.Pos) {
				c.last = e.Pos
			}
		}
		clear(c.errs[MaxErrors:])
		c.errs = c.errs[:MaxErrors]
	}
}

// has reports whether a problem of category cat on line is listed.
func (c *collector) has(line int, cat lexer.Category) bool {
	for _, e := range c.errs {
		if e.Pos.Line == line && e.Category == cat {
			return true
		}
	}
	return false
}

// list adds the extra problems and returns the sorted, capped list.
func (c *collector) list(extra ...*Error) ErrorList {
	for _, e := range extra {
		if e != nil {
			c.errs = append(c.errs, e)
		}
	}
	c.trim()
	if c.dropped > 0 {
		c.errs = append(c.errs, &Error{Pos: c.last, Category: TooManyErrors,
			Msg: strconv.Itoa(c.dropped) + " more problems not listed (the list stops at " + strconv.Itoa(MaxErrors) + ")"})
	}
	return c.errs
}
