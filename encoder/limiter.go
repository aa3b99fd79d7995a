package encoder

import (
	"bytes"
	"math"

	"github.com/gcfkit/gcf/stream"
)

// Limiter holds the encode limits of one encoding into a buffer and makes
// every limit comparison of the module's encoders, so that no encoder
// compares a count with a limit itself. An encoder writing lines into one
// buffer also keeps its line state here: a line end costs one comparison
// (LineDone), and LineErr says which limit a failed one broke.
type Limiter struct {
	stream.Limits
	start int // offset of the payload in the buffer
	ls    int // offset of the line in progress
	check int // a line ending past check breaks MaxLineBytes or MaxBytes; -1 after Fail
	end   int // start+MaxBytes, or the largest int
}

// NewLimiter returns a Limiter for lim (resolved) with no line state.
func NewLimiter(lim stream.Limits) Limiter { return Limiter{Limits: lim} }

// Begin starts the line state of a payload at offset start of its buffer,
// with MaxBytes counted from start.
func (l *Limiter) Begin(lim stream.Limits, start int) {
	end := math.MaxInt
	if lim.MaxBytes > 0 && lim.MaxBytes < int64(math.MaxInt-start) {
		end = start + int(lim.MaxBytes)
	}
	l.Limits = lim
	l.BeginBudget(start, end)
}

// BeginBudget starts the line state of a payload at offset start that may
// go no further than offset end (a size budget in place of MaxBytes).
func (l *Limiter) BeginBudget(start, end int) {
	l.start, l.ls, l.end = start, start, end
	l.setCheck()
}

// SetEnd moves the end of the payload's budget to offset end.
func (l *Limiter) SetEnd(end int) {
	l.end = end
	l.setCheck()
}

func (l *Limiter) setCheck() {
	l.check = l.ls + l.MaxLineBytes + 1
	if l.check > l.end || l.check < 0 {
		l.check = l.end
	}
}

// LineDone records that a line ended with the byte before offset n; false
// means a limit is broken (or Fail was called) and LineErr says which.
func (l *Limiter) LineDone(n int) bool {
	if n > l.check {
		return false
	}
	l.ls = n
	l.setCheck()
	return true
}

// Fail makes the next LineDone report false.
func (l *Limiter) Fail() { l.check = -1 }

// LineErr is the error of the line buf ends (with its line end) when
// LineDone refused it: line_too_long, or else payload_too_large.
func (l *Limiter) LineErr(buf []byte) error {
	if n := len(buf) - 1 - l.ls; n > l.MaxLineBytes {
		line := 1 + bytes.Count(buf[l.start:l.ls], []byte{'\n'})
		return LineTooLongError(line, n, l.MaxLineBytes, buf[l.ls:len(buf)-1])
	}
	return SizeError(l.MaxBytes)
}

// DepthOK reports whether nesting depth d is within MaxDepth.
func (l *Limiter) DepthOK(d int) bool { return d <= l.MaxDepth }

// Depth returns the depth_exceeded error when depth d exceeds MaxDepth.
func (l *Limiter) Depth(d int) error {
	if d > l.MaxDepth {
		return DepthError(l.MaxDepth)
	}
	return nil
}

// ElementsOK reports whether a container of n elements is within MaxElements.
func (l *Limiter) ElementsOK(n int) bool { return n <= l.MaxElements }

// Elements returns the too_many_elements error when a container (what) of
// n elements exceeds MaxElements.
func (l *Limiter) Elements(n int, what string) error {
	if n > l.MaxElements {
		return ElementsError(n, what, l.MaxElements)
	}
	return nil
}

// FieldsOK reports whether a declaration of n fields is within MaxFields.
func (l *Limiter) FieldsOK(n int) bool { return n <= l.MaxFields }

// Fields returns the too_many_fields error when a declaration of n fields
// exceeds MaxFields.
func (l *Limiter) Fields(n int) error {
	if n > l.MaxFields {
		return FieldsError(n, l.MaxFields)
	}
	return nil
}

// LineOK reports whether a line of n bytes is within MaxLineBytes.
func (l *Limiter) LineOK(n int) bool { return n <= l.MaxLineBytes }

// Line returns the line_too_long error when line number line, n bytes long
// (text), exceeds MaxLineBytes.
func (l *Limiter) Line(line, n int, text []byte) error {
	if n > l.MaxLineBytes {
		return LineTooLongError(line, n, l.MaxLineBytes, text)
	}
	return nil
}

// LinesFrom checks the lines of out under MaxLineBytes as CheckLines does,
// numbering them from first (the line number of out's first line), and
// returns how many lines out holds.
func (l *Limiter) LinesFrom(out []byte, first int) (n int, err error) {
	for rest := out; len(rest) > 0; n++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest)
		}
		if i > l.MaxLineBytes {
			return n, LineTooLongError(first+n, i, l.MaxLineBytes, rest[:i])
		}
		rest = rest[min(i+1, len(rest)):]
	}
	return n, nil
}

// Lines is CheckLines under MaxLineBytes.
func (l *Limiter) Lines(out []byte) error { return CheckLines(out, l.MaxLineBytes) }

// Total returns the payload_too_large error when a payload of n bytes
// exceeds MaxBytes (0: no limit).
func (l *Limiter) Total(n int64) error {
	if l.MaxBytes > 0 && n > l.MaxBytes {
		return SizeError(l.MaxBytes)
	}
	return nil
}

// Size is CheckSize under MaxBytes.
func (l *Limiter) Size(n int) error { return CheckSize(n, l.MaxBytes) }

// Output is Lines, then Size, over a whole encoding out.
func (l *Limiter) Output(out []byte) error {
	if err := l.Lines(out); err != nil {
		return err
	}
	return l.Size(len(out))
}
