package ast_test

import (
	"encoding/base64"
	"encoding/json"
	"github.com/gcfkit/gcf/internal/conformance"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/ast/differential"
	"github.com/gcfkit/gcf/stream"
)

// conformanceDir is the shared suite's directory (internal/conformance:
// a test failure when $GCF_CONFORMANCE_DIR names nothing, a visible skip
// when the default ../shared/conformance is absent).
func conformanceDir(t *testing.T) string { return conformance.Dir(t) }

// wireInputs returns every GCF wire payload a fixture carries: the input of
// decode, error and roundtrip-wire fixtures (also inputBase64 and
// input.wire), and the expected output of encode-like fixtures, which is
// valid wire by definition.
func wireInputs(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Operation   string          `json:"operation"`
			Input       json.RawMessage `json:"input"`
			InputBase64 string          `json:"inputBase64"`
			Expected    json.RawMessage `json:"expected"`
		}
		if json.Unmarshal(data, &f) != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		var s string
		if f.InputBase64 != "" {
			b, err := base64.StdEncoding.DecodeString(f.InputBase64)
			if err == nil {
				out[rel+"#input"] = b
			}
		} else if json.Unmarshal(f.Input, &s) == nil {
			switch f.Operation {
			case "decode", "error", "roundtrip-wire", "delta-verify":
				out[rel+"#input"] = []byte(s)
			default:
				if strings.HasPrefix(s, "GCF") {
					out[rel+"#input"] = []byte(s)
				}
			}
		} else {
			var w struct {
				Wire string `json:"wire"`
			}
			if json.Unmarshal(f.Input, &w) == nil && w.Wire != "" {
				out[rel+"#input.wire"] = []byte(w.Wire)
			}
		}
		if json.Unmarshal(f.Expected, &s) == nil && strings.HasPrefix(s, "GCF") {
			out[rel+"#expected"] = []byte(s)
		}
		return nil
	})
	return out
}

// TestAgreeConformance runs both parsers over every wire payload of the
// conformance suite and of testdata/differential and requires the contract
// of differential.Compare: the same accept/reject decision and, on reject,
// the pull decoder's category among the AST's diagnostics on the AST's
// first diagnostic line, which is the pull decoder's error line.
func TestAgreeConformance(t *testing.T) {
	inputs := wireInputs(t, conformanceDir(t))
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "differential", "*.gcf"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs["testdata/"+filepath.Base(f)] = b
	}
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	accepted, rejected := 0, 0
	for _, n := range names {
		data := inputs[n]
		t.Run(n, func(t *testing.T) {
			if err := differential.Compare(data, stream.Limits{}); err != nil {
				t.Fatalf("%v\ninput:\n%s", err, data)
			}
			if differential.Pull(data, stream.Limits{}) == nil {
				accepted++
			} else {
				rejected++
			}
		})
	}
	t.Logf("%d payloads: %d accepted by both, %d rejected by both with the same category", len(names), accepted, rejected)
}
