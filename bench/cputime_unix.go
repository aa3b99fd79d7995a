//go:build unix

package bench

import "syscall"

// CPUTime returns the CPU time (user and system, all threads) the process
// has used so far, in nanoseconds. On a machine shared with other work,
// CPU time per op is steadier than wall time, which also counts the time
// the benchmark waited for a core.
func CPUTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
