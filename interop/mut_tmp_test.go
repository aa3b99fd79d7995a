package interop

import (
	"os"
	"strings"
	"testing"
	"encoding/json"
)

func TestMutTmp(t *testing.T) {
	run := refRunner(t)
	inputs := strictnessInputs(t)
	muts := map[string]func(string) string{
		"crlf":      func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
		"blank":     func(s string) string { i := strings.Index(s, "\n"); if i < 0 {return s}; return s[:i+1] + strings.ReplaceAll(s[i+1:], "\n", "\n\n") },
		"comment":   func(s string) string { i := strings.Index(s, "\n"); if i < 0 {return s}; return s[:i+1] + "# note\n" + s[i+1:] },
		"nofinalnl": func(s string) string { return strings.TrimSuffix(s, "\n") },
		"extranl":   func(s string) string { return s + "\n\n" },
		"trailsp":   func(s string) string { return strings.ReplaceAll(s, "\n", " \n") },
		"trailtab":  func(s string) string { return strings.ReplaceAll(s, "\n", "\t\n") },
		"pipesp":    func(s string) string { return strings.ReplaceAll(s, "|", " | ") },
		"eqsp":      func(s string) string { i := strings.Index(s, "\n"); if i < 0 {return s}; return s[:i+1] + strings.ReplaceAll(s[i+1:], "=", " = ") },
		"commasp":   func(s string) string { return strings.ReplaceAll(s, ",", ", ") },
		"hdrsp":     func(s string) string { i := strings.Index(s, "\n"); if i < 0 {return s}; return strings.ReplaceAll(s[:i], " ", "  ") + s[i:] },
	}
	var vs []verdict
	var reqs []request
	for _, in := range inputs {
		kind := decoderFor(in.data)
		if ours(kind, in.data) != nil { continue }
		for name, m := range muts {
			s := m(string(in.data))
			if s == string(in.data) { continue }
			v := verdict{Src: name + " " + in.src, Input: s, Kind: kind}
			if err := ours(kind, []byte(s)); err != nil { v.Ours = err.Error() }
			vs = append(vs, v)
			reqs = append(reqs, request{Op: refOp[kind], In: s})
		}
	}
	for i, r := range run(reqs) { vs[i].Ref = r.Err }
	f, _ := os.Create("/tmp/edge/mut.jsonl")
	enc := json.NewEncoder(f)
	for i := range vs { if (vs[i].Ours == "") != (vs[i].Ref == "") { enc.Encode(&vs[i]) } }
	f.Close()
	t.Logf("%d mutated", len(vs))
}
