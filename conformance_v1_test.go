package gcf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/internal/conformance"
	"github.com/gcfkit/gcf/legacy"
)

// v1Fixture is one case of the legacy suite ../shared/conformance-v1 (read
// in place). The suite has no operation field: a fixture's group is its
// directory (decode, delta, encode, errors, generic, session, streaming).
type v1Fixture struct {
	Name          string          `json:"name"`
	Description   string          `json:"description"`
	Input         json.RawMessage `json:"input"`
	Expected      json.RawMessage `json:"expected"`
	ExpectedError json.RawMessage `json:"expectedError"`
	Calls         []struct {
		Input    json.RawMessage `json:"input"`
		Expected string          `json:"expected"`
	} `json:"calls"`
	group, path string
}

func loadV1Fixtures(t *testing.T, dir string) []v1Fixture {
	return loadJSON(t, dir, func(f *v1Fixture, path string, _ []byte) {
		f.path = path
		f.group = strings.SplitN(filepath.ToSlash(path), "/", 2)[0]
	})
}

// TestConformanceV1 runs the legacy v1 suite and prints one summary line
// per group, prefixed v1- (`v1-encode: 9 passed, 0 failed, 0 skipped`),
// counting only the fixtures whose subtest ran.
func TestConformanceV1(t *testing.T) {
	dir := conformance.DirV1(t)
	fixtures := loadV1Fixtures(t, dir)
	if len(fixtures) == 0 {
		t.Fatalf("no fixtures under %s", dir)
	}
	var results []result
	for _, f := range fixtures {
		r := result{path: f.path, op: "v1-" + f.group}
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
			r.reason = "skipped by the subtest (see its log)"
			runV1Fixture(t, f)
		})
		results = append(results, r)
	}
	fmt.Print(summarizeAs(results, "conformance-v1"))
}

func runV1Fixture(t *testing.T, f v1Fixture) {
	v1 := WithWire(WireV1)
	switch f.group {
	case "encode":
		var in Payload
		mustUnmarshal(t, f.Input, &in)
		got, err := Encode(&in, v1)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		if len(f.Expected) == 0 {
			// No expected output (the fixture says what it tests in a
			// note): the v1 encoding must decode back to the input.
			back, err := Decode(got, v1)
			if err != nil {
				t.Fatalf("decode(encode(input)): %v\n%s", err, got)
			}
			sameGraphAsWire(t, &in, back)
		} else if want := mustString(t, f.Expected); string(got) != want {
			t.Fatalf("encode mismatch\n--- got\n%s--- want\n%s", got, want)
		}
		checkMigrate(t, got)
	case "decode", "streaming":
		in := mustString(t, f.Input)
		var want Payload
		mustUnmarshal(t, f.Expected, &want)
		got, err := Decode([]byte(in), v1)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("decode mismatch\n got %s\nwant %s", mustJSON(got), mustJSON(&want))
		}
		checkMigrate(t, []byte(in))
	case "session":
		s := NewSession()
		for i, c := range f.Calls {
			var in Payload
			mustUnmarshal(t, c.Input, &in)
			got, err := EncodeWithSession(&in, s, v1)
			if err != nil {
				t.Fatalf("call %d: %v", i+1, err)
			}
			if string(got) != c.Expected {
				t.Fatalf("call %d mismatch\n--- got\n%s--- want\n%s", i+1, got, c.Expected)
			}
			checkMigrate(t, got)
		}
	case "delta":
		var in DeltaPayload
		mustUnmarshal(t, f.Input, &in)
		got, err := EncodeDelta(&in, v1)
		if err != nil {
			t.Fatalf("encode delta: %v", err)
		}
		if want := mustString(t, f.Expected); string(got) != want {
			t.Fatalf("encode delta mismatch\n--- got\n%s--- want\n%s", got, want)
		}
		back, err := DecodeDelta(got, v1)
		if err != nil {
			t.Fatalf("decode delta: %v", err)
		}
		if want := v1DeltaAsWire(&in); !reflect.DeepEqual(back, want) {
			t.Fatalf("decode(encode(delta)) != delta\n got %s\nwant %s", mustJSON(back), mustJSON(want))
		}
		checkMigrate(t, got)
	case "errors":
		in := []byte(mustString(t, f.Input))
		var err error
		if legacy.IsGraphHead(head5(in)) {
			_, err = Decode(in, v1)
		} else {
			_, err = DecodeGeneric(in, v1)
		}
		if err == nil {
			t.Fatalf("%s: decoded without error", f.Description)
		}
		se, ok := err.(*SyntaxError)
		if !ok || se.Category == "" || se.Line < 1 || se.Column < 1 {
			t.Fatalf("error without category and position: %#v", err)
		}
		t.Logf("%s: %v", f.Description, err)
		if err := Migrate(bytes.NewReader(in), new(bytes.Buffer)); err == nil || CategoryOf(err) != se.Category {
			t.Fatalf("migrate: got %v, want the decoder's %s", err, se.Category)
		}
	case "generic":
		in, err := ParseJSON(f.Input)
		if err != nil {
			t.Fatalf("input: %v", err)
		}
		want := mustString(t, f.Expected)
		// The suite's README asks Go implementations to compare generic
		// fixtures structurally: its outputs mix insertion and sorted key
		// order. The expected text must decode to the input, and our
		// encoding too.
		dec, err := DecodeGeneric([]byte(want), v1)
		if err != nil {
			t.Fatalf("decode(expected): %v\n%s", err, want)
		}
		if !jsonEqualUnordered(dec, in) {
			t.Fatalf("decode(expected) != input\n got %s\nwant %s", mustJSON(dec), mustJSON(in))
		}
		got, err := EncodeGeneric(in, v1)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		back, err := DecodeGeneric(got, v1)
		if err != nil {
			t.Fatalf("decode(encode(input)): %v\n%s", err, got)
		}
		if !jsonEqualUnordered(back, in) {
			t.Fatalf("decode(encode(input)) != input\n got %s\nwant %s\n%s", mustJSON(back), mustJSON(in), got)
		}
		if string(got) != want {
			t.Logf("not byte-identical (key order)\n--- got\n%s--- want\n%s", got, want)
		}
		checkMigrate(t, []byte(want))
		checkMigrate(t, got)
	default:
		t.Fatalf("unknown v1 fixture group %q", f.group)
	}
}

// checkMigrate checks the migration property on a v1 payload that decodes:
// decoding Migrate's output with the v3 decoder gives what decoding the
// payload with the v1 decoder gives.
func checkMigrate(t *testing.T, v1 []byte) {
	t.Helper()
	var out bytes.Buffer
	if err := Migrate(bytes.NewReader(v1), &out); err != nil {
		t.Fatalf("migrate: %v\n%s", err, v1)
	}
	if err := sameMigrated(v1, out.Bytes()); err != nil {
		t.Fatalf("%v\n--- v1\n%s--- v3\n%s", err, v1, out.Bytes())
	}
}

// sameMigrated reports how decoding v1 (v1 wire) and v3 (v3 wire) differ,
// or nil. Graph payloads are compared as events (a session reference has
// no Payload form in v3), deltas as DeltaPayloads, generic ones as values.
func sameMigrated(v1, v3 []byte) error {
	w1 := WithWire(WireV1)
	switch {
	case legacy.IsGraphHead(head5(v1)) && isDeltaHeader(v1):
		a, err := DecodeDelta(v1, w1)
		if err != nil {
			return err
		}
		b, err := DecodeDelta(v3)
		if err != nil {
			return fmt.Errorf("v3 decode of the migrated delta: %v", err)
		}
		if !reflect.DeepEqual(a, b) {
			return fmt.Errorf("delta differs\n v1 %s\n v3 %s", mustJSON(a), mustJSON(b))
		}
	case legacy.IsGraphHead(head5(v1)):
		a, err := graphEvents(v1, w1)
		if err != nil {
			return err
		}
		b, err := graphEvents(v3)
		if err != nil {
			return fmt.Errorf("v3 decode of the migrated payload: %v", err)
		}
		if !reflect.DeepEqual(a, b) {
			return fmt.Errorf("graph differs\n v1 %q\n v3 %q", a, b)
		}
		if pa, err := Decode(v1, w1); err == nil && !bytes.Contains(v3, []byte("# previously transmitted")) {
			pb, err := Decode(v3)
			if err != nil {
				return fmt.Errorf("v3 Decode of the migrated payload: %v", err)
			}
			if !reflect.DeepEqual(pa, pb) {
				return fmt.Errorf("payload differs\n v1 %s\n v3 %s", mustJSON(pa), mustJSON(pb))
			}
		}
	default:
		a, err := DecodeGeneric(v1, w1)
		if err != nil {
			return err
		}
		b, err := DecodeGeneric(v3)
		if err != nil {
			return fmt.Errorf("v3 decode of the migrated payload: %v", err)
		}
		if !jsonEqual(a, b) {
			return fmt.Errorf("value differs\n v1 %s\n v3 %s", mustJSON(a), mustJSON(b))
		}
	}
	return nil
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// graphEvents renders the graph content events of a payload as strings:
// header fields (budget, tokens and edges at zero dropped, profile dropped),
// groups with their distance, symbols with the parsed score, references and
// edges.
func graphEvents(data []byte, opts ...Option) ([]string, error) {
	d := NewDecoder(bytes.NewReader(data), opts...)
	var out []string
	for {
		ev, err := d.Read()
		if err != nil {
			if err == io.EOF {
				return out, nil
			}
			return nil, err
		}
		switch ev.Kind {
		case KindHeader:
			for i, k := range ev.Fields {
				v := string(ev.Cells[i].Bytes)
				switch string(k) {
				case "profile":
					continue
				case "budget", "tokens", "edges":
					if v == "0" {
						continue
					}
				}
				out = append(out, "hdr "+string(k)+"="+v)
			}
			sort.Strings(out)
		case KindGroup:
			out = append(out, fmt.Sprintf("group %d", ev.ID))
		case KindSymbol:
			f, err := ev.Score()
			if err != nil {
				return nil, err
			}
			// f+0: a score is a number, and -0 is 0 (the v3 writers spell
			// either zero 0.00, as SPEC §2.3.1 spells numbers' zero 0).
			out = append(out, fmt.Sprintf("sym @%d %s %s %v %s", ev.ID, ev.Cells[0].Bytes, ev.Cells[1].Bytes, f+0, ev.Cells[3].Bytes))
		case KindReference:
			out = append(out, fmt.Sprintf("ref @%d", ev.ID))
		case KindEdge:
			c := ev.Cells
			s := fmt.Sprintf("edge %d<%d %s", c[0].Int, c[1].Int, c[2].Bytes)
			if len(c) > 3 {
				s += " " + string(c[3].Bytes)
			}
			out = append(out, s)
		}
	}
}

// v1DeltaAsWire is what decoding the v1 encoding of d gives: kinds expanded,
// scores at two decimals, distances 0 (v1 added lines carry none), edge
// statuses dropped.
func v1DeltaAsWire(d *DeltaPayload) *DeltaPayload {
	w := deltaAsWire(d)
	for i := range w.Added {
		w.Added[i].Distance = 0
	}
	return w
}

func mustUnmarshal(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("fixture: %v", err)
	}
}

// jsonEqualUnordered compares two JSON-model values with objects as
// unordered sets of members.
func jsonEqualUnordered(a, b any) bool {
	var x, y any
	if json.Unmarshal([]byte(mustJSON(a)), &x) != nil || json.Unmarshal([]byte(mustJSON(b)), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// head5 is the first 5 bytes of b (all of a shorter b), what Migrate peeks.
func head5(b []byte) []byte { return b[:min(len(b), 5)] }

// isDeltaHeader reports whether the first line holds the field delta=true.
func isDeltaHeader(b []byte) bool {
	for _, f := range bytes.Fields(firstLine(b)) {
		if string(f) == "delta=true" {
			return true
		}
	}
	return false
}
