package layout

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
