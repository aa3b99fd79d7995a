package legacy_test

import (
	"bufio"
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/legacy"
)

// IsGraphHead decides a GCF header line as the pull decoder does: "GCF"
// then a space or the end of the line.
func TestIsGraphHead(t *testing.T) {
	for head, want := range map[string]bool{
		"GCF t": true, "GCF": true, "GCF\n": true, "GCF\r\n": true, "GCF\r": true,
		"GCFx": false, "GCF\rx": false, "name": false, "": false,
	} {
		if got := legacy.IsGraphHead([]byte(head)); got != want {
			t.Errorf("IsGraphHead(%q) = %v, want %v", head, got, want)
		}
	}
}

// A v1 graph payload migrated line by line decodes, as v3, to what the
// v1 decoder reads from the input.
func TestMigrateGraph(t *testing.T) {
	const in = "GCF tool=t budget=100 tokens=7\n## targets\n@0 fn pkg.A 0.5 lsp\n## related\n@1 fn pkg.B 0.25 ast\n## edges\n@0<@1 calls\n"
	var out bytes.Buffer
	if err := legacy.MigrateGraph(bufio.NewReader(strings.NewReader(in)), &out, gcf.Limits{}.Resolved()); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "GCF profile=graph tool=t budget=100 tokens=7") {
		t.Fatalf("header: %q", out.String())
	}
	got, err := gcf.Decode(out.Bytes())
	if err != nil {
		t.Fatalf("v3 decode of %q: %v", out.String(), err)
	}
	want, err := gcf.Decode([]byte(in), gcf.WithWire(gcf.WireV1))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("migrated %+v, v1 read %+v", got, want)
	}
}
