package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/tokens"
	"github.com/gcfkit/gcf/wire"
)

// published are the product's figures (bench/wire-format/FINDINGS.md of
// github.com/blackwell-systems/knowing at 5b7f60a9, MIT; re-tabulated in
// ../shared/reference/wire/scorecard-upstream.md §A): GCF token savings
// (word-and-punctuation estimate) and GCB byte savings, per case.
var published = map[string][2]float64{
	"01_context_for_task_small":  {82.7, 76.7},
	"02_context_for_task_medium": {84.3, 73.9},
	"03_context_for_files":       {83.8, 73.8},
	"04_blast_radius":            {83.0, 74.4},
	"05_semantic_diff":           {84.2, 75.7},
	"06_graph_query":             {84.8, 70.1},
}

const publishedGCFMedian, publishedGCBMedian = 84.0, 74.1

type measure struct {
	bytes, o200k, cl100k, heuristic int
}

type caseResult struct {
	name                  string
	json, minified, gcf   measure
	gcfV1                 measure // the legacy v1.x wire (gcf-v1), on what GCF v3 carries
	gcb1, gcb, gcbCompact int
	gcfDropped            string // what GCF v3 could not carry at all
	fidelity              map[string]string
}

func measureText(b []byte, o, c *tokens.Counter) measure {
	return measure{len(b), o.CountBytes(b), c.CountBytes(b), heuristicTokens(string(b))}
}

// gcfCarried returns p without what GCF v3 refuses (edges to names that
// are not symbols, statuses other than added and removed) and says what
// was left out.
func gcfCarried(p *gcf.Payload) (*gcf.Payload, string) {
	declared := map[string]bool{}
	for _, s := range p.Symbols {
		declared[s.QualifiedName] = true
	}
	q := *p
	q.Edges = nil
	undeclared, statuses := 0, 0
	for _, e := range p.Edges {
		if !declared[e.Source] || !declared[e.Target] {
			undeclared++
			continue
		}
		if e.Status != "" && e.Status != "added" && e.Status != "removed" {
			statuses++
			e.Status = ""
		}
		q.Edges = append(q.Edges, e)
	}
	var notes []string
	if undeclared > 0 {
		notes = append(notes, fmt.Sprintf("%d edge(s) to undeclared symbols", undeclared))
	}
	if statuses > 0 {
		notes = append(notes, fmt.Sprintf("%d edge status(es) \"unchanged\"", statuses))
	}
	return &q, strings.Join(notes, ", ")
}

// lost compares a decoded payload with the original and lists what
// differs, field by field, with counts.
func lost(orig, got *gcf.Payload) string {
	var out []string
	add := func(field string, n int) {
		if n > 0 {
			out = append(out, fmt.Sprintf("%s (%d)", field, n))
		}
	}
	if orig.Tool != got.Tool {
		add("tool", 1)
	}
	if orig.TokensUsed != got.TokensUsed || orig.TokenBudget != got.TokenBudget {
		add("token counts", 1)
	}
	if orig.PackRoot != got.PackRoot {
		add("packRoot", 1)
	}
	if len(orig.Symbols) != len(got.Symbols) {
		add("symbols dropped", len(orig.Symbols)-len(got.Symbols))
	} else {
		var name, kind, score, prov, dist, sig, comps int
		for i := range orig.Symbols {
			a, b := &orig.Symbols[i], &got.Symbols[i]
			if a.QualifiedName != b.QualifiedName {
				name++
			}
			if a.Kind != b.Kind {
				kind++
			}
			if math.Float64bits(a.Score) != math.Float64bits(b.Score) {
				score++
			}
			if a.Provenance != b.Provenance {
				prov++
			}
			if a.Distance != b.Distance {
				dist++
			}
			if a.Signature != b.Signature {
				sig++
			}
			if (a.Components == nil) != (b.Components == nil) || a.Components != nil && *a.Components != *b.Components {
				comps++
			}
		}
		add("symbol order/qualifiedName", name)
		add("kind", kind)
		add("score", score)
		add("provenance", prov)
		add("distance", dist)
		add("signature", sig)
		add("components", comps)
	}
	if len(orig.Edges) != len(got.Edges) {
		add("edges dropped", len(orig.Edges)-len(got.Edges))
	} else {
		var ends, typ, status int
		for i := range orig.Edges {
			a, b := orig.Edges[i], got.Edges[i]
			if a.Source != b.Source || a.Target != b.Target {
				ends++
			}
			if a.EdgeType != b.EdgeType {
				typ++
			}
			if a.Status != b.Status {
				status++
			}
		}
		add("edge endpoints", ends)
		add("edgeType", typ)
		add("status", status)
	}
	if len(out) == 0 {
		return "lossless"
	}
	return strings.Join(out, ", ")
}

// sortedGraph returns p with symbols and edges in GCF's canonical order
// (so that a GCF round trip can be compared field by field).
func canonical(p *gcf.Payload) (*gcf.Payload, error) {
	b, err := gcf.Encode(p)
	if err != nil {
		return nil, err
	}
	return gcf.Decode(b)
}

func runCase(c benchCase, o, cl *tokens.Counter) (*caseResult, error) {
	r := &caseResult{name: c.name, fidelity: map[string]string{}}
	js, err := productJSON(c.p)
	if err != nil {
		return nil, err
	}
	var min bytes.Buffer
	if err := json.Compact(&min, js); err != nil {
		return nil, err
	}
	r.json, r.minified = measureText(js, o, cl), measureText(min.Bytes(), o, cl)
	carried, dropped := gcfCarried(c.p)
	r.gcfDropped = dropped
	gcfText, err := gcf.Encode(carried)
	if err != nil {
		return nil, fmt.Errorf("%s: gcf: %w", c.name, err)
	}
	r.gcf = measureText(gcfText, o, cl)
	v1Text, err := wire.EncodeWith("gcf-v1", carried)
	if err != nil {
		return nil, fmt.Errorf("%s: gcf-v1: %w", c.name, err)
	}
	r.gcfV1 = measureText(v1Text, o, cl)
	gcb1, err := wire.GCB1{Lossy: true}.Append(nil, c.p)
	if err != nil {
		return nil, err
	}
	r.gcb1 = len(gcb1)
	gcb, err := wire.GCB{}.Append(nil, c.p)
	if err != nil {
		return nil, err
	}
	r.gcb = len(gcb)
	compact, err := wire.GCB{Compact: true}.Append(nil, c.p)
	if err != nil {
		return nil, err
	}
	r.gcbCompact = len(compact)
	bc, err := wire.DecodeWith("gcb", compact)
	if err != nil {
		return nil, err
	}
	r.fidelity["gcb Compact"] = lost(c.p, bc)

	// Fidelity: decode each codec's output and compare with the input.
	back, err := gcf.Decode(gcfText)
	if err != nil {
		return nil, err
	}
	// GCF reorders symbols (by distance, then score) and edges; compare
	// in that order, with the input's signatures and components.
	want, _ := canonical(carried)
	f := lost(canonicalFull(c.p, want), back)
	if dropped != "" {
		f = dropped + ", " + f
	}
	r.fidelity["gcf"] = f
	backV1, err := wire.DecodeWith("gcf-v1", v1Text)
	if err != nil {
		return nil, err
	}
	// v1 orders edge lines by target, then source (docs/legacy-v1.md):
	// compare the edges as a set.
	f = lost(edgesSorted(canonicalFull(c.p, want)), edgesSorted(backV1))
	if dropped != "" {
		f = dropped + ", " + f
	}
	r.fidelity["gcf-v1"] = f
	b1, err := wire.DecodeWith("gcb1", gcb1)
	if err != nil {
		return nil, err
	}
	r.fidelity["gcb1"] = lost(c.p, b1)
	b2, err := wire.DecodeWith("gcb", gcb)
	if err != nil {
		return nil, err
	}
	r.fidelity["gcb"] = lost(c.p, b2)
	ours, err := wire.EncodeWith("json", c.p)
	if err != nil {
		return nil, err
	}
	bj, err := wire.DecodeWith("json", ours)
	if err != nil {
		return nil, err
	}
	r.fidelity["json"] = lost(c.p, bj)
	return r, nil
}

// canonicalFull is want (GCF's order) with the signatures and components
// of the matching symbols of p put back, so that the comparison counts
// them as lost by GCF.
func canonicalFull(p, want *gcf.Payload) *gcf.Payload {
	byName := map[string]*gcf.Symbol{}
	for i := range p.Symbols {
		if _, ok := byName[p.Symbols[i].QualifiedName]; !ok {
			byName[p.Symbols[i].QualifiedName] = &p.Symbols[i]
		}
	}
	q := *want
	q.Symbols = slices.Clone(want.Symbols)
	for i := range q.Symbols {
		if s := byName[q.Symbols[i].QualifiedName]; s != nil {
			q.Symbols[i].Signature, q.Symbols[i].Components = s.Signature, s.Components
		}
	}
	return &q
}

// edgesSorted is p with its edges sorted by source, target, type and
// status, for comparing edge sets written in different orders.
func edgesSorted(p *gcf.Payload) *gcf.Payload {
	q := *p
	q.Edges = slices.Clone(p.Edges)
	slices.SortFunc(q.Edges, func(a, b gcf.Edge) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Target, b.Target),
			cmp.Compare(a.EdgeType, b.EdgeType), cmp.Compare(a.Status, b.Status))
	})
	return &q
}

func saving(x, base int) float64 { return 100 * (1 - float64(x)/float64(base)) }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// scorecard renders the results as markdown.
func scorecard(results []*caseResult) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Wire-format scorecard\n\n")
	p("Generated by `go -C bench/wire-format run .` from the six benchmark cases of the product\n")
	p("(`../shared/reference/wire/cases/*.yaml`); do not edit by hand. `go -C bench/wire-format run . -check`\n")
	p("(run by `.ci/run`) fails when this file is out of date.\n\n")
	p("- **JSON** is the product's JSON export (its `json` codec: snake_case, two-space indent), the\n")
	p("  baseline of its published figures; **min JSON** is the same JSON without white space.\n")
	p("- **GCF** is GCF v3.5.3, graph profile (`gcf.Encode`). GCF carries no signatures or score\n")
	p("  components, and cases 02, 05 and 06 hold edges it cannot carry (see Fidelity). **GCF v1** is\n")
	p("  the legacy v1.x wire (codec `gcf-v1`, docs/legacy-v1.md) on the same payload as GCF.\n")
	p("- **gcb1** is the product's binary GCB1, byte-identical (with `GCB1{Lossy: true}`, the product's\n")
	p("  behaviour); **gcb** is GCB version 2, lossless (docs/wire.md), with the default encoder and\n")
	p("  with `GCB{Compact: true}` (an LZ77 match finder; the decoder is the same).\n")
	p("- **Tokens** are counted with real BPE vocabularies, o200k_base and cl100k_base\n")
	p("  (github.com/tiktoken-go/tokenizer). The product counted tokens with a word-and-punctuation\n")
	p("  estimate (a run of letters, digits, `_` and `.` is one token, any other character one, white\n")
	p("  space none); its figures, and ours under the same estimate (*est.*), are shown beside them.\n\n")

	p("## Sizes\n\n")
	p("| Case | JSON B | JSON o200k | JSON cl100k | min JSON B | min o200k | min cl100k | GCF B | GCF o200k | GCF cl100k | GCF v1 B | GCF v1 o200k | GCF v1 cl100k | gcb1 B | gcb B | gcb Compact B |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var tot caseResult
	for _, r := range results {
		p("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", r.name,
			r.json.bytes, r.json.o200k, r.json.cl100k, r.minified.bytes, r.minified.o200k, r.minified.cl100k,
			r.gcf.bytes, r.gcf.o200k, r.gcf.cl100k, r.gcfV1.bytes, r.gcfV1.o200k, r.gcfV1.cl100k, r.gcb1, r.gcb, r.gcbCompact)
		for _, m := range [][2]*measure{{&tot.json, &r.json}, {&tot.minified, &r.minified}, {&tot.gcf, &r.gcf}, {&tot.gcfV1, &r.gcfV1}} {
			m[0].bytes += m[1].bytes
			m[0].o200k += m[1].o200k
			m[0].cl100k += m[1].cl100k
			m[0].heuristic += m[1].heuristic
		}
		tot.gcb1 += r.gcb1
		tot.gcb += r.gcb
		tot.gcbCompact += r.gcbCompact
	}
	p("| **total** | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n\n",
		tot.json.bytes, tot.json.o200k, tot.json.cl100k, tot.minified.bytes, tot.minified.o200k, tot.minified.cl100k,
		tot.gcf.bytes, tot.gcf.o200k, tot.gcf.cl100k, tot.gcfV1.bytes, tot.gcfV1.o200k, tot.gcfV1.cl100k, tot.gcb1, tot.gcb, tot.gcbCompact)

	p("## Savings against the product's JSON\n\n")
	p("| Case | GCF tokens o200k | GCF tokens cl100k | vs min JSON o200k | GCF tokens est. | published GCF est. | gcb1 bytes | published GCB | gcb bytes | gcb vs min JSON | gcb Compact bytes | GCF v1 tokens o200k | GCF v1 tokens cl100k |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	const ncols = 12
	var cols [ncols][]float64
	for _, r := range results {
		pub := published[r.name]
		v := [ncols]float64{saving(r.gcf.o200k, r.json.o200k), saving(r.gcf.cl100k, r.json.cl100k), saving(r.gcf.o200k, r.minified.o200k),
			saving(r.gcf.heuristic, r.json.heuristic), pub[0], saving(r.gcb1, r.json.bytes), pub[1], saving(r.gcb, r.json.bytes),
			saving(r.gcb, r.minified.bytes), saving(r.gcbCompact, r.json.bytes), saving(r.gcfV1.o200k, r.json.o200k), saving(r.gcfV1.cl100k, r.json.cl100k)}
		p("| %s |", r.name)
		for i := 0; i < ncols; i++ {
			cols[i] = append(cols[i], v[i])
			p(" %.1f%% |", v[i])
		}
		p("\n")
	}
	p("| **median** |")
	for i := 0; i < ncols; i++ {
		switch i { // the product's medians, from its unrounded figures
		case 4:
			p(" **%.1f%%** |", publishedGCFMedian)
		case 6:
			p(" **%.1f%%** |", publishedGCBMedian)
		default:
			p(" **%.1f%%** |", median(cols[i]))
		}
	}
	p("\n\n")
	p("The product published a median of %.1f%% GCF token savings (its estimate) and %.1f%% GCB\n", publishedGCFMedian, publishedGCBMedian)
	p("byte savings. Measured here: GCF v3 saves a median **%.1f%%** of o200k tokens (%.1f%% cl100k;\n", median(cols[0]), median(cols[1]))
	p("%.1f%% by the product's estimate), gcb1 reproduces %.1f%% of bytes, and gcb saves **%.1f%%** of\n", median(cols[3]), median(cols[5]), median(cols[7]))
	p("bytes while losing nothing (%.1f%% with `Compact`; target: 82%%, stretch 85%%). The legacy\n", median(cols[9]))
	p("GCF v1 wire saves %.1f%% of o200k tokens (%.1f%% cl100k).\n\n", median(cols[10]), median(cols[11]))

	p("## Fidelity (decode of each codec's output against the input)\n\n")
	p("| Case | gcb | gcb Compact | gcb1 | gcf | gcf-v1 | json |\n|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		p("| %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.fidelity["gcb"], r.fidelity["gcb Compact"], r.fidelity["gcb1"], r.fidelity["gcf"], r.fidelity["gcf-v1"], r.fidelity["json"])
	}
	p("\nField names with the number of symbols or edges whose value changed. gcb1's scores and\n")
	p("components come back as float32 values (0.78 -> 0.7799999713897705); its endpoints change\n")
	p("where an edge names an undeclared symbol (index 0), and status \"unchanged\" becomes \"\".\n")
	p("GCF carries no signatures or components by design (it is for the model's context).\n")
	return b.String()
}
