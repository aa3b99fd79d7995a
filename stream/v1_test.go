package stream

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// walkV1 reads data to the end in v1 mode and returns the events' kinds.
func walkV1(t *testing.T, d *Decoder, data []byte, limits Limits) []Kind {
	d.ResetBytes(data, limits)
	d.SetWire(WireV1)
	var kinds []Kind
	for {
		ev, err := d.Read()
		if err == io.EOF {
			return kinds
		}
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, ev.Kind)
	}
}

// The v1 mode makes no allocation per line in steady state, like v3:
// tables and graph lines of 10,000 entries cost no more than of 100.
func TestV1Allocs(t *testing.T) {
	table := func(rows int) []byte {
		var sb strings.Builder
		fmt.Fprintf(&sb, "## t [%d]{id,name,note,ok}\n", rows)
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&sb, "%d|name %d|\"q\\n%d\"|true\n", i, i, i)
		}
		return []byte(sb.String())
	}
	graph := func(n int) []byte {
		var sb strings.Builder
		fmt.Fprintf(&sb, "GCF tool=t symbols=%d\n## targets\n", n)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&sb, "@%d fn pkg.F%d 0.5 lsp\n", i, i)
		}
		sb.WriteString("## edges\n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&sb, "@0<@%d calls\n", i)
		}
		return []byte(sb.String())
	}
	for name, gen := range map[string]func(int) []byte{"table": table, "graph": graph} {
		small, large := gen(100), gen(10000)
		d := NewBytesDecoder(nil, Limits{})
		walk := func(data []byte) {
			d.ResetBytes(data, Limits{})
			d.SetWire(WireV1)
			for {
				if _, err := d.Read(); err != nil {
					if err != io.EOF {
						t.Fatal(err)
					}
					return
				}
			}
		}
		walk(large) // warm buffers
		a := testing.AllocsPerRun(5, func() { walk(small) })
		b := testing.AllocsPerRun(5, func() { walk(large) })
		if b > a {
			t.Fatalf("%s: allocations grow with lines: %v for 100, %v for 10,000", name, a, b)
		}
	}
}

// The v1 generic events are those of v3: a table row's nested fields are
// attachments, a root scalar is a root scalar event.
func TestV1GenericEvents(t *testing.T) {
	d := NewBytesDecoder(nil, Limits{})
	got := walkV1(t, d, []byte("a=1\n## t [1]{x}\n@0 5\n  ## c\n  k=v\n## e [0]\n"), Limits{})
	want := []Kind{KindHeader, KindObjectStart, KindScalar, KindArrayStart, KindRow, KindObjectStart, KindScalar, KindObjectEnd,
		KindArrayEnd, KindArrayStart, KindArrayEnd, KindObjectEnd, KindEnd}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if got := walkV1(t, d, []byte("hello world"), Limits{}); fmt.Sprint(got) != fmt.Sprint([]Kind{KindHeader, KindScalar, KindEnd}) {
		t.Fatalf("root scalar: %v", got)
	}
}

// Limits hold in v1 mode, with the v3 categories.
func TestV1Limits(t *testing.T) {
	for _, tc := range []struct {
		in  string
		lim Limits
		cat lexer.Category
	}{
		{"## a\n  ## b\n    ## c\n      x=1\n", Limits{MaxDepth: 2}, lexer.DepthExceeded},
		{"## t [3]{a}\n1\n2\n3\n", Limits{MaxElements: 2}, lexer.TooManyElements},
		{"## t [1]{a,b,c}\n1|2|3\n", Limits{MaxFields: 2}, lexer.TooManyFields},
		{"a=" + strings.Repeat("x", 100) + "\n", Limits{MaxLineBytes: 50}, lexer.LineTooLong},
		{"GCF tool=t\n## targets\n@0 fn a 0.1 x\n@1 fn b 0.1 x\n", Limits{MaxElements: 1}, lexer.TooManyElements},
		{"## t [?]{a}\n1\n", Limits{RequireSummary: true}, lexer.UnexpectedEOF},
	} {
		d := NewBytesDecoder([]byte(tc.in), tc.lim)
		d.SetWire(WireV1)
		var err error
		for err == nil {
			_, err = d.Read()
		}
		if lexer.CategoryOf(err) != tc.cat {
			t.Errorf("%q: got %v, want %s", tc.in, err, tc.cat)
		}
	}
}
