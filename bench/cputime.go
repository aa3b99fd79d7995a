package bench

import "testing"

// CPUMeter reports the CPU time per op of a benchmark as the extra metric
// cpu-ns/op: call Start before b.Loop and Stop after it.
type CPUMeter struct{ start int64 }

// StartCPU starts measuring.
func StartCPU() CPUMeter { return CPUMeter{CPUTime()} }

// Stop reports cpu-ns/op on b (nothing where CPUTime is unavailable).
func (m CPUMeter) Stop(b *testing.B) {
	if end := CPUTime(); end > 0 && b.N > 0 {
		b.ReportMetric(float64(end-m.start)/float64(b.N), "cpu-ns/op")
	}
}
