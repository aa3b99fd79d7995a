package gcf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/internal/conformance"
)

// TestConformanceV36 runs the fixtures spec v3.6.0 adds (constant-column,
// value-grouping; ../shared/reference/v3.6/conformance or
// $GCF_CONFORMANCE_V36_DIR). Decode and error fixtures run as in
// TestConformance and must pass; an encode fixture passes when
// EncodeGeneric writes its bytes exactly (constant columns factored,
// §7.4.7) and they decode back to its input.
func TestConformanceV36(t *testing.T) {
	dir := conformance.DirV36(t)
	fixtures := loadFixtures(t, dir)
	if len(fixtures) == 0 {
		t.Fatalf("no fixtures under %s", dir)
	}
	results := make([]result, 0, len(fixtures))
	for _, f := range fixtures {
		f.ordered = true
		r := result{path: f.path, op: "v3.6-" + f.Operation}
		t.Run(f.path, func(t *testing.T) {
			defer func() {
				switch {
				case t.Failed():
					r.outcome = failed
				case t.Skipped():
					r.outcome = skipped
				default:
					r.outcome = passed
				}
			}()
			if f.Operation == "encode" {
				if mismatch := v36Encode(f); mismatch != "" {
					t.Fatal(mismatch)
				}
				return
			}
			r.reason = "skipped by the subtest (see its log)"
			runFixture(t, f)
		})
		results = append(results, r)
	}
	// Printed directly so the summary is visible with and without -v.
	fmt.Print(summarizeAs(results, "conformance-v3.6"))
}

// v36Encode encodes an encode fixture's input and returns "" when the
// bytes match and the result decodes back to the input, or what differs.
func v36Encode(f fixture) (mismatch string) {
	in, err := ParseJSON(f.Input)
	if err != nil {
		return "input: " + err.Error()
	}
	var want string
	if err := jsonUnmarshalString(f.Expected, &want); err != nil {
		return "expected: " + err.Error()
	}
	got, err := EncodeGeneric(in)
	if err != nil {
		return "encode error: " + err.Error()
	}
	back, err := DecodeGeneric(got)
	if err != nil || !jsonEqual(back, in) {
		return fmt.Sprintf("decode(encode(input)) != input: %v", err)
	}
	if string(got) != want {
		return fmt.Sprintf("%s\nencode mismatch\n--- got\n%s--- want\n%s", f.Description, got, want)
	}
	return ""
}

func jsonUnmarshalString(raw []byte, s *string) error {
	v, err := ParseJSON(raw)
	if err != nil {
		return err
	}
	str, ok := v.(string)
	if !ok {
		return fmt.Errorf("not a string: %s", strings.TrimSpace(string(raw)))
	}
	*s = str
	return nil
}
