// Package ebnf holds the EBNF of the GCF grammar (package grammar) as
// rendered by participle, in gcf.ebnf, and of the legacy v1.x grammar in
// gcf-v1.ebnf. A test fails when the grammar has
// changed and the file was not regenerated; run `go generate ./ebnf`.
package ebnf

//go:generate go run gen.go

import (
	_ "embed"

	"github.com/gcfkit/gcf/grammar"
)

// Text is the committed EBNF (gcf.ebnf).
//
//go:embed gcf.ebnf
var Text string

// Render returns the EBNF of the current grammar, one production a line,
// as gcf.ebnf holds it.
func Render() string { return grammar.Parser().String() + "\n" }

// TextV1 is the committed EBNF of the legacy v1.x grammar (gcf-v1.ebnf).
//
//go:embed gcf-v1.ebnf
var TextV1 string

// RenderV1 returns the EBNF of the current v1 grammar (grammar.V1Parser),
// as gcf-v1.ebnf holds it.
func RenderV1() string { return grammar.V1Parser().String() + "\n" }
