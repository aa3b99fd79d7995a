package gcf

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The spec v3.6.0 decode contract: a factored table (constant columns,
// §7.4.7) and a grouped table (§7.4.8) decode to exactly the records of
// the same table written out in full, keys in declaration order, on every
// decode path.

// v36Pairs are payloads with constant columns or groups, each beside the
// unfactored payload of the same records.
var v36Pairs = []struct{ name, factored, plain string }{
	{"root", "GCF profile=generic\n## [3]{id,name,region=us-east,level}\nu1|Ann|3\nu2|Bo|1\nu3|Cy|4\n",
		"GCF profile=generic\n## [3]{id,name,region,level}\nu1|Ann|us-east|3\nu2|Bo|us-east|1\nu3|Cy|us-east|4\n"},
	{"constant first, null, bool, float, quoted", "GCF profile=generic\n## [2]{r=eu,id,n=-,ok=true,f=1.5,t=\"a,b}\",x}\nu1|1\nu2|2\n",
		"GCF profile=generic\n## [2]{r,id,n,ok,f,t,x}\neu|u1|-|true|1.5|\"a,b}\"|1\neu|u2|-|true|1.5|\"a,b}\"|2\n"},
	{"nested section", "GCF profile=generic\n## s\n  ## t [2]{a,c=\"x|y\",b}\n  1|2\n  3|4\nz=1\n",
		"GCF profile=generic\n## s\n  ## t [2]{a,c,b}\n  1|\"x|y\"|2\n  3|\"x|y\"|4\nz=1\n"},
	{"keyed map", "GCF profile=generic\n## m [2:]{key,v=7,w}\nk1|a\nk2|b\n",
		"GCF profile=generic\n## m [2:]{key,v,w}\nk1|7|a\nk2|7|b\n"},
	{"streaming", "GCF profile=generic\n## t [?]{a,c=q}\n1\n2\n##! summary counts=2\n",
		"GCF profile=generic\n## t [?]{a,c}\n1|q\n2|q\n##! summary counts=2\n"},
	{"path constant", "GCF profile=generic\n## [2]{id,\"u>tier\"=gold,\"u>n\"}\n1|a\n2|b\n",
		"GCF profile=generic\n## [2]{id,\"u>tier\",\"u>n\"}\n1|gold|a\n2|gold|b\n"},
	{"table in an attachment", "GCF profile=generic\n## [1]{id,items}\n@0 1|^\n.items [2]{sku,cur=EUR,p}\n    A|1\n    B|2\n",
		"GCF profile=generic\n## [1]{id,items}\n@0 1|^\n.items [2]{sku,cur,p}\n    A|EUR|1\n    B|EUR|2\n"},
	{"attachment after a constant", "GCF profile=generic\n## [2]{k=v,id,o}\n@0 1|^\n.o {}\n    x=1\n@1 2|-\n",
		"GCF profile=generic\n## [2]{k,id,o}\n@0 v|1|^\n.o {}\n    x=1\n@1 v|2|-\n"},
	{"grouped", "GCF profile=generic\n## [3]{@id,region=us,dept,x} group=dept\ndept=Sales [2]\nu1|1\nu3|3\ndept=- [1]\nu2|2\n",
		"GCF profile=generic\n## [3]{id,region,dept,x}\nu1|us|Sales|1\nu3|us|Sales|3\nu2|us|-|2\n"},
}

func TestDecodeGenericConstantColumns(t *testing.T) {
	for _, tt := range v36Pairs {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeGeneric([]byte(tt.factored))
			if err != nil {
				t.Fatal(err)
			}
			want, err := DecodeGeneric([]byte(tt.plain))
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqualOrdered(got, want) {
				t.Fatalf("got  %s\nwant %s", mustJSON(got), mustJSON(want))
			}
			// The streaming Decoder's DecodeGeneric and the transcoding
			// path read the same events.
			d := NewDecoder(strings.NewReader(tt.factored))
			//lint:ignore SA1019 Decoder.DecodeGeneric is deprecated but kept working; this test reads through it
			v, err := d.DecodeGeneric()
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqualOrdered(v, want) {
				t.Fatalf("Decoder.DecodeGeneric: got %s\nwant %s", mustJSON(v), mustJSON(want))
			}
		})
	}
}

func TestJSONEqualOrderedSeesOrder(t *testing.T) {
	a, _ := ParseJSON([]byte(`[{"region":"eu","id":"u1"}]`))
	b, _ := ParseJSON([]byte(`[{"id":"u1","region":"eu"}]`))
	if !jsonEqual(a, b) || jsonEqualOrdered(a, b) {
		t.Fatal("jsonEqualOrdered must tell key orders apart, jsonEqual must not")
	}
}

type v36User struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Region string `json:"region"`
	Level  int    `json:"level"`
	Dept   *string
}

// Unmarshal into structs (decode_typed.go) and Decoder.Decode row by row
// (the row plans of rowplan.go) both fill the constant fields.
func TestUnmarshalConstantColumns(t *testing.T) {
	in := v36Pairs[0].factored
	var got []v36User
	if err := Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Region != "us-east" || got[2].Region != "us-east" || got[1].Name != "Bo" || got[2].Level != 4 {
		t.Fatalf("Unmarshal: %+v", got)
	}
	var maps []map[string]any
	if err := Unmarshal([]byte(in), &maps); err != nil {
		t.Fatal(err)
	}
	if maps[1]["region"] != "us-east" {
		t.Fatalf("Unmarshal into maps: %+v", maps)
	}
	d := NewDecoder(strings.NewReader(in))
	for {
		ev, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindArrayStart {
			break
		}
	}
	var rows []v36User
	for d.More() {
		var u v36User
		if err := d.Decode(&u); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, u)
	}
	if !reflect.DeepEqual(rows, got) {
		t.Fatalf("Decoder.Decode rows %+v\nUnmarshal %+v", rows, got)
	}
}

func TestUnmarshalGrouped(t *testing.T) {
	in := "GCF profile=generic\n## [3]{@id,name,region=us,Dept,level} group=Dept\nDept=Sales [2]\nu1|Ann|3\nu3|Cy|1\nDept=- [1]\nu2|Bo|2\n"
	var got []v36User
	if err := Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].ID != "u1" || *got[0].Dept != "Sales" || got[1].ID != "u3" || *got[1].Dept != "Sales" ||
		got[2].Dept != nil || got[2].Region != "us" || got[2].Level != 2 {
		t.Fatalf("%+v", got)
	}
	// Grouped rows through the row plans of Decoder.Decode.
	d := NewDecoder(strings.NewReader(in))
	for {
		ev, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindArrayStart {
			break
		}
	}
	var rows []v36User
	for d.More() {
		var u v36User
		if err := d.Decode(&u); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, u)
	}
	if !reflect.DeepEqual(rows, got) {
		t.Fatalf("Decoder.Decode rows %+v\nUnmarshal %+v", rows, got)
	}
}

// Every decode path reports the new categories with errors.Is.
func TestV36ErrorCategories(t *testing.T) {
	cases := []struct {
		in  string
		cat Category
	}{
		{"GCF profile=generic\n## [2]{id,r=~}\nu1\nu2\n", InvalidConstValue},
		{"GCF profile=generic\n## [2]{a=1,b=2}\n", NoBareColumn},
		{"GCF profile=generic\n## [1]{id,dept} group=dept\ndept=a [1]\nu1\n", InvalidGroupHeader},
		{"GCF profile=generic\n## [2]{@id,dept,x} group=dept\ndept=a [1]\nu1|1\ndept=a [1]\nu2|2\n", DuplicateGroup},
	}
	for _, c := range cases {
		_, err := DecodeGeneric([]byte(c.in))
		if !errors.Is(err, c.cat) {
			t.Errorf("DecodeGeneric: want %s, got %v", c.cat, err)
		}
		var v []map[string]any
		if err := Unmarshal([]byte(c.in), &v); !errors.Is(err, c.cat) {
			t.Errorf("Unmarshal: want %s, got %v", c.cat, err)
		}
	}
}

// §10a.3 hashes row records, not bytes: a keyed set written with a
// constant column has the pack root of the same rows written in full, and
// a delta read from either form is the same delta.
func TestGenericPackRootFactoredEqualsPlain(t *testing.T) {
	factored := "GCF profile=generic key=id\n## [3]{@id,status=pending,total}\n1|10\n2|20\n3|30\n"
	plain := "GCF profile=generic key=id\n## [3]{@id,status,total}\n1|pending|10\n2|pending|20\n3|pending|30\n"
	root := func(in string) string {
		t.Helper()
		tab, err := DecodeTable([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		r, err := GenericPackRoot(tab)
		if err != nil {
			t.Fatal(err)
		}
		// And from the generic value, as a receiver that decoded it would.
		v, err := DecodeGeneric([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		tv, err := NewTable(v, "id")
		if err != nil {
			t.Fatal(err)
		}
		r2, err := GenericPackRoot(tv)
		if err != nil {
			t.Fatal(err)
		}
		if r != r2 {
			t.Fatalf("DecodeTable root %s, NewTable(DecodeGeneric) root %s", r, r2)
		}
		return r
	}
	if a, b := root(factored), root(plain); a != b {
		t.Fatalf("pack root of the factored payload %s, of the plain one %s", a, b)
	}
	grouped := "GCF profile=generic key=id\n## [3]{@id,status,total} group=status\nstatus=pending [3]\n1|10\n2|20\n3|30\n"
	if a, b := root(grouped), root(plain); a != b {
		t.Fatalf("pack root of the grouped payload %s, of the plain one %s", a, b)
	}
	base, err := DecodeTable([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	r, err := GenericPackRoot(base)
	if err != nil {
		t.Fatal(err)
	}
	next, err := DecodeTable([]byte("GCF profile=generic key=id\n## [3]{@id,status,total}\n1|paid|10\n2|paid|25\n3|pending|30\n"))
	if err != nil {
		t.Fatal(err)
	}
	nr, err := GenericPackRoot(next)
	if err != nil {
		t.Fatal(err)
	}
	head := "GCF profile=generic delta=true key=id base_root=" + r + " new_root=" + nr + "\n"
	fd, err := DecodeGenericDelta([]byte(head + "## changed [2]{@id,status=paid,total}\n1|10\n2|25\n"))
	if err != nil {
		t.Fatal(err)
	}
	pd, err := DecodeGenericDelta([]byte(head + "## changed [2]{@id,status,total}\n1|paid|10\n2|paid|25\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fd, pd) {
		t.Fatalf("delta from the factored payload %+v\nfrom the plain one %+v", fd, pd)
	}
	na, err := ApplyGenericDelta(base, fd)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := ApplyGenericDelta(base, pd)
	if err != nil {
		t.Fatal(err)
	}
	ra, _ := GenericPackRoot(na)
	rb, _ := GenericPackRoot(nb)
	if ra != rb {
		t.Fatalf("applied deltas differ: %s vs %s", ra, rb)
	}
}
