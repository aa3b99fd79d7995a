// Package gcfmcp returns MCP tool results as GCF, on the official MCP Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// A tool result is a [mcp.CallToolResult] whose text content is a GCF
// payload: a *gcf.Payload goes out in the graph profile, any other value
// (a JSON-model value, a map, a slice or a struct with `json` tags) in the
// generic profile, as [gcf.EncodeGeneric] accepts it. [Result] does that for
// one value; a [Server] does it per MCP client session:
//
//   - One [gcf.Session] per [mcp.ServerSession]: a symbol already declared
//     to that client is sent as the bare reference `@N  # previously
//     transmitted` (SPEC §9). The state is created on the session's first
//     call, dropped when the session closes ([mcp.ServerSession.Wait]
//     returns), bounded (WithMaxSessions, least recently used first;
//     WithMaxSessionSymbols; WithSnapshots) and safe for concurrent calls.
//   - Delta on demand (SPEC §10.3): a graph result carries its pack_root;
//     a call whose `pack_root` argument names it again is answered
//     `unchanged=true`, one naming an earlier snapshot of the same session
//     gets a delta when the delta is smaller than the threshold fraction of
//     the full payload (WithDeltaThreshold, default 0.6), and anything
//     else gets the full payload.
//   - A `format` argument ("gcf", the default, "json", or "auto": the
//     one of the two that costs fewer tokens), or WithFormat,
//     selects plain JSON for clients that cannot read GCF.
//   - Accounting: the result's _meta["gcf"] and the WithReport hook give
//     the bytes and tokens (o200k_base by default, WithTokenizer) of the text
//     sent and of the equivalent JSON.
//
// [AddTool] registers a typed tool whose handler returns a Go value, in the
// style of [mcp.AddTool]; it adds the `format` and `pack_root` arguments to
// the tool's input schema. [Consumer] is the client side: it resolves bare
// references and applies deltas, returning the snapshot each answer denotes.
//
// Generic-profile deltas (SPEC §10a) plug in through WithGenericDelta:
// WithGenericDelta(Tables{Key: "id"}) answers keyed tables with
// unchanged/delta/full; without it, generic results are always sent in
// full.
package gcfmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/tokens"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Format is the text format of a tool result.
type Format string

// The formats a result can take.
const (
	GCF  Format = "gcf"  // GCF text, the default
	JSON Format = "json" // the equivalent JSON
	// Auto sends whichever of the GCF text and the equivalent JSON costs
	// fewer tokens (under WithTokenizer's counter, gcf.EstimateTokens
	// without one), so a result never costs more than its JSON; the
	// Report's Format says which was sent.
	Auto Format = "auto"
)

// MetaKey is the key of the accounting object in a result's _meta.
const MetaKey = "gcf"

// Args are the delivery arguments every tool registered by AddTool accepts
// besides its own: Format is "gcf" (default) or "json"; PackRoot is the
// pack_root of a snapshot the client holds ("sha256:" and 64 hex digits).
type Args struct {
	Format   string `json:"format,omitempty"`
	PackRoot string `json:"pack_root,omitempty"`
}

// Report is the accounting of one result, given to the WithReport hook and,
// as a JSON object, in the result's _meta[MetaKey].
type Report struct {
	Tool       string `json:"tool,omitempty"`
	Session    string `json:"session,omitempty"` // the MCP session ID, when the transport has one
	Format     Format `json:"format"`
	Profile    string `json:"profile"`             // "graph" or "generic"
	Outcome    string `json:"outcome"`             // "full", "delta" or "unchanged"
	PackRoot   string `json:"pack_root,omitempty"` // of the current result (graph profile)
	References int    `json:"references"`          // symbols sent as bare session references
	Bytes      int    `json:"bytes"`               // of the text sent
	Tokens     int    `json:"tokens"`              // of the text sent; -1 without a tokenizer
	JSONBytes  int    `json:"json_bytes"`          // of the equivalent full JSON result
	JSONTokens int    `json:"json_tokens"`         // -1 without a tokenizer
	Tokenizer  string `json:"tokenizer,omitempty"`
}

// GenericResponder is the hook for generic-profile deltas (SPEC §10a); Tables
// is the one for keyed tables, on the root package's generic delta. Respond
// answers a client that holds the snapshot consumerRoot ("" for none) with
// the current value: the answer text (a full payload carrying its
// pack_root, a delta, or an unchanged payload), the pack root of current,
// and the outcome. prior is the value this session was sent under
// consumerRoot, or nil when the session has none; a delta must be used only
// when it is smaller than threshold times the full payload.
type GenericResponder interface {
	Respond(current any, consumerRoot string, prior any, threshold float64) (answer []byte, root string, outcome gcf.Outcome, err error)
}

// Option configures Result and New.
type Option func(*config)

type config struct {
	format       Format
	structured   bool
	threshold    float64
	maxSessions  int
	maxSymbols   int
	snapshots    int
	counter      *tokens.Counter
	report       func(context.Context, Report)
	genericDelta GenericResponder
}

// Defaults of the options.
const (
	DefaultMaxSessions        = 1024
	DefaultMaxSessionSymbols  = 50_000
	DefaultSnapshots          = 8
	DefaultDeltaThreshold     = gcf.DeltaThreshold
	defaultFormat             = GCF
	maxThreshold              = 1.0
	packRootPrefix            = "sha256:"
	packRootHexLen            = 64
	previouslyTransmittedLine = "  # previously transmitted\n"
)

func newConfig(opts []Option) config {
	c := config{
		format:      defaultFormat,
		threshold:   DefaultDeltaThreshold,
		maxSessions: DefaultMaxSessions,
		maxSymbols:  DefaultMaxSessionSymbols,
		snapshots:   DefaultSnapshots,
		counter:     tokens.MustNew(tokens.Default),
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithFormat sets the format used when a call gives no `format` argument
// (default GCF).
func WithFormat(f Format) Option { return func(c *config) { c.format = f } }

// WithStructuredContent also attaches the equivalent JSON as the result's
// structuredContent, for clients that validate an output schema. The text
// content stays GCF.
func WithStructuredContent() Option { return func(c *config) { c.structured = true } }

// WithDeltaThreshold sets the largest size of a delta, as a fraction of the
// full payload's bytes, that is sent instead of the full payload (default
// 0.6, SPEC §10.1). A fraction outside (0, 1] selects the default.
func WithDeltaThreshold(f float64) Option {
	return func(c *config) {
		if !(f > 0 && f <= maxThreshold) {
			f = DefaultDeltaThreshold
		}
		c.threshold = f
	}
}

// WithMaxSessions bounds the MCP sessions whose state a Server keeps
// (default 1024); beyond it the least recently used session's state is
// dropped, and that session then gets full non-session payloads (SPEC
// §9.4). n < 1 selects the default.
func WithMaxSessions(n int) Option {
	return func(c *config) {
		if n < 1 {
			n = DefaultMaxSessions
		}
		c.maxSessions = n
	}
}

// WithMaxSessionSymbols bounds the symbol identities each session's
// gcf.Session retains (default 50,000; see gcf.WithMaxSymbols for what
// happens beyond it). n < 1 selects the default.
func WithMaxSessionSymbols(n int) Option {
	return func(c *config) {
		if n < 1 {
			n = DefaultMaxSessionSymbols
		}
		c.maxSymbols = n
	}
}

// WithSnapshots bounds the snapshots each session keeps for deltas (default
// 8, least recently used dropped first); a pack_root naming a dropped
// snapshot gets the full payload. n < 1 selects the default.
func WithSnapshots(n int) Option {
	return func(c *config) {
		if n < 1 {
			n = DefaultSnapshots
		}
		c.snapshots = n
	}
}

// WithTokenizer sets the token counter of the accounting (default
// o200k_base); nil counts bytes only, and tokens are reported as -1.
func WithTokenizer(c *tokens.Counter) Option { return func(cf *config) { cf.counter = c } }

// WithReport calls f with the accounting of every successful result, on the
// goroutine of the tool call.
func WithReport(f func(context.Context, Report)) Option { return func(c *config) { c.report = f } }

// WithGenericDelta plugs in generic-profile deltas (SPEC §10a), for
// example Tables{Key: "id"}; see GenericResponder. Without it, generic
// results are always full payloads without a pack_root. With it, each
// session keeps the values it was sent (WithSnapshots of them) to diff
// against: a handler must not modify a value after returning it.
func WithGenericDelta(g GenericResponder) Option { return func(c *config) { c.genericDelta = g } }

// Tables is the GenericResponder of keyed tables (SPEC §10a), on the root
// package's generic delta: a result that gcf.NewTable accepts with the
// identity field Key (an array of flat objects, or an object whose only
// member is one) is sent with its pack_root (gcf.EncodeTable), and a
// client echoing a root gets unchanged=true, or a delta (gcf.DiffGeneric,
// gcf.EncodeGenericDelta) when it is smaller than the threshold times the
// full payload; gcf.ReceiveGeneric is the client side. Any other value is
// sent in full by gcf.EncodeGeneric, without a root.
type Tables struct {
	Key string // the identity field, e.g. "id"
}

// Respond implements GenericResponder.
func (t Tables) Respond(current any, consumerRoot string, prior any, threshold float64) ([]byte, string, gcf.Outcome, error) {
	cur, err := gcf.NewTable(current, t.Key)
	if err != nil {
		out, err := gcf.EncodeGeneric(current)
		return out, "", gcf.OutcomeFull, err
	}
	root, err := gcf.GenericPackRoot(cur)
	if err != nil {
		return nil, "", 0, err
	}
	if consumerRoot == root {
		out, err := gcf.EncodeGenericUnchanged(cur.Tool, root, len(cur.Rows))
		return out, root, gcf.OutcomeUnchanged, err
	}
	full, err := gcf.EncodeTable(cur)
	if err != nil {
		return nil, "", 0, err
	}
	if prior != nil && consumerRoot != "" {
		if base, err := gcf.NewTable(prior, t.Key); err == nil {
			if d, err := gcf.DiffGeneric(base, cur); err == nil && d.BaseRoot == consumerRoot {
				if out, err := gcf.EncodeGenericDelta(d); err == nil && float64(len(out)) < threshold*float64(len(full)) {
					return out, root, gcf.OutcomeDelta, nil
				}
			}
		}
	}
	return full, root, gcf.OutcomeFull, nil
}

// Result encodes v as a tool result outside any session: the GCF text (or
// JSON, by WithFormat) as the only TextContent, the accounting in
// _meta[MetaKey], and with WithStructuredContent the JSON as
// structuredContent. A *gcf.Payload (or gcf.Payload) is encoded in the
// graph profile and carries its pack_root, a *gcf.DeltaPayload as a graph
// delta, anything else in the generic profile. The error is the encoder's
// (a *gcf.SyntaxError for a value GCF cannot carry).
func Result(v any, opts ...Option) (*mcp.CallToolResult, error) {
	cfg := newConfig(opts)
	return deliver(context.Background(), &cfg, nil, "", v, Args{})
}

// ParseFormat returns the format named s ("gcf", "json" or "auto", any
// case; "" is GCF).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "gcf":
		return GCF, nil
	case "json":
		return JSON, nil
	case "auto":
		return Auto, nil
	}
	return "", fmt.Errorf("format %q is not supported (use \"gcf\", \"json\" or \"auto\")", s)
}

// CheckPackRoot reports whether s is a gcf-pack-root-v1 root: "sha256:"
// followed by 64 lowercase hex digits (SPEC §10.2).
func CheckPackRoot(s string) error {
	hex, ok := strings.CutPrefix(s, packRootPrefix)
	if !ok {
		return fmt.Errorf("pack_root %q is not a gcf-pack-root-v1 root: it must start with %q", clip(s), packRootPrefix)
	}
	if len(hex) != packRootHexLen {
		return fmt.Errorf("pack_root %q is not a gcf-pack-root-v1 root: it needs %d hex digits after %q, not %d", clip(s), packRootHexLen, packRootPrefix, len(hex))
	}
	for i := 0; i < len(hex); i++ {
		c := hex[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return fmt.Errorf("pack_root %q is not a gcf-pack-root-v1 root: %q at offset %d is not a lowercase hex digit", clip(s), c, len(packRootPrefix)+i)
		}
	}
	return nil
}

// clip shortens a client-supplied string for an error message.
func clip(s string) string {
	const max = 80
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

func (c *config) count(b []byte) int {
	if c.counter == nil {
		return -1
	}
	return c.counter.CountBytes(b)
}

// price is the token count of b, estimated without a counter.
func (c *config) price(b []byte) int {
	if c.counter == nil {
		return gcf.EstimateTokens(string(b))
	}
	return c.counter.CountBytes(b)
}

// deliver encodes v for the session st (nil: none) as tool's result.
func deliver(ctx context.Context, cfg *config, st *state, tool string, v any, args Args) (*mcp.CallToolResult, error) {
	format := cfg.format
	if args.Format != "" {
		f, err := ParseFormat(args.Format)
		if err != nil {
			return nil, err
		}
		format = f
	}
	if args.PackRoot != "" {
		if err := CheckPackRoot(args.PackRoot); err != nil {
			return nil, err
		}
	}
	var (
		text, jsonText []byte
		rep            = Report{Tool: tool, Format: format}
		err            error
	)
	switch p := v.(type) {
	case *gcf.Payload:
		if p == nil {
			return nil, fmt.Errorf("gcfmcp: nil *gcf.Payload")
		}
		text, jsonText, err = deliverGraph(cfg, st, p, args, format, &rep)
	case gcf.Payload:
		text, jsonText, err = deliverGraph(cfg, st, &p, args, format, &rep)
	case *gcf.DeltaPayload:
		if p == nil {
			return nil, fmt.Errorf("gcfmcp: nil *gcf.DeltaPayload")
		}
		text, jsonText, err = deliverDelta(p, format, &rep)
	default:
		text, jsonText, err = deliverGeneric(cfg, st, v, args, format, &rep)
	}
	if err != nil {
		return nil, err
	}
	if format == Auto {
		rep.Format = GCF
		if jsonText != nil && cfg.price(jsonText) < cfg.price(text) {
			text, rep.Format = jsonText, JSON
		}
	}
	if rep.Tool == "" {
		if p, ok := v.(*gcf.Payload); ok {
			rep.Tool = p.Tool
		}
	}
	rep.Bytes, rep.Tokens = len(text), cfg.count(text)
	rep.JSONBytes, rep.JSONTokens = len(jsonText), -1
	if jsonText != nil {
		rep.JSONTokens = cfg.count(jsonText)
	}
	if cfg.counter != nil {
		rep.Tokenizer = string(cfg.counter.Encoding())
	}
	if st != nil {
		rep.Session = st.id
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}
	res.Meta = mcp.Meta{MetaKey: rep.meta()}
	if cfg.structured && jsonText != nil {
		res.StructuredContent = json.RawMessage(jsonText)
	}
	if cfg.report != nil {
		cfg.report(ctx, rep)
	}
	return res, nil
}

func (r *Report) meta() map[string]any {
	m := map[string]any{
		"format": string(r.Format), "profile": r.Profile, "outcome": r.Outcome,
		"references": r.References, "bytes": r.Bytes, "tokens": r.Tokens,
		"json_bytes": r.JSONBytes, "json_tokens": r.JSONTokens,
	}
	if r.PackRoot != "" {
		m["pack_root"] = r.PackRoot
	}
	if r.Tokenizer != "" {
		m["tokenizer"] = r.Tokenizer
	}
	return m
}

// deliverGraph answers with the graph payload p: unchanged, delta or full
// (session-encoded when st has a session), and returns the text and the
// equivalent full JSON.
func deliverGraph(cfg *config, st *state, p *gcf.Payload, args Args, format Format, rep *Report) (text, jsonText []byte, err error) {
	rep.Profile, rep.Outcome = "graph", gcf.OutcomeFull.String()
	// The snapshot is the payload as the wire carries it (scores at two
	// decimals, kinds abbreviated), which is what a client holds and
	// hashes; its root identifies the result.
	plain, err := gcf.Encode(p)
	if err != nil {
		return nil, nil, err
	}
	snap, err := gcf.Decode(plain)
	if err != nil {
		return nil, nil, fmt.Errorf("gcfmcp: the encoded payload does not decode: %w", err)
	}
	root, err := gcf.PackRoot(snap)
	if err != nil {
		return nil, nil, err
	}
	rep.PackRoot = root
	full := *p
	full.PackRoot = root
	if jsonText, err = minifiedJSON(&full); err != nil {
		return nil, nil, err
	}
	if format == JSON {
		return jsonText, jsonText, nil
	}
	if st == nil {
		if args.PackRoot == root {
			rep.Outcome = gcf.OutcomeUnchanged.String()
			text, err = gcf.EncodeUnchanged(p.Tool, root, len(p.Symbols))
			return text, jsonText, err
		}
		text, err = gcf.Encode(&full)
		return text, jsonText, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	defer st.putSnapshot(root, snap)
	if args.PackRoot == root {
		rep.Outcome = gcf.OutcomeUnchanged.String()
		text, err = gcf.EncodeUnchanged(p.Tool, root, len(p.Symbols))
		return text, jsonText, err
	}
	if prior, ok := st.snapshot(args.PackRoot).(*gcf.Payload); ok {
		d, err := gcf.Diff(prior, snap)
		if err != nil {
			return nil, nil, err
		}
		d.Tool, d.BaseRoot, d.NewRoot = p.Tool, args.PackRoot, root
		delta, err := gcf.EncodeDelta(d)
		if err != nil {
			return nil, nil, err
		}
		fullLen := len(plain) + len(" pack_root=") + len(root)
		if float64(len(delta)) < cfg.threshold*float64(fullLen) {
			if cfg.counter != nil {
				// tokens= and savings= in the header; counted before they
				// are added, which differs from the final count by the few
				// tokens of those two fields.
				d.DeltaTokens, d.FullTokens = cfg.count(delta), cfg.count(plain)
				if d.DeltaTokens > 0 && d.FullTokens > 0 {
					if withTokens, err := gcf.EncodeDelta(d); err == nil {
						delta = withTokens
					}
				}
			}
			rep.Outcome = gcf.OutcomeDelta.String()
			return delta, jsonText, nil
		}
	}
	text, err = st.encodeSession(&full, snap)
	if err != nil {
		return nil, nil, err
	}
	rep.References = strings.Count(string(text), previouslyTransmittedLine)
	return text, jsonText, nil
}

// deliverDelta answers with the graph delta d, computed by the tool (a
// semantic diff, say), outside the pack_root protocol.
func deliverDelta(d *gcf.DeltaPayload, format Format, rep *Report) (text, jsonText []byte, err error) {
	rep.Profile, rep.Outcome, rep.PackRoot = "graph", gcf.OutcomeDelta.String(), d.NewRoot
	if rep.Tool == "" {
		rep.Tool = d.Tool
	}
	if jsonText, err = minifiedJSON(d); err != nil {
		return nil, nil, err
	}
	if format == JSON {
		return jsonText, jsonText, nil
	}
	text, err = gcf.EncodeDelta(d)
	return text, jsonText, err
}

// deliverGeneric answers with the generic value v.
func deliverGeneric(cfg *config, st *state, v any, args Args, format Format, rep *Report) (text, jsonText []byte, err error) {
	rep.Profile, rep.Outcome = "generic", gcf.OutcomeFull.String()
	jsonText, jerr := minifiedJSON(v)
	if jerr != nil {
		if format == JSON {
			return nil, nil, fmt.Errorf("gcfmcp: the result has no JSON form: %w", jerr)
		}
		jsonText = nil
	}
	if format == JSON {
		return jsonText, jsonText, nil
	}
	if cfg.genericDelta != nil && st != nil {
		st.mu.Lock()
		defer st.mu.Unlock()
		var prior any
		if args.PackRoot != "" {
			prior = st.snapshot(args.PackRoot)
		}
		answer, root, outcome, err := cfg.genericDelta.Respond(v, args.PackRoot, prior, cfg.threshold)
		if err != nil {
			return nil, nil, err
		}
		if root != "" {
			st.putSnapshot(root, v)
		}
		rep.PackRoot, rep.Outcome = root, outcome.String()
		return answer, jsonText, nil
	}
	text, err = gcf.EncodeGeneric(v)
	return text, jsonText, err
}

// minifiedJSON is v as minified JSON without HTML escaping (json.Marshal
// writes <, > and & as \u003c, \u003e and \u0026): the JSON a client
// reads and the baseline the accounting compares with.
func minifiedJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
