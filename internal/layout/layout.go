// Package layout decides the generic profile's layout rules of SPEC §7
// once, from facts a row source gathers (the Object tree, maps and slices,
// typed struct plans); the encoders write what it decides through encoder/.
//
// The rules: an array's form (ArrayForm: empty, inline, table, expanded),
// whether rows make one table (Tabular) and an object a keyed table
// (KeyedSize, MinKeyed), the key column's label (KeyLabel), how each field
// of a table is written (PlanField: no column for '>' names, flattened
// path columns, shared array schemas, inline object schemas; ColumnName,
// FlatKey, InlineSchemaMinKeys), whether a field's objects flatten and
// into how many columns (Flat, fed by the source depth first), and
// constant-column factoring (Factor, spec v3.6.0 §7.4.7). Where the spec
// leaves a choice, the facts a source passes carry its policy's answer
// (canonical, or the Smallest size's).
package layout

// Column is what a row source knows of one column of a table, for
// constant-column factoring (spec v3.6.0 §7.4.7).
type Column struct {
	// Eligible: the column may be written as a constant. A row source
	// leaves it false for columns whose cell is not a plain scalar cell:
	// flattened and '>' path columns, a keyed map's key column, an
	// identity (@) column, a grouping column, columns holding attachments.
	Eligible bool
	// Constant: every record holds the column, with the same scalar value
	// (values compared as their canonical cells: SameScalar).
	Constant bool
}

// Factor reports, in dst[i], whether column i of a table of n records is
// written once in the field declaration as name=value instead of in every
// row (spec v3.6.0 §7.4.7, mandatory in canonical output): every eligible
// constant column is, when the table has at least two records, except
// that when every column would be, the last stays bare so that the rows
// exist. It returns dst resized to len(cols), and whether any column is
// factored.
func Factor(n int, cols []Column, dst []bool) ([]bool, bool) {
	dst = append(dst[:0], make([]bool, len(cols))...)
	if n < 2 || len(cols) == 0 {
		return dst, false
	}
	any, bare := false, false
	for i, c := range cols {
		if c.Eligible && c.Constant {
			dst[i], any = true, true
		} else {
			bare = true
		}
	}
	if !bare {
		dst[len(dst)-1] = false // every column constant: the last stays bare (fixture 005)
		any = len(dst) > 1
	}
	return dst, any
}
