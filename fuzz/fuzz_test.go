package fuzz

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/conformance"
	"github.com/gcfkit/gcf/stream"
)

// seeds returns GCF payloads from the conformance suite and testdata. An
// absent ../shared leaves the testdata seeds (TestConformanceSeeds reports
// the skip); an absent $GCF_CONFORMANCE_DIR fails.
func seeds(t testing.TB) [][]byte {
	t.Helper()
	var out [][]byte
	out = append(out, conformanceSeeds(t)...)
	out = append(out, v36Seeds(t)...)
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.gcf"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// TestConformanceSeeds: the fuzz targets are seeded from the conformance
// suite (a relative $GCF_CONFORMANCE_DIR, as .ci/run sets it, once
// resolved against this package's directory and found nothing).
func TestConformanceSeeds(t *testing.T) {
	conformance.Dir(t) // skips, naming the path, when ../shared is absent
	if n := len(conformanceSeeds(t)); n < 100 {
		t.Fatalf("%d GCF payloads from the conformance suite; want 100 or more", n)
	}
}

// conformanceSeeds returns the GCF payloads the conformance fixtures carry.
func conformanceSeeds(t testing.TB) [][]byte { return suiteSeeds(t, conformance.Find) }

// v36Seeds returns the GCF payloads of the spec v3.6.0 fixtures (constant
// columns, value-grouping), whose new productions the fuzzers mutate.
func v36Seeds(t testing.TB) [][]byte { return suiteSeeds(t, conformance.FindV36) }

// suiteSeeds returns the GCF payloads of the suite find locates.
func suiteSeeds(t testing.TB, find func() (string, error)) [][]byte {
	t.Helper()
	dir, err := find()
	if err != nil {
		t.Fatal(err)
	}
	if dir == "" {
		return nil
	}
	var out [][]byte
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		var f struct {
			Operation string          `json:"operation"`
			Input     json.RawMessage `json:"input"`
			Expected  json.RawMessage `json:"expected"`
		}
		if json.Unmarshal(data, &f) != nil {
			return nil
		}
		for _, raw := range []json.RawMessage{f.Input, f.Expected} {
			var s string
			if json.Unmarshal(raw, &s) == nil && strings.HasPrefix(s, "GCF") {
				out = append(out, []byte(s))
			}
		}
		return nil
	})
	return out
}

// FuzzDecodeGeneric: decoding arbitrary bytes never panics or hangs, and
// whatever decodes re-encodes to a payload that decodes to the same value.
func FuzzDecodeGeneric(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := gcf.DecodeGeneric(data)
		if err != nil {
			if gcf.CategoryOf(err) == "" {
				t.Fatalf("error without a category: %v", err)
			}
			return
		}
		enc, err := gcf.EncodeGeneric(v)
		if err != nil {
			t.Fatalf("accepted value does not re-encode: %v", err)
		}
		back, err := gcf.DecodeGeneric(enc)
		if err != nil {
			t.Fatalf("re-encoded payload does not decode: %v\n%s", err, enc)
		}
		a, _ := gcf.ToJSON(v)
		b, _ := gcf.ToJSON(back)
		// Equality is structural (SPEC §1.1): member order can change in
		// two ways the format itself imposes. A tabular row is rebuilt in
		// the header's field-union order (§7.4.3), which differs from a
		// row whose own keys came in another order; and a '>'-named field
		// moves out of the columns into a per-row attachment (§7.4.6.1
		// rule 4). Membership, values and array order must survive.
		if !bytes.Equal(a, b) && !equalUnordered(v, back) {
			t.Fatalf("round trip changed the value\n first %s\nsecond %s\nwire:\n%s", a, b, enc)
		}
		enc2, err := gcf.EncodeGeneric(back)
		if err != nil || (bytes.Equal(a, b) && !bytes.Equal(enc, enc2)) {
			t.Fatalf("encoding is not stable:\n%s\n---\n%s", enc, enc2)
		}
	})
}

// FuzzShortReads: the decoder yields the same events (or the same error)
// whether the input arrives whole or through random short reads.
func FuzzShortReads(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		whole := events(stream.NewBytesDecoder(data, stream.Limits{}))
		r := &shortReader{data: data, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
		pieces := events(stream.NewDecoder(r, stream.Limits{}))
		if whole != pieces {
			t.Fatalf("event streams differ\nwhole:\n%s\npieces:\n%s", whole, pieces)
		}
	})
}

// events renders the event sequence (or its error) as text.
func events(d *stream.Decoder) string {
	var sb strings.Builder
	for i := 0; i < 1<<20; i++ {
		ev, err := d.Next()
		if err == io.EOF {
			return sb.String()
		}
		if err != nil {
			sb.WriteString("error: " + err.Error() + "\n")
			return sb.String()
		}
		c := ev.Clone()
		b, _ := json.Marshal(c)
		sb.Write(b)
		sb.WriteByte('\n')
	}
	return sb.String() + "too many events\n"
}

type shortReader struct {
	data []byte
	rng  *rand.Rand
}

func (r *shortReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1 + r.rng.IntN(16)
	if n > len(p) {
		n = len(p)
	}
	if n > len(r.data) {
		n = len(r.data)
	}
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// equalUnordered is JSON equality with object members compared as sets.
func equalUnordered(a, b any) bool {
	switch x := a.(type) {
	case gcf.Object:
		y, ok := b.(gcf.Object)
		if !ok || len(x) != len(y) {
			return false
		}
		for _, m := range x {
			v, ok := y.Get(m.Key)
			if !ok || !equalUnordered(m.Value, v) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalUnordered(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	ja, _ := gcf.ToJSON(a)
	jb, _ := gcf.ToJSON(b)
	return bytes.Equal(ja, jb)
}

// FuzzDecodeGraph: graph decoding never panics; whatever decodes re-encodes
// to a payload that decodes to the same logical graph (same pack root), and
// the canonical encoding is a fixed point.
func FuzzDecodeGraph(f *testing.F) {
	for _, s := range seeds(f) {
		if bytes.HasPrefix(s, []byte("GCF profile=graph")) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := gcf.Decode(data)
		if err != nil {
			if gcf.CategoryOf(err) == "" {
				t.Fatalf("error without a category: %v", err)
			}
			return
		}
		enc, err := gcf.Encode(p)
		if err != nil {
			// The model admits values the wire does not (two symbols with
			// one name make edges ambiguous); those must be reported.
			if gcf.CategoryOf(err) == "" {
				t.Fatalf("encode error without a category: %v", err)
			}
			return
		}
		back, err := gcf.Decode(enc)
		if err != nil {
			t.Fatalf("re-encoded payload does not decode: %v\n%s", err, enc)
		}
		r1, err1 := gcf.PackRoot(p)
		r2, err2 := gcf.PackRoot(back)
		if err1 != nil || err2 != nil || r1 != r2 {
			t.Fatalf("logical graph changed: %s (%v) vs %s (%v)\n%s", r1, err1, r2, err2, enc)
		}
		enc2, err := gcf.Encode(back)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("graph encoding is not a fixed point:\n%s\n---\n%s", enc, enc2)
		}
	})
}
