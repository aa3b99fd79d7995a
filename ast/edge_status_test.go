package ast

import (
	"bytes"
	"testing"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// An edge status is any token of the name rule on every validator path,
// v3 and v1 (issue 22 item 1; docs/spec-notes.md); one with whitespace or
// a control character inside is invalid_edge_syntax.
func TestEdgeStatusAnyToken(t *testing.T) {
	const v3 = "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n@1 fn b 0.50 p\n## edges [3]\n@1<@0 imports pending\n@0<@1 calls unchanged\n@1<@1 x état_ⓧ\n"
	const v1 = "GCF tool=t\n## targets\n@0 fn a 0.90 p\n@1 fn b 0.50 p\n## edges [2]\n@1<@0 imports pending\n@0<@1 calls unchanged\n"
	f, errs := Parse([]byte(v3), stream.Limits{})
	if len(errs) != 0 {
		t.Fatalf("Parse: %v", errs)
	}
	if errs := Validate(f); len(errs) != 0 {
		t.Fatalf("Validate: %v", errs)
	}
	var got []string
	for _, sec := range f.Graph.Groups {
		for _, ln := range sec.Lines {
			if e, ok := ln.(*Edge); ok {
				got = append(got, e.Status)
			}
		}
	}
	if len(got) != 3 || got[0] != "pending" || got[1] != "unchanged" || got[2] != "état_ⓧ" {
		t.Fatalf("statuses %q", got)
	}
	if errs := Check(bytes.NewReader([]byte(v3)), stream.Limits{}); len(errs) != 0 {
		t.Fatalf("Check: %v", errs)
	}
	if errs := ValidateV1([]byte(v1), stream.Limits{}); len(errs) != 0 {
		t.Fatalf("ValidateV1: %v", errs)
	}
	if errs := CheckV1([]byte(v1), stream.Limits{}); len(errs) != 0 {
		t.Fatalf("CheckV1: %v", errs)
	}
	for _, bad := range []string{"pen\u00a0ding", "p\x01"} {
		in := "GCF profile=graph\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 x " + bad + "\n"
		if errs := Check(bytes.NewReader([]byte(in)), stream.Limits{}); len(errs) == 0 || errs[0].Category != lexer.InvalidEdgeSyntax || errs[0].Pos.Line != 5 {
			t.Errorf("%q: Check %v, want invalid_edge_syntax on line 5", bad, errs)
		}
		in1 := "GCF tool=t\n## targets\n@0 fn a 0.90 p\n## edges [1]\n@0<@0 x " + bad + "\n"
		if errs := ValidateV1([]byte(in1), stream.Limits{}); len(errs) == 0 || errs[0].Category != lexer.InvalidEdgeSyntax || errs[0].Pos.Line != 5 {
			t.Errorf("%q: ValidateV1 %v, want invalid_edge_syntax on line 5", bad, errs)
		}
	}
}
