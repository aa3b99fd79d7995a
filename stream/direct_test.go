package stream

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// rowText is a row's id and cells, as both consumers below record a row.
func rowText(id int64, cells []lexer.Scalar) string {
	var b strings.Builder
	fmt.Fprintf(&b, "row %d:", id)
	for _, c := range cells {
		fmt.Fprintf(&b, " [%d %v %d %q]", c.Kind, c.Bool, c.Int, c.Bytes)
	}
	return b.String()
}

// walkCommit decodes data and returns one line per event (rows as
// rowText) and the error it ends with. With commit, every plain row that
// the plain scanner (fastCells) reads is taken with RawRow and CommitRow,
// as the typed decoder's scanRow takes it; the rest with Read.
func walkCommit(data []byte, commit bool) ([]string, error) {
	d := NewBytesDecoder(data, Limits{})
	var out []string
	for len(out) < 1<<16 {
		if commit {
			body, plain, ok, err := d.RawRow()
			if err != nil {
				return out, err
			}
			if _, checked, _ := lexer.CheckLineClass(body); ok && plain && checked {
				id, p := int64(-1), 0
				var perr error
				if body[0] == '@' {
					id, p, perr = d.parseID(body)
				}
				f := &d.stack[d.depth-1]
				if fast, _ := d.fastCells(body, p, len(f.fields)); perr == nil && fast {
					var marks uint64
					schema := false
					for j, c := range d.cells {
						switch c.Kind {
						case lexer.KindAttach:
							if j < 64 {
								marks |= 1 << j
							}
						case lexer.KindAttachSchema:
							schema = true
						}
					}
					text := rowText(id, d.cells)
					if !schema && d.CommitRow(len(d.cells), id, marks) {
						out = append(out, text)
						continue
					}
				}
			}
		}
		ev, err := d.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if ev.Kind == KindRow {
			out = append(out, rowText(ev.ID, ev.Cells))
			continue
		}
		out = append(out, fmt.Sprintf("%v %q %d %d %q", ev.Kind, ev.Key, ev.Field, ev.Count, ev.Fields))
	}
	return out, nil
}

// FuzzCommitRow: CommitRow's checks on a row scanned outside the stream
// (width, id, markers, the element limit) leave the decoder where Read
// leaves it: the same events after, the same error (category, line and
// column) on a row it refuses.
func FuzzCommitRow(f *testing.F) {
	for _, s := range []string{
		"GCF profile=generic\n## t [3]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3\n@2 3|^\n.b [0]\n",
		"GCF profile=generic\n## t [2]{a,b}\n1|x\n2|y|z\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|x\n@0 2|y\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n2|y\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n@1 2|y\n",
		"GCF profile=generic\n## t [2]{a,b}\n1|x\n# c\n\n2|\"y|\"\n## u [1]{c}\n3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^{c,d}\n2|3\n@1 1|^\n.b [0]\n",
		"GCF profile=generic\n## t [1]{a,b}\n1|x\n2|y\n",
		"GCF profile=generic\n## t [3]{a,b}\n1|x\n",
		"GCF profile=generic\n## t [?]{a,b}\n1|x\n2|y\n##! summary counts=2\n",
		"GCF profile=generic\n## t [2:]{k,b}\nx|1\ny|2\n",
		"GCF profile=generic key=id\n## t [2]{@id,b}\nx|1\nx|2\n",
		"GCF profile=generic\n## t [2]{a,b=1}\nx\ny\n",
		"GCF profile=generic\n## t [2]{a,b} group=a\na=1 [2]\n2\n3\n",
		"GCF profile=generic\n## t [2]{a,b}\n  1|x\n2|y\n",
		"GCF profile=generic\nx:\n  ## t [2]{a,b}\n  1|x\n  2|y\nz=1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := walkCommit(data, false)
		got, gotErr := walkCommit(data, true)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("CommitRow: %v\nRead: %v", gotErr, wantErr)
		}
		if len(got) != len(want) {
			t.Fatalf("CommitRow: %d events, Read: %d\n%q\n%q", len(got), len(want), got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("event %d:\nCommitRow %s\nRead      %s", i, got[i], want[i])
			}
		}
	})
}
