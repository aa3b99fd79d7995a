package grammar

import (
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// kinds renders the token stream as names, one line per source line.
func kinds(in string) string {
	toks, _ := Scan([]byte(in), stream.Limits{})
	var sb strings.Builder
	for _, t := range toks {
		sb.WriteString(TokenName(t.Type))
		if t.Type == TokNL {
			sb.WriteString("\n")
		} else {
			sb.WriteString(" ")
		}
	}
	return sb.String()
}

// TestScanLayout: the lexer turns §4.1 indentation into Indent/Dedent
// around INDENT bodies, decides rows versus members by the declared count
// (§13.1), and marks positional inline bodies (§7.4.5.2).
func TestScanLayout(t *testing.T) {
	in := "GCF profile=generic\n" +
		"## s\n" +
		"  a=1\n" +
		"# comment\n" +
		"\n" +
		"## t [1]{c}\n" +
		"@0 ^{x,y,z}\n" +
		"1|2|3\n" +
		"b=2\n"
	want := "Magic HeaderKey Punct HeaderValue NL\n" +
		"Generic Punct Key NL\n" +
		"Indent Key Punct Number NL\n" +
		"Dedent Punct Key Count Punct Key Punct NL\n" +
		"RowID Attach Punct Key Punct Key Punct Key Punct NL\n" +
		"Inline Number Punct Number Punct Number NL\n" +
		"Key Punct Number NL\n" +
		"EOF "
	if got := kinds(in); got != want {
		t.Fatalf("tokens:\n%s\nwant:\n%s", got, want)
	}
}

// TestParseValid: payloads of both profiles parse without diagnostics.
func TestParseValid(t *testing.T) {
	for _, in := range []string{
		"GCF profile=generic\na=1\n## s\n  b=x\n## t [2]{a,b}\n1|2\n@1 ^|~\n.b {}\n    c=1\nv[2]: a,b\n",
		"GCF profile=generic\n## [2]\n@0 =a\n@1 [1]{x}\n  1\n",
		"GCF profile=generic\n=1\n",
		"GCF profile=generic\n",
		"GCF profile=generic\n## m [?:]{key,v}\nk1|1\n##! summary counts=1\n",
		"GCF profile=graph symbols=2 edges=1\n## targets\n@0 fn a 0.50 lsp\n@1 fn b 0.50 lsp\n## edges [1]\n@0<@1 calls\n",
		"GCF profile=graph session=true\n## targets\n@4  # previously transmitted\n",
		"GCF profile=graph delta=true\n## removed\nfn a.B\n## added\n@0 fn a.C 0.85 lsp 1\n## edges_added\na.C -> a.D calls\n",
	} {
		tree, diags := Parse([]byte(in), stream.Limits{})
		if len(diags) > 0 || tree.Header == nil {
			t.Errorf("%q: %v", in, diags)
		}
	}
}

// TestParseRejected: a line that fits nowhere is reported and kept as a Bad
// token, and the parse goes on.
func TestParseRejected(t *testing.T) {
	in := "GCF profile=generic\na=1\n!!\nb=2\n## t [01]{x}\nc=3\n"
	tree, diags := Parse([]byte(in), stream.Limits{})
	if len(diags) != 2 || diags[0].Category != lexer.InvalidLine || diags[1].Category != lexer.InvalidCount {
		t.Fatalf("diagnostics %v", diags)
	}
	m := tree.Generic.Object.Members
	if len(m) != 5 || m[1].Bad == nil || m[3].Bad == nil || m[3].Bad.Key.Text() != "t" || m[4].Kv == nil {
		t.Fatalf("members %+v", m)
	}
}
