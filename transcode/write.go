package transcode

import (
	"io"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/encoder"
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
	att     []attachment
	path    []byte
}

// attachment is a row's array, written after it.
type attachment struct {
	name string
	a    []any
}

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
		return e.table(f, d.table)
	case rootKeyed:
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.table(f, d.table)
	}
	if err := e.lim.Elements(len(d.members), "object"); err != nil {
		return err
	}
	_, err := f.object(func(i int, key string) error {
		m := d.members[i]
		switch m.kind {
		case mScalar:
			b, err := f.value()
			if err != nil {
				return err
			}
			v, err := parseValue(b, 1)
			if err != nil {
				return err
			}
			e.key(key)
			e.buf = encoder.AppendAssign(e.buf)
			if err := e.scalar(v, encoder.Value); err != nil {
				return err
			}
			return e.nl()
		case mInline:
			b, err := f.value()
			if err != nil {
				return err
			}
			v, err := parseValue(b, 2)
			if err != nil {
				return err
			}
			e.key(key)
			return e.inline(v.([]any))
		case mEmptyObj:
			e.buf = encoder.AppendSectionMark(e.buf)
			e.key(key)
			if _, err := f.value(); err != nil {
				return err
			}
			if err := e.nl(); err != nil {
				return err
			}
			return e.lim.Elements(0, "object")
		}
		e.buf = encoder.AppendSectionMark(e.buf)
		e.key(key)
		e.buf = encoder.AppendWordSep(e.buf)
		if m.kind == mEmpty {
			if _, err := f.value(); err != nil {
				return err
			}
			e.buf = encoder.AppendEmptyArray(e.buf)
			return e.nl()
		}
		return e.table(f, m.table)
	})
	return err
}

// inline writes `[N]: v1,v2,...` and the line end.
func (e *jsonEnc) inline(a []any) error {
	if !e.lim.ElementsOK(len(a)) {
		return e.lim.Elements(len(a), "array")
	}
	e.buf = encoder.AppendCount(e.buf, len(a), false)
	e.buf = encoder.AppendInlineMark(e.buf)
	for i, v := range a {
		e.buf = encoder.AppendItemLead(e.buf, i)
		if err := e.scalar(v, encoder.Element); err != nil {
			return err
		}
	}
	return e.nl()
}

// table writes a table from its count bracket on, then its rows read
// from f at indentation 0.
func (e *jsonEnc) table(f *feed, t *table) error {
	if !e.v353 {
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
	e.buf = encoder.AppendDeclOpen(e.buf)
	if t.keyed {
		e.key(t.label)
		e.buf = encoder.AppendFieldSep(e.buf)
	}
	for i := range t.fields {
		fd := &t.fields[i]
		if fd.leaves > 0 {
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
	if err := e.lim.Fields(t.width); err != nil {
		return err
	}
	if err := e.nl(); err != nil {
		return err
	}
	row := func(i int, key string) error {
		b, err := f.value()
		if err != nil {
			return err
		}
		v, err := parseValue(b, t.depth)
		if err != nil {
			return err
		}
		return e.row(t, i, key, v.(gcf.Object))
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

// row writes record i (with its key in a keyed table) and its
// attachments.
func (e *jsonEnc) row(t *table, i int, key string, o gcf.Object) error {
	rs := len(e.buf)
	if t.keyed {
		if err := e.scalar(key, encoder.Cell); err != nil {
			return err
		}
		e.buf = encoder.AppendCellSep(e.buf)
	}
	e.att = e.att[:0]
	cur := 0
	for fi := range t.fields {
		fd := &t.fields[fi]
		var v any
		ok := false
		if cur < len(o) && o[cur].Key == fd.name {
			v, ok = o[cur].Value, true
			cur++
		} else {
			for j := range o {
				if o[j].Key == fd.name {
					v, ok, cur = o[j].Value, true, j+1
					break
				}
			}
		}
		switch {
		case fd.isConst:
			continue
		case fd.leaves > 0:
			switch {
			case !ok:
				e.repeat('~', fd.leaves)
			case v == nil:
				e.repeat('-', fd.leaves)
			default:
				if err := e.flatCells(v.(gcf.Object)); err != nil {
					return err
				}
			}
			continue
		case !ok:
			e.buf = encoder.AppendMissing(e.buf)
		default:
			if a, isArr := v.([]any); isArr {
				e.buf = encoder.AppendAttachMark(e.buf)
				e.att = append(e.att, attachment{fd.name, a})
			} else if err := e.scalar(v, encoder.Cell); err != nil {
				return err
			}
		}
		e.buf = encoder.AppendCellSep(e.buf)
	}
	e.buf = encoder.EndLine(e.buf)
	if len(e.att) > 0 {
		var tmp [24]byte
		id := encoder.AppendWordSep(encoder.AppendItemIndex(tmp[:0], i))
		old := len(e.buf)
		e.buf = append(e.buf, id...)
		copy(e.buf[rs+len(id):], e.buf[rs:old])
		copy(e.buf[rs:], id)
	}
	if err := e.lineDone(); err != nil {
		return err
	}
	for _, a := range e.att {
		e.buf = encoder.AppendAttachDot(e.buf)
		e.key(a.name)
		e.buf = encoder.AppendWordSep(e.buf)
		if len(a.a) == 0 {
			e.buf = encoder.AppendEmptyArray(e.buf)
			if err := e.nl(); err != nil {
				return err
			}
			continue
		}
		if err := e.inline(a.a); err != nil {
			return err
		}
	}
	return nil
}

func (e *jsonEnc) repeat(c byte, n int) {
	for ; n > 0; n-- {
		e.buf = encoder.AppendCellSep(append(e.buf, c))
	}
}

// flatCells writes the leaves of a flattened object, in key order.
func (e *jsonEnc) flatCells(o gcf.Object) error {
	for i := range o {
		if sub, ok := o[i].Value.(gcf.Object); ok {
			if err := e.flatCells(sub); err != nil {
				return err
			}
			continue
		}
		if err := e.scalar(o[i].Value, encoder.Cell); err != nil {
			return err
		}
		e.buf = encoder.AppendCellSep(e.buf)
	}
	return nil
}
