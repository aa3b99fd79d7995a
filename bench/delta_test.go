package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/tokens"
)

// flatOrders returns n orders as a keyed table (SPEC §10a): the typical
// MCP tool result that comes back again and again with a few rows changed.
func flatOrders(n int, seed uint64) *gcf.Table {
	r := rand.New(rand.NewPCG(seed, 42))
	statuses := []string{"pending", "paid", "shipped", "delivered", "cancelled"}
	regions := []string{"eu-west", "us-east", "us-west", "ap-south"}
	t := &gcf.Table{Tool: "orders_query", Name: "orders", Key: "id",
		Fields: []string{"id", "customer", "email", "status", "total", "currency", "items", "region", "created"}}
	for i := 0; i < n; i++ {
		c := r.IntN(3000)
		t.Rows = append(t.Rows, []any{
			int64(700000 + i),
			fmt.Sprintf("Customer %d", c),
			fmt.Sprintf("customer%d@example.com", c),
			statuses[r.IntN(len(statuses))],
			float64(r.IntN(500000)) / 100,
			"EUR",
			int64(1 + r.IntN(9)),
			regions[r.IntN(len(regions))],
			fmt.Sprintf("2026-%02d-%02dT%02d:%02d:00Z", 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60)),
		})
	}
	return t
}

// changeRows returns a copy of t in which every row is changed (status
// and total) with probability frac; the other rows are shared.
func changeRows(t *gcf.Table, frac float64, seed uint64) *gcf.Table {
	r := rand.New(rand.NewPCG(seed, 43))
	c := *t
	c.Rows = slices.Clone(t.Rows)
	for i, row := range c.Rows {
		if r.Float64() < frac {
			row = slices.Clone(row)
			row[3] = "refunded"
			row[4] = float64(r.IntN(500000)) / 100
			c.Rows[i] = row
		}
	}
	return &c
}

var deltaFractions = []float64{0.01, 0.10, 0.50}

// TestGenericDeltaSizes measures a full payload of 10,000 orders against
// the delta after 1%, 10% and 50% of the rows changed, in bytes and
// o200k_base tokens (docs/generic-delta.md; run with -v for the table).
func TestGenericDeltaSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: counting tokens of 10,000 rows takes a few seconds")
	}
	counter, err := tokens.New(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	base := flatOrders(10000, 1)
	var out strings.Builder
	out.WriteString("| changed rows | full bytes | delta bytes | delta/full | full tokens | delta tokens | delta/full |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, frac := range deltaFractions {
		cur := changeRows(base, frac, 2)
		full, err := gcf.EncodeTable(cur)
		if err != nil {
			t.Fatal(err)
		}
		d, err := gcf.DiffGeneric(base, cur)
		if err != nil {
			t.Fatal(err)
		}
		d.Tool = cur.Tool
		delta, err := gcf.EncodeGenericDelta(d)
		if err != nil {
			t.Fatal(err)
		}
		ft, dt := counter.Count(string(full)), counter.Count(string(delta))
		fmt.Fprintf(&out, "| %.0f%% (%d) | %d | %d | %.1f%% | %d | %d | %.1f%% |\n", 100*frac, len(d.Changed),
			len(full), len(delta), 100*float64(len(delta))/float64(len(full)), ft, dt, 100*float64(dt)/float64(ft))
		if frac <= 0.1 && len(delta) >= len(full)/5 {
			t.Errorf("%.0f%% changed: delta %d bytes is not much smaller than full %d", 100*frac, len(delta), len(full))
		}
	}
	t.Log("\n" + out.String())
}

// BenchmarkGenericDelta times, on 10,000 orders: encoding the full keyed
// payload (EncodeTable, pack root included), the plain generic encoding of
// the same value (EncodeGeneric), and per fraction of changed rows the
// diff (DiffGeneric, both pack roots included), the delta's encoding, and
// the consumer's decode and atomic apply (both roots verified).
//
// Besides ns/op (wall time) each reports cpu-ns/op, the process's user and
// system CPU time per operation (getrusage), which a machine shared with
// other work disturbs far less than wall time.
func BenchmarkGenericDelta(b *testing.B) {
	base := flatOrders(10000, 1)
	value := gcf.TableValue(base)
	b.Run("EncodeTable", func(b *testing.B) {
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := gcf.EncodeTable(base); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EncodeGeneric", func(b *testing.B) {
		b.ReportAllocs()
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := gcf.EncodeGeneric(value); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, frac := range deltaFractions {
		cur := changeRows(base, frac, 2)
		d, err := gcf.DiffGeneric(base, cur)
		if err != nil {
			b.Fatal(err)
		}
		wire, err := gcf.EncodeGenericDelta(d)
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("%.0f%%", 100*frac)
		b.Run("Diff/"+name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, err := gcf.DiffGeneric(base, cur); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("EncodeDelta/"+name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, err := gcf.EncodeGenericDelta(d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("DecodeApply/"+name, func(b *testing.B) {
			b.ReportAllocs()
			defer cpuPerOp(b)()
			for b.Loop() {
				back, err := gcf.DecodeGenericDelta(wire)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := gcf.ApplyGenericDelta(base, back); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpuPerOp starts measuring the process's CPU time; the function it
// returns reports it per operation as cpu-ns/op.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
