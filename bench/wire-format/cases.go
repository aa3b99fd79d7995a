package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gcfkit/gcf"
	"gopkg.in/yaml.v3"
)

// yamlCase is the schema of the product's benchmark cases
// (../shared/reference/wire/GCB.md §10).
type yamlCase struct {
	Tool        string `yaml:"tool"`
	TokensUsed  int    `yaml:"tokens_used"`
	TokenBudget int    `yaml:"token_budget"`
	Symbols     []struct {
		QualifiedName string  `yaml:"qualified_name"`
		Kind          string  `yaml:"kind"`
		Score         float64 `yaml:"score"`
		Provenance    string  `yaml:"provenance"`
		Distance      int     `yaml:"distance"`
		Signature     string  `yaml:"signature"`
		Components    *struct {
			BlastRadius float64 `yaml:"blast_radius"`
			Confidence  float64 `yaml:"confidence"`
			Recency     float64 `yaml:"recency"`
			Distance    float64 `yaml:"distance"`
		} `yaml:"components"`
	} `yaml:"symbols"`
	Edges []struct {
		Source string `yaml:"source"`
		Target string `yaml:"target"`
		Type   string `yaml:"type"`
		Status string `yaml:"status"`
	} `yaml:"edges"`
}

type benchCase struct {
	name string
	p    *gcf.Payload
}

// loadCases reads every *.yaml of dir, in file name order.
func loadCases(dir string) ([]benchCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.yaml cases in %s", dir)
	}
	sort.Strings(files)
	var out []benchCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var c yamlCase
		if err := yaml.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		p := &gcf.Payload{Tool: c.Tool, TokensUsed: c.TokensUsed, TokenBudget: c.TokenBudget}
		for _, s := range c.Symbols {
			sym := gcf.Symbol{QualifiedName: s.QualifiedName, Kind: s.Kind, Score: s.Score, Provenance: s.Provenance,
				Distance: s.Distance, Signature: s.Signature}
			if s.Components != nil {
				sym.Components = &gcf.Components{BlastRadius: s.Components.BlastRadius, Confidence: s.Components.Confidence,
					Recency: s.Components.Recency, Distance: s.Components.Distance}
			}
			p.Symbols = append(p.Symbols, sym)
		}
		for _, e := range c.Edges {
			p.Edges = append(p.Edges, gcf.Edge{Source: e.Source, Target: e.Target, EdgeType: e.Type, Status: e.Status})
		}
		out = append(out, benchCase{name: strings.TrimSuffix(filepath.Base(f), ".yaml"), p: p})
	}
	return out, nil
}

// productJSON is the product's JSON codec output (GCB.md §9): snake_case
// names, two-space indent, Go's HTML-safe escaping, no trailing newline,
// components always present, "symbols": null when there are none.
func productJSON(p *gcf.Payload) ([]byte, error) {
	type comps struct {
		BlastRadius float64 `json:"blast_radius"`
		Confidence  float64 `json:"confidence"`
		Recency     float64 `json:"recency"`
		Distance    float64 `json:"distance"`
	}
	type symbol struct {
		QualifiedName string  `json:"qualified_name"`
		Kind          string  `json:"kind"`
		Score         float64 `json:"score"`
		Signature     string  `json:"signature,omitempty"`
		Provenance    string  `json:"provenance"`
		Distance      int     `json:"distance"`
		Components    comps   `json:"components"`
	}
	type edge struct {
		Source   string `json:"source"`
		Target   string `json:"target"`
		EdgeType string `json:"edge_type"`
		Status   string `json:"status,omitempty"`
	}
	type payload struct {
		Tool        string   `json:"tool"`
		TokensUsed  int      `json:"tokens_used"`
		TokenBudget int      `json:"token_budget"`
		PackRoot    string   `json:"pack_root,omitempty"`
		Symbols     []symbol `json:"symbols"`
		Edges       []edge   `json:"edges,omitempty"`
	}
	v := payload{Tool: p.Tool, TokensUsed: p.TokensUsed, TokenBudget: p.TokenBudget, PackRoot: p.PackRoot}
	for _, s := range p.Symbols {
		var c comps
		if s.Components != nil {
			c = comps(*s.Components)
		}
		v.Symbols = append(v.Symbols, symbol{s.QualifiedName, s.Kind, s.Score, s.Signature, s.Provenance, s.Distance, c})
	}
	for _, e := range p.Edges {
		v.Edges = append(v.Edges, edge(e))
	}
	// Without HTML escaping, as the product's JSON is written.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// heuristicTokens is the product's token estimate (countTokensApprox,
// GCB.md §10): a run of ASCII letters, digits, '_' and '.' is one token,
// every other rune one token, except space, tab, CR and LF, which count
// nothing and end a run.
func heuristicTokens(s string) int {
	n, inWord := 0, false
	for _, r := range s {
		switch {
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.'):
			if !inWord {
				n++
				inWord = true
			}
		case r == ' ' || r == '\t' || r == '\r' || r == '\n':
			inWord = false
		default:
			n++
			inWord = false
		}
	}
	return n
}
