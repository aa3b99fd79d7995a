package encoder

import (
	"bytes"
	"strconv"
)

// The syntax writer: append functions for each piece of a GCF line, the
// mirror of what package stream reads. Header lines (SPEC §3), section
// lines with their counts and field declarations (§7, §8, §10a), rows
// (§7.4), the summary trailer (§8.4) and, for the legacy wire, the v1
// dialect's header and trailer (SPEC-v1.1 §3, SPEC-v1.4). None allocates
// beyond growing dst; none checks limits or header values (the callers
// check what they were given, once, before writing).

// AppendHeader appends `GCF profile=<profile>`, the start of a v3 header
// line; fields follow (AppendHeaderField), then a line end.
func AppendHeader(dst []byte, profile string) []byte {
	dst = append(dst, "GCF profile="...)
	return append(dst, profile...)
}

// AppendV1Header appends `GCF`, the start of a v1 header line (SPEC-v1.1
// §3: no profile); its fields (tool=, ...) follow by AppendHeaderField.
func AppendV1Header(dst []byte) []byte { return append(dst, "GCF"...) }

// AppendHeaderField appends ` key=value` with value as is: header values
// have no quoting (SPEC §3.1), so the caller has checked it holds no space
// or line end.
func AppendHeaderField(dst []byte, key, value string) []byte {
	dst = append(dst, ' ')
	dst = append(dst, key...)
	dst = append(dst, '=')
	return append(dst, value...)
}

// AppendHeaderInt appends ` key=n`.
func AppendHeaderInt(dst []byte, key string, n int64) []byte {
	dst = append(dst, ' ')
	dst = append(dst, key...)
	dst = append(dst, '=')
	return strconv.AppendInt(dst, n, 10)
}

// AppendSection appends the start of a counted section line: `## ` and,
// when name is not empty, the name (AppendKey) and a space; a count
// (AppendCount) and a field declaration follow. An empty name starts the
// root array's section (`## [N]...`).
func AppendSection(dst []byte, name string) []byte {
	dst = append(dst, "## "...)
	if name != "" {
		dst = AppendKey(dst, name)
		dst = append(dst, ' ')
	}
	return dst
}

// SectionMark starts every section line; writers that size their output
// before writing it count it by len(SectionMark).
const SectionMark = "## "

// AppendSectionMark appends `## `, for a section whose name the caller
// writes and checks (an object key in the generic encoders, a graph
// distance group, a v1 key).
func AppendSectionMark(dst []byte) []byte { return append(dst, SectionMark...) }

// AppendSectionLine appends `## name` and a line end with name as is: the
// fixed section names of the graph profile and its deltas (`## removed`,
// `## edges_added`, ...).
func AppendSectionLine(dst []byte, name string) []byte {
	dst = append(dst, "## "...)
	dst = append(dst, name...)
	return append(dst, '\n')
}

// AppendSummary appends `##! summary`, the start of the trailer of SPEC
// §8.4; its fields follow by AppendHeaderField or AppendHeaderInt.
func AppendSummary(dst []byte) []byte { return append(dst, "##! summary"...) }

// AppendV1Summary appends `## _summary`, the start of the v1.4 trailer of
// streamed payloads; its fields follow by AppendHeaderField.
func AppendV1Summary(dst []byte) []byte { return append(dst, "## _summary"...) }

// A Field is one entry of a field declaration.
type Field struct {
	Name string
	// Key marks the identity column of a keyed set, written `@name`
	// (SPEC §10a).
	Key bool
	// Const marks a constant column (spec v3.6.0 §7.4.7), written
	// `name=value` with Value, the column's one value as AppendConstValue
	// writes it; the column then has no cell in the rows.
	Const bool
	Value []byte
}

// AppendFields appends the field declaration `{...}` of fs: each name by
// AppendKey, `@` before a Key field, `=value` after a Const one.
func AppendFields(dst []byte, fs []Field) []byte {
	open := len(dst)
	dst = append(dst, '{')
	for _, f := range fs {
		if f.Key {
			dst = append(dst, '@')
		}
		dst = AppendKey(dst, f.Name)
		if f.Const {
			dst = append(dst, '=')
			dst = append(dst, f.Value...)
		}
		dst = AppendFieldSep(dst)
	}
	if len(fs) == 0 {
		return append(dst, '}')
	}
	return EndConstDecl(dst, open)
}

// AppendKeyedFieldDecl appends `{...}` with each name by AppendKey and
// `@` before the one equal to key: the declaration of a keyed table or
// delta section (SPEC §10a.1).
func AppendKeyedFieldDecl(dst []byte, names []string, key string) []byte {
	dst = append(dst, '{')
	for i, n := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		if n == key {
			dst = append(dst, '@')
		}
		dst = AppendKey(dst, n)
	}
	return append(dst, '}')
}

// AppendConstValue appends a string as the value of a constant column
// (spec v3.6.0 §7.4.7): AppendString in the Const context, quoted where a
// cell would be and also when it holds '}' (which would end the
// declaration); "" is always quoted. Numbers, booleans and null are
// written as in a cell (AppendScalar with Const).
func AppendConstValue(dst []byte, s string) []byte { return AppendString(dst, s, Const) }

// AppendGroupClause appends ` group=col`, the clause after the field
// declaration of a value-grouped table (spec v3.6.0 §7.4.8), col by
// AppendKey: the mirror of what the stream decoder's fieldDecl reads.
func AppendGroupClause(dst []byte, col string) []byte {
	dst = append(dst, " group="...)
	return AppendKey(dst, col)
}

// AppendSubheader appends the whole subheader line `col=value [n]` that
// opens a group of n rows of a value-grouped table (spec v3.6.0 §7.4.8.3)
// and its line end: col by AppendKey, value as is, the group's value as
// the scalar-cell writer wrote it (AppendScalar in Cell, so quoted where a
// cell would be; the decoder reads it up to the last " [").
func AppendSubheader(dst []byte, col string, value []byte, n int) []byte {
	dst = AppendKey(dst, col)
	dst = append(dst, '=')
	dst = append(dst, value...)
	dst = append(dst, ' ')
	dst = AppendCount(dst, n, false)
	return append(dst, '\n')
}

// CellSep is the row cell delimiter.
const CellSep = '|'

// ItemMark starts a row's or an item's index (`@i`, AppendItemIndex).
const ItemMark = '@'

// WordSep separates the words of a line: a row's `@i` from its cells, a
// header's words (AppendWordSep).
const WordSep = ' '

// AppendCellSep appends the row cell delimiter '|'.
func AppendCellSep(dst []byte) []byte { return append(dst, CellSep) }

// AppendLineEnd ends a line.
func AppendLineEnd(dst []byte) []byte { return append(dst, '\n') }

// EndLine ends a row or list line whose last cell or item was followed by
// its separator: that separator becomes the line end. dst ends with it.
func EndLine(dst []byte) []byte {
	dst[len(dst)-1] = '\n'
	return dst
}

// AppendEmptyArray appends `[0]`, the whole body of an empty array.
func AppendEmptyArray(dst []byte) []byte { return append(dst, "[0]"...) }

// AppendDeclOpen appends the '{' that opens a field declaration written
// field by field, each followed by AppendFieldSep; EndDecl closes it.
func AppendDeclOpen(dst []byte) []byte { return append(dst, '{') }

// AppendFieldSep appends the ',' after a declared field.
func AppendFieldSep(dst []byte) []byte { return append(dst, ',') }

// EndDecl closes a field declaration of at least one field: the ',' after
// the last field becomes the closing '}'. dst ends with it.
func EndDecl(dst []byte) []byte {
	dst[len(dst)-1] = '}'
	return dst
}

// EndConstDecl is EndDecl for a declaration that may hold constant columns
// (spec v3.6.0 §7.4.7), whose '{' is at dst[open]: when the last entry is a
// constant whose bare value starts "^{", the value is quoted, since before
// the closing '}' it would read as a complete ^{...} attachment marker
// (invalid_const_value); before a ',', as in `{X=^{abc,y}`, it stays bare.
func EndConstDecl(dst []byte, open int) []byte {
	n := len(dst) - 1
	dst[n] = '}'
	if !bytes.Contains(dst[open:n], []byte("^{")) {
		return dst
	}
	last, eq, quoted := open+1, -1, false
	for i := open + 1; i < n; i++ {
		switch c := dst[i]; {
		case quoted:
			if c == '\\' {
				i++
			} else if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
		case c == ',':
			last, eq = i+1, -1
		case c == '=' && eq < 0:
			eq = i
		}
	}
	if eq >= last && n-eq > 2 && dst[eq+1] == '^' && dst[eq+2] == '{' {
		v := string(dst[eq+1 : n])
		dst = AppendQuoted(dst[:eq+1], v)
		dst = append(dst, '}')
	}
	return dst
}

// AppendAttachDot appends the '.' that opens a row attachment's line
// (`.f ...`, SPEC §7.4.4) or a v1 nested member; the field name follows.
func AppendAttachDot(dst []byte) []byte { return append(dst, '.') }

// AppendEmptyObject appends `{}`, the value of an expanded object whose
// members follow on the lines below.
func AppendEmptyObject(dst []byte) []byte { return append(dst, "{}"...) }

// AppendAttachMark appends the `^` cell of a row field whose value is
// written as an attachment under the row (SPEC §7.4.4).
func AppendAttachMark(dst []byte) []byte { return append(dst, '^') }

// AppendAssign appends the '=' between a key and its value.
func AppendAssign(dst []byte) []byte { return append(dst, '=') }

// AppendInlineMark appends the ':' that follows the count bracket of an
// inline primitive array (SPEC §4.2; v1 alike); its items follow, each
// after AppendItemLead.
func AppendInlineMark(dst []byte) []byte { return append(dst, ':') }

// AppendInlineHead appends the `[n]: ` of a non-empty inline primitive
// array, ready for its first item.
func AppendInlineHead(dst []byte, n int) []byte {
	dst = AppendCount(dst, n, false)
	return append(dst, ':', ' ')
}

// AppendItemLead appends what precedes item i of an inline primitive array
// after its `[n]:`: a space before the first item, a comma before the rest.
func AppendItemLead(dst []byte, i int) []byte {
	if i == 0 {
		return append(dst, ' ')
	}
	return append(dst, ',')
}

// AppendItemSep appends the ',' after an inline array item (EndLine turns
// the last one into the line end).
func AppendItemSep(dst []byte) []byte { return append(dst, ',') }

// AppendItemIndex appends the `@i` mark of item i of an expanded array.
func AppendItemIndex(dst []byte, i int) []byte {
	dst = append(dst, ItemMark)
	return strconv.AppendInt(dst, int64(i), 10)
}

// AppendSummaryCounts appends the whole trailer of a payload with deferred
// counts (SPEC §8.4): `##! summary counts=a,b,...` and a line end, one
// count per `[?]` section in order.
func AppendSummaryCounts(dst []byte, counts []int) []byte {
	dst = AppendSummary(dst)
	dst = append(dst, " counts="...)
	for i, n := range counts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, '\n')
}

// AppendV1Section appends `## name `, the start of a v1 counted section
// line, with name as is (a v1 key: IsV1Key, never quoted).
func AppendV1Section(dst []byte, name string) []byte {
	dst = append(dst, "## "...)
	dst = append(dst, name...)
	return append(dst, ' ')
}

// AppendV1FieldDecl appends a v1 field declaration `{a,b,...}`, names as
// is (v1 keys).
func AppendV1FieldDecl(dst []byte, names []string) []byte {
	dst = append(dst, '{')
	for i, n := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, n...)
	}
	return append(dst, '}')
}

// AppendV1TableSummary appends the whole v1.4 trailer of streamed tables:
// `## _summary rows=N sections=name:N,...` and a line end (rows= only for
// a single table).
func AppendV1TableSummary(dst []byte, names []string, counts []int) []byte {
	dst = AppendV1Summary(dst)
	if len(counts) == 1 {
		dst = AppendHeaderInt(dst, "rows", int64(counts[0]))
	}
	dst = append(dst, " sections="...)
	for i, n := range counts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, names[i]...)
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, '\n')
}

// AppendRef appends `@id`: a graph symbol's id on its node line or an
// edge end (the grammar's node-line and edge-line).
func AppendRef(dst []byte, id int64) []byte {
	dst = append(dst, '@')
	return AppendInt(dst, id)
}

// AppendEdgeRefs appends the `@target<@source` that opens an edge line
// (the grammar's edge-line).
func AppendEdgeRefs(dst []byte, target, source int64) []byte {
	dst = AppendRef(dst, target)
	dst = append(dst, '<')
	return AppendRef(dst, source)
}

// AppendWordSep appends a separating space: between the fields of a graph
// node or edge line, and after a section name, `@i` or `.f` before what
// follows on the line.
func AppendWordSep(dst []byte) []byte { return append(dst, WordSep) }

// AppendPreviouslySent appends the comment of a reference line for a
// symbol transmitted earlier in a session (`@id  # previously
// transmitted`, the grammar's ref-line) and its line end.
func AppendPreviouslySent(dst []byte) []byte {
	return append(dst, "  # previously transmitted\n"...)
}

// AppendTrailerList appends ` key=`, which opens a trailer's
// comma-separated list of counts (`counts=`, v1's `sections=`); each item
// follows AppendListSep.
func AppendTrailerList(dst []byte, key string) []byte {
	dst = append(dst, ' ')
	dst = append(dst, key...)
	return append(dst, '=')
}

// AppendListSep appends the ',' before item i of a trailer list (nothing
// before the first).
func AppendListSep(dst []byte, i int) []byte {
	if i == 0 {
		return dst
	}
	return append(dst, ',')
}

// AppendLabelEnd appends the ':' between a labelled count's label and its
// count (`targets:2`).
func AppendLabelEnd(dst []byte) []byte { return append(dst, ':') }

// AppendPathSegment appends s escaped as the inside of a quoted string
// (SPEC §2.2), without the quotes: one segment of a flattened column's path
// (§7.4.6), which AppendPathField quotes whole. bad is the offset in s of
// its first invalid UTF-8 byte, or -1; dst then holds a partial segment.
func AppendPathSegment(dst []byte, s string) (out []byte, bad int) {
	n := len(dst)
	dst, bad = AppendQuotedValid(dst, s)
	if bad >= 0 {
		return dst, bad
	}
	copy(dst[n:], dst[n+1:len(dst)-1])
	return dst[:len(dst)-2], -1
}

// AppendPathField appends a flattened column of a field declaration,
// `"a>b"` (SPEC §7.4.6.1), path being its segments joined by '>' as
// AppendPathSegment writes them, and the ',' after it.
func AppendPathField(dst, path []byte) []byte {
	dst = append(dst, '"')
	dst = append(dst, path...)
	return append(dst, '"', ',')
}
