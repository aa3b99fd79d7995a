package stream

import (
	"io"
	"strings"
	"testing"
)

// A table frame reads a shared attachment schema in place (it is not
// copied): an explicit declaration in the same frame slot afterwards must
// get the frame's own storage, never write over the shared names.
func TestSharedSchemaFrameReuse(t *testing.T) {
	in := "GCF profile=generic\n## orders [3]{extra,id,items}\n" +
		"@0 ^|1|^\n.extra [1]{c}\n    z\n.items [1]{a,b}\n    x|y\n" +
		"@1 ^|2|^\n.extra [1]{c}\n    r\n.items [2]\n    p|q\n    s|t\n" +
		"@2 ^|3|^\n.extra [1]{c,d}\n    w|1\n.items [1]\n    u|v\n"
	d := NewBytesDecoder([]byte(in), Limits{})
	var got []string
	for {
		ev, err := d.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindArrayStart && ev.Form == FormTabular {
			names := make([]string, len(ev.Fields))
			for i, f := range ev.Fields {
				names[i] = string(f)
			}
			got = append(got, string(ev.Key)+"{"+strings.Join(names, ",")+"}")
		}
	}
	want := "orders{extra,id,items} extra{c} items{a,b} extra{c} items{a,b} extra{c,d} items{a,b}"
	if s := strings.Join(got, " "); s != want {
		t.Fatalf("declarations:\n got %s\nwant %s", s, want)
	}
}
