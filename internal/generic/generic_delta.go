package generic

import (
	"bytes"
	"container/list"
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/keyset"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Generic-profile delta (SPEC §10a): the counterpart of the graph's
// Payload, Diff, EncodeDelta, DecodeDelta, ApplyDelta and PackRoot for a
// keyed set of rows. The set arithmetic lives in package keyset; this file
// writes and reads it as GCF.

// Table is a keyed set of scalar rows (SPEC §10a.1); see keyset.Table.
// NewTable builds one from a JSON value, DecodeTable from a payload.
type Table = keyset.Table

// GenericDelta is a generic-profile delta (SPEC §10a.2); see keyset.Delta.
type GenericDelta = keyset.Delta

// NewTable returns the keyed set that the JSON value v holds, identified by
// the field key: v is an array of objects (the root array `## [N]{...}`),
// or an object with exactly one member whose value is such an array
// (`## name [N]{...}`). Every object must have the same fields (declared in
// order of first appearance, SPEC §7.4.3) and scalar values only; an empty
// array gives the single field key. Errors: invalid_schema for any other
// shape (a keyed map, nested values, a row lacking a field: send such a
// value in full with EncodeGeneric), and the identity errors of
// GenericPackRoot.
func NewTable(v any, key string) (*Table, error) {
	nv, err := normalize(v)
	if err != nil {
		return nil, err
	}
	t := &Table{Key: key}
	rows, ok := nv.([]any)
	if !ok {
		obj, isObj := nv.(Object)
		if isObj && len(obj) == 1 {
			rows, ok = obj[0].Value.([]any)
			t.Name = obj[0].Key
		}
		if !ok {
			return nil, lexer.Errorf(lexer.InvalidSchema, "a keyed table is an array of objects, or an object with one member that is one (SPEC §10a); send this value in full")
		}
	}
	if len(rows) == 0 {
		t.Fields = []string{key}
		t.Rows = [][]any{}
		return t, nil
	}
	index := map[string]int{}
	for i, r := range rows {
		o, ok := r.(Object)
		if !ok {
			return nil, lexer.Errorf(lexer.InvalidSchema, "row %d of the keyed table is not an object", i)
		}
		for _, m := range o {
			if _, seen := index[m.Key]; !seen {
				if i > 0 {
					return nil, lexer.Errorf(lexer.InvalidSchema, "row %d has the field %q that row 0 lacks: a keyed table has no missing cells", i, m.Key)
				}
				index[m.Key] = len(t.Fields)
				t.Fields = append(t.Fields, m.Key)
			}
		}
	}
	t.Rows = make([][]any, len(rows))
	for i, r := range rows {
		o := r.(Object)
		if len(o) != len(t.Fields) {
			return nil, lexer.Errorf(lexer.InvalidSchema, "row %d has %d fields, row 0 has %d: a keyed table has no missing cells", i, len(o), len(t.Fields))
		}
		row := make([]any, len(t.Fields))
		for _, m := range o {
			switch m.Value.(type) {
			case Object, []any:
				return nil, lexer.Errorf(lexer.InvalidSchema, "row %d, field %q: a keyed table holds scalars only (SPEC §10a.3)", i, m.Key)
			}
			row[index[m.Key]] = m.Value
		}
		t.Rows[i] = row
	}
	if _, err := keyset.Index(t); err != nil {
		return nil, err
	}
	return t, nil
}

// TableValue returns the JSON value of t, the inverse of NewTable: an
// array of objects, wrapped in a one-member object when t has a Name.
func TableValue(t *Table) any {
	rows := make([]any, len(t.Rows))
	for i, r := range t.Rows {
		o := make(Object, len(t.Fields))
		for j, f := range t.Fields {
			o[j] = Member{Key: f, Value: r[j]}
		}
		rows[i] = o
	}
	if t.Name == "" {
		return rows
	}
	return Object{{Key: t.Name, Value: rows}}
}

// GenericPackRoot returns the gcf-pack-root-v1 root of the keyed set t
// (SPEC §10a.3): its rows as canonical records, sorted and hashed. Row
// order, Tool, Name and PackRoot do not change it. Errors: malformed_delta
// when Key is not one of Fields or an identity is null, duplicate_key for
// a repeated identity, duplicate_field_name, invalid_utf8, out_of_range for
// a non-finite number, unsupported_value for a cell that is not a scalar.
func GenericPackRoot(t *Table) (string, error) { return keyset.Root(t) }

// DiffGeneric returns the delta that turns base into current (SPEC
// §10a.2): added, changed (whole rows) and removed identities, each sorted
// by identity, with BaseRoot and NewRoot set and Tool empty. Tables of
// different schemas (identity field, or fields and their order) have no
// delta: invalid_schema, send the full payload (SPEC §10a.7).
// ApplyGenericDelta(base, DiffGeneric(base, current)) has the rows of current.
func DiffGeneric(base, current *Table) (*GenericDelta, error) { return keyset.Diff(base, current) }

// ApplyGenericDelta applies d to base atomically (SPEC §10a.5) and returns
// the new table, whose PackRoot is d.NewRoot once verified; base is never
// modified. A base_root or new_root that does not match is root_mismatch;
// an added identity already in base, a changed or removed one absent from
// it, a change of the identity field or of the field set is
// malformed_delta; an identity twice in the delta is duplicate_key. See
// keyset.Apply for the steps.
func ApplyGenericDelta(base *Table, d *GenericDelta) (*Table, error) { return keyset.Apply(base, d) }

// checkHeaderValue reports a value the header cannot carry (SPEC §4
// header-value: printable non-whitespace ASCII).
func checkHeaderValue(field, v string) error {
	if !encoder.IsToken(v) {
		return lexer.Errorf(lexer.MalformedHeaderField, "%s %q is not a header value (printable non-whitespace ASCII)", field, v)
	}
	return nil
}

func appendKeyedRow(b []byte, row []any) ([]byte, error) {
	var err error
	for j, c := range row {
		if j > 0 {
			b = encoder.AppendCellSep(b)
		}
		if b, err = appendScalarCell(b, c, encoder.Cell); err != nil {
			return b, err
		}
	}
	return encoder.AppendLineEnd(b), nil
}

// appendDeltaHeader appends the header of a generic delta (SPEC §10a.2)
// up to its optional savings= field: `GCF profile=generic[ tool=T]
// delta=true base_root=B new_root=N key=K`.
func appendDeltaHeader(b []byte, tool, baseRoot, newRoot, key string) []byte {
	b = encoder.AppendHeader(b, "generic")
	if tool != "" {
		b = encoder.AppendHeaderField(b, "tool", tool)
	}
	b = encoder.AppendHeaderField(b, "delta", "true")
	b = encoder.AppendHeaderField(b, "base_root", baseRoot)
	b = encoder.AppendHeaderField(b, "new_root", newRoot)
	return encoder.AppendHeaderField(b, "key", key)
}

func appendKeyedSection(b []byte, name string, fields []string, key string, rows [][]any) ([]byte, error) {
	b = encoder.AppendSection(b, name)
	b = encoder.AppendCount(b, len(rows), false)
	b = encoder.AppendKeyedFieldDecl(b, fields, key)
	b = encoder.AppendLineEnd(b)
	var err error
	for _, r := range rows {
		if b, err = appendKeyedRow(b, r); err != nil {
			return b, err
		}
	}
	return b, nil
}

// finish checks the output against the limits and returns a copy.
func finish(b []byte, lim Limits, rows, fields int) ([]byte, error) {
	if err := finishCheck(b, lim, rows, fields); err != nil {
		return nil, err
	}
	return bytes.Clone(b), nil
}

// finishCheck checks the output against the limits.
func finishCheck(b []byte, lim Limits, rows, fields int) error {
	l := encoder.NewLimiter(lim)
	if err := l.Elements(rows, "a keyed table"); err != nil {
		return err
	}
	if err := l.Fields(fields); err != nil {
		return err
	}
	return l.Output(b)
}

// EncodeTable writes the full, delta-participating payload of t (SPEC
// §10a.1): its root computed afresh (t.PackRoot is ignored), then
//
//	GCF profile=generic[ tool=T] pack_root=R key=K
//	## name [N]{f1,@K,f2}
//	rows in t's order
//
// (`## [N]{...}` when Name is empty). Errors: those of GenericPackRoot,
// malformed_header_field when Tool or Key cannot be a header value, and
// the limit errors of EncodeGeneric.
func EncodeTable(t *Table, opts ...Option) ([]byte, error) {
	c := newConfig(opts)
	if err := noV1(c.Wire, "EncodeTable"); err != nil {
		return nil, err
	}
	if t == nil {
		return nil, lexer.Errorf(lexer.MalformedDelta, "nil table")
	}
	root, err := keyset.Root(t)
	if err != nil {
		return nil, err
	}
	return appendTable(t, root, c.Limits)
}

func appendTable(t *Table, root string, lim Limits) ([]byte, error) {
	if t.Tool != "" {
		if err := checkHeaderValue("tool", t.Tool); err != nil {
			return nil, err
		}
	}
	if err := checkHeaderValue("key", t.Key); err != nil {
		return nil, err
	}
	if t.Name != "" {
		l := encoder.NewLimiter(lim)
		if err := l.Depth(2); err != nil { // the root object and the table
			return nil, err
		}
	}
	// Sized from the first row: one allocation, returned as is.
	b := make([]byte, 0, 256+len(t.Fields)*16)
	b = encoder.AppendHeader(b, "generic")
	if t.Tool != "" {
		b = encoder.AppendHeaderField(b, "tool", t.Tool)
	}
	b = encoder.AppendHeaderField(b, "pack_root", root)
	b = encoder.AppendHeaderField(b, "key", t.Key)
	b = encoder.AppendLineEnd(b)
	b = encoder.AppendSection(b, t.Name)
	b = encoder.AppendCount(b, len(t.Rows), false)
	b = encoder.AppendKeyedFieldDecl(b, t.Fields, t.Key)
	b = encoder.AppendLineEnd(b)
	var err error
	for i, r := range t.Rows {
		start := len(b)
		if b, err = appendKeyedRow(b, r); err != nil {
			return nil, err
		}
		if i == 0 {
			b = slices.Grow(b, (len(b)-start)*(len(t.Rows)+len(t.Rows)/8))
		}
	}
	if err := finishCheck(b, lim, len(t.Rows), len(t.Fields)); err != nil {
		return nil, err
	}
	return b, nil
}

// EncodeGenericDelta writes d as a generic delta payload (SPEC §10a.2):
//
//	GCF profile=generic[ tool=T] delta=true base_root=B new_root=N key=K[ savings=S%]
//	## added [n]{@K,f1,f2}
//	## changed [n]{@K,f1,f2}
//	## removed [n]{@K}
//
// sections in that order (SPEC §10a.6) and only when non-empty, rows in
// d's order. savings= is written when FullTokens is positive, rounded as
// for EncodeDelta. Errors: malformed_delta for an empty or non-header-value
// BaseRoot or NewRoot, malformed_header_field for Tool or Key, the errors
// of keyset.CheckDelta (what DecodeGenericDelta would reject), out_of_range
// for negative token counts, and the limit errors of EncodeGeneric.
func EncodeGenericDelta(d *GenericDelta, opts ...Option) ([]byte, error) {
	c := newConfig(opts)
	if err := noV1(c.Wire, "EncodeGenericDelta"); err != nil {
		return nil, err
	}
	if d == nil {
		return nil, lexer.Errorf(lexer.MalformedDelta, "nil delta")
	}
	if !encoder.IsToken(d.BaseRoot) || !encoder.IsToken(d.NewRoot) {
		return nil, lexer.Errorf(lexer.MalformedDelta, "base_root %q and new_root %q must be non-empty header values", d.BaseRoot, d.NewRoot)
	}
	if d.Tool != "" {
		if err := checkHeaderValue("tool", d.Tool); err != nil {
			return nil, err
		}
	}
	if err := checkHeaderValue("key", d.Key); err != nil {
		return nil, err
	}
	if d.DeltaTokens < 0 || d.FullTokens < 0 {
		return nil, lexer.Errorf(lexer.OutOfRange, "negative token counts (delta %d, full %d)", d.DeltaTokens, d.FullTokens)
	}
	fields := d.Fields
	if len(fields) == 0 && len(d.Added)+len(d.Changed) == 0 {
		fields = []string{d.Key}
	}
	if _, err := keyset.CheckDelta(&GenericDelta{Key: d.Key, Fields: fields, Added: d.Added, Changed: d.Changed, Removed: d.Removed}); err != nil {
		return nil, err
	}
	lim := c.Limits
	buf := encoder.GetBuffer()
	defer encoder.PutBuffer(buf)
	b := appendDeltaHeader(buf.B[:0], d.Tool, d.BaseRoot, d.NewRoot, d.Key)
	if d.FullTokens > 0 {
		b = encoder.AppendHeaderPercent(b, "savings", encoder.Savings(d.DeltaTokens, d.FullTokens))
	}
	b = encoder.AppendLineEnd(b)
	var err error
	if len(d.Added) > 0 {
		b, err = appendKeyedSection(b, "added", fields, d.Key, d.Added)
	}
	if err == nil && len(d.Changed) > 0 {
		b, err = appendKeyedSection(b, "changed", fields, d.Key, d.Changed)
	}
	if err == nil && len(d.Removed) > 0 {
		b = encoder.AppendSection(b, "removed")
		b = encoder.AppendCount(b, len(d.Removed), false)
		b = encoder.AppendKeyedFieldDecl(b, []string{d.Key}, d.Key)
		b = encoder.AppendLineEnd(b)
		for _, id := range d.Removed {
			if b, err = appendKeyedRow(b, []any{id}); err != nil {
				break
			}
		}
	}
	buf.B = b
	if err != nil {
		return nil, err
	}
	return finish(b, lim, max(len(d.Added), len(d.Changed), len(d.Removed)), len(fields))
}

// EncodeGenericUnchanged writes the header-only answer of SPEC §10a.4
// outcome 1: `GCF profile=generic[ tool=T] unchanged=true pack_root=R count=N`.
func EncodeGenericUnchanged(tool, packRoot string, count int) ([]byte, error) {
	if tool != "" {
		if err := checkHeaderValue("tool", tool); err != nil {
			return nil, err
		}
	}
	if err := checkHeaderValue("pack_root", packRoot); err != nil {
		return nil, err
	}
	if count < 0 {
		return nil, lexer.Errorf(lexer.OutOfRange, "negative row count %d", count)
	}
	b := encoder.AppendHeader(nil, "generic")
	if tool != "" {
		b = encoder.AppendHeaderField(b, "tool", tool)
	}
	b = encoder.AppendHeaderField(b, "unchanged", "true")
	b = encoder.AppendHeaderField(b, "pack_root", packRoot)
	b = encoder.AppendHeaderInt(b, "count", int64(count))
	return encoder.AppendLineEnd(b), nil
}

// keyedReader turns stream events of a keyed payload into rows.
type keyedReader struct {
	b      builder
	header map[string]string
}

func newKeyedReader(data []byte, cfg config) (*keyedReader, error) {
	r := &keyedReader{b: builder{d: stream.NewBytesDecoder(data, cfg.Limits), budget: len(data)/2 + 1}}
	r.b.d.SetExpand(true)
	ev, err := r.b.next()
	if err != nil {
		return nil, err
	}
	if ev.Kind != stream.KindHeader {
		return nil, errors.New("gcf: internal error: stream did not start with a header")
	}
	if ev.Profile != "generic" {
		return nil, &SyntaxError{Line: 1, Column: profileCol(ev), Category: lexer.UnknownProfile,
			Msg: "a keyed table needs profile=generic, got profile=" + ev.Profile}
	}
	r.header = make(map[string]string, len(ev.Fields))
	for i, k := range ev.Fields {
		r.header[string(k)] = string(ev.Cells[i].Bytes)
	}
	return r, nil
}

func (r *keyedReader) errAt(ev *stream.Event, msg string) error {
	return &SyntaxError{Line: ev.Line, Column: 1, Offset: ev.Offset, Category: lexer.MalformedDelta, Msg: msg}
}

// rows reads the rows of the table ev opened, through its end event, in
// the column order of want (nil: as declared).
func (r *keyedReader) rows(fields [][]byte, want []string) ([][]any, error) {
	perm := make([]int, len(fields))
	for i := range perm {
		perm[i] = i
	}
	for i, f := range want { // the stream checked that want and fields are one set
		for j, g := range fields {
			if string(g) == f {
				perm[i] = j
			}
		}
	}
	var out [][]any
	for {
		ev, err := r.b.next()
		if err != nil {
			return nil, err
		}
		if ev.Kind != stream.KindRow {
			if ev.Kind != stream.KindArrayEnd {
				return nil, errors.New("gcf: internal error: " + ev.Kind.String() + " in a keyed table")
			}
			if out == nil {
				out = [][]any{}
			}
			return out, nil
		}
		row := make([]any, len(ev.Cells))
		for i, j := range perm {
			if row[i], err = r.b.scalar(&ev.Cells[j]); err != nil {
				return nil, err
			}
		}
		out = append(out, row)
	}
}

func (r *keyedReader) end() error {
	for {
		ev, err := r.b.read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if ev.Kind == stream.KindEnd {
			return nil
		}
		if ev.Kind != stream.KindSummary && ev.Kind != stream.KindObjectEnd {
			return r.errAt(ev, "a keyed payload holds one table and nothing else (SPEC §10a.1)")
		}
	}
}

func strs(fields [][]byte) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = string(f)
	}
	return out
}

// DecodeTable decodes a delta-participating full payload (SPEC §10a.1):
// a generic header naming key= and one table marking that field with `@`,
// as the root array or the only member of the root object. PackRoot is the
// header's pack_root as given (ReceiveGeneric verifies it). The stream
// decoder rejects every malformed identity with its position
// (malformed_delta, or duplicate_key for a repeated identity); a payload
// with no key=, or with anything beside its one table, is malformed_delta.
func DecodeTable(data []byte, opts ...Option) (*Table, error) {
	c := newConfig(opts)
	if err := noV1(c.Wire, "DecodeTable"); err != nil {
		return nil, err
	}
	r, err := newKeyedReader(data, c)
	if err != nil {
		return nil, err
	}
	key, ok := r.header["key"]
	if !ok {
		return nil, &SyntaxError{Line: 1, Column: 1, Category: lexer.MalformedDelta, Msg: "the header names no key=: the payload is not a keyed table (SPEC §10a.1)"}
	}
	if r.header["delta"] == "true" || r.header["unchanged"] == "true" {
		return nil, &SyntaxError{Line: 1, Column: 1, Category: lexer.MalformedDelta, Msg: "a delta or unchanged answer is not a full table (use ReceiveGeneric)"}
	}
	t := &Table{Tool: r.header["tool"], Key: key, PackRoot: r.header["pack_root"]}
	ev, err := r.b.next()
	if err != nil {
		return nil, err
	}
	if ev.Kind == stream.KindObjectStart && ev.Form == stream.FormSection {
		if ev, err = r.b.next(); err != nil {
			return nil, err
		}
		if ev.Kind != stream.KindArrayStart || ev.Role != stream.RoleMember {
			return nil, r.errAt(ev, "a keyed payload holds one table (SPEC §10a.1)")
		}
		t.Name = string(ev.Key)
	}
	if ev.Kind != stream.KindArrayStart || (ev.Form != stream.FormTabular && ev.Form != stream.FormEmpty) || len(ev.Fields) == 0 {
		return nil, r.errAt(ev, "a keyed payload holds one table [N]{...} (SPEC §10a.1; keyed maps are not read as tables)")
	}
	t.Fields = strs(ev.Fields)
	if ev.Form == stream.FormEmpty {
		t.Rows = [][]any{}
		if _, err := r.b.next(); err != nil { // its ArrayEnd
			return nil, err
		}
	} else if t.Rows, err = r.rows(ev.Fields, nil); err != nil {
		return nil, err
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	return t, nil
}

// DecodeGenericDelta decodes a generic delta payload (SPEC §10a.2). The
// stream decoder validates it with positions: a header with delta=true
// needs base_root, new_root and key; only `## added`, `## changed` and
// `## removed` tables; one `@` identity field, the header's key, with
// removed declaring only it and added and changed the same fields; scalar
// cells and non-null identities (malformed_delta otherwise); no identity
// twice in the whole delta (duplicate_key); counts (count_mismatch) and
// widths (row_width_mismatch) as everywhere. Rows of a later section whose
// declaration orders the fields differently are reordered to the first's.
func DecodeGenericDelta(data []byte, opts ...Option) (*GenericDelta, error) {
	c := newConfig(opts)
	if err := noV1(c.Wire, "DecodeGenericDelta"); err != nil {
		return nil, err
	}
	r, err := newKeyedReader(data, c)
	if err != nil {
		return nil, err
	}
	if r.header["delta"] != "true" {
		return nil, &SyntaxError{Line: 1, Column: 1, Category: lexer.MalformedDelta, Msg: "not a delta payload: the header has no delta=true"}
	}
	d := &GenericDelta{Tool: r.header["tool"], Key: r.header["key"], BaseRoot: r.header["base_root"], NewRoot: r.header["new_root"],
		Added: [][]any{}, Changed: [][]any{}, Removed: []any{}}
	ev, err := r.b.next()
	if err != nil {
		return nil, err
	}
	if ev.Kind != stream.KindObjectStart {
		return nil, r.errAt(ev, "a generic delta holds only sections")
	}
	for {
		ev, err := r.b.next()
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindObjectEnd:
			if d.Fields == nil {
				d.Fields = []string{}
			}
			return d, r.end()
		case stream.KindArrayStart:
		default:
			return nil, r.errAt(ev, "a generic delta holds only sections")
		}
		name := string(ev.Key)
		if name != "removed" && d.Fields == nil && len(ev.Fields) > 0 {
			d.Fields = strs(ev.Fields)
		}
		var rows [][]any
		if ev.Form == stream.FormEmpty {
			if _, err := r.b.next(); err != nil {
				return nil, err
			}
		} else {
			want := d.Fields
			if name == "removed" {
				want = nil
			}
			if rows, err = r.rows(ev.Fields, want); err != nil {
				return nil, err
			}
		}
		switch name {
		case "added":
			d.Added = append(d.Added, rows...)
		case "changed":
			d.Changed = append(d.Changed, rows...)
		case "removed":
			for _, row := range rows {
				d.Removed = append(d.Removed, row[0])
			}
		}
	}
}

// BeginDelta starts a streamed generic delta (SPEC §10a.2, §8): it writes
// the header `GCF profile=generic[ tool=T] delta=true base_root=B
// new_root=N key=K`. The sections follow as tables: BeginTable("added",
// fields...) and BeginTable("changed", fields...) with the same fields,
// key among them, and BeginTable("removed", key), each section at most
// once; WriteRow or WriteRecord writes their rows and Close the
// `##! summary` trailer of their `[?]` counts. The identity field is
// marked `@` in every declaration. A row must hold scalars only and a
// non-null identity (malformed_delta), and no identity may be written
// twice in the delta (duplicate_key): the encoder keeps the identities
// written so far, so its memory grows with their number and no more.
// Producers compute newRoot before streaming, with GenericPackRoot of the
// current table.
func (e *Encoder) BeginDelta(tool, key, baseRoot, newRoot string) error {
	if e.closed {
		return errClosed
	}
	if e.wire == WireV1 {
		return noV1(WireV1, "BeginDelta")
	}
	if e.graph != nil || e.started {
		return lexer.Errorf(lexer.InvalidSchema, "BeginDelta starts a payload; this encoder has already started one")
	}
	if !encoder.IsToken(baseRoot) || !encoder.IsToken(newRoot) {
		return lexer.Errorf(lexer.MalformedDelta, "base_root %q and new_root %q must be non-empty header values", baseRoot, newRoot)
	}
	if tool != "" {
		if err := checkHeaderValue("tool", tool); err != nil {
			return err
		}
	}
	if err := checkHeaderValue("key", key); err != nil {
		return err
	}
	buf := e.w.Buf()
	b := encoder.AppendLineEnd(appendDeltaHeader(buf, tool, baseRoot, newRoot, key))
	if err := e.commit(buf, b); err != nil {
		return err
	}
	e.started = true
	e.delta = &deltaStream{key: key, ids: map[string]struct{}{}}
	return nil
}

// deltaSection checks a section opened on a streamed delta.
func (e *Encoder) deltaSection(name string, fields []string, keyed bool) error {
	ds := e.delta
	if keyed {
		return lexer.Errorf(lexer.MalformedDelta, "a delta section is a table, not a keyed map (SPEC §10a.2)")
	}
	ds.idCol = -1
	for i, f := range fields {
		if f == ds.key {
			ds.idCol = i
		}
	}
	if ds.idCol < 0 {
		return lexer.Errorf(lexer.MalformedDelta, "section %q does not declare the identity field %q", name, ds.key)
	}
	switch name {
	case "removed":
		if len(fields) != 1 {
			return lexer.Errorf(lexer.MalformedDelta, "## removed declares only the identity field %q (SPEC §10a.2)", ds.key)
		}
	case "added", "changed":
		if ds.fields == nil {
			ds.fields = fields
		} else if !sameStringSet(ds.fields, fields) {
			return lexer.Errorf(lexer.MalformedDelta, "## added and ## changed declare different fields (%q, %q)", ds.fields, fields)
		}
	default:
		return lexer.Errorf(lexer.MalformedDelta, "unknown generic delta section %q (SPEC §10a.2: added, changed, removed)", name)
	}
	return nil
}

func sameStringSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range b {
		found := false
		for _, y := range a {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// deltaRow checks a row of a streamed delta and returns its canonical identity.
func (e *Encoder) deltaRow(values []any) (string, error) {
	for i, v := range values {
		if _, ok := v.(missing); ok {
			return "", lexer.Errorf(lexer.MalformedDelta, "%s: a delta row holds every field (no Missing)", e.rowName(i))
		}
	}
	v, err := normalize(values[e.delta.idCol])
	if err != nil {
		return "", err
	}
	id, err := keyset.ID(v)
	if err != nil {
		return "", lexer.Errorf(CategoryOf(err), "%s: %v", e.rowName(e.delta.idCol), err.(*SyntaxError).Msg)
	}
	if _, dup := e.delta.ids[id]; dup {
		return "", lexer.Errorf(lexer.DuplicateKey, "%s: identity %s is already in the delta", e.rowName(e.delta.idCol), id)
	}
	return id, nil
}

// CanonicalGenericBytes returns the bytes GenericPackRoot hashes (SPEC
// §10a.3 steps 1-4): one record `R<TAB>field<TAB>value...<LF>` per row,
// fields in byte order, values in canonical hash form, records sorted.
func CanonicalGenericBytes(t *Table) ([]byte, error) { return keyset.CanonicalBytes(t) }

// ---- DeltaSession and the three-outcome protocol for keyed tables ----

// DefaultReanchorEvery is the re-anchor cadence SPEC §10a.8 suggests: a
// full payload at least every 15 responses.
const DefaultReanchorEvery = 15

// DefaultMaxConsumers is the number of consumers a DeltaSession remembers
// when NewDeltaSession is given no bound.
const DefaultMaxConsumers = 1024

// ReanchorPolicy says when a DeltaSession sends a full payload ("re-anchors",
// SPEC §10a.8) although it could send a delta. Each rule is checked on
// every response that could be a delta; any one of them makes it full.
type ReanchorPolicy struct {
	// Every: the Every-th answer after a full payload that changes the
	// consumer's table (unchanged answers do not count) is full again
	// (SPEC §10a.8 default, N=15). 0 means DefaultReanchorEvery; a
	// negative value never re-anchors by count.
	Every int
	// MaxFraction: a delta is sent only when it is smaller than this
	// fraction of the full payload (the size guard of SPEC §10a.2 and
	// §10a.7). 0 means DeltaThreshold (0.6); a negative value turns the
	// per-response guard off.
	MaxFraction float64
	// Cumulative: when positive, re-anchor once the bytes of the deltas
	// sent since the last full payload, this one included, reach this
	// fraction of the full payload (the adaptive rule of SPEC §10a.8,
	// whose "approaches a full payload's size" is 1.0). 0 turns it off.
	Cumulative float64
}

// DeltaSession is the producer side of the generic delta protocol for many
// consumers (SPEC §10a.4, §10a.8): it remembers, per consumer, the table
// it last sent and answers each new result with unchanged, a delta from
// that table, or a full payload as its ReanchorPolicy says. Deltas carry
// no tool= (their base already names it; the reference SDK's session
// writes them so); full payloads are EncodeTable's.
//
// Memory is bounded: it keeps at most MaxConsumers consumers, forgetting
// the least recently answered (who then gets a full payload), and per
// consumer one table, shared, not copied: tables given to Respond must not
// be modified afterwards. It is safe for concurrent use; answers to one
// consumer are serialized.
type DeltaSession struct {
	policy ReanchorPolicy
	max    int

	mu        sync.Mutex
	consumers map[string]*list.Element // of *consumerState
	lru       list.List
}

type consumerState struct {
	id        string
	mu        sync.Mutex
	held      *Table // the table last sent, nil before the first answer
	root      string
	sinceFull int // answers since the last full payload that changed the table
	cum       int // bytes of the deltas sent since the last full payload
}

// NewDeltaSession returns a session with the given policy, remembering at
// most maxConsumers consumers (DefaultMaxConsumers when maxConsumers <= 0).
func NewDeltaSession(policy ReanchorPolicy, maxConsumers int) *DeltaSession {
	if policy.Every == 0 {
		policy.Every = DefaultReanchorEvery
	}
	if policy.MaxFraction == 0 {
		policy.MaxFraction = DeltaThreshold
	}
	if maxConsumers <= 0 {
		maxConsumers = DefaultMaxConsumers
	}
	return &DeltaSession{policy: policy, max: maxConsumers, consumers: map[string]*list.Element{}}
}

// state returns the consumer's state, creating it (and evicting the least
// recently used one beyond the bound) as needed.
func (s *DeltaSession) state(consumer string) *consumerState {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.consumers[consumer]; ok {
		s.lru.MoveToFront(e)
		return e.Value.(*consumerState)
	}
	st := &consumerState{id: consumer}
	s.consumers[consumer] = s.lru.PushFront(st)
	for s.lru.Len() > s.max {
		old := s.lru.Back()
		s.lru.Remove(old)
		delete(s.consumers, old.Value.(*consumerState).id)
	}
	return st
}

// Forget drops what the session remembers of consumer; its next answer is full.
func (s *DeltaSession) Forget(consumer string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.consumers[consumer]; ok {
		s.lru.Remove(e)
		delete(s.consumers, consumer)
	}
}

// Len returns the number of consumers remembered.
func (s *DeltaSession) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Respond answers consumer, who echoes consumerRoot (the pack root it
// holds; "" for none), with current: unchanged when consumerRoot is
// current's root; a delta from the table the
// session last sent when consumerRoot names that table, the schema is the
// same (SPEC §10a.7) and no rule of the policy re-anchors; otherwise the
// full payload. The session then remembers current as what the consumer
// holds. Errors are those of GenericPackRoot and the encoders; on error
// nothing is remembered.
func (s *DeltaSession) Respond(consumer, consumerRoot string, current *Table) ([]byte, Outcome, error) {
	if current == nil {
		return nil, 0, lexer.Errorf(lexer.MalformedDelta, "Respond needs the current table")
	}
	root, err := GenericPackRoot(current)
	if err != nil {
		return nil, 0, err
	}
	st := s.state(consumer)
	st.mu.Lock()
	defer st.mu.Unlock()
	if consumerRoot == root {
		out, err := EncodeGenericUnchanged(current.Tool, root, len(current.Rows))
		if err == nil && st.root != root {
			st.held, st.root, st.sinceFull, st.cum = current, root, 0, 0
		}
		return out, OutcomeUnchanged, err
	}
	known := st.held != nil && consumerRoot != "" && consumerRoot == st.root
	lim := defaultLimits
	var full []byte
	fullBytes := func() ([]byte, error) {
		if full == nil {
			full, err = appendTable(current, root, lim)
		}
		return full, err
	}
	if known && keyset.SameSchema(st.held, current) && (s.policy.Every < 0 || st.sinceFull+1 < s.policy.Every) {
		d, err := DiffGeneric(st.held, current)
		if err != nil {
			return nil, 0, err
		}
		delta, err := EncodeGenericDelta(d)
		if err != nil {
			return nil, 0, err
		}
		send := true
		if s.policy.MaxFraction > 0 || s.policy.Cumulative > 0 {
			f, err := fullBytes()
			if err != nil {
				return nil, 0, err
			}
			if s.policy.MaxFraction > 0 && float64(len(delta)) >= s.policy.MaxFraction*float64(len(f)) {
				send = false
			}
			if s.policy.Cumulative > 0 && float64(st.cum+len(delta)) >= s.policy.Cumulative*float64(len(f)) {
				send = false
			}
		}
		if send {
			st.held, st.root = current, root
			st.sinceFull++
			st.cum += len(delta)
			return delta, OutcomeDelta, nil
		}
	}
	f, err := fullBytes()
	if err != nil {
		return nil, 0, err
	}
	st.held, st.root = current, root
	st.sinceFull, st.cum = 0, 0
	return f, OutcomeFull, nil
}

// RespondGeneric is Respond for a keyed table (SPEC §10a.4): given the
// root the consumer holds (empty for none) and prior, the table the
// producer kept for it (nil for none), it answers with an unchanged
// payload when the roots match; a delta from prior (with current's tool)
// when prior is the table consumerRoot names, has current's schema, and
// the delta is smaller than DeltaThreshold of the full payload; otherwise
// the full payload (EncodeTable). A root of an unknown algorithm names no
// table (SPEC §10.2), so it gets the full payload. Neither table is
// modified.
func RespondGeneric(current *Table, consumerRoot string, prior *Table) ([]byte, Outcome, error) {
	if current == nil {
		return nil, 0, lexer.Errorf(lexer.MalformedDelta, "RespondGeneric needs the current table")
	}
	root, err := GenericPackRoot(current)
	if err != nil {
		return nil, 0, err
	}
	if consumerRoot == root {
		out, err := EncodeGenericUnchanged(current.Tool, root, len(current.Rows))
		return out, OutcomeUnchanged, err
	}
	lim := defaultLimits
	full, err := appendTable(current, root, lim)
	if err != nil {
		return nil, 0, err
	}
	if prior != nil && consumerRoot != "" {
		if d, err := DiffGeneric(prior, current); err == nil && d.BaseRoot == consumerRoot {
			d.Tool = current.Tool
			out, err := EncodeGenericDelta(d)
			if err != nil {
				return nil, 0, err
			}
			if float64(len(out)) < DeltaThreshold*float64(len(full)) {
				return out, OutcomeDelta, nil
			}
		}
	}
	return full, OutcomeFull, nil
}

// ReceiveGeneric is Receive for a keyed table (SPEC §10a.4, §10a.5): given
// the table it holds (nil for none) and the producer's answer, it returns
// the table to hold next. An unchanged answer must name held's root; a
// delta is decoded and applied atomically, both roots verified
// (root_mismatch otherwise, held untouched); a full payload is decoded
// with DecodeTable and its pack_root, when present, verified. On any error
// the caller keeps held and should ask for a full payload.
func ReceiveGeneric(held *Table, answer []byte) (*Table, Outcome, error) {
	header, _, _ := bytes.Cut(answer, []byte("\n"))
	has := func(f string) bool {
		for _, x := range bytes.Fields(header) {
			if string(x) == f {
				return true
			}
		}
		return false
	}
	switch {
	case has("profile=generic") && has("unchanged=true"):
		if _, err := DecodeGeneric(answer); err != nil {
			return nil, 0, err
		}
		if held == nil {
			return nil, 0, lexer.Errorf(RootMismatch, "unchanged answer but no table is held")
		}
		root, err := GenericPackRoot(held)
		if err != nil {
			return nil, 0, err
		}
		named := false
		for _, x := range bytes.Fields(header) {
			if v, ok := bytes.CutPrefix(x, []byte("pack_root=")); ok && string(v) == root {
				named = true
			}
			if v, ok := bytes.CutPrefix(x, []byte("count=")); ok {
				n, err := strconv.ParseUint(string(v), 10, 63)
				if err != nil {
					return nil, 0, lexer.Errorf(MalformedHeaderField, "unchanged answer: count=%s is not a row count", lexer.Excerpt(v))
				}
				if n != uint64(len(held.Rows)) {
					return nil, 0, lexer.Errorf(CountMismatch, "unchanged answer says count=%d but the held table has %d rows", n, len(held.Rows))
				}
			}
		}
		if named {
			return held, OutcomeUnchanged, nil
		}
		return nil, 0, lexer.Errorf(RootMismatch, "unchanged answer does not name the held table's root %s", root)
	case has("profile=generic") && has("delta=true"):
		if held == nil {
			return nil, 0, lexer.Errorf(RootMismatch, "delta answer but no table is held")
		}
		d, err := DecodeGenericDelta(answer)
		if err != nil {
			return nil, 0, err
		}
		t, err := ApplyGenericDelta(held, d)
		if err != nil {
			return nil, 0, err
		}
		return t, OutcomeDelta, nil
	}
	t, err := DecodeTable(answer)
	if err != nil {
		return nil, 0, err
	}
	if t.PackRoot != "" {
		root, err := GenericPackRoot(t)
		if err != nil {
			return nil, 0, err
		}
		if root != t.PackRoot {
			return nil, 0, lexer.Errorf(RootMismatch, "pack_root %s does not identify the table (its root is %s)", t.PackRoot, root)
		}
	}
	return t, OutcomeFull, nil
}
