package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gcfkit/gcf"
)

// jsonCodec is JSON for debugging, export and the baseline of every
// comparison. It writes the conformance fixtures' field names (tool,
// tokensUsed, tokenBudget, packRoot, symbols[].qualifiedName, ...,
// edges[].edgeType), indented by two spaces, and reads them or the
// product's snake_case export (tokens_used, qualified_name, edge_type,
// blast_radius, ...), so files the product exported load directly. Keys it
// does not know, and a key given twice, are errors rather than silently
// dropped data. NaN and infinite scores cannot be written (JSON has no
// spelling for them).
type jsonCodec struct{}

func (jsonCodec) Name() string { return "json" }

func (jsonCodec) Description() string {
	return "JSON with the conformance fixtures' field names (reads the product's snake_case too): debugging, export"
}

func (jsonCodec) Encode(w io.Writer, p *gcf.Payload) error {
	if p == nil {
		return &gcf.SyntaxError{Category: gcf.UnsupportedValue, Msg: "wire/json: nil payload"}
	}
	return writeJSON(w, p)
}

func (jsonCodec) EncodeDelta(w io.Writer, d *gcf.DeltaPayload) error {
	if d == nil {
		return &gcf.SyntaxError{Category: gcf.UnsupportedValue, Msg: "wire/json: nil delta payload"}
	}
	return writeJSON(w, d)
}

func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		var ue *json.UnsupportedValueError
		if errors.As(err, &ue) {
			return &gcf.SyntaxError{Category: gcf.UnsupportedValue, Msg: "wire/json: " + ue.Str + " has no JSON spelling", Err: err}
		}
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (c jsonCodec) Decode(r io.Reader) (*gcf.Payload, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	return c.DecodeBytes(data)
}

// DecodeBytes decodes a JSON graph payload held in memory.
func (jsonCodec) DecodeBytes(data []byte) (*gcf.Payload, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	o, ok := v.(gcf.Object)
	if !ok {
		return nil, schemaErr("", "a graph payload is a JSON object")
	}
	p := &gcf.Payload{}
	err = fields(o, "", func(k string, v any, path string) error {
		var err error
		switch k {
		case "tool":
			p.Tool, err = str(v, path)
		case "tokensUsed", "tokens_used":
			p.TokensUsed, err = integer(v, path)
		case "tokenBudget", "token_budget":
			p.TokenBudget, err = integer(v, path)
		case "packRoot", "pack_root":
			p.PackRoot, err = str(v, path)
		case "symbols":
			p.Symbols, err = list(v, path, symbol)
		case "edges":
			p.Edges, err = list(v, path, edge)
		default:
			return unknownKey(path)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (jsonCodec) DecodeDelta(r io.Reader) (*gcf.DeltaPayload, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	o, ok := v.(gcf.Object)
	if !ok {
		return nil, schemaErr("", "a delta payload is a JSON object")
	}
	d := &gcf.DeltaPayload{}
	err = fields(o, "", func(k string, v any, path string) error {
		var err error
		switch k {
		case "tool":
			d.Tool, err = str(v, path)
		case "baseRoot", "base_root":
			d.BaseRoot, err = str(v, path)
		case "newRoot", "new_root":
			d.NewRoot, err = str(v, path)
		case "removed":
			d.Removed, err = list(v, path, symbol)
		case "added":
			d.Added, err = list(v, path, symbol)
		case "removedEdges", "removed_edges":
			d.RemovedEdges, err = list(v, path, edge)
		case "addedEdges", "added_edges":
			d.AddedEdges, err = list(v, path, edge)
		case "deltaTokens", "delta_tokens":
			d.DeltaTokens, err = integer(v, path)
		case "fullTokens", "full_tokens":
			d.FullTokens, err = integer(v, path)
		default:
			return unknownKey(path)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func symbol(v any, path string) (gcf.Symbol, error) {
	var s gcf.Symbol
	o, ok := v.(gcf.Object)
	if !ok {
		return s, schemaErr(path, "a symbol is a JSON object")
	}
	err := fields(o, path, func(k string, v any, path string) error {
		var err error
		switch k {
		case "qualifiedName", "qualified_name":
			s.QualifiedName, err = str(v, path)
		case "kind":
			s.Kind, err = str(v, path)
		case "score":
			s.Score, err = number(v, path)
		case "provenance":
			s.Provenance, err = str(v, path)
		case "distance":
			s.Distance, err = integer(v, path)
		case "signature":
			s.Signature, err = str(v, path)
		case "components":
			if v == nil {
				return nil
			}
			s.Components, err = components(v, path)
		default:
			return unknownKey(path)
		}
		return err
	})
	return s, err
}

func components(v any, path string) (*gcf.Components, error) {
	o, ok := v.(gcf.Object)
	if !ok {
		return nil, schemaErr(path, "components are a JSON object")
	}
	c := &gcf.Components{}
	err := fields(o, path, func(k string, v any, path string) error {
		var err error
		switch k {
		case "blastRadius", "blast_radius":
			c.BlastRadius, err = number(v, path)
		case "confidence":
			c.Confidence, err = number(v, path)
		case "recency":
			c.Recency, err = number(v, path)
		case "distance":
			c.Distance, err = number(v, path)
		default:
			return unknownKey(path)
		}
		return err
	})
	return c, err
}

func edge(v any, path string) (gcf.Edge, error) {
	var e gcf.Edge
	o, ok := v.(gcf.Object)
	if !ok {
		return e, schemaErr(path, "an edge is a JSON object")
	}
	err := fields(o, path, func(k string, v any, path string) error {
		var err error
		switch k {
		case "source":
			e.Source, err = str(v, path)
		case "target":
			e.Target, err = str(v, path)
		case "edgeType", "edge_type":
			e.EdgeType, err = str(v, path)
		case "status":
			e.Status, err = str(v, path)
		default:
			return unknownKey(path)
		}
		return err
	})
	return e, err
}

// fields calls f for every member of o with its path; a field given under
// both of its spellings is an error.
func fields(o gcf.Object, path string, f func(k string, v any, path string) error) error {
	seen := make(map[string]bool, len(o))
	for _, m := range o {
		canon := canonicalKey(m.Key)
		if seen[canon] {
			return schemaErr(join(path, m.Key), "the field is given twice (camelCase and snake_case)")
		}
		seen[canon] = true
		if err := f(m.Key, m.Value, join(path, m.Key)); err != nil {
			return err
		}
	}
	return nil
}

// canonicalKey folds snake_case to camelCase.
func canonicalKey(k string) string {
	b := make([]byte, 0, len(k))
	up := false
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '_' {
			up = true
			continue
		}
		if up && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b = append(b, c)
	}
	return string(b)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func list[T any](v any, path string, elem func(any, string) (T, error)) ([]T, error) {
	if v == nil {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok {
		return nil, schemaErr(path, "expected a JSON array")
	}
	out := make([]T, len(a))
	for i, x := range a {
		var err error
		if out[i], err = elem(x, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func str(v any, path string) (string, error) {
	switch s := v.(type) {
	case string:
		return s, nil
	case nil:
		return "", nil
	}
	return "", schemaErr(path, fmt.Sprintf("expected a string, found %s", jsonType(v)))
}

func number(v any, path string) (float64, error) {
	switch n := v.(type) {
	case float64:
		return n, nil
	case int64:
		return float64(n), nil
	}
	return 0, schemaErr(path, fmt.Sprintf("expected a number, found %s", jsonType(v)))
}

func integer(v any, path string) (int, error) {
	switch n := v.(type) {
	case int64:
		if int64(int(n)) != n {
			return 0, &gcf.SyntaxError{Category: gcf.OutOfRange, Msg: fmt.Sprintf("wire/json: %s: %d does not fit an int", path, n)}
		}
		return int(n), nil
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
			return int(n), nil
		}
	}
	return 0, schemaErr(path, fmt.Sprintf("expected an integer, found %s", jsonType(v)))
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case int64, float64:
		return "the number " + fmt.Sprint(x)
	case []any:
		return "an array"
	}
	return "an object"
}

func unknownKey(path string) error {
	return schemaErr(path, "unknown field (a graph payload has tool, tokensUsed, tokenBudget, packRoot, symbols, edges; snake_case is accepted too)")
}

func schemaErr(path, msg string) error {
	if path != "" {
		msg = path + ": " + msg
	}
	return &gcf.SyntaxError{Category: gcf.InvalidSchema, Msg: "wire/json: " + msg}
}

// parseJSON checks data with gcf.ParseJSON (errors with line:column and
// a category, duplicate keys refused) and returns its value with every
// number as its lexeme says: the lexeme "-0" is the float -0, which
// ParseJSON, reading integers as int64, would make 0.
func parseJSON(data []byte) (any, error) {
	v, err := gcf.ParseJSON(data)
	if err != nil || !bytes.Contains(data, []byte("-0")) {
		return v, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, err
	}
	return fromStd(raw), nil
}

// fromStd converts an encoding/json value decoded with UseNumber to the
// gcf model (objects with their keys sorted).
func fromStd(v any) any {
	switch x := v.(type) {
	case map[string]any:
		o := make(gcf.Object, 0, len(x))
		for k, e := range x {
			o = append(o, gcf.Member{Key: k, Value: fromStd(e)})
		}
		slices.SortFunc(o, func(a, b gcf.Member) int { return strings.Compare(a.Key, b.Key) })
		return o
	case []any:
		for i := range x {
			x[i] = fromStd(x[i])
		}
		return x
	case json.Number:
		if n, err := x.Int64(); err == nil && x != "-0" {
			return n
		}
		f, _ := strconv.ParseFloat(string(x), 64) // ParseJSON accepted it
		return f
	}
	return v
}
