package fuzz

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/stream"
)

// readEvents decodes data with the stream decoder and returns its events,
// one line of text each, and the error it ends with (nil at io.EOF). With
// rows, every row that ReadRow takes is read with it (its event from
// RowEvent, its cells compared with the event's), the rest with Read.
func readEvents(t *testing.T, data []byte, rows bool) ([]string, error) {
	t.Helper()
	d := stream.NewBytesDecoder(data, stream.Limits{})
	d.SetExpand(true)
	var out []string
	for len(out) < 1<<16 {
		var ev *stream.Event
		if rows {
			cells, ok, err := d.ReadRow()
			if err != nil {
				return out, err
			}
			if ok {
				ev = d.RowEvent()
				if len(cells) != len(ev.Cells) || len(cells) > 0 && &cells[0] != &ev.Cells[0] {
					t.Fatalf("ReadRow's cells are not its event's")
				}
				line, off := d.RowPos()
				if line != ev.Line || off != ev.Offset {
					t.Fatalf("RowPos %d, %d; event %d, %d", line, off, ev.Line, ev.Offset)
				}
			}
		}
		if ev == nil {
			var err error
			if ev, err = d.Read(); err == io.EOF {
				return out, nil
			} else if err != nil {
				return out, err
			}
		}
		out = append(out, eventText(ev))
	}
	return out, nil
}

func eventText(ev *stream.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %d %d %q id=%d f=%d n=%d line=%d off=%d fields=%q value=%+v cells=",
		ev.Kind, ev.Role, ev.Form, ev.Key, ev.ID, ev.Field, ev.Count, ev.Line, ev.Offset, ev.Fields, ev.Value)
	for _, c := range ev.Cells {
		fmt.Fprintf(&b, "[%d %v %v %v %d %q %d]", c.Kind, c.Quoted, c.Escaped, c.Bool, c.Int, c.Bytes, c.Col)
	}
	return b.String()
}

// FuzzReadRow: a consumer that reads rows with ReadRow (the typed
// decoder's direct path) sees the events, the positions and the error
// (its category, line and column) that one reading only with Read sees.
func FuzzReadRow(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Add([]byte("GCF profile=generic\n## t [3]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3\n@2 3|^\n"))
	f.Add([]byte("GCF profile=generic\n## t [2]{a,b}\n1|x\n2|y|z\n"))
	f.Add([]byte("GCF profile=generic\n## t [2]{a,b}\n@0 1|x\n@0 2|y\n"))
	f.Add([]byte("GCF profile=generic\n## t [2]{a,b}\n1|x\n# c\n\n2|\"y|\"\n## u [1]{c}\n3\n"))
	f.Add([]byte("GCF profile=generic\n## t [2]{a,b}\n@0 1|^{c,d}\n2|3\n@1 1|^\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := readEvents(t, data, false)
		got, gotErr := readEvents(t, data, true)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("ReadRow: %v\nRead: %v", gotErr, wantErr)
		}
		if len(got) != len(want) {
			t.Fatalf("ReadRow: %d events, Read: %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("event %d:\nReadRow %s\nRead    %s", i, got[i], want[i])
			}
		}
	})
}
