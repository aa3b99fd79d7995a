package stream

import (
	"math/rand/v2"
	"reflect"
	"strconv"
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
	accepted, plainRows := 0, 0
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
		want := 1 + r.IntN(5)
		// Both scans: the general one, and the plain-line one where
		// lexer.CheckLineClass allows it; they must accept alike.
		_, plain, _ := lexer.CheckLineClass(line)
		d.plain, d.cells = false, d.cells[:0]
		ok, _ := d.fastCells(line, 0, want)
		general := append([]lexer.Scalar(nil), d.cells...)
		if plain {
			d.plain, d.cells = true, d.cells[:0]
			okPlain, _ := d.fastCells(line, 0, want)
			if okPlain != ok || ok && !reflect.DeepEqual(general, d.cells) {
				t.Fatalf("%q (want %d): the plain-line scan (%v) differs from the general one (%v)", line, want, okPlain, ok)
			}
			plainRows++
		}
		if !ok {
			continue
		}
		accepted++
		fast := general
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
	if accepted < 10000 || plainRows < 10000 {
		t.Fatalf("the fast path accepted only %d rows (%d plain lines)", accepted, plainRows)
	}
}

// digitRun and parseDigits against a byte loop and strconv: every plain
// byte value (the only lines digitRun reads) at every position of lines
// of 8-20 bytes around digit runs, from every start, the last word
// shifted in at the line's end.
func TestDigitRunMatchesLoop(t *testing.T) {
	base := "1234567|89.0123456789"
	for n := 8; n <= 20; n++ {
		for pos := 0; pos < n; pos++ {
			for v := 0x20; v < 0x7f; v++ {
				line := []byte(base[:n])
				line[pos] = byte(v)
				for j := 0; j <= n; j++ {
					want := 0
					for j+want < n && line[j+want] >= '0' && line[j+want] <= '9' {
						want++
					}
					got, x := digitRun(line, j)
					if min(want, 8) != got {
						t.Fatalf("digitRun(%q, %d) = %d, want %d", line, j, got, min(want, 8))
					}
					if got > 0 && got < 8 {
						u, _ := strconv.ParseUint(string(line[j:j+got]), 10, 64)
						if p := parseDigits(x, got); p != u {
							t.Fatalf("parseDigits(%q) = %d, want %d", line[j:j+got], p, u)
						}
					}
				}
			}
		}
	}
}

// The plain-line scan against the general one on rows of numbers: every
// plain byte value at every position.
func TestFastCellsNumbersEveryByte(t *testing.T) {
	rows := []string{"306.56|1|1064.64", "-7|0|12345678|1.5", "a|4294967296|-0.25", "9|8.7654321|12"}
	d := &Decoder{}
	for _, row := range rows {
		want := strings.Count(row, "|") + 1
		for pos := 0; pos < len(row); pos++ {
			for v := 0x20; v < 0x7f; v++ {
				line := []byte(row)
				line[pos] = byte(v)
				if _, plain, _ := lexer.CheckLineClass(line); !plain {
					continue
				}
				d.plain, d.cells = false, d.cells[:0]
				ok, _ := d.fastCells(line, 0, want)
				general := append([]lexer.Scalar(nil), d.cells...)
				d.plain, d.cells = true, d.cells[:0]
				okPlain, _ := d.fastCells(line, 0, want)
				if okPlain != ok || ok && !reflect.DeepEqual(general, d.cells) {
					t.Fatalf("%q: the plain-line scan (%v %+v) differs from the general one (%v %+v)", line, okPlain, d.cells, ok, general)
				}
			}
		}
	}
}
