package stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gcfkit/gcf/lexer"
)

// walk runs d to the end and returns the first error (nil at a clean end).
func walk(d *Decoder) error {
	for {
		if _, err := d.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

const truncGeneric = `GCF profile=generic
title="a \"quoted\" title"
## rows [3]{id,name,tags}
@0 1|"x, y"|^
.tags [2]: a,b
@1 2|z|^
.tags [0]
@2 3|"w"|^
.tags [1]: c
## m [2:]{key,v,w}
k1|1|2
k2|3|4
## later [?]{a}
1
2
##! summary counts=2
`

const truncGraph = `GCF profile=graph tool=t symbols=2 edges=1
## targets
@0 fn a.F 0.90 p
## related
@1 type a.T 0.50 q
## edges [1]
@1<@0 calls
`

// Every proper prefix of a payload cut inside a line, or before a
// declared count is reached, is an error carrying a position; none panics.
// A prefix that ends at a line boundary may itself be a valid payload (a
// root object can end anywhere), so those are only required not to panic.
func TestTruncatedInputIsAnError(t *testing.T) {
	for name, full := range map[string]string{"generic": truncGeneric, "graph": truncGraph} {
		if err := walk(NewBytesDecoder([]byte(full), Limits{})); err != nil {
			t.Fatalf("%s: the whole payload fails: %v", name, err)
		}
		for cut := 0; cut < len(full); cut++ {
			prefix := full[:cut]
			err := walk(NewDecoder(iotest.HalfReader(strings.NewReader(prefix)), Limits{}))
			if err == nil {
				continue
			}
			var se *lexer.SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 {
				t.Fatalf("%s cut at %d: error without a position: %#v", name, cut, err)
			}
		}
	}
	for _, c := range []struct {
		name, in string
		cat      lexer.Category
		line     int
	}{
		{"mid-quote", "GCF profile=generic\nt=\"abc", lexer.UnterminatedQuote, 2},
		{"mid-row", "GCF profile=generic\n## r [2]{a,b}\n1|2\n3", lexer.RowWidthMismatch, 4},
		{"before the declared count", "GCF profile=generic\n## r [3]{a,b}\n1|2\n3|4\n", lexer.CountMismatch, 4}, // the last line, never past the input
		{"before an attachment", "GCF profile=generic\n## r [1]{a,b}\n@0 1|^\n", lexer.MissingAttachment, 3},
		{"graph before the declared edges", truncGraph[:len(truncGraph)-len("@1<@0 calls\n")], lexer.CountMismatch, 0},
		{"header only, mid-line", "GCF prof", lexer.MalformedHeaderField, 1},
	} {
		err := walk(NewBytesDecoder([]byte(c.in), Limits{}))
		var se *lexer.SyntaxError
		if !errors.As(err, &se) || se.Category != c.cat || (c.line > 0 && se.Line != c.line) {
			t.Errorf("%s: got %v, want %s at line %d", c.name, err, c.cat, c.line)
		}
	}
}

// A streamed table cut off before its trailer is valid by SPEC §8.6; the
// End event says the count went unconfirmed, and RequireSummary turns it
// into an error.
func TestMissingTrailer(t *testing.T) {
	cut := strings.TrimSuffix(truncGeneric, "##! summary counts=2\n")
	d := NewBytesDecoder([]byte(cut), Limits{})
	var end Event
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		end = ev
	}
	if end.Kind != KindEnd || end.Count != 1 {
		t.Fatalf("last event %v with Count %d, want End with Count 1", end.Kind, end.Count)
	}
	err := walk(NewBytesDecoder([]byte(cut), Limits{RequireSummary: true}))
	var se *lexer.SyntaxError
	if !errors.As(err, &se) || se.Category != lexer.UnexpectedEOF || se.Line != 15 {
		t.Fatalf("RequireSummary: got %v, want unexpected_eof at line 15 (the last line, never past the input)", err)
	}
	if err := walk(NewBytesDecoder([]byte(truncGeneric), Limits{RequireSummary: true})); err != nil {
		t.Fatalf("RequireSummary with the trailer: %v", err)
	}
	// A buffered payload needs no trailer.
	if err := walk(NewBytesDecoder([]byte(truncGraph), Limits{RequireSummary: true})); err != nil {
		t.Fatalf("RequireSummary on a counted payload: %v", err)
	}
	graphStream := "GCF profile=graph\n## targets\n@0 fn a 0.50 p\n## edges [?]\n@0<@0 calls\n"
	if err := walk(NewBytesDecoder([]byte(graphStream), Limits{RequireSummary: true})); lexer.CategoryOf(err) != lexer.UnexpectedEOF {
		t.Fatalf("graph [?] without a trailer: %v", err)
	}
	if err := walk(NewBytesDecoder([]byte(graphStream+"##! summary symbols=1 edges=1\n"), Limits{RequireSummary: true})); err != nil {
		t.Fatalf("graph with its trailer: %v", err)
	}
}

// countingReader counts the bytes handed out.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A 1 GB line stops at the line limit: the decoder reads little more than
// the limit and its buffer never grows past it.
func TestGigabyteLine(t *testing.T) {
	src := &countingReader{r: io.MultiReader(strings.NewReader("GCF profile=generic\nv="), &zeros{n: 1 << 30})}
	d := NewDecoder(src, Limits{})
	err := walk(d)
	if lexer.CategoryOf(err) != lexer.LineTooLong {
		t.Fatalf("got %v, want line_too_long", err)
	}
	if src.n > 4*DefaultMaxLineBytes {
		t.Fatalf("read %d bytes of a 1 GB line before giving up", src.n)
	}
	if c := cap(d.lr.buf); c > 2*DefaultMaxLineBytes+64<<10 {
		t.Fatalf("buffer grew to %d bytes", c)
	}
}

// deepNesting generates n levels of `## k` sections on demand, so the
// test never holds the (quadratic) whole input.
type deepNesting struct {
	level, n int
	pending  []byte
}

func (g *deepNesting) Read(p []byte) (int, error) {
	if len(g.pending) == 0 {
		if g.level == 0 {
			g.pending = []byte("GCF profile=generic\n")
		} else if g.level > g.n {
			return 0, io.EOF
		} else {
			g.pending = append(bytes.Repeat([]byte("  "), g.level-1), "## k\n"...)
		}
		g.level++
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

func TestHundredThousandLevels(t *testing.T) {
	src := &deepNesting{n: 100_000}
	err := walk(NewDecoder(src, Limits{}))
	var se *lexer.SyntaxError
	if !errors.As(err, &se) || se.Category != lexer.DepthExceeded || se.Line != DefaultMaxDepth+1 {
		t.Fatalf("got %v, want depth_exceeded at line %d", err, DefaultMaxDepth+1)
	}
	if src.level > DefaultMaxDepth+8 {
		t.Fatalf("generated %d levels before stopping", src.level)
	}
}
