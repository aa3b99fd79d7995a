package convert

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gcfkit/gcf"
)

// FuzzToJSON: no input of any format panics, hangs or converts to text
// that is not JSON; every refusal is a *gcf.SyntaxError.
func FuzzToJSON(f *testing.F) {
	for _, s := range []string{"a: [1, {b: c}]\n", "x: &a [1]\ny: *a\n", "[t]\nx = 1979-05-27\n", "id,name\n1,\"a\"\"b\"\n",
		"\x82\xa1a\x01\xa1b\x92\xc3\xc0", "\xdf\xff\xff\xff\xff", "\xd6\xff\x00\x00\x00\x01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, format := range Formats {
			js, err := ToJSON(format, []byte(s), Limits{MaxDepth: 64, MaxBytes: 1 << 20})
			if err != nil {
				var se *gcf.SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("%s: %T %v, want a *gcf.SyntaxError", format, err, err)
				}
				continue
			}
			if !json.Valid(js) {
				t.Fatalf("%s: %q converts to invalid JSON %q", format, s, js)
			}
		}
	})
}
