package gcf

// The generic profile's front door: every name of internal/generic under
// the name it has always had here, the documentation on these names. The
// code is in internal/generic.

import (
	"io"

	"github.com/gcfkit/gcf/internal/generic"
	"github.com/gcfkit/gcf/keyset"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// ---- internal/generic/decoder.go ----

// Event is one step of a payload read by a Decoder; see the stream package
// for the meaning of each field. Its byte slices are borrowed until the
// next call on the Decoder; Clone keeps them.
type Event = stream.Event

// Scalar is one decoded value token of an Event (Event.Value, Event.Cells).
// Its typed accessors (Int64, Float64, Boolean, AppendString, IsNull) do
// not allocate.
type Scalar = lexer.Scalar

// Kind, Role and Form describe an Event; see the stream package.
type (
	Kind = stream.Kind
	Role = stream.Role
	Form = stream.Form
)

// Event kinds. Every ObjectStart is closed by an ObjectEnd and every
// ArrayStart by an ArrayEnd; a graph group (KindGroup) runs until the next
// group, the summary or the end.
const (
	KindHeader      = stream.KindHeader
	KindObjectStart = stream.KindObjectStart
	KindObjectEnd   = stream.KindObjectEnd
	KindArrayStart  = stream.KindArrayStart
	KindArrayEnd    = stream.KindArrayEnd
	KindScalar      = stream.KindScalar
	KindRow         = stream.KindRow
	KindInlineBody  = stream.KindInlineBody
	KindSummary     = stream.KindSummary
	KindEnd         = stream.KindEnd
	KindGroup       = stream.KindGroup
	KindSymbol      = stream.KindSymbol
	KindReference   = stream.KindReference
	KindEdge        = stream.KindEdge
	KindRemoved     = stream.KindRemoved
	KindDeltaEdge   = stream.KindDeltaEdge
)

// Roles of value events and forms of container bodies.
const (
	RoleRoot       = stream.RoleRoot
	RoleMember     = stream.RoleMember
	RoleItem       = stream.RoleItem
	RoleAttachment = stream.RoleAttachment

	FormEmpty    = stream.FormEmpty
	FormInline   = stream.FormInline
	FormTabular  = stream.FormTabular
	FormExpanded = stream.FormExpanded
	FormKeyed    = stream.FormKeyed
	FormSection  = stream.FormSection
)

// Decoder is a pull decoder over an io.Reader for either profile. Memory is
// bounded by the longest line and the nesting depth, never by the payload
// size; steady-state events make no allocation. Next and Read return one
// event at a time; Skip passes over a container; More and Decode turn the
// next whole value (or table row, or graph symbol) into Go values, so event
// streaming and value decoding mix as with encoding/json.Decoder. Its row
// events are expanded (stream.Decoder.SetExpand): a row of a table with
// constant columns or groups (spec v3.6.0 §7.4.7, §7.4.8) carries every
// declared column in declaration order and no group event is returned; the
// table's start event still lists the constants in Consts. A Decoder is
// not safe for concurrent use.
type Decoder = generic.Decoder

// NewDecoder returns a Decoder reading from r. Options set the limits.
func NewDecoder(r io.Reader, opts ...Option) *Decoder { return generic.NewDecoder(r, opts...) }

// ---- internal/generic/decode_generic.go ----

// DecodeGeneric decodes a generic-profile payload into the JSON data model:
// Object (member order kept), []any, int64, float64, string, bool or nil.
// Strings and the interfaces holding values are carved from shared chunks
// of a few kilobytes rather than allocated one by one, so a decoded value
// keeps its chunks alive while it is in use.
// Malformed input yields a *SyntaxError with the line, column and SPEC
// §16.5 category. It is a consumer of the pull decoder's events. A table's
// constant columns (spec v3.6.0 §7.4.7) and a grouped table's group values
// (§7.4.8) go into every record, each key in declaration order.
func DecodeGeneric(data []byte, opts ...Option) (any, error) {
	return generic.DecodeGeneric(data, opts...)
}

// ---- internal/generic/encode_generic.go ----

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
func EncodeGeneric(v any, opts ...Option) ([]byte, error) { return generic.EncodeGeneric(v, opts...) }

// AppendGeneric appends the generic-profile encoding of v (see
// EncodeGeneric, also for opts and the limits) to dst and returns the
// extended slice. On error it returns dst truncated to its original length
// (bytes past it, within dst's capacity, may have been overwritten); on
// success the bytes past the result are left as they were, as append
// leaves them.
func AppendGeneric(dst []byte, v any, opts ...Option) ([]byte, error) {
	return generic.AppendGeneric(dst, v, opts...)
}

// ---- internal/generic/smallest.go ----

// Size selects how EncodeGeneric lays out a value: in the one canonical
// form every conformant encoder writes byte for byte, or in the form that
// costs the fewest tokens.
type Size = generic.Size

const (
	// Canonical is the layout of SPEC §7.11 (the default): byte-identical
	// with every conformant encoder.
	Canonical = generic.Canonical
	// Smallest chooses, per container, among the forms every conformant
	// decoder reads to the same value, the one the cost model (WithCost)
	// prices lowest: keyed table or `##` sections for an object whose
	// values are objects (SPEC §7.2, §7.2a, also for a single member),
	// tabular or expanded form for an array of objects (§7.3, §7.6),
	// `>` path columns or attachments for a nested object in a table
	// (§7.4.4, §7.4.6), and `name[0]:` or `## name [0]` for an empty array
	// member (§4 inline-array, §4.2); an inline object schema or `.f {}`
	// attachments (§7.4.5.1); and a shared array schema from row 0 for the
	// later arrays that fit it, each other one with its own declaration
	// (§7.4.5.3). The whole result is never priced above the canonical layout:
	// when it would be, that layout is returned. The output is not
	// byte-identical across implementations; see docs/smallest.md.
	Smallest = generic.Smallest
)

// WithSize selects the layout of EncodeGeneric and AppendGeneric
// (default Canonical). Decoders and the graph profile ignore it.
func WithSize(s Size) Option { return generic.WithSize(s) }

// WithCost sets the cost model of WithSize(Smallest): cost returns the
// price of a piece of GCF text, normally its token count under the model's
// tokenizer (for o200k_base: tokens.MustNew(tokens.O200kBase).Count). The
// default, nil, is EstimateTokens. Two alternatives whose estimates differ
// by a quarter or more are ranked by EstimateTokens without calling cost.
// Other sizes ignore it.
func WithCost(cost func(string) int) Option { return generic.WithCost(cost) }

// EstimateTokens estimates the number of tokens a byte-pair tokenizer of
// the o200k_base family splits s into, from its bytes alone: it cuts s
// where such a tokenizer's pre-tokenizer does (letter runs split before an
// upper-case letter that follows a lower-case one, digits by threes,
// punctuation runs, white space) and prices long pieces by length. It is
// the default cost model of the Smallest size: fast (one pass, no
// allocation) and close enough to pick the forms real token counts pick
// on the documents the tests try; pass a real counter with WithCost where
// the exact count matters.
func EstimateTokens(s string) int { return generic.EstimateTokens(s) }

// ---- internal/generic/stream_encoder.go ----

// Missing is the value a streaming row cell takes when the field is absent
// from its record; it is written as `~` (SPEC §7.4.2).
var Missing = generic.Missing

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
type Encoder = generic.Encoder

// NewEncoder returns an Encoder writing to w under the limits of opts
// (WithMaxLineBytes, WithMaxElements, WithMaxFields, WithMaxDepth,
// WithMaxBytes; the decoder's defaults without them). GroupBy applies to
// Encode only, which then writes what EncodeGeneric with the same options
// writes; streamed tables cannot be grouped (a group needs its exact count).
func NewEncoder(w io.Writer, opts ...Option) *Encoder { return generic.NewEncoder(w, opts...) }

// ---- internal/generic/unmarshal_any.go ----

// WithOrderedObjects makes Unmarshal and Decoder.Decode store an object
// decoded into an interface as an Object, its members in payload order
// (and a repeated key kept twice), instead of encoding/json's
// map[string]any. Encoders ignore it.
func WithOrderedObjects() Option { return generic.WithOrderedObjects() }

// WithExactNumbers makes Unmarshal and Decoder.Decode store a number
// decoded into an interface as DecodeGeneric gives it, instead of
// encoding/json's float64: an integer as int64 (exact: GCF integers are
// within the int64 range, SPEC §5) and any other number as float64.
// Encoders ignore it.
//
// With both WithOrderedObjects and WithExactNumbers, a value decoded into
// *any is exactly what DecodeGeneric returns.
func WithExactNumbers() Option { return generic.WithExactNumbers() }

// ---- internal/generic/generic_delta.go ----

// Table is a keyed set of scalar rows (SPEC §10a.1); see keyset.Table.
// NewTable builds one from a JSON value, DecodeTable from a payload.
type Table = generic.Table

// GenericDelta is a generic-profile delta (SPEC §10a.2); see keyset.Delta.
type GenericDelta = generic.GenericDelta

// NewTable returns the keyed set that the JSON value v holds, identified by
// the field key: v is an array of objects (the root array `## [N]{...}`),
// or an object with exactly one member whose value is such an array
// (`## name [N]{...}`). Every object must have the same fields (declared in
// order of first appearance, SPEC §7.4.3) and scalar values only; an empty
// array gives the single field key. Errors: invalid_schema for any other
// shape (a keyed map, nested values, a row lacking a field: send such a
// value in full with EncodeGeneric), and the identity errors of
// GenericPackRoot.
func NewTable(v any, key string) (*Table, error) { return generic.NewTable(v, key) }

// TableValue returns the JSON value of t, the inverse of NewTable: an
// array of objects, wrapped in a one-member object when t has a Name.
func TableValue(t *Table) any { return generic.TableValue(t) }

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
func DiffGeneric(base, current *Table) (*GenericDelta, error) {
	return keyset.Diff(base, current)
}

// ApplyGenericDelta applies d to base atomically (SPEC §10a.5) and returns
// the new table, whose PackRoot is d.NewRoot once verified; base is never
// modified. A base_root or new_root that does not match is root_mismatch;
// an added identity already in base, a changed or removed one absent from
// it, a change of the identity field or of the field set is
// malformed_delta; an identity twice in the delta is duplicate_key. See
// keyset.Apply for the steps.
func ApplyGenericDelta(base *Table, d *GenericDelta) (*Table, error) {
	return keyset.Apply(base, d)
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
func EncodeTable(t *Table, opts ...Option) ([]byte, error) { return generic.EncodeTable(t, opts...) }

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
	return generic.EncodeGenericDelta(d, opts...)
}

// EncodeGenericUnchanged writes the header-only answer of SPEC §10a.4
// outcome 1: `GCF profile=generic[ tool=T] unchanged=true pack_root=R count=N`.
func EncodeGenericUnchanged(tool, packRoot string, count int) ([]byte, error) {
	return generic.EncodeGenericUnchanged(tool, packRoot, count)
}

// DecodeTable decodes a delta-participating full payload (SPEC §10a.1):
// a generic header naming key= and one table marking that field with `@`,
// as the root array or the only member of the root object. PackRoot is the
// header's pack_root as given (ReceiveGeneric verifies it). The stream
// decoder rejects every malformed identity with its position
// (malformed_delta, or duplicate_key for a repeated identity); a payload
// with no key=, or with anything beside its one table, is malformed_delta.
func DecodeTable(data []byte, opts ...Option) (*Table, error) {
	return generic.DecodeTable(data, opts...)
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
	return generic.DecodeGenericDelta(data, opts...)
}

// CanonicalGenericBytes returns the bytes GenericPackRoot hashes (SPEC
// §10a.3 steps 1-4): one record `R<TAB>field<TAB>value...<LF>` per row,
// fields in byte order, values in canonical hash form, records sorted.
func CanonicalGenericBytes(t *Table) ([]byte, error) { return keyset.CanonicalBytes(t) }

// DefaultReanchorEvery is the re-anchor cadence SPEC §10a.8 suggests: a
// full payload at least every 15 responses.
const DefaultReanchorEvery = generic.DefaultReanchorEvery

// DefaultMaxConsumers is the number of consumers a DeltaSession remembers
// when NewDeltaSession is given no bound.
const DefaultMaxConsumers = generic.DefaultMaxConsumers

// ReanchorPolicy says when a DeltaSession sends a full payload ("re-anchors",
// SPEC §10a.8) although it could send a delta. Each rule is checked on
// every response that could be a delta; any one of them makes it full.
type ReanchorPolicy = generic.ReanchorPolicy

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
type DeltaSession = generic.DeltaSession

// NewDeltaSession returns a session with the given policy, remembering at
// most maxConsumers consumers (DefaultMaxConsumers when maxConsumers <= 0).
func NewDeltaSession(policy ReanchorPolicy, maxConsumers int) *DeltaSession {
	return generic.NewDeltaSession(policy, maxConsumers)
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
	return generic.RespondGeneric(current, consumerRoot, prior)
}

// ReceiveGeneric is Receive for a keyed table (SPEC §10a.4, §10a.5): given
// the table it holds (nil for none) and the producer's answer, it returns
// the table to hold next. An unchanged answer must name held's root; a
// delta is decoded and applied atomically, both roots verified
// (root_mismatch otherwise, held untouched); a full payload is decoded
// with DecodeTable and its pack_root, when present, verified. On any error
// the caller keeps held and should ask for a full payload.
func ReceiveGeneric(held *Table, answer []byte) (*Table, Outcome, error) {
	return generic.ReceiveGeneric(held, answer)
}

// ---- internal/generic/textwire.go ----

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
func WithWire(w Wire) Option { return generic.WithWire(w) }

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
func Migrate(r io.Reader, w io.Writer, opts ...Option) error { return generic.Migrate(r, w, opts...) }
