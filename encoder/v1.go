package encoder

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gcfkit/gcf/lexer"
)

// V1Context is where a legacy v1 generic value is written (SPEC-v1.1 §6a).
type V1Context uint8

// V1 value contexts.
const (
	V1Value  V1Context = iota // after `key=` or `@i `: the rest of the line
	V1Cell                    // a tabular row cell, ended by |
	V1Inline                  // an inline array value, ended by ,
	V1Root                    // a root scalar: the whole payload
)

// IsV1Key reports whether s can be written as a v1 key or field name: a
// letter or _, then letters, digits, _, - and '.'. v1 has no quoted keys.
func IsV1Key(s string) bool {
	if s == "" || !(s[0] == '_' || s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}

// IsV1Number reports whether s matches the v1 number pattern
// `-?DIGITS(.DIGITS)?`, which a v1 decoder reads as a number.
func IsV1Number(s string) bool { return lexer.IsV1Number([]byte(s)) }

// V1NeedsQuote reports whether the string s must be quoted in ctx so that a
// v1 decoder reads it back as the same string: it is empty, a keyword (-,
// true, false) or a number, starts with a quote, #, @ or white space, ends
// with white space, holds a line break or tab, or holds the delimiter of
// its context; a root string also when it would read as a header, a member
// line or a section.
func V1NeedsQuote(s string, ctx V1Context) bool {
	if s == "" || s == "-" || s == "true" || s == "false" || IsV1Number(s) {
		return true
	}
	switch s[0] {
	case '"', '#', '@', ' ', '\t':
		return true
	}
	if c := s[len(s)-1]; c == ' ' || c == '\t' {
		return true
	}
	if strings.ContainsAny(s, "\n\r\t") {
		return true
	}
	switch ctx {
	case V1Cell:
		return strings.IndexByte(s, '|') >= 0
	case V1Inline:
		return strings.IndexByte(s, ',') >= 0
	case V1Root:
		return strings.HasPrefix(s, "GCF") || s[0] == '.' || strings.HasPrefix(s, "##") || looksV1Member(s)
	}
	return false
}

// looksV1Member reports whether s starts like `key=` or `key[`.
func looksV1Member(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '=' || c == '[' {
			return i > 0 && IsV1Key(s[:i])
		}
	}
	return false
}

// AppendV1String appends s as a v1 value in ctx, quoted when V1NeedsQuote
// says so (escaping ", \, newline, carriage return and tab).
func AppendV1String(dst []byte, s string, ctx V1Context) []byte {
	if !V1NeedsQuote(s, ctx) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// AppendV1Float appends a finite float in plain decimal notation (v1 has
// no exponent form): the shortest digits that read back as f, with a
// fraction always (2.0 is written 2.0, since v1 reads 2 as an integer).
func AppendV1Float(dst []byte, f float64) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	if bytes.IndexByte(dst[start:], '.') < 0 {
		dst = append(dst, ".0"...) // a float stays a float: v1 reads 2 as an integer
	}
	return dst
}

// AppendV1Scalar is AppendScalar for the v1 dialect: it appends v, a Go
// primitive (nil, bool, string, the int and uint kinds, float64), as a v1
// value in ctx; ok is false (dst unchanged) for any other type. A
// non-finite float is an out_of_range error and a string that is not valid
// UTF-8 an invalid_utf8 error; neither is written.
func AppendV1Scalar(dst []byte, v any, ctx V1Context) (out []byte, ok bool, err error) {
	switch x := v.(type) {
	case string:
		if !utf8.ValidString(x) {
			return dst, true, lexer.Errorf(lexer.InvalidUTF8, "string %q is not valid UTF-8", x)
		}
		return AppendV1String(dst, x, ctx), true, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return dst, true, lexer.Errorf(lexer.OutOfRange, "number %v has no GCF form", x)
		}
		return AppendV1Float(dst, x), true, nil
	case nil, bool, int64, int, int32, int16, int8, uint8, uint16, uint32, uint, uint64, uintptr:
		// The v1 forms of these are the v3 forms; no string reaches here,
		// so ctx does not matter.
		return AppendScalar(dst, v, Value)
	}
	return dst, false, nil
}
