package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcfkit/gcf/tokens"
)

var measure = flag.String("measure", "", "measure the tools on a copy of this repository and write the table into this Markdown file, between the measure markers")

const (
	measureBegin = "<!-- measure:begin (go -C examples/codegraph test -run TestMeasure -measure ../../docs/mcp.md) -->"
	measureEnd   = "<!-- measure:end -->"
)

// copyTree copies the files under src (no .git) to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type row struct {
	tool, args                     string
	jsonBytes, jsonTok             int
	indentTok                      int // the JSON indented by two spaces
	gcfBytes, gcfTok               int
	repeatBytes, repeatTok         int // -1: not applicable
	deltaOutcome                   string
	deltaBytes, deltaTok, fullTok2 int
}

func pct(part, whole int) float64 { return 100 * (1 - float64(part)/float64(whole)) }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestMeasure measures, on a copy of this repository, each tool's result as
// JSON and as GCF, the same call again in the same session, and the answer
// to the echoed pack_root after a one-function change (gcf.Diff gains a
// call to gcf.PackRoot); semantic_diff compares the copy before and after
// that change. With -measure it writes the table into docs/mcp.md.
func TestMeasure(t *testing.T) {
	if *measure == "" {
		t.Skip("measurement table: run with -measure ../../docs/mcp.md (type-checks two copies of the repository)")
	}
	start := time.Now()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "repo")
	copyTree(t, repoRoot(t), root)
	copyTree(t, repoRoot(t), filepath.Join(root, ".base")) // a dot directory: not part of the module at root
	tl, err := newTools(root, tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := newServer(tl)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"context_for_task", map[string]any{"query": "compute the delta of a graph payload against the consumer's pack root", "budget": 2000}},
		{"blast_radius", map[string]any{"symbol": packRootFn, "max_depth": 3}},
		{"graph_query", map[string]any{"symbol": module + ".Respond"}},
		{"semantic_diff", map[string]any{"base": ".base", "head": "."}},
	}
	counter := tokens.MustNew(tokens.O200kBase)
	rows := make([]row, len(calls))
	roots := make([]string, len(calls))
	cs := connect(t, srv)
	for i, c := range calls {
		r := &rows[i]
		r.tool = c.tool
		var parts []string
		for _, k := range []string{"query", "budget", "symbol", "max_depth", "base", "head"} {
			if v, ok := c.args[k]; ok {
				parts = append(parts, fmt.Sprintf("%s=%v", k, v))
			}
		}
		r.args = strings.Join(parts, " ")
		// JSON in its own session, so that the GCF session starts fresh.
		jres := call(t, connect(t, srv), c.tool, merge(c.args, map[string]any{"format": "json"}))
		j := text(t, jres)
		r.jsonBytes, r.jsonTok, r.indentTok = len(j), counter.Count(j), indentedTokens(t, counter, j)
		res := call(t, cs, c.tool, c.args)
		g := text(t, res)
		r.gcfBytes, r.gcfTok = len(g), counter.Count(g)
		roots[i] = meta(t, res).PackRoot
		r.repeatBytes, r.repeatTok = -1, -1
		if c.tool != "semantic_diff" {
			res = call(t, cs, c.tool, c.args)
			g2 := text(t, res)
			r.repeatBytes, r.repeatTok = len(g2), counter.Count(g2)
		}
	}
	// The one-function change.
	src := filepath.Join(root, "graph", "protocol.go")
	body, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	old := "\ttype ident struct{ kind, qname string }\n\tid := func(s *Symbol) ident"
	if !strings.Contains(string(body), old) {
		t.Fatal("graph/protocol.go: graph.Diff no longer looks as this measurement expects; update the edit")
	}
	edited := strings.Replace(string(body), old, "\tif _, err := PackRoot(base); err != nil {\n\t\treturn nil, err\n\t}\n"+old, 1)
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(src, later, later)
	for i, c := range calls {
		r := &rows[i]
		if c.tool == "semantic_diff" {
			res := call(t, cs, c.tool, c.args)
			d := text(t, res)
			r.deltaOutcome, r.deltaBytes, r.deltaTok = "diff", len(d), counter.Count(d)
			jres := call(t, connect(t, srv), c.tool, merge(c.args, map[string]any{"format": "json"}))
			j := text(t, jres)
			r.jsonBytes, r.jsonTok, r.indentTok = len(j), counter.Count(j), indentedTokens(t, counter, j)
			r.gcfBytes, r.gcfTok = len(d), r.deltaTok
			continue
		}
		res := call(t, cs, c.tool, merge(c.args, map[string]any{"pack_root": roots[i]}))
		d := text(t, res)
		r.deltaOutcome, r.deltaBytes, r.deltaTok = meta(t, res).Outcome, len(d), counter.Count(d)
		// The full GCF answer after the change, in a fresh session, for the ratio.
		full := text(t, call(t, connect(t, srv), c.tool, c.args))
		r.fullTok2 = counter.Count(full)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on a copy of this repository (commit of the measurement: see git log of this file), tokens counted with o200k_base; generated by `TestMeasure` in %v.\n\n", time.Now().UTC().Format("2006-01-02"), time.Since(start).Round(time.Second))
	b.WriteString("| tool | arguments | JSON bytes | JSON tokens | indented JSON tokens | GCF bytes | GCF tokens | GCF vs JSON (tokens) | repeat bytes | repeat tokens | repeat vs first GCF | after one-function change: answer | bytes | tokens | vs full GCF |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n")
	var vsJSON, vsIndent, repeats, deltas []float64
	for _, r := range rows {
		vsJSON = append(vsJSON, pct(r.gcfTok, r.jsonTok))
		vsIndent = append(vsIndent, pct(r.gcfTok, r.indentTok))
		rep, repPct := "n/a", "n/a"
		repB := "n/a"
		if r.repeatTok >= 0 {
			repeats = append(repeats, pct(r.repeatTok, r.gcfTok))
			repB, rep, repPct = fmt.Sprint(r.repeatBytes), fmt.Sprint(r.repeatTok), fmt.Sprintf("%.1f%%", pct(r.repeatTok, r.gcfTok))
		}
		dPct := "n/a"
		if r.deltaOutcome == "delta" || r.deltaOutcome == "unchanged" {
			deltas = append(deltas, pct(r.deltaTok, r.fullTok2))
			dPct = fmt.Sprintf("%.1f%%", pct(r.deltaTok, r.fullTok2))
		} else if r.deltaOutcome == "full" {
			dPct = fmt.Sprintf("%.1f%%", pct(r.deltaTok, r.fullTok2))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %.1f%% | %s | %s | %s | %s | %d | %d | %s |\n",
			r.tool, strings.ReplaceAll(r.args, "|", "\\|"), r.jsonBytes, r.jsonTok, r.indentTok, r.gcfBytes, r.gcfTok, pct(r.gcfTok, r.jsonTok),
			repB, rep, repPct, r.deltaOutcome, r.deltaBytes, r.deltaTok, dPct)
	}
	fmt.Fprintf(&b, "\n| median savings | measured here | the product documents claim |\n|---|---:|---:|\n")
	fmt.Fprintf(&b, "| GCF vs compact JSON, first call (%d tools) | %.1f%% | 84%% |\n", len(vsJSON), median(vsJSON))
	fmt.Fprintf(&b, "| GCF vs indented JSON, first call (%d tools) | %.1f%% | |\n", len(vsIndent), median(vsIndent))
	fmt.Fprintf(&b, "| repeat in the same session vs the first GCF answer (%d tools) | %.1f%% | ~47%% |\n", len(repeats), median(repeats))
	fmt.Fprintf(&b, "| answer to the echoed pack_root after the change vs a full GCF resend (%d tools) | %.1f%% | 81%% |\n", len(deltas), median(deltas))
	t.Log("\n" + b.String())

	doc, err := os.ReadFile(*measure)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(doc), measureBegin), strings.Index(string(doc), measureEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", *measure, measureBegin, measureEnd)
	}
	out := string(doc[:i]) + measureBegin + "\n" + b.String() + string(doc[j:])
	if err := os.WriteFile(*measure, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// indentedTokens counts the tokens of the JSON text indented by two spaces,
// as many servers send it.
func indentedTokens(t *testing.T, c *tokens.Counter, j string) int {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(j), "", "  "); err != nil {
		t.Fatal(err)
	}
	return c.CountBytes(buf.Bytes())
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
