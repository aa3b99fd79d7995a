package generic

// The table layout of the general encoder: the field union and each
// field's kind (newPlan), constant columns (factor), shared array schemas,
// inline schemas and flattening.

import (
	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
)

// Value classes of a field over all rows, gathered with the union.
const (
	geHasObject int32 = 1 // some row holds a (non-null) object
	geHasOther  int32 = 2 // some row holds a non-null scalar or an array
)

// newPlan computes the layout of a tabular container and pushes it on the
// scratch stacks: the ordered field union (SPEC §7.4.3), the kind of each
// field (column, flattened, '>'-named), its flags (geShared, geInline) and, for a
// keyed map, the key-column label (SPEC §7.2a.2).
func (e *geEncoder) newPlan(src geRows) gePlan {
	p := gePlan{src: src, ub: len(e.strs), kb: len(e.kinds), fb: len(e.flags)}
	n := src.len()
	var seen map[string]int
	for i := 0; i < n; i++ {
		row := src.at(i)
		next := 0 // union index after the previous member's
		for j := range row {
			k := row[j].Key
			un := len(e.strs) - p.ub
			ui := -1
			switch {
			case next < un && e.strs[p.ub+next] == k:
				ui = next // rows usually follow the union order
			case seen != nil:
				if x, ok := seen[k]; ok {
					ui = x
				}
			default:
				for x, s := range e.strs[p.ub:] {
					if s == k {
						ui = x
						break
					}
				}
			}
			if ui < 0 {
				ui = un
				e.strs = append(e.strs, k)
				e.kinds = append(e.kinds, 0)
				if seen != nil {
					seen[k] = ui
				} else if un+1 > 32 {
					if e.seen == nil {
						e.seen = make(map[string]int, 64)
					}
					// e.seen is shared scratch; nested plans are built only
					// after this loop ends, so it is free to reuse here.
					seen = e.seen
					clear(seen)
					for x, s := range e.strs[p.ub:] {
						seen[s] = x
					}
				}
			}
			next = ui + 1
			switch row[j].Value.(type) {
			case nil:
			case Object:
				e.kinds[p.kb+ui] |= geHasObject
			default:
				e.kinds[p.kb+ui] |= geHasOther
			}
		}
	}
	if seen != nil {
		clear(seen)
	}
	p.un = len(e.strs) - p.ub
	for fi := 0; fi < p.un; fi++ {
		f := e.strs[p.ub+fi]
		kind, leaves, att := layout.PlanField(layout.Field{
			Name:    f,
			Objects: e.kinds[p.kb+fi] == geHasObject, // only objects (and nulls)
			Leaves: func() int {
				if n := e.flatLeaves(src, f, fi); n > 0 && e.pol.flatten(src, f) {
					return n
				}
				return 0
			},
			Shared: func() bool { return e.pol.shared(e, src, f, fi) },
			Inline: func() bool { return e.inlineSchema(src, f, fi) && e.pol.inline(src, f) },
		})
		var fl uint8
		switch kind {
		case layout.NoColumn:
			e.kinds[p.kb+fi] = geExcluded
		case layout.Flattened:
			e.kinds[p.kb+fi] = int32(leaves)
		default:
			e.kinds[p.kb+fi] = geColumn
		}
		switch att {
		case layout.SharedSchema:
			fl = geShared
		case layout.InlineSchema:
			fl = geInline
		}
		e.flags = append(e.flags, fl)
	}
	if src.keyed {
		p.label = layout.KeyLabel(e.strs[p.ub : p.ub+p.un])
	}
	return p
}

// factor marks the constant columns of p geConst, as layout.Factor
// decides from the facts gathered here: a column is eligible when it is
// one ordinary column (not flattened, '>'-named, nor set for inline or
// shared schemas; a keyed map's label column never is), constant when
// every row holds it with the same scalar (encoder.SameScalar). The scan
// of a column stops at its first difference. The Smallest size may keep
// the table unfactored (sizer.factor).
func (e *geEncoder) factor(p *gePlan) {
	n := p.src.len()
	if n < 2 {
		return
	}
	cols := e.cols[:0]
	if p.src.keyed {
		cols = append(cols, layout.Column{})
	}
	for fi := 0; fi < p.un; fi++ {
		switch k := e.kinds[p.kb+fi]; {
		case k == geExcluded:
			continue // no column
		case k == geColumn && e.flags[p.fb+fi] == 0:
			f := e.strs[p.ub+fi]
			cols = append(cols, layout.Column{Eligible: true, Constant: e.constant(p.src, f, fi)})
		default:
			cols = append(cols, layout.Column{})
		}
	}
	fac, any := layout.Factor(n, cols, e.fac[:0])
	e.cols, e.fac = cols[:0], fac[:0]
	if !any || !e.pol.factor(p.src) {
		return
	}
	c := 0
	if p.src.keyed {
		c++
	}
	for fi := 0; fi < p.un; fi++ {
		if e.kinds[p.kb+fi] == geExcluded {
			continue
		}
		if fac[c] {
			e.flags[p.fb+fi] |= geConst
		}
		c++
	}
}

// constant reports whether field f (union index fi) holds the same scalar
// in every row of src.
func (e *geEncoder) constant(src geRows, f string, fi int) bool {
	v0, ok, _ := geLookup(src.at(0), f, fi)
	if !ok || geIsContainer(v0) {
		return false
	}
	n := src.len()
	for i := 1; i < n; i++ {
		v, ok, _ := geLookup(src.at(i), f, fi)
		if !ok || !encoder.SameScalar(v0, v, appendScalar) {
			return false // a container is never the same as a scalar
		}
	}
	return true
}

// popPlan releases the scratch space of p.
func (e *geEncoder) popPlan(p *gePlan) {
	clear(e.strs[p.ub:])
	e.strs = e.strs[:p.ub]
	e.kinds = e.kinds[:p.kb]
	e.flags = e.flags[:p.fb]
}

// sharedArrays reports whether field f (union index fi) of a tabular
// container omits `{fields}` from its array attachments after row 0, under
// the shared array schema row 0 establishes: layout.SharedArrays over its
// rows, flat records being geFlatRecords with row 0's union (geSameUnion).
// One condition is ours: no field of the union contains '>'. A
// '>'-named field has no column of the declaration (SPEC §7.4.6.1 rule 4),
// so those arrays keep their complete declaration (the reference writes
// the '>' field as an extra cell, a row wider than the schema:
// docs/interop.md).
func (e *geEncoder) sharedArrays(src geRows, f string, fi int) bool {
	var first []any
	return layout.SharedArrays(src.len(), func(i int) layout.ArrayRow {
		v, ok, _ := geLookup(src.at(i), f, fi)
		if !ok || v == nil {
			return layout.NoArray
		}
		a, ok := v.([]any)
		switch {
		case !ok || !geFlatRecords(a):
			return layout.OtherArray
		case i == 0:
			first = a
		case !geSameUnion(first, a):
			return layout.OtherArray
		}
		return layout.FlatArray
	})
}

// geFlatRecords reports whether a is a non-empty array of objects whose
// field union is non-empty and free of '>', and whose members are all
// scalars or null.
func geFlatRecords(a []any) bool {
	if len(a) == 0 {
		return false
	}
	keys := false
	for _, v := range a {
		o, ok := v.(Object)
		if !ok {
			return false
		}
		for i := range o {
			if geIsContainer(o[i].Value) || !layout.ColumnName(o[i].Key) {
				return false
			}
		}
		keys = keys || len(o) > 0
	}
	return keys
}

// geSameUnion reports whether two arrays of objects have the same ordered
// field union (SPEC §7.4.3). It allocates only for unions of more than 16
// fields.
func geSameUnion(a, b []any) bool {
	var buf [2][16]string
	ua, ub := geUnion(a, buf[0][:0]), geUnion(b, buf[1][:0])
	if len(ua) != len(ub) {
		return false
	}
	for i := range ua {
		if ua[i] != ub[i] {
			return false
		}
	}
	return true
}

// geUnion appends the ordered field union of the objects in a to dst. It
// searches dst linearly while the union is small and through a map once it
// holds more than 16 fields, so wide records stay linear.
func geUnion(a []any, dst []string) []string {
	var seen map[string]struct{}
	for _, v := range a {
		o := v.(Object)
	next:
		for i := range o {
			k := o[i].Key
			if seen != nil {
				if _, ok := seen[k]; ok {
					continue
				}
				seen[k] = struct{}{}
			} else {
				for _, u := range dst {
					if u == k {
						continue next
					}
				}
				if len(dst) == 16 {
					seen = make(map[string]struct{}, 64)
					for _, u := range dst {
						seen[u] = struct{}{}
					}
					seen[k] = struct{}{}
				}
			}
			dst = append(dst, k)
		}
	}
	return dst
}

// inlineSchema reports whether field f (union index fi, an ordinary column
// that is not flattened) takes the inline object schema of SPEC §7.4.5.1.
// The spec makes it a MAY; we use it exactly where the reference SDK does,
// which is where flattening (SPEC §7.4.6) is not allowed although every
// object is flat: a key that is empty or holds '>', or an object whose
// leaves are all null. The conditions are the spec's: row 0 holds a
// non-null object for f; every row holds an object or nothing (a present
// null makes the field ineligible, SPEC §7.4.5.1; the reference writes `-`
// there, docs/interop.md); every object has the same keys in the same
// order, at least three of them, and only scalar or null members.
func (e *geEncoder) inlineSchema(src geRows, f string, fi int) bool {
	v, ok, _ := geLookup(src.at(0), f, fi)
	if !ok {
		return false
	}
	first, ok := v.(Object)
	if !ok || len(first) < layout.InlineSchemaMinKeys {
		return false
	}
	for j := range first {
		if geIsContainer(first[j].Value) {
			return false
		}
	}
	n := src.len()
	for i := 1; i < n; i++ {
		v, ok, _ := geLookup(src.at(i), f, fi)
		if !ok {
			continue
		}
		o, isObj := v.(Object)
		if !isObj || len(o) != len(first) {
			return false
		}
		for j := range o {
			if o[j].Key != first[j].Key || geIsContainer(o[j].Value) {
				return false
			}
		}
	}
	return true
}

// flatLeaves returns the number of leaf columns field f flattens into
// (SPEC §7.4.6), or 0 if it stays one column. f is non-empty and has no
// '>'. Every present non-null value must be an object (newPlan only asks
// for such fields), there must be at least one, and flatLevel must accept
// them.
func (e *geEncoder) flatLeaves(src geRows, f string, fi int) int {
	base := len(e.objs)
	n := src.len()
	for i := 0; i < n; i++ {
		v, ok, _ := geLookup(src.at(i), f, fi)
		if !ok || v == nil {
			continue
		}
		o, isObj := v.(Object)
		if !isObj {
			e.popObjs(base)
			return 0
		}
		e.objs = append(e.objs, o)
	}
	leaves := e.flatLevel(base, true)
	e.popObjs(base)
	return leaves
}

func (e *geEncoder) popObjs(base int) {
	clear(e.objs[base:])
	e.objs = e.objs[:base]
}

// flatLevel checks that the objects e.objs[base:] (all present, non-null)
// can be flattened together and returns their leaf count, or 0. They must
// share one non-empty ordered key list whose keys are non-empty and free of
// '>'; under each key the values must be all scalars (null allowed) or all
// objects that recursively satisfy the same rules (an intermediate object
// that is null or absent in some row would be lost). No object, at any
// level, may have only null leaves: its columns would all read `-` and
// decode as a null object (SPEC §7.4.6.2 rule 5), so such data keeps
// attachments. nullCheck (set at the top level) checks that for the whole
// subtrees at once.
func (e *geEncoder) flatLevel(base int, nullCheck bool) int {
	top := len(e.objs)
	if top == base {
		return 0
	}
	first := e.objs[base]
	if len(first) == 0 {
		return 0
	}
	for j := range first {
		if !layout.FlatKey(first[j].Key) {
			return 0
		}
	}
	for k := base + 1; k < top; k++ {
		o := e.objs[k]
		if len(o) != len(first) {
			return 0
		}
		for j := range o {
			if o[j].Key != first[j].Key {
				return 0
			}
		}
	}
	leaves := 0
	for j := range first {
		switch first[j].Value.(type) {
		case Object:
			for k := base; k < top; k++ {
				sub, ok := e.objs[k][j].Value.(Object)
				if !ok {
					e.popObjs(top)
					return 0
				}
				e.objs = append(e.objs, sub)
			}
			n := e.flatLevel(top, false)
			e.popObjs(top)
			if n == 0 {
				return 0
			}
			leaves += n
		case []any:
			return 0
		default:
			for k := base + 1; k < top; k++ {
				if geIsContainer(e.objs[k][j].Value) {
					return 0
				}
			}
			leaves++
		}
	}
	if nullCheck {
		// Checked last, so only shapes that flatten are walked.
		for k := base; k < top; k++ {
			if _, bad := geNullTree(e.objs[k]); bad {
				return 0
			}
		}
	}
	return leaves
}

// geNullTree reports whether every scalar reachable through o's nested
// objects is null (allNull), and whether o or some object nested in it has
// only null leaves (bad). o holds only objects and scalars when this is
// asked.
func geNullTree(o Object) (allNull, bad bool) {
	allNull = true
	for i := range o {
		switch x := o[i].Value.(type) {
		case nil:
		case Object:
			a, b := geNullTree(x)
			if b {
				return false, true
			}
			if !a {
				allNull = false
			}
		default:
			allNull = false
		}
	}
	return allNull, allNull
}
