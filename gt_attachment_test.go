package gcf

import "testing"

// TestGtAttachmentNamedLikePathColumn: a '>'-named field is an attachment
// (SPEC §7.4.6.1 rule 4) and may have the name of a path column flattened
// from another field; the column has no ^ marker, so the attachment is the
// '>'-named field's (§16.5), on every decode path. Found by the interop run
// on 100,000 documents; both SDKs write this payload.
func TestGtAttachmentNamedLikePathColumn(t *testing.T) {
	for _, in := range []string{
		`[{"a":{"b":1},"a>b":[]},{"a":{"b":2}}]`,
		`[{"a":{"b":1},"a>b":5}]`,
		`[{"a":{"b":1},"a>b":{"c":[1]}},{"a":{"b":2},"a>b":null}]`,
	} {
		v, err := ParseJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		out, err := EncodeGeneric(v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeGeneric(out)
		if err != nil || mustJSON(back) != in {
			t.Errorf("%s: decodes to %s, %v\n%s", in, mustJSON(back), err, out)
		}
	}
	// A column with a ^ marker still takes its own attachment, and a second
	// attachment of the same name is a duplicate.
	if _, err := DecodeGeneric([]byte("GCF profile=generic\n## [1]{\"a>b\"}\n@0 1\n.\"a>b\" =1\n.\"a>b\" =2\n")); CategoryOf(err) != DuplicateAttachment {
		t.Errorf("duplicate: %v", err)
	}
}
