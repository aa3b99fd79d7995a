package grammar

import (
	plexer "github.com/alecthomas/participle/v2/lexer"
)

// Token types of the GCF lexer. They are the terminals of SPEC §4 (keys,
// scalars, count brackets, ids) plus the layout tokens that make §4.1
// indentation explicit: NL ends every line, Indent and Dedent enclose a body
// the ABNF prefixes with INDENT, and a few zero-width markers record
// decisions that the ABNF leaves to prose (which profile a body is lexed
// with, §3.1; which cell lines are positional inline bodies, §7.4.5.2).
const (
	TokNL          plexer.TokenType = iota + 1 // end of a line (LF, or CRLF: §4)
	TokIndent                                  // a body one level deeper begins (§4.1)
	TokDedent                                  // that body ends
	TokMagic                                   // "GCF" at the start of the header (§3)
	TokHeaderKey                               // header-key (§4)
	TokHeaderValue                             // header-value (§4)
	TokPunct                                   // structural punctuation: = | , : { } {} ## ##! . < -> ^
	TokKey                                     // bare-key (§2a.1)
	TokQKey                                    // quoted-key (§2a.1); the value is the decoded text
	TokCount                                   // count-bracket "[N]" or "[?]" (§4, §8.2)
	TokKeyedCount                              // keyed-bracket "[N:]" or "[?:]" (§7.2a)
	TokRowID                                   // "@N" opening a tabular row (§7.4.4)
	TokItemID                                  // "@N" opening an expanded item (§7.6)
	TokInline                                  // zero-width: the line is a positional inline body (§7.4.5.2)
	TokQuoted                                  // quoted-string scalar (§2.2); the value is the decoded text
	TokNull                                    // "-" (§2.1 rule 2)
	TokMissing                                 // "~" (§2.1 rule 3, tabular cells only)
	TokAttach                                  // "^" (§2.1 rule 4, tabular cells only)
	TokBool                                    // "true" / "false" (§2.1 rule 5)
	TokNumber                                  // number (§2.3)
	TokBare                                    // bare-string (§2.1 rule 7), trimmed
	TokGeneric                                 // zero-width: the body is lexed as the generic profile
	TokGraph                                   // zero-width: the body is lexed as the graph profile
	TokGroup                                   // "##" opening a graph group-header (§6a)
	TokNodeID                                  // "@N" opening a node-line or ref-line (§5, §9)
	TokAddedID                                 // "@N" opening a delta-added-line (§10.1)
	TokEdgeTarget                              // "@N" target of an edge-line (§6)
	TokEdgeSource                              // "@N" source of an edge-line
	TokKind                                    // kind (§5)
	TokQName                                   // qname (§5)
	TokScore                                   // score (§5)
	TokProvenance                              // provenance (§5)
	TokDistance                                // distance (§10.1)
	TokEdgeType                                // edge-type (§6)
	TokStatus                                  // status (§6): one name token (docs/spec-notes.md)
	TokRef                                     // "# previously transmitted" of a ref-line (§9)
	TokBad                                     // a rejected line outside any body (before or after the root, graph lines)
	TokBadMember                               // a rejected line where an object-member was due
	TokBadItem                                 // a rejected line where an expanded item was due
	TokBadRow                                  // a rejected line where a tabular row was due
	TokBadChild                                // a rejected line where a row's attachment was due
	TokSubheader                               // zero-width: the line is a group subheader of a grouped table (v3.6.0 §7.4.8.3)
)

var symbols = map[string]plexer.TokenType{
	"EOF":         plexer.EOF,
	"NL":          TokNL,
	"Indent":      TokIndent,
	"Dedent":      TokDedent,
	"Magic":       TokMagic,
	"HeaderKey":   TokHeaderKey,
	"HeaderValue": TokHeaderValue,
	"Punct":       TokPunct,
	"Key":         TokKey,
	"QKey":        TokQKey,
	"Count":       TokCount,
	"KeyedCount":  TokKeyedCount,
	"RowID":       TokRowID,
	"ItemID":      TokItemID,
	"Inline":      TokInline,
	"Quoted":      TokQuoted,
	"Null":        TokNull,
	"Missing":     TokMissing,
	"Attach":      TokAttach,
	"Bool":        TokBool,
	"Number":      TokNumber,
	"Bare":        TokBare,
	"Generic":     TokGeneric,
	"Graph":       TokGraph,
	"Group":       TokGroup,
	"NodeID":      TokNodeID,
	"AddedID":     TokAddedID,
	"EdgeTarget":  TokEdgeTarget,
	"EdgeSource":  TokEdgeSource,
	"Kind":        TokKind,
	"QName":       TokQName,
	"Score":       TokScore,
	"Provenance":  TokProvenance,
	"Distance":    TokDistance,
	"EdgeType":    TokEdgeType,
	"Status":      TokStatus,
	"Ref":         TokRef,
	"Bad":         TokBad,
	"BadMember":   TokBadMember,
	"BadItem":     TokBadItem,
	"BadRow":      TokBadRow,
	"BadChild":    TokBadChild,
	"Subheader":   TokSubheader,
}

// TokenName returns the symbolic name of a token type.
func TokenName(t plexer.TokenType) string {
	for n, v := range symbols {
		if v == t {
			return n
		}
	}
	return "?"
}
