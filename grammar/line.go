package grammar

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// The grammar of SPEC §4 is line-oriented: every production but the bodies
// is one line, and a body is a run of lines whose indentation and count the
// scanner tracks. So a payload can also be checked one line at a time: the
// scanner (which knows, from the open bodies, what a line may be) types the
// line's tokens, and the production for the line's first token parses them.
// This file holds those one-line productions, which reuse the productions of
// grammar.go for everything inside a line, and Checker, which runs them over
// a stream in memory bounded by the longest line and the nesting depth.

// HashLine is a "##" header line of the generic profile: an anonymous root
// header (root-keyed-map, anonymous-inline-array, anonymous-array-block), an
// object-section, an array-block or a keyed-block, without its body.
type HashLine struct {
	Pos    plexer.Position
	Keyed  *KeyedBracket `parser:"'##' ( @@"`
	KDecl  *FieldDecl    `parser:"        @@"`
	Count  *CountBracket `parser:"      | @@"`
	Colon  bool          `parser:"        ( @':'"`
	Values *ScalarList   `parser:"          @@?"`
	Decl   *FieldDecl    `parser:"        | @@ )?"`
	Key    *Key          `parser:"      | @@"`
	NKeyed *KeyedBracket `parser:"        ( @@"`
	NKDecl *FieldDecl    `parser:"          @@"`
	NCount *CountBracket `parser:"        | @@"`
	NDecl  *FieldDecl    `parser:"          @@? )? ) NL"`
}

// KeyLine is a member line that starts with a key: kv-line or inline-array.
type KeyLine struct {
	Pos    plexer.Position
	Key    *Key          `parser:"@@ ( '='"`
	Value  *Scalar       `parser:"     @@"`
	Count  *CountBracket `parser:"   | @@ ':'"`
	Values *ScalarList   `parser:"     @@? ) NL"`
}

// RowLine is a tabular-row line without its attachments.
type RowLine struct {
	Pos   plexer.Position
	ID    *string `parser:"@RowID?"`
	Cells []*Cell `parser:"@@ ( '|' @@ )* NL"`
}

// ChildLine is the first line of a traditional-attachment (an "." line) or
// of an expanded-item (an "@N" line), without its body. Both take the same
// forms: {} (object), =scalar, a keyed bracket with its declaration, or a
// count bracket with an optional declaration and optional inline values.
type ChildLine struct {
	Pos    plexer.Position
	Dot    *Key          `parser:"( '.' @@"`
	ID     *string       `parser:"| @ItemID )"`
	Object bool          `parser:"( @'{}'"`
	Value  *Scalar       `parser:"| '=' @@"`
	Keyed  *KeyedBracket `parser:"| @@"`
	KDecl  *FieldDecl    `parser:"  @@"`
	Count  *CountBracket `parser:"| @@"`
	Decl   *FieldDecl    `parser:"  @@?"`
	Colon  bool          `parser:"  ( @':'"`
	Values *ScalarList   `parser:"    @@? )? ) NL"`
}

// NodeOrRefLine is a line of a symbols group: node-line or ref-line (§5, §9).
type NodeOrRefLine struct {
	Pos  plexer.Position
	Ref  *RefLine  `parser:"  @@"`
	Node *NodeLine `parser:"| @@"`
}

// BadAnyLine is a line the scanner rejected, in any context.
type BadAnyLine struct {
	Pos    plexer.Position
	Line   *BadLine   `parser:"  @@"`
	Member *BadMember `parser:"| @@"`
	Item   *BadItem   `parser:"| @@"`
	Row    *BadRow    `parser:"| @@"`
	Child  *BadChild  `parser:"| @@"`
}

// lineParse parses the tokens of one line with one production.
type lineParse func(*plexer.PeekingLexer) error

func lineParser[T any]() lineParse {
	p := participle.MustBuild[T](
		participle.Lexer(Definition{}),
		participle.UseLookahead(4),
	)
	return func(l *plexer.PeekingLexer) error {
		_, err := p.ParseFromLexer(l)
		return err
	}
}

var (
	linesOnce sync.Once
	lineProds map[plexer.TokenType]lineParse
)

// lineProductions maps the type of a line's first token to the production
// of that line.
func lineProductions() map[plexer.TokenType]lineParse {
	linesOnce.Do(func() {
		row := lineParser[RowLine]()
		child := lineParser[ChildLine]()
		key := lineParser[KeyLine]()
		bad := lineParser[BadAnyLine]()
		lineProds = map[plexer.TokenType]lineParse{
			TokMagic:      lineParser[Header](),
			TokKey:        key,
			TokQKey:       key,
			TokRowID:      row,
			TokQuoted:     row,
			TokNull:       row,
			TokMissing:    row,
			TokAttach:     row,
			TokBool:       row,
			TokNumber:     row,
			TokBare:       row,
			TokItemID:     child,
			TokInline:     lineParser[InlineObjectAttachment](),
			TokGroup:      lineParser[GroupHeader](),
			TokNodeID:     lineParser[NodeOrRefLine](),
			TokAddedID:    lineParser[DeltaAddedLine](),
			TokEdgeTarget: lineParser[EdgeLine](),
			TokKind:       lineParser[DeltaSymbolLine](),
			TokQName:      lineParser[DeltaEdgeLine](),
			TokBad:        bad,
			TokBadMember:  bad,
			TokBadItem:    bad,
			TokBadRow:     bad,
			TokBadChild:   bad,
		}
	})
	return lineProds
}

// punctProductions maps the punctuation that can open a line to its production.
var (
	punctOnce  sync.Once
	punctProds map[string]lineParse
)

func punctProductions() map[string]lineParse {
	punctOnce.Do(func() {
		punctProds = map[string]lineParse{
			"##":  lineParser[HashLine](),
			"##!": lineParser[MetadataSummary](),
			".":   lineParser[ChildLine](),
			"=":   lineParser[RootScalar](),
		}
	})
	return punctProds
}

// Checker checks a payload pushed to it one line at a time: the scanner
// checks each line in the context of the open bodies (indentation, counted
// bodies, attachments, limits) and the grammar parses each line with the
// production for it. It reports every problem to a callback, in input
// order, and keeps no more than one line's tokens: its memory is bounded by
// the longest line and the nesting depth, not by the input size. It does
// not run the context-sensitive checks of ast.Validate (counts, duplicate
// keys, widths, ids, the summary).
type Checker struct {
	s      *scanner
	report func(Diagnostic)
	lex    tokenLexer
}

// NewChecker returns a Checker with the given limits (zero fields take the
// defaults of package stream; MaxBytes is the caller's to enforce) that
// passes every problem to report.
func NewChecker(limits stream.Limits, report func(Diagnostic)) *Checker {
	return &Checker{s: newScanner(limits), report: report}
}

// Line checks the line that starts at input offset off and is n bytes long
// without its LF (a trailing CR is part of it). When n exceeds the line
// limit, raw may hold any prefix of the line (or nothing); it is not read.
// The Checker does not keep raw.
func (c *Checker) Line(raw []byte, off, n int) {
	c.s.feed(raw, off, n)
	c.flush()
}

// End finishes the check of an input of size bytes (it closes the open
// bodies, which may report problems at the end of input).
func (c *Checker) End(size int) {
	c.s.end(size)
	c.flush()
}

// flush parses the lines tokenized so far and passes on the diagnostics.
func (c *Checker) flush() {
	s := c.s
	for _, d := range s.diags {
		c.report(d)
	}
	s.diags = s.diags[:0]
	toks := s.toks
	start := -1
	for i, t := range toks {
		switch t.Type {
		case TokIndent, TokDedent, TokGeneric, TokGraph, plexer.EOF:
			continue // layout and profile markers belong to the bodies, not to a line
		}
		if start < 0 {
			start = i
		}
		if t.Type == TokNL {
			c.parseLine(toks[start : i+1])
			start = -1
		}
	}
	if start >= 0 {
		c.report(Diagnostic{Pos: toks[start].Pos, Category: lexer.InvalidLine, Msg: "grammar: a line has no end"})
	}
	s.toks = s.toks[:0]
}

// parseLine parses one line's tokens (ending with NL) with the production
// its first token calls for.
func (c *Checker) parseLine(line []plexer.Token) {
	first := line[0]
	var parse lineParse
	if first.Type == TokPunct {
		parse = punctProductions()[first.Value]
	} else {
		parse = lineProductions()[first.Type]
	}
	if parse == nil {
		c.report(Diagnostic{Pos: first.Pos, Category: lexer.InvalidLine, Msg: "grammar: no line begins with " + TokenName(first.Type)})
		return
	}
	eof := plexer.EOFToken(line[len(line)-1].Pos)
	c.lex.toks = append(append(c.lex.toks[:0], line...), eof)
	c.lex.i = 0
	pl, err := plexer.Upgrade(&c.lex)
	if err == nil {
		err = parse(pl)
	}
	if err != nil {
		pos := first.Pos
		if pe, ok := err.(participle.Error); ok {
			pos = pe.Position()
		}
		c.report(Diagnostic{Pos: pos, Category: lexer.InvalidLine, Msg: "grammar: " + err.Error()})
	}
}
