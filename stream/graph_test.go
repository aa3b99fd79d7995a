package stream

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gcfkit/gcf/lexer"
)

func TestGraphEvents(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"buffered", "GCF profile=graph tool=t symbols=2 edges=1\n## targets\n@0 fn pkg.A 0.78 lsp\n## related\n@1 type pkg.B 0.50 ast\n## edges [1]\n@0<@1 calls\n",
			"header [string:profile=graph|string:t|string:2|string:1]\n" +
				"group key=\"targets\" id=0\nsymbol id=0 [string:fn|string:pkg.A|float:0.78|string:lsp]\n" +
				"group key=\"related\" id=1\nsymbol id=1 [string:type|string:pkg.B|float:0.50|string:ast]\n" +
				"group key=\"edges\"\nedge [int:0|int:1|string:calls]\nend\n"},
		{"distance_N, status and streaming trailer", "GCF profile=graph\n## distance_7\n@0 fn a.B -1.25 x\n## edges [?]\n@0<@0 calls added\n##! summary symbols=1 edges=1 counts=1,1\n",
			"header [string:profile=graph]\ngroup key=\"distance_7\" id=7\nsymbol id=0 [string:fn|string:a.B|float:-1.25|string:x]\n" +
				"group key=\"edges\"\nedge [int:0|int:0|string:calls|string:added]\nsummary [string:1|string:1|string:1,1]\nend\n"},
		{"session reference", "GCF profile=graph symbols=2 session=true\n## targets\n@4  # previously transmitted\n@9 fn p.Q 0.10 x\n## edges [1]\n@4<@9 calls\n",
			"header [string:profile=graph|string:2|string:true]\ngroup key=\"targets\" id=0\nreference id=4\nsymbol id=9 [string:fn|string:p.Q|float:0.10|string:x]\n" +
				"group key=\"edges\"\nedge [int:4|int:9|string:calls]\nend\n"},
		{"delta", "GCF profile=graph delta=true base_root=a new_root=b\n## removed\nfn p.Old\n## added\n@0 fn p.New 0.85 rwr 2\n## edges_removed\np.X -> p.Old calls\n## edges_added\np.X -> p.New calls\n",
			"header [string:profile=graph|string:true|string:a|string:b]\ngroup key=\"removed\"\nremoved [string:fn|string:p.Old]\n" +
				"group key=\"added\"\nsymbol id=0 [string:fn|string:p.New|float:0.85|string:rwr|int:2]\n" +
				"group key=\"edges_removed\"\ndelta edge [string:p.X|string:p.Old|string:calls]\n" +
				"group key=\"edges_added\"\ndelta edge [string:p.X|string:p.New|string:calls]\nend\n"},
		{"header only unchanged", "GCF profile=graph unchanged=true pack_root=sha256:00 symbols=10\n",
			"header [string:profile=graph|string:true|string:sha256:00|string:10]\nend\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, tt.in)
			if err != nil {
				t.Fatalf("unexpected error %v after\n%s", err, got)
			}
			// The header's cells are its values; show the profile pair plainly.
			if got != fixHeader(tt.want) {
				t.Fatalf("events differ\n got:\n%s\nwant:\n%s", got, fixHeader(tt.want))
			}
		})
	}
}

// fixHeader rewrites the expected header cell "profile=graph" to the value
// the decoder reports ("graph").
func fixHeader(s string) string {
	const from, to = "string:profile=graph", "string:graph"
	for i := 0; i+len(from) <= len(s); i++ {
		if s[i:i+len(from)] == from {
			return s[:i] + to + s[i+len(from):]
		}
	}
	return s
}

func TestGraphErrors(t *testing.T) {
	tests := []errorCase{
		{"four fields", "GCF profile=graph\n## targets\n@0 fn pkg.Foo 0.90\n", lexer.InvalidNodeLine, 3, 1},
		{"six fields", "GCF profile=graph\n## targets\n@0 fn pkg.Foo 0.90 lsp 3\n", lexer.InvalidNodeLine, 3, 1},
		{"symbol id", "GCF profile=graph\n## targets\n@x fn pkg.Foo 0.90 lsp\n", lexer.InvalidSymbolID, 3, 2},
		{"non-sequential id", "GCF profile=graph\n## targets\n@1 fn pkg.Foo 0.90 lsp\n", lexer.InvalidSymbolID, 3, 2},
		{"duplicate session id", "GCF profile=graph session=true\n## targets\n@3 fn a.A 0.90 lsp\n@3 fn a.B 0.90 lsp\n", lexer.InvalidSymbolID, 4, 2},
		{"score word", "GCF profile=graph\n## targets\n@0 fn pkg.Foo nope lsp\n", lexer.InvalidScore, 3, 15},
		{"score one decimal", "GCF profile=graph\n## targets\n@0 fn pkg.Foo 0.9 lsp\n", lexer.InvalidScore, 3, 15},
		{"edge without <", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [1]\n@0 @0 calls\n", lexer.InvalidEdgeSyntax, 5, 1},
		{"status with NBSP", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [1]\n@0<@0 calls may\u00a0be\n", lexer.InvalidEdgeSyntax, 5, 16},
		{"status with C1", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [1]\n@0<@0 calls ma\u0085\n", lexer.InvalidEdgeSyntax, 5, 15},
		{"fourth field", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [1]\n@0<@0 calls pending x\n", lexer.InvalidEdgeSyntax, 5, 1},
		{"unknown edge ref", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [1]\n@0<@1 calls\n", lexer.UnknownEdgeReference, 5, 5},
		{"edges surplus", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [1]\n@0<@0 a\n@0<@0 b\n", lexer.CountMismatch, 6, 1}, // the first surplus line
		{"edges deficit", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [2]\n@0<@0 a\n", lexer.CountMismatch, 5, 1},
		{"header symbols", "GCF profile=graph symbols=2\n## targets\n@0 fn a.A 0.90 l\n", lexer.CountMismatch, 3, 1},
		{"summary edges", "GCF profile=graph\n## targets\n@0 fn a.A 0.90 l\n## edges [?]\n@0<@0 a\n##! summary edges=2\n", lexer.CountMismatch, 6, 1},
		{"reference without session", "GCF profile=graph\n## targets\n@0  # previously transmitted\n", lexer.InvalidNodeLine, 3, 1},
		{"unknown delta section", "GCF profile=graph delta=true\n## changed\n", lexer.MalformedDelta, 2, 4},
		{"removed line form", "GCF profile=graph delta=true\n## removed\n@0 fn a.A 0.90 l\n", lexer.MalformedDelta, 3, 1},
		{"added without distance", "GCF profile=graph delta=true\n## added\n@0 fn a.A 0.90 l\n", lexer.MalformedDelta, 3, 1},
		{"delta edge form", "GCF profile=graph delta=true\n## edges_added\na.A calls a.B\n", lexer.MalformedDelta, 3, 1},
		{"delta section without delta", "GCF profile=graph\n## added\n", lexer.MalformedDelta, 2, 4},
		{"line before any group", "GCF profile=graph\n@0 fn a.A 0.90 l\n", lexer.InvalidNodeLine, 2, 1},
		{"no-break space in a qname", "GCF profile=graph\n## targets\n@0 fn a.\u00a0b 0.90 l\n", lexer.InvalidNodeLine, 3, 9},
	}
	checkErrors(t, tests)
}

func TestGraphAccessors(t *testing.T) {
	d := NewBytesDecoder([]byte("GCF profile=graph\n## targets\n@0 fn a.A 0.25 x\n## edges [1]\n@0<@0 calls\n"), Limits{})
	var score float64
	var tgt, src int64 = -2, -2
	for {
		ev, err := d.Next()
		if err != nil {
			break
		}
		switch ev.Kind {
		case KindSymbol:
			if score, err = ev.Score(); err != nil {
				t.Fatal(err)
			}
			if ev.Distance() != -1 {
				t.Fatal("a group symbol has no distance cell")
			}
		case KindEdge:
			tgt, src = ev.EdgeIDs()
		}
	}
	if score != 0.25 || tgt != 0 || src != 0 {
		t.Fatalf("score %v, edge %d<%d", score, tgt, src)
	}
	allocs := testing.AllocsPerRun(100, func() {
		ev := Event{Kind: KindSymbol, Cells: []lexer.Scalar{{}, {}, {Bytes: []byte("0.75")}}}
		if s, _ := ev.Score(); s != 0.75 {
			t.Fatal("score")
		}
	})
	if allocs != 0 {
		t.Fatalf("Score allocates %v times", allocs)
	}
}

// TestGraphCleanLines checks that graph lines the reader classes in its
// one pass (nextClean, which fields then trusts) decode exactly as the same
// lines read one byte a call (next and the class check) and in 13-byte
// reads (lines across refills): events or the error with its category,
// line and column, for every byte value at every position of a symbol
// line, edge lines (with a status, of 7 to 24 bytes, ids of 1 to 8
// digits) and the delta line forms.
func TestGraphCleanLines(t *testing.T) {
	docs := []string{
		"GCF profile=graph symbols=2 edges=4\n" +
			"## targets\n" +
			"@0 fn pkg.A 0.78 lsp\n" +
			"## related\n" +
			"@1 type pkg.B 0.50 ast\n" +
			"## edges [4]\n" +
			"@0<@1 calls added\n" +
			"@1<@0 imports\n" +
			"@1<@0 x\n" +
			"@0<@1 implements\n",
		"GCF profile=graph session=true\n" +
			"## targets\n" +
			"@1234567 fn p.A 0.10 x\n" +
			"@12345678 fn p.B 0.20 x\n" +
			"@0 fn p.C 0.30 x\n" +
			"## edges [3]\n" +
			"@1234567<@12345678 calls\n" +
			"@12345678<@0 x\n" +
			"@0<@1234567 imports\n",
		"GCF profile=graph delta=true base_root=a new_root=b\n" +
			"## removed\n" +
			"fn p.Old\n" +
			"## added\n" +
			"@0 fn p.New 0.85 rwr 2\n" +
			"## edges_added\n" +
			"p.X -> p.New calls\n",
	}
	compare := func(in []byte) {
		t.Helper()
		got := dumpEvents(NewBytesDecoder(in, Limits{}))
		want := dumpEvents(NewDecoder(iotest.OneByteReader(bytes.NewReader(in)), Limits{}))
		if got != want {
			t.Fatalf("input %q:\none pass:\n%s\nbyte reads:\n%s", in, got, want)
		}
		if got2 := dumpEvents(NewDecoder(&chunkReader{in, 13}, Limits{})); got2 != want {
			t.Fatalf("input %q, 13-byte reads:\n%s\nbyte reads:\n%s", in, got2, want)
		}
	}
	for _, doc := range docs {
		compare([]byte(doc))
		lines := strings.SplitAfter(doc, "\n")
		for li := 2; li < len(lines)-1; li++ {
			if strings.HasPrefix(lines[li], "## ") {
				continue
			}
			line := lines[li]
			for pos := 0; pos < len(line)-1; pos++ {
				for v := 0; v < 256; v++ {
					mut := []byte(line)
					mut[pos] = byte(v)
					compare([]byte(strings.Join(lines[:li], "") + string(mut) + strings.Join(lines[li+1:], "")))
				}
			}
		}
	}
}

// TestGraphNodeID checks the node line's id scan against parseID, the
// general rule: 1 to 18 decimal digits up to a space or tab. Tokens of 1
// to 20 digits (leading zeros too), each with every printable ASCII byte,
// tab and DEL after it and in place of its last digit.
func TestGraphNodeID(t *testing.T) {
	for nd := 0; nd <= 20; nd++ {
		digits := strings.Repeat("9", nd)
		if nd > 1 {
			digits = "0" + digits[1:]
		}
		for v := '\t'; v < 0x80; v++ {
			if v < ' ' && v != '\t' {
				continue // the line check's error, before the id is read
			}
			for _, tok := range []string{digits + string(v), digits[:max(nd-1, 0)] + string(v)} {
				for _, sep := range []string{" ", "\t"} {
					in := "GCF profile=graph session=true\n## targets\n@" + tok + sep + "fn p.A 0.10 x\n"
					got := dumpEvents(NewBytesDecoder([]byte(in), Limits{}))
					end := strings.IndexAny(tok, " \t")
					if end < 0 {
						end = len(tok)
					}
					id, ok := parseID([]byte(tok[:end]))
					var want string
					if ok {
						want = "symbol @" + strconv.FormatInt(id, 10) + " ("
					} else {
						want = "error " + string(lexer.InvalidSymbolID) + " 3:2 "
					}
					if !strings.Contains(got, want) {
						t.Fatalf("input %q: want %q in\n%s", in, want, got)
					}
				}
			}
		}
	}
}
