//go:build unix

package bench

import "syscall"

// cpuNanos is the CPU time (user and system) the process has used: a
// measure of work that, unlike wall time, does not count the time spent
// waiting for a core on a shared machine.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
