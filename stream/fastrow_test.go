package stream

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// The fast row path must produce exactly the cells of the general scanner
// whenever it accepts a row.
func TestFastCellsMatchScanner(t *testing.T) {
	pieces := []string{"0", "7", "12345678", "123456789", "1234567812345678", "99999999", "-10000000", "4294967296", "1.25", "12345678.5", "-", "-3", "12", "007", "1.5", "1e3", "-0", "9223372036854775807", "99999999999999999999",
		"true", "false", "tru", "~", "^", "^{a}", "x", "a b", " a", "a ", "\t", "\"q\"", "a\"b", "", "é", "#", "@", "ab|", "\x01", "-a", "0x", "1.", ".5", "0.5", "-1.25", "1.5.5", "3.", "-."}
	r := rand.New(rand.NewPCG(3, 4))
	d := &Decoder{}
	accepted := 0
	for i := 0; i < 200000; i++ {
		n := 1 + r.IntN(5)
		parts := make([]string, n)
		for j := range parts {
			parts[j] = pieces[r.IntN(len(pieces))]
			if r.IntN(4) == 0 {
				parts[j] += pieces[r.IntN(len(pieces))]
			}
		}
		line := []byte(strings.Join(parts, "|"))
		switch r.IntN(3) {
		case 0: // the line ends its buffer: no byte past it may be read
			line = line[:len(line):len(line)]
		case 1: // the line's buffer goes on with other bytes
			buf := append(line, []byte(pieces[r.IntN(len(pieces))]+"\n7|8")...)
			line = buf[:len(line)]
		}
		want := 1 + r.IntN(5)
		d.cells = d.cells[:0]
		if !d.fastCells(line, 0, want) {
			continue
		}
		accepted++
		fast := append([]lexer.Scalar(nil), d.cells...)
		var slow []lexer.Scalar
		var scratch []byte
		p := 0
		for {
			var s lexer.Scalar
			end, err := lexer.ScanInto(&s, line, p, '|', &scratch)
			if err != nil {
				t.Fatalf("%q: fast path accepted, scanner fails: %v", line, err)
			}
			slow = append(slow, s)
			if end >= len(line) {
				break
			}
			p = end + 1
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q (want %d):\nfast %+v\nslow %+v", line, want, fast, slow)
		}
	}
	if accepted < 10000 {
		t.Fatalf("the fast path accepted only %d rows", accepted)
	}
}

func TestPadWordPadsPastTheEnd(t *testing.T) {
	buf := []byte("ab\n1234567")
	for _, b := range [][]byte{buf[:2], buf[:2:2], []byte("ab")} {
		if got, want := padWord(b, 0, ' '), padWord([]byte("ab      "), 0, ' '); got != want {
			t.Fatalf("padWord(%q, cap %d) = %x, want %x", b, cap(b), got, want)
		}
	}
}

// plainFields must split exactly like strings.Fields on spaces whenever the
// line is printable ASCII, and refuse any other line.
func TestPlainFieldsMatchesSplit(t *testing.T) {
	pieces := []string{"a", "fn", "github.com/x/y.Z", " ", "  ", "0.5", "é", "\t", "~", "@1", "x\x7f"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 100000 {
		var sb strings.Builder
		for range r.IntN(8) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(2) == 0 {
				sb.WriteByte(' ')
			}
		}
		line := []byte(sb.String())
		if r.IntN(2) == 0 {
			line = line[:len(line):len(line)]
		} else {
			line = append(line, "\nzz zz zz"...)[:len(line)]
		}
		from := 0
		if len(line) > 0 {
			from = r.IntN(len(line))
		}
		max := 1 + r.IntN(6)
		cells, ok, plain := plainFields(nil, line, from, 10, max)
		rest := string(line[from:])
		isPlain := true
		for _, c := range []byte(rest) {
			isPlain = isPlain && c >= 0x20 && c <= 0x7e
		}
		if plain != isPlain {
			t.Fatalf("%q from %d: plain=%v, want %v", line, from, plain, isPlain)
		}
		if !plain {
			continue
		}
		want := strings.FieldsFunc(rest, func(c rune) bool { return c == ' ' })
		if ok != (len(want) <= max) {
			t.Fatalf("%q from %d max %d: ok=%v for %d fields", line, from, max, ok, len(want))
		}
		if !ok {
			want = want[:max]
		}
		if len(cells) != len(want) {
			t.Fatalf("%q from %d: %d cells, want %d", line, from, len(cells), len(want))
		}
		for k, c := range cells {
			if string(c.Bytes) != want[k] || c.Kind != lexer.KindString || string(line[c.Col-10:c.Col-10+len(c.Bytes)]) != want[k] {
				t.Fatalf("%q from %d: cell %d = %+v, want %q", line, from, k, c, want[k])
			}
		}
	}
}
