package stream

import (
	"io"
	"regexp"
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

// A later row's `.name [N]` of a shared schema is read directly by
// attachment; its events and errors must be those of the same line with
// the schema written out, which container reads.
func TestSharedAttachmentDirect(t *testing.T) {
	const head = "GCF profile=generic\n## orders [3]{id,items,x}\n@0 1|^|a\n.items [1]{name,qty}\n    n|1\n"
	for _, c := range []struct{ short, long string }{
		{"@1 2|^|b\n.items [2]\n    p|2\n    q|3\n@2 3|^|c\n.items [1]\n    r|4\n",
			"@1 2|^|b\n.items [2]{name,qty}\n    p|2\n    q|3\n@2 3|^|c\n.items [1]{name,qty}\n    r|4\n"},
		{"@1 2|^|b\n.items [?]\n    p|2\n@2 3|^|c\n.items [1]\n    r|4\n",
			"@1 2|^|b\n.items [?]{name,qty}\n    p|2\n@2 3|^|c\n.items [1]{name,qty}\n    r|4\n"},
		{"@1 2|^|b\n.items [2]\n    p|2\n@2 3|^|c\n.items [1]\n    r|4\n", // a row short
			"@1 2|^|b\n.items [2]{name,qty}\n    p|2\n@2 3|^|c\n.items [1]{name,qty}\n    r|4\n"},
		{"@1 2|^|b\n.items [1]\n    p|2|9\n", // a row too wide
			"@1 2|^|b\n.items [1]{name,qty}\n    p|2|9\n"},
		{"@1 2|^|b\n.items [1]\n.items [1]\n    p|2\n", // twice
			"@1 2|^|b\n.items [1]{name,qty}\n.items [1]{name,qty}\n    p|2\n"},
	} {
		// Offsets differ by the schema's bytes; lines and columns do not.
		short := offsets.ReplaceAllString(dumpEvents(NewBytesDecoder([]byte(head+c.short), Limits{})), "")
		long := offsets.ReplaceAllString(dumpEvents(NewBytesDecoder([]byte(head+c.long), Limits{})), "")
		if short != long {
			t.Errorf("%q:\n%s\nwith the schema written out:\n%s", c.short, short, long)
		}
	}
	// The direct read takes the limits' checks as container does.
	in := head + "@1 2|^|b\n.items [3]\n    p|2\n    q|2\n    r|2\n"
	got := dumpEvents(NewBytesDecoder([]byte(in), Limits{MaxElements: 2}))
	if !strings.Contains(got, "error") {
		t.Errorf("no error past MaxElements:\n%s", got)
	}
	got = dumpEvents(NewBytesDecoder([]byte(in), Limits{MaxDepth: 2}))
	if !strings.Contains(got, "depth") {
		t.Errorf("no depth error:\n%s", got)
	}
}

var offsets = regexp.MustCompile(` off=[0-9]+| @[0-9]+ `)
