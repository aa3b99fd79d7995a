package gcf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wordingCase is a generic delta that the apply step (or, for notDelta,
// the decoder) refuses for a reason SPEC §16.5 has no category for: the
// conformance suite matches these by a phrase of the reference SDK's
// message, so ours carries that phrase beside our category.
type wordingCase struct {
	name, wire string
	cat        Category
	phrase     string // the reference SDK's message, less its "category: " prefix
}

func wordingCases(t *testing.T) (*Table, []wordingCase) {
	base := &Table{Name: "rows", Key: "id", Fields: []string{"id", "total"},
		Rows: [][]any{{int64(1001), int64(1)}, {int64(1002), int64(2)}, {"x", int64(3)}}}
	root := mustRoot(t, base)
	hdr := "GCF profile=generic delta=true base_root=" + root + " new_root=sha256:00 key=id\n"
	const computed = "sha256:49e3dfb8a34b197fa9e7c0ce62a59903cff139ee27825bc29dad79fa475d6a81"
	return base, []wordingCase{
		{"base root", strings.Replace(hdr, root, "sha256:11", 1) + "## removed [1]{@id}\n1001\n", RootMismatch,
			"base root does not equal delta base_root"},
		{"removed absent", hdr + "## removed [1]{@id}\n9999\n", MalformedDelta, "removing identity 9999 not in base"},
		{"removed absent, a string", hdr + "## removed [1]{@id}\n\"1001\"\n", MalformedDelta, `removing identity "1001" not in base`},
		{"added present", hdr + "## added [1]{@id,total}\n1002|5\n", MalformedDelta, "adding identity 1002 that already exists"},
		{"added present, as 1002.0", hdr + "## added [1]{@id,total}\n1002.0|5\n", MalformedDelta, "adding identity 1002 that already exists"},
		{"added present, a string", hdr + "## added [1]{@id,total}\nx|5\n", MalformedDelta, `adding identity "x" that already exists`},
		{"changed absent", hdr + "## changed [1]{@id,total}\n9999|5\n", MalformedDelta, "changing identity 9999 not in base"},
		{"changed absent, a string", hdr + "## changed [1]{@id,total}\n\"1001\"|5\n", MalformedDelta, `changing identity "1001" not in base`},
		{"new root", hdr + "## changed [1]{@id,total}\n1001|5\n", RootMismatch, "computed " + computed + ", expected sha256:00"},
		{"not a delta", "GCF profile=generic key=id\n## removed [1]{@id}\n1001\n", MalformedDelta, "not a delta payload"},
	}
}

// applyWire decodes a delta and applies it to base, returning the first
// error.
func applyWire(base *Table, wire string) error {
	d, err := DecodeGenericDelta([]byte(wire))
	if err != nil {
		return err
	}
	_, err = ApplyGenericDelta(base, d)
	return err
}

// TestGenericDeltaWording: each refusal keeps our category and carries the
// reference SDK's phrase (an added identity already in the base "already
// exists", ...).
func TestGenericDeltaWording(t *testing.T) {
	base, cases := wordingCases(t)
	for _, c := range cases {
		err := applyWire(base, c.wire)
		if CategoryOf(err) != c.cat || !strings.Contains(fmt.Sprint(err), c.phrase) {
			t.Errorf("%s: %v (category %s); want %s with %q", c.name, err, CategoryOf(err), c.cat, c.phrase)
		}
	}
}

// wordingScript decodes each wire with the reference SDK, verifies it
// against the base, and prints the message of the failure.
const wordingScript = `
import * as G from %q;
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const c = JSON.parse(input);
  const out = c.wires.map(w => {
    try {
      const d = G.decodeGenericDelta(w);
      G.verifyGenericDelta(c.base, d, d.newRoot);
      return '';
    } catch (e) { return e.message; }
  });
  process.stdout.write(JSON.stringify(out));
});
`

// TestGenericDeltaWordingMatchesReferenceSDK runs the same cases through
// the reference SDK (node) and requires that each of our messages contain
// its message, less the SDK's category prefix (delta_invalid,
// base_mismatch, root_mismatch: names §16.5 does not have).
func TestGenericDeltaWordingMatchesReferenceSDK(t *testing.T) {
	node, module := peerModule(t)
	base, cases := wordingCases(t)
	wires := make([]string, len(cases))
	for i, c := range cases {
		wires[i] = c.wire
	}
	in, err := json.Marshal(map[string]any{"base": tableJSON(base), "wires": wires})
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "wording.mjs")
	u := url.URL{Scheme: "file", Path: module}
	if err := os.WriteFile(script, []byte(fmt.Sprintf(wordingScript, u.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var msgs []string
	if err := json.Unmarshal(out, &msgs); err != nil || len(msgs) != len(cases) {
		t.Fatalf("SDK answered %q (%v)", out, err)
	}
	for i, c := range cases {
		ref := msgs[i]
		if ref == "" {
			t.Errorf("%s: the SDK accepts the delta", c.name)
			continue
		}
		if k := strings.Index(ref, ": "); k > 0 && !strings.Contains(ref[:k], " ") {
			ref = ref[k+2:]
		}
		if err := applyWire(base, c.wire); !strings.Contains(fmt.Sprint(err), ref) {
			t.Errorf("%s: ours %q does not contain the SDK's %q", c.name, err, ref)
		}
		if ref != c.phrase {
			t.Errorf("%s: the SDK says %q, the case expects %q", c.name, ref, c.phrase)
		}
	}
}

// graphWordingCases are graph deltas ApplyDelta refuses, with the
// reference SDK's phrase (its verifyDelta's message, less the prefix).
func graphWordingCases() []struct {
	name   string
	d      *DeltaPayload
	cat    Category
	phrase string
} {
	mk := func(f func(d *DeltaPayload)) *DeltaPayload {
		d := deltaTestDelta()
		d.BaseRoot, d.NewRoot = "", ""
		f(d)
		return d
	}
	return []struct {
		name   string
		d      *DeltaPayload
		cat    Category
		phrase string
	}{
		{"remove absent symbol", mk(func(d *DeltaPayload) {
			d.Removed = append(d.Removed, Symbol{QualifiedName: "pkg.Nope", Kind: "function"})
		}), MalformedDelta, "removing symbol function pkg.Nope that does not exist in base"},
		{"remove twice", mk(func(d *DeltaPayload) { d.Removed = append(d.Removed, d.Removed[0]) }),
			MalformedDelta, "removing symbol function pkg.Server that does not exist in base"},
		{"add present symbol", mk(func(d *DeltaPayload) {
			d.Added = append(d.Added, Symbol{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.1, Provenance: "x"})
		}), MalformedDelta, "adding symbol function pkg.Auth that already exists"},
		{"add twice", mk(func(d *DeltaPayload) { d.Added = append(d.Added, d.Added[0]) }),
			MalformedDelta, "adding symbol function pkg.Handler that already exists"},
		{"remove absent edge", mk(func(d *DeltaPayload) { d.RemovedEdges[0].EdgeType = "imports" }),
			MalformedDelta, "removing edge pkg.Server -> pkg.Auth imports that does not exist"},
		{"add present edge", mk(func(d *DeltaPayload) {
			d.RemovedEdges, d.Removed = []Edge{}, []Symbol{}
			d.AddedEdges = []Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}}
		}), MalformedDelta, "adding edge pkg.Server -> pkg.Auth calls that already exists"},
		{"new root", mk(func(d *DeltaPayload) { d.NewRoot = "sha256:00" }), RootMismatch,
			"computed sha256:209fa026484529cc94ab00667a30bfa2951cb66e4bfeb237bbd528a9c640513d, expected sha256:00"},
	}
}

// TestGraphDeltaWording: ApplyDelta's refusals carry the reference SDK's
// phrases too.
func TestGraphDeltaWording(t *testing.T) {
	for _, c := range graphWordingCases() {
		_, err := ApplyDelta(deltaTestBase(), c.d)
		if CategoryOf(err) != c.cat || !strings.Contains(fmt.Sprint(err), c.phrase) {
			t.Errorf("%s: %v; want %s with %q", c.name, err, c.cat, c.phrase)
		}
	}
}

const graphWordingScript = `
import * as G from %q;
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const c = JSON.parse(input);
  const out = c.deltas.map(d => {
    try {
      G.verifyDelta(c.base.symbols, c.base.edges, d.removed, d.added, d.removedEdges, d.addedEdges, d.newRoot);
      return '';
    } catch (e) { return e.message; }
  });
  process.stdout.write(JSON.stringify(out));
});
`

// TestGraphDeltaWordingMatchesReferenceSDK checks the phrases against the
// reference SDK's verifyDelta (node).
func TestGraphDeltaWordingMatchesReferenceSDK(t *testing.T) {
	node, module := peerModule(t)
	cases := graphWordingCases()
	var deltas []map[string]any
	for _, c := range cases {
		deltas = append(deltas, map[string]any{"removed": c.d.Removed, "added": c.d.Added,
			"removedEdges": c.d.RemovedEdges, "addedEdges": c.d.AddedEdges, "newRoot": c.d.NewRoot})
	}
	in, err := json.Marshal(map[string]any{"base": deltaTestBase(), "deltas": deltas})
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "graph-wording.mjs")
	u := url.URL{Scheme: "file", Path: module}
	if err := os.WriteFile(script, []byte(fmt.Sprintf(graphWordingScript, u.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var msgs []string
	if err := json.Unmarshal(out, &msgs); err != nil || len(msgs) != len(cases) {
		t.Fatalf("SDK answered %q (%v)", out, err)
	}
	for i, c := range cases {
		ref := msgs[i]
		if k := strings.Index(ref, ": "); k > 0 && !strings.Contains(ref[:k], " ") {
			ref = ref[k+2:]
		}
		if ref != c.phrase {
			t.Errorf("%s: the SDK says %q, the case expects %q", c.name, msgs[i], c.phrase)
		}
	}
}

// Fixture graph-delta/002 as a model: remove Server, add Handler, move the edge.
func deltaTestBase() *Payload {
	return &Payload{
		Tool: "test",
		Symbols: []Symbol{
			{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.78, Provenance: "lsp_resolved", Distance: 0,
				Components: &Components{BlastRadius: 1, Confidence: 0.5}},
			{QualifiedName: "pkg.Server", Kind: "function", Score: 0.54, Provenance: "lsp_resolved", Distance: 1},
		},
		Edges: []Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}},
	}
}

func deltaTestDelta() *DeltaPayload {
	return &DeltaPayload{
		Tool:         "test",
		BaseRoot:     "sha256:8e6d32973b4005c604399a14faa32799d54f427800008312a3357c349d41e572",
		NewRoot:      "sha256:209fa026484529cc94ab00667a30bfa2951cb66e4bfeb237bbd528a9c640513d",
		Removed:      []Symbol{{QualifiedName: "pkg.Server", Kind: "function"}},
		Added:        []Symbol{{QualifiedName: "pkg.Handler", Kind: "function", Score: 0.85, Provenance: "lsp_resolved", Distance: 1}},
		RemovedEdges: []Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}},
		AddedEdges:   []Edge{{Source: "pkg.Handler", Target: "pkg.Auth", EdgeType: "calls"}},
	}
}
