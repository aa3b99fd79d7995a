package generic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/tokens"
)

// o200k is the real cost model of the Smallest tests.
func o200k() func(string) int { return tokens.MustNew(tokens.O200kBase).Count }

// corpusDoc is one document of testdata/corpus.
type corpusDoc struct {
	name string
	json []byte // as stored (pretty)
	min  []byte // minified as stored (json.Compact: member order and number spelling kept)
	v    any
}

func loadCorpus(t testing.TB) []corpusDoc {
	t.Helper()
	files, err := filepath.Glob("../../testdata/corpus/*.json")
	if err != nil || len(files) < 8 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	var docs []corpusDoc
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := ParseJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var min bytes.Buffer
		if err := json.Compact(&min, data); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, corpusDoc{strings.TrimSuffix(filepath.Base(f), ".json"), data, min.Bytes(), v})
	}
	return docs
}

// smallestFull encodes v in the Smallest size with every alternative
// priced, whatever the table size (no sizeTrialRows shortcut), and priced
// by cost alone (no ranking by the estimate).
func smallestFull(v any, cost func(string) int) ([]byte, error) {
	lim := defaultLimits
	s := newSizer(lim, cost)
	s.full, s.screen = true, false
	return s.append(nil, v, lim)
}

// layoutTokens is the allowance of the JSON bound: a token for each line
// that starts with indentation (SPEC §4.1: nesting is two blanks a level,
// which minified JSON does not pay) and for each object section header
// `## key` (SPEC §7.2: "##", the key and the line end, where JSON's `":{"`
// is one token), and one for the `=` of a root scalar (SPEC §7.1).
func layoutTokens(enc []byte) int {
	n := 0
	lines := bytes.Split(enc, []byte{'\n'})
	for _, l := range lines {
		if len(l) > 0 && l[0] == ' ' {
			n++
		}
		l = bytes.TrimLeft(l, " ")
		if bytes.HasPrefix(l, []byte("## ")) && !bytes.HasSuffix(l, []byte("]")) && !bytes.HasSuffix(l, []byte("}")) {
			n++
		}
	}
	if len(lines) > 1 && bytes.HasPrefix(lines[1], []byte("=")) {
		n++
	}
	return n
}

const headerLine = "GCF profile=generic\n"

// checkSmallest checks one value: the Smallest encoding decodes to v,
// costs no more than the canonical one and, if jsonBound, no more than
// minified JSON plus the header line plus layoutTokens.
func checkSmallest(t *testing.T, name string, v any, cost func(string) int, jsonBound bool) []byte {
	t.Helper()
	canon, err := EncodeGeneric(v)
	if err != nil {
		t.Fatalf("%s: canonical: %v", name, err)
	}
	small, err := EncodeGeneric(v, WithSize(Smallest), WithCost(cost))
	if err != nil {
		t.Fatalf("%s: smallest: %v\nvalue %s", name, err, mustJSON(v))
	}
	back, err := DecodeGeneric(small)
	if err != nil {
		t.Fatalf("%s: decode: %v\nvalue %s\nwire:\n%s", name, err, mustJSON(v), small)
	}
	if !jsonEqual(v, back) {
		t.Fatalf("%s: round trip changed the value\n  in %s\n out %s\nwire:\n%s", name, mustJSON(v), mustJSON(back), small)
	}
	cs, cc := cost(string(small)), cost(string(canon))
	if cs > cc {
		t.Fatalf("%s: smallest costs %d, canonical %d\nsmallest:\n%s\ncanonical:\n%s", name, cs, cc, small, canon)
	}
	js, _ := ToJSON(v)
	if bound := cost(string(js)) + cost(headerLine) + layoutTokens(small); jsonBound && cs > bound {
		t.Fatalf("%s: smallest costs %d, over minified JSON %d + header %d + %d layout tokens\n%s\nwire:\n%s",
			name, cs, cost(string(js)), cost(headerLine), layoutTokens(small), js, small)
	}
	return small
}

// TestSmallestCorpus: on every corpus document the Smallest size, priced
// in o200k tokens, round-trips, costs no more than canonical GCF, and
// makes the same choices as when every alternative is priced.
func TestSmallestCorpus(t *testing.T) {
	cost := o200k()
	cl100k := tokens.MustNew(tokens.Cl100kBase).Count
	for _, d := range loadCorpus(t) {
		checkSmallest(t, d.name+"/cl100k", d.v, cl100k, false)
		small := checkSmallest(t, d.name, d.v, cost, true)
		full, err := smallestFull(d.v, cost)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(small, full) {
			t.Errorf("%s: pricing every alternative changes the result: %d tokens, not %d", d.name, cost(string(full)), cost(string(small)))
		}
	}
}

// TestSmallestEstimate: the default cost model (EstimateTokens) picks the
// same forms as o200k counts on every corpus document with a large table
// (an array of more than sizeTrialRows objects), and elsewhere comes
// within 2% of the o200k choice.
func TestSmallestEstimate(t *testing.T) {
	cost := o200k()
	for _, d := range loadCorpus(t) {
		est, err := EncodeGeneric(d.v, WithSize(Smallest))
		if err != nil {
			t.Fatal(err)
		}
		real, err := EncodeGeneric(d.v, WithSize(Smallest), WithCost(cost))
		if err != nil {
			t.Fatal(err)
		}
		ce, cr := cost(string(est)), cost(string(real))
		if !bytes.Equal(est, real) {
			t.Logf("%s: estimate's choice %d o200k tokens, o200k's %d", d.name, ce, cr)
			if ce*100 > cr*102 {
				t.Errorf("%s: the estimate's choice costs %d o200k tokens, over 2%% more than o200k's %d", d.name, ce, cr)
			}
		}
		if hasLargeTable(d.v) && !bytes.Equal(est, real) {
			t.Errorf("%s: a table document, and the estimate picks other forms than o200k", d.name)
		}
	}
}

// hasLargeTable reports whether v holds an array of more than
// sizeTrialRows objects.
func hasLargeTable(v any) bool {
	switch x := v.(type) {
	case Object:
		for _, m := range x {
			if hasLargeTable(m.Value) {
				return true
			}
		}
	case []any:
		objs := 0
		for _, e := range x {
			if _, ok := e.(Object); ok {
				objs++
			}
			if hasLargeTable(e) {
				return true
			}
		}
		return objs > sizeTrialRows
	}
	return false
}

// TestSmallestProperty: random documents full of awkward strings, domain
// edge numbers, sparse and nested tables round-trip in the Smallest size,
// under the estimate and under o200k; with o200k they cost no more than
// canonical, and pricing every alternative changes nothing on them. How
// many cost more than minified JSON plus the header line is logged, not
// asserted: deep, irregular documents do (see docs/smallest.md).
func TestSmallestProperty(t *testing.T) {
	cost := o200k()
	docs, overJSON, worst, same, estOver := 0, 0, 0, 0, 0
	defer func() {
		t.Logf("%d of %d random documents cost more than minified JSON plus the header line (at worst by %d tokens)", overJSON, docs, worst)
		t.Logf("the estimate picks the same bytes as o200k on %d of %d; elsewhere its choices cost %d o200k tokens more in all", same, docs, estOver)
	}()
	n := 1500
	if testing.Short() {
		n = 300
	}
	for _, ordered := range []bool{true, false} {
		g := &gen{r: rand.New(rand.NewPCG(18, 35)), ordered: ordered}
		for i := 0; i < n; i++ {
			v := g.value(1 + i%6)
			est := checkSmallest(t, "estimate", v, EstimateTokens, false)
			small := checkSmallest(t, "o200k", v, cost, false)
			if bytes.Equal(est, small) {
				same++
			} else if d := cost(string(est)) - cost(string(small)); d > 0 {
				estOver += d
			}
			js, _ := ToJSON(v)
			docs++
			if over := cost(string(small)) - cost(string(js)) - cost(headerLine); over > 0 {
				overJSON++
				worst = max(worst, over)
			}
			if i%5 == 0 {
				full, err := smallestFull(v, cost)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(full, small) {
					t.Fatalf("pricing every alternative changes the result\n%s\n---\n%s", small, full)
				}
			}
		}
	}
}

// TestSmallestCanonicalDefault: without WithSize, and with
// WithSize(Canonical), the output is the canonical one.
func TestSmallestCanonicalDefault(t *testing.T) {
	for _, d := range loadCorpus(t) {
		a, _ := EncodeGeneric(d.v)
		b, _ := EncodeGeneric(d.v, WithSize(Canonical), WithCost(func(string) int { return 0 }))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: WithSize(Canonical) changes the output", d.name)
		}
	}
}

// TestSmallestForms pins the alternatives the Smallest size writes.
func TestSmallestForms(t *testing.T) {
	cost := o200k()
	cases := []struct {
		name string
		json string
		want string
	}{
		{"sparse keyed map becomes sections",
			`{"a":{"x":1,"y":2,"z":3},"b":{"p":"q","r":"s","t":"u"}}`,
			"## a\n  x=1\n  y=2\n  z=3\n## b\n  p=q\n  r=s\n  t=u\n"},
		{"empty array member",
			`{"tags":[],"n":1}`,
			"tags[0]:\nn=1\n"},
		{"sparse array of objects becomes expanded",
			`{"items":[{"a":1,"b":2,"c":3,"d":4},{"e":5,"f":6,"g":7,"h":8},{"i":9,"j":10,"k":11,"l":12}]}`,
			"## items [3]\n@0 {}\n  a=1\n  b=2\n  c=3\n  d=4\n@1 {}\n  e=5\n  f=6\n  g=7\n  h=8\n@2 {}\n  i=9\n  j=10\n  k=11\n  l=12\n"},
		{"uniform table stays",
			`[{"id":1,"name":"a"},{"id":2,"name":"b"}]`,
			"## [2]{id,name}\n1|a\n2|b\n"},
	}
	for _, c := range cases {
		v, err := ParseJSON([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeGeneric(v, WithSize(Smallest), WithCost(cost))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != headerLine+c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, headerLine+c.want)
		}
	}
}

// TestSmallestLimits: a limit the chosen layout breaks and the canonical
// one does not gives the canonical encoding; one both break, the error.
func TestSmallestLimits(t *testing.T) {
	v, _ := ParseJSON([]byte(`{"a":{"x":1,"y":2,"z":3},"b":{"p":"q","r":"s","t":"u"}}`))
	got, err := EncodeGeneric(v, WithSize(Smallest), WithMaxDepth(1))
	canon, cerr := EncodeGeneric(v, WithMaxDepth(1))
	if cerr != nil || err != nil || !bytes.Equal(got, canon) {
		t.Fatalf("depth 1: got %q, %v; canonical %q, %v", got, err, canon, cerr)
	}
	_, err = EncodeGeneric(v, WithSize(Smallest), WithMaxBytes(10))
	if CategoryOf(err) != PayloadTooLarge {
		t.Fatalf("max bytes: %v", err)
	}
}

// TestSmallestBudget: past the pricing budget the decisions are the
// canonical ones, and a deep chain of single-member objects above a table
// prices the table a bounded number of times.
func TestSmallestBudget(t *testing.T) {
	v, _ := ParseJSON([]byte(`{"a":{"x":1,"y":2,"z":3},"b":{"p":"q","r":"s","t":"u"}}`))
	lim := defaultLimits
	s := newSizer(lim, nil)
	s.budget = 0
	got, err := s.append(nil, v, lim)
	want, _ := EncodeGeneric(v)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("no budget: %q, %v; want the canonical %q", got, err, want)
	}
	var deep any = []any{}
	rows := make([]any, 2000)
	for i := range rows {
		rows[i] = Object{{Key: "id", Value: int64(i)}, {Key: "name", Value: fmt.Sprint("n", i)}}
	}
	deep = Object{{Key: "rows", Value: rows}}
	for i := 0; i < 200; i++ {
		deep = Object{{Key: "k", Value: deep}}
	}
	s = newSizer(lim, nil)
	if _, err := s.append(nil, deep, lim); err != nil {
		t.Fatal(err)
	}
	if spent := trialBudget - s.budget; spent > trialBudget+1<<20 {
		t.Fatalf("priced %d bytes, budget %d", spent, trialBudget)
	}
}

func TestEstimateTokens(t *testing.T) {
	cost := o200k()
	for _, s := range []string{"", "a", "hello world\n", "  ## name [3]{id,name}\n", "12345678|x|~|-\n", "é😀"} {
		e, r := EstimateTokens(s), cost(s)
		if e < r/2 || e > 2*r+1 {
			t.Errorf("EstimateTokens(%q) = %d, o200k %d", s, e, r)
		}
	}
}

func BenchmarkSmallest(b *testing.B) {
	for _, name := range []string{"employees", "orders"} {
		data, err := os.ReadFile("../../testdata/corpus/" + name + ".json")
		if err != nil {
			b.Fatal(err)
		}
		v, err := ParseJSON(data)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/canonical", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeGeneric(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/smallest", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := EncodeGeneric(v, WithSize(Smallest)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// refCheck is the node program of TestSmallestReference: it reads JSON
// lines {name, gcf, json} and prints one line per case the reference SDK
// decodes to another value than the JSON text, or fails to decode, then
// "checked N". Objects are compared as unordered (SPEC §1.2), integers
// beyond 2^53 as bigint on both sides.
const refCheck = `
import * as G from %q;
import { readFileSync } from 'node:fs';
const eq = (a, b) => {
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !eq(v, b.get(k))) return false;
    return true;
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => eq(x, b[i]));
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    try { return BigInt(a) === BigInt(b); } catch { return false; }
  }
  return a === b;
};
let n = 0;
for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
  if (!line) continue;
  const c = JSON.parse(line);
  n++;
  try {
    const got = G.decodeGeneric(c.gcf, { largeInt: 'bigint' });
    if (!eq(got, G.parseJSONOrdered(c.json))) console.log('MISMATCH ' + c.name);
  } catch (e) {
    console.log('ERROR ' + c.name + ': ' + e.message);
  }
}
console.log('checked ' + n);
`

// TestSmallestReference: every Smallest encoding of the corpus and of
// random documents (priced by the estimate and by o200k) decodes to the
// same value in the reference TypeScript SDK, run once through node for
// the whole batch, written WithSpec(Spec353) since the bundle reads
// v3.5.3 only. It skips, saying why, without node or the SDK.
func TestSmallestReference(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the reference SDK cannot be run")
	}
	dir := os.Getenv("GCF_PEERS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "peers")
	}
	sdk, err := filepath.Abs(filepath.Join(dir, "gcf-typescript-2.6.1", "gcf.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sdk); err != nil {
		t.Skipf("the reference SDK is not at %s (set GCF_PEERS_DIR): %v", sdk, err)
	}
	var batch bytes.Buffer
	cases := 0
	add := func(name string, v any, cost func(string) int) {
		// The bundle reads spec v3.5.3 only: no v3.6-only form for it.
		enc, err := EncodeGeneric(v, WithSize(Smallest), WithCost(cost), WithSpec(Spec353))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		js, err := ToJSON(v)
		if err != nil {
			t.Fatal(err)
		}
		line, err := json.Marshal(map[string]string{"name": name, "gcf": string(enc), "json": string(js)})
		if err != nil {
			t.Fatal(err)
		}
		batch.Write(line)
		batch.WriteByte('\n')
		cases++
	}
	cost := o200k()
	for _, d := range loadCorpus(t) {
		add(d.name+"/estimate", d.v, EstimateTokens)
		add(d.name+"/o200k", d.v, cost)
	}
	g := &gen{r: rand.New(rand.NewPCG(18, 36))}
	for i := 0; i < 600; i++ {
		v := g.value(1 + i%6)
		add(fmt.Sprintf("random %d/estimate", i), v, EstimateTokens)
		add(fmt.Sprintf("random %d/o200k", i), v, cost)
	}
	tmp := t.TempDir()
	in := filepath.Join(tmp, "cases.jsonl")
	script := filepath.Join(tmp, "check.mjs")
	if err := os.WriteFile(in, batch.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(fmt.Sprintf(refCheck, "file://"+filepath.ToSlash(sdk))), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, script, in).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if last := lines[len(lines)-1]; last != fmt.Sprintf("checked %d", cases) {
		t.Fatalf("node checked %q, want %d cases\n%s", last, cases, out)
	}
	for _, l := range lines[:len(lines)-1] {
		t.Error(l)
	}
	t.Logf("%d Smallest encodings decoded by the reference SDK", cases)
}

const (
	tableBegin = "<!-- corpus table: generated by TestSmallestDocTable (GCF_UPDATE_DOCS=1 go test -run TestSmallestDocTable .) -->\n"
	tableEnd   = "<!-- end of corpus table -->\n"
)

// corpusTable renders the o200k token counts of the corpus documents in
// every form, and the targets of issue 18 against them.
func corpusTable(t *testing.T) string {
	cost := o200k()
	var sb strings.Builder
	pct := func(a, b int) string { return fmt.Sprintf("%+.1f%%", 100*float64(a-b)/float64(b)) }
	num := func(n int) string {
		s := fmt.Sprint(n)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	}
	sb.WriteString("| document | pretty JSON | minified JSON | canonical GCF | smallest GCF (estimate) | smallest GCF (o200k) | smallest vs minified | smallest vs canonical |\n")
	sb.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	var canonSave, smallSave []float64
	var notes []string
	for _, d := range loadCorpus(t) {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, d.min, "", "  "); err != nil {
			t.Fatal(err)
		}
		canon, err := EncodeGeneric(d.v)
		if err != nil {
			t.Fatal(err)
		}
		est, err := EncodeGeneric(d.v, WithSize(Smallest))
		if err != nil {
			t.Fatal(err)
		}
		small, err := EncodeGeneric(d.v, WithSize(Smallest), WithCost(cost))
		if err != nil {
			t.Fatal(err)
		}
		p, m, c, e, s := cost(pretty.String()), cost(string(d.min)), cost(string(canon)), cost(string(est)), cost(string(small))
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", d.name, num(p), num(m), num(c), num(e), num(s), pct(s, m), pct(s, c))
		canonSave = append(canonSave, 100*float64(m-c)/float64(m))
		smallSave = append(smallSave, 100*float64(m-s)/float64(m))
		if s >= m {
			notes = append(notes, fmt.Sprintf("%s: smallest GCF is %s against minified JSON (target: fewer tokens)", d.name, pct(s, m)))
		}
		if hasLargeTable(d.v) && s > c {
			notes = append(notes, fmt.Sprintf("%s: smallest GCF is %s against canonical GCF (target: beats or ties)", d.name, pct(s, c)))
		}
	}
	median := func(x []float64) float64 {
		y := append([]float64(nil), x...)
		for i := range y {
			for j := i + 1; j < len(y); j++ {
				if y[j] < y[i] {
					y[i], y[j] = y[j], y[i]
				}
			}
		}
		if len(y)%2 == 1 {
			return y[len(y)/2]
		}
		return (y[len(y)/2-1] + y[len(y)/2]) / 2
	}
	fmt.Fprintf(&sb, "\nMedian saving against minified JSON: canonical GCF %.1f%%, smallest GCF (o200k) %.1f%% (target: at least 35%%).\n", median(canonSave), median(smallSave))
	if median(smallSave) < 35 {
		notes = append(notes, fmt.Sprintf("median saving %.1f%% (target: at least 35%%)", median(smallSave)))
	}
	sb.WriteString("\nTargets not met:\n\n")
	if len(notes) == 0 {
		sb.WriteString("- none\n")
	}
	for _, n := range notes {
		sb.WriteString("- " + n + "\n")
	}
	floorTable(t, &sb, cost, num, median)
	return sb.String()
}

// floorTable writes what no layout can go below: the document's scalars
// alone, each spelled as a GCF cell and joined by one '|' (keys,
// structure and line ends free), and its keys and scalars, each written
// once where JSON writes it and joined by '|'. It also prices the
// Smallest payload with every line's indentation removed (not a valid
// payload: it measures what SPEC §4.1 indentation costs).
func floorTable(t *testing.T, sb *strings.Builder, cost func(string) int, num func(int) string, median func([]float64) float64) {
	sb.WriteString("\nWhat no layout can go below (o200k_base tokens; explained in smallest.md, \"The floor\"):\n\n")
	sb.WriteString("| document | minified JSON | smallest GCF | smallest GCF, indentation removed | every key and scalar where JSON has it | scalars only | scalars and each distinct key once (floor) | best saving any layout can reach |\n")
	sb.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	var best []float64
	for _, d := range loadCorpus(t) {
		small, err := EncodeGeneric(d.v, WithSize(Smallest), WithCost(cost))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(small), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, " ")
		}
		var scalars, keyed, distinct []string
		seen := map[string]bool{}
		walkLeaves(t, d.v, func(key string, cell string) {
			if key != "" {
				keyed = append(keyed, key)
				if !seen[key] {
					seen[key] = true
					distinct = append(distinct, key)
				}
			}
			if cell != "" {
				scalars = append(scalars, cell)
				keyed = append(keyed, cell)
			}
		})
		m, s, flat := cost(string(d.min)), cost(string(small)), cost(strings.Join(lines, "\n"))
		kv, sc := cost(strings.Join(keyed, "|")), cost(strings.Join(scalars, "|"))
		floor := cost(strings.Join(append(distinct, scalars...), "|"))
		best = append(best, 100*float64(m-floor)/float64(m))
		fmt.Fprintf(sb, "| %s | %s | %s | %s | %s | %s | %s | %.1f%% |\n", d.name, num(m), num(s), num(flat), num(kv), num(sc), num(floor), best[len(best)-1])
	}
	fmt.Fprintf(sb, "\nMedian of the best savings any layout can reach: %.1f%%.\n", median(best))
}

// walkLeaves calls f with each object key (cell "") and each scalar's
// GCF cell spelling (key ""), in document order.
func walkLeaves(t *testing.T, v any, f func(key, cell string)) {
	switch x := v.(type) {
	case Object:
		for _, m := range x {
			f(string(encoder.AppendKey(nil, m.Key)), "")
			walkLeaves(t, m.Value, f)
		}
	case []any:
		for _, e := range x {
			walkLeaves(t, e, f)
		}
	default:
		b, err := appendScalarCell(nil, x, encoder.Cell)
		if err != nil {
			t.Fatal(err)
		}
		f("", string(b))
	}
}

// TestSmallestDocTable: the corpus table in docs/smallest.md is the one
// the code produces now (GCF_UPDATE_DOCS=1 rewrites it).
func TestSmallestDocTable(t *testing.T) {
	table := corpusTable(t)
	for _, path := range []string{"../../docs/smallest.md", "../../docs/benchmarks.md"} {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(doc)
		i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
		if i < 0 || j < i {
			t.Fatalf("%s: no corpus table markers", path)
		}
		if s[i+len(tableBegin):j] == table {
			continue
		}
		if os.Getenv("GCF_UPDATE_DOCS") == "" {
			t.Fatalf("%s: the corpus table is stale; rerun with GCF_UPDATE_DOCS=1. Now:\n%s", path, table)
		}
		s = s[:i+len(tableBegin)] + table + s[j:]
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSmallestAppend: AppendGeneric with the Smallest size appends after
// dst, also when the canonical layout wins the final comparison.
func TestSmallestAppend(t *testing.T) {
	for _, js := range []string{`{"a":{"x":1,"y":2,"z":3},"b":{"p":"q","r":"s","t":"u"}}`, `[{"id":1},{"id":2}]`, `7`} {
		v, _ := ParseJSON([]byte(js))
		want, _ := EncodeGeneric(v, WithSize(Smallest))
		dst := []byte("prefix:")
		out, err := AppendGeneric(dst[:len(dst):len(dst)], v, WithSize(Smallest))
		if err != nil || string(out) != "prefix:"+string(want) {
			t.Fatalf("%s: %q, %v", js, out, err)
		}
		out, err = AppendGeneric(make([]byte, 3, 1<<16), v, WithSize(Smallest), WithCost(func(s string) int { return len(s) }))
		if err != nil || !bytes.HasPrefix(out, []byte{0, 0, 0}) {
			t.Fatalf("%s: %q, %v", js, out, err)
		}
		back, err := DecodeGeneric(out[3:])
		if err != nil || !jsonEqual(v, back) {
			t.Fatalf("%s: %v", js, err)
		}
	}
}

// FuzzSmallest: whatever JSON value, the Smallest size either fails as the
// canonical encoder does or writes a payload that decodes to the value.
func FuzzSmallest(f *testing.F) {
	for _, s := range []string{`{"a":{"x":1},"b":{"y":[]}}`, `[{"a":{"b":1}},{"c":[{"d":null}]}]`, `{"w":{"k":{"a":1,"b":2}}}`, `{"t":[],"u":[[]],"v":{}}`,
		// Constant columns (spec v3.6.0 §7.4.7), which Smallest prices.
		`[{"a":1,"b":2},{"a":1,"b":2}]`, `{"m":{"k":{"a":"x","b":1},"l":{"a":"x","b":2}}}`, `[{"a":"","b":"^"},{"a":"","b":"^"}]`,
		`{"s":{"r":[{"id":1,"g":null,"t":"long constant text"},{"id":2,"g":null,"t":"long constant text"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		if err != nil {
			return
		}
		for _, spec := range []Spec{Spec36, Spec353} {
			small, err := EncodeGeneric(v, WithSize(Smallest), WithSpec(spec))
			canon, cerr := EncodeGeneric(v, WithSpec(spec))
			if (err == nil) != (cerr == nil) {
				t.Fatalf("smallest: %v, canonical: %v", err, cerr)
			}
			if err != nil {
				return
			}
			back, err := DecodeGeneric(small)
			if err != nil || !jsonEqual(v, back) {
				t.Fatalf("%v\n%s\n%s", err, data, small)
			}
			if EstimateTokens(string(small)) > EstimateTokens(string(canon)) {
				t.Fatalf("%s: Smallest costs more than canonical:\n%s\n%s", spec, small, canon)
			}
			if spec == Spec353 && declaresConstants(small) {
				t.Fatalf("Spec353 wrote constant columns:\n%s", small)
			}
		}
	})
}
