package ebnf

import (
	"strings"
	"testing"
)

// TestEBNFUpToDate fails when the grammar changed and gcf.ebnf was not
// regenerated (`go generate ./ebnf`).
func TestEBNFUpToDate(t *testing.T) {
	if got := Render(); got != Text {
		t.Fatalf("gcf.ebnf is stale; run `go generate ./ebnf`\n--- rendered:\n%s", got)
	}
}

// TestEBNFNamesSpecProductions: the grammar keeps the names of SPEC §4.
func TestEBNFNamesSpecProductions(t *testing.T) {
	for _, p := range []string{"Payload", "Header", "HeaderPair", "GraphSection", "GroupHeader", "NodeLine", "EdgeLine",
		"RefLine", "DeltaSymbolLine", "DeltaAddedLine", "DeltaEdgeLine", "MetadataSummary", "RootScalar", "RootKeyedMap",
		"RootArray", "RootObject", "ObjectMember", "KvLine", "ObjectSection", "IndentedObjectBody", "ArrayBlock",
		"InlineArray", "AnonymousInlineArray", "AnonymousArrayBlock", "KeyedBlock", "ArrayBody", "TabularBody",
		"TabularRow", "Cell", "AttachmentCell", "ExpandedBody", "ExpandedItem", "PrimitiveItem", "ObjectItem",
		"ArrayItem", "KeyedMapItem", "TraditionalAttachment", "ObjectAttachment", "ArrayAttachment",
		"KeyedMapAttachment", "InlineObjectAttachment", "CountBracket", "KeyedBracket", "FieldDecl", "ScalarList",
		"Scalar", "Key"} {
		if !strings.Contains(Text, "\n"+p+" = ") && !strings.HasPrefix(Text, p+" = ") {
			t.Errorf("production %s missing from gcf.ebnf", p)
		}
	}
}

// TestEBNFV1UpToDate is TestEBNFUpToDate for the v1 grammar, which keeps
// the production names of SPEC-v1.1 §2 (prefixed V1 where v1 differs).
func TestEBNFV1UpToDate(t *testing.T) {
	if got := RenderV1(); got != TextV1 {
		t.Fatalf("gcf-v1.ebnf is stale; run `go generate ./ebnf`\n--- rendered:\n%s", got)
	}
	for _, p := range []string{"V1Payload", "V1Header", "V1Section", "V1GroupHeader", "V1Summary", "V1Line", "NodeLine",
		"EdgeLine", "RefLine", "V1Row", "KvLine", "V1NestedRef", "InlineArray"} {
		if !strings.Contains(TextV1, "\n"+p+" = ") && !strings.HasPrefix(TextV1, p+" = ") {
			t.Errorf("production %s missing from gcf-v1.ebnf", p)
		}
	}
}
