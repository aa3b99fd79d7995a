package lexer

import (
	"errors"
	"fmt"
)

// Category names one class of decode or encode failure. The strict-mode
// categories are spelled exactly as in SPEC §16.5 and the conformance
// fixtures' expectedError; the rest cover conditions the spec leaves to the
// implementation (numeric domain, limits, malformed lines).
type Category string

// Strict-mode categories of SPEC §16.5.
const (
	MissingHeader           Category = "missing_header"
	MissingProfile          Category = "missing_profile"
	UnknownProfile          Category = "unknown_profile"
	MalformedHeaderField    Category = "malformed_header_field"
	DuplicateHeaderField    Category = "duplicate_header_field"
	UnterminatedQuote       Category = "unterminated_quote"
	InvalidEscape           Category = "invalid_escape"
	TrailingCharacters      Category = "trailing_characters"
	InvalidMissing          Category = "invalid_missing"
	InvalidAttachmentMarker Category = "invalid_attachment_marker"
	InvalidSurrogate        Category = "invalid_surrogate"
	InvalidUTF8             Category = "invalid_utf8"
	DuplicateKey            Category = "duplicate_key"
	DuplicateFieldName      Category = "duplicate_field_name"
	RowWidthMismatch        Category = "row_width_mismatch"
	CountMismatch           Category = "count_mismatch"
	InvalidCount            Category = "invalid_count"
	TabIndentation          Category = "tab_indentation"
	InvalidIndent           Category = "invalid_indent"
	InvalidItemID           Category = "invalid_item_id"
	OrphanAttachment        Category = "orphan_attachment"
	OrphanInlineAttachment  Category = "orphan_inline_attachment"
	MissingAttachment       Category = "missing_attachment"
	DuplicateAttachment     Category = "duplicate_attachment"
	InlineWidthMismatch     Category = "inline_width_mismatch"
	InvalidNodeLine         Category = "invalid_node_line"
	InvalidSymbolID         Category = "invalid_symbol_id"
	InvalidScore            Category = "invalid_score"
	InvalidEdgeSyntax       Category = "invalid_edge_syntax"
	UnknownEdgeReference    Category = "unknown_edge_reference"
	MalformedDelta          Category = "malformed_delta"
)

// Categories added by spec v3.6.0 for constant columns (§7.4.7) and
// value-grouping (§7.4.8), spelled as in its conformance fixtures.
const (
	// InvalidConstValue: a constant column's value token is empty, ~, a
	// bare ^ or a complete ^{...} attachment marker.
	InvalidConstValue Category = "invalid_const_value"
	// NoBareColumn: every entry of a field declaration is a constant, so
	// rows would have no cells.
	NoBareColumn Category = "no_bare_column"
	// InvalidGroupHeader: a malformed group= clause or group subheader, a
	// grouped table without exactly one @ key column, or a group column
	// that is undeclared, the key or a constant.
	InvalidGroupHeader Category = "invalid_group_header"
	// DuplicateGroup: two subheaders of one grouped table name the same value.
	DuplicateGroup Category = "duplicate_group"
)

// Categories for conditions SPEC §16.5 does not name.
const (
	// OutOfRange: an integer outside the int64 domain of SPEC §2.3.2, or a
	// non-finite float handed to an encoder.
	OutOfRange Category = "out_of_range"
	// InvalidLine: a line that matches no production allowed where it stands.
	InvalidLine Category = "invalid_line"
	// InvalidKeyedMap: a keyed-map header declaring fewer than two fields.
	InvalidKeyedMap Category = "invalid_keyed_map"
	// InvalidSummary: a malformed `##! summary` trailer or content after it.
	InvalidSummary Category = "invalid_summary"
	// UnsupportedValue: a Go value with no JSON equivalent handed to an encoder.
	UnsupportedValue Category = "unsupported_value"
	// InvalidSchema: a streaming schema that the wire cannot carry.
	InvalidSchema Category = "invalid_schema"

	// Limits of SPEC §12, each an option with a default above the minimum.
	LineTooLong     Category = "line_too_long"
	DepthExceeded   Category = "depth_exceeded"
	TooManyElements Category = "too_many_elements"
	TooManyFields   Category = "too_many_fields"
	PayloadTooLarge Category = "payload_too_large"
	UnexpectedEOF   Category = "unexpected_eof"
	ReadFailure     Category = "read_error"
)

// Error makes a Category usable as an errors.Is target: every *SyntaxError
// matches the Category it carries.
func (c Category) Error() string { return string(c) }

// SyntaxError reports malformed or hostile input (or an unencodable value)
// with its position. Line and Column are 1-based; Column counts bytes, like
// go/token. Offset is the 0-based byte offset of the position in the input.
// A zero Line means the error has no input position (encode-side errors);
// such an error about one value of the encoder's input names it in Path.
type SyntaxError struct {
	Line     int
	Column   int
	Offset   int64
	Category Category
	Msg      string
	Err      error // underlying cause, if any (for example a reader failure)
	// Path is the JSON Pointer (RFC 6901) of the value an encode error is
	// about, within the value being encoded, as json/v2's SemanticError
	// carries one: "/users/0/name". It is "" for the root value (the
	// message then says so) and for errors about no one value.
	Path string
}

// Error returns "line:column: category: message" for an error with an
// input position, "path: category: message" (the JSON Pointer, quoted as
// Go quotes strings) for an encode error with a Path, and
// "category: message" otherwise.
func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		if e.Path != "" {
			return fmt.Sprintf("%q: %s: %s", e.Path, e.Category, e.Msg)
		}
		return fmt.Sprintf("%s: %s", e.Category, e.Msg)
	}
	return fmt.Sprintf("%d:%d: %s: %s", e.Line, e.Column, e.Category, e.Msg)
}

// Unwrap returns the underlying cause.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Is reports whether target is the error's Category, so that
// errors.Is(err, lexer.CountMismatch) works.
func (e *SyntaxError) Is(target error) bool {
	c, ok := target.(Category)
	return ok && c == e.Category
}

// CategoryOf returns the Category carried by err, or "" if err carries none.
func CategoryOf(err error) Category {
	var se *SyntaxError
	if errors.As(err, &se) {
		return se.Category
	}
	var c Category
	if errors.As(err, &c) {
		return c
	}
	return ""
}

// Errorf builds a positionless *SyntaxError.
func Errorf(c Category, format string, args ...any) *SyntaxError {
	return &SyntaxError{Category: c, Msg: fmt.Sprintf(format, args...)}
}
