package stream

import (
	"strconv"

	"github.com/gcfkit/gcf/lexer"
)

// Kind is the kind of an Event.
type Kind uint8

// Event kinds. Every ObjectStart is closed by an ObjectEnd and every
// ArrayStart by an ArrayEnd; the stream ends with End, after which Next
// returns io.EOF.
const (
	KindInvalid Kind = iota
	// KindHeader is the header line. Fields holds the header keys and Cells
	// the matching values (as strings); Profile names the profile.
	KindHeader
	// KindObjectStart opens an object: the root object, a `## key` section,
	// an `@N {}` item, a `.field {}` attachment, or (Form FormKeyed) a keyed
	// map `[N:]{key,...}` whose rows are its members.
	KindObjectStart
	// KindObjectEnd closes the innermost open object.
	KindObjectEnd
	// KindArrayStart opens an array. Form tells the body: FormEmpty (`[0]`),
	// FormInline (`name[N]: a,b`; the values are in Cells), FormTabular
	// (Row events follow), FormExpanded (item events follow). The start
	// event of a table (FormTabular, FormKeyed, or FormEmpty with a
	// declaration) holds the whole declaration in Fields and its constant
	// columns (v3.6.0 §7.4.7) in Consts.
	KindArrayStart
	// KindArrayEnd closes the innermost open array.
	KindArrayEnd
	// KindScalar is one scalar value: `key=value`, `@N =value`,
	// `.field =value` or a root `=value`. The value is in Value.
	KindScalar
	// KindRow is one tabular or keyed-map row; Cells holds one scalar per
	// row column, Fields the row columns' names (for keyed maps, cell 0 is
	// the member key). A row carries only its own cells: the table's
	// constant columns and its grouping column are in the table start
	// event's Consts, not repeated per row (unless SetExpand is on).
	// Attachment values for the row follow as value events with
	// RoleAttachment, and positional inline bodies as KindInlineBody events.
	KindRow
	// KindInlineBody is a positional inline-object attachment body (SPEC
	// §7.4.5) for column Field of the current row: Fields holds the inline
	// schema and Cells its values.
	KindInlineBody
	// KindSummary is the `##! summary` trailer; Fields/Cells hold its pairs.
	// Counts have already been validated when it is returned.
	KindSummary
	// KindEnd marks the end of a complete, validated payload.
	KindEnd

	// Graph profile (SPEC §5, §6, §6a, §9, §10).

	// KindGroup is a graph group header `## name [N]`: Key is the name, ID
	// the distance of a symbol group (targets 0, related 1, extended 2,
	// distance_N N) or -1 for edges and delta sections, Count the declared
	// count or lexer.Deferred (-1) when there is none or it is `?`.
	//
	// In the generic profile it is the subheader `col=value [n]` of a
	// grouped table (v3.6.0 §7.4.8): Key is the grouping column, Value the
	// group's value, Count its row count n, Field the column's index in the
	// table's declaration; the n rows of the group follow. The table start
	// event's Consts entry with Group set holds the same Value until the
	// next subheader.
	KindGroup
	// KindSymbol is a node line: ID is the symbol id and Cells hold kind,
	// qualified name, score (KindFloat), provenance and, on a delta
	// `## added` line, distance (KindInt) as a fifth cell.
	KindSymbol
	// KindReference is a session reference `@N  # previously transmitted`; ID is N.
	KindReference
	// KindEdge is an edge line `@T<@S type [status]`: Cells hold target
	// and source ids (KindInt), the edge type and, if present, the status.
	KindEdge
	// KindRemoved is a delta `## removed` line: Cells hold kind and qualified name.
	KindRemoved
	// KindDeltaEdge is a delta edge line `source -> target type`: Cells
	// hold the source and target qualified names and the edge type.
	KindDeltaEdge
)

var kindNames = [...]string{"invalid", "header", "object start", "object end", "array start", "array end", "scalar", "row",
	"inline body", "summary", "end", "group", "symbol", "reference", "edge", "removed", "delta edge"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Role tells where a value event stands in its parent.
type Role uint8

// Roles of value events (KindObjectStart, KindArrayStart, KindScalar).
const (
	RoleNone       Role = iota
	RoleRoot            // the payload's root value
	RoleMember          // an object member; Key is its key
	RoleItem            // an expanded-array item; ID is its index
	RoleAttachment      // a row attachment; Key is the field name, Field its column (or -1)
)

// Form is the body form of a container.
type Form uint8

// Container body forms.
const (
	FormNone     Form = iota
	FormEmpty         // `[0]`: no body
	FormInline        // inline primitive array; values in Cells
	FormTabular       // tabular rows
	FormExpanded      // `@N` items
	FormKeyed         // keyed-map rows (an object)
	FormSection       // object members
)

// Event is one step of a payload. Byte slices in an Event (Key, Fields,
// Cells and the Bytes of each scalar) are borrowed from the decoder and
// valid only until the next call to Next; use Clone to keep them.
type Event struct {
	Kind Kind
	Role Role
	Form Form
	// Key is the member key, section name or attachment field name.
	Key []byte
	// ID is the item or row index given by an `@N` prefix, or -1.
	ID int64
	// Field is the column index an attachment or inline body fills, or -1.
	Field int
	// Count is a container's declared count, or lexer.Deferred for `[?]`.
	Count int64
	// Fields are the declared field names of a tabular or keyed body (all
	// of them, in declaration order, on the table's start event; the row
	// columns only on a row event), the schema of an inline body, or the
	// keys of a header or summary.
	Fields [][]byte
	// Consts are the constant columns (v3.6.0 §7.4.7) and the grouping
	// column (§7.4.8) of a table, on its start event, in declaration order.
	// Unlike the other slices they stay valid until the table's end event.
	// A record of the table is its row's cells and these values, each at
	// its declared position.
	Consts []Const
	// Value is the scalar of a KindScalar event.
	Value lexer.Scalar
	// Cells are the values of a row, inline array, inline body, header or summary.
	Cells []lexer.Scalar
	// Line is the 1-based line the event comes from (0 for synthesized ends).
	Line int
	// Offset is the input offset of the line's first byte after its
	// indentation; a cell's text that is not Escaped starts at
	// Offset + Col - 1 (+1 for the opening quote of a quoted string).
	Offset int64
	// Profile is "generic" or "graph" on a KindHeader event.
	Profile string
}

// Const is a constant column `name=value` of a table (v3.6.0 §7.4.7), or
// the grouping column of a grouped table (§7.4.8), whose Value is the
// current group's value (set by each subheader; zero before the first).
type Const struct {
	Name  []byte
	Value lexer.Scalar
	At    int  // index of the column in the declaration (the start event's Fields)
	Group bool // the grouping column
}

// Clone returns a deep copy of e whose slices are not shared with the decoder.
func (e Event) Clone() Event {
	c := e
	c.Key = cloneBytes(e.Key)
	if e.Fields != nil {
		c.Fields = make([][]byte, len(e.Fields))
		for i, f := range e.Fields {
			c.Fields[i] = cloneBytes(f)
		}
	}
	c.Value.Bytes = cloneBytes(e.Value.Bytes)
	if e.Consts != nil {
		c.Consts = make([]Const, len(e.Consts))
		for i, k := range e.Consts {
			k.Name = cloneBytes(k.Name)
			k.Value.Bytes = cloneBytes(k.Value.Bytes)
			c.Consts[i] = k
		}
	}
	if e.Cells != nil {
		c.Cells = make([]lexer.Scalar, len(e.Cells))
		for i, s := range e.Cells {
			s.Bytes = cloneBytes(s.Bytes)
			c.Cells[i] = s
		}
	}
	return c
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// Score returns the score of a KindSymbol event, parsed without allocating.
// Its error, if any, carries the event's line and the score's column.
func (e *Event) Score() (float64, error) {
	if e.Kind != KindSymbol || len(e.Cells) < 3 {
		return 0, &lexer.SyntaxError{Line: e.Line, Column: 1, Offset: e.Offset, Category: lexer.InvalidScore,
			Msg: "event " + e.Kind.String() + " has no score"}
	}
	f, err := lexer.ParseFloat(e.Cells[2].Bytes)
	if err != nil { // not from a decoder, which rejects such a score
		c := &e.Cells[2]
		return 0, &lexer.SyntaxError{Line: e.Line, Column: c.Col, Offset: e.Offset + int64(c.Col-1), Category: lexer.OutOfRange,
			Msg: "score " + lexer.Excerpt(c.Bytes) + " is outside the binary64 range", Err: err}
	}
	return f, nil
}

// EdgeIDs returns the target and source ids of a KindEdge event.
func (e *Event) EdgeIDs() (target, source int64) {
	if e.Kind != KindEdge || len(e.Cells) < 2 {
		return -1, -1
	}
	return e.Cells[0].Int, e.Cells[1].Int
}

// Distance returns the distance a KindSymbol event carries on a delta
// `## added` line, or -1 when the distance comes from the group header.
func (e *Event) Distance() int64 {
	if e.Kind != KindSymbol || len(e.Cells) < 5 {
		return -1
	}
	return e.Cells[4].Int
}
