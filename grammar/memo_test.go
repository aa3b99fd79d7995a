package grammar

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/gcfkit/gcf/internal/conformance"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/stream"
)

// checkLines runs a Checker, with or without the memo, over data split into
// lines the way ast.Check splits them, and returns every diagnostic and the
// memo's hits.
func checkLines(data []byte, limits stream.Limits, memoize bool) ([]Diagnostic, int) {
	var out []Diagnostic
	c := newChecker(limits, func(d Diagnostic) { out = append(out, d) }, memoize)
	off := 0
	for off < len(data) {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			c.Line(data[off:], off, len(data)-off)
			break
		}
		c.Line(data[off:off+i], off, i)
		off += i + 1
	}
	c.End(len(data))
	hits := 0
	if c.memo != nil {
		hits = c.memo.hits
	}
	return out, hits
}

// memoInputs returns the conformance payloads (every JSON string of a
// fixture that starts with "GCF"), the regression inputs of
// testdata/differential and the examples.
func memoInputs(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	dir, err := conformance.Find()
	if err != nil {
		t.Fatal(err)
	}
	if dir == "" {
		t.Logf("conformance suite not found (set %s): its payloads are not compared", conformance.EnvVar)
	}
	var walk func(name string, v any)
	walk = func(name string, v any) {
		switch v := v.(type) {
		case string:
			if strings.HasPrefix(v, "GCF") {
				out[name] = []byte(v)
			}
		case map[string]any:
			for k, x := range v {
				walk(name+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s/%d", name, i), x)
			}
		}
	}
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if json.Unmarshal(data, &v) == nil {
			rel, _ := filepath.Rel(dir, p)
			walk(rel, v)
		}
		return nil
	})
	for _, pat := range []string{"../testdata/differential/*.gcf", "../testdata/*.gcf"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil {
				out[f] = b
			}
		}
	}
	return out
}

// fragments are pieces of lines: tokens of every type, with texts that
// are literals of the grammar and texts that are not, so that lines of
// one shape with different texts, and lines that look alike but differ in
// a literal, come up often.
var fragments = []string{
	"a", "k", "summary", `"summary"`, "=", "==", "|", `"|"`, ",", `","`, ":", `":"`, "{", "}", "{}", `"{}"`,
	"##", `"##"`, "##!", "## ", ".", ".k", `"."`, "->", `"->"`, "<", "@0", "@1 ", "@2", "^", "^{x,y}", "~", "-",
	"true", "1", "1.5", "-0", "1e309", `"q"`, `"é"`, `"\q"`, "[2]", "[?]", "[1:]", "[x]", "{x,y}", `{"",""}`,
	" ", "  ", "\t", "\r", "#", "# previously transmitted", "fn", "pkg.Sym", "0.50", "lsp", "calls", "x y", "é",
}

var headers = []string{
	"GCF profile=generic\n",
	"GCF profile=graph symbols=3 edges=2\n",
	"GCF profile=graph\n",
	"GCF profile=graph session=s1 delta=true\n",
	"GCF tool=x profile=generic\n",
	"",
}

var graphGroups = []string{"## targets\n", "## related\n", "## edges\n", "## removed\n", "## added\n", "## delta_edges\n"}

// genPayload returns a random payload whose lines repeat a few shapes
// with varying texts.
func genPayload(r *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString(headers[r.IntN(len(headers))])
	// a few line templates, each a list of fragment sets
	var tmpl [][]int
	for range 1 + r.IntN(4) {
		var t []int
		for range 1 + r.IntN(7) {
			t = append(t, r.IntN(len(fragments)))
		}
		tmpl = append(tmpl, t)
	}
	for range 1 + r.IntN(24) {
		switch r.IntN(12) {
		case 0:
			b.WriteString(graphGroups[r.IntN(len(graphGroups))])
			continue
		case 1:
			fmt.Fprintf(&b, "## t [%d]{a,b,c}\n", r.IntN(4))
			continue
		}
		b.WriteString([]string{"", "", "", "  ", "    ", " "}[r.IntN(6)])
		t := tmpl[r.IntN(len(tmpl))]
		for _, f := range t {
			if r.IntN(4) == 0 {
				// another fragment: usually another text of the same type
				f = r.IntN(len(fragments))
			}
			b.WriteString(fragments[f])
		}
		b.WriteString([]string{"\n", "\n", "\n", "\r\n"}[r.IntN(4)])
	}
	return []byte(b.String())
}

// typedRows returns a valid-looking table and graph whose lines share a
// few shapes but whose texts all differ, some of them wrong.
func typedRows(r *rand.Rand) []byte {
	var b strings.Builder
	n := 40
	fmt.Fprintf(&b, "GCF profile=generic\n## t [%d]{id,name,\"m>id\",\"m>note\"}\n", n)
	cells := []string{"x", `"|"`, `","`, "summary", `"="`, "-", "~", "1", "2.5", "true", `"a|b"`, "^", "1e309", "=", "{"}
	for i := range n {
		fmt.Fprintf(&b, "%d|%s|%s|%s\n", i, cells[r.IntN(len(cells))], cells[r.IntN(len(cells))], cells[r.IntN(len(cells))])
	}
	b.WriteString("## g [3]\n  k=1\n  ## inner\n    v=\"summary\"\n    w=|\n")
	return []byte(b.String())
}

// TestMemoExact: the Checker gives the same diagnostics (position with
// offset, line and column, category, message) with the memo of line
// shapes as without it, on the conformance payloads, the regression
// inputs and many generated payloads, under the default limits and tight
// ones, and with a memo so small that it is emptied again and again.
func TestMemoExact(t *testing.T) {
	inputs := memoInputs(t)
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 1500 {
		inputs[fmt.Sprintf("gen#%d", i)] = genPayload(r)
	}
	for i := range 100 {
		inputs[fmt.Sprintf("rows#%d", i)] = typedRows(r)
	}
	tight := stream.Limits{MaxDepth: 6, MaxLineBytes: 200, MaxElements: 40, MaxFields: 12}
	compare := func(t *testing.T) (hits, withDiags int) {
		for name, data := range inputs {
			for _, lim := range []stream.Limits{{}, tight} {
				want, _ := checkLines(data, lim, false)
				got, h := checkLines(data, lim, true)
				hits += h
				if len(want) > 0 {
					withDiags++
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s (limits %+v): memoized diagnostics differ\ninput: %q\nmemo:  %v\nparse: %v", name, lim, data, got, want)
				}
			}
		}
		return
	}
	hits, withDiags := compare(t)
	t.Logf("%d inputs (%d runs with diagnostics), %d memo hits", len(inputs), withDiags, hits)
	if hits < 10000 {
		t.Errorf("only %d memo hits: the test does not exercise the memo", hits)
	}

	defer func(s, b int) { memoMaxShapes, memoMaxBytes = s, b }(memoMaxShapes, memoMaxBytes)
	memoMaxShapes, memoMaxBytes = 3, 40
	compare(t)
}

// TestMemoReplaysErrors: on lines of random tokens (which the scanner
// would never emit, so participle rejects most of them), every production
// gives the same diagnostics with the memo as without it: a rejected line
// of a shape seen before gets the message and position participle would
// give, built from its own unexpected token.
func TestMemoReplaysErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	types := []plexer.TokenType{TokPunct, TokPunct, TokPunct, TokKey, TokQKey, TokBare, TokQuoted, TokNumber, TokCount,
		TokKeyedCount, TokRowID, TokItemID, TokNull, TokMissing, TokAttach, TokHeaderKey, TokHeaderValue, TokMagic,
		TokNodeID, TokKind, TokQName, TokScore, TokProvenance, TokEdgeTarget, TokEdgeSource, TokEdgeType, TokBad, TokInline, TokGroup}
	starts := []plexer.TokenType{TokPunct, TokPunct, TokKey, TokRowID, TokBare, TokItemID, TokInline, TokNodeID, TokEdgeTarget, TokMagic, TokGroup, TokBad, TokKind, TokQName}
	texts := append([]string{"x", "yy", "", "summary2", "|x"}, literals[1:]...)
	var want, got []Diagnostic
	plain := newChecker(stream.Limits{}, func(d Diagnostic) { want = append(want, d) }, false)
	memo := newChecker(stream.Limits{}, func(d Diagnostic) { got = append(got, d) }, true)
	rejected := 0
	for i := range 20000 {
		var line []plexer.Token
		col := 1 + r.IntN(5)
		for j := range 1 + r.IntN(4) {
			typ, v := types[r.IntN(len(types))], texts[r.IntN(len(texts))]
			if j == 0 {
				// a token that some line production begins with
				typ, v = starts[r.IntN(len(starts))], texts[r.IntN(len(texts))]
				if typ == TokPunct {
					v = []string{"##", "##!", ".", "="}[r.IntN(4)]
				}
			}
			line = append(line, plexer.Token{Type: typ, Value: v, Pos: plexer.Position{Offset: 100*i + col - 1, Line: i + 1, Column: col}})
			col += len(v) + r.IntN(2)
		}
		line = append(line, plexer.Token{Type: TokNL, Pos: plexer.Position{Offset: 100*i + col - 1, Line: i + 1, Column: col}})
		n := len(want)
		plain.queue(line)
		plain.runPending()
		memo.queue(line)
		if len(want) > n {
			rejected++
		}
	}
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("diagnostic %d: memo %v, parse %v", i, got[i], want[i])
			}
		}
		t.Fatalf("memo: %d diagnostics, parse: %d", len(got), len(want))
	}
	if rejected < 5000 || memo.memo.hits < 3000 {
		t.Fatalf("%d lines rejected, %d memo hits: too few to test the replay", rejected, memo.memo.hits)
	}
	t.Logf("%d of 20000 lines rejected, %d memo hits; e.g. %v", rejected, memo.memo.hits, got[len(got)-1])
}

// TestMemoEvicts: input in which every line has a new shape keeps the memo
// within its bounds.
func TestMemoEvicts(t *testing.T) {
	defer func(s int) { memoMaxShapes = s }(memoMaxShapes)
	memoMaxShapes = 16
	var b strings.Builder
	b.WriteString("GCF profile=generic\n## t [100]{a}\n")
	for i := range 100 {
		b.WriteString("1" + strings.Repeat("|1", i) + "\n")
	}
	c := newChecker(stream.Limits{}, func(Diagnostic) {}, true)
	data := b.String()
	for line := range strings.SplitSeq(strings.TrimSuffix(data, "\n"), "\n") {
		c.Line([]byte(line), 0, len(line))
		if len(c.memo.shapes) > memoMaxShapes {
			t.Fatalf("memo holds %d shapes", len(c.memo.shapes))
		}
	}
	if c.memo.resets == 0 {
		t.Fatal("the memo was never emptied")
	}
}

// TestMemoLiterals: every literal of a parser tag in the package is in
// literals, so that the memo's shapes keep every text participle compares.
func TestMemoLiterals(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	tag := regexp.MustCompile("parser:\"([^\"]*)\"")
	lit := regexp.MustCompile(`'([^']*)'`)
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tag.FindAllStringSubmatch(string(src), -1) {
			for _, l := range lit.FindAllStringSubmatch(m[1], -1) {
				n++
				if i := literalIndex(l[1]); i == 0 || literals[i] != l[1] {
					t.Errorf("%s: literal %q of a parser tag is not in literals", f, l[1])
				}
			}
			if strings.ContainsAny(lit.ReplaceAllString(m[1], ""), "!~/") {
				t.Errorf("%s: tag %q uses a negation or a regexp; the memo's shapes may not capture what it matches", f, m[1])
			}
		}
	}
	if n == 0 {
		t.Fatal("no parser tags found")
	}
	for i, l := range literals[1:] {
		if literalIndex(l) != byte(i+1) {
			t.Errorf("literalIndex(%q) = %d, want %d", l, literalIndex(l), i+1)
		}
	}
}

// FuzzCheckerMemo: on arbitrary bytes, the Checker gives the same
// diagnostics with the memo of line shapes as without it.
func FuzzCheckerMemo(f *testing.F) {
	for _, s := range memoInputs(f) {
		f.Add(s)
	}
	r := rand.New(rand.NewPCG(21, 22))
	for range 200 {
		f.Add(genPayload(r))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lim := range []stream.Limits{{}, {MaxDepth: 6, MaxLineBytes: 200, MaxElements: 40, MaxFields: 12}} {
			want, _ := checkLines(data, lim, false)
			got, _ := checkLines(data, lim, true)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("memoized diagnostics differ\ninput: %q\nmemo:  %v\nparse: %v", data, got, want)
			}
		}
	})
}

// BenchmarkHostileMemo: rows whose 12 cells take random scalar types, so
// that nearly every row has a new shape, checked without and with the
// memo: the memo's cost when it cannot help.
func BenchmarkHostileMemo(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	cells := []string{"x", "1", `"q"`, "-", "true"}
	var sb strings.Builder
	sb.WriteString("GCF profile=generic\n## t [100000]{c0,c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11}\n")
	for range 30000 {
		for c := range 12 {
			if c > 0 {
				sb.WriteByte('|')
			}
			sb.WriteString(cells[r.IntN(5)])
		}
		sb.WriteByte('\n')
	}
	data := []byte(sb.String())
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				checkLines(data, stream.Limits{}, on)
			}
		})
	}
}
