package grammar

import (
	"io"
	"sync"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Definition is the participle lexer definition of GCF: it runs Scan with
// the default limits. Parse uses Scan directly so that it keeps the
// scanner's diagnostics.
type Definition struct{}

// Symbols returns the token types by name.
func (Definition) Symbols() map[string]plexer.TokenType { return symbols }

// Lex tokenizes the whole of r.
func (Definition) Lex(_ string, r io.Reader) (plexer.Lexer, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return LexBytes(data), nil
}

// LexBytes tokenizes data with the default limits.
func LexBytes(data []byte) plexer.Lexer {
	toks, _ := Scan(data, stream.Limits{})
	return &tokenLexer{toks: toks}
}

type tokenLexer struct {
	toks []plexer.Token
	i    int
}

func (l *tokenLexer) Next() (plexer.Token, error) {
	if l.i >= len(l.toks) {
		return l.toks[len(l.toks)-1], nil // EOF, again
	}
	t := l.toks[l.i]
	l.i++
	return t, nil
}

var (
	buildOnce sync.Once
	parser    *participle.Parser[Payload]
)

// Parser returns the participle parser of the grammar (built once).
func Parser() *participle.Parser[Payload] {
	buildOnce.Do(func() {
		// A counted body may hold more lines than participle's default cap
		// on repetitions; the element limit of §12 is the real bound.
		if participle.MaxIterations < 1<<30 {
			participle.MaxIterations = 1 << 30
		}
		parser = participle.MustBuild[Payload](
			participle.Lexer(Definition{}),
			participle.UseLookahead(4),
		)
	})
	return parser
}

// Parse tokenizes and parses data. It returns the concrete syntax tree and
// every problem the lexer found, in input order. The tree is complete even
// when there are problems: rejected lines appear as Bad nodes. A grammar
// failure (which would mean the lexer emitted a line no production takes)
// is reported as an invalid_line diagnostic at the offending token.
func Parse(data []byte, limits stream.Limits) (*Payload, []Diagnostic) {
	toks, diags := Scan(data, limits)
	p := Parser()
	pl, err := plexer.Upgrade(&tokenLexer{toks: toks})
	if err != nil {
		return &Payload{}, append(diags, Diagnostic{Category: lexer.InvalidLine, Msg: err.Error()})
	}
	tree, err := p.ParseFromLexer(pl)
	if err != nil {
		pos := plexer.Position{Line: 1, Column: 1}
		if pe, ok := err.(participle.Error); ok {
			pos = pe.Position()
		}
		diags = append(diags, Diagnostic{Pos: pos, Category: lexer.InvalidLine, Msg: "grammar: " + err.Error()})
		if tree == nil {
			tree = &Payload{}
		}
	}
	return tree, diags
}
