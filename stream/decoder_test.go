package stream

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// render writes the event stream in a compact text form for comparisons.
func render(t *testing.T, in string) (string, error) {
	t.Helper()
	d := NewBytesDecoder([]byte(in), Limits{})
	var sb strings.Builder
	for i := 0; i < 10000; i++ {
		ev, err := d.Next()
		if err == io.EOF {
			return sb.String(), nil
		}
		if err != nil {
			return sb.String(), err
		}
		sb.WriteString(describe(ev))
		sb.WriteByte('\n')
	}
	t.Fatal("runaway event stream")
	return "", nil
}

func describe(ev Event) string {
	var sb strings.Builder
	sb.WriteString(ev.Kind.String())
	if ev.Key != nil {
		fmt.Fprintf(&sb, " key=%q", ev.Key)
	}
	if ev.ID >= 0 && ev.Kind != KindHeader {
		fmt.Fprintf(&sb, " id=%d", ev.ID)
	}
	if ev.Field >= 0 {
		fmt.Fprintf(&sb, " field=%d", ev.Field)
	}
	if ev.Kind == KindArrayStart || (ev.Kind == KindObjectStart && ev.Form == FormKeyed) {
		fmt.Fprintf(&sb, " form=%d count=%d", ev.Form, ev.Count)
	}
	if len(ev.Fields) > 0 && ev.Kind != KindRow && ev.Kind != KindHeader && ev.Kind != KindSummary {
		sb.WriteString(" fields=")
		for i, f := range ev.Fields {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.Write(f)
		}
	}
	if ev.Kind == KindScalar {
		fmt.Fprintf(&sb, " %s:%q", ev.Value.Kind, ev.Value.Bytes)
	}
	if len(ev.Cells) > 0 {
		sb.WriteString(" [")
		for i, c := range ev.Cells {
			if i > 0 {
				sb.WriteByte('|')
			}
			fmt.Fprintf(&sb, "%s:%s", c.Kind, c.Bytes)
		}
		sb.WriteByte(']')
	}
	return sb.String()
}

func TestEvents(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"root scalar", "GCF profile=generic\n=42\n",
			"header [string:generic]\nscalar int:\"42\"\nend\n"},
		{"empty root object", "GCF profile=generic\n",
			"header [string:generic]\nobject start\nobject end\nend\n"},
		{"kv and section", "GCF profile=generic\na=1\n## s\n  b=\"x y\"\nc=-\n",
			"header [string:generic]\nobject start\nscalar key=\"a\" int:\"1\"\nobject start key=\"s\"\nscalar key=\"b\" string:\"x y\"\nobject end\nscalar key=\"c\" null:\"-\"\nobject end\nend\n"},
		{"inline array", "GCF profile=generic\ntags[2]: a,\"b,c\"\n",
			"header [string:generic]\nobject start\narray start key=\"tags\" form=2 count=2 [string:a|string:b,c]\narray end\nobject end\nend\n"},
		{"table then member", "GCF profile=generic\n## t [2]{a,b}\n1|~\n-|x\nz=true\n",
			"header [string:generic]\nobject start\narray start key=\"t\" form=3 count=2 fields=a,b\nrow [int:1|missing:~]\nrow [null:-|string:x]\narray end\nscalar key=\"z\" bool:\"true\"\nobject end\nend\n"},
		{"expanded", "GCF profile=generic\n## [3]\n@0 =a\n@1 {}\n  k=v\n@2 [0]\n",
			"header [string:generic]\narray start form=4 count=3\nscalar id=0 string:\"a\"\nobject start id=1\nscalar key=\"k\" string:\"v\"\nobject end\narray start id=2 form=1 count=0\narray end\narray end\nend\n"},
		{"attachments", "GCF profile=generic\n## [1]{id,o,l}\n@0 1|^|^\n.o {}\n    k=1\n.l [1]: x\n",
			"header [string:generic]\narray start form=3 count=1 fields=id,o,l\nrow id=0 [int:1|attachment:^|attachment:^]\nobject start key=\"o\" field=1\nscalar key=\"k\" int:\"1\"\nobject end\narray start key=\"l\" field=2 form=2 count=1 [string:x]\narray end\narray end\nend\n"},
		{"inline schema", "GCF profile=generic\n## [2]{c}\n@0 ^{a,b}\n1|2\n@1 ^\n3|4\n",
			"header [string:generic]\narray start form=3 count=2 fields=c\nrow id=0 [attachment schema:{a,b}]\ninline body key=\"c\" field=0 fields=a,b [int:1|int:2]\nrow id=1 [attachment:^]\ninline body key=\"c\" field=0 fields=a,b [int:3|int:4]\narray end\nend\n"},
		{"keyed map and summary", "GCF profile=generic\n## m [?:]{key,v}\nk1|1\nk2|2\n##! summary counts=2\n",
			"header [string:generic]\nobject start\nobject start key=\"m\" form=5 count=-1 fields=key,v\nrow [string:k1|int:1]\nrow [string:k2|int:2]\nobject end\nobject end\nsummary [string:2]\nend\n"},
		{"comments, blank lines and CRLF", "GCF profile=generic\r\n# c\r\n\r\n## t [1]{a}\r\n  # indented comment\r\n1\r\n",
			"header [string:generic]\nobject start\narray start key=\"t\" form=3 count=1 fields=a\nrow [int:1]\narray end\nobject end\nend\n"},
		{"shared array schema", "GCF profile=generic\n## [2]{i}\n@0 ^\n.i [1]{a}\n    1\n@1 ^\n.i [1]\n    2\n",
			"header [string:generic]\narray start form=3 count=2 fields=i\nrow id=0 [attachment:^]\narray start key=\"i\" field=0 form=3 count=1 fields=a\nrow [int:1]\narray end\nrow id=1 [attachment:^]\narray start key=\"i\" field=0 form=3 count=1 fields=a\nrow [int:2]\narray end\narray end\nend\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, tt.in)
			if err != nil {
				t.Fatalf("unexpected error %v after\n%s", err, got)
			}
			if got != tt.want {
				t.Fatalf("events differ\n got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// errorCase is a payload that must fail with a category at a position.
type errorCase struct {
	name, in  string
	cat       lexer.Category
	line, col int
}

// checkErrors decodes each case and requires its category, line and
// column, and that errors.Is matches the category.
func checkErrors(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := render(t, tt.in)
			var se *lexer.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("want %s, got %v", tt.cat, err)
			}
			if se.Category != tt.cat || se.Line != tt.line || se.Column != tt.col {
				t.Fatalf("want %s at %d:%d, got %s at %d:%d (%s)", tt.cat, tt.line, tt.col, se.Category, se.Line, se.Column, se.Msg)
			}
			if !errors.Is(err, tt.cat) {
				t.Fatalf("errors.Is(err, %s) is false", tt.cat)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []errorCase{
		{"missing header", "value=1\n", lexer.MissingHeader, 1, 1},
		{"empty input", "", lexer.MissingHeader, 1, 1},
		{"missing profile", "GCF tool=x\n", lexer.MissingProfile, 1, 1},
		{"unknown profile", "GCF profile=x\n", lexer.UnknownProfile, 1, 13}, // at the value
		{"malformed header field", "GCF profile=generic oops\n", lexer.MalformedHeaderField, 1, 21},
		{"duplicate header field", "GCF profile=generic tool=a tool=b\n", lexer.DuplicateHeaderField, 1, 28},
		{"tilde in kv", "GCF profile=generic\nv=~\n", lexer.InvalidMissing, 2, 3},
		{"caret in kv", "GCF profile=generic\nv=^\n", lexer.InvalidAttachmentMarker, 2, 3},
		{"caret in inline array", "GCF profile=generic\nv[1]: ^\n", lexer.InvalidAttachmentMarker, 2, 7},
		{"tilde in item", "GCF profile=generic\n## [1]\n@0 =~\n", lexer.InvalidMissing, 3, 5},
		{"unterminated", "GCF profile=generic\nv=\"abc\n", lexer.UnterminatedQuote, 2, 3},
		{"bad escape", "GCF profile=generic\nv=\"a\\qb\"\n", lexer.InvalidEscape, 2, 5},
		{"trailing after quote", "GCF profile=generic\nv=\"a\"b\n", lexer.TrailingCharacters, 2, 6},
		{"lone low surrogate", "GCF profile=generic\nv=\"\\udc00\"\n", lexer.InvalidSurrogate, 2, 4},
		{"invalid utf8", "GCF profile=generic\nv=a\xffb\n", lexer.InvalidUTF8, 2, 4},
		{"literal surrogate", "GCF profile=generic\nv=\xed\xa0\x80\n", lexer.InvalidSurrogate, 2, 3},
		{"duplicate key", "GCF profile=generic\na=1\na=2\n", lexer.DuplicateKey, 3, 1},
		{"duplicate section key", "GCF profile=generic\na=1\n## a\n", lexer.DuplicateKey, 3, 4},
		{"duplicate field", "GCF profile=generic\n## t [1]{a,a}\n1|2\n", lexer.DuplicateFieldName, 2, 12}, // the second occurrence
		{"row width", "GCF profile=generic\n## t [1]{a,b}\n1\n", lexer.RowWidthMismatch, 3, 1},
		{"row too wide", "GCF profile=generic\n## t [1]{a}\n1|2\n", lexer.RowWidthMismatch, 3, 1},
		{"count deficit at EOF", "GCF profile=generic\n## t [2]{a}\n1\n", lexer.CountMismatch, 3, 1}, // the last line, never past the input
		{"count surplus at root", "GCF profile=generic\n## [1]{a}\n1\n2\n", lexer.CountMismatch, 4, 1},
		{"count deficit before section", "GCF profile=generic\n## t [2]{a}\n1\n## u\n", lexer.CountMismatch, 4, 1},
		{"inline count", "GCF profile=generic\nt[3]: a,b\n", lexer.CountMismatch, 2, 2},
		{"leading zero count", "GCF profile=generic\n## t [01]{a}\n", lexer.InvalidCount, 2, 6},
		{"huge count", "GCF profile=generic\n## t [2000000000]{a}\n1\n", lexer.TooManyElements, 2, 6},
		{"zero keyed count", "GCF profile=generic\n## [0:]{k,v}\n", lexer.InvalidCount, 2, 4},
		{"keyed one field", "GCF profile=generic\n## [1:]{k}\na\n", lexer.InvalidKeyedMap, 2, 8},
		{"keyed duplicate member", "GCF profile=generic\n## [2:]{k,v}\na|1\na|2\n", lexer.DuplicateKey, 4, 1},
		{"tab indentation", "GCF profile=generic\n## s\n\tk=v\n", lexer.TabIndentation, 3, 1},
		{"odd indentation", "GCF profile=generic\n## s\n   k=v\n", lexer.InvalidIndent, 3, 4},
		{"indent jump", "GCF profile=generic\n## s\n    k=v\n", lexer.InvalidIndent, 3, 5},
		{"indent without opener", "GCF profile=generic\na=1\n  b=2\n", lexer.InvalidIndent, 3, 3},
		{"item id", "GCF profile=generic\n## [2]\n@0 =a\n@2 =b\n", lexer.InvalidItemID, 4, 2},
		{"row id", "GCF profile=generic\n## [1]{a}\n@1 x\n", lexer.InvalidItemID, 3, 2},
		{"marker without id", "GCF profile=generic\n## [1]{a}\n^\n.a {}\n", lexer.InvalidItemID, 3, 1},
		{"orphan attachment", "GCF profile=generic\n## [1]{a}\n@0 1\n.a {}\n", lexer.OrphanAttachment, 4, 1},
		{"unknown attachment", "GCF profile=generic\n## [1]{a}\n@0 ^\n.b {}\n", lexer.OrphanAttachment, 4, 1},
		{"missing attachment", "GCF profile=generic\n## [1]{a}\n@0 ^\n", lexer.MissingAttachment, 3, 1}, // at EOF: the last line, never past the input
		{"missing before next row", "GCF profile=generic\n## [2]{a}\n@0 ^\n@1 ^\n.a {}\n", lexer.MissingAttachment, 4, 1},
		{"duplicate attachment", "GCF profile=generic\n## [1]{a}\n@0 ^\n.a {}\n.a {}\n", lexer.DuplicateAttachment, 5, 1},
		{"inline width", "GCF profile=generic\n## [1]{a}\n@0 ^{x,y}\n1\n", lexer.InlineWidthMismatch, 4, 1},
		{"orphan inline deeper", "GCF profile=generic\n## [1]{a}\n1\n  2|3\n", lexer.OrphanInlineAttachment, 4, 3},
		{"summary arity", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=1,2\n", lexer.CountMismatch, 4, 1},
		{"summary count", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=2\n", lexer.CountMismatch, 4, 1},
		{"summary labeled in generic", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=t:1\n", lexer.InvalidSummary, 4, 1},
		{"after summary", "GCF profile=generic\n##! summary\nx=1\n", lexer.InvalidSummary, 3, 1},
		{"out of range", "GCF profile=generic\nv=9223372036854775808\n", lexer.OutOfRange, 2, 3},
		{"path collision", "GCF profile=generic\n## [1]{a,\"a>b\"}\n1|2\n", lexer.DuplicateKey, 2, 10}, // the later field
		{"content after root scalar", "GCF profile=generic\n=1\nx=2\n", lexer.InvalidLine, 3, 1},
		{"garbage member", "GCF profile=generic\njust text\n", lexer.InvalidLine, 2, 1},
	}
	checkErrors(t, tests)
}

// TestStickyError: after an error, Next keeps returning it.
func TestStickyError(t *testing.T) {
	d := NewBytesDecoder([]byte("GCF profile=generic\nv=~\nw=1\n"), Limits{})
	var first error
	for i := 0; i < 5; i++ {
		_, err := d.Next()
		if err != nil && first == nil {
			first = err
		} else if first != nil && err != first {
			t.Fatalf("error changed from %v to %v", first, err)
		}
	}
	if first == nil {
		t.Fatal("no error")
	}
}

func TestLimits(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("GCF profile=generic\n")
	for i := 0; i < 50; i++ {
		sb.WriteString(strings.Repeat("  ", i) + "## k\n")
	}
	nested := sb.String()
	check := func(name, in string, l Limits, cat lexer.Category) {
		t.Helper()
		d := NewBytesDecoder([]byte(in), l)
		for {
			_, err := d.Next()
			if err == io.EOF {
				t.Fatalf("%s: no error", name)
			}
			if err != nil {
				if lexer.CategoryOf(err) != cat {
					t.Fatalf("%s: want %s, got %v", name, cat, err)
				}
				return
			}
		}
	}
	check("depth", nested, Limits{MaxDepth: 10}, lexer.DepthExceeded)
	check("line", "GCF profile=generic\nv="+strings.Repeat("x", 200)+"\n", Limits{MaxLineBytes: 100}, lexer.LineTooLong)
	check("elements", "GCF profile=generic\n## [?]{a}\n1\n2\n3\n", Limits{MaxElements: 2}, lexer.TooManyElements)
	check("declared elements", "GCF profile=generic\n## [3]{a}\n1\n", Limits{MaxElements: 2}, lexer.TooManyElements)
	check("fields", "GCF profile=generic\n## [1]{a,b,c}\n1|2|3\n", Limits{MaxFields: 2}, lexer.TooManyFields)
	check("bytes", "GCF profile=generic\nv=1\n", Limits{MaxBytes: 10}, lexer.PayloadTooLarge)

	// The same limits through a reader.
	d := NewDecoder(strings.NewReader("GCF profile=generic\nv="+strings.Repeat("x", 5000)+"\n"), Limits{MaxLineBytes: 1000})
	for {
		_, err := d.Next()
		if err != nil {
			if lexer.CategoryOf(err) != lexer.LineTooLong {
				t.Fatalf("reader line limit: %v", err)
			}
			break
		}
	}
}

// TestLongLineBoundedMemory: a 64 MB line stops at the line limit without
// the buffer growing past it.
func TestLongLineBoundedMemory(t *testing.T) {
	r := io.MultiReader(strings.NewReader("GCF profile=generic\nv="), &zeros{n: 64 << 20})
	d := NewDecoder(r, Limits{MaxLineBytes: 1 << 16})
	for {
		_, err := d.Next()
		if err != nil {
			if lexer.CategoryOf(err) != lexer.LineTooLong {
				t.Fatalf("want line_too_long, got %v", err)
			}
			break
		}
	}
	if c := cap(d.lr.buf); c > 1<<17 {
		t.Fatalf("buffer grew to %d bytes", c)
	}
}

type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	if len(p) > z.n {
		p = p[:z.n]
	}
	for i := range p {
		p[i] = 'a'
	}
	z.n -= len(p)
	return len(p), nil
}

// failingReader fails every read.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// TestReaderError: a failing reader's error comes back wrapped with its position.
func TestReaderError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("GCF profile=generic\nx=1\n"), failingReader{})
	d := NewDecoder(r, Limits{})
	for {
		_, err := d.Next()
		if err == nil {
			continue
		}
		if lexer.CategoryOf(err) != lexer.ReadFailure || !strings.Contains(err.Error(), "disk on fire") {
			t.Fatalf("want wrapped read error, got %v", err)
		}
		var se *lexer.SyntaxError
		if !errors.As(err, &se) || se.Err == nil || se.Offset == 0 {
			t.Fatalf("error lacks cause or offset: %#v", err)
		}
		return
	}
}

// TestTableAllocs: walking a table makes no allocation per row.
func TestTableAllocs(t *testing.T) {
	gen := func(rows int) []byte {
		var sb strings.Builder
		fmt.Fprintf(&sb, "GCF profile=generic\n## t [%d]{id,name,\"a b\",ok}\n", rows)
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&sb, "%d|name %d|\"q\\n%d\"|true\n", i, i, i)
		}
		return []byte(sb.String())
	}
	small, large := gen(100), gen(10000)
	d := NewBytesDecoder(small, Limits{})
	walk := func(data []byte) {
		d.ResetBytes(data, Limits{})
		for {
			if _, err := d.Next(); err != nil {
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
		t.Fatalf("allocations grow with rows: %v for 100 rows, %v for 10,000", a, b)
	}
}

// TestResetAfterBytesKeepsInput checks that a decoder made for a byte slice
// and then Reset to an io.Reader reads into a buffer of its own, never into
// the caller's slice, and allocates no read buffer for the slice.
func TestResetAfterBytesKeepsInput(t *testing.T) {
	data := []byte("GCF profile=generic\na=1\n")
	keep := string(data)
	d := NewBytesDecoder(data, Limits{})
	if cap(d.lr.own) != 0 {
		t.Fatalf("a byte input allocated a %d-byte read buffer", cap(d.lr.own))
	}
	for {
		if _, err := d.Next(); err != nil {
			break
		}
	}
	other := "GCF profile=generic\nname=" + strings.Repeat("x", 300) + "\nb=2\n"
	d.Reset(strings.NewReader(other))
	var keys []string
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindScalar {
			keys = append(keys, string(ev.Key))
		}
	}
	if string(data) != keep {
		t.Fatalf("Reset read into the caller's slice: %q", data)
	}
	if strings.Join(keys, ",") != "name,b" {
		t.Fatalf("keys %q", keys)
	}
}
