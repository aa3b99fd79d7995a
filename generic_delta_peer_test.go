package gcf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gcfkit/gcf/internal/conformance"
)

// peerModule returns the reference TypeScript SDK's module and the node
// binary, or skips the test, naming what is missing.
func peerModule(t *testing.T) (node, module string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found on PATH: the cross-check against the reference TypeScript SDK needs it")
	}
	dir, err := conformance.Find()
	if err != nil || dir == "" {
		t.Skip("../shared not found (set " + conformance.EnvVar + "): the reference SDK lives in ../shared/peers")
	}
	module = filepath.Join(dir, "..", "peers", "gcf-typescript-2.6.1", "gcf.mjs")
	if _, err := os.Stat(module); err != nil {
		t.Skipf("reference SDK not found at %s", module)
	}
	return node, module
}

// peerScript reads cases from stdin and writes, per case, the SDK's pack
// roots of base and cur, its delta from base to cur and its full payload
// of cur.
const peerScript = `
import * as G from %q;
let input = '';
process.stdin.setEncoding('utf8'); // chunks may split a multi-byte character
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const out = JSON.parse(input).map(c => {
    const d = G.diffGenericSets(c.base, c.cur);
    d.tool = c.tool;
    return {
      baseRoot: G.genericPackRoot(c.base),
      curRoot: G.genericPackRoot(c.cur),
      delta: G.encodeGenericDelta(d),
      full: G.encodeGenericFull(c.cur, c.tool),
    };
  });
  process.stdout.write(JSON.stringify(out));
});
`

var peerStrings = []string{"", "plain", "x y", " pad ", "-", "~", "^", "true", "12", "01", "1.5", "-0", "a|b", "a,b", `"q"`,
	"tab\tc", "nl\nx", `back\slash`, "#h", "@1", "ü", "日本", "é\u0301", "\u2028", "9223372036854775808", "null", "1e5"}

func peerValue(r *rand.Rand) any {
	switch r.IntN(8) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return int64(r.IntN(2_000_001) - 1_000_000)
	case 3:
		return float64(r.IntN(1_000_000)) / 100
	case 4:
		// Doubles across the notation boundaries of SPEC §2.3.1.
		return []float64{0.1, 1e-7, 1e-6, 123456.789, 1e15, 1 << 53, 1e21, 3.141592653589793, -2.5e-8, 0.5}[r.IntN(10)]
	case 5:
		return r.Int64N(1<<53) - 1<<52
	}
	return peerStrings[r.IntN(len(peerStrings))]
}

func peerTable(r *rand.Rand, fields []string, n int) *Table {
	t := &Table{Name: "rows", Key: "id", Fields: fields}
	used := map[string]bool{}
	for len(t.Rows) < n {
		var id any = int64(r.IntN(200))
		if r.IntN(3) == 0 {
			id = peerStrings[r.IntN(len(peerStrings))] + fmt.Sprint(r.IntN(5))
		}
		if k := fmt.Sprintf("%T%v", id, id); !used[k] {
			used[k] = true
			row := []any{id}
			for range fields[1:] {
				row = append(row, peerValue(r))
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func tableJSON(t *Table) map[string]any {
	rows := make([]any, len(t.Rows))
	for i, r := range t.Rows {
		o := make(Object, len(t.Fields))
		for j, f := range t.Fields {
			o[j] = Member{Key: f, Value: r[j]}
		}
		rows[i] = o
	}
	return map[string]any{"name": t.Name, "key": t.Key, "fields": t.Fields, "rows": rows}
}

// TestGenericDeltaMatchesReferenceSDK cross-checks pack roots, delta bytes
// and full-payload bytes with the reference TypeScript SDK (run with node)
// on random tables.
func TestGenericDeltaMatchesReferenceSDK(t *testing.T) {
	node, module := peerModule(t)
	r := rand.New(rand.NewPCG(2026, 11))
	fields := []string{"id", "total", "status", "display name", "a,b", "é"}
	var cases []map[string]any
	var tables [][2]*Table
	for i := 0; i < 200; i++ {
		base := peerTable(r, fields, r.IntN(30))
		cur := peerTable(r, fields, r.IntN(30))
		for j := range cur.Rows {
			if j < len(base.Rows) && r.IntN(2) == 0 {
				cur.Rows[j] = base.Rows[j] // unchanged (or, with its id taken, dropped below)
			}
		}
		seen := map[string]bool{}
		rows := cur.Rows[:0]
		for _, row := range cur.Rows {
			if k := fmt.Sprintf("%T%v", row[0], row[0]); !seen[k] {
				seen[k] = true
				rows = append(rows, row)
			}
		}
		cur.Rows = rows
		tool := ""
		if i%2 == 0 {
			tool = "orders_query"
		}
		cur.Tool = tool
		tables = append(tables, [2]*Table{base, cur})
		cases = append(cases, map[string]any{"tool": tool, "base": tableJSON(base), "cur": tableJSON(cur)})
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "peer.mjs")
	u := url.URL{Scheme: "file", Path: module}
	if err := os.WriteFile(script, []byte(fmt.Sprintf(peerScript, u.String())), 0o644); err != nil {
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
	var peer []struct{ BaseRoot, CurRoot, Delta, Full string }
	if err := json.Unmarshal(out, &peer); err != nil {
		t.Fatal(err)
	}
	if len(peer) != len(tables) {
		t.Fatalf("peer answered %d cases of %d", len(peer), len(tables))
	}
	for i, p := range peer {
		base, cur := tables[i][0], tables[i][1]
		if got := mustRoot(t, base); got != p.BaseRoot {
			t.Fatalf("case %d: base root %s, SDK %s\n%s", i, got, p.BaseRoot, mustJSON(TableValue(base)))
		}
		if got := mustRoot(t, cur); got != p.CurRoot {
			t.Fatalf("case %d: current root %s, SDK %s", i, got, p.CurRoot)
		}
		d, err := DiffGeneric(base, cur)
		if err != nil {
			t.Fatal(err)
		}
		d.Tool = cur.Tool
		delta, err := EncodeGenericDelta(d)
		if err != nil {
			t.Fatal(err)
		}
		if string(delta) != p.Delta {
			t.Fatalf("case %d: delta differs\n--- ours\n%s--- SDK\n%s", i, delta, p.Delta)
		}
		full, err := EncodeTable(cur)
		if err != nil {
			t.Fatal(err)
		}
		if string(full) != p.Full {
			t.Fatalf("case %d: full payload differs\n--- ours\n%s--- SDK\n%s", i, full, p.Full)
		}
		// And the SDK's delta applies here.
		back, err := DecodeGenericDelta([]byte(p.Delta))
		if err != nil {
			t.Fatalf("case %d: decoding the SDK's delta: %v", i, err)
		}
		if res, err := ApplyGenericDelta(base, back); err != nil || res.PackRoot != p.CurRoot {
			t.Fatalf("case %d: applying the SDK's delta: %v", i, err)
		}
	}
}
