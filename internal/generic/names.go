// Package generic is the generic profile behind the root package's front
// door: the buffered encoders and their layouts, the decoders (whole
// payloads, typed targets, the pull Decoder), the streaming Encoder, and
// generic keyed tables, deltas and sessions.
package generic

// The names this package shares with the root package gcf, under the
// names the code has always used: the JSON model, the options and the
// graph profile's names that the Decoder and the Encoder use.

import (
	"github.com/gcfkit/gcf/graph"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/jsonmodel"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

type (
	// Object is the ordered JSON object of the data model (jsonmodel.Object).
	Object = jsonmodel.Object
	// Member is one key/value pair of an Object.
	Member = jsonmodel.Member
	// Option configures a decoder or encoder.
	Option = options.Option
	// Limits are the decode and encode limits.
	Limits = stream.Limits
	// SyntaxError is the one error type.
	SyntaxError = lexer.SyntaxError
	// Payload is a graph-profile payload.
	Payload = graph.Payload
	// Outcome is the answer kind of the three-outcome protocol.
	Outcome = graph.Outcome
	// GraphHeader is the header of a streamed graph payload.
	GraphHeader = graph.StreamHeader
	// Symbol is one node of a graph payload.
	Symbol = graph.Symbol
	// Edge is one edge of a graph payload.
	Edge = graph.Edge
)

// config is the resolved options of one call (options.Config), with this
// package's helpers on it.
type config struct{ options.Config }

// defaultLimits are the limits in effect when no option sets one.
var defaultLimits = options.DefaultLimits

// newConfig resolves opts, once per call of the API (options.Resolve): a
// caller resolves once and passes the config (or its limits) down.
func newConfig(opts []Option) config { return config{options.Resolve(opts)} }

// The graph profile's constants the generic protocol shares.
const (
	OutcomeFull      = graph.OutcomeFull
	OutcomeDelta     = graph.OutcomeDelta
	OutcomeUnchanged = graph.OutcomeUnchanged
	DeltaThreshold   = graph.DeltaThreshold
)

// RootMismatch is the category of a pack root that does not identify the
// snapshot it should.
const RootMismatch = graph.RootMismatch

// The spec versions (the root's Spec36 and Spec353).
const (
	Spec36  options.Spec = "3.6.0"
	Spec353 options.Spec = "3.5.3"
)

// The error categories this package names unqualified.
const (
	InvalidUTF8          = lexer.InvalidUTF8
	MalformedHeaderField = lexer.MalformedHeaderField
	CountMismatch        = lexer.CountMismatch
)

// CategoryOf returns the category of err (lexer.CategoryOf).
func CategoryOf(err error) lexer.Category { return lexer.CategoryOf(err) }

// ParseJSON reads one JSON value into the data model (jsonmodel.ParseJSON).
func ParseJSON(data []byte, opts ...Option) (any, error) { return jsonmodel.ParseJSON(data, opts...) }

// ToJSON writes a data-model value as compact JSON (jsonmodel.ToJSON).
func ToJSON(v any) ([]byte, error) { return jsonmodel.AppendJSON(nil, v) }

// KindExpand returns the full symbol kind for abbrev (graph.KindExpand).
func KindExpand(abbrev string) string { return graph.KindExpand(abbrev) }
