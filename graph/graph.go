// Package graph encodes and decodes the graph profile of GCF (SPEC §3.2,
// §5, §6, §8-§10): code-intelligence payloads of symbols and edges, their
// streaming form, deltas, pack roots, ID sessions and the three-outcome
// protocol.
//
// Package gcf is the documented entry: it re-exports the payload types and
// functions under the names they have always had there (gcf.Payload,
// gcf.Encode, gcf.Session, ...; gcf.Encoder.BeginGraph drives a Stream),
// and its WithX functions make the options (gcf.WithMaxDepth,
// gcf.WithWire, ...).
package graph

import (
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/stream"
)

// Option configures a graph encoder or decoder; gcf.Option is the same
// type and gcf's WithX functions make them.
type Option = options.Option

// bytesDecoder returns a pull decoder over data with c's limits and wire,
// records expanded as the root's decoders do.
func bytesDecoder(c *options.Config, data []byte) *stream.Decoder {
	d := stream.NewBytesDecoder(data, c.Limits)
	d.SetWire(c.Wire)
	d.SetExpand(true)
	return d
}

// Payload is a graph-profile payload: code-intelligence results for an MCP
// tool (SPEC §3.2, §5, §6). JSON field names match the conformance
// fixtures and the reference SDKs.
type Payload struct {
	Tool        string   `json:"tool"`
	TokensUsed  int      `json:"tokensUsed"`
	TokenBudget int      `json:"tokenBudget"`
	PackRoot    string   `json:"packRoot"`
	Symbols     []Symbol `json:"symbols"`
	Edges       []Edge   `json:"edges"`
}

// Symbol is one node of a graph payload. Its identity is (Kind,
// QualifiedName) (SPEC §9.1). Kind is the full form ("function"); the wire
// carries the abbreviation (KindAbbrev). Distance selects the group header
// (0 targets, 1 related, 2 extended, N>2 distance_N).
type Symbol struct {
	QualifiedName string      `json:"qualifiedName"`
	Kind          string      `json:"kind"`
	Score         float64     `json:"score"`
	Provenance    string      `json:"provenance"`
	Distance      int         `json:"distance"`
	Signature     string      `json:"signature,omitempty"`
	Components    *Components `json:"components,omitempty"`
}

// Components are the parts a producer combined into a Symbol's score. They
// are model-side metadata: the graph wire does not carry them.
type Components struct {
	BlastRadius float64 `json:"blastRadius"`
	Confidence  float64 `json:"confidence"`
	Recency     float64 `json:"recency"`
	Distance    float64 `json:"distance"`
}

// Edge is a relation between two symbols, named by qualified name: Source
// EdgeType Target ("Server calls Auth"). Status is "" (none) or a token
// without whitespace or control characters, written and read as is:
// "added" and "removed" in diff payloads (SPEC §6), any other token as the
// reference SDKs read it (docs/spec-notes.md).
type Edge struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	EdgeType string `json:"edgeType"`
	Status   string `json:"status"`
}

// kindTable is the abbreviation table of SPEC §5.
var kindTable = [...][2]string{
	{"function", "fn"},
	{"type", "type"},
	{"method", "method"},
	{"interface", "iface"},
	{"var", "var"},
	{"const", "const"},
	{"resource", "resource"},
	{"table", "table"},
	{"class", "class"},
	{"selector", "selector"},
	{"field", "field"},
	{"route_handler", "route"},
	{"external", "ext"},
	{"file", "file"},
	{"package", "pkg"},
	{"service", "svc"},
}

// KindAbbrev returns the wire abbreviation of a full kind ("function" ->
// "fn"); unknown kinds are returned unchanged.
func KindAbbrev(kind string) string {
	switch kind { // a switch compiles to a length-then-value search
	case "function":
		return "fn"
	case "interface":
		return "iface"
	case "route_handler":
		return "route"
	case "external":
		return "ext"
	case "package":
		return "pkg"
	case "service":
		return "svc"
	}
	return kind // type, method, var, const, ... abbreviate to themselves; unknown kinds pass through
}

// KindExpand returns the full kind of a wire abbreviation ("fn" ->
// "function"); unknown abbreviations pass through verbatim (SPEC §16.3).
func KindExpand(abbrev string) string {
	for _, k := range kindTable {
		if k[1] == abbrev {
			return k[0]
		}
	}
	return abbrev
}

// DeltaPayload is a graph delta (SPEC §10): what changed between the
// snapshot identified by BaseRoot and the one identified by NewRoot.
// Removed symbols are matched by (Kind, QualifiedName); Added symbols carry
// every field, including Distance.
type DeltaPayload struct {
	Tool         string   `json:"tool"`
	BaseRoot     string   `json:"baseRoot"`
	NewRoot      string   `json:"newRoot"`
	Removed      []Symbol `json:"removed"`
	Added        []Symbol `json:"added"`
	RemovedEdges []Edge   `json:"removedEdges"`
	AddedEdges   []Edge   `json:"addedEdges"`
	// DeltaTokens and FullTokens size the delta against a full payload;
	// when both are set the header carries tokens=DeltaTokens and
	// savings=N% (N = 100 * (1 - DeltaTokens/FullTokens), rounded).
	DeltaTokens int `json:"deltaTokens"`
	FullTokens  int `json:"fullTokens"`
}
