package gcf

import (
	"reflect"
	"strings"
	"testing"
)

// Trailing spaces and tabs on a line are no error (SPEC §16.5: a decoder
// MAY warn about them, without rejecting), as the reference SDK reads them:
// each payload decodes, on every path, to what it decodes to without them
// (issue 22 item 2; docs/spec-notes.md). Before, a section header, count
// bracket, declaration or `{}` line with a trailing blank was invalid_line.
func TestTrailingBlanksOnLines(t *testing.T) {
	generic := []string{
		"GCF profile=generic\n## A \nb=1\n",
		"GCF profile=generic\n## t [1]{a} \n1\n",
		"GCF profile=generic\nt[2]: 1,2 \nx=1\n",
		"GCF profile=generic\n## t [1]\t\n@0 =1\n",
		"GCF profile=generic\n## t [1]\n@0 {} \n  k=v \nx=1\n",
		"GCF profile=generic\n## t [1]{a}\n@0 ^ \n.a {} \n    k=\"v\" \t\nx=1\n",
		"GCF profile=generic\n## t [?]{a} \n1\n##! summary counts=1 \n",
	}
	for _, in := range generic {
		want, err := DecodeGeneric([]byte(trimLineEnds(in)))
		if err != nil {
			t.Fatalf("%q without trailing blanks: %v", in, err)
		}
		got, err := DecodeGeneric([]byte(in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %v (%v), want %v", in, got, err, want)
		}
		if err := pullErr(in); err != nil {
			t.Errorf("%q: NewDecoder: %v", in, err)
		}
	}
	graph := "GCF profile=graph symbols=1 edges=1\t\n## targets \n@0 fn a 0.90 p \n## edges [1] \n@0<@0 x pending\t\n"
	want, err := Decode([]byte(trimLineEnds(graph)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode([]byte(graph))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("graph: got %+v (%v), want %+v", got, err, want)
	}
	if err := pullErr(graph); err != nil {
		t.Errorf("graph: NewDecoder: %v", err)
	}
	// The legacy v1 wire too (SPEC-v1.1 §12.5 lists trailing whitespace
	// among the warnings).
	v1 := "GCF tool=t symbols=1 edges=1\t\n## targets \n@0 fn a 0.90 p \n## edges [1] \n@0<@0 x pending\t\n"
	want, err = Decode([]byte(trimLineEnds(v1)), WithWire(WireV1))
	if err != nil {
		t.Fatal(err)
	}
	got, err = Decode([]byte(v1), WithWire(WireV1))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("v1: got %+v (%v), want %+v", got, err, want)
	}
	if err := pullErr(v1, WithWire(WireV1)); err != nil {
		t.Errorf("v1: NewDecoder: %v", err)
	}
}

func trimLineEnds(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}
