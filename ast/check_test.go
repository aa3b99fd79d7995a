package ast_test

import (
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// TestSharedRules checks the rules both parsers implement (numbers, control
// characters, the BOM, graph names, error positions) on ast.Parse and on
// ast.Check: the first diagnostic's category, line and column.
func TestSharedRules(t *testing.T) {
	const g = "GCF profile=generic\n"
	const gr = "GCF profile=graph\n## targets\n"
	for _, tc := range []struct {
		name, in  string
		cat       lexer.Category // "" means valid
		line, col int
	}{
		{"float overflow", g + "a=1e309\n", lexer.OutOfRange, 2, 3},
		{"negative float overflow", g + "a=-1e309\n", lexer.OutOfRange, 2, 3},
		{"long float overflow", g + "a=1" + strings.Repeat("0", 400) + ".5\n", lexer.OutOfRange, 2, 3},
		{"float overflow in a cell", g + "## t [1]{a,b}\nx|1e400\n", lexer.OutOfRange, 3, 3},
		{"underflow is zero", g + "a=1e-400\nb=-1e-400\n", "", 0, 0},
		{"int64 overflow", g + "a=9223372036854775808\n", lexer.OutOfRange, 2, 3},
		{"header symbols overflow", "GCF profile=graph symbols=99999999999999999999\n", lexer.OutOfRange, 1, 27},
		{"header edges overflow", "GCF profile=graph edges=-99999999999999999999\n", lexer.OutOfRange, 1, 25},
		{"summary counts overflow", g + "## t [?]{a}\n1\n##! summary counts=99999999999999999999\n", lexer.OutOfRange, 4, 20},
		{"NUL in a bare value", g + "a=x\x00y\n", lexer.InvalidEscape, 2, 4},
		{"lone CR in a bare value", g + "a=x\ry\n", lexer.InvalidEscape, 2, 4},
		{"C1 in a bare value", g + "a=x\u0085y\n", lexer.InvalidEscape, 2, 4},
		{"control in a cell", g + "## t [1]{a,b}\nx|y\x01\n", lexer.InvalidEscape, 3, 4},
		{"control in a quoted string", g + "a=\"x\x01\"\n", lexer.InvalidEscape, 2, 5},
		{"tab in a bare value is data", g + "a=x\ty\n", "", 0, 0},
		{"CRLF line ends", g + "a=1\r\nb=2\r\n", "", 0, 0},
		{"BOM", "\xEF\xBB\xBFGCF profile=generic\n", lexer.MissingHeader, 1, 1},
		{"non-ASCII qualified name", gr + "@0 fn \u0bd7pkg.handler 0.90 \u0bd7\n", "", 0, 0},
		{"non-ASCII edge type", gr + "@0 fn a 0.90 lsp\n## edges\n@0<@0 \u00e9calls\n", "", 0, 0},
		{"NBSP in a qualified name", gr + "@0 fn a\u00a0b 0.90 lsp\n", lexer.InvalidNodeLine, 3, 8},
		// A tab separates fields, as in the pull decoder: six fields.
		{"tab in a qualified name", gr + "@0 fn a\tb 0.90 lsp\n", lexer.InvalidNodeLine, 3, 1},
		{"two surplus edges: the first one", gr + "@0 fn a 0.90 lsp\n## edges [1]\n@0<@0 a\n@0<@0 b\n@0<@0 c\n", lexer.CountMismatch, 6, 1},
		{"C1 in provenance", gr + "@0 fn a 0.90 l\u0085\n", lexer.InvalidNodeLine, 3, 15},
		{"DEL in an edge type", gr + "@0 fn a 0.90 lsp\n## edges\n@0<@0 ca\x7fll\n", lexer.InvalidEdgeSyntax, 5, 9},
		{"count deficit ends at the next line", g + "## t [3]{a}\n1\nb=2\n", lexer.CountMismatch, 4, 1},
		{"count deficit at EOF is on the last line", g + "## t [3]{a}\n1\n\n# c\n", lexer.CountMismatch, 3, 1},
		{"duplicate field name is the second", g + "## t [1]{a,b,a}\n1|2|3\n", lexer.DuplicateFieldName, 2, 14},
		{"duplicate quoted field name", g + "## t [1]{a,\"a\"}\n1|2\n", lexer.DuplicateFieldName, 2, 12},
		{"duplicate key is the second", g + "a=1\nb=2\na=3\n", lexer.DuplicateKey, 4, 1},
		{"duplicate header field", "GCF profile=generic tool=a tool=b\n", lexer.DuplicateHeaderField, 1, 28},
		{"unknown profile at its value", "GCF profile=nope\n", lexer.UnknownProfile, 1, 13},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, perrs := ast.Parse([]byte(tc.in), stream.Limits{})
			cerrs := ast.Check(strings.NewReader(tc.in), stream.Limits{})
			for _, run := range []struct {
				name string
				errs ast.ErrorList
			}{{"Parse", perrs}, {"Check", cerrs}} {
				if tc.cat == "" {
					if len(run.errs) > 0 {
						t.Errorf("%s: want valid, got %v", run.name, run.errs)
					}
					continue
				}
				if len(run.errs) == 0 {
					t.Errorf("%s: want %s at %d:%d, got no error", run.name, tc.cat, tc.line, tc.col)
					continue
				}
				e := run.errs[0]
				if e.Category != tc.cat || e.Pos.Line != tc.line || e.Pos.Column != tc.col {
					t.Errorf("%s: want %s at %d:%d, got %v", run.name, tc.cat, tc.line, tc.col, run.errs)
				}
			}
		})
	}
}

func TestBOMMessage(t *testing.T) {
	errs := ast.Check(strings.NewReader("\xEF\xBB\xBFGCF profile=generic\n"), stream.Limits{})
	const want = "input starts with a UTF-8 byte order mark (EF BB BF); GCF payloads have none, remove it"
	if len(errs) == 0 || errs[0].Msg != want {
		t.Fatalf("got %v", errs)
	}
}

func TestLineTooLongColumn(t *testing.T) {
	in := "GCF profile=generic\na=" + strings.Repeat("x", 300) + "\nb=1\n"
	lim := stream.Limits{MaxLineBytes: 200}
	for name, errs := range map[string]ast.ErrorList{"Check": ast.Check(strings.NewReader(in), lim)} {
		if len(errs) == 0 || errs[0].Category != lexer.LineTooLong || errs[0].Pos.Line != 2 || errs[0].Pos.Column != 201 {
			t.Errorf("%s: want line_too_long at 2:201, got %v", name, errs)
		}
	}
}

// TestMessagesQuoteLittle: a message never quotes more than about 80 bytes of input.
func TestMessagesQuoteLittle(t *testing.T) {
	long := strings.Repeat("k", 5000)
	for _, in := range []string{
		"GCF profile=generic\n## t [1]{" + long + "," + long + "}\n1|2\n",
		"GCF profile=" + long + "\n",
		"GCF profile=generic " + long + "\n",
		"GCF profile=generic\na=1" + strings.Repeat("0", 5000) + "e999\n",
	} {
		_, errs := ast.Parse([]byte(in), stream.Limits{})
		errs = append(errs, ast.Check(strings.NewReader(in), stream.Limits{})...)
		if len(errs) == 0 {
			t.Fatalf("no error for %.40q", in)
		}
		for _, e := range errs {
			if len(e.Msg) > 300 {
				t.Errorf("message of %d bytes: %.120s", len(e.Msg), e.Msg)
			}
		}
	}
}

// TestCheckCapsErrors: a hostile input cannot grow the list without bound.
func TestCheckCapsErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("GCF profile=generic\n")
	for i := 0; i < 3000; i++ {
		b.WriteString("k" + strconv.Itoa(i) + "=\x01\n")
	}
	errs := ast.Check(strings.NewReader(b.String()), stream.Limits{})
	if len(errs) != ast.MaxErrors+1 {
		t.Fatalf("got %d entries, want %d", len(errs), ast.MaxErrors+1)
	}
	last := errs[len(errs)-1]
	if last.Category != ast.TooManyErrors || !strings.HasPrefix(last.Msg, "2000 more problems") {
		t.Fatalf("last entry: %v", last)
	}
	if errs[0].Pos.Line != 2 || errs[ast.MaxErrors-1].Pos.Line != ast.MaxErrors+1 {
		t.Fatalf("the list does not hold the first problems: %v ... %v", errs[0], errs[ast.MaxErrors-1])
	}
}

// rowsReader is a lazily generated generic payload: tables of rows, about
// size bytes in all.
type rowsReader struct {
	size, n  int64
	row      int
	buf      []byte
	sampled  int64
	peakHeap uint64 // the most heap in use seen at a sample (every 64 KB)
}

func (r *rowsReader) Read(p []byte) (int, error) {
	if r.n-r.sampled >= 64<<10 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		r.peakHeap = max(r.peakHeap, ms.HeapInuse)
		r.sampled = r.n
	}
	for len(r.buf) < len(p) && r.n < r.size {
		var line []byte
		if r.n == 0 {
			line = []byte("GCF profile=generic\n")
		}
		if r.row%1000 == 0 {
			line = append(line, "## t"+strconv.Itoa(r.row/1000)+" [1000]{id,name,dept,ok}\n"...)
		}
		line = strconv.AppendInt(line, int64(r.row%1000), 10)
		line = append(line, "|Person with a name|Engineering|true\n"...)
		r.buf = append(r.buf, line...)
		r.n += int64(len(line))
		r.row++
		if r.n >= r.size {
			// Finish the table: its count is exact.
			for ; r.row%1000 != 0; r.row++ {
				line = strconv.AppendInt(line[:0], int64(r.row%1000), 10)
				line = append(line, "|x|y|true\n"...)
				r.buf = append(r.buf, line...)
				r.n += int64(len(line))
			}
		}
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[n:])]
	return n, nil
}

// TestCheckMemoryFlat: Check's memory does not grow with the input. Over
// a lazily generated payload ten times larger it allocates no more bytes
// per input byte, and its peak heap stays flat. The sizes are small (0.2
// and 2 MB, about two seconds) because participle checks lines at a few
// MB/s; the 1 GB figures are in docs/validate.md.
func TestCheckMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: checks 2.2 MB through ast.Check")
	}
	measure := func(size int64) (perByte float64, peak uint64) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := &rowsReader{size: size}
		if errs := ast.Check(r, stream.Limits{}); len(errs) > 0 {
			t.Fatalf("generated payload: %v", errs)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(r.n), r.peakHeap
	}
	// Collect often, so that the heap in use is close to the live heap.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	ast.Check(&rowsReader{size: 1}, stream.Limits{}) // build the parsers first
	small, peakSmall := measure(200 << 10)
	big, peakBig := measure(2 << 20)
	t.Logf("allocated per input byte: %.0f (0.2 MB), %.0f (2 MB); peak heap in use: %d KB, %d KB", small, big, peakSmall>>10, peakBig>>10)
	if big > small*1.25 {
		t.Errorf("allocation per byte grows with input: %.0f -> %.0f", small, big)
	}
	if peakBig > peakSmall+3<<20 {
		t.Errorf("heap grows with input: %d KB -> %d KB", peakSmall>>10, peakBig>>10)
	}
}
