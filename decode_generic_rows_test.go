package gcf

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gcfkit/gcf/internal/generic"
)

// eventsGeneric is DecodeGeneric with every table row read as an event
// (the direct rows off).
func eventsGeneric(data []byte) (any, error) {
	generic.DirectRows = false
	defer func() { generic.DirectRows = true }()
	return DecodeGeneric(data)
}

// checkGenericAgrees fails unless DecodeGeneric's direct rows give the
// event path's value (int64 and float64 told apart, member order kept), or
// its error: the same message, SPEC §16.5 category and line:column.
func checkGenericAgrees(t *testing.T, name string, data []byte) (ok bool) {
	t.Helper()
	want, wantErr := eventsGeneric(data)
	got, err := DecodeGeneric(data)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s: direct error %v, events %v", name, err, wantErr)
	}
	if err != nil {
		var se, wse *SyntaxError
		if err.Error() != wantErr.Error() || CategoryOf(err) != CategoryOf(wantErr) ||
			errors.As(err, &se) != errors.As(wantErr, &wse) || se != nil && (se.Line != wse.Line || se.Column != wse.Column) {
			t.Fatalf("%s: direct error %v (%s), events %v (%s)", name, err, CategoryOf(err), wantErr, CategoryOf(wantErr))
		}
		return false
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n direct %#v\n events %#v", name, got, want)
	}
	return true
}

// DecodeGeneric's direct rows equal its event path on tables of edge cells
// (numbers at the plain scan's limits, "-0", absent and null cells, path
// columns, ids, markers with and without attachments), whole and with one
// byte damaged.
func TestDecodeGenericDirectRows(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 41))
	valid, failed := 0, 0
	for i := 0; i < 4000; i++ {
		s := directRowsPayload(r)
		if i%2 == 1 {
			s = damageRow(r, s)
		}
		if checkGenericAgrees(t, fmt.Sprintf("payload %d %q", i, s), []byte(s)) {
			valid++
		} else {
			failed++
		}
	}
	if valid < 300 || failed < 300 {
		t.Fatalf("%d valid and %d failing payloads: the generator needs both", valid, failed)
	}
}

// Random JSON documents and the corpus, encoded in each layout, whole and
// cut at many points: the direct rows agree with the events.
func TestDecodeGenericDirectRandomAndCorpus(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 42))
	var docs [][]byte
	for i := 0; i < 400; i++ {
		js, _ := json.Marshal([]any{randomJSON(r, 4), randomJSON(r, 4), randomJSON(r, 3)})
		docs = append(docs, js)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, f := range files {
		js, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, js)
	}
	for i, js := range docs {
		x, err := ParseJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range [][]Option{nil, {WithSize(Smallest)}} {
			data, err := EncodeGeneric(x, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if !checkGenericAgrees(t, fmt.Sprintf("doc %d", i), data) {
				t.Fatalf("doc %d does not decode:\n%s", i, data)
			}
			if i >= 400 { // the corpus: every prefix
				for n := 0; n < len(data); n += 1 + n/64 {
					checkGenericAgrees(t, fmt.Sprintf("doc %d prefix %d", i, n), data[:n])
				}
			}
			for k := 0; k < 3; k++ {
				s := damageRow(r, string(data))
				checkGenericAgrees(t, fmt.Sprintf("doc %d damaged %q", i, s), []byte(s))
			}
		}
	}
}
