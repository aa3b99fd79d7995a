package gcf

import (
	"github.com/gcfkit/gcf/jsonmodel"
)

// Member is one key/value pair of an Object.
type Member = jsonmodel.Member

// Object is a JSON object that keeps its members in order. DecodeGeneric
// returns objects as Object, and EncodeGeneric emits an Object's members in
// slice order (SPEC §7.2). Values inside are nil, bool, int64, float64,
// string, []any or Object.
type Object = jsonmodel.Object

// ParseJSON reads one JSON value (RFC 8259) into the generic data model:
// objects become Object (member order kept), arrays []any, integer literals
// int64, other numbers float64, strings string, and true, false and null
// bool and nil.
//
// Every rejection is a *SyntaxError with the line, the 1-based byte column
// and the byte offset of the problem:
//   - invalid_line for malformed JSON (unexpected_eof when the input ends
//     too early, unterminated_quote when it ends inside a string,
//     invalid_escape for a bad escape or a raw control character in a
//     string);
//   - invalid_utf8 for invalid UTF-8 anywhere in the text (it is never
//     replaced with U+FFFD), invalid_surrogate for a \u escape that leaves
//     a UTF-16 surrogate unpaired;
//   - duplicate_key at the second occurrence of a key in one object;
//   - out_of_range for an integer literal outside int64 (never
//     approximated) or a number beyond the binary64 range (a number too
//     small for binary64 rounds to zero, as SPEC §2.3.2 says);
//   - depth_exceeded at the bracket that nests deeper than the MaxDepth
//     limit (default 256, as when decoding GCF);
//   - payload_too_large for input longer than the MaxBytes limit.
//
// Of the options only those two limits apply. The duplicate-key check is
// linear in the number of keys.
func ParseJSON(data []byte, opts ...Option) (any, error) { return jsonmodel.ParseJSON(data, opts...) }

// ToJSON writes a generic value (as returned by DecodeGeneric) as compact
// JSON, objects in member order. Integers are written exactly.
func ToJSON(v any) ([]byte, error) { return jsonmodel.AppendJSON(nil, v) }
