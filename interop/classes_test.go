package interop

import (
	"strings"

	"github.com/gcfkit/gcf"
)

// class is a documented kind of difference between the two SDKs
// (docs/interop.md), matched by the shape of the document, never by its
// id. allow holds the outcome flags it explains; a document whose outcome
// has a flag outside allow is not in the class.
type class struct {
	name   string
	defect bool // a defect of the reference SDK (the only excuse for a decode failure)
	allow  int
	match  func(v any) bool
}

var classes = []*class{
	{name: "prototype-keys", defect: true, allow: failA | failB | diffBytes,
		match: func(v any) bool { return anyKey(v, isProtoKey) }},
	{name: "expanded-after-row0-schema", defect: true, allow: failB | diffBytes,
		match: func(v any) bool { return anyTable(v, expandedAfterRow0) }},
	{name: "flatten-all-null-subobject", defect: true, allow: failB | diffBytes,
		match: func(v any) bool { return anyTable(v, nullSubobject) }},
	{name: "gt-key-in-shared-array", defect: true, allow: failB | diffBytes,
		match: func(v any) bool { return anyTable(v, gtKeyInRowArrays) }},
	{name: "flatten-key-order", defect: true, allow: diffBytes,
		match: func(v any) bool { return anyTable(v, keyOrderDiffers) }},
	{name: "flatten-declined-same-name", defect: true, allow: diffBytes,
		match: func(v any) bool { return anyTable(v, sameNameInside) }},
	{name: "inline-schema-null", allow: diffBytes,
		match: func(v any) bool { return anyTable(v, inlineWithNull) }},
}

func classOf(v any, flags int) *class {
	for _, c := range classes {
		if flags&^c.allow == 0 && c.match(v) {
			return c
		}
	}
	return nil
}

func isProtoKey(k string) bool { return k == "__proto__" || k == "constructor" || k == "prototype" }

// anyKey reports whether some object key in v satisfies f.
func anyKey(v any, f func(string) bool) bool {
	switch x := v.(type) {
	case gcf.Object:
		for _, m := range x {
			if f(m.Key) || anyKey(m.Value, f) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if anyKey(e, f) {
				return true
			}
		}
	}
	return false
}

// anyTable reports whether f holds for the rows of some container in v
// that may take tabular form: a non-empty array of objects, or an object
// of two or more members whose values are all objects (a keyed map).
func anyTable(v any, f func(rows []gcf.Object) bool) bool {
	switch x := v.(type) {
	case gcf.Object:
		if len(x) >= 2 {
			rows := make([]gcf.Object, 0, len(x))
			for _, m := range x {
				if o, ok := m.Value.(gcf.Object); ok {
					rows = append(rows, o)
				}
			}
			if len(rows) == len(x) && f(rows) {
				return true
			}
		}
		for _, m := range x {
			if anyTable(m.Value, f) {
				return true
			}
		}
	case []any:
		rows := make([]gcf.Object, 0, len(x))
		for _, e := range x {
			if o, ok := e.(gcf.Object); ok {
				rows = append(rows, o)
			}
		}
		if len(rows) > 0 && len(rows) == len(x) && f(rows) {
			return true
		}
		for _, e := range x {
			if anyTable(e, f) {
				return true
			}
		}
	}
	return false
}

func get(o gcf.Object, k string) (any, bool) {
	for _, m := range o {
		if m.Key == k {
			return m.Value, true
		}
	}
	return nil, false
}

// records reports whether a is a non-empty array of objects (tabular in
// both SDKs when some key has no '>').
func records(a any) bool {
	x, ok := a.([]any)
	if !ok || len(x) == 0 {
		return false
	}
	cols := false
	for _, e := range x {
		o, ok := e.(gcf.Object)
		if !ok {
			return false
		}
		for _, m := range o {
			cols = cols || !strings.Contains(m.Key, ">")
		}
	}
	return cols
}

// expandedAfterRow0: row 0 holds a tabular array for a field, a later row
// a non-empty array for it that takes expanded form.
func expandedAfterRow0(rows []gcf.Object) bool {
	if len(rows) < 2 {
		return false
	}
	for _, m := range rows[0] {
		if !records(m.Value) {
			continue
		}
		for _, r := range rows[1:] {
			v, ok := get(r, m.Key)
			if a, isArr := v.([]any); ok && isArr && len(a) > 0 && !allScalars(a) && !records(a) {
				return true
			}
		}
	}
	return false
}

func allScalars(a []any) bool {
	for _, e := range a {
		switch e.(type) {
		case gcf.Object, []any:
			return false
		}
	}
	return true
}

// nullSubobject: some row holds, under a field, an object with a nested
// object whose leaves are all null (the reference flattens it to `-`
// cells, which decode as a null object, SPEC §7.4.6.2 rule 5).
func nullSubobject(rows []gcf.Object) bool {
	for _, r := range rows {
		for _, m := range r {
			if o, ok := m.Value.(gcf.Object); ok {
				for _, s := range o {
					if so, ok := s.Value.(gcf.Object); ok && hasAllNullObject(so) {
						return true
					}
				}
			}
		}
	}
	return false
}

// hasAllNullObject: o, or an object nested in it, has only null leaves.
func hasAllNullObject(o gcf.Object) bool {
	all := true
	for _, m := range o {
		switch x := m.Value.(type) {
		case nil:
		case gcf.Object:
			if hasAllNullObject(x) {
				return true
			}
			all = false
		default:
			all = false
		}
	}
	return all && len(o) > 0
}

// gtKeyInRowArrays: a field's arrays of objects, in two rows or more
// starting with row 0, hold a key with '>'.
func gtKeyInRowArrays(rows []gcf.Object) bool {
	if len(rows) < 2 {
		return false
	}
	for _, m := range rows[0] {
		if !objArray(m.Value) {
			continue
		}
		for _, r := range rows {
			v, _ := get(r, m.Key)
			if a, ok := v.([]any); ok {
				for _, e := range a {
					if o, ok := e.(gcf.Object); ok {
						for _, k := range o {
							if strings.Contains(k.Key, ">") {
								return true
							}
						}
					}
				}
			}
		}
	}
	return false
}

// keyOrderDiffers: two rows hold objects under one field (or under one
// path below it) with the same keys in a different order.
func keyOrderDiffers(rows []gcf.Object) bool {
	var objs []gcf.Object
	fields := map[string]bool{}
	for _, r := range rows {
		for _, m := range r {
			fields[m.Key] = true
		}
	}
	for f := range fields {
		objs = objs[:0]
		for _, r := range rows {
			if v, ok := get(r, f); ok {
				if o, ok := v.(gcf.Object); ok {
					objs = append(objs, o)
				}
			}
		}
		if orderDiffers(objs) {
			return true
		}
	}
	return false
}

func orderDiffers(objs []gcf.Object) bool {
	if len(objs) < 2 {
		return false
	}
	first := objs[0]
	for _, o := range objs[1:] {
		if len(o) != len(first) {
			continue
		}
		same, sameSet := true, true
		for i := range o {
			if o[i].Key != first[i].Key {
				same = false
			}
			if _, ok := get(first, o[i].Key); !ok {
				sameSet = false
			}
		}
		if !same && sameSet {
			return true
		}
	}
	// one level down
	for _, m := range first {
		if _, ok := m.Value.(gcf.Object); !ok {
			continue
		}
		var sub []gcf.Object
		for _, o := range objs {
			if v, ok := get(o, m.Key); ok {
				if so, ok := v.(gcf.Object); ok {
					sub = append(sub, so)
				}
			}
		}
		if orderDiffers(sub) {
			return true
		}
	}
	return false
}

// inlineWithNull: row 0 holds a flat object of three or more members
// under a field that another row holds as null.
func inlineWithNull(rows []gcf.Object) bool {
	for _, m := range rows[0] {
		o, ok := m.Value.(gcf.Object)
		if !ok || len(o) < 3 {
			continue
		}
		for _, r := range rows[1:] {
			if v, ok := get(r, m.Key); ok && v == nil {
				return true
			}
		}
	}
	return false
}

// sameNameInside: an object under field f holds, at some depth, a member
// named f itself (the reference resolves flattened paths from the wrong
// object there, finds that member, and declines to flatten).
func sameNameInside(rows []gcf.Object) bool {
	for _, r := range rows {
		for _, m := range r {
			if o, ok := m.Value.(gcf.Object); ok && anyKeyObj(o, m.Key) {
				return true
			}
		}
	}
	return false
}

func anyKeyObj(o gcf.Object, k string) bool {
	for _, m := range o {
		if m.Key == k {
			return true
		}
		if so, ok := m.Value.(gcf.Object); ok && anyKeyObj(so, k) {
			return true
		}
	}
	return false
}

// objArray reports whether a is a non-empty array of objects.
func objArray(a any) bool {
	x, ok := a.([]any)
	if !ok || len(x) == 0 {
		return false
	}
	for _, e := range x {
		if _, ok := e.(gcf.Object); !ok {
			return false
		}
	}
	return true
}
