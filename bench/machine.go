package bench

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Machine describes what a benchmark table was measured on, in one line:
// the CPU model, the Go version, GOOS/GOARCH, GOMAXPROCS and GOAMD64 (the
// build's microarchitecture level; v1 unless the binary was built for
// another), so that every published table names its machine.
func Machine() string {
	level := "v1"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "GOAMD64" {
				level = s.Value
			}
		}
	}
	if runtime.GOARCH != "amd64" {
		level = "n/a"
	}
	return fmt.Sprintf("cpu: %s; %s %s/%s; GOMAXPROCS=%d; GOAMD64=%s",
		cpuModel(), runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), level)
}

// cpuModel is the "model name" of /proc/cpuinfo, or "unknown" where there
// is none (not Linux, or a CPU that does not name itself).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
