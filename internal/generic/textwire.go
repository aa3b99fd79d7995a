package generic

import (
	"bufio"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/legacy"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Wire selects the version of the GCF wire a decoder reads or an encoder
// writes (WithWire). The default is WireV3.
type Wire = stream.Wire

// Wire versions.
const (
	// WireV3 is GCF v3 (spec v3.6.0, and v3.5.3 with WithSpec(Spec353)),
	// the default everywhere.
	WireV3 = stream.WireV3
	// WireV1 is the legacy GCF v1.x wire of the original product documents
	// (SPEC-v1.1 as amended by SPEC-v1.4): graph headers `GCF tool=...`
	// without a profile, headerless generic payloads, v1 sessions, deltas
	// and `## _summary` streams. See docs/legacy-v1.md.
	WireV1 = stream.WireV1
)

// WithWire selects the wire version: Decode, DecodeDelta, DecodeGeneric and
// NewDecoder read it, Encode, EncodeWithSession, EncodeDelta,
// EncodeGeneric and NewEncoder write it. Without it they use WireV3, and a
// v3 decoder given a v1.x payload fails with missing_profile and the
// advice to use WireV1 or `gcf migrate`.
func WithWire(w Wire) Option { return func(c *options.Config) { c.Wire = w } }

// bytesDecoder returns a pull decoder over data with c's limits and wire.
func (c *config) bytesDecoder(data []byte) *stream.Decoder {
	d := stream.NewBytesDecoder(data, c.Limits)
	d.SetWire(c.Wire)
	d.SetExpand(true) // records get every constant column (v3.6.0 §7.4.7)
	return d
}

// v1Generic lays out a normalized JSON-model value in the v1 generic
// (tabular) profile (SPEC-v1.1 §6a, SPEC-v1.4 §6a) and writes it through
// the encoder package's v1 formatting. See docs/legacy-v1.md for the
// layout rules; what v1 cannot carry is an unsupported_value error.
type v1Generic struct {
	b   []byte
	lim encoder.Limiter
}

func appendGenericV1(dst []byte, v any, lim Limits) ([]byte, error) {
	nv, _, err := normalizeDepth(v, nil)
	if err != nil {
		return dst, err
	}
	e := v1Generic{b: dst, lim: encoder.NewLimiter(lim)}
	switch x := nv.(type) {
	case Object:
		if len(x) == 0 {
			// A v1 generic payload has no header: {} would be no bytes,
			// which every v1 decoder refuses as empty input.
			err = lexer.Errorf(lexer.UnsupportedValue, "the v1 wire has no form for an empty root object")
			break
		}
		err = e.members(x, 0, 1)
	case []any:
		err = lexer.Errorf(lexer.UnsupportedValue, "the v1 wire has no root array form: encode the array as an object member")
	default:
		err = e.scalar(x, encoder.V1Root) // a root scalar is the whole payload, without a line end
	}
	if err == nil {
		err = e.lim.Output(e.b[len(dst):])
	}
	if err != nil {
		return dst, err
	}
	return e.b, nil
}

func (e *v1Generic) indent(level int) { e.b = encoder.AppendIndent(e.b, level) }

func (e *v1Generic) key(k string) error {
	if err := v1CheckKey(k); err != nil {
		return err
	}
	e.b = append(e.b, k...)
	return nil
}

// v1CheckKey refuses a key the v1 wire cannot write.
func v1CheckKey(k string) error {
	if !utf8.ValidString(k) {
		return lexer.Errorf(lexer.InvalidUTF8, "key %q is not valid UTF-8", k)
	}
	if !encoder.IsV1Key(k) {
		return lexer.Errorf(lexer.UnsupportedValue, "key %q cannot be written on the v1 wire (v1 keys are letters, digits, _, - and ., and unquoted)", k)
	}
	return nil
}

// scalar appends a primitive in ctx through the v1 dialect's scalar writer.
func (e *v1Generic) scalar(v any, ctx encoder.V1Context) error {
	out, ok, err := encoder.AppendV1Scalar(e.b, v, ctx)
	if !ok {
		return lexer.Errorf(lexer.UnsupportedValue, "value of type %T is not in the generic data model", v)
	}
	e.b = out
	return err
}

func (e *v1Generic) depth(d int) error {
	return e.lim.Depth(d)
}

func (e *v1Generic) count(n int) error {
	return e.lim.Elements(n, "container")
}

// members writes an object's members at level (the original v1
// encoder's layout, docs/legacy-v1.md): scalars and arrays at level, a
// nested object as `## key` one level deeper with its members beside it;
// d is the nesting depth of the object.
func (e *v1Generic) members(o Object, level, d int) error {
	if err := e.depth(d); err != nil {
		return err
	}
	if err := e.count(len(o)); err != nil {
		return err
	}
	after := false // the previous member left a block open at level+1
	for _, m := range o {
		if err := e.member(m, level, d, after); err != nil {
			return err
		}
		_, obj := m.Value.(Object)
		after = after && obj || v1OpensBlock(m.Value) // a `.key` object's members are at level+1 too
	}
	return nil
}

// member writes one member of an object whose members are at level. An
// object is `## key` one level deeper with its members beside it, or, when
// dot, `.key` at level with its members beneath: a `## key` at level+1
// right after a block that an array's last element left open there (an
// item's members, a row's nested fields) would read as part of it.
func (e *v1Generic) member(m Member, level, d int, dot bool) error {
	switch x := m.Value.(type) {
	case Object:
		if dot {
			e.indent(level)
			e.b = encoder.AppendAttachDot(e.b)
		} else {
			e.indent(level + 1)
			e.b = encoder.AppendSectionMark(e.b)
		}
		if err := e.key(m.Key); err != nil {
			return err
		}
		e.b = encoder.AppendLineEnd(e.b)
		return e.members(x, level+1, d+1)
	case []any:
		e.indent(level)
		return e.array(m.Key, x, level, d+1)
	}
	e.indent(level)
	if err := e.key(m.Key); err != nil {
		return err
	}
	e.b = encoder.AppendAssign(e.b)
	if err := e.scalar(m.Value, encoder.V1Value); err != nil {
		return err
	}
	e.b = encoder.AppendLineEnd(e.b)
	return nil
}

// v1OpensBlock reports whether v, written as a member at some level, ends
// with lines at level+1: an array section whose last element is an item
// object, or a table row with nested fields.
func v1OpensBlock(v any) bool {
	a, ok := v.([]any)
	if !ok || len(a) == 0 || geAllPrimitive(a) {
		return false
	}
	last, ok := a[len(a)-1].(Object)
	if !ok {
		return false
	}
	if v1TableFields(a) == nil {
		return true // an item object: its members are beneath it
	}
	for _, m := range last {
		if geIsContainer(m.Value) {
			return true // the row's nested fields
		}
	}
	return false
}

// array writes member key's array at level.
func (e *v1Generic) array(key string, a []any, level, d int) error {
	if err := e.depth(d); err != nil {
		return err
	}
	if err := e.count(len(a)); err != nil {
		return err
	}
	if len(a) > 0 && geAllPrimitive(a) {
		if err := e.key(key); err != nil {
			return err
		}
		e.b = encoder.AppendInlineHead(e.b, len(a))
		for i, v := range a {
			if i > 0 {
				e.b = encoder.AppendItemSep(e.b)
			}
			if err := e.scalar(v, encoder.V1Inline); err != nil {
				return err
			}
		}
		e.b = encoder.AppendLineEnd(e.b)
		return nil
	}
	if err := v1CheckKey(key); err != nil {
		return err
	}
	e.b = encoder.AppendV1Section(e.b, key)
	e.b = encoder.AppendCount(e.b, len(a), false)
	if len(a) == 0 {
		e.b = encoder.AppendLineEnd(e.b)
		return nil
	}
	if fields := v1TableFields(a); fields != nil {
		return e.table(a, fields, level, d)
	}
	e.b = encoder.AppendLineEnd(e.b)
	for i, v := range a {
		e.indent(level)
		e.b = encoder.AppendItemIndex(e.b, i)
		switch x := v.(type) {
		case Object:
			e.b = encoder.AppendLineEnd(e.b)
			if err := e.members(x, level+1, d+1); err != nil {
				return err
			}
		case []any:
			return lexer.Errorf(lexer.UnsupportedValue, "%s[%d]: the v1 wire has no form for an array directly inside an array", key, i)
		default:
			e.b = encoder.AppendWordSep(e.b)
			if err := e.scalar(x, encoder.V1Value); err != nil {
				return err
			}
			e.b = encoder.AppendLineEnd(e.b)
		}
	}
	return nil
}

// v1TableFields returns the fields of a table for a: every element an
// object with the same set of primitive members (at least one), which
// become the columns in the first element's order; nested members go
// beneath their row. It returns nil when a is not such an array.
func v1TableFields(a []any) []string {
	first, ok := a[0].(Object)
	if !ok {
		return nil
	}
	var fields []string
	for _, m := range first {
		if !geIsContainer(m.Value) {
			fields = append(fields, m.Key)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	for _, v := range a {
		o, ok := v.(Object)
		if !ok {
			return nil
		}
		n := 0
		for _, m := range o {
			if geIsContainer(m.Value) {
				continue
			}
			n++
			if !slices.Contains(fields, m.Key) {
				return nil
			}
		}
		if n != len(fields) {
			return nil
		}
	}
	return fields
}

// table writes `{fields}` (the `## key [N]` is written) and the rows.
func (e *v1Generic) table(a []any, fields []string, level, d int) error {
	if err := e.lim.Fields(len(fields)); err != nil {
		return err
	}
	for _, f := range fields {
		if err := v1CheckKey(f); err != nil {
			return err
		}
	}
	e.b = encoder.AppendLineEnd(encoder.AppendV1FieldDecl(e.b, fields))
	for i, v := range a {
		o := v.(Object)
		nested := false
		for _, m := range o {
			nested = nested || geIsContainer(m.Value)
		}
		e.indent(level)
		if nested {
			e.b = encoder.AppendItemIndex(e.b, i)
			e.b = encoder.AppendWordSep(e.b)
		}
		for j, f := range fields {
			if j > 0 {
				e.b = encoder.AppendCellSep(e.b)
			}
			x, _ := o.Get(f)
			if err := e.scalar(x, encoder.V1Cell); err != nil {
				return err
			}
		}
		e.b = encoder.AppendLineEnd(e.b)
		if !nested {
			continue
		}
		if err := e.depth(d + 1); err != nil {
			return err
		}
		// The row's nested fields, beneath it, as the members of an object
		// whose members are at level (its cells): the arrays first, then
		// the objects, each `## key` with its members beside it. Such an
		// object's members run on to the next line that is not key=value
		// or key[N]:, so an inline array written after it would read as
		// its member.
		for _, objects := range []bool{false, true} {
			for _, m := range o {
				if _, ok := m.Value.(Object); ok != objects || !geIsContainer(m.Value) {
					continue
				}
				var err error
				if x, ok := m.Value.(Object); ok && v1HasSection(x) {
					// An object beside its header ends at the row's next
					// `## key [N]` field, so an object with such an array
					// member is written `.key` with its members beneath.
					err = e.member(m, level+1, d+1, true)
				} else if objects {
					err = e.member(m, level, d+1, false) // one level deeper than the row's cells
				} else {
					err = e.member(m, level+1, d+1, false) // an array beneath the row
				}
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// v1HasSection reports whether o has an array member written as a
// `## key [N]` section (empty, or not every element a scalar).
func v1HasSection(o Object) bool {
	for _, m := range o {
		if a, ok := m.Value.([]any); ok && (len(a) == 0 || !geAllPrimitive(a)) {
			return true
		}
	}
	return false
}

// Wire returns the wire version d reads (WithWire).
func (d *Decoder) Wire() Wire { return d.s.Wire() }

// appendV1Cell appends a scalar streamed value on the v1 wire; Missing is
// written `-` (v1 has one marker for null and missing).
func appendV1Cell(b []byte, v any, ctx encoder.V1Context) ([]byte, error) {
	if _, ok := v.(missing); ok {
		return encoder.AppendNull(b), nil
	}
	nv, err := normalize(v)
	if err != nil {
		return b, err
	}
	switch x := nv.(type) {
	case Object, []any:
		return b, lexer.Errorf(lexer.UnsupportedValue, "a streamed cell must be a scalar, not %T", nv)
	case string:
		if bad := invalidAt(x); bad >= 0 {
			return b, &lexer.SyntaxError{Category: lexer.InvalidUTF8, Offset: int64(bad), Msg: "invalid UTF-8"}
		}
	}
	e := v1Generic{b: b}
	err = e.scalar(nv, ctx)
	return e.b, err
}

// noV1 refuses WithWire(WireV1) for what the v1 wire has no form for (the
// generic keyed tables and deltas of SPEC §10a), rather than writing or
// reading v3 unasked.
func noV1(wire Wire, fn string) error {
	if wire == WireV1 {
		return lexer.Errorf(lexer.UnsupportedValue, "%s: the v1 wire has no generic keyed tables or deltas (SPEC §10a is v3 only)", fn)
	}
	return nil
}

// ---- Migrate ----

// Migrate reads a GCF v1.x payload from r (SPEC-v1.1 as amended by
// SPEC-v1.4) and writes the equivalent v3 payload to w (spec v3.6.0, or
// v3.5.3 given WithSpec(Spec353) in opts): decoding the
// output with the v3 decoder gives the value that decoding the input with
// WithWire(WireV1) gives.
//
// A graph payload (first line `GCF ...`), a session payload or a delta is
// translated line by line as the v1 decoder validates it, in memory bounded
// by the longest line (plus the symbol ids the decoder keeps for edge
// checks). Its header gains `profile=graph` and keeps its fields (budget=0,
// tokens=0 and edges=0 are dropped, as a canonical v3 header omits them);
// scores are written with the two decimals v3 requires; a `## _summary`
// trailer becomes `##! summary`, and an edges section or a header whose
// counts v1 left out is written in the v3 streaming form (`## edges [?]`
// and a `##! summary` trailer). A delta `## added` line gains the distance
// v3 requires, 0, the distance the v1 decoder reports for it.
//
// A generic (headerless) payload is decoded whole and re-encoded with
// EncodeGeneric, so its memory grows with the payload: bound it with
// WithMaxBytes.
//
// What v1 carries that v3 cannot express is an error, never dropped: a
// score with more than two significant decimals (invalid_score), a kind
// that is not a v3 bare key (invalid_node_line). Every error is a
// *SyntaxError with the input's line and column; on error w may hold a
// partial payload (the CLI writes to a temporary file and renames it only
// on success). opts are the decoder's limits.
func Migrate(r io.Reader, w io.Writer, opts ...Option) error {
	cfg := newConfig(opts)
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(5)
	if !legacy.IsGraphHead(head) {
		return migrateGeneric(br, w, cfg.Limits.MaxBytes, opts)
	}
	return legacy.MigrateGraph(br, w, cfg.Limits)
}

// migrateGeneric moves a headerless v1 generic payload to v3 through the
// value model.
func migrateGeneric(r io.Reader, w io.Writer, maxBytes int64, opts []Option) error {
	src := r
	if maxBytes > 0 {
		src = io.LimitReader(r, maxBytes+1)
	}
	data, err := io.ReadAll(src)
	if err != nil {
		return &SyntaxError{Category: lexer.ReadFailure, Msg: "reading the v1 payload: " + err.Error(), Err: err}
	}
	v1 := append(append([]Option(nil), opts...), WithWire(WireV1))
	v, err := DecodeGeneric(data, v1...)
	if err != nil {
		return err
	}
	v3 := append(append([]Option(nil), opts...), WithWire(WireV3))
	out, err := EncodeGeneric(v, v3...)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
