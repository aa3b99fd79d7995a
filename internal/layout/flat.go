package layout

// Flat decides whether the objects of one field flatten into `>` path
// columns (SPEC §7.4.6), and into how many, from what a row source feeds
// it: each present object in turn, its members depth first. This is the
// one statement of the rule; every row source feeds it.
//
// The rule: every object, at every level, has at least one member; all
// the objects share the first one's ordered key list, and each key is
// FlatKey; under each key the values are all scalars or null, or all
// objects that flatten by the same rule (an intermediate object that is
// null or absent in some row would be lost); and no object at any level
// has only null leaves (its columns would all read `-` and decode as a
// null object, SPEC §7.4.6.2 rule 5). The leaf count is the number of
// scalar-or-null members of the first object's tree.
//
// A source feeds one object as Object(n), then for each of its n members
// in order Leaf (a scalar or null value) or Nested(key, m) followed by
// the nested object's m members and Close, then Close. A member that
// holds anything else (an array), or a fact the source vetoes on its own,
// is Fail. Calls after the answer is known to be no are ignored, so a
// source may stop feeding early (OK). The zero value is ready; Reset
// makes a Flat ready again, keeping its storage.
type Flat struct {
	shape  []flatNode // the first object's tree, in preorder
	open   []bool     // the objects open now: a non-null leaf seen under each
	pos    int        // the next node of shape an object fed now must match
	objs   int        // objects fed
	leaves int        // the first object's leaves
	failed bool
}

// flatNode is one node of the first object's tree: a member key and, for
// an object, its member count (n > 0), or a leaf (n < 0).
type flatNode struct {
	key string
	n   int
}

// Reset makes f ready for another field.
func (f *Flat) Reset() {
	clear(f.shape)
	f.shape, f.open = f.shape[:0], f.open[:0]
	f.pos, f.objs, f.leaves, f.failed = 0, 0, 0, false
}

// Cap is the number of nodes f's storage holds, for a pool deciding
// whether to keep it.
func (f *Flat) Cap() int { return cap(f.shape) }

// OK reports whether the objects fed so far may still flatten.
func (f *Flat) OK() bool { return !f.failed }

// Fail records that the objects do not flatten.
func (f *Flat) Fail() { f.failed = true }

// Leaves returns the number of path columns the objects fed flatten
// into, or 0 if they do not (or none was fed).
func (f *Flat) Leaves() int {
	if f.failed || f.objs == 0 || len(f.open) != 0 {
		return 0
	}
	return f.leaves
}

// Object starts the next present object, of n members.
func (f *Flat) Object(n int) {
	if f.failed {
		return
	}
	f.objs++
	f.pos = 0
	f.open = f.open[:0]
	f.node("", n)
}

// Nested is the next member of the open object: key, whose value is an
// object of n members; they follow, then Close.
func (f *Flat) Nested(key string, n int) {
	if f.failed {
		return
	}
	if f.objs == 1 && !FlatKey(key) {
		f.failed = true
		return
	}
	f.node(key, n)
}

func (f *Flat) node(key string, n int) {
	if n <= 0 {
		f.failed = true
		return
	}
	if f.objs == 1 {
		f.shape = append(f.shape, flatNode{key, n})
	} else if f.pos >= len(f.shape) || f.shape[f.pos] != (flatNode{key, n}) {
		f.failed = true
		return
	}
	f.pos++
	f.open = append(f.open, false)
}

// Leaf is the next member of the open object: key, whose value is a
// scalar, or null.
func (f *Flat) Leaf(key string, null bool) {
	if f.failed {
		return
	}
	if f.objs == 1 {
		if !FlatKey(key) {
			f.failed = true
			return
		}
		f.shape = append(f.shape, flatNode{key, -1})
		f.leaves++
	} else if f.pos >= len(f.shape) || f.shape[f.pos] != (flatNode{key, -1}) {
		f.failed = true
		return
	}
	f.pos++
	if !null {
		f.open[len(f.open)-1] = true
	}
}

// Close ends the open object.
func (f *Flat) Close() {
	if f.failed {
		return
	}
	top := len(f.open) - 1
	if !f.open[top] {
		f.failed = true // only null leaves
		return
	}
	f.open = f.open[:top]
	if top > 0 {
		f.open[top-1] = true
	} else if f.pos != len(f.shape) {
		f.failed = true
	}
}
