package bench

import (
	"encoding/json"
	"testing"

	"github.com/gcfkit/gcf"
)

// BenchmarkSmallDecode is BenchmarkSmallDecode/<Dataset>/<Op>: the generic
// decode cells on payloads of about a kilobyte (20 employees, 5 orders),
// where what a call costs before its first row shows. Unmarshal decodes
// into a *any (encoding/json's forms), DecodeGeneric gives the ordered
// model, JSON is encoding/json's Unmarshal into a *any of the same data.
func BenchmarkSmallDecode(b *testing.B) {
	for _, s := range []struct {
		name string
		v    any
	}{{"Employees", GenEmployees(20)}, {"Orders", GenOrders(5)}, {"Employees200", GenEmployees(200)}, {"Orders50", GenOrders(50)}} {
		ds, err := newDataset(s.name, s.v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.name+"/Unmarshal", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(ds.gcf)))
			m := StartCPU()
			for b.Loop() {
				var v any
				if err := gcf.Unmarshal(ds.gcf, &v); err != nil {
					b.Fatal(err)
				}
			}
			m.Stop(b)
		})
		b.Run(s.name+"/DecodeGeneric", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(ds.gcf)))
			m := StartCPU()
			for b.Loop() {
				if _, err := gcf.DecodeGeneric(ds.gcf); err != nil {
					b.Fatal(err)
				}
			}
			m.Stop(b)
		})
		b.Run(s.name+"/JSON", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(ds.json)))
			m := StartCPU()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(ds.json, &v); err != nil {
					b.Fatal(err)
				}
			}
			m.Stop(b)
		})
	}
}
