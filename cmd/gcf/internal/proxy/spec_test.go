package proxy

import (
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/stream"
)

// hasConstants reports whether a table declaration in the GCF text has a
// constant column or a group clause (spec v3.6.0), as the pull decoder reads it.
func hasConstants(text string) bool {
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

// Rewriter.Spec (proxy -spec): with gcf.Spec353 the GCF sent, rewritten
// JSON and converted blocks alike, has no v3.6-only form, and decodes to
// the block.
func TestRewriteSpec353(t *testing.T) {
	const doc = `[{"id":1,"region":"us","n":"a"},{"id":2,"region":"us","n":"b"},{"id":3,"region":"us","n":"c"}]`
	r := &Rewriter{Format: GCF, Spec: gcf.Spec353}
	out, c, ok := r.Rewrite(doc, nil)
	if !ok || c.Form != FormGCF || hasConstants(out) {
		t.Fatalf("Rewrite: %q %+v %v; want GCF without constants", out, c, ok)
	}
	v, err := gcf.DecodeGeneric([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := gcf.ToJSON(v); string(got) != doc {
		t.Errorf("decodes to %s", got)
	}
	const yaml = "- id: 1\n  region: us-east\n  n: alpha\n- id: 2\n  region: us-east\n  n: beta\n- id: 3\n  region: us-east\n  n: gamma\n- id: 4\n  region: us-east\n  n: delta\n"
	conv, c, ok := r.Convert([]byte(yaml), "yaml", yaml)
	if !ok || hasConstants(conv) {
		t.Errorf("Convert: %q %+v %v; want GCF without constants", conv, c, ok)
	}
}
