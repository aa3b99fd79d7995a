package ast_test

import (
	"errors"
	"testing"

	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/ast/differential"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// TestDiagnostics: one payload per condition of SPEC §16.5 (and the extra
// categories), with the category and position of the first diagnostic.
// Every case must also agree with the pull decoder.
func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name, in  string
		cat       lexer.Category
		line, col int
	}{
		{"missing header", "value=1\n", lexer.MissingHeader, 1, 1},
		{"empty input", "", lexer.MissingHeader, 1, 1},
		{"missing profile", "GCF tool=x\n", lexer.MissingProfile, 1, 1},
		{"unknown profile", "GCF profile=x\n", lexer.UnknownProfile, 1, 13},
		{"malformed header field", "GCF profile=generic oops\n", lexer.MalformedHeaderField, 1, 21},
		{"duplicate header field", "GCF profile=generic tool=a tool=b\n", lexer.DuplicateHeaderField, 1, 28},
		{"unterminated quote", "GCF profile=generic\nv=\"abc\n", lexer.UnterminatedQuote, 2, 3},
		{"invalid escape", "GCF profile=generic\nv=\"a\\qb\"\n", lexer.InvalidEscape, 2, 5},
		{"trailing characters", "GCF profile=generic\nv=\"a\"b\n", lexer.TrailingCharacters, 2, 6},
		{"invalid missing", "GCF profile=generic\n## [1]\n@0 =~\n", lexer.InvalidMissing, 3, 5},
		{"invalid attachment marker", "GCF profile=generic\nv[1]: ^\n", lexer.InvalidAttachmentMarker, 2, 7},
		{"malformed inline schema", "GCF profile=generic\n## [1]{a}\n@0 ^{}\n", lexer.InvalidAttachmentMarker, 3, 4},
		{"escaped lone surrogate", "GCF profile=generic\nv=\"\\udc00\"\n", lexer.InvalidSurrogate, 2, 4},
		{"literal surrogate", "GCF profile=generic\nv=\xed\xa0\x80\n", lexer.InvalidSurrogate, 2, 3},
		{"invalid utf8", "GCF profile=generic\nv=a\xffb\n", lexer.InvalidUTF8, 2, 4},
		{"duplicate key", "GCF profile=generic\na=1\n## a\n", lexer.DuplicateKey, 3, 4},
		{"duplicate field name", "GCF profile=generic\n## t [1]{a,a}\n1|2\n", lexer.DuplicateFieldName, 2, 12},
		{"path collision", "GCF profile=generic\n## [1]{a,\"a>b\"}\n1|2\n", lexer.DuplicateKey, 2, 10},
		{"row width", "GCF profile=generic\n## t [1]{a,b}\n1\n", lexer.RowWidthMismatch, 3, 1},
		{"count deficit at EOF", "GCF profile=generic\n## t [2]{a}\n1\n", lexer.CountMismatch, 3, 1},
		{"count surplus at root", "GCF profile=generic\n## [1]{a}\n1\n2\n", lexer.CountMismatch, 4, 1},
		{"inline count", "GCF profile=generic\nt[3]: a,b\n", lexer.CountMismatch, 2, 2},
		{"nested count", "GCF profile=generic\n## [1]\n@0 [2]\n  @0 =x\n", lexer.CountMismatch, 4, 1},
		{"invalid count", "GCF profile=generic\n## t [01]{a}\n", lexer.InvalidCount, 2, 6},
		{"zero keyed count", "GCF profile=generic\n## [0:]{k,v}\n", lexer.InvalidCount, 2, 4},
		{"keyed map with one field", "GCF profile=generic\n## [1:]{k}\na\n", lexer.InvalidKeyedMap, 2, 8},
		{"keyed duplicate member", "GCF profile=generic\n## [2:]{k,v}\na|1\na|2\n", lexer.DuplicateKey, 4, 1},
		{"tab indentation", "GCF profile=generic\n## s\n\tk=v\n", lexer.TabIndentation, 3, 1},
		{"odd indentation", "GCF profile=generic\n## s\n   k=v\n", lexer.InvalidIndent, 3, 4},
		{"indent jump", "GCF profile=generic\n## s\n    k=v\n", lexer.InvalidIndent, 3, 5},
		{"invalid item id", "GCF profile=generic\n## [2]\n@0 =a\n@2 =b\n", lexer.InvalidItemID, 4, 2},
		{"marker without row id", "GCF profile=generic\n## [1]{a}\n^\n.a {}\n", lexer.InvalidItemID, 3, 1},
		{"orphan attachment", "GCF profile=generic\n## [1]{a}\n@0 1\n.a {}\n", lexer.OrphanAttachment, 4, 1},
		{"orphan inline attachment", "GCF profile=generic\n## [1]{a}\n1\n  2|3\n", lexer.OrphanInlineAttachment, 4, 3},
		{"missing attachment", "GCF profile=generic\n## [2]{a}\n@0 ^\n@1 ^\n.a {}\n", lexer.MissingAttachment, 4, 1},
		{"duplicate attachment", "GCF profile=generic\n## [1]{a}\n@0 ^\n.a {}\n.a {}\n", lexer.DuplicateAttachment, 5, 1},
		{"inline width", "GCF profile=generic\n## [1]{a}\n@0 ^{x,y}\n1\n", lexer.InlineWidthMismatch, 4, 1},
		{"summary count", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=2\n", lexer.CountMismatch, 4, 1},
		{"summary arity", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=1,2\n", lexer.CountMismatch, 4, 1},
		{"labeled generic summary", "GCF profile=generic\n## t [?]{a}\n1\n##! summary counts=t:1\n", lexer.InvalidSummary, 4, 1},
		{"content after summary", "GCF profile=generic\n##! summary\nx=1\n", lexer.InvalidSummary, 3, 1},
		{"out of range", "GCF profile=generic\nv=9223372036854775808\n", lexer.OutOfRange, 2, 3},
		{"int64 minimum is fine, one below is not", "GCF profile=generic\na=-9223372036854775808\nb=-9223372036854775809\n", lexer.OutOfRange, 3, 3},
		{"invalid node line", "GCF profile=graph\n## targets\n@0 fn a 0.50\n", lexer.InvalidNodeLine, 3, 1},
		{"invalid symbol id", "GCF profile=graph\n## targets\n@x fn a 0.50 lsp\n", lexer.InvalidSymbolID, 3, 2},
		{"non-sequential symbol id", "GCF profile=graph\n## targets\n@1 fn a 0.50 lsp\n", lexer.InvalidSymbolID, 3, 2},
		{"invalid score", "GCF profile=graph\n## targets\n@0 fn a 0.5 lsp\n", lexer.InvalidScore, 3, 9},
		{"invalid edge syntax", "GCF profile=graph\n## targets\n@0 fn a 0.50 lsp\n## edges\n@0 @0 calls\n", lexer.InvalidEdgeSyntax, 5, 1},
		{"unknown edge reference", "GCF profile=graph\n## targets\n@0 fn a 0.50 lsp\n## edges\n@0<@1 calls\n", lexer.UnknownEdgeReference, 5, 5},
		{"edges count", "GCF profile=graph\n## targets\n@0 fn a 0.50 lsp\n## edges [2]\n@0<@0 calls\n", lexer.CountMismatch, 5, 1},
		{"header symbols", "GCF profile=graph symbols=2\n## targets\n@0 fn a 0.50 lsp\n", lexer.CountMismatch, 3, 1},
		{"malformed delta", "GCF profile=graph delta=true\n## targets\n", lexer.MalformedDelta, 2, 4},
		{"delta line form", "GCF profile=graph delta=true\n## removed\nfn\n", lexer.MalformedDelta, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := ast.Parse([]byte(tt.in), stream.Limits{})
			if len(errs) == 0 {
				t.Fatalf("no diagnostics, want %s", tt.cat)
			}
			e := errs[0]
			if e.Category != tt.cat || e.Pos.Line != tt.line || e.Pos.Column != tt.col {
				t.Fatalf("want %s at %d:%d, got %v", tt.cat, tt.line, tt.col, errs)
			}
			if !errors.Is(e, tt.cat) {
				t.Fatalf("errors.Is(e, %s) is false", tt.cat)
			}
			if err := differential.Compare([]byte(tt.in), stream.Limits{}); err != nil {
				t.Fatalf("parsers disagree: %v", err)
			}
		})
	}
}

// TestLimits: the limits of stream.Limits bound the AST path the same way.
func TestLimits(t *testing.T) {
	deep := "GCF profile=generic\n"
	for i := 0; i < 5; i++ {
		deep += indent(i) + "## a\n"
	}
	tests := []struct {
		name   string
		in     string
		limits stream.Limits
		cat    lexer.Category
	}{
		{"depth", deep, stream.Limits{MaxDepth: 3}, lexer.DepthExceeded},
		{"line", "GCF profile=generic\nv=0123456789\n", stream.Limits{MaxLineBytes: 8}, lexer.LineTooLong},
		{"declared count", "GCF profile=generic\n## [11]\n", stream.Limits{MaxElements: 10}, lexer.TooManyElements},
		{"fields", "GCF profile=generic\n## [1]{a,b,c}\n1|2|3\n", stream.Limits{MaxFields: 2}, lexer.TooManyFields},
		{"bytes", "GCF profile=generic\nv=1\n", stream.Limits{MaxBytes: 10}, lexer.PayloadTooLarge},
		{"summary required", "GCF profile=generic\n## [?]{a}\n1\n", stream.Limits{RequireSummary: true}, lexer.UnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := ast.Parse([]byte(tt.in), tt.limits)
			if len(errs) == 0 || errs[0].Category != tt.cat {
				t.Fatalf("want %s first, got %v", tt.cat, errs)
			}
			if err := differential.Compare([]byte(tt.in), tt.limits); err != nil {
				t.Fatalf("parsers disagree: %v", err)
			}
		})
	}
}

func indent(n int) string {
	b := make([]byte, 2*n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}
