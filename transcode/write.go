package transcode

import (
	"bytes"
	"io"
	"math"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/generic"
	"github.com/gcfkit/gcf/internal/layout"
	"github.com/gcfkit/gcf/lexer"
)

// jsonEnc is the second pass: it writes the payload through encoder/ as
// the first pass's decisions say, in the order and with the limit checks
// of gcf.EncodeGeneric, flushing to w as it goes.
type jsonEnc struct {
	w       io.Writer
	lim     encoder.Limiter
	v353    bool
	buf     []byte
	written int64 // bytes flushed to w
	ls      int   // offset in buf of the line in progress
	lines   int   // lines ended
	path    []byte
	pass1   *doc // the first pass's findings
	// rebase: a stub's attachment written in the part in progress left
	// lines ended before offset rebaseAt of buf (deferred)
	rebase            bool
	rebaseAt, rebased int
}

// tabHow is how a table is written, as the buffered encoder's: its own
// (a root table or member, constant columns factored), attached after
// `.f ` (not factored), or under row 0's shared array schema (`[N]`
// without a declaration).
type tabHow uint8

const (
	tabOwn tabHow = iota
	tabAttached
	tabShared
)

// encFlushAt is the buffered output past which a line end writes it to w.
const encFlushAt = 64 << 10

func (e *jsonEnc) nl() error {
	e.buf = encoder.AppendLineEnd(e.buf)
	return e.lineDone()
}

// lineDone checks the line just ended against MaxLineBytes and the
// payload against MaxBytes, as encoder.Limiter.LineDone and LineErr do.
func (e *jsonEnc) lineDone() error {
	n := len(e.buf) - 1 - e.ls
	if !e.lim.LineOK(n) {
		return e.lim.Line(e.lines+1, n, e.buf[e.ls:len(e.buf)-1])
	}
	if err := e.lim.Total(e.written + int64(len(e.buf))); err != nil {
		return err
	}
	e.lines++
	if len(e.buf) >= encFlushAt {
		if err := e.flush(); err != nil {
			return err
		}
	}
	e.ls = len(e.buf)
	return nil
}

func (e *jsonEnc) flush() error {
	if len(e.buf) == 0 {
		return nil
	}
	_, err := e.w.Write(e.buf)
	e.written += int64(len(e.buf))
	e.buf = e.buf[:0]
	e.ls = 0
	return err
}

func (e *jsonEnc) scalar(v any, ctx encoder.Context) error {
	out, ok, err := encoder.AppendScalar(e.buf, v, ctx)
	if !ok {
		return lexer.Errorf(lexer.UnsupportedValue, "value of type %T is not in the generic data model", v)
	}
	e.buf = out
	return err
}

func (e *jsonEnc) key(k string) { e.buf = encoder.AppendKey(e.buf, k) }

// doc writes the payload of a document the first pass planned.
func (e *jsonEnc) doc(f *feed, d *doc) error {
	e.pass1 = d
	e.buf = encoder.AppendHeader(e.buf, "generic")
	if err := e.nl(); err != nil {
		return err
	}
	switch d.root {
	case rootArray:
		e.buf = encoder.AppendSectionMark(e.buf)
		if d.table.n == 0 {
			if err := f.expect('['); err != nil {
				return err
			}
			if err := f.expect(']'); err != nil {
				return err
			}
			e.buf = encoder.AppendEmptyArray(e.buf)
			return e.nl()
		}
		return e.table(f, d.table, 0, tabOwn)
	case rootItems:
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.items(f, d.n, d.maxDepth-1, 0)
	case rootKeyed:
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.table(f, d.table, 0, tabOwn)
	}
	parts := generic.NewParts(e.lim.Limits, e.v353)
	defer parts.Release()
	parts.Defer = e.deferred
	if err := e.lim.Elements(len(d.members), "object"); err != nil {
		return err
	}
	n, err := f.object(func(i int, key string) error {
		if i >= len(d.members) {
			return errFallback
		}
		m := d.members[i]
		if m.kind == mWhole {
			var v any
			if c, _ := f.peek(); c == '{' {
				// A section: its arrays of containers stream if it is
				// read member by member.
				o, _, err := d.readRecord(f, d.maxDepth-1, false)
				if err != nil {
					return err
				}
				v = o
			} else {
				b, err := f.value()
				if err != nil {
					return err
				}
				if v, err = parseValue(b, d.maxDepth-1); err != nil {
					return err
				}
			}
			return e.part(func(dst []byte, line, end int) ([]byte, error) {
				return parts.Member(dst, key, v, line, end)
			})
		}
		e.buf = encoder.AppendSectionMark(e.buf)
		e.key(key)
		e.buf = encoder.AppendWordSep(e.buf)
		if m.kind == mItems {
			return e.items(f, m.n, d.maxDepth-2, 0)
		}
		return e.table(f, m.table, 0, tabOwn)
	})
	if err == nil && n != len(d.members) {
		err = errFallback
	}
	return err
}

// part appends one part written by the buffered encoder's writers
// (generic.Parts) at a line start, then accounts for its lines.
func (e *jsonEnc) part(write func(dst []byte, line, end int) ([]byte, error)) error {
	end := math.MaxInt
	if e.lim.MaxBytes > 0 {
		end = int(min(e.lim.MaxBytes-e.written, math.MaxInt))
	}
	start := len(e.buf)
	out, err := write(e.buf, e.lines+1, end)
	e.buf = out
	if e.rebase {
		e.rebase = false
		e.lines, start = e.rebased, e.rebaseAt
	}
	if err != nil {
		return err
	}
	e.lines += bytes.Count(e.buf[start:], []byte{'\n'})
	e.ls = len(e.buf)
	if len(e.buf) >= encFlushAt {
		return e.flush()
	}
	return nil
}

// items writes `[N]` and the line end, then the N items of the array
// read from f at indentation bi, each parsed under the depth limit depth.
func (e *jsonEnc) items(f *feed, n, depth, bi int) error {
	e.buf = encoder.AppendCount(e.buf, n, false)
	if err := e.nl(); err != nil {
		return err
	}
	parts := generic.NewParts(e.lim.Limits, e.v353)
	defer parts.Release()
	parts.Indent = bi
	got, err := f.array(func(i int) error {
		b, err := f.value()
		if err != nil {
			return err
		}
		v, err := parseValue(b, depth)
		if err != nil {
			return err
		}
		return e.part(func(dst []byte, line, end int) ([]byte, error) {
			return parts.Item(dst, i, v, line, end)
		})
	})
	if err == nil && got != n {
		err = errFallback
	}
	return err
}

// table writes a table from its count bracket on, then its rows read
// from f at indentation bi, each through the buffered encoder's row
// writer under the plan pass 1 decided.
func (e *jsonEnc) table(f *feed, t *table, bi int, how tabHow) error {
	if how == tabOwn && !e.v353 {
		t.factor()
	}
	if !e.lim.ElementsOK(t.n) {
		what := "array"
		if t.keyed {
			what = "keyed map"
		}
		return e.lim.Elements(t.n, what)
	}
	e.buf = encoder.AppendCount(e.buf, t.n, t.keyed)
	if how != tabShared {
		if err := e.decl(t); err != nil {
			return err
		}
	}
	if err := e.nl(); err != nil {
		return err
	}
	parts := generic.NewParts(e.lim.Limits, e.v353)
	defer parts.Release()
	parts.Indent = bi
	parts.Defer = e.deferred
	parts.Plan(t.planFields(), t.keyed)
	row := func(i int, key string) error {
		o, ok, err := e.pass1.readRecord(f, t.depth, false)
		if err != nil {
			return err
		}
		if !ok {
			return errFallback
		}
		return e.part(func(dst []byte, line, end int) ([]byte, error) {
			return parts.Row(dst, i, key, o, line, end)
		})
	}
	var n int
	var err error
	if t.keyed {
		n, err = f.object(row)
	} else {
		n, err = f.array(func(i int) error { return row(i, "") })
	}
	if err == nil && n != t.n {
		err = errFallback
	}
	return err
}

// decl writes the table's field declaration and checks its width.
func (e *jsonEnc) decl(t *table) error {
	e.buf = encoder.AppendDeclOpen(e.buf)
	if t.keyed {
		e.key(t.label)
		e.buf = encoder.AppendFieldSep(e.buf)
	}
	for i := range t.fields {
		fd := &t.fields[i]
		switch fd.kind {
		case layout.NoColumn:
			continue
		case layout.Flattened:
			e.path, _ = encoder.AppendPathSegment(e.path[:0], fd.name) // names are valid UTF-8: pass 1 parsed them
			e.flatDecl(fd.first)
			continue
		}
		e.key(fd.name)
		if fd.isConst {
			e.buf = encoder.AppendAssign(e.buf)
			if err := e.scalar(fd.v0, encoder.Const); err != nil {
				return err
			}
		}
		e.buf = encoder.AppendFieldSep(e.buf)
	}
	e.buf = encoder.EndDecl(e.buf)
	return e.lim.Fields(t.width)
}

// flatDecl writes the path columns below the prefix in e.path.
func (e *jsonEnc) flatDecl(o gcf.Object) {
	for i := range o {
		mark := len(e.path)
		e.path = append(e.path, '>')
		e.path, _ = encoder.AppendPathSegment(e.path, o[i].Key)
		if sub, ok := o[i].Value.(gcf.Object); ok {
			e.flatDecl(sub)
		} else {
			e.buf = encoder.AppendPathField(e.buf, e.path)
		}
		e.path = e.path[:mark]
	}
}
