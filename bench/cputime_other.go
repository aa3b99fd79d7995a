//go:build !unix

package bench

// CPUTime is 0 where getrusage is not available.
func CPUTime() int64 { return 0 }
