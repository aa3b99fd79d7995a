//go:build ignore

// gen writes gcf.ebnf and gcf-v1.ebnf from the grammars; run by `go generate ./ebnf`.
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
	if err := os.WriteFile("gcf-v1.ebnf", []byte(ebnf.RenderV1()), 0o644); err != nil {
		log.Fatal(err)
	}
}
