package gcf

import (
	"reflect"
	"slices"
	"testing"
)

func cloneTable(t *Table) *Table {
	c := *t
	c.Fields = slices.Clone(t.Fields)
	c.Rows = make([][]any, len(t.Rows))
	for i, r := range t.Rows {
		c.Rows[i] = slices.Clone(r)
	}
	return &c
}

func cloneGenericDelta(d *GenericDelta) *GenericDelta {
	c := *d
	c.Fields = slices.Clone(d.Fields)
	c.Added = cloneTable(&Table{Rows: d.Added}).Rows
	c.Changed = cloneTable(&Table{Rows: d.Changed}).Rows
	c.Removed = slices.Clone(d.Removed)
	return &c
}

// scribble overwrites every part of t: its fields, every cell, and grows
// each row in place (a row that shares its backing array with another
// would overwrite it).
func scribble(t *Table) {
	for i := range t.Fields {
		t.Fields[i] = "scribbled"
	}
	for _, r := range t.Rows {
		for j := range r {
			r[j] = "scribbled"
		}
		_ = append(r, "past the end")
	}
}

// TestApplyGenericDeltaIndependent: the table ApplyGenericDelta returns
// shares no memory with the base or the delta; changing either side
// leaves the other as it was (it shared Fields and the unchanged rows).
func TestApplyGenericDeltaIndependent(t *testing.T) {
	newBase := func() *Table {
		return &Table{Tool: "t", Name: "orders", Key: "id", Fields: []string{"id", "total", "status"},
			Rows: [][]any{{int64(1), 1.5, "a"}, {int64(2), 2.5, "b"}, {int64(3), 3.5, "c"}, {int64(4), 4.5, "d"}}}
	}
	newDelta := func(base *Table) *GenericDelta {
		return &GenericDelta{Key: "id", Fields: []string{"status", "id", "total"}, BaseRoot: mustRoot(t, base),
			Added:   [][]any{{"e", int64(5), 5.5}},
			Changed: [][]any{{"B", int64(2), 2.25}},
			Removed: []any{int64(3)}}
	}
	want := [][]any{{int64(1), 1.5, "a"}, {int64(2), 2.25, "B"}, {int64(4), 4.5, "d"}, {int64(5), 5.5, "e"}}

	// Changing the result leaves the base and the delta unchanged.
	base := newBase()
	d := newDelta(base)
	baseSnap, dSnap := cloneTable(base), cloneGenericDelta(d)
	res, err := ApplyGenericDelta(base, d)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Rows, want) || !reflect.DeepEqual(res.Fields, base.Fields) {
		t.Fatalf("result %v %v, want %v", res.Fields, res.Rows, want)
	}
	scribble(res)
	if !reflect.DeepEqual(base, baseSnap) {
		t.Fatalf("changing the result changed the base: %v %v", base.Fields, base.Rows)
	}
	if !reflect.DeepEqual(d, dSnap) {
		t.Fatalf("changing the result changed the delta: %+v", d)
	}

	// Changing the base or the delta leaves the result unchanged.
	base = newBase()
	d = newDelta(base)
	res, err = ApplyGenericDelta(base, d)
	if err != nil {
		t.Fatal(err)
	}
	resSnap := cloneTable(res)
	scribble(base)
	scribble(&Table{Fields: d.Fields, Rows: d.Added})
	scribble(&Table{Rows: d.Changed})
	if !reflect.DeepEqual(res, resSnap) {
		t.Fatalf("changing the base and the delta changed the result: %v %v", res.Fields, res.Rows)
	}
	// Rows of the result do not share backing arrays with each other.
	res.Rows[0] = append(res.Rows[0], "x")
	if !reflect.DeepEqual(res.Rows[1], resSnap.Rows[1]) {
		t.Fatalf("growing row 0 changed row 1: %v", res.Rows[1])
	}
}
