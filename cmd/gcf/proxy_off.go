//go:build gcf_noproxy

package main

import (
	"flag"
	"fmt"
)

// Built with -tags gcf_noproxy, gcf links neither net/http nor the MCP
// SDK, whose package initialisation is most of a gcf process's fixed
// memory (docs/benchmarks.md, "lowmem3"); the proxy command then only
// says so.
func init() {
	proxyCommand.setup = func(fs *flag.FlagSet) func(*env, []string) int {
		return func(e *env, _ []string) int {
			fmt.Fprintln(e.stderr, "gcf proxy: this gcf was built with -tags gcf_noproxy, without the proxy")
			return 2
		}
	}
}
