package gcf

import (
	"bytes"
	"strings"
	"testing"
)

func TestStreamingEncoderRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.WriteField("title", "a|b"))
	must(e.BeginTable("rows", "id", "display name", "a,b"))
	must(e.WriteRow(int64(1), "x", nil))
	must(e.WriteRow(2, "true", Missing))
	must(e.BeginKeyedTable("m", "key", "v"))
	must(e.WriteKeyedRecord("k1", Object{{Key: "key", Value: "K"}, {Key: "v", Value: 1.5}}))
	must(e.Close())
	want := "GCF profile=generic\ntitle=\"a|b\"\n## rows [?]{id,\"display name\",\"a,b\"}\n1|x|-\n2|\"true\"|~\n" +
		"## m [?:]{_key,key,v}\nk1|K|1.5\n##! summary counts=2,1\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
	v, err := DecodeGeneric(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got := mustJSON(v)
	wantJSON := `{"title":"a|b","rows":[{"id":1,"display name":"x","a,b":null},{"id":2,"display name":"true"}],"m":{"k1":{"key":"K","v":1.5}}}`
	if got != wantJSON {
		t.Fatalf("decoded %s", got)
	}
}

func TestStreamingEncoderErrorsLeaveStateUnchanged(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginTable("t", "a", "b>c"); CategoryOf(err) != InvalidSchema {
		t.Fatalf("'>' field: %v", err)
	}
	if err := e.BeginTable("t", "a", "a"); CategoryOf(err) != DuplicateFieldName {
		t.Fatalf("duplicate field: %v", err)
	}
	if err := e.BeginTable("t", "a", "b"); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteRow(1); CategoryOf(err) != RowWidthMismatch {
		t.Fatalf("width: %v", err)
	}
	if err := e.WriteRow(1, []any{1}); CategoryOf(err) != UnsupportedValue {
		t.Fatalf("nested cell: %v", err)
	}
	if err := e.WriteRecord(map[string]any{"a": 1, "zzz": 2}); CategoryOf(err) != InvalidSchema {
		t.Fatalf("field outside schema: %v", err)
	}
	if err := e.WriteField("late", 1); CategoryOf(err) != InvalidSchema {
		t.Fatalf("field after table: %v", err)
	}
	if err := e.WriteRow(1, 2); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=generic\n## t [?]{a,b}\n1|2\n##! summary counts=1\n"
	if buf.String() != want {
		t.Fatalf("failed writes leaked output:\n%s", buf.String())
	}
}

func TestEncoderBuffered(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.Encode(map[string]any{"b": 1, "a": []int{1, 2}}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "GCF profile=generic\na[2]: 1,2\nb=1\n"; got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	if err := e.Encode(1); err == nil {
		t.Fatal("second payload accepted")
	}
}

func TestDecoderDecodeGenericFromReader(t *testing.T) {
	d := NewDecoder(strings.NewReader("GCF profile=generic\n## [2:]{key,x}\na|1\nb|2\n"))
	//lint:ignore SA1019 Decoder.DecodeGeneric is deprecated but kept working; this test reads through it
	v, err := d.DecodeGeneric()
	if err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(v); got != `{"a":{"x":1},"b":{"x":2}}` {
		t.Fatalf("got %s", got)
	}
}

// TestSharedSchemaOnGtField: a '>'-named attachment field establishes and
// reuses a shared array schema by name (SPEC §7.4.5.3: scoped to one
// decoded field name).
func TestSharedSchemaOnGtField(t *testing.T) {
	in := "GCF profile=generic\n## [2]{i}\n@0 1\n.\"x>y\" [1]{a}\n    1\n@1 2\n.\"x>y\" [1]\n    2\n"
	v, err := DecodeGeneric([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustJSON(v), `[{"i":1,"x>y":[{"a":1}]},{"i":2,"x>y":[{"a":2}]}]`; got != want {
		t.Fatalf("got %s want %s", got, want)
	}
}

func TestStreamingEncoderRootArray(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	type rec struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	if err := e.BeginTable("", "id", "name"); err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"a", "b|c"} {
		if err := e.WriteRecord(rec{i, n}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.BeginTable("more", "x"); CategoryOf(err) != InvalidSchema {
		t.Fatalf("table after a root array: %v", err)
	}
	if err := e.WriteField("x", 1); CategoryOf(err) != InvalidSchema {
		t.Fatalf("field after a root array: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	want := "GCF profile=generic\n## [?]{id,name}\n0|a\n1|\"b|c\"\n##! summary counts=2\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
	v, err := DecodeGeneric(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(v); got != `[{"id":0,"name":"a"},{"id":1,"name":"b|c"}]` {
		t.Fatalf("decoded %s", got)
	}

	e = NewEncoder(&buf)
	e.WriteField("a", 1)
	if err := e.BeginTable("", "id"); CategoryOf(err) != InvalidSchema {
		t.Fatalf("root array after a field: %v", err)
	}
}
