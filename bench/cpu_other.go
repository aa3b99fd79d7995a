//go:build !unix

package bench

// cpuNanos is not measured on this platform (the cpu-ns/op metric reads 0).
func cpuNanos() int64 { return 0 }
