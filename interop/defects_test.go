package interop

import (
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// TestReferenceDefects pins the reference SDK's defects documented in
// docs/interop.md: each case asserts that the reference still misbehaves
// (so that a fixed reference fails this test, and the class and its
// documentation can go) and that our side is right.
func TestReferenceDefects(t *testing.T) {
	run := refRunner(t)
	type defect struct {
		name string
		json string
		// check gets the result and the reference's decoding of its own
		// encoding (as JSON text, members in order, or "error: ..."), and
		// reports whether the reference still misbehaves.
		check func(r *result, self string) bool
	}
	cases := []defect{
		{"§7.4.6.2 rule 1: prototype-named key in a flattened path", `[{"a":{"constructor":1,"b":2}}]`,
			func(r *result, self string) bool { return r.flags&failA != 0 }},
		{"§7.4.6.2 rule 1: __proto__ field", `[{"__proto__":{"a":1}}]`,
			func(r *result, self string) bool { return self != `[{"__proto__":{"a":1}}]` }},
		{"§7.4.5.3: expanded body after a row-0 schema, @0 {} item", `[{"a":[{"a":1}]},{"a":[{}]}]`,
			func(r *result, self string) bool {
				return strings.Contains(r.ref, "@1 ^\n.a [1]\n    @0 {}\n") && r.flags&failB != 0
			}},
		{"§7.4.5.3: expanded body after a row-0 schema, mixed items", `[{"a":[{"x":1}]},{"a":[1,[2]]}]`,
			func(r *result, self string) bool {
				return strings.Contains(r.ref, "@1 ^\n.a [2]\n    @0 =1\n") && r.flags&failB != 0
			}},
		{"§7.4.6.2 rule 5, §7.4.6.3: all-null nested object flattened", `[{"a":{"a":{"a":null},"b":{"a":1}}}]`,
			func(r *result, self string) bool {
				return strings.Contains(r.ref, `{"a>a>a","a>b>a"}`+"\n-|1\n") && r.flags&failB != 0
			}},
		{"§7.4.6.1 rule 1: nested objects with different key order flattened", `[{"a":{"x":1,"y":2}},{"a":{"y":3,"x":4}}]`,
			func(r *result, self string) bool {
				return strings.Contains(r.ref, `{"a>x","a>y"}`) && self == `[{"a":{"x":1,"y":2}},{"a":{"x":4,"y":3}}]`
			}},
		{"invalid output: '>' key in arrays under a shared schema", `[{"a":[{"k":1,">":1}]},{"a":[{"k":1,">":1}]}]`,
			func(r *result, self string) bool {
				return strings.Contains(r.ref, "@1 ^\n.a [1]\n    1|1\n") && r.flags&failB != 0 && strings.HasPrefix(self, "error:")
			}},
		{"flattening declined when a nested member repeats the field name", `[{"b":{"k0":{"b":null,"m":{"s":1}},"k1":{"b":"x"}}}]`,
			func(r *result, self string) bool {
				return strings.Contains(r.ref, ".b [2:]{key,b,\"m>s\"}") && r.flags == diffBytes
			}},
	}
	docs := make([]string, len(cases))
	for i, c := range cases {
		docs[i] = c.json
	}
	res := runDocs(t, run, parseDocs(t, docs))
	self := refSelf(t, run, res)
	for i, c := range cases {
		r := &res[i]
		if r.oursErr != nil || r.refErr != "" {
			t.Errorf("%s: encode: ours %v, reference %s", c.name, r.oursErr, r.refErr)
			continue
		}
		// Our side: our encoding decodes, in our decoder, to the document.
		if v, err := gcf.DecodeGeneric([]byte(r.ours)); err != nil || !equal(r.doc, v) {
			t.Errorf("%s: our encoding does not decode to the document (%v):\n%s", c.name, err, r.ours)
		}
		if !c.check(r, self[i]) {
			t.Errorf("%s: the reference no longer misbehaves as docs/interop.md says; update the doc and the classes.\n json: %s\n reference: %q\n its own decoding: %s\n ours: %q\n A: %s\n B: %s",
				c.name, c.json, r.ref, self[i], r.ours, r.aErr, r.bErr)
		}
	}

	// Inputs our ParseJSON refuses, so they go to the reference alone.
	raw := run([]request{
		{Op: "ge", In: `{"v":5.218197e+309}`},
		{Op: "ge", In: `{"a":"\ud800"}`},
	})
	// §2.3: a number beyond binary64 becomes Infinity, a bare string.
	if raw[0].Out != "GCF profile=generic\nv=Infinity\n" {
		t.Errorf("§2.3 Infinity: the reference no longer writes v=Infinity: %q %s", raw[0].Out, raw[0].Err)
	}
	if _, err := gcf.ParseJSON([]byte(`{"v":5.218197e+309}`)); gcf.CategoryOf(err) != gcf.OutOfRange {
		t.Errorf("§2.3 Infinity: ParseJSON: %v, want out_of_range", err)
	}
	// §2.2: a lone surrogate escape in JSON is written as a literal lone
	// surrogate (U+FFFD once the response is UTF-8); we refuse the input.
	if raw[1].Out != "GCF profile=generic\na=\ufffd\n" {
		t.Errorf("§2.2 lone surrogate: the reference no longer writes it literally: %q %s", raw[1].Out, raw[1].Err)
	}
	if _, err := gcf.ParseJSON([]byte(`{"a":"\ud800"}`)); gcf.CategoryOf(err) != gcf.InvalidSurrogate {
		t.Errorf("§2.2 lone surrogate: ParseJSON: %v, want invalid_surrogate", err)
	}

	// §7.3, §7.4.5.3 rule 1: rows of a shared-schema body that carry a row
	// id (they have attachments) are read by the reference as an expanded
	// body. The payload is valid; we write a complete declaration there
	// instead, so the reference meets it only from other encoders.
	const atRows = "GCF profile=generic\n## [2]{rows}\n@0 ^\n.rows [1]{id,a}\n    @0 0|^\n    .a [0]\n@1 ^\n.rows [1]\n    @0 0|^\n    .a [0]\n"
	const atRowsJSON = `[{"rows":[{"id":0,"a":[]}]},{"rows":[{"id":0,"a":[]}]}]`
	want, _ := gcf.ParseJSON([]byte(atRowsJSON))
	if v, err := gcf.DecodeGeneric([]byte(atRows)); err != nil || !equal(want, v) {
		t.Errorf("§7.4.5.3 @ rows: we do not decode the payload (%v)", err)
	}
	d := run([]request{{Op: "gd", In: atRows}})[0]
	if d.Err == "" && d.Out == atRowsJSON {
		t.Errorf("§7.4.5.3 @ rows: the reference now decodes the payload; update docs/interop.md")
	}
}

// refSelf returns the reference's decoding of its own encoding of each
// result, as JSON text, or "error: " and the message.
func refSelf(t *testing.T, run func([]request) []response, res []result) []string {
	reqs := make([]request, len(res))
	for i, r := range res {
		reqs[i] = request{Op: "gd", In: r.ref}
	}
	out := make([]string, len(res))
	for i, d := range run(reqs) {
		if d.Err != "" {
			out[i] = "error: " + d.Err
		} else {
			out[i] = d.Out
		}
	}
	return out
}

// TestReferenceDefectsGraph pins the reference's graph-profile deviations
// (docs/interop.md): in a session it keeps the input order of symbols
// instead of ordering them by score within each distance group (SPEC
// §16.1), and a delta header carries tokens=0 savings=0% when no sizes are
// given (SPEC §16.1: a zero-valued field is never emitted).
func TestReferenceDefectsGraph(t *testing.T) {
	run := refRunner(t)
	p := &gcf.Payload{Tool: "t", Edges: []gcf.Edge{}, Symbols: []gcf.Symbol{
		{QualifiedName: "a.Low", Kind: "function", Score: 0.2, Provenance: "lsp"},
		{QualifiedName: "a.High", Kind: "function", Score: 0.9, Provenance: "lsp"},
	}}
	ours, err := gcf.EncodeWithSession(p, gcf.NewSession(), forBundle)
	if err != nil {
		t.Fatal(err)
	}
	d := &gcf.DeltaPayload{Tool: "t", BaseRoot: "b", NewRoot: "n", Removed: []gcf.Symbol{},
		Added:        []gcf.Symbol{{QualifiedName: "a.X", Kind: "function", Score: 0.5, Provenance: "lsp"}},
		RemovedEdges: []gcf.Edge{}, AddedEdges: []gcf.Edge{}}
	oursDelta, err := gcf.EncodeDelta(d, forBundle)
	if err != nil {
		t.Fatal(err)
	}
	res := run([]request{{Op: "se", In: mustJSON(t, []*gcf.Payload{p})}, {Op: "de", In: mustJSON(t, d)}})
	if want := "## targets\n@0 fn a.High 0.90 lsp\n@1 fn a.Low 0.20 lsp\n"; !strings.Contains(string(ours), want) {
		t.Errorf("our session encoding does not order by score:\n%s", ours)
	}
	if len(res[0].Outs) != 1 || !strings.Contains(res[0].Outs[0], "## targets\n@0 fn a.Low 0.20 lsp\n@1 fn a.High 0.90 lsp\n") {
		t.Errorf("session order: the reference now orders symbols by score (%q %s); update docs/interop.md", res[0].Outs, res[0].Err)
	}
	if strings.Contains(string(oursDelta), "tokens=") {
		t.Errorf("our delta header carries a zero tokens field:\n%s", oursDelta)
	}
	if !strings.Contains(res[1].Out, " tokens=0 savings=0%\n") {
		t.Errorf("delta header: the reference no longer writes tokens=0 savings=0%% (%q %s); update docs/interop.md", res[1].Out, res[1].Err)
	}
}
