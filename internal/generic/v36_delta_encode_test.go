package generic

import (
	"reflect"
	"strings"
	"testing"
)

// TestGenericDeltaFactoredEqualsPlain extends
// TestGenericPackRootFactoredEqualsPlain from decoded payloads to encoded
// ones: the same rows encoded at spec v3.6.0 (the default, constant
// columns factored), at v3.5.3 (gcf.WithSpec(gcf.Spec353)) and
// value-grouped (GroupBy) give keyed sets with the same pack root
// (§10a.3 hashes row records, not bytes), the same delta (DiffGeneric),
// the same delta bytes at either spec, and a delta that applies to each;
// and the §10a payloads themselves (EncodeTable, EncodeGenericDelta) stay
// unfactored at v3.6.0, as the unchanged upstream generic-delta fixtures
// show.
func TestGenericDeltaFactoredEqualsPlain(t *testing.T) {
	base := `[{"id":1,"status":"pending","region":"us","total":10},{"id":2,"status":"pending","region":"us","total":20},{"id":3,"status":"pending","region":"us","total":30}]`
	next := `[{"id":1,"status":"paid","region":"us","total":10},{"id":2,"status":"paid","region":"us","total":25},{"id":3,"status":"pending","region":"us","total":30},{"id":4,"status":"pending","region":"us","total":5}]`
	forms := []struct {
		name string
		opts []Option
	}{{"v3.6.0", nil}, {"v3.5.3", []Option{WithSpec(Spec353)}}, {"grouped", []Option{GroupBy("id", "status")}}}
	tables := func(in string) []*Table {
		t.Helper()
		v, err := ParseJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		var out []*Table
		for _, f := range forms {
			enc, err := EncodeGeneric(v, f.opts...)
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			back, err := DecodeGeneric(enc)
			if err != nil {
				t.Fatalf("%s: %v\n%s", f.name, err, enc)
			}
			tab, err := NewTable(back, "id")
			if err != nil {
				t.Fatalf("%s: %v\n%s", f.name, err, enc)
			}
			out = append(out, tab)
		}
		return out
	}
	bases, nexts := tables(base), tables(next)
	var roots []string
	for i, tab := range append(bases, nexts...) {
		r, err := GenericPackRoot(tab)
		if err != nil {
			t.Fatal(err)
		}
		if i%len(forms) != 0 && r != roots[len(roots)-1] {
			t.Errorf("%s: pack root %s, %s: %s", forms[i%len(forms)].name, r, forms[0].name, roots[len(roots)-1])
			continue
		}
		if i%len(forms) == 0 {
			roots = append(roots, r)
		}
	}
	var want *GenericDelta
	var wantBytes []byte
	for i, f := range forms {
		d, err := DiffGeneric(bases[i], nexts[i])
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if i == 0 {
			want = d
		} else if !reflect.DeepEqual(d, want) {
			t.Errorf("%s: delta %+v, %s: %+v", f.name, d, forms[0].name, want)
		}
		for _, spec := range []Spec{Spec36, Spec353} {
			enc, err := EncodeGenericDelta(d, WithSpec(spec))
			if err != nil {
				t.Fatal(err)
			}
			if wantBytes == nil {
				wantBytes = enc
			} else if string(enc) != string(wantBytes) {
				t.Errorf("%s at %s: delta bytes\n%s\nwant\n%s", f.name, spec, enc, wantBytes)
			}
			if declaresConstants(enc) {
				t.Errorf("%s at %s: the delta payload factors a column:\n%s", f.name, spec, enc)
			}
		}
		for j := range forms {
			got, err := ApplyGenericDelta(bases[j], d)
			if err != nil {
				t.Fatalf("the %s delta on the %s base: %v", f.name, forms[j].name, err)
			}
			if r, _ := GenericPackRoot(got); r != roots[1] {
				t.Errorf("the %s delta on the %s base: root %s, want %s", f.name, forms[j].name, r, roots[1])
			}
		}
	}
	// The full §10a payload of a keyed set with a constant column.
	full, err := EncodeTable(nexts[0])
	if err != nil {
		t.Fatal(err)
	}
	if declaresConstants(full) || !strings.Contains(string(full), "{@id,status,region,total}") {
		t.Errorf("EncodeTable factors or reorders:\n%s", full)
	}
	if old, _ := EncodeTable(nexts[0], WithSpec(Spec353)); string(old) != string(full) {
		t.Errorf("EncodeTable at v3.5.3:\n%s\nat v3.6.0:\n%s", old, full)
	}
}
