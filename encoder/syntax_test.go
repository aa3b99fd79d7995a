package encoder_test

import (
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/encoder"
)

// The syntax writer's pieces make payloads the decoder reads back: a spec
// v3.6 constant column (with a value that must be quoted),
// a deferred count and the summary trailer.
func TestSyntaxWriterRoundTrip(t *testing.T) {
	var b []byte
	b = encoder.AppendHeader(b, "generic")
	b = encoder.AppendHeaderField(b, "tool", "t")
	b = encoder.AppendLineEnd(b)
	b = encoder.AppendSection(b, "users")
	b = encoder.AppendCount(b, 2, false)
	b = encoder.AppendFields(b, []encoder.Field{
		{Name: "id"},
		{Name: "region", Const: true, Value: encoder.AppendConstValue(nil, "a}b")},
		{Name: "name"},
	})
	b = encoder.AppendLineEnd(b)
	for _, r := range [][2]string{{"1", "x"}, {"2", "y"}} {
		b = append(b, r[0]...)
		b = encoder.AppendCellSep(b)
		b = append(b, r[1]...)
		b = encoder.AppendLineEnd(b)
	}
	b = encoder.AppendSection(b, "log")
	b = encoder.AppendCount(b, -1, false)
	b = encoder.AppendKeyedFieldDecl(b, []string{"k", "v w"}, "")
	b = encoder.AppendLineEnd(b)
	b = append(b, "1|2\n"...)
	b = encoder.AppendSummary(b)
	b = encoder.AppendHeaderField(b, "counts", "1")
	b = encoder.AppendLineEnd(b)
	const want = "GCF profile=generic tool=t\n" +
		"## users [2]{id,region=\"a}b\",name}\n1|x\n2|y\n" +
		"## log [?]{k,\"v w\"}\n1|2\n##! summary counts=1\n"
	if string(b) != want {
		t.Fatalf("got\n%s\nwant\n%s", b, want)
	}
	v, err := gcf.DecodeGeneric(b)
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, b)
	}
	users := v.(gcf.Object)[0].Value.([]any)
	if got := users[1].(gcf.Object); len(got) != 3 || got[1].Value != "a}b" || got[2].Value != "y" {
		t.Fatalf("row 2 decodes as %v", got)
	}
}

func TestSyntaxWriterPieces(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{string(encoder.AppendSection(nil, "")), "## "},
		{string(encoder.AppendSection(nil, "a b")), `## "a b" `},
		{string(encoder.AppendSectionLine(nil, "edges_added")), "## edges_added\n"},
		{string(encoder.AppendCount(nil, 3, true)), "[3:]"},
		{string(encoder.AppendFields(nil, []encoder.Field{{Name: "id", Key: true}, {Name: "n", Const: true, Value: []byte("-")}})), "{@id,n=-}"},
		{string(encoder.AppendKeyedFieldDecl(nil, []string{"a", "id"}, "id")), "{a,@id}"},
		{string(encoder.AppendV1Header(nil)), "GCF"},
		{string(encoder.AppendV1Summary(encoder.AppendSectionMark(nil)[:0])), "## _summary"},
		{string(encoder.AppendHeaderInt(nil, "count", 7)), " count=7"},
		{string(encoder.AppendConstValue(nil, "us-east")), "us-east"},
		{string(encoder.AppendConstValue(nil, "")), `""`},
		{string(encoder.AppendConstValue(nil, "a,b")), `"a,b"`},
		{string(encoder.AppendConstValue(nil, "true")), `"true"`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestRowAndItemWriters(t *testing.T) {
	b := encoder.AppendCellSep(encoder.AppendNull([]byte("a")))
	b = encoder.AppendCellSep(encoder.AppendAttachMark(b))
	b = encoder.AppendCellSep(encoder.AppendMissing(b))
	if got := string(encoder.EndLine(b)); got != "a-|^|~\n" {
		t.Errorf("row = %q, want %q", got, "a-|^|~\n")
	}
	b = encoder.AppendInlineMark(encoder.AppendCount([]byte("k"), 2, false))
	for i, s := range []string{"x", "y"} {
		b = append(encoder.AppendItemLead(b, i), s...)
	}
	if got := string(encoder.AppendLineEnd(b)); got != "k[2]: x,y\n" {
		t.Errorf("inline = %q, want %q", got, "k[2]: x,y\n")
	}
	b = encoder.AppendInlineHead([]byte("k"), 2)
	b = encoder.AppendItemSep(append(encoder.AppendItemSep(append(b, '1')), '2'))
	if got := string(encoder.EndLine(b)); got != "k[2]: 1,2\n" {
		t.Errorf("inline head = %q, want %q", got, "k[2]: 1,2\n")
	}
	if got := string(encoder.AppendNull(encoder.AppendAssign(encoder.AppendItemIndex([]byte("  "), 12)))); got != "  @12=-" {
		t.Errorf("item = %q, want %q", got, "  @12=-")
	}
}

func TestGraphLineWriters(t *testing.T) {
	b := encoder.AppendRef(nil, 0)
	b = encoder.AppendPreviouslySent(b)
	b = encoder.AppendEdgeRefs(b, 12, 100000000)
	b = encoder.AppendLineEnd(append(encoder.AppendWordSep(b), "calls"...))
	if want := "@0  # previously transmitted\n@12<@100000000 calls\n"; string(b) != want {
		t.Errorf("graph lines = %q, want %q", b, want)
	}
}

func TestDeclWriters(t *testing.T) {
	b := encoder.AppendDeclOpen([]byte("[2]"))
	for _, f := range []string{"a", "b"} {
		b = encoder.AppendFieldSep(encoder.AppendKey(b, f))
	}
	if got := string(encoder.EndDecl(b)); got != "[2]{a,b}" {
		t.Errorf("decl = %q, want %q", got, "[2]{a,b}")
	}
}

func TestTrailerListWriters(t *testing.T) {
	b := encoder.AppendTrailerList([]byte("##! summary"), "counts")
	for i, n := range []int64{3, 4} {
		b = encoder.AppendInt(encoder.AppendListSep(b, i), n)
	}
	b = encoder.AppendLabelEnd(append(encoder.AppendListSep(b, 2), "edges"...))
	if got := string(encoder.AppendInt(b, 5)); got != "##! summary counts=3,4,edges:5" {
		t.Errorf("trailer = %q", got)
	}
}

func TestAttachWriters(t *testing.T) {
	b := encoder.AppendWordSep(append(encoder.AppendAttachDot([]byte("  ")), "f"...))
	if got := string(encoder.AppendEmptyObject(b)); got != "  .f {}" || string(encoder.AppendEmptyArray(nil)) != "[0]" {
		t.Errorf("attachment = %q, want %q", got, "  .f {}")
	}
}

// The group writers (spec v3.6.0 §7.4.8) make a grouped table the decoder
// reads back: the clause after the declaration, a subheader per group with
// its value written as a cell (quoted where a cell would be, "-" for null).
func TestGroupWritersRoundTrip(t *testing.T) {
	b := encoder.AppendLineEnd(encoder.AppendHeader(nil, "generic"))
	b = encoder.AppendCount(encoder.AppendSection(b, ""), 3, false)
	b = encoder.AppendFields(b, []encoder.Field{{Name: "id", Key: true}, {Name: "the dept"}, {Name: "x"}})
	b = encoder.AppendLineEnd(encoder.AppendGroupClause(b, "the dept"))
	v, _, _ := encoder.AppendScalar(nil, "a|b [1]", encoder.Cell)
	b = encoder.AppendSubheader(b, "the dept", v, 2)
	b = append(b, "u1|1\nu2|2\n"...)
	b = encoder.AppendSubheader(b, "the dept", encoder.AppendNull(nil), 1)
	b = append(b, "u3|3\n"...)
	const want = "GCF profile=generic\n## [3]{@id,\"the dept\",x} group=\"the dept\"\n" +
		"\"the dept\"=\"a|b [1]\" [2]\nu1|1\nu2|2\n\"the dept\"=- [1]\nu3|3\n"
	if string(b) != want {
		t.Fatalf("got\n%s\nwant\n%s", b, want)
	}
	got, err := gcf.DecodeGeneric(b)
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, b)
	}
	rows := got.([]any)
	if r := rows[1].(gcf.Object); r[1].Key != "the dept" || r[1].Value != "a|b [1]" {
		t.Errorf("row 2 = %v", r)
	}
	if r := rows[2].(gcf.Object); r[1].Value != nil || r[2].Value != int64(3) {
		t.Errorf("row 3 = %v", r)
	}
	if s := string(encoder.AppendGroupClause(nil, "dept")); s != " group=dept" {
		t.Errorf("clause = %q", s)
	}
}

// A last constant whose bare value starts "^{" is quoted when the
// declaration closes (with the '}' it would read as a ^{...} marker); the
// same value before a ',' stays bare, as fixture constant-column/022 has it.
func TestEndDeclQuotesLastMarkerLikeConst(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{id,c=^{abc,", `{id,c="^{abc"}`},
		{"{X=^{abc,y,", "{X=^{abc,y}"},
		{"{\"a,b\"=^{x,", "{\"a,b\"=\"^{x\"}"},
		{"{c=\"^{x\",", "{c=\"^{x\"}"},
		{"{a^{b,", "{a^{b}"},
		{"{c=a=^{b,", "{c=a=^{b}"},
		{"{c=^,", "{c=^}"},
		{"{c=^{{x,", `{c="^{{x"}`},
		{"{a=1,c=^{]{x,", `{a=1,c="^{]{x"}`},
		{"{\"x=^{\",b,", "{\"x=^{\",b}"},
	} {
		if got := string(encoder.EndConstDecl([]byte(c.in), 0)); got != c.want {
			t.Errorf("EndDecl(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	got := string(encoder.AppendFields(nil, []encoder.Field{{Name: "id"}, {Name: "c", Const: true, Value: []byte("^{abc")}}))
	if got != `{id,c="^{abc"}` {
		t.Errorf("AppendFields: %q", got)
	}
}

// A flattened column's path: segments escaped as inside a quoted string,
// joined by '>', quoted whole; invalid UTF-8 reported by its offset.
func TestPathField(t *testing.T) {
	p, bad := encoder.AppendPathSegment(nil, `a"b`)
	if bad >= 0 {
		t.Fatal(bad)
	}
	p = append(p, '>')
	p, _ = encoder.AppendPathSegment(p, "c\td")
	if got := string(encoder.AppendPathField([]byte("{"), p)); got != `{"a\"b>c\td",` {
		t.Errorf("got %q", got)
	}
	if _, bad := encoder.AppendPathSegment(nil, "ok\xff"); bad != 2 {
		t.Errorf("invalid UTF-8 at %d, want 2", bad)
	}
}
