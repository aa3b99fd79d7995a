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

// endText is how walkCommit records a table's end event.
var endText = fmt.Sprintf("%v %q %d %d %q", KindArrayEnd, []byte(nil), -1, 0, [][]byte(nil))

// classError reports whether err has a category lexer.CheckLineClass
// reports (a control or non-ASCII byte, malformed UTF-8).
func classError(err error) bool {
	for _, l := range []string{"a\x01", "a\xff", "a\xed\xa0\x80", "a\x7f", "a\xc2\x85", "a\t"} {
		if _, _, bad := lexer.CheckLineClass([]byte(l)); bad != nil && bad.Category == lexer.CategoryOf(err) {
			return true
		}
	}
	return false
}

// walkCommit decodes data and returns one line per event (rows as
// rowText) and the error it ends with. With commit, every plain row that
// the plain scanner (fastCells) reads is taken with RawRow and CommitRow,
// as the typed decoder's scanRow takes it, every attachment table of a
// shared schema that SharedAttachment reports is opened with OpenShared,
// and every table EndRows closes is closed so; the rest with Read.
func walkCommit(data []byte, commit bool) ([]string, error) {
	return walkCommitLimits(data, commit, Limits{})
}

func walkCommitLimits(data []byte, commit bool, limits Limits) ([]string, error) {
	d := NewBytesDecoder(data, limits)
	d.SetExpand(true) // as the typed decoder reads
	var out []string
	for len(out) < 1<<16 {
		if commit {
			if d.EndRows() {
				out = append(out, endText)
				continue
			}
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
			if !ok {
				// A shared-schema attachment table opened without its
				// event, as the typed decoder opens it: record the event
				// Read gives. The line is loaded as Read loads it, so
				// that SharedAttachment is asked on every line, not only
				// where AtRow has loaded one.
				if !d.have && !d.atEOF && d.err == nil && d.state == stAfterRoot {
					if err := d.load(); err != nil {
						d.err = err
						return out, err
					}
				}
				if j, count, fields, ok := d.SharedAttachment(); ok {
					key := d.stack[d.depth-1].fields[j]
					out = append(out, fmt.Sprintf("%v %q %d %d %q", KindArrayStart, key, j, count, fields))
					d.OpenShared(j, count, fields)
					continue
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
		// tables ending without an event (EndRows)
		"GCF profile=generic\n## t [2]{a,b}\n1|x\n2|y\n## u [1]{c}\n3\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  1|x\n  # c\n\ny=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  1|x\n\ty=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  1|x\n   y=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  1|x\ny=\xff\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  1|x\n# \xff\ny=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  @0 1|^\ny=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  @0 1|^\n  .b [0]\ny=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  @0 1|^{c}\n  2\ny=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  @0 1|^{c}\ny=1\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  1|x\n",
		"GCF profile=generic\n## x\n  ## t [1]{a,b}\n  1|x\n  2|y\n",
		"GCF profile=generic\n## x\n  ## t [?]{a,b}\n  1|x\ny=1\n##! summary counts=1\n",
		"GCF profile=generic\n## t [1]{a,b}\n@0 1|^\n.b [1]{c}\n    1\n##! summary\n",
		"GCF profile=generic\n## t [1]{a,b}\n@0 1|^\n.b [1]{c}\n    1\n  .c=1\n",
		"GCF profile=generic\n## x\n  ## t [2]{a,b=1}\n  x\n  y\nz=1\n",
		"GCF profile=generic\n## x\n  ## t [2:]{k,b}\n  x|1\n  y|2\nz=1\n",
		"GCF profile=generic\n## x\n  ## t [2]{a,b}\n  @0 1|^\n  .b [1]{c}\n      1\n  @1 2|^\n  .b [1]\n      2\nz=1\n",
		// attachment lines AtRow leaves unchecked
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\x01\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.\"b\x01\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.\"b\xff\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b\xc3\xa9 [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [\xd9\xa1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b\x7f [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b =\xff\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\t\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\r\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.\"b\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,\"b\\u0085\"}\n@0 1|^\n.\"b\\u0085\" [1]{x}\n    2\n@1 2|^\n.\"b\xc2\x85\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,\"b\\u0085\"}\n@0 1|^\n.\"b\\u0085\" [1]{x}\n    2\n@1 2|^\n.\"b\\u0085\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,\"b\\ud800\"}\n@0 1|^\n.\"b\\ud800\" [1]{x}\n    2\n@1 2|^\n.\"b\xed\xa0\x80\" [1]\n    3\n",
		// shared-schema attachments (SharedAttachment, OpenShared)
		"GCF profile=generic\n## t [4]{a,b}\n@0 1|^\n.b [1]{x,y}\n    2|3\n@1 2|^\n.b [2]\n    3|4\n    5|6\n@2 3|^\n  .b [1]\n    7|8\n@3 4|^\n.b [1]\n    9|0\n",
		"GCF profile=generic\n## t [3]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|-\n.b [1]\n    3\n@2 3|^\n.b [1]\n    4\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3\n.b [1]\n    4\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [2]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3\n    4\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [?]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1:]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1] \n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]x\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [99999999999999999999]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.\"b\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,\"b\\u0085\"}\n@0 1|^\n.\"b\\u0085\" [1]{x}\n    2\n@1 2|^\n.\"b\xc2\x85\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,\"b\\u0085\"}\n@0 1|^\n.\"b\\u0085\" [1]{x}\n    2\n@1 2|^\n.\"b\\u0085\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,\"b\\ud800\"}\n@0 1|^\n.\"b\\ud800\" [1]{x}\n    2\n@1 2|^\n.\"b\xed\xa0\x80\" [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.c [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [0]\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]\n    2\n@1 2|^\n.b [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n    .b [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n      3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3|4\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\xff\n    3\n",
		"GCF profile=generic\n## t [2]{a,c=1,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b =12\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b =1]\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b[[1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\nxb [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3\n## u [1]{a,b}\n@0 1|^\n.b [1]\n    2\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [1]\n    3\n.b [1]\n    4\n",
		"GCF profile=generic\n## t [2:]{k,b}\nx|^\n.b [1]{x}\n    2\ny|^\n.b [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b} group=a\na=1 [2]\n@0 ^\n.b [1]{x}\n    2\n@1 ^\n.b [1]\n    3\n",
		"GCF profile=generic key=id\n## t [2]{@id,b}\nx|^\n.b [1]{x}\n    2\ny|^\n.b [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b {}\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b  [1]\n    3\n",
		"GCF profile=generic\n## t [2:]{k,b}\nx|^\n.b [1]{x}\n    2\ny|^\n.b [1]\n    3\n",
		"GCF profile=generic\n## t [2]{a,b}\n@0 1|^\n.b [1]{x,y}\n    @0 2|^\n    .y [1]{z}\n        1\n@1 2|^\n.b [1]\n    @0 3|^\n    .y [1]\n        2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := walkCommit(data, false)
		got, gotErr := walkCommit(data, true)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("CommitRow: %v\nRead: %v", gotErr, wantErr)
		}
		// EndRows leaves the class check of the line after a table to the
		// line's next use: an error there comes after the table's end.
		for wantErr != nil && classError(wantErr) && len(got) > len(want) && got[len(got)-1] == endText {
			got = got[:len(got)-1]
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

// TestSharedAttachmentLimits: a shared-schema attachment table that would
// pass the depth or element limit is left to Read, which reports it.
func TestSharedAttachmentLimits(t *testing.T) {
	data := []byte("GCF profile=generic\n## t [3]{a,b}\n@0 1|^\n.b [1]{x}\n    2\n@1 2|^\n.b [2]\n    3\n    4\n@2 3|^\n.b [1]\n    5\n")
	for _, lim := range []Limits{{MaxDepth: 1}, {MaxDepth: 2}, {MaxDepth: 3}, {MaxElements: 1}, {MaxElements: 2}, {MaxElements: 3}} {
		want, wantErr := walkCommitLimits(data, false, lim)
		got, gotErr := walkCommitLimits(data, true, lim)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%+v: commit %q %v\nRead   %q %v", lim, got, gotErr, want, wantErr)
		}
		if (wantErr == nil) != (lim.MaxDepth == 3 || lim.MaxElements == 3) {
			t.Errorf("%+v: error %v", lim, wantErr)
		}
	}
}
