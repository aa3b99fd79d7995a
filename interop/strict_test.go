package interop

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/conformance"
)

// The strictness comparison (issue 22 item 2): the reference SDK's decoder
// and ours over the inputs this module already tests its parsers with (the
// differential seeds, the hostile tables, the fuzz corpora, the conformance
// payloads). Every input one side accepts and the other rejects must fall
// into a class of docs/interop.md ("Where the decoders disagree"), matched by
// the input's shape; the test prints the table of classes.
//
//	go test -run TestStrictness -v ./interop/
//	GCF_STRICTNESS_DUMP=/tmp/s.jsonl go test -run TestStrictness ./interop/   # every input and both verdicts
//	GCF_STRICTNESS_EXTRA=$(go env GOCACHE)/fuzz/github.com/gcfkit/gcf go test -run TestStrictness -v ./interop/   # and a fuzz cache

// corpusInput is one payload and where it was found.
type corpusInput struct {
	src  string
	data []byte
}

// moduleRoot is the module's directory (the parent of interop/).
const moduleRoot = ".."

// strictnessInputs gathers the inputs, each once (the first source wins).
func strictnessInputs(t *testing.T) []corpusInput {
	t.Helper()
	seen := map[string]bool{}
	var out []corpusInput
	add := func(src string, b []byte) {
		if seen[string(b)] {
			return
		}
		seen[string(b)] = true
		out = append(out, corpusInput{src, b})
	}
	// FuzzDifferential's regression seeds.
	files, _ := filepath.Glob(filepath.Join(moduleRoot, "testdata", "differential", "*.gcf"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add("testdata/differential/"+filepath.Base(f), b)
	}
	// The fuzz corpora of every package: testdata/fuzz/<Target>/<file>.
	filepath.WalkDir(moduleRoot, func(p string, de os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if de.IsDir() {
			if n := de.Name(); n == ".git" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Base(filepath.Dir(filepath.Dir(p))) != "fuzz" || filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(p)))) != "testdata" {
			return nil
		}
		rel, _ := filepath.Rel(moduleRoot, p)
		for _, b := range fuzzCorpusFile(t, p) {
			add(filepath.ToSlash(rel), b)
		}
		return nil
	})
	// More corpus directories (a fuzz cache, for example), ':'-separated.
	for _, dir := range filepath.SplitList(os.Getenv("GCF_STRICTNESS_EXTRA")) {
		filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
			if err == nil && !de.IsDir() {
				for _, b := range fuzzCorpusFile(t, p) {
					add(p, b)
				}
			}
			return nil
		})
	}
	// The hostile tables and the fuzz targets' f.Add seeds: every string
	// constant in these files that is a GCF payload.
	for _, pat := range []string{"hostile_test.go", "stream/hostile_test.go", "fuzz/*_test.go", "graph_status_test.go", "trailing_blanks_test.go"} {
		files, _ := filepath.Glob(filepath.Join(moduleRoot, filepath.FromSlash(pat)))
		for _, f := range files {
			rel, _ := filepath.Rel(moduleRoot, f)
			for _, s := range goPayloads(t, f) {
				add(filepath.ToSlash(rel), []byte(s))
			}
		}
	}
	// The conformance payloads FuzzDifferential is seeded with.
	for _, find := range []func() (string, error){conformance.Find, conformance.FindV1} {
		dir, err := find()
		if err != nil || dir == "" {
			continue
		}
		filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
			if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			var f struct {
				Input    json.RawMessage `json:"input"`
				Expected json.RawMessage `json:"expected"`
			}
			if json.Unmarshal(b, &f) != nil {
				return nil
			}
			rel, _ := filepath.Rel(filepath.Dir(dir), p)
			for _, raw := range []json.RawMessage{f.Input, f.Expected} {
				var s string
				if json.Unmarshal(raw, &s) == nil && strings.HasPrefix(s, "GCF") {
					add(filepath.ToSlash(rel), []byte(s))
				}
			}
			return nil
		})
	}
	return out
}

// fuzzCorpusFile returns the []byte and string arguments of a file in Go's
// fuzz corpus format ("go test fuzz v1", then one Go expression a line).
func fuzzCorpusFile(t *testing.T, path string) [][]byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) == 0 || lines[0] != "go test fuzz v1" {
		return nil
	}
	var out [][]byte
	for _, l := range lines[1:] {
		e, err := parser.ParseExpr(l)
		if err != nil {
			continue
		}
		c, ok := e.(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			continue
		}
		lit, ok := c.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		if s, err := strconv.Unquote(lit.Value); err == nil {
			out = append(out, []byte(s))
		}
	}
	return out
}

// goPayloads returns the string constants of a Go file (literals and sums
// of literals) that begin with "GCF".
func goPayloads(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var constant func(e ast.Expr) (string, bool)
	constant = func(e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind != token.STRING {
				return "", false
			}
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		case *ast.ParenExpr:
			return constant(e.X)
		case *ast.BinaryExpr:
			if e.Op != token.ADD {
				return "", false
			}
			a, ok1 := constant(e.X)
			b, ok2 := constant(e.Y)
			return a + b, ok1 && ok2
		}
		return "", false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			if s, ok := constant(b); ok {
				if strings.HasPrefix(s, "GCF") {
					out = append(out, s)
				}
			}
			return false // a part of a sum is not a payload
		}
		if s, ok := constant(e); ok && strings.HasPrefix(s, "GCF") {
			out = append(out, s)
		}
		return true
	})
	return out
}

// decoderFor names the decoder pair an input goes to: "graph", "graph
// delta", "v1 graph", "generic delta", "generic"; "" when the reference has
// no decoder for it (a headerless v1 generic payload).
func decoderFor(b []byte) string {
	line := string(b)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSuffix(line, "\r")
	if !strings.HasPrefix(line, "GCF") {
		return "generic" // both must refuse a payload without a header
	}
	fields := strings.Fields(line[3:])
	profile, delta := "", false
	for _, f := range fields {
		if v, ok := strings.CutPrefix(f, "profile="); ok && profile == "" {
			profile = v
		}
		if f == "delta=true" {
			delta = true
		}
	}
	switch {
	case profile == "" && (line == "GCF" || strings.HasPrefix(line, "GCF ")):
		return "v1 graph"
	case profile == "graph" && delta:
		return "graph delta"
	case profile == "graph":
		return "graph"
	case profile == "generic" && delta:
		return "generic delta"
	}
	return "generic"
}

// ours decodes b with our decoder of that kind and returns the error.
func ours(kind string, b []byte) error {
	var err error
	switch kind {
	case "graph":
		_, err = gcf.Decode(b)
	case "graph delta":
		_, err = gcf.DecodeDelta(b)
	case "v1 graph":
		_, err = gcf.Decode(b, gcf.WithWire(gcf.WireV1))
	case "generic delta":
		_, err = gcf.DecodeGenericDelta(b)
	default:
		_, err = gcf.DecodeGeneric(b)
	}
	return err
}

var refOp = map[string]string{"graph": "d", "graph delta": "dd", "v1 graph": "d", "generic delta": "gdd", "generic": "gd"}

// verdict is one input's outcome on both sides.
type verdict struct {
	Src    string `json:"src"`
	Input  string `json:"input"`
	Kind   string `json:"kind"`
	Ours   string `json:"ours"` // "" when accepted
	Ref    string `json:"ref"`  // "" when accepted
	Class  string `json:"class,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// strictClass is a documented kind of disagreement (docs/interop.md):
// match reports whether a verdict belongs to it.
type strictClass struct {
	name string
	// refLax: the reference accepts, we reject; otherwise the reverse.
	refLax bool
	match  func(v *verdict) bool
}

func TestStrictness(t *testing.T) {
	run := refRunner(t)
	inputs := strictnessInputs(t)
	if len(inputs) < 150 {
		t.Fatalf("only %d inputs gathered; the corpora were not found", len(inputs))
	}
	var vs []verdict
	var reqs []request
	skipped := map[string]int{}
	for _, in := range inputs {
		if !utf8.Valid(in.data) {
			// The reference takes a JavaScript string: it never sees
			// these bytes, only their U+FFFD replacement.
			skipped["invalid UTF-8 (the reference reads a JavaScript string)"]++
			continue
		}
		if len(in.data) > 1<<20 {
			skipped["over 1 MiB"]++
			continue
		}
		kind := decoderFor(in.data)
		v := verdict{Src: in.src, Input: string(in.data), Kind: kind}
		if err := ours(kind, in.data); err != nil {
			v.Ours = err.Error()
		}
		vs = append(vs, v)
		reqs = append(reqs, request{Op: refOp[kind], In: string(in.data)})
	}
	for i, r := range run(reqs) {
		vs[i].Ref = r.Err
	}

	type tally struct{ both, neither, refOnly, oursOnly int }
	byKind := map[string]*tally{}
	classCount := map[string]int{}
	classExample := map[string]*verdict{}
	var unclassified []*verdict
	for i := range vs {
		v := &vs[i]
		tl := byKind[v.Kind]
		if tl == nil {
			tl = &tally{}
			byKind[v.Kind] = tl
		}
		switch {
		case v.Ours == "" && v.Ref == "":
			tl.both++
			continue
		case v.Ours != "" && v.Ref != "":
			tl.neither++
			continue
		case v.Ours != "":
			tl.refOnly++
		default:
			tl.oursOnly++
		}
		for _, c := range strictClasses {
			if c.refLax == (v.Ours != "") && c.match(v) {
				v.Class = c.name
				break
			}
		}
		if v.Class == "" {
			unclassified = append(unclassified, v)
			continue
		}
		classCount[v.Class]++
		if classExample[v.Class] == nil || len(v.Input) < len(classExample[v.Class].Input) {
			classExample[v.Class] = v
		}
	}
	if p := os.Getenv("GCF_STRICTNESS_DUMP"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(f)
		enc.SetEscapeHTML(false)
		for i := range vs {
			enc.Encode(&vs[i])
		}
		f.Close()
	}

	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d inputs (%d compared", len(inputs), len(vs))
	for why, n := range skipped {
		fmt.Fprintf(&sb, "; %d skipped: %s", n, why)
	}
	sb.WriteString(")\n| decoder | inputs | both accept | both reject | reference only accepts | we only accept |\n|---|---:|---:|---:|---:|---:|\n")
	for _, k := range kinds {
		tl := byKind[k]
		fmt.Fprintf(&sb, "| %s | %d | %d | %d | %d | %d |\n", k, tl.both+tl.neither+tl.refOnly+tl.oursOnly, tl.both, tl.neither, tl.refOnly, tl.oursOnly)
	}
	sb.WriteString("\n| class | accepted by | inputs | shortest example |\n|---|---|---:|---|\n")
	for _, c := range strictClasses {
		if n := classCount[c.name]; n > 0 {
			by := "us"
			if c.refLax {
				by = "reference"
			}
			fmt.Fprintf(&sb, "| `%s` | %s | %d | `%q` |\n", c.name, by, n, short(classExample[c.name].Input))
		}
	}
	t.Log("\n" + sb.String())
	for _, v := range unclassified {
		t.Errorf("unclassified disagreement (%s, %s decoder): ours %q, reference %q\ninput: %q", v.Src, v.Kind, v.Ours, v.Ref, short(v.Input))
	}
}

func short(s string) string {
	if len(s) > 160 {
		return s[:160] + "..."
	}
	return s
}

// ourCat is the §16.5 category of our error message ("L:C: category: ...").
func ourCat(v *verdict) string {
	parts := strings.SplitN(v.Ours, ": ", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

func oursSays(cat string, subs ...string) func(v *verdict) bool {
	return func(v *verdict) bool {
		if ourCat(v) != cat {
			return false
		}
		for _, s := range subs {
			if strings.Contains(v.Ours, s) {
				return true
			}
		}
		return len(subs) == 0
	}
}

func anyOf(fs ...func(v *verdict) bool) func(v *verdict) bool {
	return func(v *verdict) bool {
		for _, f := range fs {
			if f(v) {
				return true
			}
		}
		return false
	}
}

// strictClasses are the documented disagreements, first match wins; see
// docs/interop.md ("Where the decoders disagree") for each one's reading of
// the spec. A class is matched by the rule our decoder applies (its
// category and message) or, where we accept, by the input's shape.
var strictClasses = []strictClass{
	// The reference accepts, we reject.
	{"raw-control-in-value", true, oursSays("invalid_escape", "raw control character")},
	{"graph-name-rule", true, func(v *verdict) bool {
		return strings.Contains(v.Ours, "may not hold whitespace or control characters") ||
			strings.Contains(v.Ours, "holds no whitespace or control characters")
	}},
	{"edge-line-fourth-field", true, oursSays("invalid_edge_syntax", "an edge line is @target<@source type [status]")},
	{"header-integer", true, anyOf(
		oursSays("malformed_header_field", "is not a non-negative integer"),
		oursSays("out_of_range", "header field"))},
	{"header-value-control", true, oursSays("malformed_header_field", "holds a control character")},
	{"header-field-not-key-value", true, oursSays("malformed_header_field", "is not key=value")},
	{"profile-not-first", true, oursSays("missing_profile", "must be the header's first field")},
	{"v1-header-without-tool", true, oursSays("missing_profile", "has no tool= field")},
	{"graph-header-counts", true, oursSays("count_mismatch", "header declares")},
	{"graph-group-count", true, oursSays("count_mismatch", "group on line")},
	{"symbol-outside-distance-group", true, oursSays("invalid_node_line", "which has no distance")},
	{"duplicate-summary-field", true, oursSays("invalid_summary", "duplicate summary field")},
	{"keyed-set-rules", true, func(v *verdict) bool {
		keyed := v.Kind == "generic delta" || strings.Contains(strings.SplitN(v.Input, "\n", 2)[0], " key=")
		return keyed && (ourCat(v) == "malformed_delta" || ourCat(v) == "duplicate_key")
	}},
	{"duplicate-header-field", true, oursSays("duplicate_header_field")},
	{"summary-trailer-checked", true, anyOf(
		oursSays("invalid_summary"),
		oursSays("count_mismatch", "summary"))},
	{"text-after-section-header", true, anyOf(
		oursSays("invalid_line", "unexpected text after the count bracket", "expected a count bracket after the"))},
	{"malformed-count-bracket", true, oursSays("invalid_count")},
	{"symbol-id-sequence", true, oursSays("invalid_symbol_id", "is not the next sequential id")},
	{"row-id-sequence", true, oursSays("invalid_item_id", "does not equal its index")},
	{"node-line-fields", true, anyOf(
		oursSays("invalid_node_line", "a node line has exactly 5 fields"),
		oursSays("invalid_score"))},
	// We accept, the reference rejects.
	{"keyed-set-in-decodeGeneric", false, func(v *verdict) bool {
		return strings.HasPrefix(v.Ref, "invalid field name: @")
	}},
	{"spec-v3.6-constant-column", false, func(v *verdict) bool {
		// The reference bundle (2.6.1) reads spec v3.5.3; a v3.6.0
		// constant column (§7.4.7, name=value in the declaration) is
		// an invalid field name to it.
		name, ok := strings.CutPrefix(v.Ref, "invalid field name: ")
		return ok && strings.Contains(name, "=")
	}},
	{"gt-attachment-after-row-without-id", false, func(v *verdict) bool {
		return strings.HasPrefix(v.Ref, "count_mismatch") && strings.Contains(v.Input, "\n.\"")
	}},
	{"trailing-blank-after-marker", false, func(v *verdict) bool {
		return strings.HasPrefix(v.Ref, "orphan_attachment") && (strings.Contains(v.Input, "^ \n") || strings.Contains(v.Input, "^\t\n"))
	}},
	{"session-reference-in-decode", false, func(v *verdict) bool {
		return strings.Contains(v.Ref, "symbol line needs at least 5 fields") && strings.Contains(v.Input, "# previously transmitted")
	}},
}

// specLiberty names the mutations whose variants the spec makes valid
// wherever the original was: a refusal of ours there is a bug.
var specLiberty = map[string]bool{
	"CRLF line ends": true, "blank line after every line": true, "comment after the header": true,
	"no final newline": true, "trailing space on every line": true, "trailing tab on every line": true,
	"spaces around |": true,
}

// strictMutations turn a payload both decoders accept into a valid-looking
// variant: the whitespace, line-end, blank-line and comment liberties a
// hand-edited or foreign payload takes.
var strictMutations = []struct {
	name string
	f    func(header, body string) string
}{
	{"CRLF line ends", func(h, b string) string { return strings.ReplaceAll(h+b, "\n", "\r\n") }},
	{"blank line after every line", func(h, b string) string { return h + strings.ReplaceAll(b, "\n", "\n\n") }},
	{"comment after the header", func(h, b string) string {
		if !strings.HasSuffix(h, "\n") {
			return h + b // a header alone: nothing to put a comment after
		}
		return h + "# note\n" + b
	}},
	{"no final newline", func(h, b string) string { return strings.TrimSuffix(h+b, "\n") }},
	{"trailing space on every line", func(h, b string) string { return strings.ReplaceAll(h+b, "\n", " \n") }},
	{"trailing tab on every line", func(h, b string) string { return strings.ReplaceAll(h+b, "\n", "\t\n") }},
	{"spaces around |", func(h, b string) string { return h + strings.ReplaceAll(b, "|", " | ") }},
	{"space after ,", func(h, b string) string { return h + strings.ReplaceAll(b, ",", ", ") }},
	{"spaces around =", func(h, b string) string { return h + strings.ReplaceAll(b, "=", " = ") }},
}

// TestStrictnessMutations applies each of strictMutations to every corpus
// payload both decoders accept and logs, per mutation, how often each side
// alone accepts the variant, with an example per (mutation, side,
// category): the table behind docs/interop.md's "Valid-looking variants".
// It fails where a liberty the spec grants (line ends, blank lines,
// comments, trailing blanks, blanks around `|`; SPEC §4.2, §11, §16.5) is
// accepted by the reference and refused by us, the payload's own bytes
// aside (a payload that already holds a carriage return).
func TestStrictnessMutations(t *testing.T) {
	run := refRunner(t)
	var vs []verdict
	var reqs []request
	for _, in := range strictnessInputs(t) {
		if !utf8.Valid(in.data) || len(in.data) > 1<<20 {
			continue
		}
		kind := decoderFor(in.data)
		if ours(kind, in.data) != nil {
			continue
		}
		s := string(in.data)
		h, b := s, ""
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			h, b = s[:i+1], s[i+1:]
		}
		for _, m := range strictMutations {
			x := m.f(h, b)
			if x == s {
				continue
			}
			v := verdict{Src: m.name, Input: x, Kind: kind}
			if err := ours(kind, []byte(x)); err != nil {
				v.Ours = err.Error()
			}
			vs = append(vs, v)
			reqs = append(reqs, request{Op: refOp[kind], In: x})
		}
	}
	refRes := run(reqs)
	type key struct{ mut, side, cat string }
	count := map[key]int{}
	example := map[key]*verdict{}
	for i := range vs {
		v := &vs[i]
		v.Ref = refRes[i].Err
		if (v.Ours == "") == (v.Ref == "") {
			continue
		}
		if v.Ours != "" && specLiberty[v.Src] && !strings.Contains(strings.ReplaceAll(v.Input, "\r\n", ""), "\r") {
			t.Errorf("%s: the reference accepts, we refuse (%s): %q", v.Src, v.Ours, short(v.Input))
		}
		k := key{v.Src, "reference only", ourCat(v)}
		if v.Ours == "" {
			cat, _, _ := strings.Cut(v.Ref, ":")
			k = key{v.Src, "us only", cat}
		}
		count[k]++
		if example[k] == nil || len(v.Input) < len(example[k].Input) {
			example[k] = v
		}
	}
	keys := make([]key, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.mut != b.mut {
			return a.mut < b.mut
		}
		if a.side != b.side {
			return a.side < b.side
		}
		return a.cat < b.cat
	})
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d variants\n| mutation | accepted by | rejecting side's category | variants | shortest example |\n|---|---|---|---:|---|\n", len(vs))
	for _, k := range keys {
		v := example[k]
		fmt.Fprintf(&sb, "| %s | %s | %s | %d | `%q` |\n", k.mut, k.side, k.cat, count[k], short(v.Input))
	}
	t.Log("\n" + sb.String())
}
