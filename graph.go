package gcf

// The graph profile's front door: every name of package graph under the
// name it has always had here. The code is in graph/.

import (
	"github.com/gcfkit/gcf/graph"
)

// Payload is a graph-profile payload: code-intelligence results for an MCP
// tool (SPEC §3.2, §5, §6). JSON field names match the conformance
// fixtures and the reference SDKs.
type Payload = graph.Payload

// Symbol is one node of a graph payload. Its identity is (Kind,
// QualifiedName) (SPEC §9.1). Kind is the full form ("function"); the wire
// carries the abbreviation (KindAbbrev). Distance selects the group header
// (0 targets, 1 related, 2 extended, N>2 distance_N).
type Symbol = graph.Symbol

// Components are the parts a producer combined into a Symbol's score. They
// are model-side metadata: the graph wire does not carry them.
type Components = graph.Components

// Edge is a relation between two symbols, named by qualified name: Source
// EdgeType Target ("Server calls Auth"). Status is "" (none) or a token
// without whitespace or control characters, written and read as is:
// "added" and "removed" in diff payloads (SPEC §6), any other token as the
// reference SDKs read it (docs/spec-notes.md).
type Edge = graph.Edge

// DeltaPayload is a graph delta (SPEC §10): what changed between the
// snapshot identified by BaseRoot and the one identified by NewRoot.
// Removed symbols are matched by (Kind, QualifiedName); Added symbols carry
// every field, including Distance.
type DeltaPayload = graph.DeltaPayload

// Session is the producer side of graph session statefulness (SPEC §9): it
// binds each symbol identity to a stable local ID and remembers which
// declarations have been delivered, so later payloads can send the bare
// reference `@N  # previously transmitted` instead.
//
// Symbol identity is (kind, qualified name) (SPEC §9.1). Kinds are compared
// in full form: "fn" and "function" name the same identity because both
// reach the wire as "fn" (KindExpand is applied to the kind first).
//
// IDs are allocated monotonically from 0 and are never reused by the same
// Session value, not even after Reset or a limit fallback, so a consumer can
// never see one ID bound to two symbols.
//
// A Session must be scoped to one principal, one conversation, one producer
// namespace and one protocol version (SPEC §9.3); sharing one between users
// is a bug in the caller. The only limit enforced is the number of
// retained identities (WithMaxSymbols); idle time and lifetime are the
// caller's to enforce, by discarding the Session or calling Reset.
//
// A Session is safe for concurrent use; concurrent EncodeWithSession calls
// on one Session are serialized. The zero value is an empty Session with
// the default limit; NewSession is the usual constructor.
type Session = graph.Session

// SessionOption configures a Session.
type SessionOption = graph.SessionOption

// Outcome is the kind of answer of the three-outcome protocol (SPEC §10.3).
type Outcome = graph.Outcome

// GraphHeader is the header of a streaming graph payload (SPEC §8.1),
// given to Encoder.BeginGraph.
type GraphHeader = graph.StreamHeader

// DefaultMaxSessionSymbols is the default bound on the symbol identities a
// Session retains (SPEC §9.5).
const DefaultMaxSessionSymbols = graph.DefaultMaxSessionSymbols

// DeltaThreshold is the largest size of a delta, as a fraction of the full
// payload, that Respond sends instead of the full payload (SPEC §10.1
// recommends 60%).
const DeltaThreshold = graph.DeltaThreshold

// The three outcomes of Respond and Receive (SPEC §10.3).
const (
	// OutcomeUnchanged: the consumer's root still identifies the result; the
	// answer is a header-only payload with unchanged=true.
	OutcomeUnchanged = graph.OutcomeUnchanged
	// OutcomeDelta: the consumer's root names a snapshot the producer kept;
	// the answer is a delta from it.
	OutcomeDelta = graph.OutcomeDelta
	// OutcomeFull: anything else; the answer is the full payload with its pack_root.
	OutcomeFull = graph.OutcomeFull
)

// Graph-side error categories that have no lexer counterpart.
const (
	// RootMismatch reports a pack root that does not identify the snapshot
	// it is checked against: a delta's base_root differs from the root of
	// the base it is applied to, or its new_root differs from the root
	// recomputed after applying it (SPEC §10.4 steps 1 and 6).
	RootMismatch = graph.RootMismatch
)

// Encode encodes p as a buffered, canonical graph-profile payload (SPEC
// §3.2, §5, §6, §6a, §16.1) and returns a fresh slice owned by the caller.
//
// Layout:
//
//   - Header `GCF profile=graph`, then ` tool=T` when p.Tool is non-empty,
//     ` budget=N` and ` tokens=N` when nonzero, ` symbols=N` always,
//     ` edges=N` when nonzero and ` pack_root=R` when p.PackRoot is
//     non-empty, in that order.
//   - Symbols grouped by Distance in ascending order (`## targets` 0,
//     `## related` 1, `## extended` 2, `## distance_N` N>2); only non-empty
//     groups get a header. Within a group symbols are ordered by Score
//     descending; ties keep their input order. IDs are assigned after
//     sorting, sequentially from 0 in emission order.
//   - Node lines `@id kind qname score provenance`: kind is KindAbbrev(Kind),
//     score has exactly two decimals, rounded half-to-even on the exact
//     double (0.125 -> 0.12, 0.375 -> 0.38); a result that rounds to
//     negative zero is written 0.00 (SPEC §2.3.1 forbids -0).
//   - `## edges [N]` when there are edges, then `@target<@source type`
//     (plus ` status`) sorted by source ID, target ID, then edge type;
//     ties keep input order. Edge endpoints are qualified names resolved to
//     the first symbol of p.Symbols (input order) with that name.
//
// Errors are *SyntaxError values without position; on error no bytes are
// returned:
//
//   - invalid_node_line: an empty Kind, a QualifiedName or Provenance that
//     is empty or holds whitespace or a control character (other Unicode
//     is written unchanged; see grIsName), a wire kind that is not a bare
//     key (SPEC §4 kind grammar), a negative Distance, or a Tool / PackRoot
//     that is not a valid header value (printable non-whitespace ASCII);
//   - invalid_utf8: a name that is not valid UTF-8 (Offset is the byte
//     offset in it);
//   - out_of_range: a NaN or infinite Score, a negative budget or token
//     count;
//   - invalid_edge_syntax: an edge type that is empty or holds whitespace
//     or a control character, or a Status that holds one (any other
//     Status is written as given; "" is none);
//   - unknown_edge_reference: an edge naming a symbol absent from p. Such an
//     edge is never dropped silently.
//
// Limits: opts are the decoder's options (WithMaxLineBytes, WithMaxElements
// for the symbols of one group and for the edges, WithMaxBytes; the
// decoder's defaults without them), and Encode refuses with the decoder's
// category (line_too_long, too_many_elements, payload_too_large) a payload
// that Decode given the same opts would reject.
//
// p is not modified. A nil p is an error.
func Encode(p *Payload, opts ...Option) ([]byte, error) { return graph.Encode(p, opts...) }

// AppendEncode appends the canonical encoding of p (see Encode) to dst and
// returns the extended slice, under the limits of opts as Encode. On error
// it returns dst unchanged in length (bytes past len(dst) in its capacity
// may have been overwritten).
func AppendEncode(dst []byte, p *Payload, opts ...Option) ([]byte, error) {
	return graph.AppendEncode(dst, p, opts...)
}

// Decode decodes a graph-profile payload (SPEC §3.2, §5, §6, §6a). Kinds
// are expanded (KindExpand; unknown abbreviations pass through), each
// symbol takes the distance of its group, and edges name their endpoints by
// qualified name. It is a consumer of the pull decoder's events, so every
// structural error carries its line, column and §16.5 category.
//
// A payload with session references (`@N  # previously transmitted`)
// cannot be resolved without the earlier payloads: Decode rejects it (SPEC
// §9.4: the consumer requests a full payload). A delta payload is decoded
// with DecodeDelta.
func Decode(data []byte, opts ...Option) (*Payload, error) { return graph.Decode(data, opts...) }

// DecodeDelta decodes a graph delta payload (SPEC §10.1): the header must
// say delta=true; only the sections removed, added, edges_removed and
// edges_added may appear. Apply the result with ApplyDelta.
func DecodeDelta(data []byte, opts ...Option) (*DeltaPayload, error) {
	return graph.DecodeDelta(data, opts...)
}

// EncodeDelta encodes a graph delta payload (SPEC §10, §10.1, §10.5) and
// returns a fresh slice owned by the caller:
//
//	GCF profile=graph[ tool=T] delta=true base_root=B new_root=N[ tokens=D][ savings=S%]
//	## removed
//	kind qname
//	## added
//	@i kind qname score provenance distance
//	## edges_removed
//	source -> target type
//	## edges_added
//	source -> target type
//
// tokens=DeltaTokens is written when DeltaTokens is nonzero (SPEC §3.2
// omits zero counts) and savings=S% when FullTokens is positive, with
// S = 100*(FullTokens-DeltaTokens)/FullTokens rounded to the nearest
// integer, halves away from zero (30 of 200 -> 85%). Sections come in the
// order above and only when non-empty; lines keep the order of d. Kinds are
// abbreviated (KindAbbrev); added IDs count from 0; scores are written as
// on node lines (two decimals, half-to-even). Edge Status is not carried:
// it must be "" or match its section ("removed" / "added").
//
// Errors (*SyntaxError, no position; no bytes returned): malformed_delta
// for an empty or non-header-value BaseRoot or NewRoot or a contradictory
// edge status; out_of_range for negative token counts or a non-finite
// score; and the token checks of Encode (invalid_node_line,
// invalid_edge_syntax) on every kind, qualified name, provenance and edge
// type, since all of them travel as whitespace-separated tokens.
//
// Limits: as for Encode, opts are the decoder's options, and EncodeDelta
// refuses with the decoder's category (line_too_long, too_many_elements
// for the lines of one section, payload_too_large) a delta that Decode
// given the same opts would reject.
func EncodeDelta(d *DeltaPayload, opts ...Option) ([]byte, error) {
	return graph.EncodeDelta(d, opts...)
}

// ApplyDelta applies d to the snapshot base atomically (SPEC §10.4) and
// returns the new snapshot. base is never modified, whatever the outcome.
//
// Steps, in order; the first failure is returned and nothing is applied:
//
//  1. When d.BaseRoot is non-empty, PackRoot(base) must equal it, else
//     root_mismatch.
//  2. The whole delta is validated (malformed_delta): every removed symbol
//     (matched by kind and qualified name, kinds compared in wire form)
//     must exist in base and be removed once; an added symbol must not
//     exist in base unless the same delta removes it (a replacement), must
//     be added once, and must have a kind, a qualified name, a finite score
//     and a non-negative distance; every removed edge (matched by source,
//     target and edge type; Status is ignored) must exist in base and be
//     removed once; an added edge must not exist in base unless removed by
//     the same delta, and must be added once; every edge of the result
//     must name symbols of the result by qualified name (this also rejects
//     removing a symbol whose edges the delta keeps).
//  3. The result is built on a copy: base symbols minus the removed ones,
//     in base order, then the added ones in delta order; edges likewise.
//     Tool and token counts are copied from base.
//  4. When d.NewRoot is non-empty, PackRoot(result) must equal it, else
//     root_mismatch; the result's PackRoot is then set to it. Otherwise
//     the result's PackRoot is empty.
//
// PackRoot errors (invalid_utf8, out_of_range, ...) are returned as they
// are. A nil base or d is malformed_delta.
func ApplyDelta(base *Payload, d *DeltaPayload) (*Payload, error) { return graph.ApplyDelta(base, d) }

// Diff computes the delta that turns base into current: symbols are
// matched by identity (kind, qualified name; SPEC §9.1) and a symbol whose
// score, provenance or distance changed is removed and added again; edges
// are matched by (source, target, type). Removed symbols keep base order;
// added symbols come in current's emission order (distance, then score);
// edges are sorted by source, target and type, so the result is
// deterministic. ApplyDelta(base, Diff(base, current)) has the pack root
// of current.
func Diff(base, current *Payload) (*DeltaPayload, error) { return graph.Diff(base, current) }

// PackRoot returns the canonical pack root of the graph snapshot p,
// algorithm gcf-pack-root-v1 (SPEC §10.2): "sha256:" followed by 64
// lowercase hex digits of the SHA-256 of CanonicalPackBytes(p).
//
// Only the logical graph counts: symbols (kind, qualified name, score,
// provenance, distance) and edges (endpoints and type). Tool, token counts,
// PackRoot, Signature, Components and edge Status do not, nor does the
// order of symbols or edges.
func PackRoot(p *Payload) (string, error) { return graph.PackRoot(p) }

// CanonicalPackBytes returns the bytes gcf-pack-root-v1 hashes (SPEC §10.2
// steps 1-6): one record per symbol
//
//	S<TAB>kind<TAB>qualified_name<TAB>score<TAB>provenance<TAB>distance<LF>
//
// and one per edge
//
//	E<TAB>source_kind<TAB>source_qname<TAB>target_kind<TAB>target_qname<TAB>edge_type<LF>
//
// where kind is the wire abbreviation (KindAbbrev), score is in canonical
// number form (SPEC §2.3.1: 1.0 -> "1", 0.78 -> "0.78") and distance is
// decimal. Each edge endpoint is resolved by qualified name to the first
// symbol of p.Symbols with that name, which supplies its kind. Symbol
// records sorted bytewise come first, then edge records sorted bytewise.
//
// Errors: invalid_utf8 when any string is not valid UTF-8, out_of_range for
// a NaN or infinite score, invalid_node_line for a negative distance,
// unknown_edge_reference for an edge endpoint that names no symbol. A nil p
// is the empty graph.
func CanonicalPackBytes(p *Payload) ([]byte, error) { return graph.CanonicalPackBytes(p) }

// KindAbbrev returns the wire abbreviation of a full kind ("function" ->
// "fn"); unknown kinds are returned unchanged.
func KindAbbrev(kind string) string { return graph.KindAbbrev(kind) }

// KindExpand returns the full kind of a wire abbreviation ("fn" ->
// "function"); unknown abbreviations pass through verbatim (SPEC §16.3).
func KindExpand(abbrev string) string { return graph.KindExpand(abbrev) }

// NewSession returns an empty Session.
func NewSession(opts ...SessionOption) *Session { return graph.NewSession(opts...) }

// WithMaxSymbols bounds the number of symbol identities the Session
// retains (SPEC §9.5); n < 1 selects DefaultMaxSessionSymbols. When an
// EncodeWithSession call would make the Session exceed the bound, the
// Session is reset and the call returns a full non-session payload (see
// EncodeWithSession); Record returns -1 instead of allocating.
func WithMaxSymbols(n int) SessionOption { return graph.WithMaxSymbols(n) }

// EncodeWithSession encodes p like Encode, but with session statefulness
// (SPEC §9): the header ends with ` session=true`, every symbol carries its
// session-stable ID (new symbols get the next IDs in emission order:
// group order, then score order), symbols whose declaration an earlier
// call delivered are sent as `@N  # previously transmitted`, and edges use
// session IDs. `symbols=` counts every symbol of p, references included.
// Symbols and edges are ordered exactly as by Encode; edges are ordered by
// their session IDs.
//
// The Session changes only when the call succeeds: new identities are
// bound and every fully declared symbol is marked transmitted. A failed
// call leaves it untouched.
//
// Errors are those of Encode, plus invalid_node_line when p holds the same
// identity (kind, qname) twice (its second line could be neither a valid
// declaration nor a valid reference).
//
// Limit fallback (SPEC §9.5): when binding the new identities of p would
// make the Session retain more than its maximum (WithMaxSymbols), the
// Session is reset (as by Reset) and the result is the full non-session
// payload Encode(p) (no session=true, IDs from 0). The next call starts the
// session afresh with full declarations. If that encoding fails, the error
// is returned and the Session is not reset.
//
// A nil s means no session is known: the result is Encode(p) (SPEC §9.4).
//
// opts are the decoder's limits, enforced as by Encode; a refused payload
// leaves the Session unchanged.
func EncodeWithSession(p *Payload, s *Session, opts ...Option) ([]byte, error) {
	return graph.EncodeWithSession(p, s, opts...)
}

// Respond answers a consumer that holds the snapshot consumerRoot (empty
// when it holds none) with the current result, following SPEC §10.3: an
// unchanged payload when the roots match; a delta from prior when prior is
// the snapshot consumerRoot names and the delta is smaller than
// DeltaThreshold of the full payload; otherwise the full payload carrying
// pack_root. prior may be nil. current is not modified.
func Respond(current *Payload, consumerRoot string, prior *Payload) ([]byte, Outcome, error) {
	return graph.Respond(current, consumerRoot, prior)
}

// EncodeUnchanged writes the header-only answer of SPEC §10.3 outcome 1:
// `GCF profile=graph[ tool=T] unchanged=true pack_root=R symbols=N`.
func EncodeUnchanged(tool, packRoot string, symbols int) ([]byte, error) {
	return graph.EncodeUnchanged(tool, packRoot, symbols)
}

// Receive is the consumer side of SPEC §10.3-10.4: given the snapshot it
// holds (nil for none) and the producer's answer, it returns the snapshot
// to hold next. An unchanged answer must name held's root; a delta is
// decoded and applied atomically with both roots verified (root_mismatch
// otherwise, held untouched); a full payload is decoded, and its pack_root,
// when present, verified. On any error the caller keeps held and should
// ask for a full payload.
func Receive(held *Payload, answer []byte) (*Payload, Outcome, error) {
	return graph.Receive(held, answer)
}
