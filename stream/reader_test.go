package stream

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/gcfkit/gcf/lexer"
)

// The ASCII check runs ahead of the current line in chunks; whatever the
// chunking and the reads, the first line that is not valid UTF-8 must be
// the one reported, and valid non-ASCII lines must pass.
func TestLineReaderASCIIAhead(t *testing.T) {
	cells := []string{"abc", "Zoë", "12", "x y", "\xff", "\xed\xa0\x80", "日本", "true"}
	r := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		var sb strings.Builder
		sb.WriteString("GCF profile=generic\n## t [?]{a,b}\n")
		lines := 2 + r.IntN(400)
		bad := 0
		for i := range lines {
			a := cells[r.IntN(len(cells))]
			if r.IntN(20) != 0 && (a == "\xff" || a == "\xed\xa0\x80") {
				a = "ok" // keep invalid lines rare
			}
			sb.WriteString(a + "|" + strings.Repeat("w", r.IntN(90)) + "\n")
			if bad == 0 && !utf8.ValidString(a) {
				bad = i + 3
			}
		}
		in := sb.String()
		for _, rd := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
			for _, d := range []*Decoder{NewDecoder(rd, Limits{}), NewBytesDecoder([]byte(in), Limits{})} {
				var err error
				for err == nil {
					_, err = d.Read()
				}
				var se *lexer.SyntaxError
				switch {
				case bad == 0 && err != io.EOF:
					t.Fatalf("valid input: %v", err)
				case bad != 0 && (!errors.As(err, &se) || se.Line != bad ||
					se.Category != lexer.InvalidUTF8 && se.Category != lexer.InvalidSurrogate):
					t.Fatalf("want a UTF-8 error on line %d, got %v\n%s", bad, err, bytes.Split([]byte(in), []byte("\n"))[bad-1])
				}
			}
		}
	}
}
