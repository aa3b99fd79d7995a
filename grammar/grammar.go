// Package grammar is a second GCF parser written as a direct transcription
// of the ABNF of SPEC §4 (v3.5.3, with the v3.6.0 declaration entries and
// group clauses): one Go struct per production, named
// after it, parsed by github.com/alecthomas/participle/v2 from the tokens
// of this package's own lexer (see Scan). It is slow and meant to be
// obviously right: package ast turns its concrete syntax tree into nodes
// and validates what a context-free grammar cannot say, and the tests
// check it against the hand-written pull decoder of package stream.
//
// The lexer is derived from the ABNF terminals and the indentation rules of
// §4.1 and shares no parsing code with package lexer or stream (only the
// error categories and the limit definitions).
package grammar

import (
	plexer "github.com/alecthomas/participle/v2/lexer"
)

// Payload = header LF ( graph-body / generic-body ).
type Payload struct {
	Pos     plexer.Position
	Header  *Header      `parser:"@@?"`
	Graph   *GraphBody   `parser:"( @@"`
	Generic *GenericBody `parser:"| @@ )?"`
	EndPos  plexer.Position
}

// Header = "GCF" *( SP header-pair ) LF. The profile pair is checked by
// ast.Validate (§3.1: required, first, generic or graph).
type Header struct {
	Pos    plexer.Position
	Magic  string        `parser:"@Magic"`
	Pairs  []*HeaderPair `parser:"@@* NL"`
	EndPos plexer.Position
}

// HeaderPair = header-key "=" header-value.
type HeaderPair struct {
	Pos   plexer.Position
	Key   string `parser:"@HeaderKey '=':Punct"`
	Value string `parser:"@HeaderValue"`
}

// MetadataSummary = "##!" SP "summary" *( SP header-pair ) LF (§8.4). A
// malformed `##!` line keeps its place (it still ends the body) with a Bad
// token.
type MetadataSummary struct {
	Pos   plexer.Position
	Bad   *string       `parser:"'##!':Punct ( @Bad"`
	Pairs []*HeaderPair `parser:"| 'summary' @@* ) NL"`
}

// BadLine is a line the lexer rejected where no body was open (before the
// root value, after it, after the summary, or outside a graph group); the
// lexer has reported why. Like go/ast's BadStmt it keeps the tree whole.
type BadLine struct {
	Pos  plexer.Position
	Text string `parser:"@Bad NL"`
}

// ---------------------------------------------------------------- graph body

// GraphBody = *( graph-section ) [ metadata-summary ] (§4, §5-§6a, §10.1).
type GraphBody struct {
	Pos      plexer.Position
	Marker   string           `parser:"Graph"`
	Stray    []*BadLine       `parser:"@@*"`
	Sections []*GraphSection  `parser:"@@*"`
	Summary  *MetadataSummary `parser:"( @@"`
	After    []*BadLine       `parser:"  @@* )?"`
	EndPos   plexer.Position
}

// GraphSection = group-header LF *( graph-line LF ).
type GraphSection struct {
	Pos    plexer.Position
	Header *GroupHeader `parser:"@@"`
	Lines  []*GraphLine `parser:"@@*"`
	EndPos plexer.Position
}

// GroupHeader = "##" SP group-name [ SP count-bracket ]. A malformed header
// keeps only its "##" and a Bad token; its lines are skipped.
type GroupHeader struct {
	Pos   plexer.Position
	Mark  string  `parser:"@Group"`
	Bad   *string `parser:"( @Bad"`
	Name  string  `parser:"| @Key"`
	Count *string `parser:"  @Count? ) NL"`
}

// GraphLine = node-line / edge-line / ref-line / delta-symbol-line /
// delta-added-line / delta-edge-line. The group decides which one a line
// is (the lexer types its first token accordingly).
type GraphLine struct {
	Pos         plexer.Position
	Ref         *RefLine         `parser:"  @@"`
	Node        *NodeLine        `parser:"| @@"`
	Added       *DeltaAddedLine  `parser:"| @@"`
	Edge        *EdgeLine        `parser:"| @@"`
	DeltaSymbol *DeltaSymbolLine `parser:"| @@"`
	DeltaEdge   *DeltaEdgeLine   `parser:"| @@"`
	Bad         *BadLine         `parser:"| @@"`
}

// NodeLine = "@" id SP kind SP qname SP score SP provenance (§5).
type NodeLine struct {
	Pos        plexer.Position
	ID         string `parser:"@NodeID"`
	Kind       string `parser:"@Kind"`
	QName      string `parser:"@QName"`
	Score      string `parser:"@Score"`
	Provenance string `parser:"@Provenance NL"`
}

// RefLine = "@" id SP SP "# previously transmitted" (§9).
type RefLine struct {
	Pos plexer.Position
	ID  string `parser:"@NodeID"`
	Ref string `parser:"@Ref NL"`
}

// DeltaAddedLine = node-line SP distance (§10.1).
type DeltaAddedLine struct {
	Pos        plexer.Position
	ID         string `parser:"@AddedID"`
	Kind       string `parser:"@Kind"`
	QName      string `parser:"@QName"`
	Score      string `parser:"@Score"`
	Provenance string `parser:"@Provenance"`
	Distance   string `parser:"@Distance NL"`
}

// EdgeLine = "@" target-id "<" "@" source-id SP edge-type [ SP status ] (§6).
type EdgeLine struct {
	Pos    plexer.Position
	Target string  `parser:"@EdgeTarget '<':Punct"`
	Source string  `parser:"@EdgeSource"`
	Type   string  `parser:"@EdgeType"`
	Status *string `parser:"@Status? NL"`
}

// DeltaSymbolLine = kind SP qname (§10.1 `## removed`).
type DeltaSymbolLine struct {
	Pos   plexer.Position
	Kind  string `parser:"@Kind"`
	QName string `parser:"@QName NL"`
}

// DeltaEdgeLine = qname SP "->" SP qname SP edge-type (§10.1).
type DeltaEdgeLine struct {
	Pos    plexer.Position
	Source string `parser:"@QName '->':Punct"`
	Target string `parser:"@QName"`
	Type   string `parser:"@EdgeType NL"`
}

// -------------------------------------------------------------- generic body

// GenericBody = ( root-scalar / root-array / root-object / root-keyed-map )
// [ metadata-summary ] (§4, §7.1).
type GenericBody struct {
	Pos     plexer.Position
	Marker  string           `parser:"Generic"`
	Stray   []*BadLine       `parser:"@@*"`
	Scalar  *RootScalar      `parser:"( @@"`
	Keyed   *RootKeyedMap    `parser:"| @@"`
	Array   *RootArray       `parser:"| @@"`
	Object  *RootObject      `parser:"| @@ )?"`
	Extra   []*BadLine       `parser:"@@*"`
	Summary *MetadataSummary `parser:"( @@"`
	After   []*BadLine       `parser:"  @@* )?"`
	EndPos  plexer.Position
}

// RootScalar = "=" scalar LF.
type RootScalar struct {
	Pos   plexer.Position
	Value *Scalar `parser:"'=':Punct @@ NL"`
}

// RootKeyedMap = anonymous-keyed-block = "##" SP keyed-bracket field-decl LF tabular-body.
type RootKeyedMap struct {
	Pos    plexer.Position
	Count  *KeyedBracket `parser:"'##':Punct @@"`
	Fields *TableDecl    `parser:"@@ NL"`
	Body   *TabularBody  `parser:"@@?"`
	EndPos plexer.Position
}

// RootArray = anonymous-array = anonymous-inline-array / anonymous-array-block.
type RootArray struct {
	Pos    plexer.Position
	Inline *AnonymousInlineArray `parser:"  @@"`
	Block  *AnonymousArrayBlock  `parser:"| @@"`
}

// AnonymousInlineArray = "##" SP count-bracket ":" [ SP scalar-list ] LF.
type AnonymousInlineArray struct {
	Pos    plexer.Position
	Count  *CountBracket `parser:"'##':Punct @@ ':':Punct"`
	Values *ScalarList   `parser:"@@? NL"`
}

// AnonymousArrayBlock = "##" SP count-bracket [ field-decl [ group-clause ] ] LF array-body.
type AnonymousArrayBlock struct {
	Pos    plexer.Position
	Count  *CountBracket `parser:"'##':Punct @@"`
	Fields *TableDecl    `parser:"( @@"`
	Group  *GroupClause  `parser:"  @@? )? NL"`
	Body   *ArrayBody    `parser:"@@?"`
	EndPos plexer.Position
}

// RootObject = *( object-member ).
type RootObject struct {
	Pos     plexer.Position
	Members []*ObjectMember `parser:"@@+"`
	EndPos  plexer.Position
}

// ObjectMember = kv-line / object-section / named-array / keyed-block (§4;
// comment-line is removed by the lexer, §11). named-array = inline-array /
// array-block.
type ObjectMember struct {
	Pos     plexer.Position
	Kv      *KvLine        `parser:"  @@"`
	Inline  *InlineArray   `parser:"| @@"`
	Keyed   *KeyedBlock    `parser:"| @@"`
	Array   *ArrayBlock    `parser:"| @@"`
	Section *ObjectSection `parser:"| @@"`
	Bad     *BadMember     `parser:"| @@"`
}

// BadMember is a rejected line where an object-member was due; it keeps the
// member's key when one was read, for the duplicate-key check.
type BadMember struct {
	Pos  plexer.Position
	Text string `parser:"@BadMember"`
	Key  *Key   `parser:"@@? NL"`
}

// KvLine = key "=" scalar LF.
type KvLine struct {
	Pos   plexer.Position
	Key   *Key    `parser:"@@ '=':Punct"`
	Value *Scalar `parser:"@@ NL"`
}

// InlineArray = key count-bracket ":" [ SP scalar-list ] LF.
type InlineArray struct {
	Pos    plexer.Position
	Key    *Key          `parser:"@@"`
	Count  *CountBracket `parser:"@@ ':':Punct"`
	Values *ScalarList   `parser:"@@? NL"`
}

// ObjectSection = "##" SP key LF indented-object-body.
type ObjectSection struct {
	Pos    plexer.Position
	Key    *Key                `parser:"'##':Punct @@ NL"`
	Body   *IndentedObjectBody `parser:"@@"`
	EndPos plexer.Position
}

// IndentedObjectBody = *( INDENT object-member ).
type IndentedObjectBody struct {
	Pos     plexer.Position
	Members []*ObjectMember `parser:"Indent @@* Dedent"`
}

// ArrayBlock = "##" SP key SP count-bracket [ field-decl [ group-clause ] ] LF array-body.
type ArrayBlock struct {
	Pos    plexer.Position
	Key    *Key          `parser:"'##':Punct @@"`
	Count  *CountBracket `parser:"@@"`
	Fields *TableDecl    `parser:"( @@"`
	Group  *GroupClause  `parser:"  @@? )? NL"`
	Body   *ArrayBody    `parser:"@@?"`
	EndPos plexer.Position
}

// KeyedBlock = "##" SP key SP keyed-bracket field-decl LF tabular-body.
type KeyedBlock struct {
	Pos    plexer.Position
	Key    *Key          `parser:"'##':Punct @@"`
	Count  *KeyedBracket `parser:"@@"`
	Fields *TableDecl    `parser:"@@ NL"`
	Body   *TabularBody  `parser:"@@?"`
	EndPos plexer.Position
}

// ArrayBody = tabular-body / expanded-body / empty.
type ArrayBody struct {
	Pos      plexer.Position
	Expanded *ExpandedBody `parser:"  @@"`
	Tabular  *TabularBody  `parser:"| @@"`
}

// TabularBody = 1*( tabular-row *( traditional-attachment / inline-object-attachment ) ).
// Where a body may be empty (a `[?]` section with no rows) the enclosing
// production makes it optional; the count is Validate's (§13).
type TabularBody struct {
	Pos    plexer.Position
	Rows   []*TabularRow `parser:"@@+"`
	EndPos plexer.Position
}

// TabularRow = [ "@" id SP ] cell *( "|" cell ) LF, with the row's
// attachments (§7.4.4, §7.4.5); in a grouped table (v3.6.0 §7.4.8) the
// group subheaders stand among the rows, each before its group's rows.
type TabularRow struct {
	Pos         plexer.Position
	Bad         *BadRow          `parser:"  @@"`
	Subheader   *GroupSubheader  `parser:"| @@"`
	ID          *string          `parser:"| @RowID?"`
	Cells       []*Cell          `parser:"  @@ ( '|':Punct @@ )* NL"`
	Attachments []*RowAttachment `parser:"  @@*"`
	EndPos      plexer.Position
}

// GroupSubheader = group-column "=" scalar SP count-bracket LF (v3.6.0
// §7.4.8.3): the value of the grouping column for the next count rows.
// The scanner marks the line, since only the group counts tell it from a
// row.
type GroupSubheader struct {
	Pos    plexer.Position
	Column *Key          `parser:"Subheader @@ '=':Punct"`
	Value  *Scalar       `parser:"@@"`
	Count  *CountBracket `parser:"@@ NL"`
}

// GroupClause = SP "group=" key (v3.6.0 §7.4.8): after the field
// declaration of a grouped table, the column its rows are grouped by.
type GroupClause struct {
	Pos    plexer.Position
	Column *Key `parser:"'group=':Punct @@"`
}

// BadRow is a rejected line where a tabular row was due.
type BadRow struct {
	Pos  plexer.Position
	Text string `parser:"@BadRow NL"`
}

// BadItem is a rejected line where an expanded item was due; it keeps the
// item's id when one was read.
type BadItem struct {
	Pos  plexer.Position
	Text string  `parser:"@BadItem"`
	ID   *string `parser:"@ItemID? NL"`
}

// RowAttachment = traditional-attachment / inline-object-attachment.
type RowAttachment struct {
	Pos         plexer.Position
	Traditional *TraditionalAttachment  `parser:"  @@"`
	Inline      *InlineObjectAttachment `parser:"| @@"`
	Bad         *BadChild               `parser:"| @@"`
}

// BadChild is a rejected line where a row's attachment was due; it keeps the
// attachment's name when one was read.
type BadChild struct {
	Pos  plexer.Position
	Text string `parser:"@BadChild"`
	Name *Key   `parser:"( '.':Punct @@ )? NL"`
}

// Cell = scalar / "~" / attachment-cell.
type Cell struct {
	Pos     plexer.Position
	Missing bool            `parser:"  @Missing"`
	Attach  *AttachmentCell `parser:"| @@"`
	Scalar  *Scalar         `parser:"| @@"`
}

// AttachmentCell = "^" / "^" field-decl.
type AttachmentCell struct {
	Pos    plexer.Position
	Caret  string     `parser:"@Attach"`
	Schema *FieldDecl `parser:"@@?"`
}

// InlineObjectAttachment = scalar *( "|" scalar ) LF (§7.4.5.2; the lexer
// marks which cell lines are positional bodies).
type InlineObjectAttachment struct {
	Pos    plexer.Position
	Values []*Scalar `parser:"Inline @@ ( '|':Punct @@ )* NL"`
}

// TraditionalAttachment = object-attachment / array-attachment /
// keyed-map-attachment, plus the scalar attachment `.f =value` the encoder
// writes for a `>`-named field without a column (§7.4.6.1 rule 4).
type TraditionalAttachment struct {
	Pos    plexer.Position
	Object *ObjectAttachment   `parser:"  @@"`
	Keyed  *KeyedMapAttachment `parser:"| @@"`
	Array  *ArrayAttachment    `parser:"| @@"`
	Scalar *ScalarAttachment   `parser:"| @@"`
	EndPos plexer.Position
}

// ObjectAttachment = "." key SP "{}" LF *( INDENT object-member ).
type ObjectAttachment struct {
	Pos     plexer.Position
	Key     *Key            `parser:"'.':Punct @@ '{}':Punct NL"`
	Members []*ObjectMember `parser:"Indent @@* Dedent"`
}

// KeyedMapAttachment = "." key SP keyed-bracket field-decl LF tabular-body.
type KeyedMapAttachment struct {
	Pos    plexer.Position
	Key    *Key          `parser:"'.':Punct @@"`
	Count  *KeyedBracket `parser:"@@"`
	Fields *TableDecl    `parser:"@@ NL"`
	Body   *TabularBody  `parser:"Indent @@? Dedent"`
	EndPos plexer.Position
}

// ArrayAttachment = "." key SP count-bracket [ field-decl [ group-clause ] ] [ ":" [ SP scalar-list ] ] LF [ INDENT array-body ].
type ArrayAttachment struct {
	Pos    plexer.Position
	Key    *Key          `parser:"'.':Punct @@"`
	Count  *CountBracket `parser:"@@"`
	Fields *TableDecl    `parser:"( @@"`
	Group  *GroupClause  `parser:"  @@? )?"`
	Colon  bool          `parser:"( @':':Punct"`
	Values *ScalarList   `parser:"  @@? )? NL"`
	Body   *ArrayBody    `parser:"( Indent @@? Dedent )?"`
	EndPos plexer.Position
}

// ScalarAttachment = "." key SP "=" scalar LF.
type ScalarAttachment struct {
	Pos   plexer.Position
	Key   *Key    `parser:"'.':Punct @@ '=':Punct"`
	Value *Scalar `parser:"@@ NL"`
}

// ExpandedBody = 1*( expanded-item ).
type ExpandedBody struct {
	Pos   plexer.Position
	Items []*ExpandedItem `parser:"@@+"`
}

// ExpandedItem = primitive-item / object-item / array-item / keyed-map-item.
type ExpandedItem struct {
	Pos       plexer.Position
	Bad       *BadItem       `parser:"  @@"`
	Primitive *PrimitiveItem `parser:"| @@"`
	Object    *ObjectItem    `parser:"| @@"`
	Keyed     *KeyedMapItem  `parser:"| @@"`
	Array     *ArrayItem     `parser:"| @@"`
	EndPos    plexer.Position
}

// PrimitiveItem = "@" id SP "=" scalar LF.
type PrimitiveItem struct {
	Pos   plexer.Position
	ID    string  `parser:"@ItemID '=':Punct"`
	Value *Scalar `parser:"@@ NL"`
}

// ObjectItem = "@" id SP "{}" LF *( INDENT object-member ).
type ObjectItem struct {
	Pos     plexer.Position
	ID      string          `parser:"@ItemID '{}':Punct NL"`
	Members []*ObjectMember `parser:"Indent @@* Dedent"`
}

// KeyedMapItem = "@" id SP keyed-bracket field-decl LF INDENT tabular-body.
type KeyedMapItem struct {
	Pos    plexer.Position
	ID     string        `parser:"@ItemID"`
	Count  *KeyedBracket `parser:"@@"`
	Fields *TableDecl    `parser:"@@ NL"`
	Body   *TabularBody  `parser:"Indent @@? Dedent"`
	EndPos plexer.Position
}

// ArrayItem = "@" id SP count-bracket [ field-decl [ group-clause ] ] [ ":" [ SP scalar-list ] ] LF [ INDENT array-body ].
type ArrayItem struct {
	Pos    plexer.Position
	ID     string        `parser:"@ItemID"`
	Count  *CountBracket `parser:"@@"`
	Fields *TableDecl    `parser:"( @@"`
	Group  *GroupClause  `parser:"  @@? )?"`
	Colon  bool          `parser:"( @':':Punct"`
	Values *ScalarList   `parser:"  @@? )? NL"`
	Body   *ArrayBody    `parser:"( Indent @@? Dedent )?"`
	EndPos plexer.Position
}

// ------------------------------------------------------------ shared pieces

// CountBracket = "[" count-or-deferred "]" (one token; §4, §8.2).
type CountBracket struct {
	Pos  plexer.Position
	Text string `parser:"@Count"`
}

// KeyedBracket = "[" count-or-deferred ":" "]" (one token; §7.2a).
type KeyedBracket struct {
	Pos  plexer.Position
	Text string `parser:"@KeyedCount"`
}

// FieldDecl = "{" field-name *( "," field-name ) "}".
type FieldDecl struct {
	Pos   plexer.Position
	Names []*FieldName `parser:"'{':Punct @@ ( ',':Punct @@ )* '}':Punct"`
}

// FieldName = [ "@" ] key: a field-name (§2a.3), or in the declaration of a
// keyed set the id-field = "@" key of §10a.1 (the scanner emits the "@"
// only there: under a key= header, in a top-level table).
type FieldName struct {
	Pos plexer.Position
	ID  bool `parser:"@'@':Punct?"`
	Key *Key `parser:"@@"`
}

// TableDecl = "{" table-field *( "," table-field ) "}": the field
// declaration of a table (an inline schema is a FieldDecl).
type TableDecl struct {
	Pos   plexer.Position
	Names []*TableField `parser:"'{':Punct @@ ( ',':Punct @@ )* '}':Punct"`
}

// TableField = [ "@" ] key [ "=" scalar ]: a field-name (§2a.3); marked
// "@", the id-field of a keyed set (§10a.1) or the key column of a grouped
// table (v3.6.0 §7.4.8.1); with "=" scalar, a constant column (v3.6.0
// §7.4.7) whose value every record takes and whose rows have no cell for it.
type TableField struct {
	Pos   plexer.Position
	ID    bool    `parser:"@'@':Punct?"`
	Key   *Key    `parser:"@@"`
	Const *Scalar `parser:"( '=':Punct @@ )?"`
}

// ScalarList = scalar *( "," scalar ).
type ScalarList struct {
	Pos    plexer.Position
	Values []*Scalar `parser:"@@ ( ',':Punct @@ )*"`
}

// Key = bare-key / quoted-key (§2a.1). Quoted holds the decoded text.
type Key struct {
	Pos    plexer.Position
	Bare   *string `parser:"  @Key"`
	Quoted *string `parser:"| @QKey"`
}

// Text returns the key's decoded text.
func (k *Key) Text() string {
	if k.Bare != nil {
		return *k.Bare
	}
	if k.Quoted != nil {
		return *k.Quoted
	}
	return ""
}

// Scalar = quoted-string / "-" / "true" / "false" / number / bare-string (§2.1).
type Scalar struct {
	Pos    plexer.Position
	Quoted *string `parser:"  @Quoted"`
	Null   bool    `parser:"| @Null"`
	Bool   *string `parser:"| @Bool"`
	Number *string `parser:"| @Number"`
	Bare   *string `parser:"| @Bare"`
}
