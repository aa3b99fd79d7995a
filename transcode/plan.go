package transcode

import (
	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
)

// doc is what the first pass learns of a document whose shape streams.
type doc struct {
	maxDepth int
	root     rootKind
	table    *table   // rootArray, rootKeyed
	members  []member // rootMembers, in order
}

type rootKind uint8

const (
	rootArray   rootKind = iota // a root array: `## [N]{...}` or `## [0]`
	rootKeyed                   // a root object written as a keyed table
	rootMembers                 // a root object written member by member
)

// member is one member of a root object written member by member.
type member struct {
	kind  memberKind
	table *table // mTable, mKeyed
}

type memberKind uint8

const (
	mScalar   memberKind = iota // `key=value`
	mInline                     // `key[N]: v1,v2`
	mEmpty                      // `## key [0]`
	mEmptyObj                   // `## key`
	mTable                      // `## key [N]{...}` and rows
	mKeyed                      // `## key [N:]{...}` and rows
)

// table is what the first pass gathers of one table, and then the layout
// decisions taken from it.
type table struct {
	keyed  bool
	depth  int // the depth limit of one record (ParseJSON's MaxDepth)
	n      int
	cols   bool // some record has a member that can be a column
	fields []field
	index  map[string]int
	keys   map[string]struct{} // keyed: the member keys (duplicate_key)
	label  string              // keyed: the key column's label
	width  int                 // fields declared
}

// field is one field of a table's union.
type field struct {
	name       string
	obj, other bool         // some record holds an object / a non-null scalar or array
	count      int          // records holding it
	v0         any          // row 0's value
	same       bool         // row 0 holds a scalar, and every later holder the same one
	first      gcf.Object   // the first object: its leaves are the path columns
	flat       *layout.Flat // the objects so far, fed to the flattening rule
	// decisions
	leaves  int  // > 0: flattened into this many path columns
	isConst bool // a constant column
}

// plan runs the first pass.
func (d *doc) plan(open func() (*feed, error)) error {
	f, err := open()
	if err != nil {
		return err
	}
	c, ok := f.peek()
	if !ok {
		return errFallback
	}
	switch c {
	case '[':
		d.root = rootArray
		d.table = &table{depth: d.maxDepth - 1}
		if err := d.table.scanArray(f); err != nil {
			return err
		}
		if d.table.n > 0 {
			if err := d.table.decide(false); err != nil {
				return err
			}
		}
		return f.end()
	case '{':
	default:
		return errFallback // a root scalar is one line: nothing to stream
	}
	// A root object of at least two members that are all objects is a
	// keyed table if they make one (SPEC §7.2a.1), else sections.
	allObjects := true
	n, err := f.object(func(int, string) error {
		if c, _ := f.peek(); c != '{' {
			allObjects = false
		}
		return f.skip()
	})
	if err != nil {
		return err
	}
	if err := f.end(); err != nil {
		return err
	}
	if f, err = open(); err != nil {
		return err
	}
	if allObjects && layout.KeyedSize(n, layout.MinKeyed) {
		d.root = rootKeyed
		d.table = &table{keyed: true, depth: d.maxDepth - 1}
		if err := d.table.scanKeyed(f); err != nil {
			return err
		}
		if err := d.table.decide(true); err != nil {
			return err
		}
		return f.end()
	}
	d.root = rootMembers
	keys := make(map[string]struct{})
	_, err = f.object(func(i int, key string) error {
		if _, dup := keys[key]; dup {
			return errFallback
		}
		keys[key] = struct{}{}
		m, err := d.scanMember(f)
		d.members = append(d.members, m)
		return err
	})
	if err != nil {
		return err
	}
	return f.end()
}

// scanMember gathers the facts of a root object's member value.
func (d *doc) scanMember(f *feed) (member, error) {
	c, _ := f.peek()
	switch c {
	case '{':
		t := &table{keyed: true, depth: d.maxDepth - 2}
		if err := t.scanKeyed(f); err != nil {
			return member{}, err
		}
		if t.n == 0 {
			return member{kind: mEmptyObj}, nil
		}
		if !layout.KeyedSize(t.n, layout.MinKeyed) {
			return member{}, errFallback // a section
		}
		return member{kind: mKeyed, table: t}, t.decide(true)
	case '[':
		t := &table{depth: d.maxDepth - 2}
		prims := 0
		n, err := f.array(func(i int) error {
			c, _ := f.peek()
			switch c {
			case '{':
				return t.record(f, i, "")
			case '[':
				return errFallback
			}
			b, err := f.value()
			if err != nil {
				return err
			}
			prims++
			_, err = parseValue(b, 1)
			return err
		})
		switch {
		case err != nil:
			return member{}, err
		case n == 0:
			return member{kind: mEmpty}, nil
		case prims == n:
			return member{kind: mInline}, nil
		case prims > 0:
			return member{}, errFallback // expanded
		}
		t.n = n
		return member{kind: mTable, table: t}, t.decide(false)
	}
	b, err := f.value()
	if err != nil {
		return member{}, err
	}
	_, err = parseValue(b, 1)
	return member{kind: mScalar}, err
}

// scanArray gathers the facts of an array whose elements are all records.
func (t *table) scanArray(f *feed) error {
	n, err := f.array(func(i int) error {
		if c, _ := f.peek(); c != '{' {
			return errFallback // not tabular: expanded
		}
		return t.record(f, i, "")
	})
	t.n = n
	return err
}

// scanKeyed gathers the facts of an object whose member values are all
// records.
func (t *table) scanKeyed(f *feed) error {
	t.keys = make(map[string]struct{})
	n, err := f.object(func(i int, key string) error {
		if _, dup := t.keys[key]; dup {
			return errFallback
		}
		t.keys[key] = struct{}{}
		if c, _ := f.peek(); c != '{' {
			return errFallback // a section
		}
		return t.record(f, i, key)
	})
	t.n = n
	t.keys = nil
	return err
}

// record reads record i and adds its facts.
func (t *table) record(f *feed, i int, _ string) error {
	b, err := f.value()
	if err != nil {
		return err
	}
	v, err := parseValue(b, t.depth)
	if err != nil {
		return err
	}
	o := v.(gcf.Object)
	t.cols = t.cols || len(o) > 0
	next := 0
	for j := range o {
		m := &o[j]
		if !layout.ColumnName(m.Key) {
			return errFallback // a '>' field: attachments only
		}
		fi := -1
		if next < len(t.fields) && t.fields[next].name == m.Key {
			fi = next
		} else if x, ok := t.index[m.Key]; ok {
			fi = x
		} else {
			fi = len(t.fields)
			if t.index == nil {
				t.index = make(map[string]int)
			}
			t.index[m.Key] = fi
			t.fields = append(t.fields, field{name: m.Key})
		}
		next = fi + 1
		fd := &t.fields[fi]
		fd.count++
		switch x := m.Value.(type) {
		case nil:
		case gcf.Object:
			fd.obj = true
			if fd.flat == nil {
				fd.first, fd.flat = x, new(layout.Flat)
			}
			if fd.flat.OK() {
				fd.flat.Object(len(x))
				feedFlat(fd.flat, x)
			}
		case []any:
			fd.other = true
			if !primitive(x) {
				return errFallback // tables in cells: shared schemas, row-0 safety
			}
		default:
			fd.other = true
		}
		if i == 0 {
			fd.v0, fd.same = m.Value, !isContainer(m.Value)
		} else if fd.same && !encoder.SameScalar(fd.v0, m.Value, nil) {
			fd.same = false
		}
	}
	return nil
}

// decide takes the layout decisions of a table of n ≥ 1 records from its
// facts, through internal/layout, or falls back where they need facts the
// pass did not gather.
func (t *table) decide(keyed bool) error {
	tabular := layout.Tabular(true, t.cols, nil) // no row-0 schema: no array holds a container
	if layout.ArrayForm(t.n, false, func() bool { return tabular }) != layout.Table {
		return errFallback
	}
	for i := range t.fields {
		fd := &t.fields[i]
		objects := fd.obj && !fd.other
		kind, leaves, att := layout.PlanField(layout.Field{
			Name:    fd.name,
			Objects: objects,
			Leaves: func() int {
				return fd.flat.Leaves()
			},
			// Shared and Inline are left nil (false): no array holds
			// an object, and objects that do not flatten fall back below.
		})
		if kind == layout.NoColumn || att != layout.OwnSchema || fd.obj && kind != layout.Flattened {
			return errFallback // object attachments
		}
		fd.leaves = leaves
	}
	if keyed {
		names := make([]string, len(t.fields))
		for i := range t.fields {
			names[i] = t.fields[i].name
		}
		t.label = layout.KeyLabel(names)
		t.width++
	}
	for i := range t.fields {
		t.width += max(t.fields[i].leaves, 1)
	}
	t.index = nil
	return nil
}

// factor marks the constant columns (spec v3.6.0 §7.4.7) as layout.Factor
// decides: an ordinary column is eligible, and constant when every record
// holds it with row 0's scalar.
func (t *table) factor() {
	cols := make([]layout.Column, 0, len(t.fields)+1)
	if t.keyed {
		cols = append(cols, layout.Column{})
	}
	for i := range t.fields {
		fd := &t.fields[i]
		if fd.leaves > 0 {
			cols = append(cols, layout.Column{})
			continue
		}
		cols = append(cols, layout.Column{Eligible: true, Constant: fd.same && fd.count == t.n})
	}
	fac, _ := layout.Factor(t.n, cols, nil)
	if t.keyed {
		fac = fac[1:]
	}
	for i := range t.fields {
		t.fields[i].isConst = fac[i]
	}
}

// feedFlat feeds o's members to fl (layout.Flat, the flattening rule of
// SPEC §7.4.6), depth first, and closes o.
func feedFlat(fl *layout.Flat, o gcf.Object) {
	for i := range o {
		switch x := o[i].Value.(type) {
		case nil:
			fl.Leaf(o[i].Key, true)
		case gcf.Object:
			fl.Nested(o[i].Key, len(x))
			feedFlat(fl, x)
		case []any:
			fl.Fail()
		default:
			fl.Leaf(o[i].Key, false)
		}
		if !fl.OK() {
			return
		}
	}
	fl.Close()
}
