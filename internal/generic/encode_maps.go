package generic

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
)

// The map fast path of the canonical generic encoder: the map[string]any
// and []any values a JSON user holds (what json.Unmarshal into any gives)
// are laid out straight from the maps, without the ordered Object copy of
// normalize. A map's sorted key list is computed once per distinct key set
// and reused for every later map with the same keys (checked by length and
// lookups), and a table's rows are read once, their values kept on a
// scratch stack for the row pass.
//
// It handles sections of maps, inline primitive arrays, and tables of maps
// (arrays, and keyed maps) whose fields are scalars, one-level objects that
// flatten into `>` path columns, and arrays written as attachments
// (recursively, shared array schemas included). It writes exactly the bytes
// of the general path (normalize, then appendLayout) and never reports an
// error of its own: on any other shape (expanded arrays, sections whose
// members are all maps but make no table, attachments of objects,
// inline object schemas, '>'-named fields, values of other Go types), on
// every error (a limit, invalid UTF-8, a non-finite float, an unsigned
// integer above MaxInt64, an invalid json.Number) and when the nesting
// comes near the depth limit, it gives up and the general path runs from
// the start, producing that output or error as before.

// Value classes of the map path.
const (
	gmNull   = iota // nil, or a nil map (normalize makes it null)
	gmScalar        // a scalar of a Go type the general path accepts
	gmMap           // a non-nil map[string]any
	gmArr           // an []any (nil is the empty array)
	gmBad           // anything else: left to the general path
)

func gmClass(v any) int {
	switch x := v.(type) {
	case nil:
		return gmNull
	case string, float64, bool, int, int64, int32, int16, int8,
		uint, uint64, uint32, uint16, uint8, uintptr, float32, json.Number:
		return gmScalar
	case map[string]any:
		if x == nil {
			return gmNull
		}
		return gmMap
	case []any:
		return gmArr
	}
	return gmBad
}

// gmKeyset is one distinct sorted key list: gmWriter.keys[off : off+n].
type gmKeyset struct {
	off, n int
	gt     bool // some key contains '>' (tables leave it to the general path)
}

// gmRow is one row of a table: its map, key set and values (in key order)
// at gmWriter.vals[vb : vb+n].
type gmRow struct {
	m  map[string]any
	ks int
	vb int
}

// gmField is the layout of one field of a table's union.
type gmField struct {
	leaves int  // > 0: flattened into that many path columns
	sub    int  // flattened: the key set of the field's objects
	cur    int  // flattened: the next object's values on w.vals
	shared bool // array attachments share row 0's schema (sharedArrays)
	cnst   bool // a constant column (geEncoder.factor)
	sb, sn int  // shared: row 0's array union, w.strs[sb : sb+sn]
}

// gmPlan is the layout of one table while it is written; its slices live
// on the writer's stacks, named by offsets.
type gmPlan struct {
	rb, rn int      // rows: w.rows[rb : rb+rn]
	vb     int      // vals base, to pop
	mixed  bool     // rows have different key sets (else the union is row 0's)
	ub, un int      // union: w.strs[ub : ub+un]
	fb     int      // fields: w.fields[fb : fb+un]
	keys   []string // a keyed map's member keys, one per row (nil: an array)
	label  string   // a keyed map's key-column label (SPEC §7.2a.2)
}

// gmAtt is a pending array attachment of the current row.
type gmAtt struct {
	fi int
	a  []any
}

// gmWriter holds the map path's scratch stacks, reused through gmPool.
type gmWriter struct {
	e      *geEncoder
	keys   []string   // key set storage
	sets   []gmKeyset // distinct key sets of this encode
	rows   []gmRow
	vals   []any
	strs   []string // table unions
	fields []gmField
	att    []gmAtt
	seen   []int // key sets folded into a union
	limit  int   // value depth bound (see depthOK)
	giveUp bool  // a question could not be answered: leave v to the general path
}

var gmPool = sync.Pool{New: func() any { return new(gmWriter) }}

func putGM(w *gmWriter) {
	clear(w.keys)
	clear(w.rows)
	clear(w.vals) // popped values were cleared as they were popped
	clear(w.strs)
	clear(w.att)
	w.keys, w.sets, w.rows, w.vals = w.keys[:0], w.sets[:0], w.rows[:0], w.vals[:0]
	w.strs, w.fields, w.att, w.seen = w.strs[:0], w.fields[:0], w.att[:0], w.seen[:0]
	w.e, w.giveUp = nil, false
	if cap(w.vals) > 1<<20 || cap(w.keys) > 1<<16 || cap(w.rows) > 1<<20 {
		return // do not keep huge scratch space alive
	}
	gmPool.Put(w)
}

// appendMaps is the map fast path of appendGeneric; ok false means v is
// left to the general path (dst may have been written past its length).
func appendMaps(dst []byte, v any, lim Limits, v353 bool) (out []byte, ok bool) {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return dst, false
		}
	case []any:
	default:
		return dst, false
	}
	e := getGE()
	e.lim.Begin(lim, len(dst))
	e.v353 = v353
	e.buf = appendGenericHeader(dst)
	w := gmPool.Get().(*gmWriter)
	w.e = e
	// normalize counts the root as depth 0 and the encode fails when a
	// value's depth+1 exceeds MaxDepth (or its depth exceeds normMaxDepth);
	// the path gives up before any value gets that deep.
	w.limit = min(lim.MaxDepth, normMaxDepth+1)
	ok = e.lineDone() == nil && w.root(v)
	out = e.buf
	putGM(w)
	putGE(e)
	return out, ok
}

// depthOK reports whether a container at value depth d, and values two
// levels below it, are clear of the depth limits (a conservative bound:
// the general path would then not even compute the layout's depth).
func (w *gmWriter) depthOK(d int) bool { return d+3 <= w.limit }

func (w *gmWriter) root(v any) bool {
	e := w.e
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return true // header line only
		}
		if gmAllMaps(x) {
			e.buf = encoder.AppendSectionMark(e.buf)
			return w.keyed(x, 0, 0)
		}
		return w.members(x, 0, 0)
	case []any:
		e.buf = encoder.AppendSectionMark(e.buf)
		return w.arrayTail(x, 0, 0, tabOwn)
	}
	return false
}

// gmAllMaps reports whether m has two members or more, all non-nil maps:
// a keyed map if its values make a table (keyedOK), else a section, which
// this path leaves to the general one.
func gmAllMaps(m map[string]any) bool {
	if !layout.KeyedSize(len(m), layout.MinKeyed) {
		return false
	}
	for _, v := range m {
		if gmClass(v) != gmMap {
			return false
		}
	}
	return true
}

// resolve finds m's sorted key list among the key sets seen (trying hint
// first), or adds it, and pushes m's values in key order on w.vals. It
// returns the key set and the offset of the values.
func (w *gmWriter) resolve(m map[string]any, hint int) (ks, vb int) {
	n := len(m)
	vb = len(w.vals)
	if hint >= 0 && w.match(m, hint) {
		return hint, vb
	}
	// The last few key sets only: a scan of all of them would make many
	// distinct key sets quadratic.
	for s := len(w.sets) - 1; s >= 0 && s >= len(w.sets)-8; s-- {
		if s != hint && w.match(m, s) {
			return s, vb
		}
	}
	off := len(w.keys)
	gt := false
	for k := range m {
		w.keys = append(w.keys, k)
		gt = gt || !layout.ColumnName(k)
	}
	keys := w.keys[off:]
	slices.Sort(keys)
	w.sets = append(w.sets, gmKeyset{off: off, n: n, gt: gt})
	for _, k := range keys {
		w.vals = append(w.vals, m[k])
	}
	return len(w.sets) - 1, vb
}

// match pushes m's values in the order of key set s if m has exactly
// those keys; otherwise it pushes nothing and returns false.
func (w *gmWriter) match(m map[string]any, s int) bool {
	k := w.sets[s]
	if k.n != len(m) {
		return false
	}
	vb := len(w.vals)
	for _, key := range w.keys[k.off : k.off+k.n] {
		v, ok := m[key]
		if !ok {
			clear(w.vals[vb:])
			w.vals = w.vals[:vb]
			return false
		}
		w.vals = append(w.vals, v)
	}
	return true
}

func (w *gmWriter) keysOf(s int) []string {
	k := w.sets[s]
	return w.keys[k.off : k.off+k.n]
}

func (w *gmWriter) popVals(vb int) {
	clear(w.vals[vb:])
	w.vals = w.vals[:vb]
}

// members writes the members of the map m (a section body) at indentation
// d; vd is m's value depth.
func (w *gmWriter) members(m map[string]any, d, vd int) bool {
	e := w.e
	if !w.depthOK(vd) || !e.lim.ElementsOK(len(m)) {
		return false
	}
	ks, vb := w.resolve(m, -1)
	for j := 0; j < w.sets[ks].n; j++ {
		k := w.keys[w.sets[ks].off+j]
		v := w.vals[vb+j]
		switch gmClass(v) {
		case gmMap:
			x := v.(map[string]any)
			e.buf = encoder.AppendIndent(e.buf, d)
			e.buf = encoder.AppendSectionMark(e.buf)
			e.key(k)
			if gmAllMaps(x) {
				e.buf = encoder.AppendWordSep(e.buf)
				if !w.keyed(x, d, vd+1) {
					return false
				}
				continue
			}
			if e.nl() != nil || !w.members(x, d+1, vd+1) {
				return false
			}
		case gmArr:
			x := v.([]any)
			e.buf = encoder.AppendIndent(e.buf, d)
			prim, ok := gmAllPrimitive(x)
			if !ok {
				return false
			}
			if len(x) > 0 && prim {
				e.key(k)
				if !w.inline(x) {
					return false
				}
				continue
			}
			e.buf = encoder.AppendSectionMark(e.buf)
			e.key(k)
			e.buf = encoder.AppendWordSep(e.buf)
			if !w.arrayTail(x, d, vd+1, tabOwn) {
				return false
			}
		case gmBad:
			return false
		default:
			e.buf = encoder.AppendIndent(e.buf, d)
			e.key(k)
			e.buf = encoder.AppendAssign(e.buf)
			if !w.scalar(v, encoder.Value) || e.nl() != nil {
				return false
			}
		}
	}
	w.popVals(vb)
	return true
}

// gmAllPrimitive reports whether no element of a is a map or an array;
// ok is false if some element is of a type this path leaves alone.
func gmAllPrimitive(a []any) (prim, ok bool) {
	prim = true
	for _, v := range a {
		switch gmClass(v) {
		case gmMap, gmArr:
			prim = false
		case gmBad:
			return false, false
		}
	}
	return prim, true
}

// inline writes `[N]: v1,v2,...` and the line end for a non-empty
// all-primitive array.
func (w *gmWriter) inline(a []any) bool {
	e := w.e
	if e.count(len(a), false) != nil {
		return false
	}
	e.buf = encoder.AppendInlineMark(e.buf)
	for i, v := range a {
		e.buf = encoder.AppendItemLead(e.buf, i)
		if !w.scalar(v, encoder.Element) {
			return false
		}
	}
	return e.nl() == nil
}

// arrayTail writes an array at value depth vd from its count bracket on,
// its body at indentation bi: empty, inline, or a table of maps written as
// how says.
func (w *gmWriter) arrayTail(a []any, bi, vd int, how tabHow) bool {
	e := w.e
	if !w.depthOK(vd) {
		return false
	}
	prim, ok := gmAllPrimitive(a)
	if !ok {
		return false
	}
	// The table's plan decides whether the elements make one (Tabular),
	// and gives up where they do not.
	switch layout.ArrayForm(len(a), prim, nil) {
	case layout.Empty:
		e.buf = encoder.AppendEmptyArray(e.buf)
		return e.nl() == nil
	case layout.Inline:
		return w.inline(a)
	}
	return w.table(a, bi, how, vd, 0, 0, nil)
}

// keyed writes the map m, whose values are all maps, as a keyed map from
// its count bracket on (SPEC §7.2a), its rows at indentation bi; vd is m's
// value depth. Where its values do not make a table this path gives up
// (the general path writes a section).
func (w *gmWriter) keyed(m map[string]any, bi, vd int) bool {
	if !w.depthOK(vd) {
		return false
	}
	ks, vb := w.resolve(m, -1)
	// The values, in key order, are the rows; they stay on w.vals below
	// the table's own values until it is written.
	rows := w.vals[vb : vb+len(m) : vb+len(m)]
	if !w.table(rows, bi, tabOwn, vd, 0, 0, w.keysOf(ks)) {
		return false
	}
	w.popVals(vb)
	return true
}

// plan reads the rows of a (all non-nil maps, else false) and computes the
// layout of their table as newPlan would: the field union, flattened
// fields and shared array schemas. vd is a's value depth; keys, for a
// keyed map, are the rows' member keys.
func (w *gmWriter) plan(a []any, vd int, keys []string) (p gmPlan, ok bool) {
	if !w.depthOK(vd + 1) {
		return p, false
	}
	p.rb, p.rn, p.vb = len(w.rows), len(a), len(w.vals)
	p.keys = keys
	one, hint, cols := -1, -1, false
	for i, v := range a {
		m, isMap := v.(map[string]any)
		if !isMap || m == nil {
			return p, false // not tabular
		}
		ks, vb := w.resolve(m, hint)
		if w.sets[ks].gt {
			return p, false // '>'-named fields
		}
		cols = cols || len(m) > 0
		if i == 0 {
			one = ks
		} else if ks != one && !p.mixed {
			p.mixed = !slices.Equal(w.keysOf(ks), w.keysOf(one))
		}
		hint = ks
		w.rows = append(w.rows, gmRow{m: m, ks: ks, vb: vb})
	}
	if !layout.Tabular(true, cols, nil) {
		return p, false // rows of empty objects: expanded
	}
	p.ub = len(w.strs)
	if !p.mixed {
		w.strs = append(w.strs, w.keysOf(one)...)
	} else if !w.union(&p) {
		return p, false
	}
	p.un = len(w.strs) - p.ub
	p.fb = len(w.fields)
	for fi := 0; fi < p.un; fi++ {
		f := w.strs[p.ub+fi]
		hasObj, hasOther, hasArr := false, false, false
		for r := 0; r < p.rn; r++ {
			v, ok := w.get(&p, r, fi, f)
			if !ok {
				continue
			}
			switch gmClass(v) {
			case gmMap:
				hasObj = true
			case gmArr:
				hasOther, hasArr = true, true
			case gmScalar:
				hasOther = true
			case gmBad:
				return p, false
			}
		}
		if hasObj && hasOther {
			return p, false // objects as attachments
		}
		// '>'-named fields have left already (resolve), so a field without
		// containers is one column (PlanField is not asked); an object
		// that is not flattened would be an attachment, which is the
		// general path's.
		if !layout.Containers(hasObj, hasArr) {
			w.fields = append(w.fields, gmField{}) // one column of cells
			continue
		}
		var fl gmField
		kind, _, att := layout.PlanField(layout.Field{
			Name:    f,
			Objects: hasObj,
			Leaves: func() int {
				fl.cur = len(w.vals)
				var ok bool
				if fl.leaves, fl.sub, ok = w.flatten(&p, fi, f); !ok {
					return 0
				}
				return fl.leaves
			},
			Shared: func() bool {
				fl.sb = len(w.strs)
				fl.shared = w.shared(&p, fi, f)
				fl.sn = len(w.strs) - fl.sb
				return fl.shared
			},
		})
		if hasObj && kind != layout.Flattened || w.giveUp {
			return p, false
		}
		fl.shared = att == layout.SharedSchema
		w.fields = append(w.fields, fl)
	}
	if keys != nil {
		p.label = layout.KeyLabel(w.strs[p.ub : p.ub+p.un])
	}
	return p, true
}

// gmMaxUnion bounds the key sets folded into one union and the union's
// size: past it the path gives up rather than search linearly (the general
// path switches to a map there).
const gmMaxUnion = 64

// fold appends to w.strs[ub:] the keys of key set ks it does not hold yet,
// unless ks is among the key sets w.seen[sb:] already folded. It returns
// false past gmMaxUnion.
func (w *gmWriter) fold(ks, sb, ub int) bool {
	if slices.Contains(w.seen[sb:], ks) {
		return true
	}
	if len(w.seen)-sb >= gmMaxUnion {
		return false
	}
	w.seen = append(w.seen, ks)
next:
	for _, k := range w.keysOf(ks) {
		for _, u := range w.strs[ub:] {
			if u == k {
				continue next
			}
		}
		if len(w.strs)-ub >= gmMaxUnion {
			return false
		}
		w.strs = append(w.strs, k)
	}
	return true
}

// union computes the ordered field union of p's rows (SPEC §7.4.3) on
// w.strs: the key lists of the distinct key sets, in order of first
// appearance, each key where it first occurs. False: too large (fold).
func (w *gmWriter) union(p *gmPlan) bool {
	sb := len(w.seen)
	defer func() { w.seen = w.seen[:sb] }()
	for r := 0; r < p.rn; r++ {
		if !w.fold(w.rows[p.rb+r].ks, sb, p.ub) {
			return false
		}
	}
	return true
}

// get returns the value of field f (union index fi) in row r of p.
func (w *gmWriter) get(p *gmPlan, r, fi int, f string) (any, bool) {
	row := &w.rows[p.rb+r]
	if !p.mixed {
		return w.vals[row.vb+fi], true
	}
	v, ok := row.m[f]
	return v, ok
}

// flatten reports whether field f, whose present non-null values are all
// maps, flattens into path columns, as layout.Flat decides from the maps
// fed to it (on w.e.flat), and into how many; sub is the first map's key
// set. This writer flattens one level only: a map holding a map is left
// to the general path (not ok). The maps' values stay on w.vals, in row
// order, for the row pass.
func (w *gmWriter) flatten(p *gmPlan, fi int, f string) (leaves, sub int, ok bool) {
	fl := &w.e.flat
	fl.Reset()
	sub = -1
	for r := 0; r < p.rn && fl.OK(); r++ {
		v, present := w.get(p, r, fi, f)
		if !present || gmClass(v) == gmNull {
			continue
		}
		ks, kb := w.resolve(v.(map[string]any), sub)
		if sub < 0 {
			sub = ks
		}
		keys := w.keysOf(ks)
		fl.Object(len(keys))
		for i, x := range w.vals[kb:] {
			switch gmClass(x) {
			case gmScalar:
				fl.Leaf(keys[i], false)
			case gmNull:
				fl.Leaf(keys[i], true)
			default:
				fl.Fail() // an array, or a map: deeper objects are the general path's
			}
		}
		fl.Close()
	}
	leaves = fl.Leaves()
	return leaves, sub, leaves > 0
}

// shared reports whether field f's array attachments after row 0 omit
// their declaration (layout.SharedArrays, as sharedArrays asks it): row 0
// holds flat records for f, and so does every row holding f with a
// non-null value, with row 0's union. Row 0's union stays on w.strs.
// Later rows are only checked to hold non-empty arrays of maps here: the
// rest (scalar values, the same union) is checked as each is written
// (table with tabShared), and the path gives up there if it fails.
func (w *gmWriter) shared(p *gmPlan, fi int, f string) bool {
	return layout.SharedArrays(p.rn, func(r int) layout.ArrayRow {
		v, ok := w.get(p, r, fi, f)
		if !ok || gmClass(v) == gmNull {
			return layout.NoArray
		}
		a, isArr := v.([]any)
		switch {
		case !isArr:
			return layout.OtherArray
		case r == 0:
			ub := len(w.strs)
			if !w.flatUnion(a) {
				clear(w.strs[ub:])
				w.strs = w.strs[:ub]
				return layout.OtherArray
			}
		case len(a) == 0:
			return layout.OtherArray
		default:
			for _, x := range a {
				if gmClass(x) != gmMap {
					return layout.OtherArray
				}
			}
		}
		return layout.FlatArray
	})
}

// flatUnion pushes the ordered field union of a on w.strs if a is flat
// records (geFlatRecords): non-empty, all non-nil maps with scalar or null
// values and no '>' in their keys, some map not empty.
//
// A union too large to compute (fold) sets w.giveUp: the answer is then
// unknown, and the encode is left to the general path.
func (w *gmWriter) flatUnion(a []any) bool {
	if len(a) == 0 {
		return false
	}
	vb, ub, sb := len(w.vals), len(w.strs), len(w.seen)
	defer func() {
		w.popVals(vb)
		w.seen = w.seen[:sb]
	}()
	hint, keys := -1, false
	for _, v := range a {
		m, ok := v.(map[string]any)
		if !ok || m == nil {
			return false
		}
		ks, kb := w.resolve(m, hint)
		if w.sets[ks].gt {
			return false
		}
		for _, x := range w.vals[kb:] {
			if c := gmClass(x); c != gmScalar && c != gmNull {
				return false
			}
		}
		w.popVals(kb)
		if !w.fold(ks, sb, ub) {
			w.giveUp = true
			return false
		}
		hint = ks
		keys = keys || len(m) > 0
	}
	return keys
}

// table writes a tabular array of maps from its count bracket on, its rows
// at indentation bi, as how says (see geEncoder.table); tabShared: without
// its declaration, under row 0's shared array schema.
//
// Under a shared schema the rows must be flat records with the union
// w.strs[sb : sb+sn], as shared assumed; if they are not, the path gives
// up.
func (w *gmWriter) table(a []any, bi int, how tabHow, vd, sb, sn int, keys []string) bool {
	e := w.e
	p, ok := w.plan(a, vd, keys)
	if !ok || e.count(len(a), keys != nil) != nil {
		return false
	}
	if how == tabOwn && !e.v353 {
		w.factor(&p)
	}
	if how == tabShared {
		if !slices.Equal(w.strs[p.ub:p.ub+p.un], w.strs[sb:sb+sn]) {
			return false
		}
		for _, x := range w.vals[p.vb:] {
			if c := gmClass(x); c != gmScalar && c != gmNull {
				return false
			}
		}
	} else if n, ok := w.decl(&p); !ok || !e.lim.FieldsOK(n) {
		return false
	}
	if e.nl() != nil || !w.rowsOut(&p, bi, vd) {
		return false
	}
	clear(w.rows[p.rb:])
	w.rows = w.rows[:p.rb]
	w.popVals(p.vb)
	clear(w.strs[p.ub:])
	w.strs = w.strs[:p.ub]
	w.fields = w.fields[:p.fb]
	return true
}

// decl writes `{fields}` and returns the number of fields declared; false
// if a constant's value cannot be written.
func (w *gmWriter) decl(p *gmPlan) (int, bool) {
	e := w.e
	open := len(e.buf)
	e.buf = encoder.AppendDeclOpen(e.buf)
	n := 0
	if p.keys != nil {
		e.key(p.label)
		e.buf = encoder.AppendFieldSep(e.buf)
		n++
	}
	for fi := 0; fi < p.un; fi++ {
		f := w.strs[p.ub+fi]
		fl := &w.fields[p.fb+fi]
		if fl.leaves == 0 {
			e.key(f)
			if fl.cnst {
				v, _ := w.get(p, 0, fi, f)
				e.buf = encoder.AppendAssign(e.buf)
				if !w.scalar(v, encoder.Const) {
					return n, false
				}
			}
			e.buf = encoder.AppendFieldSep(e.buf)
			n++
			continue
		}
		n += fl.leaves
		e.path = e.escaped(e.path[:0], f)
		mark := len(e.path)
		for _, k := range w.keysOf(fl.sub) {
			e.path = append(e.path[:mark], '>')
			e.path = e.escaped(e.path, k)
			e.buf = encoder.AppendPathField(e.buf, e.path)
		}
	}
	e.buf = encoder.EndConstDecl(e.buf, open)
	return n, true
}

// rowsOut writes the rows of p and their array attachments.
func (w *gmWriter) rowsOut(p *gmPlan, bi, vd int) bool {
	e := w.e
	for r := 0; r < p.rn; r++ {
		e.buf = encoder.AppendIndent(e.buf, bi)
		rs := len(e.buf)
		ab := len(w.att)
		if p.keys != nil {
			e.str(p.keys[r], encoder.Cell)
			e.buf = encoder.AppendCellSep(e.buf)
		}
		for fi := 0; fi < p.un; fi++ {
			fl := &w.fields[p.fb+fi]
			if fl.cnst {
				continue // in the declaration
			}
			f := w.strs[p.ub+fi]
			v, ok := w.get(p, r, fi, f)
			if n := fl.leaves; n > 0 {
				switch {
				case !ok:
					e.repeatCell('~', n)
				case gmClass(v) == gmNull:
					e.repeatCell('-', n)
				default:
					for _, x := range w.vals[fl.cur : fl.cur+n] {
						if !w.scalar(x, encoder.Cell) {
							return false
						}
						e.buf = encoder.AppendCellSep(e.buf)
					}
					fl.cur += n
				}
				continue
			}
			switch {
			case !ok:
				e.buf = encoder.AppendMissing(e.buf)
			default:
				if x, isArr := v.([]any); isArr {
					e.buf = encoder.AppendAttachMark(e.buf)
					w.att = append(w.att, gmAtt{fi, x})
				} else if !w.scalar(v, encoder.Cell) {
					return false
				}
			}
			e.buf = encoder.AppendCellSep(e.buf)
		}
		e.buf = encoder.EndLine(e.buf)
		if len(w.att) > ab {
			e.insertRowID(rs, r)
		}
		if e.lineDone() != nil {
			return false
		}
		for j := ab; j < len(w.att); j++ {
			at := w.att[j]
			e.buf = encoder.AppendIndent(e.buf, bi)
			e.buf = encoder.AppendAttachDot(e.buf)
			e.key(w.strs[p.ub+at.fi])
			e.buf = encoder.AppendWordSep(e.buf)
			var ok bool
			if fl := &w.fields[p.fb+at.fi]; r > 0 && fl.shared {
				ok = w.table(at.a, bi+2, tabShared, vd+2, fl.sb, fl.sn, nil)
			} else {
				ok = w.arrayTail(at.a, bi+2, vd+2, tabAttached)
			}
			if !ok {
				return false
			}
		}
		clear(w.att[ab:])
		w.att = w.att[:ab]
	}
	return true
}

// factor marks the constant columns of p (cnst), as geEncoder.factor
// does: layout.Factor over the facts of each column, eligible when it is
// not flattened, constant when every row holds it with the same scalar.
func (w *gmWriter) factor(p *gmPlan) {
	if p.rn < 2 {
		return
	}
	e := w.e
	cols := e.cols[:0]
	if p.keys != nil {
		cols = append(cols, layout.Column{})
	}
	for fi := 0; fi < p.un; fi++ {
		if w.fields[p.fb+fi].leaves > 0 {
			cols = append(cols, layout.Column{})
			continue
		}
		cols = append(cols, layout.Column{Eligible: true, Constant: w.constant(p, fi)})
	}
	fac, any := layout.Factor(p.rn, cols, e.fac[:0])
	e.cols, e.fac = cols[:0], fac[:0]
	if !any {
		return
	}
	c := 0
	if p.keys != nil {
		c++
	}
	for fi := 0; fi < p.un; fi++ {
		w.fields[p.fb+fi].cnst = fac[c+fi]
	}
}

// constant reports whether field fi of p holds the same scalar (or null)
// in every row, stopping at the first row that differs.
func (w *gmWriter) constant(p *gmPlan, fi int) bool {
	f := w.strs[p.ub+fi]
	v0, ok := w.get(p, 0, fi, f)
	if !ok {
		return false
	}
	c0 := gmClass(v0)
	if c0 != gmScalar && c0 != gmNull {
		return false
	}
	for r := 1; r < p.rn; r++ {
		v, ok := w.get(p, r, fi, f)
		if !ok {
			return false
		}
		switch c := gmClass(v); {
		case c == gmNull && c0 == gmNull:
		case c != c0 || !encoder.SameScalar(v0, v, appendScalar):
			return false
		}
	}
	return true
}

// scalar appends a scalar as the general path writes its normalized form
// (through appendScalar, the one scalar-cell writer); false for anything
// it would reject or that is not a scalar.
func (w *gmWriter) scalar(v any, ctx encoder.Context) bool {
	e := w.e
	// The kinds encoding/json decodes into, kept off the call into the
	// shared writer (A/B: BenchmarkPeers/Employees/Encode,
	// docs/benchmarks.md); both write through the encoder's primitives.
	switch x := v.(type) {
	case string:
		e.str(x, ctx)
		return true
	case float64:
		var err error
		e.buf, err = encoder.AppendFloat(e.buf, x)
		return err == nil
	}
	out, ok, err := encoder.AppendScalar(e.buf, v, ctx)
	if !ok {
		if m, isMap := v.(map[string]any); isMap {
			if m != nil {
				return false
			}
			e.buf = encoder.AppendNull(e.buf)
			return true
		}
		out, ok, err = appendModelScalar(e.buf, v, ctx)
	}
	e.buf = out
	return ok && err == nil
}
