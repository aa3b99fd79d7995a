package interop

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/stream"
)

// forBundle is the option of every encoding the gate gives the reference
// bundle: gcf-typescript 2.6.1 reads spec v3.5.3 only, so our encoders
// write v3.5.3 for it (no constant columns, no value-grouping), as any
// consumer with an older reader would ask (gcf encode -spec 3.5.3).
var forBundle = gcf.WithSpec(gcf.Spec353)

// declaresConstants reports whether a table declaration in the GCF text
// has a constant column or a group clause (spec v3.6.0 §7.4.7, §7.4.8), as
// the pull decoder reads it.
func declaresConstants(text string) bool {
	d := stream.NewBytesDecoder([]byte(text), stream.Limits{})
	for {
		ev, err := d.Next()
		if err != nil {
			return false
		}
		if len(ev.Consts) > 0 {
			return true
		}
	}
}

// constantDocs returns JSON documents whose tables have a column with one
// value in every record, which spec v3.6.0 factors into the declaration:
// every kind of scalar and the strings that need quoting there, at the
// first, a middle and the last place, in a root table, a named section, a
// nested one, a keyed map and a row's attachment, and tables whose every
// column is constant.
func constantDocs() []string {
	consts := []string{`"us-east"`, `null`, `1`, `-2.5`, `1e21`, `true`, `false`, `""`, `"a,b"`, `"x}y"`, `"{x}"`, `"a=b"`, `"a|b"`,
		`"^"`, `"^{abc"`, `"^{a}"`, `"-"`, `"~"`, `"true"`, `"123"`, `" s"`, `"#x"`, `"@x"`, `"é"`, `"group=x"`, `"a [2]"`}
	var docs []string
	for _, c := range consts {
		for _, n := range []int{2, 3} {
			for pos := 0; pos < 3; pos++ {
				rows := make([]string, n)
				obj := make([]string, n)
				for i := range rows {
					cells := []string{`"id":` + strconv.Itoa(i), `"name":"n` + strconv.Itoa(i) + `"`}
					cells = append(cells[:pos], append([]string{`"c":` + c}, cells[pos:]...)...)
					rows[i] = "{" + strings.Join(cells, ",") + "}"
					obj[i] = `"k` + strconv.Itoa(i) + `":` + rows[i]
				}
				table := "[" + strings.Join(rows, ",") + "]"
				docs = append(docs, table, `{"t":`+table+`}`, `{"a":{"b":1,"t":`+table+`}}`,
					`{"m":{`+strings.Join(obj, ",")+`}}`, `[{"id":1,"sub":`+table+`},{"id":2,"sub":`+table+`}]`)
			}
		}
		docs = append(docs, "[{\"a\":"+c+",\"b\":"+c+"},{\"a\":"+c+",\"b\":"+c+"}]", `{"t":[{"a":`+c+`},{"a":`+c+`},{"a":`+c+`}]}`)
	}
	return docs
}

// TestInteropSpec353Constants: tables with constant columns, encoded with
// gcf.WithSpec(gcf.Spec353), declare no constant, decode in the reference
// bundle (which reads v3.5.3 only) to the document, and are the bytes the
// bundle writes; our default (v3.6.0) encoding of each decodes to the
// document in our decoder, and the number it factors is logged.
func TestInteropSpec353Constants(t *testing.T) {
	run := refRunner(t)
	var docs []any
	for _, s := range constantDocs() {
		v, err := gcf.ParseJSON([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		docs = append(docs, v)
	}
	res := runDocs(t, run, docs)
	factored := 0
	for i := range res {
		r := &res[i]
		if r.oursErr != nil {
			t.Fatalf("%s: encode: %v", r.json, r.oursErr)
		}
		if declaresConstants(r.ours) {
			t.Errorf("%s: the v3.5.3 encoding declares a v3.6 constant:\n%s", r.json, r.ours)
		}
		if r.flags&(failA|failSelf) != 0 {
			t.Errorf("%s: the reference does not decode our v3.5.3 encoding to the document (%s): %s\n%s", r.json, flagNames(r.flags), r.aErr, r.ours)
		}
		def, err := gcf.EncodeGeneric(r.doc)
		if err != nil {
			t.Fatalf("%s: default encode: %v", r.json, err)
		}
		if v, err := gcf.DecodeGeneric(def); err != nil || !equal(r.doc, v) {
			t.Errorf("%s: our default encoding does not decode to the document (%v)\n%s", r.json, err, def)
		}
		if declaresConstants(string(def)) {
			factored++
		}
	}
	tl := classify(res)
	tl.report(t, "spec-3.5.3-constants")
	checkTargets(t, "spec-3.5.3-constants", tl, 99)
	t.Logf("spec-3.5.3-constants: %d documents; the default (v3.6.0) encoding factors a constant column in %d", len(res), factored)
}
