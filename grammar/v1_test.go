package grammar

import (
	"testing"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

func TestParseV1(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		cat      lexer.Category // "" when valid
		line     int
	}{
		{"graph", "GCF tool=t symbols=2 edges=1\n## targets\n@0 fn a.A 0.9 lsp\n## related\n@1 fn a.B 0.54 x\n## edges [1]\n@0<@1 calls added\n", "", 0},
		{"session", "GCF tool=t session=true\n## targets\n@0  # previously transmitted\n@1 fn a.B 0.54 x\n## edges\n@0<@1 calls\n", "", 0},
		{"delta", "GCF tool=t delta=true base_root=a new_root=b\n## removed\nfn a.Old\n## added\n@0 fn a.New 0.85 rwr\n## edges_added\na.R -> a.New calls\n", "", 0},
		{"streaming", "GCF tool=t\n## targets\n@0 fn a.A 1.00 x\n## edges [?]\n## _summary symbols=1 edges=0 sections=targets:1,edges:0\n", "", 0},
		{"generic", "company=Acme\ntags[2]: a,\"b,c\"\n## employees [2]{id,name}\n1|Alice\n2|\"B|ob\"\n## orders [1]{id}\n@0 7\n  ## customer\n  name=A\n## mixed [2]\n@0\n  a=1\n@1 x\n", "", 0},
		{"root scalar", "hello world", "", 0},
		{"no tool", "GCF budget=1\n", lexer.MissingProfile, 1},
		{"v3 header", "GCF profile=graph tool=t\n", lexer.UnknownProfile, 1},
		{"bad score", "GCF tool=t\n## targets\n@0 fn a.A abc lsp\n", lexer.InvalidScore, 3},
		{"bad id", "GCF tool=t\n## targets\n@x fn a.A 0.1 lsp\n", lexer.InvalidSymbolID, 3},
		{"few fields", "GCF tool=t\n## targets\n@0 fn a.A\n", lexer.InvalidNodeLine, 3},
		{"width", "## t [1]{a,b}\n1\n", lexer.RowWidthMismatch, 2},
		{"count", "## t [2]{a}\n1\n", lexer.CountMismatch, 2},
		{"escape", "a=\"x\\q\"\n", lexer.InvalidEscape, 1},
		{"quote", "## t [1]{a}\n\"x\n", lexer.UnterminatedQuote, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree, diags := ParseV1([]byte(tc.in), stream.Limits{})
			if tree == nil {
				t.Fatal("nil tree")
			}
			if tc.cat == "" {
				if len(diags) > 0 {
					t.Fatalf("unexpected problems: %v", diags)
				}
				return
			}
			if len(diags) == 0 || diags[0].Category != tc.cat || diags[0].Pos.Line != tc.line {
				t.Fatalf("got %v, want %s at line %d", diags, tc.cat, tc.line)
			}
		})
	}
}
