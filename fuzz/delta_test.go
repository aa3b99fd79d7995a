package fuzz

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gcfkit/gcf"
)

// deltaTable returns a small random keyed table of n rows whose identities
// mix numbers and strings (the number 3 and the string "3" are different
// identities) with cells from fuzzStrings.
func deltaTable(r *rand.Rand, n int) *gcf.Table {
	t := &gcf.Table{Name: "rows", Key: "id", Fields: []string{"id", "a", "b"}}
	used := map[string]bool{}
	for len(t.Rows) < n {
		id := deltaID(r)
		k := fmt.Sprintf("%T:%v", id, id)
		if used[k] {
			continue
		}
		used[k] = true
		t.Rows = append(t.Rows, []any{id, deltaCell(r), deltaCell(r)})
	}
	return t
}

func deltaID(r *rand.Rand) any {
	if r.IntN(2) == 0 {
		return int64(r.IntN(64))
	}
	return fmt.Sprint(r.IntN(64))
}

func deltaCell(r *rand.Rand) any {
	switch r.IntN(4) {
	case 0:
		return nil
	case 1:
		return float64(r.IntN(1000)) / 8
	case 2:
		return r.IntN(2) == 0
	}
	return fuzzStrings[r.IntN(len(fuzzStrings))]
}

func idKey(v any) string { return fmt.Sprintf("%T:%v", v, v) }

// FuzzGenericDeltaApply: a random delta applied to a random base either
// verifies or errors, never panics, and never touches the base. The ops
// come from the fuzzer's bytes and may be contradictory (adding a present
// identity, changing or removing an absent one, repeating one); a plain
// map model says which deltas are valid, and ApplyGenericDelta must agree
// with it on success and on the result.
func FuzzGenericDeltaApply(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 4, 5, 6})
	f.Add(uint64(2), []byte{})
	f.Add(uint64(3), []byte{2, 2, 2, 9, 4, 4})
	f.Add(uint64(4), []byte{0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87})
	f.Fuzz(func(t *testing.T, seed uint64, ops []byte) {
		if len(ops) > 64 {
			ops = ops[:64]
		}
		r := rand.New(rand.NewPCG(seed, 1))
		base := deltaTable(r, r.IntN(12))
		baseRoot, err := gcf.GenericPackRoot(base)
		if err != nil {
			t.Fatal(err)
		}
		d := &gcf.GenericDelta{Key: "id", Fields: base.Fields, BaseRoot: baseRoot}
		model := map[string][]any{}
		for _, row := range base.Rows {
			model[idKey(row[0])] = row
		}
		valid := true
		seen := map[string]bool{}
		pick := func(present bool) any {
			if present && len(base.Rows) > 0 {
				return base.Rows[r.IntN(len(base.Rows))][0]
			}
			return deltaID(r)
		}
		for _, op := range ops {
			id := pick(op&8 != 0)
			k := idKey(id)
			_, inBase := model[k]
			if seen[k] {
				valid = false
			}
			seen[k] = true
			row := []any{id, deltaCell(r), deltaCell(r)}
			switch op % 3 {
			case 0:
				d.Added = append(d.Added, row)
				valid = valid && !inBase
			case 1:
				d.Changed = append(d.Changed, row)
				valid = valid && inBase
			case 2:
				d.Removed = append(d.Removed, id)
				valid = valid && inBase
			}
		}
		want := &gcf.Table{Key: "id", Fields: base.Fields}
		if valid {
			for _, row := range d.Removed {
				delete(model, idKey(row))
			}
			for _, row := range append(append([][]any{}, d.Added...), d.Changed...) {
				model[idKey(row[0])] = row
			}
			for _, row := range model {
				want.Rows = append(want.Rows, row)
			}
			if d.NewRoot, err = gcf.GenericPackRoot(want); err != nil {
				t.Fatal(err)
			}
		}
		if seed%5 == 0 {
			d.NewRoot = "sha256:0" // a lying new_root: never verifies
			valid = false
		}
		// Through the wire when it can be written (a contradictory delta
		// with a repeated identity cannot).
		if wire, err := gcf.EncodeGenericDelta(d); err == nil {
			back, err := gcf.DecodeGenericDelta(wire)
			if err != nil {
				t.Fatalf("the encoder wrote a delta the decoder rejects: %v\n%s", err, wire)
			}
			d = back
		}
		res, err := gcf.ApplyGenericDelta(base, d)
		if after, _ := gcf.GenericPackRoot(base); after != baseRoot {
			t.Fatal("apply changed the base")
		}
		if valid != (err == nil) {
			t.Fatalf("valid %v, apply error %v", valid, err)
		}
		if err == nil {
			if got, _ := gcf.GenericPackRoot(res); got != d.NewRoot || res.PackRoot != got {
				t.Fatalf("applied root %s, want %s", got, d.NewRoot)
			}
		} else if res != nil {
			t.Fatal("a failed apply returned a table")
		}
	})
}

// FuzzGenericDiffApply: ApplyGenericDelta(base, DecodeGenericDelta(
// EncodeGenericDelta(DiffGeneric(base, cur)))) is cur, for random base and
// cur.
func FuzzGenericDiffApply(f *testing.F) {
	for s := uint64(0); s < 8; s++ {
		f.Add(s, s*7+3)
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		r1, r2 := rand.New(rand.NewPCG(s1, 2)), rand.New(rand.NewPCG(s2, 3))
		base := deltaTable(r1, r1.IntN(20))
		cur := deltaTable(r2, r2.IntN(20))
		// Share some rows so that changed and unchanged rows occur.
		for i := 0; i < len(base.Rows) && i < len(cur.Rows); i += 2 {
			if r1.IntN(2) == 0 {
				cur.Rows[i] = base.Rows[i]
			}
		}
		// Sharing may have repeated an identity in cur: drop repeats.
		seen := map[string]bool{}
		rows := cur.Rows[:0]
		for _, row := range cur.Rows {
			if k := idKey(row[0]); !seen[k] {
				seen[k] = true
				rows = append(rows, row)
			}
		}
		cur.Rows = rows
		d, err := gcf.DiffGeneric(base, cur)
		if err != nil {
			t.Fatal(err)
		}
		wire, err := gcf.EncodeGenericDelta(d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := gcf.DecodeGenericDelta(wire)
		if err != nil {
			t.Fatalf("%v\n%s", err, wire)
		}
		res, err := gcf.ApplyGenericDelta(base, back)
		if err != nil {
			t.Fatalf("%v\n%s", err, wire)
		}
		want, _ := gcf.GenericPackRoot(cur)
		if res.PackRoot != want || len(res.Rows) != len(cur.Rows) {
			t.Fatalf("applied %d rows, root %s; want %d rows, %s", len(res.Rows), res.PackRoot, len(cur.Rows), want)
		}
	})
}
