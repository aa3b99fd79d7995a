package transcode

import (
	"slices"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/generic"
	"github.com/gcfkit/gcf/internal/layout"
)

// Tables inside records. A table row (a record) whose JSON text is at
// least stubMin bytes long is not parsed whole: its members are parsed one
// by one, and a member that is an array holding a container is scanned
// element by element instead, as a table of its own (its facts gathered
// by record, so at any depth) or as expanded items. The record's value
// then holds a stub in its place, whose facts the outer table's layout
// rules read (schemaArray, sharedRow), and pass 2 writes the stub's
// attachment itself in the place the buffered encoder's row writer gives
// it (generic.Parts.Defer), reading its elements again one at a time.

// stubMin is the length of JSON text from which a record is read member
// by member (a variable so that the tests can stream every record).
var stubMin = 64 << 10

// stub is a record member's array that the passes stream.
type stub struct {
	n     int    // elements
	t     *table // their facts; decided when tab
	tab   bool   // they make one table (else expanded items)
	flat  bool   // they are flat records (generic.FlatUnion)
	depth int    // the depth limit of one element
	off   int64  // the array's input offset
	size  int64  // and its length
}

// stubOf returns the stub that v stands for, or nil.
func stubOf(v any) *stub {
	if a, ok := v.([]any); ok && len(a) == 1 {
		s, _ := a[0].(*stub)
		return s
	}
	return nil
}

// union returns the elements' ordered field union.
func (s *stub) union() []string {
	u := make([]string, len(s.t.fields))
	for i := range s.t.fields {
		u[i] = s.t.fields[i].name
	}
	return u
}

// maxNest is how many stubs deep a stub may be: pass 2 reads a stub's
// text once more for each stub around it (and a record read member by
// member once more), so the nesting bounds the reads of any byte.
const maxNest = 2

// lazyDepth is the least record depth limit under which a record is read
// member by member: its array member's elements are then parsed under at
// least 1.
const lazyDepth = 3

// readLazily reports whether a record of n bytes of text under the depth limit
// depth is read member by member.
func readLazily(n, depth int) bool { return n >= stubMin && depth >= lazyDepth }

// record reads the next value of f, an object, under the depth limit
// depth as gcf.ParseJSON would, whole or (readLazily) member by member
// (lazyRecord); ok is false if it is no object.
func (d *doc) readRecord(f *feed, depth int, pass1 bool) (o gcf.Object, ok bool, err error) {
	at := f.offset()
	b, err := f.valueUpTo(stubMin)
	if err != nil {
		return nil, false, err
	}
	if b == nil && !readLazily(int(f.offset()-at), depth) {
		if b, err = d.valueAt(f, at); err != nil {
			return nil, false, err
		}
	}
	if b != nil && !readLazily(len(b), depth) {
		var v any
		if pass1 {
			v, err = d.checked(b, depth)
		} else {
			v, err = parseValue(b, depth)
		}
		o, ok = v.(gcf.Object)
		return o, ok, err
	}
	sub := &feed{buf: b, base: f.offset() - int64(len(b)), mark: -1}
	if b == nil {
		// Too long to hold: read it again, member by member.
		if sub, err = d.open(at, f.offset()-at); err != nil {
			return nil, false, err
		}
	}
	o, err = d.lazyRecord(sub, depth, pass1)
	return o, err == nil, err
}

// lazyRecord reads the record that comes next in sub under the depth
// limit depth, member by member, as gcf.ParseJSON would read it. In pass
// 1 each member array holding a container is scanned into a stub kept in
// d.stubs by its offset; in pass 2 the members d.stubs holds are stubbed
// again, and skipped.
func (d *doc) lazyRecord(sub *feed, depth int, pass1 bool) (gcf.Object, error) {
	var o gcf.Object
	keys := make(map[string]struct{})
	parsed := 0
	n, err := sub.object(func(_ int, key string) error {
		if _, dup := keys[key]; dup {
			return errFallback
		}
		keys[key] = struct{}{}
		c, _ := sub.peek()
		at := sub.offset()
		if c == '[' {
			if pass1 {
				s, vb, err := d.scanStub(sub, depth-1)
				if err != nil || s == nil {
					return d.member(&o, key, vb, depth, &parsed, pass1)
				}
				o = append(o, gcf.Member{Key: key, Value: []any{s}})
				return nil
			} else if s := d.stubs[at]; s != nil {
				if err := sub.skip(); err != nil {
					return err
				}
				o = append(o, gcf.Member{Key: key, Value: []any{s}})
				return nil
			}
		}
		vb, err := sub.value()
		if err != nil {
			return err
		}
		return d.member(&o, key, vb, depth, &parsed, pass1)
	})
	if err == nil && n > d.maxElems {
		err = errFallback
	}
	return o, err
}

// scanStub reads the array that comes next in f, a value under the depth
// limit depth, element by element (scanArray): into a stub kept in
// d.stubs if it holds a container, else it returns its text.
func (d *doc) scanStub(f *feed, depth int) (*stub, []byte, error) {
	if d.nest >= maxNest {
		vb, err := f.value()
		return nil, vb, err
	}
	d.nest++
	defer func() { d.nest-- }()
	at := f.offset()
	s := &stub{t: newTable(false, depth-1), depth: depth - 1, off: at}
	n, prims, err := d.scanArray(f, s.t)
	if err != nil {
		return nil, nil, err
	}
	if n == prims {
		vb, err := d.valueAt(f, at)
		return nil, vb, err
	}
	s.n = n
	s.tab = s.t.decide()
	s.flat = s.t.objects && s.t.flatRecs && len(s.t.fields) > 0
	if d.stubs == nil {
		d.stubs = make(map[int64]*stub)
	}
	d.stubs[at] = s
	s.size = f.offset() - at
	d.stubbed += s.size
	return s, nil, nil
}

// member parses the value vb of a record's member key under the
// record's depth limit depth and appends it to o; in pass 1 it first
// tells d the text held parsed in o (parsed, with vb).
func (d *doc) member(o *gcf.Object, key string, vb []byte, depth int, parsed *int, pass1 bool) error {
	*parsed += len(vb)
	if pass1 {
		d.saw(*parsed)
	}
	v, err := parseValue(vb, depth-1)
	if err != nil {
		return err
	}
	if len(vb) > d.maxElems && tooMany(v, d.maxElems) {
		return errFallback // the error names the container by its path
	}
	*o = append(*o, gcf.Member{Key: key, Value: v})
	return nil
}

// valueAt returns the value at input offset at, which f has just passed:
// from f's window if it still holds it, else read again.
func (d *doc) valueAt(f *feed, at int64) ([]byte, error) {
	if at >= f.base {
		return f.buf[at-f.base : f.pos], nil
	}
	g, err := d.open(at, f.offset()-at)
	if err != nil {
		return nil, err
	}
	return g.value()
}

// schemaArray is generic.SchemaArray for a value that may be a stub.
func schemaArray(v any, tabular bool) bool {
	if s := stubOf(v); s != nil {
		return s.tab == tabular // a stub is non-empty and holds a container
	}
	return generic.SchemaArray(v, tabular)
}

// sharedRow is generic.SharedRow for row i's present value v of fd, where
// v or row 0's array may be a stub: those are compared by their unions.
func sharedRow(fd *field, i int, v any) layout.ArrayRow {
	s := stubOf(v)
	if s == nil && fd.union0 == nil {
		return generic.SharedRow(i, v, true, &fd.shared0)
	}
	var u []string
	var ok bool
	switch a, isArr := v.([]any); {
	case v == nil:
		return layout.NoArray
	case s != nil:
		if ok = s.flat; ok {
			u = s.union()
		}
	case isArr:
		u, ok = generic.FlatUnion(a)
	}
	if !ok {
		return layout.OtherArray
	}
	if i == 0 {
		fd.union0 = u
		return layout.FlatArray
	}
	if fd.union0 == nil {
		fd.union0, _ = generic.FlatUnion(fd.shared0)
	}
	if !slices.Equal(u, fd.union0) {
		return layout.OtherArray
	}
	return layout.FlatArray
}

// deferred writes a stub's attachment for generic.Parts.Defer, during a
// part e writes: `.key `, then the array's table or items, read again
// element by element, at indentation d+2, flushing to w as e does (dst
// holds complete lines). e's part then counts its lines from the end of
// it (rebase).
func (e *jsonEnc) deferred(dst []byte, line int, key string, at generic.Place, v any, d int) ([]byte, int, int, bool, error) {
	s := stubOf(v)
	if s == nil {
		return dst, 0, line, false, nil
	}
	n := &jsonEnc{w: e.w, lim: e.lim, v353: e.v353, pass1: e.pass1, buf: dst, written: e.written, ls: len(dst), lines: line - 1}
	err := n.attachment(s, key, at, d)
	flushed := int(n.written - e.written)
	e.written = n.written
	e.rebase, e.rebaseAt, e.rebased = true, len(n.buf), n.lines
	return n.buf, flushed, n.lines + 1, true, err
}

// attachment writes the stub's attachment, or section member, at
// indentation d, as the buffered encoder's attach, or members, would.
func (n *jsonEnc) attachment(s *stub, key string, at generic.Place, d int) error {
	n.buf = encoder.AppendIndent(n.buf, d)
	bi, how := d+2, tabAttached
	switch at {
	case generic.InSection:
		n.buf = encoder.AppendSectionMark(n.buf)
		bi, how = d, tabOwn
	case generic.SharedAttached:
		n.buf = encoder.AppendAttachDot(n.buf)
		how = tabShared
	default:
		n.buf = encoder.AppendAttachDot(n.buf)
	}
	n.key(key)
	n.buf = encoder.AppendWordSep(n.buf)
	f, err := n.pass1.open(s.off, s.size)
	if err != nil {
		return err
	}
	// A stub is non-empty and holds a container: a table or expanded.
	if layout.ArrayForm(s.n, false, func() bool { return s.tab }) != layout.Table {
		return n.items(f, s.n, s.depth, bi)
	}
	return n.table(f, s.t, bi, how)
}
