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
	"strings"
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
// values: functions of this package never modify one they are given; the
// table Apply returns shares no memory with its arguments, while a Delta
// that Diff returns may share rows with the current table.
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
	a, err := analyze(t)
	if err != nil {
		return nil, err
	}
	return a.ids, nil
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

// appendRecord appends the canonical record of one row,
// R<TAB>field<TAB>value... <LF> with fields in byte order, and returns the
// offsets of the identity value (column k) within dst.
func appendRecord(dst []byte, fields []string, order []int, row []any, k int) (out []byte, idStart, idEnd int, err error) {
	dst = append(dst, 'R')
	for _, j := range order {
		dst = append(dst, '\t')
		dst = append(dst, fields[j]...)
		dst = append(dst, '\t')
		if j == k {
			if row[j] == nil {
				return dst, 0, 0, errf(lexer.MalformedDelta, "the identity %q is null (SPEC §10a.1)", fields[k])
			}
			idStart = len(dst)
		}
		if dst, err = AppendCell(dst, row[j]); err != nil {
			return dst, 0, 0, err
		}
		if j == k {
			idEnd = len(dst)
		}
	}
	return append(dst, '\n'), idStart, idEnd, nil
}

// analysis is one pass over a table: every row's canonical record, in one
// buffer, and the identities.
type analysis struct {
	ids       map[string]int // canonical identity -> row
	buf       []byte
	ends      []int // ends[i] is the end of row i's record in buf
	order     []int
	k         int
	sortedIdx []int // rows in byte order of their records, once sorted
}

func (a *analysis) record(i int) []byte {
	start := 0
	if i > 0 {
		start = a.ends[i-1]
	}
	return a.buf[start:a.ends[i]]
}

// analyze checks t and builds its records and identity index in one pass.
func analyze(t *Table) (*analysis, error) {
	k, err := KeyIndex(t.Key, t.Fields)
	if err != nil {
		return nil, err
	}
	a := &analysis{ids: make(map[string]int, len(t.Rows)), ends: make([]int, 0, len(t.Rows)), order: sortedOrder(t.Fields), k: k}
	for i, row := range t.Rows {
		if len(row) != len(t.Fields) {
			return nil, errf(lexer.MalformedDelta, "row %d has %d cells for %d fields", i, len(row), len(t.Fields))
		}
		if i == 1 {
			// Presize from the first record: one growth instead of many.
			a.buf = slices.Grow(a.buf, len(a.buf)*(len(t.Rows)+1))
		}
		var s, e int
		if a.buf, s, e, err = appendRecord(a.buf, t.Fields, a.order, row, k); err != nil {
			return nil, rowErr(err, "row", i)
		}
		id := string(a.buf[s:e])
		if _, dup := a.ids[id]; dup {
			return nil, errf(lexer.DuplicateKey, "row %d repeats the identity %s=%s (SPEC §10a.1)", i, t.Key, id)
		}
		a.ids[id] = i
		a.ends = append(a.ends, len(a.buf))
	}
	return a, nil
}

// sorted returns the records in byte order, remembering the row order of
// that sort in sortedIdx.
func (a *analysis) sorted() [][]byte {
	a.sortedIdx = make([]int, len(a.ends))
	for i := range a.sortedIdx {
		a.sortedIdx[i] = i
	}
	slices.SortFunc(a.sortedIdx, func(x, y int) int { return bytes.Compare(a.record(x), a.record(y)) })
	out := make([][]byte, len(a.sortedIdx))
	for n, i := range a.sortedIdx {
		out[n] = a.record(i)
	}
	return out
}

// hash returns the root of records already in byte order.
func (a *analysis) hash(sorted [][]byte) string {
	h := sha256.New()
	for _, r := range sorted {
		h.Write(r)
	}
	return Prefix + hex.EncodeToString(h.Sum(nil))
}

// records returns the records of rows, in row order.
func (a *analysis) records() [][]byte {
	recs := make([][]byte, len(a.ends))
	start := 0
	for i, e := range a.ends {
		recs[i] = a.buf[start:e:e]
		start = e
	}
	return recs
}

// hashRecords sorts recs bytewise (in place) and returns the root of
// their concatenation (SPEC §10a.3 steps 3-5).
func hashRecords(recs [][]byte) string {
	slices.SortFunc(recs, bytes.Compare)
	h := sha256.New()
	for _, r := range recs {
		h.Write(r)
	}
	return Prefix + hex.EncodeToString(h.Sum(nil))
}

// CanonicalBytes returns the bytes gcf-pack-root-v1 hashes for t (SPEC
// §10a.3 steps 1-4): one record per row, sorted bytewise, concatenated.
// t is checked as by Index.
func CanonicalBytes(t *Table) ([]byte, error) {
	a, err := analyze(t)
	if err != nil {
		return nil, err
	}
	recs := a.records()
	slices.SortFunc(recs, bytes.Compare)
	out := make([]byte, 0, len(a.buf))
	for _, r := range recs {
		out = append(out, r...)
	}
	return out, nil
}

// Root returns the gcf-pack-root-v1 root of t (SPEC §10a.3):
// "sha256:" and the 64 lowercase hex digits of the SHA-256 of
// CanonicalBytes(t). Row order does not change it; Tool, Name and
// PackRoot are not part of it. t is checked as by Index.
func Root(t *Table) (string, error) {
	a, err := analyze(t)
	if err != nil {
		return "", err
	}
	return hashRecords(a.records()), nil
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
// and NewRoot are set; Tool is left empty for the caller. Each table is
// canonicalized once: rows are compared by their canonical records.
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
	ba, err := analyze(base)
	if err != nil {
		return nil, err
	}
	sorted := ba.sorted()
	d := &Delta{Key: cur.Key, Fields: slices.Clone(cur.Fields), BaseRoot: ba.hash(sorted)}
	// Each row of cur is matched by identity; a row whose cells are the
	// base row's own values keeps the base record, so only new and changed
	// rows are canonicalized, and the new root merges the base's sorted
	// records that remain with the sorted new ones.
	type keyed struct {
		id  string
		row int
	}
	var added, changed []keyed
	kept := make([]bool, len(base.Rows))
	addedIDs := map[string]struct{}{}
	var fresh []byte
	var freshEnds []int
	var idBuf []byte
	for i, row := range cur.Rows {
		if len(row) != len(cur.Fields) {
			return nil, errf(lexer.MalformedDelta, "row %d has %d cells for %d fields", i, len(row), len(cur.Fields))
		}
		if row[ba.k] == nil {
			return nil, errf(lexer.MalformedDelta, "row %d: the identity %q is null (SPEC §10a.1)", i, cur.Key)
		}
		if idBuf, err = AppendCell(idBuf[:0], row[ba.k]); err != nil {
			return nil, rowErr(err, "row", i)
		}
		j, inBase := ba.ids[string(idBuf)]
		if inBase && kept[j] || !inBase && hasKey(addedIDs, idBuf) {
			return nil, errf(lexer.DuplicateKey, "row %d repeats the identity %s=%s (SPEC §10a.1)", i, cur.Key, idBuf)
		}
		if inBase && sameScalars(base.Rows[j], row) {
			kept[j] = true
			continue
		}
		mark := len(fresh)
		if fresh, _, _, err = appendRecord(fresh, cur.Fields, ba.order, row, ba.k); err != nil {
			return nil, rowErr(err, "row", i)
		}
		if inBase {
			kept[j] = true // matched: a repeat of the identity is an error
			if bytes.Equal(fresh[mark:], ba.record(j)) {
				fresh = fresh[:mark] // the same values in other types (2 and 2.0)
				continue
			}
			changed = append(changed, keyed{string(idBuf), i})
		} else {
			addedIDs[string(idBuf)] = struct{}{}
			added = append(added, keyed{string(idBuf), i})
		}
		freshEnds = append(freshEnds, len(fresh))
	}
	var removed []keyed
	for id, j := range ba.ids {
		if !kept[j] {
			removed = append(removed, keyed{id, j})
		}
	}
	// The base records that stay: unchanged rows (kept and not replaced).
	replaced := make([]bool, len(base.Rows))
	for _, x := range changed {
		replaced[ba.ids[x.id]] = true
	}
	remain := sorted[:0:0]
	for _, j := range ba.sortedIdx {
		if kept[j] && !replaced[j] {
			remain = append(remain, ba.record(j))
		}
	}
	d.NewRoot = mergeHash(remain, split(fresh, freshEnds))
	byID := func(x, y keyed) int { return strings.Compare(x.id, y.id) }
	slices.SortFunc(added, byID)
	slices.SortFunc(changed, byID)
	slices.SortFunc(removed, byID)
	d.Added = make([][]any, 0, len(added))
	d.Changed = make([][]any, 0, len(changed))
	d.Removed = make([]any, 0, len(removed))
	for _, x := range added {
		d.Added = append(d.Added, cur.Rows[x.row])
	}
	for _, x := range changed {
		d.Changed = append(d.Changed, cur.Rows[x.row])
	}
	for _, x := range removed {
		d.Removed = append(d.Removed, base.Rows[x.row][ba.k])
	}
	return d, nil
}

func hasKey(m map[string]struct{}, k []byte) bool {
	_, ok := m[string(k)]
	return ok
}

// sameScalars reports whether two rows hold the same scalar values of the
// same types (so the same canonical record). Cells of other types are
// never the same, which sends them to canonicalization and its errors.
func sameScalars(x, y []any) bool {
	for i := range x {
		switch a := x[i].(type) {
		case nil:
			if y[i] != nil {
				return false
			}
		case string:
			if b, ok := y[i].(string); !ok || a != b {
				return false
			}
		case int64:
			if b, ok := y[i].(int64); !ok || a != b {
				return false
			}
		case float64:
			if b, ok := y[i].(float64); !ok || a != b {
				return false
			}
		case bool:
			if b, ok := y[i].(bool); !ok || a != b {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// split cuts buf at ends into records.
func split(buf []byte, ends []int) [][]byte {
	recs := make([][]byte, len(ends))
	start := 0
	for i, e := range ends {
		recs[i] = buf[start:e:e]
		start = e
	}
	return recs
}

// mergeHash returns the root of the union of sorted (already in byte
// order) and fresh (sorted here, in place).
func mergeHash(sorted, fresh [][]byte) string {
	slices.SortFunc(fresh, bytes.Compare)
	h := sha256.New()
	i, j := 0, 0
	for i < len(sorted) || j < len(fresh) {
		if j == len(fresh) || i < len(sorted) && bytes.Compare(sorted[i], fresh[j]) <= 0 {
			h.Write(sorted[i])
			i++
		} else {
			h.Write(fresh[j])
			j++
		}
	}
	return Prefix + hex.EncodeToString(h.Sum(nil))
}

// Apply applies d to base atomically (SPEC §10a.5) and returns the new
// table; base is never modified, whatever the outcome. In order, the
// first failure is returned and nothing is applied:
//
//  1. When d.BaseRoot is non-empty, Root(base) must equal it, else
//     root_mismatch (a root of an unknown algorithm never matches).
//  2. The delta is validated: its Key must be base's (malformed_delta);
//     its Fields must be base's fields, in any order (malformed_delta;
//     a delta of removals only may declare none); then as by CheckDelta;
//     an Added identity must be absent from base, a Changed or Removed
//     one present (malformed_delta).
//  3. The result is built: base rows in base order, a Changed row in the
//     place of the row it replaces (cells reordered to base's fields),
//     Removed rows dropped, Added rows appended in delta order.
//  4. When d.NewRoot is non-empty, Root(result) must equal it, else
//     root_mismatch; the result's PackRoot is set to it.
//
// The result keeps base's Tool, Name, Key and Fields and shares no memory
// with base or d: its Fields and every row are copies, so that changing
// one never changes the other. The base is canonicalized once; the
// result's root reuses the records of the rows it keeps.
func Apply(base *Table, d *Delta) (*Table, error) {
	if base == nil || d == nil {
		return nil, errf(lexer.MalformedDelta, "Apply needs a base table and a delta")
	}
	ba, err := analyze(base)
	if err != nil {
		return nil, err
	}
	sorted := ba.sorted()
	if d.BaseRoot != "" {
		if root := ba.hash(sorted); root != d.BaseRoot {
			return nil, errf(RootMismatch, "base root does not equal delta base_root: the held table's root is %s, base_root is %s", root, d.BaseRoot)
		}
	}
	if d.Key != base.Key {
		return nil, errf(lexer.MalformedDelta, "the delta changes the identity field from %q to %q", base.Key, d.Key)
	}
	// perm[j] is the delta column holding base field j.
	perm := make([]int, len(base.Fields))
	for j := range perm {
		perm[j] = j
	}
	if len(d.Fields) > 0 || len(d.Added)+len(d.Changed) > 0 {
		if len(d.Fields) != len(base.Fields) {
			return nil, errf(lexer.MalformedDelta, "the delta's fields %q are not the table's fields %q", d.Fields, base.Fields)
		}
		for j, f := range base.Fields {
			if perm[j] = slices.Index(d.Fields, f); perm[j] < 0 {
				return nil, errf(lexer.MalformedDelta, "the delta's fields %q are not the table's fields %q", d.Fields, base.Fields)
			}
		}
	}
	ids, err := CheckDelta(d)
	if err != nil {
		return nil, err
	}
	for i, id := range ids.Added {
		if _, ok := ba.ids[id]; ok {
			return nil, errf(lexer.MalformedDelta, "added row %d: adding identity %s that already exists in the base table", i, id)
		}
	}
	replace := make(map[int]int, len(d.Changed)) // base row -> changed row
	for i, id := range ids.Changed {
		j, ok := ba.ids[id]
		if !ok {
			return nil, errf(lexer.MalformedDelta, "changed row %d: changing identity %s not in base", i, id)
		}
		replace[j] = i
	}
	removed := make(map[int]struct{}, len(d.Removed))
	for i, id := range ids.Removed {
		j, ok := ba.ids[id]
		if !ok {
			return nil, errf(lexer.MalformedDelta, "removed identity %d: removing identity %s not in base", i, id)
		}
		removed[j] = struct{}{}
	}
	// The result owns its memory: every row is a copy, all cut from one
	// slab, so that neither the base nor the delta can change it, nor it
	// them (cells are immutable scalars).
	nf := len(base.Fields)
	nrows := len(base.Rows) - len(removed) + len(d.Added)
	slab := make([]any, nrows*nf)
	next := func() []any {
		row := slab[:nf:nf]
		slab = slab[nf:]
		return row
	}
	remap := func(row []any) []any {
		out := next()
		for j, p := range perm {
			out[j] = row[p]
		}
		return out
	}
	res := &Table{Tool: base.Tool, Name: base.Name, Key: base.Key, Fields: slices.Clone(base.Fields)}
	res.Rows = make([][]any, 0, nrows)
	var fresh []byte
	var freshEnds []int
	add := func(row []any) {
		res.Rows = append(res.Rows, row)
		fresh, _, _, _ = appendRecord(fresh, base.Fields, ba.order, row, ba.k) // checked by CheckDelta
		freshEnds = append(freshEnds, len(fresh))
	}
	for j, row := range base.Rows {
		if _, gone := removed[j]; gone {
			continue
		}
		if i, ok := replace[j]; ok {
			add(remap(d.Changed[i]))
			continue
		}
		res.Rows = append(res.Rows, append(next()[:0], row...))
	}
	for _, row := range d.Added {
		add(remap(row))
	}
	if d.NewRoot != "" {
		// The base's sorted records that stay, merged with the new ones.
		remain := make([][]byte, 0, len(sorted))
		for n, j := range ba.sortedIdx {
			if _, gone := removed[j]; gone {
				continue
			}
			if _, ok := replace[j]; ok {
				continue
			}
			remain = append(remain, sorted[n])
		}
		if root := mergeHash(remain, split(fresh, freshEnds)); root != d.NewRoot {
			return nil, errf(RootMismatch, "the applied table's root is not new_root: computed %s, expected %s", root, d.NewRoot)
		}
		res.PackRoot = d.NewRoot
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
