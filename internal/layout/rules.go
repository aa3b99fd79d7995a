package layout

import "strings"

// Form is the body form of an array (SPEC §7.3).
type Form uint8

const (
	// Empty: `[0]` (SPEC §7.3 rule 1).
	Empty Form = iota
	// Inline: `[N]: v1,v2,...`, every element a scalar or null (rule 2).
	Inline
	// Table: `[N]{fields}` and one row per element (rule 3, Table).
	Table
	// Expanded: `[N]` and one `@i` item per element (rule 4, SPEC §7.6).
	Expanded
)

// ArrayForm returns the form of an array of n elements (SPEC §7.3):
// Empty, Inline when every element is primitive, Table when tabular
// reports that the elements make one table (asked only then; nil means
// they do), else Expanded.
func ArrayForm(n int, primitive bool, tabular func() bool) Form {
	switch {
	case n == 0:
		return Empty
	case primitive:
		return Inline
	case tabular == nil || tabular():
		return Table
	}
	return Expanded
}

// Tabular reports whether rows make one table (SPEC §7.3 rule 3 for an
// array's elements, §7.2a.1 for a keyed map's values): every row is an
// object (objects), some field can be a column (column: its name holds
// no '>', SPEC §7.4.6.1 rule 4; rows of empty objects have none), and
// rowZeroSafe, asked last (nil: true), reports that no later row's array
// would be misread under the shared array schema row 0 establishes
// (SPEC §7.4.5.3, see the geEncoder's rowZeroSafe).
func Tabular(objects, column bool, rowZeroSafe func() bool) bool {
	return objects && column && (rowZeroSafe == nil || rowZeroSafe())
}

// MinKeyed is the fewest members an object whose values are all objects
// needs to be written as a keyed table in canonical output (SPEC
// §7.2a.1); with fewer it is a section (SPEC §7.2). Decoders read a
// one-member keyed table too, which the Smallest size may write.
const MinKeyed = 2

// KeyedSize reports whether an object of n members whose values are all
// objects may be written as a keyed table (SPEC §7.2a.1) under a policy
// whose least member count is min (MinKeyed in canonical output): at
// least min members, and never none (`[0:]` is an error). It is a keyed
// table when its values also make one table (Tabular).
func KeyedSize(n, min int) bool { return n >= max(min, 1) }

// KeyLabel returns the label of a keyed table's key column (SPEC
// §7.2a.2): "key", prefixed with '_' until no field of the union holds
// that name.
func KeyLabel(union []string) string {
	label := "key"
	for has(union, label) {
		label = "_" + label
	}
	return label
}

func has(union []string, s string) bool {
	for _, u := range union {
		if u == s {
			return true
		}
	}
	return false
}

// InlineSchemaMinKeys is the fewest keys the objects of a column need
// for the inline object schema of SPEC §7.4.5.1 (`^{k1,k2,...}` in row 0,
// one positional body line a row); we use it where the reference SDK
// does.
const InlineSchemaMinKeys = 3

// ColumnName reports whether a field named name can have a column of a
// table: its name holds no '>' (SPEC §7.4.6.1 rule 4; such a field's
// values are row attachments).
func ColumnName(name string) bool { return strings.IndexByte(name, '>') < 0 }

// FlatKey reports whether a key may take part in a flattened path column
// (SPEC §7.4.6): it is not empty and holds no '>'. Flat decides whether
// objects flatten.
func FlatKey(k string) bool { return k != "" && ColumnName(k) }

// Kind is how one field of a table's union is written (SPEC §7.4).
type Kind uint8

const (
	// OneColumn: one column of cells; a container value is a `^` cell and
	// a row attachment (SPEC §7.4.4).
	OneColumn Kind = iota
	// NoColumn: the name holds '>' (ColumnName): no column, every value a
	// row attachment (SPEC §7.4.6.1 rule 4).
	NoColumn
	// Flattened: `>` path columns, one per leaf (SPEC §7.4.6).
	Flattened
)

// Attach is how a field's container values are attached to its rows.
type Attach uint8

const (
	// OwnSchema: each with its own declaration.
	OwnSchema Attach = iota
	// SharedSchema: the arrays of rows after row 0 use row 0's declaration
	// (SPEC §7.4.5.3).
	SharedSchema
	// InlineSchema: the objects take the inline object schema, `^{...}` in
	// row 0 and one positional body line a row (SPEC §7.4.5.1).
	InlineSchema
)

// Containers reports whether a field whose values include objects
// (objects) or arrays (arrays) needs PlanField's decisions at all: one
// that holds only scalars and null is one column of cells (SPEC §7.4.2).
func Containers(objects, arrays bool) bool { return objects || arrays }

// Field is what a row source knows of one field of a table's union. The
// func-valued facts are asked lazily, in PlanField's order (a nil one is
// false); each answers with the policy's choice where the spec leaves one.
type Field struct {
	Name string
	// Objects: every present non-null value is an object, and one is.
	Objects bool
	// Leaves: the number of leaves the objects flatten into (0: they do
	// not, or the policy keeps attachments). Asked for a named Objects
	// field that can have a column.
	Leaves func() int
	// Shared: the arrays share row 0's schema. Asked unless flattened.
	Shared func() bool
	// Inline: the objects take the inline schema. Asked for a OneColumn
	// field that is not Shared.
	Inline func() bool
}

// PlanField decides how field f of a table is written: its kind, its
// leaf count when Flattened, and how its container values are attached.
// A field that holds no container (Containers false) and can have a
// column is OneColumn with OwnSchema: a source may skip the call for it.
func PlanField(f Field) (k Kind, leaves int, a Attach) {
	switch {
	case !ColumnName(f.Name):
		k = NoColumn
	case f.Name != "" && f.Objects && f.Leaves != nil:
		if leaves = f.Leaves(); leaves > 0 {
			return Flattened, leaves, OwnSchema
		}
	}
	switch {
	case f.Shared != nil && f.Shared():
		a = SharedSchema
	case k == OneColumn && f.Inline != nil && f.Inline():
		a = InlineSchema
	}
	return k, 0, a
}

// ArrayRow is one row's value of a field as the shared array schema rule
// sees it (SharedArrays).
type ArrayRow uint8

const (
	// NoArray: the row lacks the field or holds null (a `-` cell, no
	// attachment).
	NoArray ArrayRow = iota
	// FlatArray: flat records, a non-empty array of objects whose members
	// are all scalars or null and whose union of names is non-empty and
	// free of '>'; after row 0, with row 0's union.
	FlatArray
	// OtherArray: any other value: an empty array, another shape or
	// union, a value that is no array.
	OtherArray
)

// SharedArrays reports whether a field's array attachments after row 0
// omit their declaration under the schema row 0 establishes (SPEC
// §7.4.5.3, a MAY, taken exactly where the reference SDK takes it, so
// that both write the same bytes): row 0 holds flat records, and every
// later row flat records with row 0's union or no array. Such arrays are
// tabular with flat rows, so the rows written under the shared schema are
// those their own declaration would have had. row classifies row i of n;
// the scan stops at the first misfit.
func SharedArrays(n int, row func(i int) ArrayRow) bool {
	ok := true
	for i := 0; i < n && ok; i++ {
		ok = SharedStep(i, row(i), ok)
	}
	return n > 0 && ok
}

// SharedStep folds row i's ArrayRow into the SharedArrays answer so far
// (ok, true before row 0), for a source that classifies its rows in a
// pass of its own.
func SharedStep(i int, r ArrayRow, ok bool) bool {
	if i == 0 {
		return r == FlatArray
	}
	return ok && r != OtherArray
}
