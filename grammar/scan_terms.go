package grammar

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/lexer"
)

// This file scans the terminals of SPEC §4 inside one line: quoted strings
// (§2.2), scalars by the precedence of §2.1, keys (§2a), field declarations
// (§2a.3) and count brackets (§4, §8.2). Every function takes the line body
// (the line after its indentation) and a body index, and reports a problem
// as a *perr whose idx is a body index; the caller turns it into a
// positioned Diagnostic.

// perr is a problem found at body index idx.
type perr struct {
	idx int
	cat lexer.Category
	msg string
}

func newErr(idx int, cat lexer.Category, msg string) *perr { return &perr{idx, cat, msg} }

func isBareKeyStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isBareKeyByte(c byte) bool { return isBareKeyStart(c) || (c >= '0' && c <= '9') }

// isBareKey reports whether s matches bare-key = ( ALPHA / "_" ) *( ALPHA / DIGIT / "_" ) (§2a.1).
func isBareKey(s string) bool {
	if s == "" || !isBareKeyStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isBareKeyByte(s[i]) {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// checkUTF8 finds the first byte of b that is not part of a Unicode scalar
// value encoded in UTF-8 (§2.2: malformed UTF-8 and literal surrogates are
// errors). It returns -1 when b is valid.
func checkUTF8(b []byte) (int, lexer.Category) {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			// ED A0..BF starts the encoding of U+D800..U+DFFF.
			if b[i] == 0xED && i+1 < len(b) && b[i+1] >= 0xA0 && b[i+1] <= 0xBF {
				return i, lexer.InvalidSurrogate
			}
			return i, lexer.InvalidUTF8
		}
		i += n
	}
	return -1, ""
}

func hexVal(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// quoted decodes quoted-string = DQUOTE *char DQUOTE (§2.2) starting at
// b[pos] == '"'. It returns the decoded text and the index just past the
// closing quote. On a problem it returns the first one and, for recovery,
// the index past the closing quote if there is one (else len(b)).
func quoted(b []byte, pos int) (string, int, *perr) {
	var sb strings.Builder
	i := pos + 1
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return sb.String(), i + 1, nil
		case c < 0x20:
			// unescaped excludes %x00-1F.
			return "", recoverQuote(b, i), newErr(i, lexer.InvalidEscape, "raw control character "+hexByte(c)+" in a quoted string must be escaped")
		case c != '\\':
			sb.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(b) {
			return "", len(b), newErr(pos, lexer.UnterminatedQuote, "quoted string has no closing quote")
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			sb.WriteByte(e)
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			r, ok := hexVal(b, i+2)
			if !ok {
				return "", recoverQuote(b, i+2), newErr(i, lexer.InvalidEscape, "\\u must be followed by four hex digits")
			}
			n := 6
			switch {
			case r >= 0xD800 && r <= 0xDBFF:
				// A high surrogate must be followed immediately by a low one.
				if i+7 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
					lo, ok := hexVal(b, i+8)
					if !ok {
						return "", recoverQuote(b, i+8), newErr(i+6, lexer.InvalidEscape, "\\u must be followed by four hex digits")
					}
					if lo < 0xDC00 || lo > 0xDFFF {
						return "", recoverQuote(b, i+12), newErr(i, lexer.InvalidSurrogate, "high surrogate escape is not followed by a low surrogate")
					}
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					n = 12
				} else {
					return "", recoverQuote(b, i+6), newErr(i, lexer.InvalidSurrogate, "isolated high surrogate escape")
				}
			case r >= 0xDC00 && r <= 0xDFFF:
				return "", recoverQuote(b, i+6), newErr(i, lexer.InvalidSurrogate, "isolated low surrogate escape")
			}
			sb.WriteRune(r)
			i += n
			continue
		default:
			return "", recoverQuote(b, i+2), newErr(i, lexer.InvalidEscape, "invalid escape sequence \\"+string(rune(e)))
		}
		i += 2
	}
	return "", len(b), newErr(pos, lexer.UnterminatedQuote, "quoted string has no closing quote")
}

// recoverQuote returns the index past the next unescaped '"' at or after i,
// or len(b).
func recoverQuote(b []byte, i int) int {
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// key scans key = bare-key / quoted-key (§2a.1) at b[pos].
func key(b []byte, pos int) (text string, quotedKey bool, end int, err *perr) {
	if pos < len(b) && b[pos] == '"' {
		s, end, err := quoted(b, pos)
		return s, true, end, err
	}
	i := pos
	if i < len(b) && isBareKeyStart(b[i]) {
		i++
		for i < len(b) && isBareKeyByte(b[i]) {
			i++
		}
	}
	if i == pos {
		return "", false, pos, newErr(pos, lexer.InvalidLine, "expected a key")
	}
	return string(b[pos:i]), false, i, nil
}

// numberShape reports whether t matches number (§2.3) entirely, with ASCII
// digits only, and whether it is an integer literal.
func numberShape(t string) (isNum, isInt bool) {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	if i >= len(t) {
		return false, false
	}
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	switch {
	case t[i] == '0':
		i++
	case t[i] >= '1' && t[i] <= '9':
		for i < len(t) && digit(t[i]) {
			i++
		}
	default:
		return false, false
	}
	isInt = true
	if i < len(t) && t[i] == '.' {
		i++
		j := i
		for i < len(t) && digit(t[i]) {
			i++
		}
		if i == j {
			return false, false
		}
		isInt = false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		j := i
		for i < len(t) && digit(t[i]) {
			i++
		}
		if i == j {
			return false, false
		}
		isInt = false
	}
	return i == len(t), isInt && i == len(t)
}

// inInt64 reports whether the integer literal t lies in [-2^63, 2^63-1] (§2.3.2).
func inInt64(t string) bool {
	neg := t[0] == '-'
	if neg {
		t = t[1:]
	}
	if len(t) > 1 && t[0] == '0' {
		return true // cannot happen for a valid literal; keep the domain check total
	}
	const max = "9223372036854775807"
	const min = "9223372036854775808"
	limit := max
	if neg {
		limit = min
	}
	if len(t) != len(limit) {
		return len(t) < len(limit)
	}
	return t <= limit
}

// scalar is one scanned scalar or cell token.
type scalar struct {
	typ   plexer.TokenType // TokQuoted, TokNull, TokMissing, TokAttach, TokBool, TokNumber or TokBare
	val   string
	start int            // body index of the token
	decl  []plexer.Token // for ^{fields}: the field-decl tokens
	names []string       // for ^{fields}: the declared names
}

// scanScalar reads one scalar at b[pos] that ends at the first unquoted
// delim byte (0: the end of the line), trimming ASCII space and tab around
// unquoted tokens (§4.2). It returns the token, the index of the delimiter
// (or len(b)) and the first problem, if any; a token is returned even then,
// so that the line can still be checked as a whole.
func (s *scanner) scanScalar(b []byte, pos int, delim byte) (scalar, int, *perr) {
	for pos < len(b) && isSpace(b[pos]) {
		pos++
	}
	start := pos
	if pos < len(b) && b[pos] == '"' {
		// §2.1 rule 1: the closing quote must end the token.
		text, end, err := quoted(b, pos)
		sc := scalar{typ: TokQuoted, val: text, start: start}
		if err != nil {
			if delim != 0 {
				if k := indexByte(b, end, delim); k >= 0 {
					return sc, k, err
				}
			}
			return sc, len(b), err
		}
		for end < len(b) && isSpace(b[end]) {
			end++
		}
		if end < len(b) && (delim == 0 || b[end] != delim) {
			e := newErr(end, lexer.TrailingCharacters, "characters after the closing quote")
			if delim != 0 {
				if k := indexByte(b, end, delim); k >= 0 {
					return sc, k, e
				}
			}
			return sc, len(b), e
		}
		return sc, end, nil
	}
	if delim != ',' && pos+1 < len(b) && b[pos] == '^' && b[pos+1] == '{' {
		// §2.1 rule 4: ^{fields}, whose declaration may quote the delimiter.
		// (In comma lists the token is split at commas first.)
		toks, names, _, _, end, err := s.fieldDecl(b, pos+1, false)
		if err == nil {
			e := end
			for e < len(b) && isSpace(b[e]) {
				e++
			}
			if e == len(b) || (delim != 0 && b[e] == delim) {
				return scalar{typ: TokAttach, val: "^", start: start, decl: toks, names: names}, e, nil
			}
		}
	}
	end := len(b)
	if delim != 0 {
		if k := indexByte(b, pos, delim); k >= 0 {
			end = k
		}
	}
	tokEnd := end
	for tokEnd > start && isSpace(b[tokEnd-1]) {
		tokEnd--
	}
	t := string(b[start:tokEnd])
	sc := scalar{typ: TokBare, val: t, start: start}
	// A raw control is reported before the token's shape, as the pull
	// decoder does (docs/spec-notes.md "Raw control characters").
	if i, c := controlChar(t); i >= 0 {
		return sc, end, newErr(start+i, lexer.InvalidEscape, "raw control character "+c+" in a bare value; quote the value and escape it")
	}
	if len(t) >= 2 && t[0] == '^' && t[1] == '{' && t[len(t)-1] == '}' {
		return sc, end, newErr(start, lexer.InvalidAttachmentMarker, "malformed inline schema declaration")
	}
	switch {
	case t == "-":
		sc.typ = TokNull
	case t == "~":
		sc.typ = TokMissing
	case t == "^":
		sc.typ = TokAttach
	case t == "true" || t == "false":
		sc.typ = TokBool
	default:
		if isNum, isInt := numberShape(t); isNum {
			sc.typ = TokNumber
			if isInt && !inInt64(t) {
				return sc, end, newErr(start, lexer.OutOfRange, "integer "+Excerpt(t)+" is outside the int64 range [-9223372036854775808, 9223372036854775807]; model it as a quoted string")
			}
			if !isInt {
				// §2.3.2: a non-integer number is the nearest binary64;
				// overflow has none, underflow rounds to zero (not an error).
				if f, _ := strconv.ParseFloat(t, 64); math.IsInf(f, 0) {
					return sc, end, newErr(start, lexer.OutOfRange, "number "+Excerpt(t)+" overflows binary64")
				}
			}
		}
	}
	return sc, end, nil
}

func indexByte(b []byte, from int, c byte) int {
	for i := from; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// fieldDecl scans field-decl = "{" field-name *( "," field-name ) "}"
// (§4, §2a.3) with '{' at b[pos]; with ids, a field-name may be the
// id-field "@" key of §10a.1, once. It returns the tokens, the decoded
// names, the body index where each name starts (at its "@" when marked),
// the index of the marked name (or -1) and the index past '}'.
func (s *scanner) fieldDecl(b []byte, pos int, ids bool) ([]plexer.Token, []string, []int, int, int, *perr) {
	id := -1
	if pos >= len(b) || b[pos] != '{' {
		return nil, nil, nil, id, 0, newErr(pos, lexer.InvalidLine, "expected a field declaration {...}")
	}
	toks := []plexer.Token{s.tok(TokPunct, "{", pos)}
	var names []string
	var at []int
	i := pos + 1
	for {
		at = append(at, i)
		if ids && i < len(b) && b[i] == '@' {
			if id >= 0 {
				return nil, nil, nil, id, 0, newErr(i, lexer.MalformedDelta, "a second @ identity field; a keyed set has exactly one (SPEC §10a.1)")
			}
			id = len(names)
			toks = append(toks, s.tok(TokPunct, "@", i))
			i++
		}
		text, q, end, err := key(b, i)
		if err != nil {
			if err.cat == lexer.InvalidLine {
				err.msg = "expected a field name in the declaration"
			}
			return nil, nil, nil, id, 0, err
		}
		typ := TokKey
		if q {
			typ = TokQKey
		}
		toks = append(toks, s.tok(typ, text, i))
		names = append(names, text)
		i = end
		if i >= len(b) {
			return nil, nil, nil, id, 0, newErr(i, lexer.InvalidLine, "field declaration has no closing }")
		}
		switch b[i] {
		case ',':
			toks = append(toks, s.tok(TokPunct, ",", i))
			i++
		case '}':
			toks = append(toks, s.tok(TokPunct, "}", i))
			return toks, names, at, id, i + 1, nil
		default:
			return nil, nil, nil, id, 0, newErr(i, lexer.InvalidLine, "expected , or } in the field declaration")
		}
	}
}

// Deferred is the count of a "[?]" bracket.
const Deferred = -1

// countBracket scans count-bracket = "[" count-or-deferred "]" or
// keyed-bracket = "[" count-or-deferred ":" "]" (§4) with '[' at b[pos].
// Declared counts above max are too_many_elements (§12): a count is checked,
// never used to size anything.
func countBracket(b []byte, pos int, max int64) (count int64, keyed bool, end int, err *perr) {
	bad := func() (int64, bool, int, *perr) {
		return 0, false, 0, newErr(pos, lexer.InvalidCount, "count must be 0, a decimal without leading zeros, or ?")
	}
	i := pos + 1
	if i < len(b) && b[i] == '?' {
		count = Deferred
		i++
	} else {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		digits := b[j:i]
		if len(digits) == 0 || (len(digits) > 1 && digits[0] == '0') {
			return bad()
		}
		if len(digits) > 18 {
			return 0, false, 0, newErr(pos, lexer.TooManyElements, "declared count "+string(digits)+" exceeds the element limit")
		}
		for _, c := range digits {
			count = count*10 + int64(c-'0')
		}
		if count > max {
			return 0, false, 0, newErr(pos, lexer.TooManyElements, "declared count "+string(digits)+" exceeds the element limit")
		}
	}
	if i+1 < len(b) && b[i] == ':' && b[i+1] == ']' {
		return count, true, i + 2, nil
	}
	if i < len(b) && b[i] == ']' {
		return count, false, i + 1, nil
	}
	return bad()
}

// parseCount parses count = "0" / ( DIGIT1-9 *DIGIT ) of at most 18 digits.
func parseCount(t string) (int64, bool) {
	if len(t) == 0 || len(t) > 18 || (len(t) > 1 && t[0] == '0') {
		return 0, false
	}
	var v int64
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
		v = v*10 + int64(t[i]-'0')
	}
	return v, true
}

// parseID parses id = 1*DIGIT (at most 18 digits, so it fits an int64).
func parseID(t string) (int64, bool) {
	if len(t) == 0 || len(t) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
		v = v*10 + int64(t[i]-'0')
	}
	return v, true
}

// ParseID returns the numeric value of an id token ("@N" or "N").
func ParseID(t string) (int64, bool) { return parseID(strings.TrimPrefix(t, "@")) }

// ParseCount returns the numeric value of a count (Deferred for "?").
func ParseCount(t string) (int64, bool) {
	if t == "?" {
		return Deferred, true
	}
	return parseCount(t)
}

// BracketCount returns the count of a Count or KeyedCount token.
func BracketCount(tok string) int64 {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(tok, "["), "]"), ":")
	v, _ := ParseCount(t)
	return v
}

// badNameChar returns the index of the first code point of t that a graph
// name (qualified name, provenance, edge type) may not hold, or -1. A name
// is one or more Unicode scalar values other than whitespace (Unicode
// White_Space) and controls (C0, DEL, C1). The ABNF of §4 says %x21-7E, but
// the official fixture graph-decode/004_grapheme_extending_scalar_fields
// and the reference SDKs accept any other code point, and so do we. An
// empty name is bad at 0.
func badNameChar(t string) int {
	if t == "" {
		return 0
	}
	for i, r := range t {
		if r <= 0x20 || (r >= 0x7F && r <= 0x9F) || unicode.Is(unicode.White_Space, r) {
			return i
		}
	}
	return -1
}

func printable(t string) bool { return badNameChar(t) < 0 }

// validScore reports whether t matches score = [ "-" ] 1*DIGIT "." 2DIGIT (§4).
func validScore(t string) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	j := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == j || i+3 != len(t) || t[i] != '.' {
		return false
	}
	return t[i+1] >= '0' && t[i+1] <= '9' && t[i+2] >= '0' && t[i+2] <= '9'
}

// DeclProblem checks a field declaration's names (§2a.2, §7.4.6.2, §12):
// at most maxFields names, no name twice, and no column whose key collides
// with a `>` path column (for a keyed map the key-column label is exempt).
// It returns the category and message of the first problem, or "".
func DeclProblem(names []string, keyed bool, maxFields int) (cat lexer.Category, msg string, at int) {
	if len(names) > maxFields {
		return lexer.TooManyFields, "field declaration exceeds the limit of " + strconv.Itoa(maxFields) + " fields", -1
	}
	seen := make(map[string]int, len(names))
	for i, n := range names {
		if _, dup := seen[n]; dup {
			return lexer.DuplicateFieldName, "duplicate field name " + Excerpt(n), i
		}
		seen[n] = i
	}
	first := 0
	if keyed && len(names) > 0 {
		first = 1
		delete(seen, names[0]) // the key column is not a field of the members
	}
	for j := first; j < len(names); j++ {
		n := names[j]
		if !isPath(n) {
			continue
		}
		for i := 0; i < len(n); i++ {
			if n[i] != '>' {
				continue
			}
			if k, ok := seen[n[:i]]; ok && k >= first {
				// The later of the two is the duplicate.
				return lexer.DuplicateKey, "field " + Excerpt(n[:i]) + " collides with the path column " + Excerpt(n), max(j, k)
			}
		}
	}
	return "", "", -1
}

// isPath reports whether a field name is a `>` path column (§7.4.6.2): it
// contains '>' and no '>'-separated segment is empty.
func isPath(n string) bool {
	if !strings.Contains(n, ">") {
		return false
	}
	for _, seg := range strings.Split(n, ">") {
		if seg == "" {
			return false
		}
	}
	return true
}

// controlChar finds a raw control character that §2 forbids in a bare
// value: C0 other than TAB (which includes a lone CR) and C1 (U+0080-U+009F,
// encoded C2 80-C2 9F). It returns its index and a U+ name, or -1.
func controlChar(t string) (int, string) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < 0x20 && c != '\t' {
			return i, hexByte(c)
		}
		if c == 0xC2 && i+1 < len(t) && t[i+1] >= 0x80 && t[i+1] <= 0x9F {
			return i, "U+00" + strconv.FormatUint(uint64(t[i+1]), 16)
		}
	}
	return -1, ""
}

func hexByte(c byte) string {
	const digits = "0123456789ABCDEF"
	return "U+00" + string([]byte{digits[c>>4], digits[c&15]})
}

// maxExcerpt is the most input bytes a message quotes.
const maxExcerpt = 80

// Excerpt quotes t for a message: at most 80 bytes of it, cut on a UTF-8
// boundary and marked with "...".
func Excerpt(t string) string {
	if len(t) <= maxExcerpt {
		return strconv.Quote(t)
	}
	n := maxExcerpt
	for n > 0 && !utf8.RuneStart(t[n]) {
		n--
	}
	return strconv.Quote(t[:n]) + "..."
}

// int64Field reports whether a header or summary field holds a count or
// size (symbols=, edges=, budget=, tokens=), whose value must fit int64.
func int64Field(k string) bool {
	return k == "symbols" || k == "edges" || k == "budget" || k == "tokens"
}

// int64HeaderField reports whether a header field holds an integer that
// must lie in int64: the count fields, and the row count of a generic
// unchanged answer (SPEC §10a.4), which is a header field only.
func int64HeaderField(k string) bool { return int64Field(k) || k == "count" }

// isCountValue reports whether v is a non-negative integer literal
// (SPEC §2.3: no sign, no leading zero), as graph header counts are
// (SPEC §3.2).
func isCountValue(v string) bool { return lexer.IsIntLiteral([]byte(v)) && v[0] != '-' }

// OutOfInt64 reports whether v is an integer literal outside int64 (the
// scanner reports such header and summary values as out_of_range).
func OutOfInt64(v string) bool { return outOfInt64(v) }

// outOfInt64 reports whether v is an integer literal (optionally negative)
// outside the int64 range.
func outOfInt64(v string) bool {
	d := strings.TrimPrefix(v, "-")
	if d == "" {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	d = strings.TrimLeft(d, "0")
	if v[0] == '-' {
		return !inInt64("-" + d)
	}
	return len(d) > 0 && !inInt64(d)
}

// tableDecl is what tableDecl scanned: the tokens of a table's field
// declaration, its names, the body index where each entry starts (at its
// "@" when marked), which entries are marked "@", each entry's constant
// value (nil for a row column), and the index past '}'.
type tableDecl struct {
	toks   []plexer.Token
	names  []string
	at     []int
	ids    []int
	consts []*scalar
	end    int
}

// tableDecl scans the field-decl of a table (§4, §2a.3, v3.6.0 §7.4.7)
// with '{' at b[pos]: entries [ "@" ] key [ "=" const-value ], where
// const-value is a quoted string or the bare text up to the next ',' or
// '}' (a §2.1 scalar), and none of empty, "~", "^" or a "^{...}" marker
// (invalid_const_value). An entry with an empty name before its '=' is
// malformed_header_field. Whether "@" marks may stand here is the
// caller's to check.
func (s *scanner) tableDecl(b []byte, pos int) (*tableDecl, *perr) {
	if pos >= len(b) || b[pos] != '{' {
		return nil, newErr(pos, lexer.InvalidLine, "expected a field declaration {...}")
	}
	d := &tableDecl{toks: []plexer.Token{s.tok(TokPunct, "{", pos)}}
	i := pos + 1
	for {
		d.at = append(d.at, i)
		if i < len(b) && b[i] == '@' {
			d.ids = append(d.ids, len(d.names))
			d.toks = append(d.toks, s.tok(TokPunct, "@", i))
			i++
		}
		if i < len(b) && b[i] == '=' {
			return nil, newErr(i, lexer.MalformedHeaderField, "field entry has an empty name before '='")
		}
		text, q, end, err := key(b, i)
		if err != nil {
			if err.cat == lexer.InvalidLine {
				err.msg = "expected a field name in the declaration"
			}
			return nil, err
		}
		d.toks = append(d.toks, s.keyTok(text, q, i))
		d.names = append(d.names, text)
		i = end
		var cv *scalar
		if i < len(b) && b[i] == '=' {
			d.toks = append(d.toks, s.tok(TokPunct, "=", i))
			sc, e, err := constValue(b, i+1)
			if err != nil {
				return nil, err
			}
			d.toks = append(d.toks, s.tok(sc.typ, sc.val, sc.start))
			cv, i = &sc, e
		}
		d.consts = append(d.consts, cv)
		if i >= len(b) {
			return nil, newErr(i, lexer.InvalidLine, "field declaration has no closing }")
		}
		switch b[i] {
		case ',':
			d.toks = append(d.toks, s.tok(TokPunct, ",", i))
			i++
		case '}':
			d.toks = append(d.toks, s.tok(TokPunct, "}", i))
			d.end = i + 1
			return d, nil
		default:
			return nil, newErr(i, lexer.InvalidLine, "expected , or } in the field declaration")
		}
	}
}

// constValue scans a constant column's value at b[pos] (just past '='):
// a quoted string, or bare text up to ',' or '}'. It returns the index
// of the delimiter after it.
func constValue(b []byte, pos int) (scalar, int, *perr) {
	if pos < len(b) && b[pos] == '"' {
		text, end, err := quoted(b, pos)
		if err != nil {
			return scalar{}, 0, err
		}
		return scalar{typ: TokQuoted, val: text, start: pos}, end, nil
	}
	end := pos
	for end < len(b) && b[end] != ',' && b[end] != '}' {
		if b[end] == '"' {
			return scalar{}, 0, newErr(end, lexer.InvalidConstValue, "a quote inside a bare constant value; quote the whole value")
		}
		end++
	}
	t := string(b[pos:end])
	sc, err := bareScalar(t, pos)
	if err != nil {
		return sc, 0, err
	}
	switch {
	case t == "":
		err = newErr(pos, lexer.InvalidConstValue, "an empty constant value; write \"\" for the empty string")
	case isSpace(t[0]) || isSpace(t[len(t)-1]):
		err = newErr(pos, lexer.InvalidConstValue, "a constant value with surrounding whitespace; quote it")
	case t == "~" || t == "^":
		err = newErr(pos, lexer.InvalidConstValue, "~ and a bare ^ cannot be constant values")
	case strings.HasPrefix(t, "^{") && end < len(b) && b[end] == '}':
		err = newErr(pos, lexer.InvalidConstValue, "a ^{...} attachment marker cannot be a constant value; quote the string")
	}
	return sc, end, err
}

// bareScalar types an unquoted token t that starts at body index start
// (§2.1 rules 2-7): null, bool, number (which must be in range) or bare
// string; a raw control character is invalid_escape.
func bareScalar(t string, start int) (scalar, *perr) {
	sc := scalar{typ: TokBare, val: t, start: start}
	if i, c := controlChar(t); i >= 0 {
		return sc, newErr(start+i, lexer.InvalidEscape, "raw control character "+c+" in a bare value; quote the value and escape it")
	}
	switch {
	case t == "-":
		sc.typ = TokNull
	case t == "~":
		sc.typ = TokMissing
	case t == "^":
		sc.typ = TokAttach
	case t == "true" || t == "false":
		sc.typ = TokBool
	default:
		if isNum, isInt := numberShape(t); isNum {
			sc.typ = TokNumber
			if isInt && !inInt64(t) {
				return sc, newErr(start, lexer.OutOfRange, "integer "+Excerpt(t)+" is outside the int64 range")
			}
			if !isInt {
				if f, _ := strconv.ParseFloat(t, 64); math.IsInf(f, 0) {
					return sc, newErr(start, lexer.OutOfRange, "number "+Excerpt(t)+" overflows binary64")
				}
			}
		}
	}
	return sc, nil
}
