package generic

import (
	"errors"
	"sync"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
	"github.com/gcfkit/gcf/lexer"
)

// appendGenericHeader appends the header line of a generic-profile payload
// that carries no header fields.
func appendGenericHeader(dst []byte) []byte {
	return encoder.AppendLineEnd(encoder.AppendHeader(dst, "generic"))
}

// EncodeGeneric encodes any JSON-model value as a GCF generic-profile
// payload in buffered mode and canonical form (SPEC §7): the header line
// `GCF profile=generic`, LF line endings, no trailing whitespace, and the
// container layout selected by SPEC §7.2a, §7.3, §7.4 and §7.11. A table
// column that holds the same scalar in every record is written once in
// the field declaration, `name=value` (spec v3.6.0 §7.4.7; the scope is in
// docs/spec-notes.md); WithSpec(Spec353) writes v3.5.3 output without it.
//
// v may be a canonical tree (nil, bool, int64, float64, string, Object,
// []any), as returned by ParseJSON and DecodeGeneric, or any Go value that
// normalize accepts (integers of every kind, float32, json.Number, maps
// with string keys, slices, arrays, pointers, structs with `json` tags,
// json.Marshaler and encoding.TextMarshaler values). Map members are
// emitted in key code point order, Object members in slice order.
//
// decode(encode(v)) equals v structurally (SPEC §1.1). Member order also
// survives except where the format cannot carry it: a tabular row is
// decoded in field-union order (SPEC §7.4.3), so a row whose keys come in
// another order than the union's, or that holds a '>'-named field (written
// as an attachment, SPEC §7.4.6.1 rule 4), decodes with reordered members.
//
// Limits: the encoder refuses whatever DecodeGeneric given the same opts
// (WithMaxDepth, WithMaxLineBytes, WithMaxElements, WithMaxFields,
// WithMaxBytes; the decoder's defaults without them) would reject, with the
// decoder's category: depth_exceeded (checked on v before anything is
// written), line_too_long, too_many_elements, too_many_fields and
// payload_too_large.
//
// Errors are *SyntaxError values without a line: those limits; out_of_range
// (NaN, ±Inf, unsigned integers above math.MaxInt64, integer json.Number
// outside int64); duplicate_key (an Object with a repeated key);
// invalid_utf8 (a key or string that is not valid UTF-8: the message gives
// its path in v and Offset the byte offset within the string);
// depth_exceeded also for nesting deeper than 10000 whatever the limit; and
// unsupported_value (channels, functions, complex numbers, ...). On error
// no bytes are returned.
//
// The result is a fresh slice owned by the caller.
func EncodeGeneric(v any, opts ...Option) ([]byte, error) {
	bb := encoder.GetBuffer()
	var err error
	bb.B, err = appendGenericOpts(bb.B[:0], v, true, opts)
	var out []byte
	if err == nil {
		out = append([]byte(nil), bb.B...) // not zeroed first, as make would
	}
	encoder.PutBuffer(bb) // keeps buffers up to encoder.MaxPooledBuffer
	return out, err
}

// AppendGeneric appends the generic-profile encoding of v (see
// EncodeGeneric, also for opts and the limits) to dst and returns the
// extended slice. On error it returns dst truncated to its original length
// (bytes past it, within dst's capacity, may have been overwritten); on
// success the bytes past the result are left as they were, as append
// leaves them.
func AppendGeneric(dst []byte, v any, opts ...Option) ([]byte, error) {
	return appendGenericOpts(dst, v, false, opts)
}

// appendGenericOpts is AppendGeneric; spill says the bytes of dst past
// its length are the caller's own scratch space (a pooled buffer): the
// typed fast path may write past what it appends there (appendStructs).
func appendGenericOpts(dst []byte, v any, spill bool, opts []Option) ([]byte, error) {
	c := newConfig(opts)
	if c.Group.On {
		return appendGrouped(dst, v, &c) // GroupBy: encode_grouped.go
	}
	if c.Wire == WireV1 {
		return appendGenericV1(dst, v, c.Limits)
	}
	v353 := c.Spec == Spec353
	if c.Size == Smallest {
		return appendSmallest(dst, v, c.Limits, c.Cost, v353)
	}
	return appendGeneric(dst, v, c.Limits, v353, spill)
}

// appendGeneric is AppendGeneric with the limits resolved; v353 is
// WithSpec(Spec353) (no constant columns).
func appendGeneric(dst []byte, v any, lim Limits, v353, spill bool) ([]byte, error) {
	if out, ok := appendStructs(dst, v, lim, v353, spill); ok {
		return out, nil // typed fast path (encode_structs.go)
	}
	if out, ok := appendMaps(dst, v, lim, v353); ok {
		return out, nil // map[string]any / []any fast path (encode_maps.go)
	}
	return appendLayout(dst, v, lim, nil, v353)
}

// appendLayout is appendGeneric with the layout decisions of sz (nil:
// canonical).
func appendLayout(dst []byte, v any, lim Limits, sz *sizer, v353 bool) ([]byte, error) {
	slabs := getNormSlabs()
	defer putNormSlabs(slabs) // nv is dead once this returns
	nv, deepest, err := normalizeDepth(v, slabs)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	e := getGE()
	e.lim.Begin(lim, start)
	e.v353 = v353
	if sz != nil {
		e.pol = sz
		sz.setRoot(nv)
	}
	if !e.lim.DepthOK(deepest) {
		// deepest bounds the decoder's nesting from above; only now is the
		// exact count, which depends on the layout, worth computing.
		if err := e.lim.Depth(e.depth(nv, lim.MaxDepth)); err != nil {
			putGE(e)
			return dst, err
		}
	}
	e.buf = appendGenericHeader(dst)
	if err = e.lineDone(); err == nil {
		err = e.root(nv)
	}
	if err == nil && e.invalid {
		err = errBadUTF8
	}
	out := e.buf
	putGE(e)
	if err == errBadUTF8 {
		err = invalidUTF8Err(nv)
	} else if err != nil {
		err = elementsPath(err, nv, lim.MaxElements)
	}
	if err != nil {
		return out[:start], err
	}
	return out, nil
}

// errBadUTF8 stands for an invalid_utf8 error until invalidUTF8Err has
// found where the string is.
var errBadUTF8 = errors.New("invalid UTF-8")

// nl ends the line in progress and checks the limits (see lineDone).
func (e *geEncoder) nl() error {
	e.buf = encoder.AppendLineEnd(e.buf)
	return e.lineDone()
}

// lineDone checks the line just ended with '\n' against MaxLineBytes and
// the payload so far against MaxBytes, and reports a string that was not
// valid UTF-8 (fail). It is one comparison when all is well.
func (e *geEncoder) lineDone() error {
	if !e.lim.LineDone(len(e.buf)) {
		return e.limitErr()
	}
	return nil
}

// fail records that a string was not valid UTF-8; the next line end
// reports it.
func (e *geEncoder) fail() {
	e.invalid = true
	e.lim.Fail()
}

func (e *geEncoder) limitErr() error {
	if e.invalid {
		return errBadUTF8
	}
	return e.lim.LineErr(e.buf)
}

// count appends the count bracket of a container of n elements.
func (e *geEncoder) count(n int, keyed bool) error {
	if !e.lim.ElementsOK(n) {
		what := "array"
		if keyed {
			what = "keyed map"
		}
		return e.lim.Elements(n, what)
	}
	e.buf = encoder.AppendCount(e.buf, n, keyed)
	return nil
}

// Field kinds of a tabular plan (geEncoder.kinds). A positive kind is a
// flattened field and gives its number of leaf columns (SPEC §7.4.6).
const (
	geColumn   int32 = 0  // one ordinary column
	geExcluded int32 = -1 // name contains '>': per-row attachments only
)

// geRows is the row source of a tabular container: the elements of an
// all-object array, or the member values of a keyed map (SPEC §7.2a), in
// which case each row also carries its member key as cell 0.
type geRows struct {
	arr   []any
	obj   Object
	keyed bool
}

func (r geRows) len() int {
	if r.keyed {
		return len(r.obj)
	}
	return len(r.arr)
}

func (r geRows) at(i int) Object {
	if r.keyed {
		return r.obj[i].Value.(Object)
	}
	return r.arr[i].(Object)
}

// gePlan is the layout of one tabular container while it is being written.
// Its slices live on the encoder's scratch stacks (indexes, not slices,
// because nested containers may reallocate the stacks).
type gePlan struct {
	src   geRows
	ub    int    // union: e.strs[ub : ub+un]
	un    int    // number of fields in the union
	kb    int    // kinds: e.kinds[kb : kb+un]
	fb    int    // field flags: e.flags[fb : fb+un] (geShared, geInline)
	label string // keyed maps: key-column label
}

// geAttachment is one pending attachment of the current row.
type geAttachment struct {
	fi int // union index of the field
	v  any
}

// Field flags of a tabular plan (geEncoder.flags), set by newPlan.
const (
	// geShared: the field's array attachments share the schema that row 0
	// establishes; rows after row 0 write `.f [N]` without `{fields}`
	// (SPEC §7.4.5.3; see sharedArrays for when).
	geShared uint8 = 1 << iota
	// geInline: the field's objects are written with the inline object
	// schema of SPEC §7.4.5.1, `^{k1,k2,...}` in row 0 and `^` after it,
	// each body one positional line (see inlineSchema for when).
	geInline
	// geConst: the field is a constant column, `name=value` in the
	// declaration and no cell in the rows (spec v3.6.0 §7.4.7; see
	// factor for when).
	geConst
)

// tabHow is how a table is written: what its declaration may hold.
type tabHow uint8

const (
	// tabOwn: with its own declaration, constant columns factored (spec
	// v3.6.0 §7.4.7): the root table, `## name` sections, tables of
	// expanded items, keyed maps.
	tabOwn tabHow = iota
	// tabAttached: an array attachment of a row, `.f [N]{fields}`, with
	// its own declaration and no constants: such a declaration may set
	// up the shared array schema of §7.4.5.3, whose later tables carry
	// names only (docs/spec-notes.md).
	tabAttached
	// tabShared: an array attachment under row 0's shared array schema,
	// `.f [N]` without a declaration.
	tabShared
)

// geEncoder is the buffered generic encoder. All scratch stacks are reused
// across encodes through geEncoderPool.
type geEncoder struct {
	buf   []byte
	strs  []string        // field unions
	kinds []int32         // field kinds per union entry
	flags []uint8         // field flags per union entry (geShared, geInline)
	att   []geAttachment  // pending row attachments
	flat  layout.Flat     // flattening analysis
	path  []byte          // flattened column path prefix (escaped, unquoted)
	seen  map[string]int  // union index for large unions
	pol   layoutPolicy    // where the rules leave a choice: canonical or the Smallest size's
	cols  []layout.Column // constant-column facts of the table being planned
	fac   []bool          // layout.Factor's answer for cols
	v353  bool            // WithSpec(Spec353): no v3.6-only forms (no constants)
	spill bool            // buf's bytes past its length are the encoder's to overwrite (fsIntCell)
	// deferred, when set (Parts), is offered each row attachment and
	// each array member of a section first: the name, where it goes, the
	// value and the indentation; it reports whether it wrote it.
	deferred func(key string, at Place, v any, d int) (bool, error)

	// Limits (SPEC §12), checked at each line end by lim.LineDone.
	lim     encoder.Limiter
	invalid bool // a string was not valid UTF-8
}

var geEncoderPool = sync.Pool{New: func() any { return &geEncoder{pol: canonical} }}

// layoutPolicy picks, where the spec's rules (internal/layout) leave a
// choice between forms every decoder reads alike, the one to write: the
// canonical policy the form every conformant encoder writes (SPEC §7.11),
// the Smallest size's sizer the one its cost model prices lowest. The
// encoder asks it only after the rule has allowed the form.
type layoutPolicy interface {
	// minKeyed is the fewest members of a keyed table (layout.KeyedSize).
	minKeyed() int
	// tabular: an array that may be tabular is (else expanded).
	tabular(a []any) bool
	// keyed: an object that may be a keyed table is (else a section).
	keyed(o Object) bool
	// flatten: field f, which may flatten, becomes `>` path columns.
	flatten(src geRows, f string) bool
	// inline: field f, which may take the inline object schema, does.
	inline(src geRows, f string) bool
	// shared: field f's later array attachments use row 0's schema.
	shared(e *geEncoder, src geRows, f string, fi int) bool
	// sharedFits: a later row's array x for a shared field is written
	// without its declaration.
	sharedFits(src geRows, f string, fi int, x []any) bool
	// factor: a table with constant columns factors them (§7.4.7).
	factor(src geRows) bool
	// emptyInline: an empty array member is written `key[0]:`.
	emptyInline(key string) bool
}

// canonicalPolicy is the layout every conformant encoder writes.
type canonicalPolicy struct{}

var canonical layoutPolicy = canonicalPolicy{}

func (canonicalPolicy) minKeyed() int                              { return layout.MinKeyed }
func (canonicalPolicy) tabular([]any) bool                         { return true }
func (canonicalPolicy) keyed(Object) bool                          { return true }
func (canonicalPolicy) flatten(geRows, string) bool                { return true }
func (canonicalPolicy) inline(geRows, string) bool                 { return true }
func (canonicalPolicy) factor(geRows) bool                         { return true }
func (canonicalPolicy) emptyInline(string) bool                    { return false }
func (canonicalPolicy) sharedFits(geRows, string, int, []any) bool { return true }

// shared: where the reference SDK shares, so both write the same bytes
// (sharedArrays).
func (canonicalPolicy) shared(e *geEncoder, src geRows, f string, fi int) bool {
	return e.sharedArrays(src, f, fi)
}

func getGE() *geEncoder { return geEncoderPool.Get().(*geEncoder) }

func putGE(e *geEncoder) {
	e.buf = nil
	// Stacks are cleared as they are popped; after an error some entries
	// may remain, so clear what is left to drop references.
	clear(e.strs)
	clear(e.att)
	e.flat.Reset()
	e.strs, e.kinds, e.flags, e.att = e.strs[:0], e.kinds[:0], e.flags[:0], e.att[:0]
	e.path = e.path[:0]
	e.seen = nil
	e.pol = canonical
	e.v353 = false
	e.spill = false
	e.invalid = false
	e.deferred = nil
	if cap(e.strs) > 1<<16 || cap(e.att) > 1<<16 || e.flat.Cap() > 1<<16 || cap(e.flags) > 1<<16 {
		return // do not keep huge scratch space alive
	}
	geEncoderPool.Put(e)
}

// root writes the body for the root value (SPEC §7.1).
func (e *geEncoder) root(v any) error {
	switch x := v.(type) {
	case Object:
		if len(x) == 0 {
			return nil // empty root object: header line only (SPEC §7.7)
		}
		if e.keyedOK(x) {
			e.buf = encoder.AppendSectionMark(e.buf)
			return e.table(geRows{obj: x, keyed: true}, 0, tabOwn)
		}
		return e.members(x, 0)
	case []any:
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.arrayTail(x, 0, tabOwn)
	default:
		e.buf = encoder.AppendAssign(e.buf)
		if err := e.scalar(v, encoder.Value); err != nil {
			return err
		}
		return e.nl()
	}
}

// scalar appends a non-container value in context ctx through the one
// scalar-cell writer; a string that is not valid UTF-8 marks the encode as
// failed (see str).
func (e *geEncoder) scalar(v any, ctx encoder.Context) error {
	out, ok, err := encoder.AppendScalar(e.buf, v, ctx)
	if !ok {
		return lexer.Errorf(lexer.UnsupportedValue, "value of type %T is not in the generic data model", v)
	}
	e.buf = out
	if err != nil {
		if !encoder.IsInvalidUTF8(err) {
			return err
		}
		e.fail()
	}
	return nil
}

// str appends a string scalar in ctx, quoted when SPEC §2.4 requires it.
// NeedsQuote is true for invalid UTF-8, so the quoting scan checks every
// string: an invalid one is not written and marks the encode as failed
// (see invalid), to be reported at the line's end.
func (e *geEncoder) str(s string, ctx encoder.Context) {
	if encoder.NeedsQuote(s, ctx) {
		var bad int
		if e.buf, bad = encoder.AppendQuotedValid(e.buf, s); bad >= 0 {
			e.fail()
		}
		return
	}
	e.buf = append(e.buf, s...)
}

// key appends an object key, field name or attachment name, bare when it
// may be; invalid UTF-8 is handled as by str.
func (e *geEncoder) key(k string) {
	var bad int
	if e.buf, bad = encoder.AppendKeyValid(e.buf, k); bad >= 0 {
		e.fail()
	}
}

func geIsContainer(v any) bool {
	switch v.(type) {
	case Object, []any:
		return true
	}
	return false
}

// geAllPrimitive reports whether no element of a is an object or an array.
func geAllPrimitive(a []any) bool {
	for _, v := range a {
		if geIsContainer(v) {
			return false
		}
	}
	return true
}

// members writes the members of an object at indentation d (SPEC §7.2).
func (e *geEncoder) members(o Object, d int) error {
	if err := e.lim.Elements(len(o), "object"); err != nil {
		return err
	}
	for i := range o {
		m := &o[i]
		switch x := m.Value.(type) {
		case Object:
			e.buf = encoder.AppendIndent(e.buf, d)
			e.buf = encoder.AppendSectionMark(e.buf)
			e.key(m.Key)
			if e.keyedOK(x) {
				e.buf = encoder.AppendWordSep(e.buf)
				if err := e.table(geRows{obj: x, keyed: true}, d, tabOwn); err != nil {
					return err
				}
				continue
			}
			if err := e.nl(); err != nil {
				return err
			}
			if err := e.members(x, d+1); err != nil {
				return err
			}
		case []any:
			if e.deferred != nil {
				if done, err := e.deferred(m.Key, InSection, x, d); done || err != nil {
					if err != nil {
						return err
					}
					continue
				}
			}
			e.buf = encoder.AppendIndent(e.buf, d)
			if len(x) > 0 && geAllPrimitive(x) || len(x) == 0 && e.pol.emptyInline(m.Key) {
				// Named inline primitive array: `key[N]: v1,v2` (SPEC §7.5).
				e.key(m.Key)
				if err := e.inline(x); err != nil {
					return err
				}
				continue
			}
			e.buf = encoder.AppendSectionMark(e.buf)
			e.key(m.Key)
			e.buf = encoder.AppendWordSep(e.buf)
			if err := e.arrayTail(x, d, tabOwn); err != nil {
				return err
			}
		default:
			e.buf = encoder.AppendIndent(e.buf, d)
			e.key(m.Key)
			e.buf = encoder.AppendAssign(e.buf)
			if err := e.scalar(m.Value, encoder.Value); err != nil {
				return err
			}
			if err := e.nl(); err != nil {
				return err
			}
		}
	}
	return nil
}

// inline writes `[N]: v1,v2,...` and the line end for an all-primitive
// array (`[0]:` when empty, which only the Smallest size writes).
func (e *geEncoder) inline(a []any) error {
	if err := e.count(len(a), false); err != nil {
		return err
	}
	e.buf = encoder.AppendInlineMark(e.buf) // nothing follows when a is empty (SPEC §4.2)
	for i, v := range a {
		e.buf = encoder.AppendItemLead(e.buf, i)
		if err := e.scalar(v, encoder.Element); err != nil {
			return err
		}
	}
	return e.nl()
}

// arrayTail writes an array from its count bracket on (the caller has
// written the `## name `, `@i ` or `.f ` prefix) and then its body at
// indentation bi, choosing the form by SPEC §7.3; a table is written as
// how says (tabOwn, or tabAttached after `.f `).
func (e *geEncoder) arrayTail(a []any, bi int, how tabHow) error {
	switch layout.ArrayForm(len(a), geAllPrimitive(a), func() bool { return e.tabularOK(a) }) {
	case layout.Empty:
		e.buf = encoder.AppendEmptyArray(e.buf)
		return e.nl()
	case layout.Inline:
		return e.inline(a)
	case layout.Table:
		return e.table(geRows{arr: a}, bi, how)
	}
	if err := e.count(len(a), false); err != nil {
		return err
	}
	if err := e.nl(); err != nil {
		return err
	}
	return e.items(a, bi)
}

// items writes the expanded items of a at indentation d (SPEC §7.6).
func (e *geEncoder) items(a []any, d int) error {
	for i, v := range a {
		if err := e.item(i, v, d); err != nil {
			return err
		}
	}
	return nil
}

// item writes expanded item i, v, at indentation d (SPEC §7.6).
func (e *geEncoder) item(i int, v any, d int) error {
	e.buf = encoder.AppendIndent(e.buf, d)
	e.buf = encoder.AppendItemIndex(e.buf, i)
	e.buf = encoder.AppendWordSep(e.buf)
	switch x := v.(type) {
	case Object:
		if e.keyedOK(x) {
			return e.table(geRows{obj: x, keyed: true}, d+1, tabOwn)
		}
		e.buf = encoder.AppendEmptyObject(e.buf)
		if err := e.nl(); err != nil {
			return err
		}
		return e.members(x, d+1)
	case []any:
		return e.arrayTail(x, d+1, tabOwn)
	}
	e.buf = encoder.AppendAssign(e.buf)
	if err := e.scalar(v, encoder.Value); err != nil {
		return err
	}
	return e.nl()
}

// geHasColumnKey reports whether some member key of o can be a tabular
// column, that is, does not contain '>' (SPEC §7.4.6.1 rule 4).
func geHasColumnKey(o Object) bool {
	for i := range o {
		if layout.ColumnName(o[i].Key) {
			return true
		}
	}
	return false
}

// tabularOK reports whether a non-empty array that is not all-primitive
// takes tabular form: layout.Tabular over its facts (every element an
// object, some field usable as a column, rowZeroSafe), then the policy.
func (e *geEncoder) tabularOK(a []any) bool {
	objects, cols := true, false
	for _, v := range a {
		o, ok := v.(Object)
		if !ok {
			objects = false
			break
		}
		if !cols {
			cols = geHasColumnKey(o)
		}
	}
	if !layout.Tabular(objects, cols, func() bool { return e.rowZeroSafe(geRows{arr: a}) }) {
		return false
	}
	return e.pol.tabular(a)
}

// keyedOK reports whether an object is encoded as a keyed table:
// layout.KeyedSize (the policy's least count) and
// layout.Tabular over its values' facts (every value an object, some
// value field usable as a column, rowZeroSafe), then the policy.
func (e *geEncoder) keyedOK(o Object) bool {
	if !layout.KeyedSize(len(o), e.pol.minKeyed()) {
		return false
	}
	objects, cols := true, false
	for i := range o {
		v, ok := o[i].Value.(Object)
		if !ok {
			objects = false
			break
		}
		if !cols {
			cols = geHasColumnKey(v)
		}
	}
	if !layout.Tabular(objects, cols, func() bool { return e.rowZeroSafe(geRows{obj: o, keyed: true}) }) {
		return false
	}
	return e.pol.keyed(o)
}

// rowZeroSafe reports whether the rows can be written as one tabular
// container without misleading a decoder through a shared array schema.
//
// SPEC §7.4.5.3: the first row establishes a shared array schema for a
// field when it holds a tabular array attachment `.f [N]{fields}`, and from
// then on a decoder reads every `.f [N]` without a declaration as tabular
// with that schema (decoder rule 1; only row 0 establishes one, in our
// decoders as in the reference SDK's). A later non-empty array for f that
// takes expanded form would also be written `.f [N]`, and no syntax marks it
// as expanded, so it would be misread: such rows are not losslessly tabular
// (SPEC §7.3), and the array falls back to expanded form (SPEC §7.6), a
// keyed map to section form (SPEC §7.2). Arrays that a later row writes
// inline (`.f [N]: ...`), empty (`.f [0]`) or tabular with their own
// `{fields}` are unambiguous and need no fallback; nor does anything when
// row 0 has no tabular array for f (no schema is established, so every
// `.f [N]` is expanded). Keyed-map attachments (`.f [N:]{...}`) neither
// establish nor use a shared array schema.
//
// The reference SDK writes such rows in tabular form anyway, and its
// decoder guesses the body form from the first body line (docs/interop.md,
// class expanded-after-row0-schema).
func (e *geEncoder) rowZeroSafe(src geRows) bool {
	n := src.len()
	if n < 2 {
		return true
	}
	row0 := src.at(0)
	for j := range row0 {
		if !e.schemaArray(row0[j].Value, true) {
			continue // row 0 establishes no schema for this field
		}
		f := row0[j].Key
		for i := 1; i < n; i++ {
			v, ok, _ := geLookup(src.at(i), f, j)
			if ok && e.schemaArray(v, false) {
				return false // would be an expanded `.f [N]` under the schema
			}
		}
	}
	return true
}

// schemaArray reports, with tabular, whether v is a non-empty array that
// is not all-primitive and takes tabular form (row 0's value then
// establishes a shared array schema, see rowZeroSafe); without, whether it
// is one that takes expanded form (a later row's value then breaks it).
func (e *geEncoder) schemaArray(v any, tabular bool) bool {
	a, ok := v.([]any)
	return ok && len(a) > 0 && !geAllPrimitive(a) && e.tabularOK(a) == tabular
}

// geLookup finds field f in row, trying position cur first (rows usually
// list their keys in union order). It returns the value, whether it is
// present, and the position to try for the next union field.
func geLookup(row Object, f string, cur int) (any, bool, int) {
	if cur < len(row) && row[cur].Key == f {
		return row[cur].Value, true, cur + 1
	}
	for j := range row {
		if row[j].Key == f {
			return row[j].Value, true, j + 1
		}
	}
	return nil, false, cur
}

// Value classes of a field over all rows, gathered with the union.
const (
	geHasObject int32 = 1 // some row holds a (non-null) object
	geHasOther  int32 = 2 // some row holds a non-null scalar or an array
)

// newPlan computes the layout of a tabular container and pushes it on the
// scratch stacks: the ordered field union (SPEC §7.4.3), the kind of each
// field (column, flattened, '>'-named), its flags (geShared, geInline) and, for a
// keyed map, the key-column label (SPEC §7.2a.2).
func (e *geEncoder) newPlan(src geRows) gePlan {
	p := gePlan{src: src, ub: len(e.strs), kb: len(e.kinds), fb: len(e.flags)}
	n := src.len()
	var seen map[string]int
	for i := 0; i < n; i++ {
		row := src.at(i)
		next := 0 // union index after the previous member's
		for j := range row {
			k := row[j].Key
			un := len(e.strs) - p.ub
			ui := -1
			switch {
			case next < un && e.strs[p.ub+next] == k:
				ui = next // rows usually follow the union order
			case seen != nil:
				if x, ok := seen[k]; ok {
					ui = x
				}
			default:
				for x, s := range e.strs[p.ub:] {
					if s == k {
						ui = x
						break
					}
				}
			}
			if ui < 0 {
				ui = un
				e.strs = append(e.strs, k)
				e.kinds = append(e.kinds, 0)
				if seen != nil {
					seen[k] = ui
				} else if un+1 > 32 {
					if e.seen == nil {
						e.seen = make(map[string]int, 64)
					}
					// e.seen is shared scratch; nested plans are built only
					// after this loop ends, so it is free to reuse here.
					seen = e.seen
					clear(seen)
					for x, s := range e.strs[p.ub:] {
						seen[s] = x
					}
				}
			}
			next = ui + 1
			switch row[j].Value.(type) {
			case nil:
			case Object:
				e.kinds[p.kb+ui] |= geHasObject
			default:
				e.kinds[p.kb+ui] |= geHasOther
			}
		}
	}
	if seen != nil {
		clear(seen)
	}
	p.un = len(e.strs) - p.ub
	for fi := 0; fi < p.un; fi++ {
		f := e.strs[p.ub+fi]
		kind, leaves, att := layout.PlanField(layout.Field{
			Name:    f,
			Objects: e.kinds[p.kb+fi] == geHasObject, // only objects (and nulls)
			Leaves: func() int {
				if n := e.flatLeaves(src, f, fi); n > 0 && e.pol.flatten(src, f) {
					return n
				}
				return 0
			},
			Shared: func() bool { return e.pol.shared(e, src, f, fi) },
			Inline: func() bool { return e.inlineSchema(src, f, fi) && e.pol.inline(src, f) },
		})
		var fl uint8
		switch kind {
		case layout.NoColumn:
			e.kinds[p.kb+fi] = geExcluded
		case layout.Flattened:
			e.kinds[p.kb+fi] = int32(leaves)
		default:
			e.kinds[p.kb+fi] = geColumn
		}
		switch att {
		case layout.SharedSchema:
			fl = geShared
		case layout.InlineSchema:
			fl = geInline
		}
		e.flags = append(e.flags, fl)
	}
	if src.keyed {
		p.label = layout.KeyLabel(e.strs[p.ub : p.ub+p.un])
	}
	return p
}

// factor marks the constant columns of p geConst, as layout.Factor
// decides from the facts gathered here: a column is eligible when it is
// one ordinary column (not flattened, '>'-named, nor set for inline or
// shared schemas; a keyed map's label column never is), constant when
// every row holds it with the same scalar (encoder.SameScalar). The scan
// of a column stops at its first difference. The Smallest size may keep
// the table unfactored (sizer.factor).
func (e *geEncoder) factor(p *gePlan) {
	n := p.src.len()
	if n < 2 {
		return
	}
	cols := e.cols[:0]
	if p.src.keyed {
		cols = append(cols, layout.Column{})
	}
	for fi := 0; fi < p.un; fi++ {
		switch k := e.kinds[p.kb+fi]; {
		case k == geExcluded:
			continue // no column
		case k == geColumn && e.flags[p.fb+fi] == 0:
			f := e.strs[p.ub+fi]
			cols = append(cols, layout.Column{Eligible: true, Constant: e.constant(p.src, f, fi)})
		default:
			cols = append(cols, layout.Column{})
		}
	}
	fac, any := layout.Factor(n, cols, e.fac[:0])
	e.cols, e.fac = cols[:0], fac[:0]
	if !any || !e.pol.factor(p.src) {
		return
	}
	c := 0
	if p.src.keyed {
		c++
	}
	for fi := 0; fi < p.un; fi++ {
		if e.kinds[p.kb+fi] == geExcluded {
			continue
		}
		if fac[c] {
			e.flags[p.fb+fi] |= geConst
		}
		c++
	}
}

// constant reports whether field f (union index fi) holds the same scalar
// in every row of src.
func (e *geEncoder) constant(src geRows, f string, fi int) bool {
	v0, ok, _ := geLookup(src.at(0), f, fi)
	if !ok || geIsContainer(v0) {
		return false
	}
	n := src.len()
	for i := 1; i < n; i++ {
		v, ok, _ := geLookup(src.at(i), f, fi)
		if !ok || !encoder.SameScalar(v0, v, appendScalar) {
			return false // a container is never the same as a scalar
		}
	}
	return true
}

// popPlan releases the scratch space of p.
func (e *geEncoder) popPlan(p *gePlan) {
	clear(e.strs[p.ub:])
	e.strs = e.strs[:p.ub]
	e.kinds = e.kinds[:p.kb]
	e.flags = e.flags[:p.fb]
}

// sharedArrays reports whether field f (union index fi) of a tabular
// container omits `{fields}` from its array attachments after row 0, under
// the shared array schema row 0 establishes: layout.SharedArrays over its
// rows, flat records being geFlatRecords with row 0's union (geSameUnion).
// One condition is ours: no field of the union contains '>'. A
// '>'-named field has no column of the declaration (SPEC §7.4.6.1 rule 4),
// so those arrays keep their complete declaration (the reference writes
// the '>' field as an extra cell, a row wider than the schema:
// docs/interop.md).
func (e *geEncoder) sharedArrays(src geRows, f string, fi int) bool {
	var first []any
	return layout.SharedArrays(src.len(), func(i int) layout.ArrayRow {
		v, ok, _ := geLookup(src.at(i), f, fi)
		return sharedRow(i, v, ok, &first)
	})
}

// sharedRow classifies row i's value v of a field (ok: present) for
// layout.SharedArrays, keeping row 0's array in *first.
func sharedRow(i int, v any, ok bool, first *[]any) layout.ArrayRow {
	if !ok || v == nil {
		return layout.NoArray
	}
	a, ok := v.([]any)
	switch {
	case !ok || !geFlatRecords(a):
		return layout.OtherArray
	case i == 0:
		*first = a
	case !geSameUnion(*first, a):
		return layout.OtherArray
	}
	return layout.FlatArray
}

// geFlatRecords reports whether a is a non-empty array of objects whose
// field union is non-empty and free of '>', and whose members are all
// scalars or null.
func geFlatRecords(a []any) bool {
	if len(a) == 0 {
		return false
	}
	keys := false
	for _, v := range a {
		o, ok := v.(Object)
		if !ok {
			return false
		}
		for i := range o {
			if geIsContainer(o[i].Value) || !layout.ColumnName(o[i].Key) {
				return false
			}
		}
		keys = keys || len(o) > 0
	}
	return keys
}

// geSameUnion reports whether two arrays of objects have the same ordered
// field union (SPEC §7.4.3). It allocates only for unions of more than 16
// fields.
func geSameUnion(a, b []any) bool {
	var buf [2][16]string
	ua, ub := geUnion(a, buf[0][:0]), geUnion(b, buf[1][:0])
	if len(ua) != len(ub) {
		return false
	}
	for i := range ua {
		if ua[i] != ub[i] {
			return false
		}
	}
	return true
}

// geUnion appends the ordered field union of the objects in a to dst. It
// searches dst linearly while the union is small and through a map once it
// holds more than 16 fields, so wide records stay linear.
func geUnion(a []any, dst []string) []string {
	var seen map[string]struct{}
	for _, v := range a {
		o := v.(Object)
	next:
		for i := range o {
			k := o[i].Key
			if seen != nil {
				if _, ok := seen[k]; ok {
					continue
				}
				seen[k] = struct{}{}
			} else {
				for _, u := range dst {
					if u == k {
						continue next
					}
				}
				if len(dst) == 16 {
					seen = make(map[string]struct{}, 64)
					for _, u := range dst {
						seen[u] = struct{}{}
					}
					seen[k] = struct{}{}
				}
			}
			dst = append(dst, k)
		}
	}
	return dst
}

// inlineSchema reports whether field f (union index fi, an ordinary column
// that is not flattened) takes the inline object schema of SPEC §7.4.5.1.
// The spec makes it a MAY; we use it exactly where the reference SDK does,
// which is where flattening (SPEC §7.4.6) is not allowed although every
// object is flat: a key that is empty or holds '>', or an object whose
// leaves are all null. The conditions are the spec's: row 0 holds a
// non-null object for f; every row holds an object or nothing (a present
// null makes the field ineligible, SPEC §7.4.5.1; the reference writes `-`
// there, docs/interop.md); every object has the same keys in the same
// order, at least three of them, and only scalar or null members.
func (e *geEncoder) inlineSchema(src geRows, f string, fi int) bool {
	v, ok, _ := geLookup(src.at(0), f, fi)
	if !ok || !inlineFirst(v) {
		return false
	}
	first := v.(Object)
	n := src.len()
	for i := 1; i < n; i++ {
		v, ok, _ := geLookup(src.at(i), f, fi)
		if ok && !inlineFits(first, v) {
			return false
		}
	}
	return true
}

// inlineFirst reports whether row 0's value v of a field may set up the
// inline object schema (see inlineSchema): an object of at least
// layout.InlineSchemaMinKeys members, none a container.
func inlineFirst(v any) bool {
	first, ok := v.(Object)
	if !ok || len(first) < layout.InlineSchemaMinKeys {
		return false
	}
	for j := range first {
		if geIsContainer(first[j].Value) {
			return false
		}
	}
	return true
}

// inlineFits reports whether a later row's present value v of a field
// fits the inline object schema row 0's object first set up: an object
// with first's keys in first's order, no member a container.
func inlineFits(first Object, v any) bool {
	o, isObj := v.(Object)
	if !isObj || len(o) != len(first) {
		return false
	}
	for j := range o {
		if o[j].Key != first[j].Key || geIsContainer(o[j].Value) {
			return false
		}
	}
	return true
}

// flatLeaves returns the number of leaf columns field f flattens into
// (SPEC §7.4.6, decided by layout.Flat), or 0 if it stays one column.
// Every present non-null value must be an object (newPlan only asks for
// such fields); each is fed to e.flat.
func (e *geEncoder) flatLeaves(src geRows, f string, fi int) int {
	fl := &e.flat
	fl.Reset()
	n := src.len()
	for i := 0; i < n && fl.OK(); i++ {
		v, ok, _ := geLookup(src.at(i), f, fi)
		if !ok || v == nil {
			continue
		}
		o, isObj := v.(Object)
		if !isObj {
			return 0
		}
		fl.Object(len(o))
		geFeedFlat(fl, o)
	}
	return fl.Leaves()
}

// geFeedFlat feeds o's members to fl, depth first, and closes o.
func geFeedFlat(fl *layout.Flat, o Object) {
	for i := range o {
		switch x := o[i].Value.(type) {
		case nil:
			fl.Leaf(o[i].Key, true)
		case Object:
			fl.Nested(o[i].Key, len(x))
			geFeedFlat(fl, x)
		case []any:
			fl.Fail()
		default:
			fl.Leaf(o[i].Key, false)
		}
		if !fl.OK() {
			return
		}
	}
	fl.Close()
}
