package bench

import (
	"runtime"
	"strings"
	"testing"
)

func TestMachine(t *testing.T) {
	m := Machine()
	for _, want := range []string{"cpu: ", runtime.Version(), "GOMAXPROCS=", "GOAMD64="} {
		if !strings.Contains(m, want) {
			t.Errorf("Machine() = %q, want it to name %q", m, want)
		}
	}
	t.Log(m)
}
