package interop

import (
	"testing"

	"github.com/gcfkit/gcf"
)

// TestInteropSmallest: the Smallest size (gcf.WithSize(gcf.Smallest),
// priced by its default estimate) through the reference SDK's decoder, on
// the random documents of the gate: every one decodes there to the
// document. Only this direction applies: the reference writes canonical
// GCF only.
func TestInteropSmallest(t *testing.T) {
	run := refRunner(t)
	total := min(docCount(t), 5000)
	g := newGen(18)
	docs := make([]any, 0, total)
	reqs := make([]request, 0, total)
	for len(docs) < total {
		d := g.document()
		out, err := gcf.EncodeGeneric(d, gcf.WithSize(gcf.Smallest), gcf.WithSpec(gcf.Spec353)) // the bundle reads v3.5.3 only
		if err != nil {
			if _, cerr := gcf.EncodeGeneric(d, gcf.WithSpec(gcf.Spec353)); cerr == nil {
				t.Fatalf("Smallest refuses what canonical encodes: %v", err)
			}
			continue
		}
		docs = append(docs, d)
		reqs = append(reqs, request{Op: "gd", In: string(out)})
	}
	resps := run(reqs)
	bad, defects := 0, map[string]int{}
	for i, r := range resps {
		ok := r.Err == ""
		if ok {
			v, err := gcf.ParseJSON([]byte(r.Out))
			ok = err == nil && equal(docs[i], v)
		}
		if !ok {
			// A known reference defect (classes_test.go) is counted, not failed.
			if c := classOf(docs[i], failA); c != nil && c.defect {
				defects[c.name]++
				continue
			}
		}
		if ok {
			continue
		}
		if r.Err != "" {
			bad++
			if bad <= 5 {
				t.Errorf("doc %d: the reference rejects the Smallest encoding: %s\n%s", i, r.Err, reqs[i].In)
			}
			continue
		}
		v, err := gcf.ParseJSON([]byte(r.Out))
		if err != nil || !equal(docs[i], v) {
			bad++
			if bad <= 5 {
				j, _ := gcf.ToJSON(docs[i])
				t.Errorf("doc %d: the reference decodes the Smallest encoding to %s, not %s (%v)\n%s", i, r.Out, j, err, reqs[i].In)
			}
		}
	}
	known := 0
	for _, n := range defects {
		known += n
	}
	t.Logf("smallest: %d documents through the reference decoder; %d fail only in known reference-defect classes %v; %d fail otherwise", len(docs), known, defects, bad)
}
