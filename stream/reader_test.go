package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gcfkit/gcf/lexer"
)

// chunkReader returns at most n bytes a call, so lines straddle refills.
type chunkReader struct {
	b []byte
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := min(r.n, len(p), len(r.b))
	copy(p, r.b[:k])
	r.b = r.b[k:]
	return k, nil
}

// lineResult is what load reads of a line: the line, its place and its
// class check.
type lineResult struct {
	line       string
	no         int
	off        int64
	ctl, plain bool
	bad, err   string
}

// readClean reads a line as load does: nextClean, else next and the class check.
func readClean(lr *lineReader) (r lineResult, done bool) {
	if line, plain, ok := lr.nextClean(); ok {
		return lineResult{line: string(line), no: lr.lineNo, off: lr.lineOff, plain: plain}, false
	}
	return readSlow(lr)
}

func readSlow(lr *lineReader) (r lineResult, done bool) {
	line, err := lr.next()
	if err != nil {
		return lineResult{err: err.Error(), no: lr.lineNo}, true
	}
	ctl, plain, bad := lexer.CheckLineClass(line)
	r = lineResult{line: string(line), no: lr.lineNo, off: lr.lineOff, ctl: ctl, plain: plain}
	if bad != nil {
		r.bad = bad.Error()
	}
	return r, false
}

// TestNextCleanMatchesNext checks the fused line read against next and
// CheckLineClass: every byte value at every position of lines of several
// lengths, read from the caller's bytes and through refills of 1, 7
// and 64 bytes, with a tight line limit as well.
func TestNextCleanMatchesNext(t *testing.T) {
	var cases [][]byte
	for n := 1; n <= 18; n++ {
		for pos := 0; pos < n; pos++ {
			for v := 0; v < 256; v++ {
				line := bytes.Repeat([]byte{'a'}, n)
				for i := range line {
					line[i] = "ab|c.9 x"[i%8]
				}
				line[pos] = byte(v)
				cases = append(cases, line)
			}
		}
	}
	// A few whole inputs per case keep the run short: each input holds
	// the case line between two plain lines, then a line without LF.
	check := func(t *testing.T, in []byte, maxLine int) {
		t.Helper()
		for _, chunk := range []int{0, 1, 7, 64} {
			var a, b lineReader
			if chunk == 0 {
				a.resetBytes(in, maxLine, 0)
				b.resetBytes(in, maxLine, 0)
			} else {
				a.reset(&chunkReader{in, chunk}, maxLine, 0)
				b.reset(&chunkReader{in, chunk}, maxLine, 0)
			}
			for k := 0; ; k++ {
				ra, da := readClean(&a)
				rb, db := readSlow(&b)
				if ra != rb || da != db {
					t.Fatalf("input %q chunk %d max %d line %d: fused %+v, next %+v", in, chunk, maxLine, k, ra, rb)
				}
				if da {
					break
				}
			}
		}
	}
	for i, line := range cases {
		var in []byte
		in = append(in, "Blue Lever|306.56|1|SKU-26962\n"...)
		in = append(in, line...)
		in = append(in, '\n')
		in = append(in, line...)
		in = append(in, "\r\n|x\n"...)
		in = append(in, line...)
		maxLine := 1 << 20
		if i%3 == 0 {
			maxLine = len(line) - 1 + i%2
		}
		check(t, in, maxLine)
	}
	// Lines at every offset of a refill: the buffer's first fill ends
	// inside a line at each of its positions.
	var long []byte
	for len(long) < minRead+200 {
		long = append(long, fmt.Sprintf("row %d|%d.5|\"q\"|é\n", len(long), len(long))...)
	}
	for shift := 0; shift < 48; shift++ {
		in := append(bytes.Repeat([]byte{'x'}, shift), '\n')
		in = append(in, long...)
		check(t, in, 1<<20)
	}
}

// TestNextCleanError: a line the fused read declines still fails as the
// class check says.
func TestNextCleanError(t *testing.T) {
	var lr lineReader
	lr.resetBytes([]byte("abcdefgh\x80ijklmn\n"), 1<<20, 0)
	if _, _, ok := lr.nextClean(); ok {
		t.Fatal("nextClean took a non-ASCII line")
	}
	r, _ := readSlow(&lr)
	if r.bad == "" {
		t.Fatalf("no error for invalid UTF-8: %+v", r)
	}
}

// dumpEvents reads d to the end and writes every event, every field of its
// cells and the error (with its category, line and column) to a string.
func dumpEvents(d *Decoder) string {
	var sb strings.Builder
	for {
		e, err := d.Read()
		if err != nil {
			var se *lexer.SyntaxError
			if errors.As(err, &se) {
				fmt.Fprintf(&sb, "error %s %d:%d @%d %s\n", se.Category, se.Line, se.Column, se.Offset, se.Msg)
			} else {
				fmt.Fprintf(&sb, "error %v\n", err)
			}
			return sb.String()
		}
		fmt.Fprintf(&sb, "%s line=%d off=%d count=%d field=%d\n", e, e.Line, e.Offset, e.Count, e.Field)
		for _, c := range e.Cells {
			fmt.Fprintf(&sb, "  %d %v %v %v %d %q %d\n", c.Kind, c.Quoted, c.Escaped, c.Bool, c.Int, c.Bytes, c.Col)
		}
	}
}

// TestDecoderCleanLines checks the decoder's events and errors with the
// fused line read (the input in one buffer) against those without it (a
// reader that returns one byte a call: no line is ever buffered whole
// when the decoder asks for it, so every line takes next and the class
// check): every byte value at every position of a table row, an
// attachment head line and a nested row, and CRLF line ends.
func TestDecoderCleanLines(t *testing.T) {
	const doc = "GCF profile=generic\n" +
		"## orders [2]{\"customer>email\",id,items,total}\n" +
		"@0 peggy.thomas221@example.com|ORD-00001|^|1064.64\n" +
		".items [2]{name,price,qty,sku}\n" +
		"    Blue Lever|306.56|1|SKU-26962\n" +
		"    Brass Bracket|379.04|2|SKU-84261\n" +
		"@1 walter@example.com|ORD-00002|^|701.44\n" +
		".items [1]\n" +
		"    Red Sprocket|87.68|8|SKU-52403\n"
	lines := strings.SplitAfter(doc, "\n")
	compare := func(in []byte) {
		t.Helper()
		got := dumpEvents(NewBytesDecoder(in, Limits{}))
		want := dumpEvents(NewDecoder(iotest.OneByteReader(bytes.NewReader(in)), Limits{}))
		if got != want {
			t.Fatalf("input %q:\nfused:\n%s\nwithout:\n%s", in, got, want)
		}
		if got2 := dumpEvents(NewDecoder(&chunkReader{in, 13}, Limits{})); got2 != want {
			t.Fatalf("input %q, 13-byte reads:\n%s\nwithout:\n%s", in, got2, want)
		}
	}
	compare([]byte(doc))
	compare([]byte(strings.ReplaceAll(doc, "\n", "\r\n")))
	for _, li := range []int{2, 3, 4, 7} {
		line := lines[li]
		for pos := 0; pos < len(line)-1; pos++ {
			for v := 0; v < 256; v++ {
				mut := []byte(line)
				mut[pos] = byte(v)
				in := []byte(strings.Join(lines[:li], "") + string(mut) + strings.Join(lines[li+1:], ""))
				compare(in)
			}
		}
	}
}
