package gcf

import (
	"encoding/json"
	"testing"
)

// A json.Number field is written as encoding/json writes it: the zero
// Number as 0, and a string that is not a number is refused (it panicked
// before on "").
func TestMarshalJSONNumberField(t *testing.T) {
	type s struct {
		N json.Number `json:"n"`
	}
	out, err := Marshal(s{})
	if err != nil || string(out) != "GCF profile=generic\nn=0\n" {
		t.Fatalf("zero Number: %q, %v", out, err)
	}
	for _, bad := range []string{"abc", "1x", "+1", "--1", " 1"} {
		if _, err := Marshal(s{N: json.Number(bad)}); CategoryOf(err) != UnsupportedValue {
			t.Errorf("%q: %v, want unsupported_value", bad, err)
		}
	}
}
