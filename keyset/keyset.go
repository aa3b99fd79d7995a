// Package keyset is the keyed-set arithmetic of GCF's generic delta (SPEC
// §10a): a table of scalar rows identified by one column, its canonical
// row records and gcf-pack-root-v1 root (§10a.3), the diff of two tables
// (§10a.2) and the atomic application of a delta (§10a.5).
//
// It knows Go scalars (nil, bool, int64, float64, string) and canonical
// bytes, not the wire: the root package gcf writes and reads tables and
// deltas as GCF text and aliases Table and Delta.
package keyset

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
)

// Prefix is the algorithm prefix of a gcf-pack-root-v1 root. A root with
// another prefix is unknown (SPEC §10.2): it matches no table.
const Prefix = "sha256:"

// Table is a keyed set (SPEC §10a.1): rows of scalar cells, one per field
// of Fields, identified by the cell of the field named Key. Row order is
// not significant (§10a.6). Cells are nil, bool, int64, float64 or string;
// the identity cell is not nil and unique within the table. Tables are
// values: functions of this package never modify one they are given, and
// a table they return may share unchanged rows with their arguments.
type Table struct {
	// Tool is the producing tool, written as the header's tool= field.
	Tool string
	// Name is the section name (`## Name [N]{...}`); "" is the root array
	// `## [N]{...}`.
	Name string
	// Key names the identity field; it is one of Fields.
	Key string
	// Fields are the declared columns in wire order.
	Fields []string
	// Rows hold one cell per field, in Fields order.
	Rows [][]any
	// PackRoot is the root a decoded payload's header carried (or a
	// computed one); Root ignores it.
	PackRoot string
}

// Delta turns the table whose root is BaseRoot into the one whose root is
// NewRoot (SPEC §10a.2): Added rows have identities not in the base,
// Changed rows replace the base rows of the same identity whole, Removed
// lists identity values to delete. Added and Changed rows hold one cell per
// field of Fields.
type Delta struct {
	Tool     string
	Key      string
	Fields   []string
	BaseRoot string
	NewRoot  string
	Added    [][]any
	Changed  [][]any
	Removed  []any
	// DeltaTokens and FullTokens, when FullTokens is positive, give the
	// header's savings= percentage.
	DeltaTokens, FullTokens int
}

func errf(c lexer.Category, format string, args ...any) error {
	return lexer.Errorf(c, format, args...)
}

// AppendCell appends the canonical hash form of a cell (SPEC §10a.3): `-`
// for nil, true/false, canonical numbers (§2.3.1), strings always quoted
// with the §2.2 escapes. Errors: invalid_utf8 for a string that is not
// UTF-8, out_of_range for a non-finite float, unsupported_value for any
// other type.
func AppendCell(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, '-'), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case float64:
		return encoder.AppendFloat(dst, x)
	case string:
		out, bad := encoder.AppendQuotedValid(dst, x)
		if bad >= 0 {
			return dst, errf(lexer.InvalidUTF8, "string %q is not valid UTF-8 at offset %d", x, bad)
		}
		return out, nil
	}
	return dst, errf(lexer.UnsupportedValue, "a keyed row cell must be a scalar (nil, bool, int64, float64 or string), not %T", v)
}

// ID returns the canonical form of an identity value: what two identities
// are compared by (the number 1001 and the string "1001" differ; 1001 and
// 1001.0 are the same). Errors as AppendCell, and malformed_delta for nil.
func ID(v any) (string, error) {
	if v == nil {
		return "", errf(lexer.MalformedDelta, "an identity value is null (SPEC §10a.1)")
	}
	b, err := AppendCell(nil, v)
	return string(b), err
}

// KeyIndex checks the schema of t (Key one of Fields, field names unique
// and UTF-8) and returns the column of Key.
func KeyIndex(key string, fields []string) (int, error) {
	k := -1
	for i, f := range fields {
		if !utf8.ValidString(f) {
			return -1, errf(lexer.InvalidUTF8, "field name %q is not valid UTF-8", f)
		}
		if slices.Contains(fields[:i], f) {
			return -1, errf(lexer.DuplicateFieldName, "duplicate field name %q", f)
		}
		if f == key {
			k = i
		}
	}
	if key == "" {
		return -1, errf(lexer.MalformedDelta, "no identity field (SPEC §10a.1)")
	}
	if k < 0 {
		return -1, errf(lexer.MalformedDelta, "identity field %q is not among the fields %q", key, fields)
	}
	return k, nil
}

// Index checks t and returns its identities, canonical form to row index.
// Errors: those of KeyIndex; malformed_delta for a row of the wrong width
// or a null identity; duplicate_key for a repeated identity; the cell
// errors of AppendCell.
func Index(t *Table) (map[string]int, error) {
	k, err := KeyIndex(t.Key, t.Fields)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]int, len(t.Rows))
	var buf []byte
	for i, row := range t.Rows {
		if len(row) != len(t.Fields) {
			return nil, errf(lexer.MalformedDelta, "row %d has %d cells for %d fields", i, len(row), len(t.Fields))
		}
		for _, c := range row {
			if buf, err = AppendCell(buf[:0], c); err != nil {
				return nil, rowErr(err, "row", i)
			}
		}
		id, err := ID(row[k])
		if err != nil {
			return nil, rowErr(err, "row", i)
		}
		if _, dup := ids[id]; dup {
			return nil, errf(lexer.DuplicateKey, "row %d repeats the identity %s=%s (SPEC §10a.1)", i, t.Key, id)
		}
		ids[id] = i
	}
	return ids, nil
}

func rowErr(err error, what string, i int) error {
	if se, ok := err.(*lexer.SyntaxError); ok {
		c := *se
		c.Msg = what + " " + strconv.Itoa(i) + ": " + se.Msg
		return &c
	}
	return err
}

// sortedOrder returns the indexes of fields in unsigned byte order of the names.
func sortedOrder(fields []string) []int {
	order := make([]int, len(fields))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare([]byte(fields[a]), []byte(fields[b])) })
	return order
}

// appendRecord appends the canonical record of one row:
// R<TAB>field<TAB>value... <LF>, fields in byte order.
func appendRecord(dst []byte, fields []string, order []int, row []any) ([]byte, error) {
	dst = append(dst, 'R')
	var err error
	for _, j := range order {
		dst = append(dst, '\t')
		dst = append(dst, fields[j]...)
		dst = append(dst, '\t')
		if dst, err = AppendCell(dst, row[j]); err != nil {
			return dst, err
		}
	}
	return append(dst, '\n'), nil
}

// CanonicalBytes returns the bytes gcf-pack-root-v1 hashes for t (SPEC
// §10a.3 steps 1-4): one record per row, sorted bytewise, concatenated.
// t is checked as by Index.
func CanonicalBytes(t *Table) ([]byte, error) {
	if _, err := Index(t); err != nil {
		return nil, err
	}
	order := sortedOrder(t.Fields)
	var buf []byte
	ends := make([]int, 0, len(t.Rows))
	for i, row := range t.Rows {
		var err error
		if buf, err = appendRecord(buf, t.Fields, order, row); err != nil {
			return nil, rowErr(err, "row", i)
		}
		ends = append(ends, len(buf))
	}
	recs := make([][]byte, len(ends))
	start := 0
	for i, e := range ends {
		recs[i] = buf[start:e]
		start = e
	}
	slices.SortFunc(recs, bytes.Compare)
	out := make([]byte, 0, len(buf))
	for _, r := range recs {
		out = append(out, r...)
	}
	return out, nil
}

// Root returns the gcf-pack-root-v1 root of t (SPEC §10a.3):
// "sha256:" and the 64 lowercase hex digits of the SHA-256 of
// CanonicalBytes(t). Row order does not change it; Tool, Name and
// PackRoot are not part of it.
func Root(t *Table) (string, error) {
	b, err := CanonicalBytes(t)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return Prefix + hex.EncodeToString(sum[:]), nil
}

// SameSchema reports whether two tables have the same identity field and
// the same fields in the same order.
func SameSchema(a, b *Table) bool {
	return a.Key == b.Key && slices.Equal(a.Fields, b.Fields)
}

// Diff returns the delta from base to cur (SPEC §10a.2): rows of cur whose
// identity base lacks are Added, rows whose identity both hold but whose
// cells differ (canonically: 2 and 2.0 are equal) are Changed, identities
// only base holds are Removed. Each list is sorted by the canonical form
// of the identity, so the result does not depend on row order. BaseRoot
// and NewRoot are set; Tool is left empty for the caller.
//
// Errors: invalid_schema when the tables differ in identity field or
// fields (SPEC §10a.7: send the full payload instead), and the errors of
// Index for either table.
func Diff(base, cur *Table) (*Delta, error) {
	if base == nil || cur == nil {
		return nil, errf(lexer.MalformedDelta, "Diff needs two tables")
	}
	if !SameSchema(base, cur) {
		return nil, errf(lexer.InvalidSchema, "schema change (identity %q, fields %q to identity %q, fields %q): send the full payload (SPEC §10a.7)",
			base.Key, base.Fields, cur.Key, cur.Fields)
	}
	baseIDs, err := Index(base)
	if err != nil {
		return nil, err
	}
	curIDs, err := Index(cur)
	if err != nil {
		return nil, err
	}
	baseRoot, err := Root(base)
	if err != nil {
		return nil, err
	}
	newRoot, err := Root(cur)
	if err != nil {
		return nil, err
	}
	d := &Delta{Key: cur.Key, Fields: slices.Clone(cur.Fields), BaseRoot: baseRoot, NewRoot: newRoot,
		Added: [][]any{}, Changed: [][]any{}, Removed: []any{}}
	k, _ := KeyIndex(cur.Key, cur.Fields)
	type keyed struct {
		id  string
		row int
	}
	var added, changed, removed []keyed
	var a, b []byte
	for id, i := range curIDs {
		j, ok := baseIDs[id]
		if !ok {
			added = append(added, keyed{id, i})
			continue
		}
		if !sameRow(&a, &b, base.Rows[j], cur.Rows[i]) {
			changed = append(changed, keyed{id, i})
		}
	}
	for id, j := range baseIDs {
		if _, ok := curIDs[id]; !ok {
			removed = append(removed, keyed{id, j})
		}
	}
	byID := func(x, y keyed) int { return bytes.Compare([]byte(x.id), []byte(y.id)) }
	slices.SortFunc(added, byID)
	slices.SortFunc(changed, byID)
	slices.SortFunc(removed, byID)
	for _, x := range added {
		d.Added = append(d.Added, cur.Rows[x.row])
	}
	for _, x := range changed {
		d.Changed = append(d.Changed, cur.Rows[x.row])
	}
	for _, x := range removed {
		d.Removed = append(d.Removed, base.Rows[x.row][k])
	}
	return d, nil
}

// sameRow compares two rows of one schema cell by cell in canonical form.
func sameRow(a, b *[]byte, x, y []any) bool {
	for i := range x {
		if x[i] == y[i] {
			continue
		}
		*a, _ = AppendCell((*a)[:0], x[i])
		*b, _ = AppendCell((*b)[:0], y[i])
		if !bytes.Equal(*a, *b) {
			return false
		}
	}
	return true
}

// Apply applies d to base atomically (SPEC §10a.5) and returns the new
// table; base is never modified, whatever the outcome. In order, the
// first failure is returned and nothing is applied:
//
//  1. When d.BaseRoot is non-empty, Root(base) must equal it, else
//     root_mismatch (a root of an unknown algorithm never matches).
//  2. The delta is validated: its Key must be base's (malformed_delta);
//     its Fields must be base's fields, in any order (malformed_delta);
//     every Added and Changed row must have one scalar cell per field and
//     a non-null identity (malformed_delta, or the cell's category); an
//     identity may appear once in the whole delta (duplicate_key); an
//     Added identity must be absent from base, a Changed or Removed one
//     present (malformed_delta).
//  3. The result is built: base rows in base order, a Changed row in the
//     place of the row it replaces (cells reordered to base's fields),
//     Removed rows dropped, Added rows appended in delta order.
//  4. When d.NewRoot is non-empty, Root(result) must equal it, else
//     root_mismatch; the result's PackRoot is set to it.
//
// The result keeps base's Tool, Name, Key and Fields.
func Apply(base *Table, d *Delta) (*Table, error) {
	if base == nil || d == nil {
		return nil, errf(lexer.MalformedDelta, "Apply needs a base table and a delta")
	}
	baseIDs, err := Index(base)
	if err != nil {
		return nil, err
	}
	if d.BaseRoot != "" {
		root, err := Root(base)
		if err != nil {
			return nil, err
		}
		if root != d.BaseRoot {
			return nil, errf(RootMismatch, "base_root %s does not identify the held table (its root is %s)", d.BaseRoot, root)
		}
	}
	if d.Key != base.Key {
		return nil, errf(lexer.MalformedDelta, "the delta changes the identity field from %q to %q", base.Key, d.Key)
	}
	// perm[j] is the delta column holding base field j.
	perm := make([]int, len(base.Fields))
	if len(d.Fields) == 0 && len(d.Added)+len(d.Changed) == 0 {
		for j := range perm {
			perm[j] = j
		}
	} else if len(d.Fields) != len(base.Fields) {
		return nil, errf(lexer.MalformedDelta, "the delta's fields %q are not the table's fields %q", d.Fields, base.Fields)
	}
	for j, f := range base.Fields {
		if len(d.Fields) == 0 {
			break
		}
		perm[j] = slices.Index(d.Fields, f)
		if perm[j] < 0 {
			return nil, errf(lexer.MalformedDelta, "the delta's fields %q are not the table's fields %q", d.Fields, base.Fields)
		}
	}
	ids, err := CheckDelta(d)
	if err != nil {
		return nil, err
	}
	for i, id := range ids.Added {
		if _, ok := baseIDs[id]; ok {
			return nil, errf(lexer.MalformedDelta, "added row %d: identity %s is already in the base table", i, id)
		}
	}
	for i, id := range ids.Changed {
		if _, ok := baseIDs[id]; !ok {
			return nil, errf(lexer.MalformedDelta, "changed row %d: identity %s is not in the base table", i, id)
		}
	}
	removed := make(map[int]struct{}, len(d.Removed))
	for i, id := range ids.Removed {
		j, ok := baseIDs[id]
		if !ok {
			return nil, errf(lexer.MalformedDelta, "removed identity %d (%s) is not in the base table", i, id)
		}
		removed[j] = struct{}{}
	}
	changedIDs := ids.Changed
	remap := func(row []any) []any {
		out := make([]any, len(perm))
		for j, p := range perm {
			out[j] = row[p]
		}
		return out
	}
	replace := make(map[int][]any, len(d.Changed))
	for i, id := range changedIDs {
		replace[baseIDs[id]] = remap(d.Changed[i])
	}
	res := &Table{Tool: base.Tool, Name: base.Name, Key: base.Key, Fields: base.Fields}
	res.Rows = make([][]any, 0, len(base.Rows)-len(removed)+len(d.Added))
	for j, row := range base.Rows {
		if _, gone := removed[j]; gone {
			continue
		}
		if r, ok := replace[j]; ok {
			row = r
		}
		res.Rows = append(res.Rows, row)
	}
	for _, row := range d.Added {
		res.Rows = append(res.Rows, remap(row))
	}
	if d.NewRoot != "" {
		root, err := Root(res)
		if err != nil {
			return nil, err
		}
		if root != d.NewRoot {
			return nil, errf(RootMismatch, "new_root %s does not match the root of the applied table (%s)", d.NewRoot, root)
		}
		res.PackRoot = root
	}
	return res, nil
}

// DeltaIDs are the canonical identities of a delta's sections, in order.
type DeltaIDs struct{ Added, Changed, Removed []string }

// CheckDelta validates a delta on its own, without a base (SPEC §10a.1,
// §10a.2): Key names one of Fields, field names are unique UTF-8; every
// Added and Changed row has one scalar cell per field and a non-null
// identity; every Removed value is a non-null scalar (malformed_delta, or
// the cell's category: invalid_utf8, out_of_range, unsupported_value); no
// identity appears twice in the whole delta (duplicate_key). It returns
// the canonical identities.
func CheckDelta(d *Delta) (DeltaIDs, error) {
	var ids DeltaIDs
	if d == nil {
		return ids, errf(lexer.MalformedDelta, "nil delta")
	}
	fields := d.Fields
	if len(fields) == 0 && len(d.Added)+len(d.Changed) == 0 {
		fields = []string{d.Key} // a delta of removals only need not declare the fields
	}
	dk, err := KeyIndex(d.Key, fields)
	if err != nil {
		return ids, err
	}
	seen := make(map[string]struct{}, len(d.Added)+len(d.Changed)+len(d.Removed))
	var buf []byte
	check := func(what string, rows [][]any) ([]string, error) {
		out := make([]string, len(rows))
		for i, row := range rows {
			if len(row) != len(fields) {
				return nil, errf(lexer.MalformedDelta, "%s row %d has %d cells for %d fields", what, i, len(row), len(fields))
			}
			for _, c := range row {
				if buf, err = AppendCell(buf[:0], c); err != nil {
					return nil, rowErr(err, what+" row", i)
				}
			}
			id, err := ID(row[dk])
			if err != nil {
				return nil, rowErr(err, what+" row", i)
			}
			if _, dup := seen[id]; dup {
				return nil, errf(lexer.DuplicateKey, "%s row %d: identity %s appears twice in the delta", what, i, id)
			}
			seen[id] = struct{}{}
			out[i] = id
		}
		return out, nil
	}
	if ids.Added, err = check("added", d.Added); err != nil {
		return ids, err
	}
	if ids.Changed, err = check("changed", d.Changed); err != nil {
		return ids, err
	}
	ids.Removed = make([]string, len(d.Removed))
	for i, v := range d.Removed {
		id, err := ID(v)
		if err != nil {
			return ids, rowErr(err, "removed identity", i)
		}
		if _, dup := seen[id]; dup {
			return ids, errf(lexer.DuplicateKey, "removed identity %d (%s) appears twice in the delta", i, id)
		}
		seen[id] = struct{}{}
		ids.Removed[i] = id
	}
	return ids, nil
}

// RootMismatch is the category of a root that does not identify the table
// it is checked against (the gcf package's RootMismatch).
const RootMismatch lexer.Category = "root_mismatch"
