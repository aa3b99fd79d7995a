package ast

import (
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// TestValidateV1 checks that every problem of a v1 payload is reported,
// each at its line, with its §16.5 category.
func TestValidateV1(t *testing.T) {
	in := "GCF tool=t symbols=3 edges=2\n## targets\n@0 fn a.A abc lsp\n@1 fn a.B 0.1\n@2 fn a.C 0.2 x\n## edges [2]\n@0<@9 calls\n"
	got := ValidateV1([]byte(in), stream.Limits{})
	want := []struct {
		line int
		cat  lexer.Category
	}{
		{3, lexer.InvalidScore},
		{4, lexer.InvalidNodeLine},
		{7, lexer.UnknownEdgeReference},
		{7, lexer.CountMismatch}, // the edges section declares 2
		{7, lexer.CountMismatch}, // so does the header
	}
	for i, w := range want {
		if i >= len(got) || got[i].Pos.Line != w.line || got[i].Category != w.cat {
			t.Fatalf("problem %d: got %v, want %s at line %d", i, got, w.cat, w.line)
		}
	}
	if len(got) != len(want) {
		for _, e := range got {
			t.Log(e)
		}
		t.Fatalf("got %d problems, want %d", len(got), len(want))
	}
}

// TestCheckV1LineLimitCountsRawLine: the v1 line limit counts the line as
// received, trailing blanks and CR included, and is checked before the
// line's syntax, as the pull decoder does (found by FuzzDifferentialV1).
func TestCheckV1LineLimitCountsRawLine(t *testing.T) {
	lim := stream.Limits{MaxLineBytes: 200}
	body := strings.Repeat("0", 200)
	for _, tail := range []string{" ", "\r", "  \r"} {
		in := "GCF tool=t\n" + body + tail + "\n"
		got := CheckV1([]byte(in), lim)
		if len(got) == 0 || got[0].Category != lexer.LineTooLong || got[0].Pos.Line != 2 || got[0].Pos.Column != 201 {
			t.Errorf("tail %q: want line_too_long at 2:201, got %v", tail, got)
		}
	}
}
