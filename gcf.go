// Package gcf encodes Go values as GCF (Graph Compact Format) v3.6.0 and
// decodes them back: a line-oriented text format that carries structured
// data to language models in far fewer tokens than JSON.
//
// Decoders read spec v3.6.0 and v3.5.3 payloads alike, constant columns
// (`{id,region=us-east,level}`, §7.4.7) and value-grouped tables
// (`{@id,...} group=dept`, §7.4.8) included. Encoders write v3.6.0 by
// default, and v3.5.3, with no v3.6-only form, given WithSpec(Spec353),
// for readers that predate v3.6; value-grouping is opt-in (GroupBy).
//
// # Marshal and Unmarshal
//
// Marshal and Unmarshal are the front door, used as json.Marshal and
// json.Unmarshal are, with the same rules for structs (json tags), maps,
// slices, pointers and the JSON data model:
//
//	out, err := gcf.Marshal(v)        // Go value -> GCF (generic profile)
//	err = gcf.Unmarshal(out, &target) // GCF -> struct, map, slice, *any, ...
//
// Unmarshal into an interface stores encoding/json's forms: map[string]any,
// []any, float64, string, bool, nil. WithOrderedObjects keeps objects as
// Object (member order kept) and WithExactNumbers integers as int64.
//
// # NewDecoder and NewEncoder
//
// NewDecoder reads a payload from an io.Reader with bounded memory. Its
// Decode fills Go values, the whole payload or one table row at a time, as
// json.Decoder's does; its Next and Read return one event at a time
// without allocating. NewEncoder writes a payload as it is produced,
// tables whose size is not known up front included (SPEC §8).
//
// # EncodeGeneric and DecodeGeneric: options and the ordered model
//
// EncodeGeneric is Marshal with options (limits, WithSpec, WithSize,
// WithWire), and AppendGeneric its append form. DecodeGeneric decodes into
// the ordered JSON model: Object (member order kept), []any, int64,
// float64, string, bool or nil; ParseJSON and ToJSON bridge that model and
// JSON text.
//
// # Encode and Decode: the graph profile
//
// Encode and Decode carry code-intelligence payloads (Payload: symbols,
// edges and distance groups) in the graph profile; sessions
// (EncodeWithSession), deltas (Diff, EncodeDelta) and the three-outcome
// protocol (Respond, Receive) build on them. Unmarshal into a *Payload
// reads a graph payload too.
//
// # Limits and errors
//
// Decoders and encoders share one set of limits (Limits, WithMaxDepth and
// the other options; SPEC §12): an encoder never writes what a decoder with
// the same options would reject, and refuses it with the same category.
// WithSpec chooses the spec version encoders write (v3.6.0 by default,
// Spec353 for readers that predate it); decoders read both.
//
// Every decode error is a *SyntaxError carrying the line, the 1-based byte
// column and a Category spelled as in SPEC §16.5, so callers can match
// errors with errors.Is(err, gcf.CountMismatch) or errors.As. An encode
// error about one value of the input is a *SyntaxError too, with the
// value's JSON Pointer in Path.
package gcf

import (
	"github.com/gcfkit/gcf/internal/generic"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// SyntaxError is the error type of every decode failure and of encode-side
// domain errors: a Category plus the position (Line 0 when there is none).
type SyntaxError = lexer.SyntaxError

// Category names a class of error; see the constants below.
type Category = lexer.Category

// Error categories, spelled exactly as in SPEC §16.5 and the conformance
// fixtures. Each is an error value, so errors.Is(err, gcf.CountMismatch) works.
const (
	MissingHeader           = lexer.MissingHeader
	MissingProfile          = lexer.MissingProfile
	UnknownProfile          = lexer.UnknownProfile
	MalformedHeaderField    = lexer.MalformedHeaderField
	DuplicateHeaderField    = lexer.DuplicateHeaderField
	UnterminatedQuote       = lexer.UnterminatedQuote
	InvalidEscape           = lexer.InvalidEscape
	TrailingCharacters      = lexer.TrailingCharacters
	InvalidMissing          = lexer.InvalidMissing
	InvalidAttachmentMarker = lexer.InvalidAttachmentMarker
	InvalidSurrogate        = lexer.InvalidSurrogate
	InvalidUTF8             = lexer.InvalidUTF8
	DuplicateKey            = lexer.DuplicateKey
	DuplicateFieldName      = lexer.DuplicateFieldName
	RowWidthMismatch        = lexer.RowWidthMismatch
	CountMismatch           = lexer.CountMismatch
	InvalidCount            = lexer.InvalidCount
	TabIndentation          = lexer.TabIndentation
	InvalidIndent           = lexer.InvalidIndent
	InvalidItemID           = lexer.InvalidItemID
	OrphanAttachment        = lexer.OrphanAttachment
	OrphanInlineAttachment  = lexer.OrphanInlineAttachment
	MissingAttachment       = lexer.MissingAttachment
	DuplicateAttachment     = lexer.DuplicateAttachment
	InlineWidthMismatch     = lexer.InlineWidthMismatch
	InvalidNodeLine         = lexer.InvalidNodeLine
	InvalidSymbolID         = lexer.InvalidSymbolID
	InvalidScore            = lexer.InvalidScore
	InvalidEdgeSyntax       = lexer.InvalidEdgeSyntax
	UnknownEdgeReference    = lexer.UnknownEdgeReference
	MalformedDelta          = lexer.MalformedDelta

	// Added by spec v3.6.0 (constant columns §7.4.7, value-grouping §7.4.8).
	InvalidConstValue  = lexer.InvalidConstValue
	NoBareColumn       = lexer.NoBareColumn
	InvalidGroupHeader = lexer.InvalidGroupHeader
	DuplicateGroup     = lexer.DuplicateGroup

	OutOfRange       = lexer.OutOfRange
	InvalidLine      = lexer.InvalidLine
	InvalidKeyedMap  = lexer.InvalidKeyedMap
	InvalidSummary   = lexer.InvalidSummary
	UnsupportedValue = lexer.UnsupportedValue
	InvalidSchema    = lexer.InvalidSchema
	LineTooLong      = lexer.LineTooLong
	DepthExceeded    = lexer.DepthExceeded
	TooManyElements  = lexer.TooManyElements
	TooManyFields    = lexer.TooManyFields
	PayloadTooLarge  = lexer.PayloadTooLarge
	ReadError        = lexer.ReadFailure
	UnexpectedEOF    = lexer.UnexpectedEOF
)

// CategoryOf returns the Category carried by err, or "" if it carries none.
func CategoryOf(err error) Category { return lexer.CategoryOf(err) }

// Limits bound what a decoder accepts from untrusted input and, the same
// set, what an encoder writes (SPEC §12): an encoder given the options a
// decoder uses refuses, with the decoder's error category, any payload that
// decoder would reject.
type Limits = stream.Limits

// Option configures a decoder or encoder.
type Option = options.Option

// Spec names a version of the GCF specification an encoder writes.
type Spec = options.Spec

// The spec versions WithSpec accepts.
const (
	// Spec36 is spec v3.6.0, the default: canonical output factors
	// constant columns (§7.4.7).
	Spec36 Spec = "3.6.0"
	// Spec353 is spec v3.5.3: no v3.6-only forms (no constant columns, no
	// value-grouping), for readers that predate v3.6 such as the reference
	// TypeScript SDK 2.6.1. Decoders read both versions whatever this says.
	Spec353 Spec = "3.5.3"
)

// WithSpec sets the spec version the encoders write (default Spec36).
// Decoders ignore it: they read v3.5.3 and v3.6.0 payloads alike.
func WithSpec(s Spec) Option { return func(c *options.Config) { c.Spec = s } }

// GroupBy makes EncodeGeneric write a root array of records as a
// value-grouped keyed set (spec v3.6.0 §7.4.8): key is the identity
// column (written @key), column the column whose values group the records,
// one `column=value [n]` subheader per group. Records are reordered: groups
// follow the first appearance of their value, records keep their relative
// order within a group, so use it only where array order carries no
// meaning. It is opt-in and never the default.
//
// The value, after the usual normalization of maps and structs, must be a
// non-empty array of objects holding scalars only, each with the key
// (present, not null, unique as a decoder compares values) and the group
// column (null allowed, written `column=- [n]`); key and column differ.
// The output is one root section `## [N]{...} group=column`: the group
// column keeps its place in the field union, the other columns with one
// value in every record are factored as constants (§7.4.7), absent cells
// are `~`, and each subheader value is written as a row cell would be.
// Refusals are *SyntaxError values: invalid_group_header for the shape of
// the value, a missing or null key, a missing group value, a field named
// like a '>' path column, and for WithSpec(Spec353) or WithWire(WireV1),
// which cannot carry grouping; duplicate_key for a repeated key;
// duplicate_group for two group values a decoder reads as one but that are
// written differently (1000000000000000000 and 1e+18); and the categories
// of EncodeGeneric for the limits and the data model. WithSize has no
// effect on a grouped encode. It applies to EncodeGeneric, AppendGeneric
// and Encoder.Encode (NewEncoder); streamed tables are never grouped.
func GroupBy(key, column string) Option {
	return func(c *options.Config) { c.Group = options.GroupBy{Key: key, Column: column, On: true} }
}

// WithLimits sets every limit at once; zero fields keep their defaults. It
// affects decoders and encoders alike.
func WithLimits(l Limits) Option { return func(c *options.Config) { c.Limits = l } }

// WithMaxDepth sets the deepest container nesting a decoder accepts and an
// encoder writes (default 256; the CLI flag -max-depth).
func WithMaxDepth(n int) Option { return func(c *options.Config) { c.Limits.MaxDepth = n } }

// WithMaxLineBytes sets the longest line, in bytes without its line end, a
// decoder accepts and an encoder writes (default 1 MiB; the CLI flag -max-line).
func WithMaxLineBytes(n int) Option { return func(c *options.Config) { c.Limits.MaxLineBytes = n } }

// WithMaxElements sets the most rows, items or members one container may
// hold, in a decoder's input and an encoder's output (default 16,777,216;
// the CLI flag -max-elements).
func WithMaxElements(n int) Option { return func(c *options.Config) { c.Limits.MaxElements = n } }

// WithMaxFields sets the most fields one field declaration may hold, in a
// decoder's input and an encoder's output (default 4,096; the CLI flag -max-fields).
func WithMaxFields(n int) Option { return func(c *options.Config) { c.Limits.MaxFields = n } }

// WithMaxBytes caps the total payload size a decoder reads and an encoder
// writes (default: no cap; the CLI flag -max-bytes).
func WithMaxBytes(n int64) Option { return func(c *options.Config) { c.Limits.MaxBytes = n } }

// WithRequireSummary makes a decoder reject a payload whose `[?]` sections
// are not confirmed by a `##! summary` trailer, with category
// unexpected_eof: the way to catch a stream cut off just before its
// trailer. Without it such a payload is accepted, as SPEC §8.6 requires.
// Encoders ignore it (they always write the trailer).
func WithRequireSummary() Option { return func(c *options.Config) { c.Limits.RequireSummary = true } }

// Marshal returns the generic-profile encoding of v: the front door for Go
// values, as json.Marshal is for JSON. It is EncodeGeneric with the default
// limits: maps, slices, structs (through their json tags, with
// encoding/json's field rules), pointers and the JSON data model are all
// accepted; see EncodeGeneric for the layout and the errors. A graph
// payload (*Payload) is written in the graph profile by Encode instead.
func Marshal(v any) ([]byte, error) {
	return generic.EncodeGeneric(v)
}

// Unmarshal decodes the whole payload data into the value v points to, as
// json.Unmarshal does for JSON: targets follow encoding/json's rules for
// the JSON form of the value (structs through their json tags), and an
// interface (*any, or an interface field, element or map value) receives
// encoding/json's forms: map[string]any, []any, float64, string, bool or
// nil. WithOrderedObjects keeps objects as Object and WithExactNumbers
// integers as int64, as DecodeGeneric gives them; a *Object receives the
// ordered model as it is, and a *Payload a graph-profile payload. It is Decoder.Decode over
// data; a nil error means all of data was read and valid. Malformed input
// yields a *SyntaxError with its line, column and SPEC §16.5 category.
// Constant columns and group values (spec v3.6.0 §7.4.7, §7.4.8) fill
// every record, as if each row held them, keys in declaration order.
func Unmarshal(data []byte, v any, opts ...Option) error { return generic.Unmarshal(data, v, opts...) }
