package wire

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/conformance"
)

// goldenVectors lists the product's vectors: every NAME.json with a
// NAME.gcb beside it, in golden/ and golden/edge-cases/.
func goldenVectors(t *testing.T) []string {
	dir := conformance.WireDir(t)
	var names []string
	for _, sub := range []string{"golden", "golden/edge-cases"} {
		m, err := filepath.Glob(filepath.Join(dir, sub, "*.gcb"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			base := strings.TrimSuffix(f, ".gcb")
			if _, err := os.Stat(base + ".json"); err == nil {
				names = append(names, base)
			}
		}
	}
	if len(names) < 16 {
		t.Fatalf("found %d golden vectors with JSON input, expected 16", len(names))
	}
	return names
}

func readJSONPayload(t *testing.T, path string) *gcf.Payload {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := DecodeWith("json", data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

// TestGoldenGCB1Encode: encoding each golden JSON with gcb1 gives the
// product's bytes: strictly when nothing is lost, with Lossy otherwise,
// and then the strict encoder names what would be lost.
func TestGoldenGCB1Encode(t *testing.T) {
	strict, lossy := 0, 0
	for _, base := range goldenVectors(t) {
		name := filepath.Base(base)
		t.Run(name, func(t *testing.T) {
			p := readJSONPayload(t, base+".json")
			want, err := os.ReadFile(base + ".gcb")
			if err != nil {
				t.Fatal(err)
			}
			got, err := GCB1{}.Append(nil, p)
			if err != nil {
				var se *gcf.SyntaxError
				if !errors.As(err, &se) || se.Category != gcf.UnsupportedValue || !strings.Contains(se.Msg, "GCB1 would lose it") {
					t.Fatalf("strict gcb1 error is not a loss report: %v", err)
				}
				t.Logf("strict: %v", err)
				if got, err = (GCB1{Lossy: true}).Append(nil, p); err != nil {
					t.Fatal(err)
				}
				lossy++
			} else {
				strict++
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("gcb1 bytes differ from the product's\n got %x\nwant %x", got, want)
			}
		})
	}
	t.Logf("byte-identical: %d strictly, %d with Lossy", strict, lossy)
}

// TestGoldenGCB1Decode: decoding each golden .gcb gives the payload of its
// .gcb.decoded.json, or an error where the product's decoder failed.
func TestGoldenGCB1Decode(t *testing.T) {
	for _, base := range goldenVectors(t) {
		name := filepath.Base(base)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(base + ".gcb")
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(base + ".gcb.decoded.json")
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeWith("gcb1", data)
			switch {
			case bytes.HasPrefix(want, []byte("DECODE ERROR")):
				if err == nil {
					t.Fatalf("decoded what the product could not (%s)", want)
				}
				if gcf.CategoryOf(err) != gcf.UnknownEdgeReference {
					t.Fatalf("category %q, want unknown_edge_reference: %v", gcf.CategoryOf(err), err)
				}
				return
			case err != nil:
				t.Fatal(err)
			case bytes.HasPrefix(want, []byte("JSON ENCODE ERROR")):
				// The product could not print it (±Inf); the value check
				// is the Lossy round trip in TestGoldenLossyRoundTrip.
				return
			}
			wp, err := DecodeWith("json", want)
			if err != nil {
				t.Fatal(err)
			}
			if !payloadsEqual(got, wp) {
				t.Fatalf("decoded payload differs\n got %+v\nwant %+v", got, wp)
			}
		})
	}
}

// TestGoldenGCBLossless: the gcb codec carries every golden payload exactly
// and is smaller than gcb1 on each.
func TestGoldenGCBLossless(t *testing.T) {
	for _, base := range goldenVectors(t) {
		name := filepath.Base(base)
		t.Run(name, func(t *testing.T) {
			p := readJSONPayload(t, base+".json")
			enc, err := EncodeWith("gcb", p)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeWith("gcb", enc)
			if err != nil {
				t.Fatal(err)
			}
			if !payloadsEqual(back, p) {
				t.Fatalf("round trip differs\n got %+v\nwant %+v", back, p)
			}
			compact, err := GCB{Compact: true}.Append(nil, p)
			if err != nil {
				t.Fatal(err)
			}
			if back, err = DecodeWith("gcb", compact); err != nil || !payloadsEqual(back, p) {
				t.Fatalf("Compact round trip differs (%v)", err)
			}
			v1, _ := os.ReadFile(base + ".gcb")
			// On the six benchmark cases (not the edge cases, where gcb
			// spends bytes on what gcb1 drops) gcb is the smaller.
			if filepath.Base(filepath.Dir(base)) == "golden" && (len(enc) >= len(v1) || len(compact) > len(enc)) {
				t.Errorf("gcb %d bytes, Compact %d, gcb1 %d", len(enc), len(compact), len(v1))
			}
			t.Logf("gcb %d bytes, Compact %d, gcb1 %d", len(enc), len(compact), len(v1))
		})
	}
}
