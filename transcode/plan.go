package transcode

import (
	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/generic"
	"github.com/gcfkit/gcf/internal/layout"
)

// doc is what the first pass learns of a document whose shape streams.
type doc struct {
	maxDepth int
	maxElems int
	largest  int         // the length of the longest record, item or member value read
	longer   func(int64) // told each new largest, if not nil
	root     rootKind
	n        int                                  // rootItems: the number of items
	table    *table                               // rootArray, rootKeyed
	members  []member                             // rootMembers, in order
	stubs    map[int64]*stub                      // the arrays streamed inside records, by input offset
	open     func(off, size int64) (*feed, error) // the input from offset off, for size bytes (-1: the rest)
	stubbed  int64                                // the text of the stubs scanned so far
	nest     int                                  // the stubs being scanned, one inside another
}

type rootKind uint8

const (
	rootArray   rootKind = iota // a root array: `## [N]{...}` or `## [0]`
	rootItems                   // a root array in expanded form: `## [N]` and `@i` items
	rootKeyed                   // a root object written as a keyed table
	rootMembers                 // a root object written member by member
)

// member is one member of a root object written member by member.
type member struct {
	kind  memberKind
	n     int    // mItems: the number of items
	table *table // mTable, mKeyed
}

type memberKind uint8

const (
	mWhole memberKind = iota // parsed whole and written by the buffered encoder's member writer
	mTable                   // `## key [N]{...}` and rows
	mKeyed                   // `## key [N:]{...}` and rows
	mItems                   // `## key [N]` and `@i` items
)

// table is what the first pass gathers of one table, and then the layout
// decisions taken from it.
type table struct {
	keyed   bool
	depth   int  // the depth limit of one record (ParseJSON's MaxDepth)
	n       int  // records
	objects bool // every element is an object (so far)
	cols    bool // some record has a member that can be a column
	safe    bool // no later row breaks a schema row 0 establishes (rowZeroSafe)
	// flatRecs: every member of every record is a scalar or null under a
	// name that can be a column (generic.FlatUnion, with objects and a
	// non-empty union)
	flatRecs bool
	fields   []field
	index    map[string]int
	label    string // keyed: the key column's label
	width    int    // fields declared
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
	est        bool         // row 0's value establishes a shared array schema
	shared     bool         // layout.SharedStep so far
	shared0    []any        // row 0's array (generic.SharedRow)
	union0     []string     // row 0's array's union, once row 0's or a later array is a stub (sharedRow)
	inline     bool         // the inline object schema fits so far
	inline0    gcf.Object   // row 0's object
	// decisions
	kind    layout.Kind
	leaves  int // > 0: flattened into this many path columns
	attach  layout.Attach
	isConst bool // a constant column
}

// plan runs the first pass.
func (d *doc) plan() error {
	f, err := d.open(0, -1)
	if err != nil {
		return err
	}
	c, ok := f.peek()
	if !ok {
		return errFallback
	}
	switch c {
	case '[':
		t := newTable(false, d.maxDepth-1)
		n, prims, err := d.scanArray(f, t)
		if err != nil {
			return err
		}
		switch {
		case n == 0:
			d.root, d.table = rootArray, t
		case prims == n:
			return errFallback // one inline line: nothing to stream
		case t.decide():
			d.root, d.table = rootArray, t
		default:
			d.root, d.n = rootItems, n
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
	if n > d.maxElems {
		return errFallback // the error names the container
	}
	if f, err = d.open(0, -1); err != nil {
		return err
	}
	d.root = rootMembers
	if allObjects && layout.KeyedSize(n, layout.MinKeyed) {
		t := newTable(true, d.maxDepth-1)
		if _, err := d.scanKeyed(f, t); err != nil {
			return err
		}
		if t.decide() {
			d.root, d.table = rootKeyed, t
		} else {
			d.members = make([]member, n) // sections, each an object: written whole
		}
		return f.end()
	}
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

func newTable(keyed bool, depth int) *table {
	return &table{keyed: keyed, depth: depth, objects: true, safe: true, flatRecs: true}
}

// scanMember gathers the facts of a root object's member value.
func (d *doc) scanMember(f *feed) (member, error) {
	c, _ := f.peek()
	start, stubbed := f.offset(), d.stubbed
	m, err := d.scanValue(f, c)
	if m.kind == mWhole {
		n := f.offset() - start
		if c == '{' && readLazily(int(n), d.maxDepth-1) {
			n -= d.stubbed - stubbed // its arrays of containers stream
		}
		d.saw(int(n)) // held by pass 2
	}
	return m, err
}

// saw records a record of n bytes of text.
func (d *doc) saw(n int) {
	if n > d.largest {
		d.largest = n
		if d.longer != nil {
			d.longer(int64(n))
		}
	}
}

// scanValue is scanMember for a value that starts with c.
func (d *doc) scanValue(f *feed, c byte) (member, error) {
	switch c {
	case '{':
		t := newTable(true, d.maxDepth-2)
		n, err := d.scanKeyed(f, t)
		if err != nil {
			return member{}, err
		}
		if n > 0 && t.objects && layout.KeyedSize(n, layout.MinKeyed) && t.decide() {
			return member{kind: mKeyed, table: t}, nil
		}
		return member{kind: mWhole}, nil // `## key` and its members
	case '[':
		t := newTable(false, d.maxDepth-2)
		n, prims, err := d.scanArray(f, t)
		switch {
		case err != nil:
			return member{}, err
		case n == 0 || prims == n:
			return member{kind: mWhole}, nil // `## key [0]`, `key[N]: ...`
		case t.decide():
			return member{kind: mTable, table: t}, nil
		}
		return member{kind: mItems, n: n}, nil
	}
	b, err := f.value()
	if err != nil {
		return member{}, err
	}
	_, err = parseValue(b, 1)
	return member{kind: mWhole}, err
}

// scanArray reads an array, gathering the table facts of its elements
// while they are all objects; it returns the number of elements and of
// scalar ones.
func (d *doc) scanArray(f *feed, t *table) (n, prims int, err error) {
	n, err = f.array(func(i int) error {
		c, _ := f.peek()
		if c == '{' && t.objects {
			return d.record(f, t, i)
		}
		t.objects = false
		if c != '{' && c != '[' {
			prims++
		}
		_, err := d.element(f, t.depth)
		return err
	})
	if n > d.maxElems {
		return n, prims, errFallback // the error names the container
	}
	t.n = n
	return n, prims, err
}

// scanKeyed reads an object, gathering the table facts of its member
// values while they are all objects; it returns the number of members.
func (d *doc) scanKeyed(f *feed, t *table) (int, error) {
	keys := make(map[string]struct{})
	n, err := f.object(func(i int, key string) error {
		if _, dup := keys[key]; dup {
			return errFallback
		}
		keys[key] = struct{}{}
		c, _ := f.peek()
		if c == '{' && t.objects {
			return d.record(f, t, i)
		}
		t.objects = false
		if c == '[' {
			// No keyed table: a section, whose arrays of containers
			// stream (stubs) when pass 2 reads it member by member.
			s, vb, err := d.scanStub(f, t.depth)
			if err == nil && s == nil {
				_, err = d.checked(vb, t.depth)
			}
			return err
		}
		_, err := d.element(f, t.depth)
		return err
	})
	if n > d.maxElems {
		return n, errFallback
	}
	t.n = n
	return n, err
}

// element reads and checks one value under the depth limit depth.
func (d *doc) element(f *feed, depth int) (any, error) {
	b, err := f.value()
	if err != nil {
		return nil, err
	}
	return d.checked(b, depth)
}

// checked parses and checks the value b under the depth limit depth.
func (d *doc) checked(b []byte, depth int) (any, error) {
	d.saw(len(b))
	v, err := parseValue(b, depth)
	if err != nil {
		return nil, err
	}
	if len(b) > d.maxElems && tooMany(v, d.maxElems) {
		return nil, errFallback // the error names the container by its path
	}
	return v, nil
}

// tooMany reports whether some container in v holds more than limit
// elements.
func tooMany(v any, limit int) bool {
	switch x := v.(type) {
	case gcf.Object:
		if len(x) > limit {
			return true
		}
		for i := range x {
			if tooMany(x[i].Value, limit) {
				return true
			}
		}
	case []any:
		if len(x) > limit {
			return true
		}
		for _, it := range x {
			if tooMany(it, limit) {
				return true
			}
		}
	}
	return false
}

// record reads record i of t and adds its facts: those of the layout
// rules that the buffered encoder gathers over all rows (newPlan,
// rowZeroSafe, sharedArrays, inlineSchema, flatLeaves, factor), each
// folded in row by row.
func (d *doc) record(f *feed, t *table, i int) error {
	o, ok, err := d.readRecord(f, t.depth, true)
	if err != nil {
		return err
	}
	if !ok {
		return errFallback
	}
	next := 0
	for j := range o {
		m := &o[j]
		t.cols = t.cols || layout.ColumnName(m.Key)
		if t.flatRecs && (isContainer(m.Value) || !layout.ColumnName(m.Key)) {
			t.flatRecs = false
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
		default:
			fd.other = true
		}
		if i == 0 {
			fd.v0, fd.same = m.Value, !isContainer(m.Value)
			fd.est = schemaArray(m.Value, true)
			fd.shared = layout.SharedStep(0, sharedRow(fd, 0, m.Value), true)
			if fd.inline = generic.InlineFirst(m.Value); fd.inline {
				fd.inline0 = m.Value.(gcf.Object)
			}
			continue
		}
		if fd.same && !encoder.SameScalar(fd.v0, m.Value, nil) {
			fd.same = false
		}
		if fd.est && t.safe && schemaArray(m.Value, false) {
			t.safe = false // would be an expanded `.f [N]` under row 0's schema
		}
		if fd.shared {
			fd.shared = layout.SharedStep(i, sharedRow(fd, i, m.Value), true)
		}
		if fd.inline && !generic.InlineFits(fd.inline0, m.Value) {
			fd.inline = false
		}
	}
	return nil
}

// decide takes the layout decisions of a table of n ≥ 1 records from its
// facts, through internal/layout, and reports whether the records make
// one table (else the array is expanded, the object sections).
func (t *table) decide() bool {
	if t.n == 0 || !layout.Tabular(t.objects, t.cols, func() bool { return t.safe }) {
		return false
	}
	for i := range t.fields {
		fd := &t.fields[i]
		fd.kind, fd.leaves, fd.attach = layout.PlanField(layout.Field{
			Name:    fd.name,
			Objects: fd.obj && !fd.other,
			Leaves:  func() int { return fd.flat.Leaves() },
			Shared:  func() bool { return fd.shared },
			Inline:  func() bool { return fd.inline },
		})
		if fd.kind != layout.Flattened {
			fd.first = nil
		}
		fd.flat, fd.shared0, fd.union0, fd.inline0 = nil, nil, nil, nil
	}
	if t.keyed {
		names := make([]string, len(t.fields))
		for i := range t.fields {
			names[i] = t.fields[i].name
		}
		t.label = layout.KeyLabel(names)
		t.width++
	}
	for i := range t.fields {
		switch fd := &t.fields[i]; fd.kind {
		case layout.Flattened:
			t.width += fd.leaves
		case layout.OneColumn:
			t.width++
		}
	}
	t.index = nil
	return true
}

// factor marks the constant columns (spec v3.6.0 §7.4.7) as layout.Factor
// decides: an ordinary column whose values are attached with their own
// schema is eligible, and constant when every record holds it with row
// 0's scalar.
func (t *table) factor() {
	cols := make([]layout.Column, 0, len(t.fields)+1)
	if t.keyed {
		cols = append(cols, layout.Column{})
	}
	for i := range t.fields {
		fd := &t.fields[i]
		switch {
		case fd.kind == layout.NoColumn:
		case fd.kind == layout.OneColumn && fd.attach == layout.OwnSchema:
			cols = append(cols, layout.Column{Eligible: true, Constant: fd.same && fd.count == t.n})
		default:
			cols = append(cols, layout.Column{})
		}
	}
	fac, _ := layout.Factor(t.n, cols, nil)
	c := 0
	if t.keyed {
		c++
	}
	for i := range t.fields {
		if t.fields[i].kind == layout.NoColumn {
			continue
		}
		t.fields[i].isConst = fac[c]
		c++
	}
}

// planFields is the table's plan for the buffered encoder's row writer.
func (t *table) planFields() []generic.PlanField {
	p := make([]generic.PlanField, len(t.fields))
	for i := range t.fields {
		fd := &t.fields[i]
		p[i] = generic.PlanField{Name: fd.name, Kind: fd.kind, Leaves: fd.leaves, Attach: fd.attach, Const: fd.isConst}
	}
	return p
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
