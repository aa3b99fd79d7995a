package layout

import (
	"fmt"
	"testing"
)

func TestFactor(t *testing.T) {
	c := func(e, k bool) Column { return Column{Eligible: e, Constant: k} }
	for _, tc := range []struct {
		n    int
		cols []Column
		want string
	}{
		{2, []Column{c(true, false), c(true, true), c(true, false)}, "[false true false] true"},
		{1, []Column{c(true, true), c(true, false)}, "[false false] false"},                   // one record: never (009)
		{2, []Column{c(true, true), c(true, true)}, "[true false] true"},                      // all constant: last bare (005)
		{3, []Column{c(true, true)}, "[false] false"},                                         // a lone column stays bare
		{2, []Column{c(false, true), c(true, true)}, "[false true] true"},                     // ineligible stays bare
		{4, []Column{c(true, true), c(true, true), c(false, true)}, "[true true false] true"}, // last is ineligible
		{0, nil, "[] false"},
	} {
		got, any := Factor(tc.n, tc.cols, nil)
		if s := fmt.Sprint(got, any); s != tc.want {
			t.Errorf("Factor(%d, %v) = %s, want %s", tc.n, tc.cols, s, tc.want)
		}
	}
}

func TestRules(t *testing.T) {
	yes := func() bool { return true }
	no := func() bool { return false }
	for _, c := range []struct {
		got, want Form
	}{
		{ArrayForm(0, false, no), Empty},
		{ArrayForm(0, true, yes), Empty},
		{ArrayForm(2, true, no), Inline},
		{ArrayForm(2, false, yes), Table},
		{ArrayForm(2, false, nil), Table},
		{ArrayForm(2, false, no), Expanded},
	} {
		if c.got != c.want {
			t.Errorf("ArrayForm: %d, want %d", c.got, c.want)
		}
	}
	if Tabular(false, true, nil) || Tabular(true, false, nil) || Tabular(true, true, no) || !Tabular(true, true, yes) {
		t.Error("Tabular")
	}
	if KeyedSize(1, MinKeyed) || !KeyedSize(2, MinKeyed) || !KeyedSize(1, 1) || KeyedSize(0, 0) {
		t.Error("KeyedSize")
	}
	for _, c := range []struct {
		union []string
		want  string
	}{{nil, "key"}, {[]string{"a", "key"}, "_key"}, {[]string{"_key", "key"}, "__key"}, {[]string{"_key"}, "key"}} {
		if got := KeyLabel(c.union); got != c.want {
			t.Errorf("KeyLabel(%q) = %q, want %q", c.union, got, c.want)
		}
	}
}

func TestPlanField(t *testing.T) {
	yes := func() bool { return true }
	three := func() int { return 3 }
	none := func() int { return 0 }
	asked := false
	spy := func() bool { asked = true; return true }
	for _, c := range []struct {
		f    Field
		want string
	}{
		{Field{Name: "a"}, "0 0 0"},
		{Field{Name: "a>b", Objects: true, Leaves: three, Inline: yes}, "1 0 0"},           // no column, never flattened nor inline
		{Field{Name: "a>b", Shared: yes}, "1 0 1"},                                         // its arrays may share
		{Field{Name: "o", Objects: true, Leaves: three, Shared: spy}, "2 3 0"},             // flattened: nothing else asked
		{Field{Name: "", Objects: true, Leaves: three, Inline: yes}, "0 0 2"},              // an empty name never flattens
		{Field{Name: "o", Objects: true, Leaves: none, Inline: yes}, "0 0 2"},              // inline schema instead
		{Field{Name: "o", Objects: true, Leaves: none, Shared: yes, Inline: yes}, "0 0 1"}, // shared first
	} {
		k, n, a := PlanField(c.f)
		if got := fmt.Sprint(k, n, a); got != c.want {
			t.Errorf("PlanField(%+v) = %s, want %s", c.f.Name, got, c.want)
		}
	}
	if asked {
		t.Error("Shared asked of a flattened field")
	}
	if !FlatKey("a") || FlatKey("") || FlatKey("a>b") || ColumnName("x>") || !ColumnName("") {
		t.Error("FlatKey, ColumnName")
	}
}

func TestSharedArrays(t *testing.T) {
	rows := func(rs ...ArrayRow) func(int) ArrayRow {
		return func(i int) ArrayRow {
			if i >= len(rs) {
				t.Fatalf("row %d asked after a misfit", i)
			}
			return rs[i]
		}
	}
	for _, c := range []struct {
		rs   []ArrayRow
		want bool
	}{
		{nil, false},
		{[]ArrayRow{FlatArray}, true},
		{[]ArrayRow{NoArray, FlatArray}, false}, // row 0 establishes no schema
		{[]ArrayRow{FlatArray, NoArray, FlatArray}, true},
		{[]ArrayRow{FlatArray, OtherArray}, false},
		{[]ArrayRow{OtherArray, FlatArray}, false},
	} {
		n := len(c.rs)
		rs := c.rs
		if !c.want && n > 0 {
			// stop at the misfit: later rows are never asked
			for i, r := range rs {
				if r == OtherArray || i == 0 && r != FlatArray {
					rs = rs[:i+1]
					break
				}
			}
		}
		if got := SharedArrays(n, rows(rs...)); got != c.want {
			t.Errorf("SharedArrays(%v) = %v, want %v", c.rs, got, c.want)
		}
	}
}

// flatObj is a test object: ordered members whose values are nil (null),
// a string (a scalar), a flatObj, or an int (anything else: an array).
type flatObj []flatMember

type flatMember struct {
	k string
	v any
}

func feed(f *Flat, o flatObj) {
	for _, m := range o {
		switch x := m.v.(type) {
		case nil:
			f.Leaf(m.k, true)
		case string:
			f.Leaf(m.k, false)
		case flatObj:
			f.Nested(m.k, len(x))
			feed(f, x)
		default:
			f.Fail()
		}
	}
	f.Close()
}

func TestFlat(t *testing.T) {
	ab := flatObj{{"a", "1"}, {"b", "2"}}
	abNull := flatObj{{"a", nil}, {"b", "2"}}
	allNull := flatObj{{"a", nil}, {"b", nil}}
	nested := flatObj{{"x", "1"}, {"o", ab}}
	for i, c := range []struct {
		objs []flatObj
		want int
	}{
		{nil, 0},                                                             // nothing fed
		{[]flatObj{ab}, 2},                                                   // one object
		{[]flatObj{ab, abNull}, 2},                                           // null beside a scalar
		{[]flatObj{ab, allNull}, 0},                                          // an object of only null leaves
		{[]flatObj{{}}, 0},                                                   // an empty object
		{[]flatObj{ab, {{"b", "2"}, {"a", "1"}}}, 0},                         // another key order
		{[]flatObj{ab, {{"a", "1"}}}, 0},                                     // fewer keys
		{[]flatObj{{{"", "1"}}}, 0},                                          // an empty key
		{[]flatObj{{{"a>b", "1"}}}, 0},                                       // a '>' in a key
		{[]flatObj{{{"a", 7}}}, 0},                                           // an array
		{[]flatObj{nested, nested}, 3},                                       // nested: leaves of every level
		{[]flatObj{nested, {{"x", "1"}, {"o", "2"}}}, 0},                     // object beside a scalar
		{[]flatObj{{{"x", nil}}, {{"x", ab}}}, 0},                            // null first, then an object
		{[]flatObj{{{"x", "1"}, {"o", allNull}}}, 0},                         // a nested object of only null leaves
		{[]flatObj{{{"x", "1"}, {"o", flatObj{}}}}, 0},                       // a nested empty object
		{[]flatObj{{{"x", nil}, {"o", abNull}}, {{"x", "1"}, {"o", ab}}}, 3}, // nulls, each object with a scalar
	} {
		var f Flat
		f.Reset()
		for _, o := range c.objs {
			f.Object(len(o))
			feed(&f, o)
		}
		if got := f.Leaves(); got != c.want {
			t.Errorf("case %d: Leaves = %d, want %d", i, got, c.want)
		}
		if ok := f.OK(); ok != (c.want > 0 || len(c.objs) == 0) {
			t.Errorf("case %d: OK = %v", i, ok)
		}
	}
}
