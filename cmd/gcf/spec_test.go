package main

import (
	"strings"
	"testing"

	"github.com/gcfkit/gcf/stream"
)

// constTable has a column with one value in every record (region), which
// spec v3.6.0 factors into the declaration and v3.5.3 cannot.
const constTable = `[{"id":1,"region":"us","dept":"a"},{"id":2,"region":"us","dept":"b"},{"id":3,"region":"us","dept":"a"}]`

// declaresConstants reports whether a table declaration in the GCF text
// has a constant column or a group clause, as the pull decoder reads it.
func declaresConstants(text string) bool {
	d := stream.NewBytesDecoder([]byte(text), stream.Limits{})
	for {
		ev, err := d.Next()
		if err != nil {
			return false
		}
		if len(ev.Consts) > 0 {
			return true
		}
	}
}

// encode -spec 3.5.3 writes no v3.6-only form; -spec 3.6.0 is the default;
// both decode to the input.
func TestEncodeSpec(t *testing.T) {
	def, _, code := runCLI(t, constTable, "encode", "-q")
	if code != 0 {
		t.Fatalf("default: exit %d", code)
	}
	v36, _, code := runCLI(t, constTable, "encode", "-q", "-spec", "3.6.0")
	if code != 0 || v36 != def {
		t.Fatalf("-spec 3.6.0: exit %d, %q; the default wrote %q", code, v36, def)
	}
	old, stderr, code := runCLI(t, constTable, "encode", "-q", "-spec", "3.5.3")
	if code != 0 || declaresConstants(old) || !strings.Contains(old, "{id,region,dept}\n") {
		t.Fatalf("-spec 3.5.3: exit %d, %q, stderr %q: want no constant column", code, old, stderr)
	}
	for _, out := range []string{def, old} {
		back, _, code := runCLI(t, out, "decode")
		if code != 0 || strings.TrimSpace(back) != constTable {
			t.Errorf("decode of %q: exit %d, %s", out, code, back)
		}
	}
	// -stream output is the same in both versions.
	s1, _, c1 := runCLI(t, constTable, "encode", "-q", "-stream", "-spec", "3.5.3")
	s2, _, c2 := runCLI(t, constTable, "encode", "-q", "-stream")
	if c1 != 0 || c2 != 0 || s1 != s2 {
		t.Errorf("-stream: %q (exit %d) and %q (exit %d)", s1, c1, s2, c2)
	}
	for _, args := range [][]string{
		{"encode", "-spec", "3.6"},
		{"encode", "-spec", ""},
		{"encode", "-spec", "3.5.3", "-wire", "v1"},
		{"encode", "-spec", "3.6.0", "-codec", "json"},
		{"migrate", "-spec", "4"},
		{"proxy", "-spec", "3.5", "--", "true"},
	} {
		if _, stderr, code := runCLI(t, constTable, args...); code != exitUsage || !strings.Contains(stderr, "-spec") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming -spec", args, code, stderr)
		}
	}
}

// migrate -spec 3.5.3 writes a generic payload without v3.6-only forms.
func TestMigrateSpec(t *testing.T) {
	v1 := "## rows [3]{id,region,dept}\n1|us|a\n2|us|b\n3|us|a\n"
	out, stderr, code := runCLI(t, v1, "migrate", "-spec", "3.5.3")
	if code != 0 || declaresConstants(out) || out != "GCF profile=generic\n## rows [3]{id,region,dept}\n1|us|a\n2|us|b\n3|us|a\n" {
		t.Fatalf("migrate -spec 3.5.3: exit %d, %q, stderr %q", code, out, stderr)
	}
	def, _, code := runCLI(t, v1, "migrate")
	if back, _, c := runCLI(t, def, "decode"); code != 0 || c != 0 || strings.TrimSpace(back) != `{"rows":`+constTable+`}` {
		t.Errorf("migrate: exit %d, %q decodes to %s", code, def, back)
	}
}

// encode -group-by writes the value-grouped keyed set; what it cannot
// carry exits 1 with the category, and a bad command line exits 2.
func TestEncodeGroupBy(t *testing.T) {
	out, stderr, code := runCLI(t, constTable, "encode", "-q", "-group-by", "id,dept")
	const want = "GCF profile=generic\n## [3]{@id,region=us,dept} group=dept\ndept=a [2]\n1\n3\ndept=b [1]\n2\n"
	if code != 0 || out != want {
		t.Fatalf("-group-by id,dept: exit %d, stderr %q\n%s\nwant\n%s", code, stderr, out, want)
	}
	back, _, code := runCLI(t, out, "decode")
	if code != 0 || strings.TrimSpace(back) != `[{"id":1,"region":"us","dept":"a"},{"id":3,"region":"us","dept":"a"},{"id":2,"region":"us","dept":"b"}]` {
		t.Errorf("decode: exit %d, %s", code, back)
	}
	// With -summary the grouped payload gains the trailer and still decodes.
	sum, _, code := runCLI(t, constTable, "encode", "-q", "-summary", "-group-by", "id,dept")
	if code != 0 || !strings.HasPrefix(sum, want) || !strings.HasSuffix(sum, "##! summary\n") {
		t.Errorf("-summary -group-by: exit %d, %q", code, sum)
	}
	if _, stderr, code := runCLI(t, sum, "decode", "-require-summary"); code != 0 {
		t.Errorf("decode -require-summary: exit %d, %q", code, stderr)
	}
	for _, tc := range []struct {
		in, by, cat string
	}{
		{`{"id":1}`, "id,dept", "invalid_group_header"},
		{`[{"id":1,"dept":"a"},{"dept":"b"}]`, "id,dept", "invalid_group_header"},
		{`[{"id":1,"dept":"a"},{"id":1,"dept":"b"}]`, "id,dept", "duplicate_key"},
		{`[{"id":1,"dept":{"a":1}}]`, "id,dept", "invalid_group_header"},
	} {
		if _, stderr, code := runCLI(t, tc.in, "encode", "-q", "-group-by", tc.by); code != exitInvalid || !strings.Contains(stderr, tc.cat) {
			t.Errorf("%s -group-by %s: exit %d, stderr %q; want exit 1 with %s", tc.in, tc.by, code, stderr, tc.cat)
		}
	}
	for _, args := range [][]string{
		{"-group-by", "id"},
		{"-group-by", "id,"},
		{"-group-by", ",dept"},
		{"-group-by", "id,dept,x"},
		{"-group-by", "id,id"},
		{"-group-by", ""},
		{"-group-by", "id,dept", "-stream"},
		{"-group-by", "id,dept", "-smallest"},
		{"-group-by", "id,dept", "-wire", "v1"},
		{"-group-by", "id,dept", "-profile", "graph"},
		{"-group-by", "id,dept", "-spec", "3.5.3"},
	} {
		if _, stderr, code := runCLI(t, constTable, append([]string{"encode"}, args...)...); code != exitUsage || !strings.Contains(stderr, "-group-by") {
			t.Errorf("encode %v: exit %d, stderr %q; want a usage error naming -group-by", args, code, stderr)
		}
	}
}
