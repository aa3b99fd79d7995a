package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gcfkit/gcf"
)

// costlyShapes names the shapes of a generic value that GCF writes in more
// tokens than JSON, most frequent first, each with where it first occurs:
//
//   - arrays whose elements are arrays (coordinates, matrices): each inner
//     array takes its own `@N [k]:` line (SPEC §7.6), where JSON spends two
//     brackets;
//   - table rows whose cells are arrays or objects: each such cell is a `^`
//     and an attachment line under its row (SPEC §7.4.5);
//   - tables of objects with different keys (a config's keyed map of
//     blocks): the table declares the union of the flattened keys, and the
//     rows fill what they lack with `~` (SPEC §7.4.3).
func costlyShapes(v any) []string {
	type shape struct {
		n     int
		first string
		what  string
	}
	shapes := map[string]*shape{}
	add := func(kind, path string, n int, what string) {
		s := shapes[kind]
		if s == nil {
			s = &shape{first: path, what: what}
			shapes[kind] = s
		}
		s.n += n
	}
	var walk func(v any, path string)
	rows := func(elems []any, path string) {
		// elems are all objects: a table.
		union := map[string]bool{}
		total := 0
		for _, e := range elems {
			for _, m := range e.(gcf.Object) {
				union[m.Key] = true
				total++
				switch m.Value.(type) {
				case []any, gcf.Object:
					add("attach", path, 1, "cells that are arrays or objects in table rows: a `^` and an attachment line each (SPEC §7.4.5)")
				}
			}
		}
		if missing := len(union)*len(elems) - total; len(elems) > 1 && missing > total {
			add("sparse", path, missing, "empty `~` cells of tables whose rows have different keys (SPEC §7.4.3)")
		}
	}
	walk = func(v any, path string) {
		switch x := v.(type) {
		case []any:
			allArrays, allObjects := len(x) > 0, len(x) > 0
			for _, e := range x {
				_, isArr := e.([]any)
				_, isObj := e.(gcf.Object)
				allArrays = allArrays && isArr
				allObjects = allObjects && isObj
			}
			if allArrays {
				add("nested", path, len(x), "arrays inside arrays: one `@N [k]:` line each (SPEC §7.6)")
			}
			if allObjects {
				rows(x, path)
			}
			for i, e := range x {
				walk(e, path+"["+strconv.Itoa(i)+"]")
			}
		case gcf.Object:
			allObjects := len(x) > 1
			var elems []any
			for _, m := range x {
				if _, ok := m.Value.(gcf.Object); !ok {
					allObjects = false
				}
				elems = append(elems, m.Value)
			}
			if allObjects {
				rows(elems, path)
			}
			for _, m := range x {
				walk(m.Value, path+"."+m.Key)
			}
		}
	}
	walk(v, "$")
	kinds := make([]string, 0, len(shapes))
	for k := range shapes {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return shapes[kinds[i]].n > shapes[kinds[j]].n })
	var out []string
	for _, k := range kinds {
		s := shapes[k]
		out = append(out, fmt.Sprintf("%d %s, first at %s", s.n, s.what, s.first))
	}
	return out
}

// costlierNote is the warning of gcf stats when even the smallest GCF costs
// more tokens than minified JSON, naming the shapes that cause it.
func costlierNote(v any, gcfTokens, jsonTokens int) string {
	if gcfTokens <= jsonTokens {
		return ""
	}
	pct := 100 * float64(gcfTokens-jsonTokens) / float64(jsonTokens)
	note := fmt.Sprintf("GCF costs %.1f%% more tokens than minified JSON for this document (gcf proxy and gcfmcp's auto format send the JSON)", pct)
	if shapes := costlyShapes(v); len(shapes) > 0 {
		note += "; the shapes that cost more in GCF: " + strings.Join(shapes, "; ")
	}
	return note
}
