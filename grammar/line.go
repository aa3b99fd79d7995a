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
	Keyed  *KeyedBracket `parser:"'##':Punct ( @@"`
	KDecl  *TableDecl    `parser:"        @@"`
	Count  *CountBracket `parser:"      | @@"`
	Colon  bool          `parser:"        ( @':':Punct"`
	Values *ScalarList   `parser:"          @@?"`
	Decl   *TableDecl    `parser:"        | @@"`
	Group  *GroupClause  `parser:"          @@? )?"`
	Key    *Key          `parser:"      | @@"`
	NKeyed *KeyedBracket `parser:"        ( @@"`
	NKDecl *TableDecl    `parser:"          @@"`
	NCount *CountBracket `parser:"        | @@"`
	NDecl  *TableDecl    `parser:"          ( @@"`
	NGroup *GroupClause  `parser:"            @@? )? )? ) NL"`
}

// SubheaderLine is a group subheader of a grouped table (v3.6.0 §7.4.8.3).
type SubheaderLine struct {
	Line *GroupSubheader `parser:"@@"`
}

// The productions of the lines that make up the bulk of a payload (member
// lines, table rows, inline bodies, graph node and edge lines) capture
// nothing: a check needs to know only that the tokens fit, and participle's
// captures cost more than the match. scalar = Bare / Number / Quoted / Null /
// Bool (§2.1; the commonest first); cell = scalar / "~" / "^" [ field-decl ].

// KeyLine is a member line that starts with a key: kv-line = key "=" scalar,
// or inline-array = key count-bracket ":" [ SP scalar-list ].
type KeyLine struct {
	Line bool `parser:"( Key | QKey ) ( '=':Punct ( Bare | Number | Quoted | Null | Bool ) | Count ':':Punct ( ( Bare | Number | Quoted | Null | Bool ) ( ',':Punct ( Bare | Number | Quoted | Null | Bool ) )* )? ) NL"`
}

// RowLine is a tabular-row line without its attachments:
// [ "@" id SP ] cell *( "|" cell ).
type RowLine struct {
	Line bool `parser:"RowID? ( Bare | Number | Quoted | Null | Bool | Missing | Attach ( '{':Punct ( Key | QKey ) ( ',':Punct ( Key | QKey ) )* '}':Punct )? ) ( '|':Punct ( Bare | Number | Quoted | Null | Bool | Missing | Attach ( '{':Punct ( Key | QKey ) ( ',':Punct ( Key | QKey ) )* '}':Punct )? ) )* NL"`
}

// InlineLine is an inline-object-attachment: scalar *( "|" scalar ).
type InlineLine struct {
	Line bool `parser:"Inline ( Bare | Number | Quoted | Null | Bool ) ( '|':Punct ( Bare | Number | Quoted | Null | Bool ) )* NL"`
}

// SymbolLine is a line of a symbols group: node-line = "@" id SP kind SP
// qname SP score SP provenance, or ref-line = "@" id SP SP "# previously
// transmitted" (§5, §9).
type SymbolLine struct {
	Line bool `parser:"NodeID ( Ref | Kind QName Score Provenance ) NL"`
}

// AddedLine is a delta-added-line = node-line SP distance (§10.1).
type AddedLine struct {
	Line bool `parser:"AddedID Kind QName Score Provenance Distance NL"`
}

// EdgeCheckLine is an edge-line = "@" id "<" "@" id SP edge-type [ SP status ] (§6).
type EdgeCheckLine struct {
	Line bool `parser:"EdgeTarget '<':Punct EdgeSource EdgeType Status? NL"`
}

// ChildLine is the first line of a traditional-attachment (an "." line) or
// of an expanded-item (an "@N" line), without its body. Both take the same
// forms: {} (object), =scalar, a keyed bracket with its declaration, or a
// count bracket with an optional declaration and optional inline values.
type ChildLine struct {
	Pos    plexer.Position
	Dot    *Key          `parser:"( '.':Punct @@"`
	ID     *string       `parser:"| @ItemID )"`
	Object bool          `parser:"( @'{}':Punct"`
	Value  *Scalar       `parser:"| '=':Punct @@"`
	Keyed  *KeyedBracket `parser:"| @@"`
	KDecl  *TableDecl    `parser:"  @@"`
	Count  *CountBracket `parser:"| @@"`
	Decl   *TableDecl    `parser:"  ( @@"`
	Group  *GroupClause  `parser:"    @@? )?"`
	Colon  bool          `parser:"  ( @':':Punct"`
	Values *ScalarList   `parser:"    @@? )? ) NL"`
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

// production parses lines of one form: one line, or (for the forms that
// make up the bulk of a payload) a run of consecutive lines of that form
// at once, which spares participle's per-parse setup.
type production struct {
	id   byte // distinct per production, for the memo's shapes
	one  func(*plexer.PeekingLexer) error
	many func(*plexer.PeekingLexer) error // nil: lines are parsed one by one
}

// run is a run of consecutive lines of one form.
type run[T any] struct {
	Lines []*T `parser:"@@+"`
}

func parseWith[T any]() func(*plexer.PeekingLexer) error {
	p := participle.MustBuild[T](
		participle.Lexer(Definition{}),
		participle.UseLookahead(4),
	)
	return func(l *plexer.PeekingLexer) error {
		_, err := p.ParseFromLexer(l)
		return err
	}
}

func single[T any]() *production { return &production{one: parseWith[T]()} }

func batched[T any]() *production {
	return &production{one: parseWith[T](), many: parseWith[run[T]]()}
}

var (
	prodOnce   sync.Once
	tokProds   map[plexer.TokenType]*production
	punctProds map[string]*production
)

// productionFor returns the production of a line that begins with t.
func productionFor(t plexer.Token) *production {
	prodOnce.Do(func() {
		// Generic lines are parsed one by one: measured on 1 MB of
		// generic records, runs allocated 27% more (participle's captures
		// of a run's lines) and ran slower; graph lines gain from runs.
		row := single[RowLine]()
		child := single[ChildLine]()
		key := single[KeyLine]()
		bad := single[BadAnyLine]()
		tokProds = map[plexer.TokenType]*production{
			TokMagic:      single[Header](),
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
			TokInline:     single[InlineLine](),
			TokSubheader:  single[SubheaderLine](),
			TokGroup:      single[GroupHeader](),
			TokNodeID:     batched[SymbolLine](),
			TokAddedID:    batched[AddedLine](),
			TokEdgeTarget: batched[EdgeCheckLine](),
			TokKind:       batched[DeltaSymbolLine](),
			TokQName:      batched[DeltaEdgeLine](),
			TokBad:        bad,
			TokBadMember:  bad,
			TokBadItem:    bad,
			TokBadRow:     bad,
			TokBadChild:   bad,
		}
		punctProds = map[string]*production{
			"##":  single[HashLine](),
			"##!": single[MetadataSummary](),
			".":   child,
			"=":   single[RootScalar](),
		}
		var id byte
		number := func(p *production) {
			if p.id == 0 {
				id++
				p.id = id
			}
		}
		for _, p := range tokProds {
			number(p)
		}
		for _, p := range punctProds {
			number(p)
		}
	})
	if t.Type == TokPunct {
		return punctProds[t.Value]
	}
	return tokProds[t.Type]
}

// A run of lines is parsed when it holds maxRunLines lines or maxRunTokens
// tokens, so the Checker's memory stays bounded by the longest line.
const (
	maxRunLines  = 256
	maxRunTokens = 4096
)

// Checker checks a payload pushed to it one line at a time: the scanner
// checks each line in the context of the open bodies (indentation, counted
// bodies, attachments, limits) and the grammar parses each line with the
// production for it. It reports every problem to a callback, and keeps no
// more than a bounded run of lines' tokens: its memory is bounded by the
// longest line and the nesting depth, not by the input size. Lines of a
// shape it has parsed before take participle's verdict from a bounded memo
// (memo.go), which gives exactly the diagnostics a parse would. It does not
// run the context-sensitive checks of ast.Validate (counts, duplicate
// keys, widths, ids, the summary). Diagnostics come roughly in input
// order; sort them if order matters.
type Checker struct {
	s      *scanner
	report func(Diagnostic)
	lex    tokenLexer

	pending []plexer.Token // lines of one batched production, each ending with NL
	prod    *production
	lines   int

	memo *memo // participle's verdicts by line shape (memo.go); nil: every line is parsed
}

// NewChecker returns a Checker with the given limits (zero fields take the
// defaults of package stream; MaxBytes is the caller's to enforce) that
// passes every problem to report.
func NewChecker(limits stream.Limits, report func(Diagnostic)) *Checker {
	return newChecker(limits, report, true)
}

// newChecker is NewChecker with the memo of line shapes on or off (the
// tests compare the two).
func newChecker(limits stream.Limits, report func(Diagnostic), memoize bool) *Checker {
	c := &Checker{s: newScanner(limits), report: report}
	if memoize {
		c.memo = newMemo()
	}
	return c
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
	c.runPending()
}

// flush passes on the scanner's diagnostics and queues the lines it
// tokenized.
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
			c.queue(toks[start : i+1])
			start = -1
		}
	}
	if start >= 0 {
		c.report(Diagnostic{Pos: toks[start].Pos, Category: lexer.InvalidLine, Msg: "grammar: a line has no end"})
	}
	s.toks = s.toks[:0]
}

// queue adds one line's tokens (ending with NL) to the run of its
// production, or parses it at once if its production is not batched.
func (c *Checker) queue(line []plexer.Token) {
	prod := productionFor(line[0])
	if prod == nil {
		c.runPending()
		c.report(Diagnostic{Pos: line[0].Pos, Category: lexer.InvalidLine, Msg: "grammar: no line begins with " + TokenName(line[0].Type)})
		return
	}
	if c.memo != nil {
		c.check(prod, line)
		return
	}
	if prod != c.prod || prod.many == nil {
		c.runPending()
	}
	if prod.many == nil {
		c.parse(prod.one, line)
		return
	}
	c.prod = prod
	c.pending = append(c.pending, line...)
	c.lines++
	if c.lines >= maxRunLines || len(c.pending) >= maxRunTokens {
		c.runPending()
	}
}

// runPending parses the queued run of lines; if the run fails, it parses
// each line on its own so that every bad line is reported.
func (c *Checker) runPending() {
	if c.lines == 0 {
		return
	}
	toks, prod, lines := c.pending, c.prod, c.lines
	c.pending, c.prod, c.lines = c.pending[:0], nil, 0
	if lines == 1 {
		c.parse(prod.one, toks)
		return
	}
	if c.try(prod.many, toks) == nil {
		return
	}
	start := 0
	for i, t := range toks {
		if t.Type == TokNL {
			c.parse(prod.one, toks[start:i+1])
			start = i + 1
		}
	}
}

// check parses one line with its production, or takes participle's
// verdict from the memo when a line of the same shape was parsed before.
func (c *Checker) check(prod *production, line []plexer.Token) {
	m := c.memo
	if !m.shape(prod, line) {
		c.parse(prod.one, line)
		return
	}
	if v, ok := m.shapes[string(m.key)]; ok {
		m.hits++
		c.fail(line, v.replay(line))
		return
	}
	err := c.try(prod.one, line)
	m.store(line, err)
	c.fail(line, err)
}

// parse parses tokens with parse and reports a failure.
func (c *Checker) parse(parse func(*plexer.PeekingLexer) error, toks []plexer.Token) {
	c.fail(toks, c.try(parse, toks))
}

// fail reports err, participle's verdict on toks, unless it is nil.
func (c *Checker) fail(toks []plexer.Token, err error) {
	if err == nil {
		return
	}
	pos := toks[0].Pos
	if pe, ok := err.(participle.Error); ok {
		pos = pe.Position()
	}
	c.report(Diagnostic{Pos: pos, Category: lexer.InvalidLine, Msg: "grammar: " + err.Error()})
}

func (c *Checker) try(parse func(*plexer.PeekingLexer) error, toks []plexer.Token) error {
	c.lex.toks = append(append(c.lex.toks[:0], toks...), plexer.EOFToken(toks[len(toks)-1].Pos))
	c.lex.i = 0
	pl, err := plexer.Upgrade(&c.lex)
	if err != nil {
		return err
	}
	return parse(pl)
}
