package gcf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func ordersTable(n int, r *rand.Rand) *Table {
	t := &Table{Tool: "orders_query", Name: "orders", Key: "id", Fields: []string{"id", "total", "status", "customer"}}
	statuses := []string{"pending", "shipped", "delivered", "cancelled"}
	for i := 0; i < n; i++ {
		t.Rows = append(t.Rows, []any{int64(100000 + i), float64(r.IntN(100000)) / 100, statuses[r.IntN(4)], fmt.Sprintf("customer %d", r.IntN(5000))})
	}
	return t
}

// churn returns a copy of t with about frac of its rows changed, a few
// removed and a few added.
func churn(t *Table, frac float64, r *rand.Rand) *Table {
	c := *t
	c.Rows = nil
	next := int64(0)
	for _, row := range t.Rows {
		next = max(next, row[0].(int64)+1)
	}
	for _, row := range t.Rows {
		switch x := r.Float64(); {
		case x < frac/10: // removed
		case x < frac:
			row = slices.Clone(row)
			row[2] = "changed"
			row[1] = float64(r.IntN(100000)) / 100
			c.Rows = append(c.Rows, row)
		default:
			c.Rows = append(c.Rows, row)
		}
		if r.Float64() < frac/10 {
			c.Rows = append(c.Rows, []any{next, 1.5, "new", "someone"})
			next++
		}
	}
	return &c
}

func mustRoot(t testing.TB, tab *Table) string {
	t.Helper()
	root, err := GenericPackRoot(tab)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// Apply(base, Diff(base, cur)) has cur's rows, through the wire too.
func TestGenericDeltaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, frac := range []float64{0, 0.01, 0.1, 0.5, 1} {
		base := ordersTable(500, r)
		cur := churn(base, frac, r)
		d, err := DiffGeneric(base, cur)
		if err != nil {
			t.Fatal(err)
		}
		wire, err := EncodeGenericDelta(d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeGenericDelta(wire)
		if err != nil {
			t.Fatalf("decode: %v\n%s", err, wire)
		}
		before := mustRoot(t, base)
		res, err := ApplyGenericDelta(base, back)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := mustRoot(t, res), mustRoot(t, cur); got != want || res.PackRoot != want {
			t.Fatalf("frac %v: applied root %s, want %s", frac, got, want)
		}
		if mustRoot(t, base) != before {
			t.Fatal("apply changed the base")
		}
	}
}

func TestEncodeDecodeTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"orders", ""} {
		tab := ordersTable(20, r)
		tab.Name = name
		out, err := EncodeTable(tab)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeTable(out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if back.Name != name || back.Key != "id" || !slices.Equal(back.Fields, tab.Fields) || back.PackRoot != mustRoot(t, tab) || mustRoot(t, back) != back.PackRoot {
			t.Fatalf("round trip: %+v", back)
		}
		// The full payload is also an ordinary generic payload.
		v, err := DecodeGeneric(out)
		if err != nil {
			t.Fatal(err)
		}
		again, err := NewTable(v, "id")
		if err != nil || mustRoot(t, again) != back.PackRoot {
			t.Fatalf("NewTable(DecodeGeneric): %v", err)
		}
	}
}

func TestNewTableShapes(t *testing.T) {
	for _, c := range []struct {
		json, key, cat string
	}{
		{`[{"id":1,"x":2},{"id":2,"x":3}]`, "id", ""},
		{`{"orders":[{"id":1,"x":2}]}`, "id", ""},
		{`[]`, "id", ""},
		{`[{"id":1,"x":2},{"id":1,"x":3}]`, "id", "duplicate_key"},
		{`[{"id":null,"x":2}]`, "id", "malformed_delta"},
		{`[{"x":2}]`, "id", "malformed_delta"},
		{`[{"id":1,"x":{"y":1}}]`, "id", "invalid_schema"},
		{`[{"id":1,"x":2},{"id":2}]`, "id", "invalid_schema"},
		{`[{"id":1},{"id":2,"x":1}]`, "id", "invalid_schema"},
		{`{"a":[],"b":[]}`, "id", "invalid_schema"},
		{`{"m":{"k1":{"x":1},"k2":{"x":2}}}`, "id", "invalid_schema"}, // a keyed map: send it in full
		{`[1,2]`, "id", "invalid_schema"},
	} {
		v, err := ParseJSON([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		_, err = NewTable(v, c.key)
		if got := string(CategoryOf(err)); got != c.cat {
			t.Errorf("NewTable(%s, %q): %v; want category %q", c.json, c.key, err, c.cat)
		}
	}
}

func TestApplyGenericDeltaRejects(t *testing.T) {
	base := &Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(1), "a"}, {int64(2), "b"}}}
	root := mustRoot(t, base)
	ok := func() *GenericDelta {
		return &GenericDelta{Key: "id", Fields: []string{"id", "v"}, BaseRoot: root}
	}
	cases := []struct {
		name string
		d    func() *GenericDelta
		cat  string
	}{
		{"base root mismatch", func() *GenericDelta { d := ok(); d.BaseRoot = "sha256:00"; return d }, "root_mismatch"},
		{"unknown algorithm", func() *GenericDelta { d := ok(); d.BaseRoot = "blake3:" + root[7:]; return d }, "root_mismatch"},
		{"new root mismatch", func() *GenericDelta { d := ok(); d.NewRoot = "sha256:00"; return d }, "root_mismatch"},
		{"added present", func() *GenericDelta { d := ok(); d.Added = [][]any{{int64(1), "x"}}; return d }, "malformed_delta"},
		{"added as float present", func() *GenericDelta { d := ok(); d.Added = [][]any{{1.0, "x"}}; return d }, "malformed_delta"},
		{"changed absent", func() *GenericDelta { d := ok(); d.Changed = [][]any{{int64(3), "x"}}; return d }, "malformed_delta"},
		{"changed absent (string)", func() *GenericDelta { d := ok(); d.Changed = [][]any{{"1", "x"}}; return d }, "malformed_delta"},
		{"removed absent", func() *GenericDelta { d := ok(); d.Removed = []any{int64(3)}; return d }, "malformed_delta"},
		{"repeated", func() *GenericDelta {
			d := ok()
			d.Changed = [][]any{{int64(1), "x"}}
			d.Removed = []any{int64(1)}
			return d
		}, "duplicate_key"},
		{"identity field changed", func() *GenericDelta { d := ok(); d.Key = "v"; return d }, "malformed_delta"},
		{"fields changed", func() *GenericDelta {
			d := ok()
			d.Fields = []string{"id", "w"}
			d.Added = [][]any{{int64(3), "x"}}
			return d
		}, "malformed_delta"},
		{"short row", func() *GenericDelta { d := ok(); d.Added = [][]any{{int64(3)}}; return d }, "malformed_delta"},
		{"null identity", func() *GenericDelta { d := ok(); d.Added = [][]any{{nil, "x"}}; return d }, "malformed_delta"},
		{"nested cell", func() *GenericDelta { d := ok(); d.Added = [][]any{{int64(3), []any{}}}; return d }, "unsupported_value"},
	}
	for _, c := range cases {
		got, err := ApplyGenericDelta(base, c.d())
		if got != nil || string(CategoryOf(err)) != c.cat {
			t.Errorf("%s: %v, %v; want category %s", c.name, got, err, c.cat)
		}
		if mustRoot(t, base) != root || len(base.Rows) != 2 {
			t.Fatalf("%s: the base changed", c.name)
		}
	}
	// A changed row may declare the fields in another order.
	d := ok()
	d.Fields = []string{"v", "id"}
	d.Changed = [][]any{{"z", int64(2)}}
	res, err := ApplyGenericDelta(base, d)
	if err != nil || res.Rows[1][1] != "z" || res.Rows[1][0] != int64(2) {
		t.Fatalf("reordered fields: %v %v", res, err)
	}
}

// The outcomes of RespondGeneric, through ReceiveGeneric.
func TestRespondReceiveGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	v1 := ordersTable(200, r)
	v2 := churn(v1, 0.05, r)
	full, outcome, err := RespondGeneric(v1, "", nil)
	if err != nil || outcome != OutcomeFull {
		t.Fatalf("first answer: %v %v", outcome, err)
	}
	held, _, err := ReceiveGeneric(nil, full)
	if err != nil {
		t.Fatal(err)
	}
	same, outcome, err := RespondGeneric(v1, held.PackRoot, v1)
	if err != nil || outcome != OutcomeUnchanged || !bytes.Contains(same, []byte(" count=200\n")) {
		t.Fatalf("unchanged: %v %v %s", outcome, err, same)
	}
	if h, o, err := ReceiveGeneric(held, same); err != nil || h != held || o != OutcomeUnchanged {
		t.Fatalf("receive unchanged: %v %v", o, err)
	}
	// The unchanged answer's count= is the held table's row count (SPEC §10a.4).
	for _, c := range []struct {
		count string
		want  error
	}{{"199", CountMismatch}, {"-1", MalformedHeaderField}, {"x", MalformedHeaderField}, {"99999999999999999999", OutOfRange}} {
		bad := bytes.Replace(same, []byte(" count=200\n"), []byte(" count="+c.count+"\n"), 1)
		if h, _, err := ReceiveGeneric(held, bad); !errors.Is(err, c.want) || h != nil {
			t.Fatalf("unchanged with count=%s: %v, want %v", c.count, err, c.want)
		}
	}
	delta, outcome, err := RespondGeneric(v2, held.PackRoot, v1)
	if err != nil || outcome != OutcomeDelta || len(delta) >= len(full)/2 {
		t.Fatalf("delta: %v %v (%d bytes, full %d)", outcome, err, len(delta), len(full))
	}
	if !bytes.HasPrefix(delta, []byte("GCF profile=generic tool=orders_query delta=true ")) {
		t.Fatalf("delta header: %s", delta[:80])
	}
	next, outcome, err := ReceiveGeneric(held, delta)
	if err != nil || outcome != OutcomeDelta || next.PackRoot != mustRoot(t, v2) {
		t.Fatalf("receive delta: %v %v", outcome, err)
	}
	// The delta applied to the wrong table: root_mismatch, nothing held changes.
	if _, _, err := ReceiveGeneric(next, delta); !errors.Is(err, RootMismatch) {
		t.Fatalf("delta on the wrong base: %v", err)
	}
	// Unknown root, unknown algorithm, schema change: full.
	for _, root := range []string{"sha256:feed", "md5:" + held.PackRoot[7:]} {
		if _, outcome, _ := RespondGeneric(v2, root, v1); outcome != OutcomeFull {
			t.Fatalf("root %s: %v", root, outcome)
		}
	}
	v3 := &Table{Key: "id", Fields: []string{"id", "total"}, Rows: [][]any{{int64(1), 2.0}}}
	if _, outcome, _ := RespondGeneric(v3, next.PackRoot, v2); outcome != OutcomeFull {
		t.Fatalf("schema change: %v", outcome)
	}
	// A full answer whose pack_root lies is root_mismatch.
	lie := bytes.Replace(full, []byte("pack_root=sha256:"), []byte("pack_root=sha256:0"), 1)
	if _, _, err := ReceiveGeneric(nil, lie); !errors.Is(err, RootMismatch) {
		t.Fatalf("lying full: %v", err)
	}
}

func TestDeltaSessionBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	s := NewDeltaSession(ReanchorPolicy{Every: 4}, 3)
	tab := ordersTable(300, r)
	roots := map[string]string{}
	var outcomes []Outcome
	for turn := 0; turn < 8; turn++ {
		tab = churn(tab, 0.01, r)
		for c := 0; c < 5; c++ {
			id := fmt.Sprint("c", c)
			_, o, err := s.Respond(id, roots[id], tab)
			if err != nil {
				t.Fatal(err)
			}
			roots[id] = mustRoot(t, tab)
			if c == 0 {
				outcomes = append(outcomes, o)
			}
		}
		if s.Len() > 3 {
			t.Fatalf("%d consumers remembered, bound 3", s.Len())
		}
	}
	// Five consumers round-robin over a bound of three: each is forgotten
	// before its next turn, so every answer is full.
	for _, o := range outcomes {
		if o != OutcomeFull {
			t.Fatalf("outcomes %v", outcomes)
		}
	}
	// One consumer: full, then deltas, re-anchored every 4th answer.
	s = NewDeltaSession(ReanchorPolicy{Every: 4}, 0)
	root := ""
	var got []string
	for turn := 0; turn < 9; turn++ {
		tab = churn(tab, 0.01, r)
		_, o, err := s.Respond("solo", root, tab)
		if err != nil {
			t.Fatal(err)
		}
		root = mustRoot(t, tab)
		got = append(got, o.String())
	}
	if want := "full delta delta delta full delta delta delta full"; strings.Join(got, " ") != want {
		t.Fatalf("outcomes %v, want %s", got, want)
	}
}

func TestDeltaSessionConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	tabs := []*Table{ordersTable(100, r)}
	for i := 0; i < 5; i++ {
		tabs = append(tabs, churn(tabs[len(tabs)-1], 0.02, r))
	}
	s := NewDeltaSession(ReanchorPolicy{}, 8)
	done := make(chan error)
	for c := 0; c < 8; c++ {
		go func(c int) {
			var held *Table
			for _, tab := range tabs {
				root := ""
				if held != nil {
					root = held.PackRoot
				}
				answer, _, err := s.Respond(fmt.Sprint("c", c), root, tab)
				if err == nil {
					held, _, err = ReceiveGeneric(held, answer)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}(c)
	}
	for c := 0; c < 8; c++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// A delta over a large table streams through NewEncoder and NewDecoder.
func TestStreamGenericDelta(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	base := ordersTable(20000, r)
	cur := churn(base, 0.1, r)
	d, err := DiffGeneric(base, cur)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	if err := e.BeginDelta("orders_query", "id", d.BaseRoot, d.NewRoot); err != nil {
		t.Fatal(err)
	}
	for _, sec := range []struct {
		name string
		rows [][]any
	}{{"added", d.Added}, {"changed", d.Changed}} {
		if err := e.BeginTable(sec.name, d.Fields...); err != nil {
			t.Fatal(err)
		}
		for _, row := range sec.rows {
			if err := e.WriteRow(row...); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := e.BeginTable("removed", "id"); err != nil {
		t.Fatal(err)
	}
	for _, id := range d.Removed {
		if err := e.WriteRow(id); err != nil {
			t.Fatal(err)
		}
	}
	// Writing an identity again is refused, and nothing is written.
	if err := e.WriteRow(d.Removed[0]); !errors.Is(err, DuplicateKey) {
		t.Fatalf("repeated identity: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// The buffered decoder and Apply accept it.
	back, err := DecodeGenericDelta(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyGenericDelta(base, back)
	if err != nil || res.PackRoot != mustRoot(t, cur) {
		t.Fatalf("apply streamed delta: %v", err)
	}
	// The pull decoder gives the rows as events, one section at a time.
	dec := NewDecoder(bytes.NewReader(buf.Bytes()))
	counts := map[string]int{}
	section := ""
	for {
		ev, err := dec.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Kind {
		case KindArrayStart:
			section = string(ev.Key)
		case KindRow:
			counts[section]++
		}
	}
	if counts["added"] != len(d.Added) || counts["changed"] != len(d.Changed) || counts["removed"] != len(d.Removed) {
		t.Fatalf("events %v; delta has %d added, %d changed, %d removed", counts, len(d.Added), len(d.Changed), len(d.Removed))
	}
	// Misuse is refused.
	e = NewEncoder(io.Discard)
	if err := e.BeginDelta("", "id", "sha256:a", "sha256:b"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		fields []string
	}{{"modified", []string{"id"}}, {"added", []string{"x"}}, {"removed", []string{"id", "x"}}} {
		if err := e.BeginTable(c.name, c.fields...); !errors.Is(err, MalformedDelta) {
			t.Errorf("BeginTable(%q, %q): %v", c.name, c.fields, err)
		}
	}
	if err := e.BeginTable("added", "id", "x"); err != nil {
		t.Fatal(err)
	}
	if err := e.WriteRow(nil, 1); !errors.Is(err, MalformedDelta) {
		t.Errorf("null identity: %v", err)
	}
	if err := e.WriteRow(int64(1), Missing); !errors.Is(err, MalformedDelta) {
		t.Errorf("missing cell: %v", err)
	}
	if err := e.WriteField("x", 1); !errors.Is(err, MalformedDelta) {
		t.Errorf("WriteField: %v", err)
	}
}
