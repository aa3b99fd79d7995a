// Package encoder writes GCF syntax, the mirror of package stream: header
// lines, section lines with their counts and field declarations (`@` keys
// and spec v3.6 constants), summary trailers and the v1 dialect's forms
// (syntax.go), the canonical scalars inside them (numbers §2.3.1, string
// quoting §2.4, keys §2a) with the one scalar-cell writer AppendScalar,
// the encode limits and their errors (Limiter, limits.go), and a streaming
// line writer on pooled buffers.
// It knows bytes, not models: callers decide layout and write through it.
package encoder

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gcfkit/gcf/lexer"
)

// Context is where a scalar is written; it selects the active delimiter of
// SPEC §2.4.
type Context uint8

const (
	// Value is a key=value right-hand side, an expanded item or a root scalar.
	Value Context = iota
	// Cell is a tabular row cell, delimited by '|'.
	Cell
	// Element is a primitive-array element, delimited by ','.
	Element
	// Const is the value of a constant column in a field declaration,
	// `name=value` (spec v3.6.0 §7.4.7.2): quoted where a cell would be,
	// and also when it holds '}', which would end the declaration.
	Const
)

// AppendInt appends the canonical form of an integer: plain decimal digits.
func AppendInt(dst []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u
	}
	if u < 10 {
		return append(dst, byte('0'+u))
	}
	// Digits are written in place, two at a time from the end (strconv
	// formats into a buffer of its own and copies it).
	nd, t := 1, u
	for t >= 100 {
		t /= 100
		nd += 2
	}
	if t >= 10 {
		nd++
	}
	l := len(dst)
	if cap(dst)-l < nd {
		dst = slices.Grow(dst, nd)
	}
	dst = dst[:l+nd]
	i := l + nd
	for u >= 100 {
		q := u / 100
		r := 2 * (u - 100*q)
		i -= 2
		dst[i], dst[i+1] = digitPairs[r], digitPairs[r+1]
		u = q
	}
	if u >= 10 {
		dst[i-2], dst[i-1] = digitPairs[2*u], digitPairs[2*u+1]
	} else {
		dst[i-1] = byte('0' + u)
	}
	return dst
}

const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// AppendFloat appends the canonical form of a double (SPEC §2.3.1): 0 for
// either zero, plain decimal when 1e-6 <= |v| < 2^53, otherwise normalized
// exponent notation with an explicit sign. NaN and infinities are rejected
// with an out_of_range error.
func AppendFloat(dst []byte, v float64) ([]byte, error) {
	if t, ok := Fixed4(v); ok {
		return appendFixed4(dst, v < 0, t), nil
	}
	a := math.Abs(v)
	if a >= 1e-4 && a < 1e9 {
		return strconv.AppendFloat(dst, v, 'f', -1, 64), nil
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dst, lexer.Errorf(lexer.OutOfRange, "non-finite number %v is outside the JSON data model", v)
	}
	if v == 0 {
		return append(dst, '0'), nil
	}
	if a < 1<<53 && v == math.Trunc(v) {
		// An integral double below 2^53 is its integer digits: strconv's
		// shortest form gives the same, as no other decimal within half
		// an ulp (at most 1/2) of an integer is an integer.
		return AppendInt(dst, int64(v)), nil
	}
	if a >= 1e-6 && a < 1<<53 {
		return strconv.AppendFloat(dst, v, 'f', -1, 64), nil
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'e', -1, 64)
	// strconv writes at least two exponent digits (1e-07); drop leading zeros.
	e := start
	for dst[e] != 'e' {
		e++
	}
	d := e + 2 // first exponent digit, after the sign
	z := d
	for z < len(dst)-1 && dst[z] == '0' {
		z++
	}
	if z > d {
		dst = append(dst[:d], dst[z:]...)
	}
	return dst, nil
}

// Fixed4 reports whether the canonical form of v (AppendFloat's) is the
// decimal t / 10**4 without its trailing fraction zeros (and point), signed
// as v: whether 1e-4 <= |v| < 1e9 and |v|'s shortest decimal has at most 4
// fraction digits (see appendFixed4 for why the test is exact).
func Fixed4(v float64) (t uint64, ok bool) {
	a := math.Abs(v)
	if !(a >= 1e-4 && a < 1e9) { // NaN too
		return 0, false
	}
	// t is a*1e4 rounded half away from zero, as math.Round would: x <
	// 1e13 < 2^53, so x-float64(t) is exact.
	x := a * 1e4
	t = uint64(x)
	if x-float64(t) >= 0.5 {
		t++
	}
	return t, float64(t)/1e4 == a
}

// appendFixed4 appends t / 10**4 without trailing fraction zeros (nor a
// point when t is a multiple of 10**4), negated when neg.
//
// Why this is strconv's shortest form of a when 1e-4 <= a < 1e9 and
// t = round(a*1e4) gives float64(t)/1e4 == a (Fixed4's test): the
// doubles there are at most 2^-23 < 1e-6 apart, so two decimals with at
// most 4 fraction digits (1e-4 or more apart) never read back as the same
// double; t < 1e13 < 2^53 and 1e4 are doubles and IEEE division rounds
// t/1e4 to the double nearest the decimal, as parsing it does, so the
// decimal t/10**4 reads back as a, and no decimal with 4 fraction digits
// or fewer but another value does. The shortest form with at most 4
// fraction digits is then this decimal without its trailing zeros, and
// no form with more fraction digits is shorter. Conversely, when a has
// such a form m/10**k, a*1e4 is within 2^-23*1e4/2 + ulp(1e13)/2 < 0.5 of
// m*10**(4-k), so t is that integer and the test passes: the test fails
// only for doubles whose shortest form has 5 or more fraction digits.
func appendFixed4(dst []byte, neg bool, t uint64) []byte {
	if neg {
		dst = append(dst, '-')
	}
	ip := t / 10000
	f := t - ip*10000
	dst = AppendInt(dst, int64(ip))
	if f == 0 {
		return dst
	}
	hi, lo := f/100, f%100
	switch {
	case lo == 0:
		if hi%10 == 0 {
			return append(dst, '.', digitPairs[2*hi])
		}
		return append(dst, '.', digitPairs[2*hi], digitPairs[2*hi+1])
	case lo%10 == 0:
		return append(dst, '.', digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[2*lo])
	}
	return append(dst, '.', digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[2*lo], digitPairs[2*lo+1])
}

// NeedsQuote reports whether the string s must be quoted in ctx under the
// encoder quoting obligation of SPEC §2.4. The delimiters '|' and ',' are
// quoted in every context (a superset of §2.4 that the conformance
// fixtures require for byte-exact output); in Const, '}' is quoted too
// (spec v3.6.0 §7.4.7.2: the declaration ends at the first '}' outside
// quotes). "", "^" and a complete "^{...}" are quoted in every context.
func NeedsQuote(s string, ctx Context) bool {
	n := len(s)
	if n == 0 {
		return true
	}
	if firstLook[s[0]] {
		// Only these first bytes can make a string a number, a literal or a
		// marker; letters skip the checks.
		switch s[0] {
		case '#', '@', '.', ' ':
			return true
		case '-':
			if n == 1 {
				return true
			}
			if isDigit(s[1]) || (s[1] == '.' && n > 2 && isDigit(s[2])) {
				return true
			}
		case '+':
			if n > 1 && (isDigit(s[1]) || (s[1] == '.' && n > 2 && isDigit(s[2]))) {
				return true
			}
		case '0':
			if n > 1 && isDigit(s[1]) {
				return true
			}
		case '~':
			if n == 1 {
				return true
			}
		case '^':
			if n == 1 {
				return true
			}
			// Anything shaped ^{...} is quoted, valid declaration or not: a
			// decoder rejects a bare token of that shape whose declaration is
			// malformed, so quoting only valid ones would lose "^{}".
			if s[1] == '{' && s[n-1] == '}' {
				return true
			}
		case 't':
			if s == "true" {
				return true
			}
		case 'f':
			if s == "false" {
				return true
			}
		}
		if (isDigit(s[0]) || s[0] == '-') && lexer.IsNumber(s) {
			return true
		}
	}
	if s[n-1] == ' ' {
		return true
	}
	i := 0
	for i < n && byteClass[s[i]] == 0 {
		i++ // the common case: nothing to look at
	}
	open := false // a '[' has been seen, for the inline array pattern [...]:
	for ; i < n; i++ {
		c := s[i]
		if c < utf8.RuneSelf {
			switch byteClass[c] {
			case 0:
				continue
			case classQuote:
				// Controls, '"', '\\' and both delimiters. The delimiters
				// are quoted in every context: the conformance suite pins
				// "y|z" in an inline array, "a,b" in a cell and "a|b" in a
				// key=value line, so a value reads the same wherever it is
				// moved.
				return true
			case classOpen:
				open = true
			case classClose:
				if open && i+1 < n && s[i+1] == ':' {
					return true
				}
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r >= 0x80 && r <= 0x9F) || r == 0xFEFF || unicode.IsSpace(r) || (r == utf8.RuneError && size == 1) {
			// Invalid UTF-8 is quoted so the quoting scan meets it.
			return true
		}
		i += size - 1
	}
	return ctx == Const && strings.IndexByte(s, '}') >= 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// firstLook marks the first bytes NeedsQuote's first-byte checks and
// number check look at.
var firstLook = func() (t [256]bool) {
	for _, c := range "#@. -+~^tf0123456789" {
		t[c] = true
	}
	return t
}()

// byteClass sorts bytes for NeedsQuote's scan: most bytes need no
// attention, so one table load replaces a chain of comparisons. Bytes of
// multi-byte sequences (>= 0x80) are classHigh: the scan decodes them.
var byteClass = func() (t [256]uint8) {
	for c := 0; c < 0x20; c++ {
		t[c] = classQuote
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		t[c] = classHigh
	}
	for _, c := range `"\|,` {
		t[c] = classQuote
	}
	t['['] = classOpen
	t[']'] = classClose
	return t
}()

const (
	classQuote = 1 + iota
	classOpen
	classClose
	classHigh
)

// PlainEnds reports whether the first and last bytes of s pass
// AppendPlainCell's first checks: s is not empty, its first byte is none
// NeedsQuote looks at first and its last is not a space.
func PlainEnds(s string) bool {
	return len(s) > 0 && !firstLook[s[0]] && s[len(s)-1] != ' '
}

// AppendPlainCell appends s and reports true when s is at most 32 bytes of
// printable ASCII that NeedsQuote passes over without a look (no quoting
// in Cell); otherwise it returns dst unchanged and false, and the caller
// takes the full check. The scan and the copy are one loop: short cells
// are the common case of a table row.
func AppendPlainCell(dst []byte, s string) ([]byte, bool) {
	n := len(s)
	if n == 0 || n > 32 || firstLook[s[0]] || s[n-1] == ' ' {
		return dst, false
	}
	l := len(dst)
	if cap(dst)-l < n {
		dst = slices.Grow(dst, n)
	}
	d := dst[l : l+n]
	for i := 0; i < len(d) && i < len(s); i++ {
		c := s[i]
		if byteClass[c] != 0 {
			return dst[:l], false
		}
		d[i] = c
	}
	return dst[:l+n], true
}

// AppendString appends s as a scalar in ctx, quoted only when SPEC §2.4
// requires it.
func AppendString(dst []byte, s string, ctx Context) []byte {
	if NeedsQuote(s, ctx) {
		return AppendQuoted(dst, s)
	}
	return append(dst, s...)
}

const hexDigits = "0123456789abcdef"

// AppendQuoted appends s as a JSON quoted string with the canonical escapes
// of SPEC §2.2: \" \\ and the short control escapes, \u00XX for other
// controls, everything else as literal UTF-8. Invalid UTF-8 in s is
// replaced by U+FFFD so the output is always valid (the JSON convention);
// GCF encoders use AppendQuotedValid, which refuses it instead.
func AppendQuoted(dst []byte, s string) []byte {
	dst, _ = appendQuoted(dst, s, true)
	return dst
}

// AppendQuotedValid appends s as AppendQuoted does if s is valid UTF-8 and
// returns bad = -1. Otherwise it returns dst unchanged in length and bad,
// the offset in s of the first byte that begins no valid UTF-8 sequence.
func AppendQuotedValid(dst []byte, s string) (out []byte, bad int) {
	return appendQuoted(dst, s, false)
}

// AppendStringValid is AppendString for strings that must be valid UTF-8;
// bad is as for AppendQuotedValid. NeedsQuote is true for invalid UTF-8, so
// every byte of s is checked without a second scan.
func AppendStringValid(dst []byte, s string, ctx Context) (out []byte, bad int) {
	if NeedsQuote(s, ctx) {
		return appendQuoted(dst, s, false)
	}
	return append(dst, s...), -1
}

// AppendKeyValid is AppendKey for keys that must be valid UTF-8; bad is as
// for AppendQuotedValid.
func AppendKeyValid(dst []byte, k string) (out []byte, bad int) {
	if lexer.IsBareKey(k) {
		return append(dst, k...), -1
	}
	return appendQuoted(dst, k, false)
}

// appendQuoted quotes s; on invalid UTF-8 it writes U+FFFD when repair is
// set, and otherwise stops and reports the offending offset.
func appendQuoted(dst []byte, s string, repair bool) ([]byte, int) {
	mark := len(dst)
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				if !repair {
					return dst[:mark], i
				}
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"'), -1
}

// AppendKey appends an object key, section name or field name: bare when it
// is a valid bare key, quoted otherwise (SPEC §2a.1).
func AppendKey(dst []byte, k string) []byte {
	if lexer.IsBareKey(k) {
		return append(dst, k...)
	}
	return AppendQuoted(dst, k)
}

// AppendFieldDecl appends `{name,name,...}` with each name written by AppendKey.
func AppendFieldDecl(dst []byte, names []string) []byte {
	dst = append(dst, '{')
	for i, n := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendKey(dst, n)
	}
	return append(dst, '}')
}

// AppendCount appends a count bracket: `[n]`, or `[?]` when n < 0; keyed
// adds the keyed-map colon (`[n:]`).
func AppendCount(dst []byte, n int, keyed bool) []byte {
	dst = append(dst, '[')
	if n < 0 {
		dst = append(dst, '?')
	} else {
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	if keyed {
		dst = append(dst, ':')
	}
	return append(dst, ']')
}

// AppendIndent appends two spaces per level.
func AppendIndent(dst []byte, level int) []byte {
	for ; level > 0; level-- {
		dst = append(dst, IndentByte, IndentByte)
	}
	return dst
}

// IndentByte is what a level of indentation is made of, IndentWidth of
// them per level (AppendIndent).
const (
	IndentByte  = ' '
	IndentWidth = 2
)
