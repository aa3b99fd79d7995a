package transcode

import (
	"io"
	"strconv"

	"github.com/gcfkit/gcf"
)

// ToNDJSON reads one GCF payload of either profile from r and writes it to
// w as NDJSON, one JSON value per line, never dropping data: the elements
// of a generic payload's root array; otherwise one line per table row,
// keyed-map member or other value, tagged with its table or path; for a
// graph payload a header line, then one line per symbol and per edge (or
// per delta line), tagged with its type. The package documentation and
// docs/ndjson.md give the shape.
//
// Memory is bounded as for ToJSON on a generic payload, and by the symbol
// names on a graph payload; nothing is buffered, not even a delta. Errors
// are as for ToJSON, and Result.Records counts the lines written.
// Options.Indent is ignored.
func ToNDJSON(w io.Writer, r io.Reader, o Options) (Result, error) {
	t := newRun(w, r, o, false)
	ev, err := t.header()
	if err != nil {
		return t.result(), err
	}
	if ev.Profile == "graph" {
		return t.graph(ev, true)
	}
	n := &lines{gen: gen{d: t.d, o: t.o}, rec: &t.rec}
	if ev, err = n.read(); err == nil {
		if ev.Kind == gcf.KindArrayStart {
			err = n.elements(ev)
		} else {
			err = n.walk(ev)
		}
	}
	if err != nil {
		return t.result(), err
	}
	return t.finish(false)
}

// lines writes a generic payload as NDJSON.
type lines struct {
	gen
	rec  *int64
	path []byte // where the current value sits, in the PATH syntax
}

// endLine ends a record's line.
func (n *lines) endLine() error {
	n.o.buf = append(n.o.buf, '\n')
	*n.rec++
	return n.o.maybeFlush()
}

// elements writes each element of the root array ev on a line of its own.
func (n *lines) elements(ev *gcf.Event) error {
	switch ev.Form {
	case gcf.FormEmpty:
		return n.expect(gcf.KindArrayEnd)
	case gcf.FormInline:
		var err error
		for i := range ev.Cells {
			if n.o.buf, err = appendScalar(n.o.buf, &ev.Cells[i]); err != nil {
				return err
			}
			if err := n.endLine(); err != nil {
				return err
			}
		}
		return n.expect(gcf.KindArrayEnd)
	case gcf.FormTabular:
		p := n.plan(ev.Fields, 0)
		for {
			ev, err := n.read()
			if err != nil {
				return err
			}
			if ev.Kind == gcf.KindArrayEnd {
				return nil
			}
			if ev.Kind != gcf.KindRow {
				return errInternal("unexpected " + ev.Kind.String() + " in a table")
			}
			if err := n.row(p, ev); err != nil {
				return err
			}
			if err := n.endLine(); err != nil {
				return err
			}
		}
	case gcf.FormExpanded:
		for {
			ev, err := n.read()
			if err != nil {
				return err
			}
			if ev.Kind == gcf.KindArrayEnd {
				return nil
			}
			if err := n.value(ev); err != nil {
				return err
			}
			if err := n.endLine(); err != nil {
				return err
			}
		}
	}
	return errInternal("root array of an unknown form")
}

// walk writes the value that ev opens as tagged records.
func (n *lines) walk(ev *gcf.Event) error {
	switch ev.Kind {
	case gcf.KindObjectStart:
		if ev.Form == gcf.FormKeyed {
			return n.table(ev, true)
		}
		if n.d.PeekKind() == gcf.KindObjectEnd {
			n.startValue()
			n.o.buf = append(n.o.buf, '{', '}', '}')
			if err := n.expect(gcf.KindObjectEnd); err != nil {
				return err
			}
			return n.endLine()
		}
		for {
			ev, err := n.read()
			if err != nil {
				return err
			}
			if ev.Kind == gcf.KindObjectEnd {
				return nil
			}
			mark := len(n.path)
			n.path = appendKeySegment(n.path, ev.Key)
			if err := n.walk(ev); err != nil {
				return err
			}
			n.path = n.path[:mark]
		}
	case gcf.KindArrayStart:
		switch ev.Form {
		case gcf.FormTabular:
			return n.table(ev, false)
		case gcf.FormExpanded:
			for i := int64(0); ; i++ {
				ev, err := n.read()
				if err != nil {
					return err
				}
				if ev.Kind == gcf.KindArrayEnd {
					return nil
				}
				mark := len(n.path)
				n.path = appendIndexSegment(n.path, i)
				if err := n.walk(ev); err != nil {
					return err
				}
				n.path = n.path[:mark]
			}
		}
	}
	// A scalar, an inline array or an empty one: one value line.
	n.startValue()
	if err := n.value(ev); err != nil {
		return err
	}
	n.o.buf = append(n.o.buf, '}')
	return n.endLine()
}

// startValue opens a {"path":PATH,"value": line.
func (n *lines) startValue() {
	n.o.buf = append(n.o.buf, `{"path":`...)
	n.o.buf = appendString(n.o.buf, n.path)
	n.o.buf = append(n.o.buf, `,"value":`...)
}

// table writes each row of the table (or keyed map) ev as a tagged line,
// or the empty table as a value line.
func (n *lines) table(ev *gcf.Event, keyed bool) error {
	from := 0
	if keyed {
		from = 1
	}
	p := n.plan(ev.Fields, from)
	for rows := 0; ; rows++ {
		ev, err := n.read()
		if err != nil {
			return err
		}
		if ev.Kind == gcf.KindArrayEnd || ev.Kind == gcf.KindObjectEnd {
			if rows > 0 {
				return nil
			}
			n.startValue()
			if keyed {
				n.o.buf = append(n.o.buf, "{}}"...)
			} else {
				n.o.buf = append(n.o.buf, "[]}"...)
			}
			return n.endLine()
		}
		if ev.Kind != gcf.KindRow {
			return errInternal("unexpected " + ev.Kind.String() + " in a table")
		}
		n.o.buf = append(n.o.buf, `{"table":`...)
		n.o.buf = appendString(n.o.buf, n.path)
		if keyed {
			n.o.buf = append(n.o.buf, `,"key":`...)
			n.o.buf = appendString(n.o.buf, ev.Cells[0].Bytes)
		}
		n.o.buf = append(n.o.buf, `,"row":`...)
		if err := n.row(p, ev); err != nil {
			return err
		}
		n.o.buf = append(n.o.buf, '}')
		if err := n.endLine(); err != nil {
			return err
		}
	}
}

// appendKeySegment appends the key k to a PATH.
func appendKeySegment(path, k []byte) []byte {
	if len(path) > 0 {
		path = append(path, '.')
	}
	if bareSegment(k) {
		return append(path, k...)
	}
	return appendString(path, k)
}

// appendIndexSegment appends the array index i to a PATH.
func appendIndexSegment(path []byte, i int64) []byte {
	path = append(path, '[')
	path = strconv.AppendInt(path, i, 10)
	return append(path, ']')
}

// bareSegment reports whether a key is written as is in a PATH: it is not
// empty and holds only ASCII letters, digits, '_', '-' and non-ASCII bytes,
// so it cannot be confused with the separators '.', '[' and '"'.
func bareSegment(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	for _, c := range k {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c >= 0x80:
		default:
			return false
		}
	}
	return true
}
