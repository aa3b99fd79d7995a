package interop

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// targetDocs returns the targeted shapes of the issue as JSON texts: record
// arrays whose rows hold arrays of objects or nested objects, with first
// rows that are absent, null, [], primitive or of another schema; keys that
// are '>', empty, '^', '@', '#' or prototype names; numbers at the edges;
// unicode, combining marks included; and the GitHub-issues response.
func targetDocs() []string {
	var docs []string
	add := func(s string) { docs = append(docs, s) }

	// A field of a record array: every first value against every later one,
	// as a plain array, a keyed map, and inside an attachment.
	vals := []string{"", "null", "[]", "[1,2]", "5", `"s"`, `{"x":1}`, `{"x":1,"y":2,"z":3}`, `[{"b":1}]`, `[{"a":1}]`,
		`[{"a":1},{"a":2}]`, `[{"a":1,"b":[1]}]`, `[{"a":{"p":1}}]`, `[{}]`, `[1,{"a":1}]`, `[[1]]`, `[{"a":1},{}]`, `[{"a":1,"k>":2}]`}
	row := func(id int, v string) string {
		if v == "" {
			return `{"id":` + strconv.Itoa(id) + `}`
		}
		return `{"id":` + strconv.Itoa(id) + `,"f":` + v + `}`
	}
	for _, a := range vals {
		for _, b := range vals {
			rows := "[" + row(0, a) + "," + row(1, b) + "," + row(2, b) + "]"
			add(rows)
			add(`{"k0":` + row(0, a) + `,"k1":` + row(1, b) + `}`)
			add(`[{"rows":` + rows + `},{"rows":` + rows + `}]`)
		}
	}

	// Keys.
	keys := []string{">", "", "^", "@", "#", "##", "##!", ".", "~", "-", "=", "a>b", ">a", "a>", "a>>b", "|", ",", "{}", "[1]",
		"__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "é", "e\u0301", "日本", "with space", "1", "true"}
	for _, k := range keys {
		q := strconv.Quote(k)
		for _, s := range []string{`{K:1}`, `{K:[1]}`, `{K:{K:1}}`, `{K:[]}`, `[{K:1},{K:2}]`, `[{"a":{K:1,"b":2}}]`,
			`[{"a":{K:1,"b":2,"c":3}},{"a":{K:4,"b":5,"c":6}}]`, `[{"a":{K:1,"b":2,"c":3}},{"a":null},{"b":1}]`, `[{"a":[{K:1}]},{"a":[{K:2}]}]`, `[{K:[{"x":1}]},{K:[{"x":2}]}]`,
			`{"o":{K:{"x":1},"p":{"x":2}}}`, `[{"id":1,K:{"x":1}},{"id":2}]`, `{K:[1],"a":1}`} {
			add(strings.ReplaceAll(s, "K", q))
		}
	}

	// Numbers at the edges, in every context.
	nums := []string{"0", "-0", "0.0", "-0.0", "1e308", "-1e-308", "5e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
		"9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993", "9223372036854775807",
		"-9223372036854775808", "1e21", "1E+2", "1.5e-7", "1e-6", "0.000001", "123456789012345678", "0.1", "1.0", "1e0",
		"9007199254740992.0", "1e16", "4503599627370496.5", "-1.5", "100"}
	for _, n := range nums {
		add(`{"v":` + n + `}`)
		add(`[` + n + `,` + n + `]`)
		add(`[{"v":` + n + `},{"v":` + n + `,"w":[` + n + `]}]`)
		add(`{"a":{"v":` + n + `},"b":{"v":1}}`)
	}

	// Unicode and strings that need quoting.
	strs := []string{"e\u0301", "\u0915\u094d\u0937", "a\u0308", "🙂", "👩\u200d💻", "\u00a0", "\u2028", "\ufeff", "\u0085", "x\u0301|y",
		"日本語", "-", "~", "^", "^{a}", "@0", "#", ".x", "1.٥", "١", "", " ", "\n", "\t", "\"", "\\", "[1]: x", "a,b", "a|b"}
	for _, s := range strs {
		q := strconv.Quote(s)
		add(`{"v":` + q + `}`)
		add(`[` + q + `,` + q + `]`)
		add(`[{"v":` + q + `},{"v":1}]`)
		add(`{` + q + `:1}`)
		add(`[{` + q + `:1,"b":{` + q + `:2}}]`)
	}

	// A '>'-named field beside a flattened path column of the same name
	// (found by the 100,000-document run).
	add(`[{"a":{"b":1},"a>b":[]},{"a":{"b":2}}]`)
	add(`[{"a":{"b":1},"a>b":{"c":[1]}},{"a":{"b":2},"a>b":null}]`)

	add(githubIssues)
	return docs
}

// githubIssues is a GitHub REST "list issues" response, trimmed: the first
// issue has "assignees": [] and the later ones have assignees, labels and
// milestones (the document the issue reports as not decoding).
const githubIssues = `[
 {"id":1001,"number":1,"title":"Crash on start","state":"open","user":{"login":"alice","id":11,"site_admin":false},
  "labels":[],"assignees":[],"milestone":null,"comments":0,"created_at":"2026-11-01T10:00:00Z","body":null},
 {"id":1002,"number":2,"title":"Docs: typo in README","state":"open","user":{"login":"bob","id":12,"site_admin":false},
  "labels":[{"id":7,"name":"docs","color":"0075ca","default":true}],
  "assignees":[{"login":"carol","id":13,"site_admin":false},{"login":"dave","id":14,"site_admin":true}],
  "milestone":{"id":3,"number":1,"title":"v1.0","state":"open","due_on":null},"comments":2,
  "created_at":"2026-11-02T11:00:00Z","body":"See line 3 | and ` + "`x`" + `"},
 {"id":1003,"number":3,"title":"Add ` + "`--json`" + ` flag","state":"closed","user":{"login":"carol","id":13,"site_admin":false},
  "labels":[{"id":8,"name":"enhancement","color":"a2eeef","default":false},{"id":9,"name":"good first issue","color":"7057ff","default":true}],
  "assignees":[{"login":"alice","id":11,"site_admin":false}],
  "milestone":{"id":3,"number":1,"title":"v1.0","state":"open","due_on":"2026-12-01T00:00:00Z"},"comments":5,
  "created_at":"2026-11-03T12:00:00Z","body":"- [ ] tests\n- [x] code"}
]`

func parseDocs(t *testing.T, texts []string) []any {
	docs := make([]any, 0, len(texts))
	for _, s := range texts {
		v, err := gcf.ParseJSON([]byte(s))
		if err != nil {
			t.Fatalf("target %s: %v", s, err)
		}
		docs = append(docs, v)
	}
	return docs
}

// TestInteropTargets: the targeted shapes, both directions. Every
// difference must have a class; decode failures only reference defects.
func TestInteropTargets(t *testing.T) {
	run := refRunner(t)
	docs := parseDocs(t, targetDocs())
	res := runDocs(t, run, docs)
	tl := classify(res)
	tl.report(t, "targets")
	checkTargets(t, "targets", tl, 0)
}

// TestGitHubIssues: the GitHub-issues response decodes on both sides to
// the document, and both SDKs write the same bytes.
func TestGitHubIssues(t *testing.T) {
	run := refRunner(t)
	res := runDocs(t, run, parseDocs(t, []string{githubIssues}))
	r := res[0]
	if r.oursErr != nil || r.refErr != "" {
		t.Fatalf("encode: ours %v, reference %s", r.oursErr, r.refErr)
	}
	if r.flags&failA != 0 {
		t.Errorf("the reference does not decode our encoding: %s\n%s", r.aErr, r.ours)
	}
	if r.flags&failB != 0 {
		t.Errorf("we do not decode the reference's encoding: %s\n%s", r.bErr, r.ref)
	}
	if r.ours != r.ref {
		t.Errorf("encodings differ:\nours:\n%s\nreference:\n%s", r.ours, r.ref)
	}
	t.Logf("both SDKs:\n%s", r.ours)
}

// TestInteropCorpus: the tool-result-shaped documents of testdata/corpus
// (tables, nested orders, GitHub issues, a Deployment, a config, OpenAPI, a
// code graph, log events), both directions.
func TestInteropCorpus(t *testing.T) {
	run := refRunner(t)
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.json"))
	if len(paths) == 0 {
		t.Skip("interop: no documents in ../testdata/corpus")
	}
	var texts []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	res := runDocs(t, run, parseDocs(t, texts))
	for i, r := range res {
		t.Logf("corpus %s: flags [%s]", filepath.Base(paths[i]), flagNames(r.flags))
	}
	tl := classify(res)
	tl.report(t, "corpus")
	checkTargets(t, "corpus", tl, 0)
}
