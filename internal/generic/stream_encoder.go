package generic

import (
	"io"
	"strconv"
	"strings"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/graph"
	"github.com/gcfkit/gcf/lexer"
)

// Missing is the value a streaming row cell takes when the field is absent
// from its record; it is written as `~` (SPEC §7.4.2).
var Missing = missing{}

type missing struct{}

// Encoder writes GCF to an io.Writer through pooled buffers. Encode writes
// one complete buffered payload; BeginTable, WriteRow/WriteRecord and
// EndTable write streaming generic-profile tables with deferred counts
// (SPEC §8), and Close adds the `##! summary` trailer. BeginGraph,
// WriteSymbol and WriteEdge write a streaming graph-profile payload instead
// (see BeginGraph); one encoder writes one payload of one profile, and the
// methods of the other profile are rejected. Every method returns an error
// and leaves the encoder unchanged when it fails. Not safe for concurrent
// use.
//
// The limits given to NewEncoder govern every line it writes, as they do
// for EncodeGeneric: a call whose output the decoder with the same limits
// would reject fails with the decoder's category (line_too_long,
// too_many_elements, too_many_fields, depth_exceeded, payload_too_large)
// and writes nothing; a string cell longer than the line limit is refused
// before it is buffered, so memory stays bounded by the line limit.
type Encoder struct {
	w        *encoder.Writer
	lim      encoder.Limiter
	total    int64 // bytes committed so far
	lines    int   // lines committed so far
	started  bool  // header written
	root     bool  // the payload is a streamed root array
	closed   bool
	keys     map[string]struct{}
	table    *streamTable
	deferred []int
	graph    *graph.Stream // non-nil once BeginGraph has written the header
	wire     Wire          // WithWire: WireV1 writes the legacy v1.x wire
	names    []string      // v1: the names of the closed tables, for the ## _summary trailer
	delta    *deltaStream  // non-nil once BeginDelta has written the header
	grouped  *config       // GroupBy: Encode writes a value-grouped table (encode_grouped.go)
	v353     bool          // WithSpec(Spec353): Encode writes no constant columns
}

// deltaStream is the state of a streamed generic delta (BeginDelta).
type deltaStream struct {
	key    string
	fields []string            // the fields of the first added/changed section
	ids    map[string]struct{} // every identity written, canonical (SPEC §10a.1)
	idCol  int                 // the identity column of the open section
}

type streamTable struct {
	name   string
	fields []string
	index  map[string]int
	keyed  bool
	rows   int
}

// NewEncoder returns an Encoder writing to w under the limits of opts
// (WithMaxLineBytes, WithMaxElements, WithMaxFields, WithMaxDepth,
// WithMaxBytes; the decoder's defaults without them). GroupBy applies to
// Encode only, which then writes what EncodeGeneric with the same options
// writes; streamed tables cannot be grouped (a group needs its exact count).
func NewEncoder(w io.Writer, opts ...Option) *Encoder {
	c := newConfig(opts)
	e := &Encoder{w: encoder.NewWriter(w), lim: encoder.NewLimiter(c.Limits), keys: map[string]struct{}{}, wire: c.Wire, v353: c.Spec == Spec353}
	if c.Group.On {
		e.grouped = &c
	}
	return e
}

// commit checks the whole lines b[len(buf):] that a call appended to the
// pending output buf against the line and size limits and commits them.
// On error nothing is committed and the pending output stays buf.
func (e *Encoder) commit(buf, b []byte) error {
	added := b[len(buf):]
	n, err := e.lim.LinesFrom(added, e.lines+1)
	if err != nil {
		return err
	}
	if err := e.lim.Total(e.total + int64(len(added))); err != nil {
		return err
	}
	e.total += int64(len(added))
	e.lines += n
	return e.w.Commit(b)
}

// member checks that the root object can take one more member.
func (e *Encoder) member() error {
	return e.lim.Elements(len(e.keys)+1, "the root object")
}

// cellErr is the error err of writing the value at path: an invalid_utf8
// error says where in the string the bad byte is.
func cellErr(err error, path []byte) error {
	if se, ok := err.(*SyntaxError); ok && se.Category == InvalidUTF8 {
		err = utf8Err("the string", int(se.Offset))
	}
	return atPointer(err, path)
}

// utf8Err reports invalid UTF-8 at offset bad of the string that what names.
func utf8Err(what string, bad int) error {
	return &lexer.SyntaxError{Category: lexer.InvalidUTF8, Offset: int64(bad),
		Msg: what + " is not valid UTF-8: invalid byte at offset " + strconv.Itoa(bad)}
}

var errClosed = graph.ErrClosed

// Encode writes v as one complete buffered payload (canonical form) and
// flushes it. It must be the only payload written by this encoder.
func (e *Encoder) Encode(v any) error {
	if e.closed {
		return errClosed
	}
	if e.graph != nil {
		return errGraphMode("Encode")
	}
	if e.started {
		return lexer.Errorf(lexer.InvalidSchema, "Encode writes a whole payload; this encoder has already started one")
	}
	buf := e.w.Buf()
	var out []byte
	var err error
	switch {
	case e.wire == WireV1:
		out, err = appendGenericV1(buf, v, e.lim.Limits)
	case e.grouped != nil:
		out, err = appendGrouped(buf, v, e.grouped)
	default:
		out, err = appendGeneric(buf, v, e.lim.Limits, e.v353, true) // the Writer's pooled buffer
	}
	if err != nil {
		return err
	}
	e.started = true
	e.closed = true
	e.total += int64(len(out) - len(buf))
	if err := e.w.Commit(out); err != nil {
		return err
	}
	return e.w.Release()
}

func (e *Encoder) header(b []byte) []byte {
	if !e.started && e.wire != WireV1 { // a v1 generic payload has no header
		b = encoder.AppendLineEnd(encoder.AppendHeader(b, "generic"))
	}
	return b
}

// WriteField writes one scalar member `key=value` of the root object. It is
// allowed only before the first table (a row section would otherwise
// swallow it).
func (e *Encoder) WriteField(key string, value any) error {
	if e.closed {
		return errClosed
	}
	if e.graph != nil {
		return errGraphMode("WriteField")
	}
	if e.delta != nil {
		return lexer.Errorf(lexer.MalformedDelta, "WriteField(%q) in a generic delta, which holds only sections", key)
	}
	if e.table != nil || len(e.deferred) > 0 || e.root {
		return lexer.Errorf(lexer.InvalidSchema, "WriteField(%q) after a streaming table: fields must come first", key)
	}
	if _, dup := e.keys[key]; dup {
		return lexer.Errorf(lexer.DuplicateKey, "duplicate key %q", key)
	}
	if err := e.member(); err != nil {
		return err
	}
	buf := e.w.Buf()
	b := e.header(buf)
	var bad int
	if e.wire == WireV1 {
		if bad = invalidAt(key); bad < 0 && !encoder.IsV1Key(key) {
			return lexer.Errorf(lexer.UnsupportedValue, "key %q cannot be written on the v1 wire", key)
		}
		b = append(b, key...)
	} else {
		b, bad = encoder.AppendKeyValid(b, key)
	}
	if bad >= 0 {
		return atPointer(utf8Err("the key", bad), appendPointerToken(nil, key))
	}
	b = encoder.AppendAssign(b)
	if s, ok := value.(string); ok && !e.lim.LineOK(len(s)) {
		return e.lim.Line(e.lines+1, len(s), []byte(s))
	}
	b, err := e.cell(b, value, encoder.Value)
	if err != nil {
		return cellErr(err, appendPointerToken(nil, key))
	}
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return err
	}
	e.keys[key] = struct{}{}
	e.started = true
	return nil
}

// BeginTable opens a streaming tabular section `## name [?]{fields}` (SPEC
// §8.2-8.3). The schema must be complete: a record with a field outside it
// is an error. Field names containing `>` are rejected (a stream cannot
// carry flattened paths). An open table is closed first. An empty name
// opens the root array `## [?]{fields}` instead: it must come first and is
// then the whole payload, so the result decodes to a JSON array of the
// rows.
func (e *Encoder) BeginTable(name string, fields ...string) error {
	return e.begin(name, fields, false)
}

// BeginKeyedTable opens a streaming keyed map `## name [?:]{key,fields}`
// (SPEC §7.2a, §8.2): rows are written with WriteKeyedRecord or WriteRow
// (key first).
func (e *Encoder) BeginKeyedTable(name string, fields ...string) error {
	return e.begin(name, fields, true)
}

func (e *Encoder) begin(name string, fields []string, keyed bool) error {
	if e.closed {
		return errClosed
	}
	if e.graph != nil {
		return errGraphMode("BeginTable")
	}
	if e.delta != nil {
		if err := e.deltaSection(name, fields, keyed); err != nil {
			return err
		}
	}
	if len(fields) == 0 {
		return lexer.Errorf(lexer.InvalidSchema, "table %q needs at least one field", name)
	}
	if err := e.lim.Fields(len(fields) + btoi(keyed)); err != nil {
		return err
	}
	if name != "" {
		if err := e.lim.Depth(2); err != nil {
			return err // the root object and the table: 2
		}
	}
	index := make(map[string]int, len(fields))
	for i, f := range fields {
		if bad := invalidAt(f); bad >= 0 {
			return utf8Err("field name "+strconv.Itoa(i)+" of table "+strconv.Quote(name), bad)
		}
		if strings.Contains(f, ">") {
			return lexer.Errorf(lexer.InvalidSchema, "streamed field name %q contains '>' (SPEC §8.3)", f)
		}
		if _, dup := index[f]; dup {
			return lexer.Errorf(lexer.DuplicateFieldName, "duplicate field name %q", f)
		}
		index[f] = i
	}
	if e.root {
		return lexer.Errorf(lexer.InvalidSchema, "the payload is a root array: no other table may follow it")
	}
	if e.wire == WireV1 {
		if keyed || name == "" {
			return lexer.Errorf(lexer.UnsupportedValue, "the v1 wire has no keyed tables and no root array: give the table a name")
		}
		for _, f := range append([]string{name}, fields...) {
			if invalidAt(f) < 0 && !encoder.IsV1Key(f) {
				return lexer.Errorf(lexer.UnsupportedValue, "name %q cannot be written on the v1 wire", f)
			}
		}
	}
	if name == "" && e.started {
		return lexer.Errorf(lexer.InvalidSchema, "a root array (empty table name) must be the first and only thing written")
	}
	if _, dup := e.keys[name]; dup {
		return lexer.Errorf(lexer.DuplicateKey, "duplicate key %q", name)
	}
	if bad := invalidAt(name); bad >= 0 {
		return utf8Err("the table name", bad)
	}
	if name != "" {
		if err := e.member(); err != nil {
			return err
		}
	}
	buf := e.w.Buf()
	b := e.header(buf)
	if e.wire == WireV1 {
		b = encoder.AppendV1Section(b, name)
		b = encoder.AppendCount(b, -1, false)
		b = encoder.AppendV1FieldDecl(b, fields)
	} else {
		b = encoder.AppendSection(b, name)
		b = encoder.AppendCount(b, -1, keyed)
		decl := fields
		if keyed {
			decl = append([]string{keyLabel(fields)}, fields...)
		}
		if e.delta != nil {
			b = encoder.AppendKeyedFieldDecl(b, decl, e.delta.key)
		} else {
			b = encoder.AppendFieldDecl(b, decl)
		}
	}
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return err
	}
	if e.table != nil {
		// Ending the open table writes nothing: it cannot fail but for a
		// sticky write error, which Commit has just returned if there was one.
		e.deferred = append(e.deferred, e.table.rows)
		e.names = append(e.names, e.table.name)
	}
	e.started = true
	e.root = name == ""
	e.keys[name] = struct{}{}
	e.table = &streamTable{name: name, fields: fields, index: index, keyed: keyed}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// keyLabel picks the key-column label: "key", prefixed with '_' until it
// differs from every value field (SPEC §7.2a.2).
func keyLabel(fields []string) string {
	label := "key"
	for {
		clash := false
		for _, f := range fields {
			if f == label {
				clash = true
				break
			}
		}
		if !clash {
			return label
		}
		label = "_" + label
	}
}

// WriteRow writes one row of the open table from positional values, one per
// declared field (for a keyed table the member key comes first). Values
// must be scalars, nil (written `-`) or Missing (written `~`).
func (e *Encoder) WriteRow(values ...any) error {
	if e.closed {
		return errClosed
	}
	if e.graph != nil {
		return errGraphMode("WriteRow")
	}
	t := e.table
	if t == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteRow without an open table")
	}
	want := len(t.fields)
	if t.keyed {
		want++
	}
	if len(values) != want {
		return lexer.Errorf(lexer.RowWidthMismatch, "row has %d values but the table declares %d", len(values), want)
	}
	if err := e.lim.Elements(t.rows+1, "table"); err != nil {
		return err
	}
	var id string
	if e.delta != nil {
		var err error
		if id, err = e.deltaRow(values); err != nil {
			return err
		}
	}
	buf := e.w.Buf()
	b := buf
	var err error
	for i, v := range values {
		if i > 0 {
			b = encoder.AppendCellSep(b)
		}
		s, isStr := v.(string)
		if isStr && !e.lim.LineOK(len(b)-len(buf)+len(s)) {
			// Refused before it is buffered: memory stays bounded by the line limit.
			return e.lim.Line(e.lines+1, len(b)-len(buf)+len(s), b[len(buf):])
		}
		if i == 0 && t.keyed {
			if !isStr {
				return lexer.Errorf(lexer.InvalidSchema, "keyed row needs a string key, got %T", v)
			}
			var bad int
			if b, bad = encoder.AppendStringValid(b, s, encoder.Cell); bad >= 0 {
				return atPointer(utf8Err("the key", bad), e.rowPointer(-1, s))
			}
			continue
		}
		if b, err = e.cell(b, v, encoder.Cell); err != nil {
			key, _ := values[0].(string) // a keyed row's member key
			return cellErr(err, e.rowPointer(i-btoi(t.keyed), key))
		}
	}
	b = encoder.AppendLineEnd(b)
	if err := e.commit(buf, b); err != nil {
		return err
	}
	if e.delta != nil {
		e.delta.ids[id] = struct{}{}
	}
	t.rows++
	return nil
}

// rowPointer returns the JSON Pointer, in the payload's decoded value, of
// field (an index into the declared fields, or -1 for the member key) of
// the row being written: /table/row/field, /table/key/field in a keyed
// table, /row/field in the root array.
func (e *Encoder) rowPointer(field int, key string) []byte {
	t := e.table
	var p []byte
	if t.name != "" {
		p = appendPointerToken(p, t.name)
	}
	if t.keyed {
		p = appendPointerToken(p, key)
	} else {
		p = strconv.AppendInt(append(p, '/'), int64(t.rows), 10)
	}
	if field >= 0 {
		p = appendPointerToken(p, t.fields[field])
	}
	return p
}

// rowName says where in the stream the row being written and its field
// (an index into the declared fields, or -1 for the key) are.
func (e *Encoder) rowName(field int) string {
	t := e.table
	s := "row " + strconv.Itoa(t.rows) + " of table " + strconv.Quote(t.name)
	if field < 0 {
		return "the key of " + s
	}
	return "field " + strconv.Quote(t.fields[field]) + " of " + s
}

// WriteRecord writes one row of the open table from a record (an Object, a
// map with string keys or a struct with json tags). Declared fields absent
// from the record are written `~`; a record field outside the schema is an
// error (SPEC §8.3), as is a nested value.
func (e *Encoder) WriteRecord(rec any) error {
	return e.writeRecord("", rec, false)
}

// WriteKeyedRecord writes one member of the open keyed table.
func (e *Encoder) WriteKeyedRecord(key string, rec any) error {
	return e.writeRecord(key, rec, true)
}

func (e *Encoder) writeRecord(key string, rec any, keyed bool) error {
	if e.closed {
		return errClosed
	}
	if e.graph != nil {
		return errGraphMode("WriteRecord")
	}
	t := e.table
	if t == nil {
		return lexer.Errorf(lexer.InvalidSchema, "WriteRecord without an open table")
	}
	if t.keyed != keyed {
		if keyed {
			return lexer.Errorf(lexer.InvalidSchema, "WriteKeyedRecord on a table opened with BeginTable")
		}
		return lexer.Errorf(lexer.InvalidSchema, "WriteRecord on a keyed table: use WriteKeyedRecord")
	}
	nv, err := normalize(rec)
	if err != nil {
		return err
	}
	obj, ok := nv.(Object)
	if !ok {
		return lexer.Errorf(lexer.UnsupportedValue, "record is %T, not an object", rec)
	}
	vals := make([]any, len(t.fields))
	for i := range vals {
		vals[i] = Missing
	}
	for _, m := range obj {
		i, ok := t.index[m.Key]
		if !ok {
			return lexer.Errorf(lexer.InvalidSchema, "record field %q is not in the declared schema; a streaming table cannot add fields (SPEC §8.3)", m.Key)
		}
		vals[i] = m.Value
	}
	if keyed {
		vals = append([]any{key}, vals...)
	}
	return e.WriteRow(vals...)
}

// EndTable closes the open table, recording its row count for the summary.
func (e *Encoder) EndTable() error {
	if e.closed {
		return errClosed
	}
	if e.graph != nil {
		return errGraphMode("EndTable")
	}
	if e.table == nil {
		return lexer.Errorf(lexer.InvalidSchema, "EndTable without an open table")
	}
	e.deferred = append(e.deferred, e.table.rows)
	e.names = append(e.names, e.table.name)
	e.table = nil
	return e.w.Err()
}

// Flush writes buffered output to the underlying writer.
func (e *Encoder) Flush() error { return e.w.Flush() }

// Close ends an open table, writes the header if nothing was written and
// the `##! summary counts=...` trailer if any table was streamed, flushes
// and releases the buffer. For a graph payload (BeginGraph) it writes the
// graph trailer `##! summary symbols=N edges=M counts=...` instead (see
// BeginGraph). Close does not close the underlying writer.
func (e *Encoder) Close() error {
	if e.closed {
		return nil
	}
	if e.graph != nil {
		err := e.graph.Close()
		e.closed = e.graph.Closed()
		return err
	}
	counts, names := e.deferred, e.names
	if e.table != nil {
		counts = append(counts[:len(counts):len(counts)], e.table.rows)
		names = append(names[:len(names):len(names)], e.table.name)
	}
	if e.wire == WireV1 && !e.started && len(counts) == 0 {
		// Nothing was written: a v1 generic payload has no header, and no
		// bytes is an input every v1 decoder refuses as empty.
		e.closed = true
		if err := e.w.Release(); err != nil {
			return err
		}
		return lexer.Errorf(lexer.UnsupportedValue, "nothing was written: the v1 wire has no form for an empty payload")
	}
	buf := e.w.Buf()
	b := e.header(buf)
	if len(counts) > 0 && e.wire == WireV1 {
		b = encoder.AppendV1TableSummary(b, names, counts)
	} else if len(counts) > 0 {
		b = encoder.AppendSummaryCounts(b, counts)
	}
	if err := e.commit(buf, b); err != nil {
		return err
	}
	e.deferred, e.table = counts, nil
	e.started = true
	e.closed = true
	return e.w.Release()
}

// appendScalarCell appends a scalar value in ctx: Missing here, the rest
// through appendScalar, and other Go values after normalising them.
func appendScalarCell(b []byte, v any, ctx encoder.Context) ([]byte, error) {
	if _, ok := v.(missing); ok {
		if ctx != encoder.Cell {
			return b, lexer.Errorf(lexer.InvalidMissing, "Missing is valid only in table rows")
		}
		return encoder.AppendMissing(b), nil
	}
	if out, ok, err := appendScalar(b, v, ctx); ok {
		return out, err
	}
	nv, err := normalize(v)
	if err != nil {
		return b, err
	}
	switch nv.(type) {
	case Object:
		return b, lexer.Errorf(lexer.UnsupportedValue, "a streamed cell must be a scalar, not an object: declare its leaves as fields or encode nested data with EncodeGeneric")
	case []any:
		return b, lexer.Errorf(lexer.UnsupportedValue, "a streamed cell must be a scalar, not an array: encode nested data with EncodeGeneric")
	}
	return appendScalarCell(b, nv, ctx)
}

// cell appends a scalar in ctx on the encoder's wire.
func (e *Encoder) cell(b []byte, v any, ctx encoder.Context) ([]byte, error) {
	if e.wire != WireV1 {
		return appendScalarCell(b, v, ctx)
	}
	c := encoder.V1Value
	if ctx == encoder.Cell {
		c = encoder.V1Cell
	}
	return appendV1Cell(b, v, c)
}
