package keyset

import (
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// The record of SPEC §10a.3: fields in byte order, null as -, strings
// always quoted with the §2.2 escapes, canonical numbers.
func TestCanonicalBytes(t *testing.T) {
	tab := &Table{Key: "id", Fields: []string{"id", "total", "note", "ok"}, Rows: [][]any{
		{int64(2), 75.0, "tab\there", true},
		{"1", nil, "-", false},
	}}
	got, err := CanonicalBytes(tab)
	if err != nil {
		t.Fatal(err)
	}
	want := "R\tid\t\"1\"\tnote\t\"-\"\tok\tfalse\ttotal\t-\n" +
		"R\tid\t2\tnote\t\"tab\\there\"\tok\ttrue\ttotal\t75\n"
	if string(got) != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

// Cells equal in value but not in Go type (2 and 2.0) are not a change;
// a change of type that changes the value's canonical form is.
func TestDiffComparesCanonically(t *testing.T) {
	base := &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(1), int64(2)}, {int64(2), "2"}}}
	cur := &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{1.0, 2.0}, {int64(2), int64(2)}}}
	d, err := Diff(base, cur)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Added)+len(d.Removed) != 0 || len(d.Changed) != 1 || d.Changed[0][1] != int64(2) {
		t.Fatalf("delta %+v", d)
	}
	res, err := Apply(base, d)
	if err != nil {
		t.Fatal(err)
	}
	if root, _ := Root(cur); res.PackRoot != root {
		t.Fatalf("applied root %s, want %s", res.PackRoot, root)
	}
}

func TestDiffRejects(t *testing.T) {
	base := &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(1), "a"}}}
	for _, c := range []struct {
		name string
		cur  *Table
		cat  string
	}{
		{"schema", &Table{Key: "id", Fields: []string{"id", "w"}}, "invalid_schema"},
		{"repeated identity", &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(1), "a"}, {1.0, "b"}}}, "duplicate_key"},
		{"repeated new identity", &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(5), "a"}, {int64(5), "b"}}}, "duplicate_key"},
		{"null identity", &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{nil, "a"}}}, "malformed_delta"},
		{"nested cell", &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(1), []any{}}}}, "unsupported_value"},
		{"short row", &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(1)}}}, "malformed_delta"},
	} {
		if _, err := Diff(base, c.cur); string(lexer.CategoryOf(err)) != c.cat {
			t.Errorf("%s: %v; want %s", c.name, err, c.cat)
		}
	}
}
