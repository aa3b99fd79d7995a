package generic

// The fill plans of the typed decoder: how the rows of one table
// declaration fill one struct type, built once per (declaration, type) and
// used by decode_typed.go and decode_direct.go.

import (
	"fmt"
	"reflect"

	"github.com/gcfkit/gcf/internal/box"
)

// tableFill is how the rows of one table declaration fill one struct type:
// a node per top-level column, in the order the tree path assigns them.
type tableFill struct {
	typ   reflect.Type
	nodes []fillNode
	leaf  [][]fillStep // per column: the way from the row to its field (nil: no field)
	rank  []int        // per column: its place in the order the tree path assigns the row's members

	// direct is the plan of directRow, per column, or nil when some column
	// needs the general row (a pointer path object, a pointer or interface
	// field, ...): see buildDirect.
	direct []directOp

	// shared is, per column (nil when none has one), how the column's
	// attachment tables of the table's shared array schema fill their
	// field, when it is a slice of structs reached without a pointer
	// (typedDecoder.attachShared).
	shared []sharedFill
}

// sharedFill is how the attachment tables of one column that share their
// table's array schema (SPEC §7.4.5.3) fill the column's field: its slice
// type (nil: not such a field), and the plans for the schema seen last.
type sharedFill struct {
	typ  reflect.Type
	decl [][]byte   // the stream's shared schema p and f were made for (kept: its address is not reused)
	p    *tablePlan // the plan of decl
	f    *tableFill // how decl's rows fill typ's elements; nil: the event path
}

// directOp is how directRow treats the cells of one column.
type directOp struct {
	mode uint8        // opSkip, opStore or opAttach
	kind reflect.Kind // opStore: n.kind (Invalid otherwise)
	n    *fillNode    // opStore, opAttach: the leaf node (its kind, its type)
	off  uintptr      // opStore, opAttach: the field's offset from the row's start
}

const (
	opSkip   uint8 = iota // no field: the cell is dropped (the stream has checked it)
	opStore               // a plain scalar field, stored at off
	opAttach              // a field an attachment fills: the cell is a marker or absent
)

// fillNode is one column, or one object rebuilt from `>` path columns, and
// the struct field it fills (idx nil: none, the column is ignored).
type fillNode struct {
	col        int     // leaf column, or -1 for a path object
	c          *column // the plan's node, for the state of a path object
	idx        []int
	typ        reflect.Type
	code, elem uint8
	ptr        bool // path object: the field is a pointer to the struct
	kind       reflect.Kind
	off        uintptr    // the field's offset in its struct
	direct     bool       // a column into a plain scalar field: stored at off
	children   []fillNode // path object
}

// fillStep is one field on the way to a column's field.
type fillStep struct {
	idx []int
	ptr bool // a pointer to a struct, allocated when nil
}

// fill returns the plan filling struct type st from this table's rows, or
// nil when the tree path must do it: a path column into anything but a
// struct, or two columns into one field (the order of their assignments
// would then matter).
func (p *tablePlan) fill(st reflect.Type) *tableFill {
	if p.lastFill != nil && p.lastFill.typ == st {
		return p.lastFill
	}
	f, ok := p.fills[st]
	if !ok {
		f = buildFill(st, p)
		if p.fills == nil {
			p.fills = make(map[reflect.Type]*tableFill)
		}
		if len(p.fills) < 64 {
			p.fills[st] = f
		}
	}
	if f != nil {
		p.lastFill = f
	}
	return f
}

func buildFill(st reflect.Type, p *tablePlan) *tableFill {
	f := &tableFill{typ: st, leaf: make([][]fillStep, len(p.fieldNames)), rank: make([]int, len(p.fieldNames))}
	nodes, ok := fillNodes(st, p.cols, nil, f)
	if !ok {
		return nil
	}
	f.nodes = nodes
	if !box.Purego {
		f.direct = make([]directOp, len(p.fieldNames))
		if !buildDirect(f.direct, nodes, 0) {
			f.direct = nil
		}
		for j, op := range f.direct {
			if op.mode != opAttach {
				continue
			}
			if t := op.n.typ; t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct &&
				!valuePlanFor(t).viaJSON && !valuePlanFor(t.Elem()).viaJSON {
				if f.shared == nil {
					f.shared = make([]sharedFill, len(f.direct))
				}
				f.shared[j].typ = t
			}
		}
	}
	n := 0
	var walk func([]*column)
	walk = func(cols []*column) {
		for _, c := range cols {
			if c.col >= 0 {
				f.rank[c.col] = n
				n++
			}
			walk(c.children)
		}
	}
	walk(p.cols)
	return f
}

// buildDirect fills ops (per column) from nodes, the nodes of a struct
// that starts at base in the row. It reports false when a column needs the
// general row: directRow then is not used for the table.
//
// A path object into a struct value (not a pointer) is flattened: its
// columns are stored at their offsets like the row's own. That is what
// the tree path leaves too: an object of null or absent members assigns
// nothing to a struct, and a member that is null or absent assigns nothing
// to its scalar field.
func buildDirect(ops []directOp, nodes []fillNode, base uintptr) bool {
	for i := range nodes {
		n := &nodes[i]
		if n.idx == nil {
			continue // no field: the columns below stay opSkip
		}
		if n.col >= 0 {
			switch {
			case n.direct:
				ops[n.col] = directOp{mode: opStore, kind: n.kind, n: n, off: base + n.off}
			case attachTarget(n.typ):
				ops[n.col] = directOp{mode: opAttach, n: n, off: base + n.off}
			default:
				return false
			}
			continue
		}
		if n.ptr {
			return false
		}
		if !buildDirect(ops, n.children, base+n.off) {
			return false
		}
	}
	return true
}

// attachTarget reports whether a column into a field of type t takes its
// value from an attachment in valid rows of the encoder's making (a
// slice, map or struct), so that its cell is a marker, absent or null.
func attachTarget(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Struct, reflect.Array:
		return !valuePlanFor(t).viaJSON
	}
	return false
}

func fillNodes(st reflect.Type, cols []*column, path []fillStep, f *tableFill) ([]fillNode, bool) {
	vp := valuePlanFor(st)
	if vp.viaJSON {
		return nil, false
	}
	nodes := make([]fillNode, len(cols))
	used := map[string]bool{}
	for i, c := range cols {
		n := &nodes[i]
		n.col, n.c = c.col, c
		idx, ok := vp.field([]byte(c.name))
		if !ok {
			continue
		}
		k := fmt.Sprint(idx)
		if used[k] {
			return nil, false
		}
		used[k] = true
		n.idx = idx
		n.typ = st.FieldByIndex(idx).Type
		t := st
		for _, x := range idx {
			sf := t.Field(x)
			n.off += sf.Offset
			t = sf.Type
		}
		if c.col >= 0 {
			n.code, n.elem = scalarCode(n.typ)
			n.kind = n.typ.Kind()
			n.direct = n.code != codeOther && n.code != codePtr && !box.Purego
			f.leaf[c.col] = append(append([]fillStep(nil), path...), fillStep{idx: idx})
			continue
		}
		ct := n.typ
		if ct.Kind() == reflect.Pointer {
			ct, n.ptr = ct.Elem(), true
		}
		if ct.Kind() != reflect.Struct || valuePlanFor(n.typ).viaJSON {
			return nil, false
		}
		children, ok := fillNodes(ct, c.children, append(path[:len(path):len(path)], fillStep{idx: idx, ptr: n.ptr}), f)
		if !ok {
			return nil, false
		}
		n.children = children
	}
	return nodes, true
}
