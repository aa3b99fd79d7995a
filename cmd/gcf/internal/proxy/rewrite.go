package proxy

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/tokens"
	"github.com/gcfkit/gcf/wire"
)

// Format selects how the text blocks of tool results go out.
type Format int

// The formats of the -format flag.
const (
	Auto Format = iota // the cheapest in tokens of the text, minified JSON and GCF
	GCF                // GCF for every JSON block, even when it costs more
	JSON               // unchanged: the proxy only relays
)

// ParseFormat returns the format named s: "auto" (or ""), "gcf" or "json".
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return Auto, nil
	case "gcf":
		return GCF, nil
	case "json":
		return JSON, nil
	}
	return 0, fmt.Errorf("unknown format %q (auto, gcf or json)", s)
}

func (f Format) String() string {
	switch f {
	case GCF:
		return "gcf"
	case JSON:
		return "json"
	}
	return "auto"
}

// The forms a rewritten block can take, as the accounting names them.
const (
	FormText  = "text"      // the server's text, unchanged
	FormJSON  = "json"      // the server's JSON without insignificant white space
	FormGCF   = "gcf"       // GCF, generic profile
	FormGraph = "gcf-graph" // GCF, graph profile
	FormDelta = "gcf-delta" // a delta against the previous answer to the same call (-delta)
	FormSame  = "gcf-unchanged"
)

// Rewriter re-encodes the JSON text of tool results; it is safe for
// concurrent use.
type Rewriter struct {
	Format   Format
	Smallest bool            // the Smallest size of the generic profile (gcf.WithSize)
	Counter  *tokens.Counter // the tokenizer that prices the candidates; nil: o200k_base
	MaxBytes int64           // the largest JSON text parsed (gcf.WithMaxBytes); 0: the library default
	Spec     gcf.Spec        // the spec version of generic GCF (gcf.WithSpec); "": the library default
}

// genericOptions returns opts with the options of r's generic encoding
// (Spec, Smallest priced by cnt) added.
func (r *Rewriter) genericOptions(opts []gcf.Option, cnt *tokens.Counter) []gcf.Option {
	if r.Spec != "" {
		opts = append(opts, gcf.WithSpec(r.Spec))
	}
	if r.Smallest {
		opts = append(opts, gcf.WithSize(gcf.Smallest), gcf.WithCost(cnt.Count))
	}
	return opts
}

// Choice is what Rewrite did with one text block.
type Choice struct {
	Form          string // one of the Form constants
	Before, After int    // tokens of the server's text and of the text sent
}

func (r *Rewriter) counter() *tokens.Counter {
	if r.Counter != nil {
		return r.Counter
	}
	return tokens.MustNew(tokens.Default)
}

// Rewrite returns the text to send in place of a tool result's text block,
// and the choice made. ok is false when the block is left alone: it is not
// a JSON object or array, the format is JSON, or (for Auto) nothing is
// cheaper than the server's text. Nothing valid is lost: minified JSON is
// the server's text less white space between tokens, and GCF decodes to
// the server's value (the graph profile is used only for a payload it
// carries whole).
func (r *Rewriter) Rewrite(text string, graphs *gcf.Session) (out string, c Choice, ok bool) {
	return r.rewrite(text, graphs, nil)
}

// candidates adds forms computed from the parsed value: v is the generic
// value, g the graph payload (nil when the value is not one). It returns
// true when it offered the full GCF form itself (a keyed table with its
// pack_root), which then replaces the plain generic encoding.
type candidates func(v any, g *gcf.Payload, consider func(text []byte, form string)) bool

func (r *Rewriter) rewrite(text string, graphs *gcf.Session, more candidates) (out string, c Choice, ok bool) {
	if r.Format == JSON {
		return text, Choice{}, false
	}
	trimmed := strings.TrimSpace(text)
	if trimmed == "" || (trimmed[0] != '{' && trimmed[0] != '[') {
		return text, Choice{}, false
	}
	var opts []gcf.Option
	if r.MaxBytes > 0 {
		opts = append(opts, gcf.WithMaxBytes(r.MaxBytes))
	}
	v, err := gcf.ParseJSON([]byte(trimmed), opts...)
	if err != nil {
		return text, Choice{}, false
	}
	cnt := r.counter()
	before := cnt.Count(text)
	best, bestForm, bestTokens := text, FormText, before
	consider := func(cand []byte, form string) {
		if cand == nil {
			return
		}
		n := cnt.CountBytes(cand)
		if n < bestTokens || r.Format == GCF && isGCF(form) && !isGCF(bestForm) {
			best, bestForm, bestTokens = string(cand), form, n
		}
	}
	if r.Format == Auto {
		var min bytes.Buffer
		if json.Compact(&min, []byte(trimmed)) == nil && min.Len() < len(text) {
			consider(min.Bytes(), FormJSON)
		}
	}
	g := graphPayload([]byte(trimmed))
	fullOffered := false
	if more != nil {
		fullOffered = more(v, g, consider)
	}
	switch {
	case fullOffered:
		// The keyed table's own form, which later deltas name, was offered.
	case g != nil:
		if enc, err := gcf.EncodeWithSession(g, graphs, opts...); err == nil {
			consider(enc, FormGraph)
		}
	default:
		gopts := r.genericOptions(opts[:len(opts):len(opts)], cnt)
		if enc, err := gcf.EncodeGeneric(v, gopts...); err == nil {
			consider(enc, FormGCF)
		}
	}
	if bestForm == FormText {
		return text, Choice{Form: FormText, Before: before, After: before}, false
	}
	return best, Choice{Form: bestForm, Before: before, After: bestTokens}, true
}

func isGCF(form string) bool { return form != FormText && form != FormJSON }

// graphPayload returns the graph payload data holds, or nil when data is
// not one or the graph profile would not carry all of it: it must decode
// as a gcf.Payload (the fixtures' field names or the product's snake_case
// export, no unknown key), have symbols, and come back unchanged from
// Encode and Decode (scores of two decimals, no score components, valid
// names).
func graphPayload(data []byte) *gcf.Payload {
	if !bytes.Contains(data, []byte(`"symbols"`)) {
		return nil
	}
	var p gcf.Payload
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil || dec.More() {
		wp, err := wire.DecodeWith("json", data)
		if err != nil {
			return nil
		}
		p = *wp
	}
	if len(p.Symbols) == 0 {
		return nil
	}
	enc, err := gcf.Encode(&p)
	if err != nil {
		return nil
	}
	back, err := gcf.Decode(enc)
	if err != nil {
		return nil
	}
	a, err1 := json.Marshal(canonicalOrder(p))
	b, err2 := json.Marshal(canonicalOrder(*back))
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		return nil
	}
	return &p
}

// canonicalOrder returns p with its symbols and edges sorted: the graph
// profile writes them in its own order (symbols grouped by distance, edges
// sorted), which carries no meaning.
func canonicalOrder(p gcf.Payload) gcf.Payload {
	p.Symbols = slices.Clone(p.Symbols)
	p.Edges = slices.Clone(p.Edges)
	slices.SortStableFunc(p.Symbols, func(a, b gcf.Symbol) int {
		return cmp.Or(cmp.Compare(a.QualifiedName, b.QualifiedName), cmp.Compare(a.Kind, b.Kind))
	})
	slices.SortStableFunc(p.Edges, func(a, b gcf.Edge) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Target, b.Target), cmp.Compare(a.EdgeType, b.EdgeType), cmp.Compare(a.Status, b.Status))
	})
	return p
}

// quoteJSON writes s as a JSON string without HTML escaping.
func quoteJSON(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
