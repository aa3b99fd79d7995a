//go:build ignore

// gen writes gcf.ebnf from the grammar; run by `go generate ./ebnf`.
package main

import (
	"log"
	"os"

	"github.com/gcfkit/gcf/ebnf"
)

func main() {
	if err := os.WriteFile("gcf.ebnf", []byte(ebnf.Render()), 0o644); err != nil {
		log.Fatal(err)
	}
}
