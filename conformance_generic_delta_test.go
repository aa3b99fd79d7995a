package gcf

import (
	"fmt"
	"testing"
)

// Runners of the generic-delta fixture operations (SPEC §10a):
// generic-pack-root, generic-delta (encode), generic-delta-verify (apply a
// delta given as JSON), generic-delta-decode (parse a wire delta and apply
// it) and generic-delta-session (a producer session's emissions).

func fxObject(t *testing.T, v any, what string) Object {
	t.Helper()
	o, ok := v.(Object)
	if !ok {
		t.Fatalf("fixture %s is not an object", what)
	}
	return o
}

func fxGet(o Object, k string) any { v, _ := o.Get(k); return v }

func fxString(o Object, k string) string { s, _ := fxGet(o, k).(string); return s }

func fxStrings(t *testing.T, v any) []string {
	t.Helper()
	a, _ := v.([]any)
	out := make([]string, len(a))
	for i, x := range a {
		s, ok := x.(string)
		if !ok {
			t.Fatalf("fixture field list holds %T", x)
		}
		out[i] = s
	}
	return out
}

// fxRows turns fixture row objects into cells in the order of fields; an
// absent field is an error of the fixture.
func fxRows(t *testing.T, v any, fields []string) [][]any {
	t.Helper()
	a, _ := v.([]any)
	rows := make([][]any, len(a))
	for i, r := range a {
		o := fxObject(t, r, fmt.Sprintf("row %d", i))
		rows[i] = make([]any, len(fields))
		for j, f := range fields {
			x, ok := o.Get(f)
			if !ok {
				t.Fatalf("fixture row %d lacks field %q", i, f)
			}
			rows[i][j] = x
		}
	}
	return rows
}

func fxTable(t *testing.T, v any) *Table {
	t.Helper()
	o := fxObject(t, v, "set")
	fields := fxStrings(t, fxGet(o, "fields"))
	return &Table{Name: fxString(o, "name"), Key: fxString(o, "key"), Fields: fields, Rows: fxRows(t, fxGet(o, "rows"), fields)}
}

func fxInt(v any) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case float64:
		return int(x)
	}
	return 0
}

func fxDelta(t *testing.T, v any) *GenericDelta {
	t.Helper()
	o := fxObject(t, v, "delta")
	fields := fxStrings(t, fxGet(o, "fields"))
	d := &GenericDelta{Tool: fxString(o, "tool"), Key: fxString(o, "key"), Fields: fields,
		BaseRoot: fxString(o, "baseRoot"), NewRoot: fxString(o, "newRoot"),
		Added: fxRows(t, fxGet(o, "added"), fields), Changed: fxRows(t, fxGet(o, "changed"), fields),
		DeltaTokens: fxInt(fxGet(o, "deltaTokens")), FullTokens: fxInt(fxGet(o, "fullTokens"))}
	d.Removed, _ = fxGet(o, "removed").([]any)
	return d
}

// runGenericDeltaFixture runs f if its operation is one of the above and
// reports whether it was.
func runGenericDeltaFixture(t *testing.T, f fixture) bool {
	t.Helper()
	switch f.Operation {
	case "generic-pack-root", "generic-delta", "generic-delta-verify", "generic-delta-decode", "generic-delta-session":
	default:
		return false
	}
	in, err := ParseJSON(f.Input)
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	input := fxObject(t, in, "input")
	switch f.Operation {
	case "generic-pack-root":
		tab := fxTable(t, in)
		got, err := GenericPackRoot(tab)
		if err != nil {
			t.Fatalf("%s\npack root: %v", f.Description, err)
		}
		if want := mustString(t, f.Expected); got != want {
			t.Fatalf("%s\ngot %s\nwant %s", f.Description, got, want)
		}
		// Row order does not change the root (SPEC §10a.6).
		rev := *tab
		rev.Rows = make([][]any, len(tab.Rows))
		for i, r := range tab.Rows {
			rev.Rows[len(tab.Rows)-1-i] = r
		}
		if again, err := GenericPackRoot(&rev); err != nil || again != got {
			t.Fatalf("reversed rows: %s, %v; want %s", again, err, got)
		}
	case "generic-delta":
		d := fxDelta(t, in)
		got, err := EncodeGenericDelta(d)
		if err != nil {
			t.Fatalf("%s\nencode: %v", f.Description, err)
		}
		if want := mustString(t, f.Expected); string(got) != want {
			t.Fatalf("%s\nencode mismatch\n--- got\n%s--- want\n%s", f.Description, got, want)
		}
		back, err := DecodeGenericDelta(got)
		if err != nil {
			t.Fatalf("decode(encode(delta)): %v\n%s", err, got)
		}
		again, err := EncodeGenericDelta(&GenericDelta{Tool: back.Tool, Key: back.Key, Fields: back.Fields, BaseRoot: back.BaseRoot,
			NewRoot: back.NewRoot, Added: back.Added, Changed: back.Changed, Removed: back.Removed,
			DeltaTokens: d.DeltaTokens, FullTokens: d.FullTokens})
		if err != nil || string(again) != string(got) {
			t.Fatalf("encode(decode(wire)) differs (%v):\n%s", err, again)
		}
	case "generic-delta-verify", "generic-delta-decode":
		base := fxTable(t, fxGet(input, "base"))
		var d *GenericDelta
		if f.Operation == "generic-delta-verify" {
			d = fxDelta(t, fxGet(input, "delta"))
			// The fixture's claimed root of the result is expectedNewRoot.
			d.NewRoot = fxString(input, "expectedNewRoot")
		} else {
			d, err = DecodeGenericDelta([]byte(fxString(input, "wire")))
			if err != nil {
				if f.ExpectedError != "" {
					checkError(t, f, err)
					return true
				}
				t.Fatalf("%s\ndecode: %v", f.Description, err)
			}
		}
		before, err := GenericPackRoot(base)
		if err != nil {
			t.Fatalf("base: %v", err)
		}
		res, err := ApplyGenericDelta(base, d)
		if after, _ := GenericPackRoot(base); after != before {
			t.Fatalf("apply modified the base")
		}
		if f.ExpectedError != "" {
			checkError(t, f, err)
			return true
		}
		if err != nil {
			t.Fatalf("%s\napply: %v", f.Description, err)
		}
		got, err := GenericPackRoot(res)
		if err != nil {
			t.Fatal(err)
		}
		if want := mustString(t, f.Expected); got != want || res.PackRoot != want {
			t.Fatalf("%s\nroot %s (PackRoot %s), want %s", f.Description, got, res.PackRoot, want)
		}
	case "generic-delta-session":
		runDeltaSessionFixture(t, f, input)
	}
	return true
}

func runDeltaSessionFixture(t *testing.T, f fixture, input Object) {
	t.Helper()
	tool := fxString(input, "tool")
	policy := fxObject(t, fxGet(input, "policy"), "policy")
	var p ReanchorPolicy
	switch mode := fxString(policy, "mode"); mode {
	case "fixedN":
		p = ReanchorPolicy{Every: fxInt(fxGet(policy, "n")), MaxFraction: -1}
	case "sizeGuard":
		p = ReanchorPolicy{Every: -1, MaxFraction: -1, Cumulative: 1}
	default:
		t.Fatalf("unknown policy mode %q", mode)
	}
	want, err := ParseJSON(f.Expected)
	if err != nil {
		t.Fatal(err)
	}
	expected := fxObject(t, want, "expected")
	s := NewDeltaSession(p, 0)
	base := fxTable(t, fxGet(input, "base"))
	base.Tool = tool
	wire, outcome, err := s.Respond("consumer", "", base)
	if err != nil {
		t.Fatal(err)
	}
	if outcome != OutcomeFull || string(wire) != fxString(expected, "initialFull") {
		t.Fatalf("initial answer (%v)\n--- got\n%s--- want\n%s", outcome, wire, fxString(expected, "initialFull"))
	}
	// The test plays the consumer: it applies every answer and echoes its root.
	held, _, err := ReceiveGeneric(nil, wire)
	if err != nil {
		t.Fatalf("consumer: %v", err)
	}
	updates, _ := fxGet(input, "updates").([]any)
	emissions, _ := fxGet(expected, "emissions").([]any)
	if len(updates) != len(emissions) {
		t.Fatalf("fixture has %d updates and %d emissions", len(updates), len(emissions))
	}
	for i, u := range updates {
		cur := fxTable(t, u)
		cur.Tool = tool
		e := fxObject(t, emissions[i], "emission")
		wire, outcome, err := s.Respond("consumer", held.PackRoot, cur)
		if err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
		isFull, _ := fxGet(e, "isFull").(bool)
		if (outcome == OutcomeFull) != isFull || string(wire) != fxString(e, "wire") {
			t.Fatalf("update %d: %v\n--- got\n%s--- want (full %v)\n%s", i, outcome, wire, isFull, fxString(e, "wire"))
		}
		if held, _, err = ReceiveGeneric(held, wire); err != nil {
			t.Fatalf("update %d: consumer: %v", i, err)
		}
		if root, _ := GenericPackRoot(cur); held.PackRoot != root {
			t.Fatalf("update %d: consumer holds %s, producer sent %s", i, held.PackRoot, root)
		}
	}
}
