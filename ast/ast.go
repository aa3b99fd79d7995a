// Package ast holds the syntax tree of a GCF payload as parsed by package
// grammar, with positions, and Validate, which checks what a context-free
// grammar cannot say: declared counts at every level (SPEC §13, §8.6),
// duplicate keys and field names (§2a.2), row and inline widths (§7.4,
// §7.4.5), attachment matching (§7.4.4-§7.4.5), item ids (§7.6), edge
// references (§6) and the summary trailer (§8.4).
//
// Parse returns every diagnostic, sorted by position, like go/scanner's
// ErrorList; the pull decoder of package stream stops at the first.
package ast

import (
	"fmt"
	"sort"

	"github.com/gcfkit/gcf/lexer"
)

// Pos is a position in the input: a 0-based byte Offset and a 1-based Line
// and byte Column, like go/token.
type Pos struct {
	Offset int
	Line   int
	Column int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// Before reports whether p comes before q.
func (p Pos) Before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Column < q.Column
}

// Error is one diagnostic: a position, a category (spelled as SPEC §16.5,
// or one of the extra categories of package lexer) and a message.
type Error struct {
	Pos      Pos
	Category lexer.Category
	Msg      string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s: %s", e.Pos.Line, e.Pos.Column, e.Category, e.Msg)
}

// Is makes errors.Is(err, category) work, as for *lexer.SyntaxError.
func (e *Error) Is(target error) bool {
	c, ok := target.(lexer.Category)
	return ok && c == e.Category
}

// ErrorList is a list of diagnostics; Sort orders it by position.
type ErrorList []*Error

func (l ErrorList) Len() int           { return len(l) }
func (l ErrorList) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool { return l[i].Pos.Before(l[j].Pos) }

// Sort sorts the list by position; diagnostics at one position keep their order.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error describes the first diagnostic and how many follow, like go/scanner.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Node is any node of the tree.
type Node interface {
	Position() Pos
}

// File is a parsed payload.
type File struct {
	Header  *Header
	Profile string   // "generic" or "graph" when the header names one of them
	Root    Value    // the generic root value (nil for the graph profile)
	Graph   *Graph   // the graph body (nil for the generic profile)
	Summary *Summary // the `##! summary` trailer, if any
	End     Pos      // the end of input
}

// Header is the header line (SPEC §3).
type Header struct {
	Pos    Pos
	Fields []*Field
}

// Field is one key=value pair of the header or the summary.
type Field struct {
	Pos   Pos
	Key   string
	Value string
}

// Summary is the `##! summary` trailer (SPEC §8.4); Rejected marks a
// malformed `##!` line.
type Summary struct {
	Pos      Pos
	Fields   []*Field
	Rejected bool
}

func (n *Header) Position() Pos  { return n.Pos }
func (n *Field) Position() Pos   { return n.Pos }
func (n *Summary) Position() Pos { return n.Pos }

// Value is a generic value: *Scalar, *Object or *Array.
type Value interface {
	Node
	value()
}

// ScalarKind classifies a scalar by SPEC §2.1.
type ScalarKind uint8

// Scalar kinds.
const (
	String ScalarKind = iota + 1
	Null
	Bool
	Number
)

// Scalar is a scalar value; Text is the decoded string, or the lexeme of a
// number, boolean or null.
type Scalar struct {
	Pos    Pos
	Kind   ScalarKind
	Quoted bool
	Text   string
}

// Object is a generic object.
type Object struct {
	Pos     Pos
	Members []*Member
}

// Member is one object member. Value is nil for a line the parser rejected
// (its key, if it had one, still counts for duplicate detection).
type Member struct {
	Pos   Pos
	Key   *Name
	Value Value
}

// Name is a key or field name with its position.
type Name struct {
	Pos   Pos
	Text  string
	ID    bool    // marked "@": the identity field of a keyed set (SPEC §10a.1) or the key of a grouped table (v3.6.0 §7.4.8.1)
	Const *Scalar // the value of a constant column `name=value` (v3.6.0 §7.4.7), or nil
}

// Form is the encoding form of an array (SPEC §7.3).
type Form uint8

// Array forms.
const (
	Inline   Form = iota + 1 // key[N]: values
	Tabular                  // rows of a field declaration
	Keyed                    // a keyed map [N:]{key,...} (an object on decode, §7.2a)
	Expanded                 // @N items
	Empty                    // [0] or [0]{...}
)

// Deferred is the Count of a `[?]` bracket.
const Deferred = -1

// Array is a counted container: an inline, tabular, keyed or expanded
// array. End is where its body ends (the position count mismatches are
// reported at, as the pull decoder does).
type Array struct {
	Pos      Pos
	Form     Form
	Count    int64 // Deferred for [?]
	CountPos Pos
	Fields   []*Name // the declaration, or the shared schema (§7.4.5.3)
	Group    *Name   // the group= column of a grouped table (v3.6.0 §7.4.8), or nil
	DeclPos  Pos
	Shared   bool // Fields come from a shared array schema
	Values   []*Scalar
	Rows     []*Row
	Items    []*Item
	End      Pos
}

// RowFields returns the columns a row of the table holds: the declared
// fields without the constant columns and the group column (v3.6.0
// §7.4.7, §7.4.8).
func (a *Array) RowFields() []*Name {
	if a.Group == nil {
		plain := true
		for _, n := range a.Fields {
			plain = plain && n.Const == nil
		}
		if plain {
			return a.Fields
		}
	}
	out := make([]*Name, 0, len(a.Fields))
	for _, n := range a.Fields {
		if n.Const == nil && (a.Group == nil || n.Text != a.Group.Text) {
			out = append(out, n)
		}
	}
	return out
}

// Row is one tabular or keyed row with its attachments.
type Row struct {
	Pos         Pos
	ID          *ID // the @N prefix, if any
	Cells       []*Cell
	Attachments []*Attachment
	Rejected    bool // the line was rejected by the parser
	End         Pos
}

// ID is an @N id.
type ID struct {
	Pos   Pos
	Value int64
}

// CellKind classifies a tabular cell.
type CellKind uint8

// Cell kinds.
const (
	CellScalar  CellKind = iota + 1
	CellMissing          // ~
	CellAttach           // ^ or ^{fields}
)

// Cell is one tabular cell.
type Cell struct {
	Pos    Pos
	Kind   CellKind
	Scalar *Scalar
	Schema []*Name // ^{fields}: the inline object schema
}

// Attachment is a row's traditional attachment (Name set, Value the
// attached value) or positional inline body (Name nil, Inline the values).
type Attachment struct {
	Pos      Pos
	Name     *Name
	Value    Value
	Inline   []*Scalar
	Rejected bool
}

// Item is one expanded item; Value is nil for a rejected line.
type Item struct {
	Pos   Pos
	ID    *ID
	Value Value
}

func (n *Scalar) Position() Pos     { return n.Pos }
func (n *Object) Position() Pos     { return n.Pos }
func (n *Array) Position() Pos      { return n.Pos }
func (n *Member) Position() Pos     { return n.Pos }
func (n *Name) Position() Pos       { return n.Pos }
func (n *Row) Position() Pos        { return n.Pos }
func (n *Cell) Position() Pos       { return n.Pos }
func (n *Attachment) Position() Pos { return n.Pos }
func (n *Item) Position() Pos       { return n.Pos }
func (n *ID) Position() Pos         { return n.Pos }
func (*Scalar) value()              {}
func (*Object) value()              {}
func (*Array) value()               {}

// Graph is a graph-profile body (SPEC §5-§6a, §9, §10.1).
type Graph struct {
	Groups []*Group
	End    Pos // where the groups end (the summary line or the end of input)
}

// Group is a group header and its lines.
type Group struct {
	Pos      Pos
	Name     string
	Count    int64 // Deferred for [?]; NoCount without a bracket
	Lines    []GraphLine
	Rejected bool
	End      Pos
}

// NoCount is the Count of a group header without a bracket.
const NoCount = -2

// GraphLine is *Symbol, *Edge, *DeltaSymbol, *DeltaEdge or *RejectedLine.
type GraphLine interface {
	Node
	graphLine()
}

// Symbol is a node line, a session reference (Ref) or a delta `## added`
// line (Distance set).
type Symbol struct {
	Pos        Pos
	ID         *ID
	Ref        bool
	Kind       string
	QName      string
	Score      string
	Provenance string
	Distance   *int64
}

// Edge is an edge line.
type Edge struct {
	Pos    Pos
	Target *ID
	Source *ID
	Type   string
	Status string
}

// DeltaSymbol is a `## removed` line.
type DeltaSymbol struct {
	Pos   Pos
	Kind  string
	QName string
}

// DeltaEdge is a `## edges_added` / `## edges_removed` line.
type DeltaEdge struct {
	Pos            Pos
	Source, Target string
	Type           string
}

// RejectedLine is a line the parser rejected.
type RejectedLine struct {
	Pos  Pos
	Text string
}

func (n *Group) Position() Pos        { return n.Pos }
func (n *Symbol) Position() Pos       { return n.Pos }
func (n *Edge) Position() Pos         { return n.Pos }
func (n *DeltaSymbol) Position() Pos  { return n.Pos }
func (n *DeltaEdge) Position() Pos    { return n.Pos }
func (n *RejectedLine) Position() Pos { return n.Pos }
func (*Symbol) graphLine()            {}
func (*Edge) graphLine()              {}
func (*DeltaSymbol) graphLine()       {}
func (*DeltaEdge) graphLine()         {}
func (*RejectedLine) graphLine()      {}
