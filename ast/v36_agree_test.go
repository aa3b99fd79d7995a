package ast_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gcfkit/gcf/ast/differential"
	"github.com/gcfkit/gcf/internal/conformance"
	"github.com/gcfkit/gcf/stream"
)

// TestAgreeConformanceV36 is TestAgreeConformance for the fixtures spec
// v3.6.0 adds (constant columns, value-grouping): both parsers accept
// every payload the pull decoder accepts, and reject the rest with its
// category on its line.
func TestAgreeConformanceV36(t *testing.T) {
	inputs := wireInputs(t, conformance.DirV36(t))
	if len(inputs) == 0 {
		t.Fatal("no v3.6 payloads")
	}
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		data := inputs[n]
		t.Run(n, func(t *testing.T) {
			if err := differential.Compare(data, stream.Limits{}); err != nil {
				t.Fatalf("%v\ninput:\n%s", err, data)
			}
		})
	}
}

// The v3.6 seeds of testdata/differential hold both kinds: the parsers
// must accept some and reject others (so they are not all rejected for
// one reason).
func TestV36SeedsAcceptAndReject(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "differential", "v36_*.gcf"))
	acc, rej := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if differential.Pull(b, stream.Limits{}) == nil {
			acc++
		} else {
			rej++
		}
	}
	if acc < 8 || rej < 30 {
		t.Fatalf("%d v3.6 seeds accepted, %d rejected", acc, rej)
	}
}
