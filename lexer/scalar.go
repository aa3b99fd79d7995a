// Package lexer is GCF's byte-level scanner: it splits a line into the
// tokens of SPEC §2 (scalars, quoted strings, numbers), §2a (keys and field
// declarations) and §4 (count brackets), and validates UTF-8.
//
// Every function works on one line (without its terminator) and a caller's
// scratch buffer. None allocates on success, provided scratch has capacity
// for len(line) bytes: unescaped text is never longer than its escaped form,
// so strings decoded from one line always fit. Returned byte slices alias
// the line or the scratch buffer and are valid until either is reused.
//
// Structural delimiters are ASCII, and UTF-8 continuation bytes are never
// ASCII, so scanning bytes locates delimiters by code point as SPEC §1
// requires.
package lexer

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"
)

// Kind classifies a scalar token by the precedence rules of SPEC §2.1.
type Kind uint8

// Scalar kinds.
const (
	KindInvalid      Kind = iota
	KindString            // quoted or bare string; Bytes holds the decoded text
	KindNull              // the bare token -
	KindMissing           // the bare token ~ (tabular cells only)
	KindAttach            // the bare token ^ (tabular cells only)
	KindAttachSchema      // ^{fields} (tabular cells only); Bytes holds the declaration with braces
	KindBool              // true or false; Bool holds the value
	KindInt               // JSON number without fraction or exponent, in int64
	KindFloat             // JSON number with a fraction or exponent; Bytes holds the lexeme
)

var kindNames = [...]string{"invalid", "string", "null", "missing", "attachment", "attachment schema", "bool", "int", "float"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Scalar is one decoded scalar token.
type Scalar struct {
	Kind   Kind
	Quoted bool // the token was a quoted string
	// Escaped reports that Bytes were decoded from escapes into the
	// scratch buffer; otherwise they alias the line.
	Escaped bool
	Bool    bool   // value of a KindBool
	Int     int64  // value of a KindInt
	Bytes   []byte // text of a string, lexeme of a number, declaration of a schema marker
	Col     int    // 1-based byte column where the token starts
}

// IsSpace reports whether b is structural whitespace around an unquoted
// token (SPEC §4.2: ASCII space and tab).
func IsSpace(b byte) bool { return b == ' ' || b == '\t' }

func errAt(col int, c Category, msg string) *SyntaxError {
	return &SyntaxError{Column: col, Category: c, Msg: msg}
}

// ScanScalar reads one scalar token starting at line[pos], ending at the
// first unquoted delim byte or at the end of the line (delim 0 means the
// token runs to the end). It returns the scalar and the index of the
// delimiter (or len(line)). Surrounding spaces and tabs are trimmed.
func ScanScalar(line []byte, pos int, delim byte, scratch *[]byte) (Scalar, int, *SyntaxError) {
	var s Scalar
	end, err := ScanInto(&s, line, pos, delim, scratch)
	return s, end, err
}

// ScanInto is ScanScalar writing into *dst, which it overwrites entirely;
// it saves copying the Scalar on hot paths.
func ScanInto(dst *Scalar, line []byte, pos int, delim byte, scratch *[]byte) (int, *SyntaxError) {
	return scanInto(dst, line, pos, delim, scratch, true)
}

// ScanCleanInto is ScanInto for a line that CheckLine found free of
// control characters: it skips looking for them in each bare token.
func ScanCleanInto(dst *Scalar, line []byte, pos int, delim byte, scratch *[]byte) (int, *SyntaxError) {
	return scanInto(dst, line, pos, delim, scratch, false)
}

func scanInto(dst *Scalar, line []byte, pos int, delim byte, scratch *[]byte, controls bool) (int, *SyntaxError) {
	for pos < len(line) && IsSpace(line[pos]) {
		pos++
	}
	start := pos
	if pos < len(line) {
		switch line[pos] {
		case '"':
			s, end, err := ScanQuoted(line, pos, scratch)
			if err != nil {
				return 0, err
			}
			// Escapes always shrink the text, so equal lengths mean none.
			*dst = Scalar{Kind: KindString, Quoted: true, Escaped: len(s) != end-start-2, Bytes: s, Col: start + 1}
			for end < len(line) && IsSpace(line[end]) {
				end++
			}
			if end < len(line) && (delim == 0 || line[end] != delim) {
				return 0, errAt(end+1, TrailingCharacters, "characters after the closing quote")
			}
			return end, nil
		case '^':
			if delim != ',' && pos+1 < len(line) && line[pos+1] == '{' {
				// An inline schema marker; its declaration may quote the
				// delimiter. (Markers never stand in comma lists, which
				// split first.)
				end, err := skipFieldDecl(line, pos+1)
				if err == nil {
					tok := end
					for end < len(line) && IsSpace(line[end]) {
						end++
					}
					if end == len(line) || (delim != 0 && line[end] == delim) {
						*dst = Scalar{Kind: KindAttachSchema, Bytes: line[pos+1 : tok], Col: start + 1}
						return end, nil
					}
				}
			}
		}
	}
	end := len(line)
	if delim != 0 {
		for i := pos; i < len(line); i++ {
			if line[i] == delim {
				end = i
				break
			}
		}
	}
	tokEnd := end
	for tokEnd > start && IsSpace(line[tokEnd-1]) {
		tokEnd--
	}
	if controls {
		if k := ControlAt(line[start:tokEnd]); k >= 0 {
			return 0, errAt(start+k+1, InvalidEscape, "raw control character in a bare value; quote the value and escape it")
		}
	}
	if tokEnd-start >= 2 && line[start] == '^' && line[start+1] == '{' && line[tokEnd-1] == '}' {
		// Shaped like ^{...} but not a valid declaration (SPEC §2.1 rule 4).
		return 0, errAt(start+1, InvalidAttachmentMarker, "malformed inline schema declaration")
	}
	if err := classifyInto(dst, line[start:tokEnd]); err != nil {
		err.Column += start
		return 0, err
	}
	dst.Col = start + 1
	return end, nil
}

// Classify applies the precedence of SPEC §2.1 rules 2-7 to an unquoted,
// trimmed token.
func Classify(t []byte) (Scalar, *SyntaxError) {
	var s Scalar
	err := classifyInto(&s, t)
	return s, err
}

func classifyInto(dst *Scalar, t []byte) *SyntaxError {
	*dst = Scalar{Kind: KindString, Bytes: t}
	if len(t) == 0 {
		return nil
	}
	switch c := t[0]; {
	case c >= '0' && c <= '9' || c == '-':
		if len(t) == 1 && c == '-' {
			dst.Kind = KindNull
			return nil
		}
		// One pass for the common case, a plain integer that fits.
		i, neg := 0, c == '-'
		if neg {
			i = 1
		}
		var u uint64
		j := i
		for ; j < len(t) && t[j] >= '0' && t[j] <= '9' && j-i < 18; j++ {
			u = u*10 + uint64(t[j]-'0')
		}
		if j == len(t) && j > i && (t[i] != '0' || j == i+1) {
			dst.Kind = KindInt
			dst.Int = int64(u)
			if neg {
				dst.Int = -dst.Int
			}
			return nil
		}
		switch shape, exp := numberShape(t); shape {
		case numInt:
			v, ok := ParseInt(t)
			if !ok {
				return errAt(1, OutOfRange, "integer "+Excerpt(t)+" is outside the int64 range [-9223372036854775808, 9223372036854775807]; model it as a quoted string")
			}
			dst.Kind, dst.Int = KindInt, v
		case numFloat:
			// Only a token with an exponent or hundreds of digits can
			// reach the binary64 maximum (about 1.8e308); others skip
			// the check.
			if (exp || len(t) > 300) && FloatOverflows(t) {
				return errAt(1, OutOfRange, "number "+Excerpt(t)+" is outside the binary64 range (magnitude at most 1.7976931348623157e308); model it as a quoted string")
			}
			dst.Kind = KindFloat
		}
	case c == '~':
		if len(t) == 1 {
			dst.Kind = KindMissing
		}
	case c == '^':
		if len(t) == 1 {
			dst.Kind = KindAttach
		}
	case c == 't':
		if string(t) == "true" {
			dst.Kind, dst.Bool = KindBool, true
		}
	case c == 'f':
		if string(t) == "false" {
			dst.Kind = KindBool
		}
	}
	return nil
}

const (
	numNone = iota
	numInt
	numFloat
)

// NumberShape reports whether t matches the JSON number grammar of SPEC
// §2.3 in its entirety (ASCII digits only), and if so whether it is an
// integer literal (no fraction, no exponent).
func NumberShape(t []byte) int {
	shape, _ := numberShape(t)
	return shape
}

// numberShape is NumberShape that also reports whether t has an exponent part.
func numberShape(t []byte) (shape int, exp bool) {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	if i >= len(t) {
		return numNone, false
	}
	if t[i] == '0' {
		i++
	} else if t[i] >= '1' && t[i] <= '9' {
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
	} else {
		return numNone, false
	}
	shape = numInt
	if i < len(t) && t[i] == '.' {
		i++
		j := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == j {
			return numNone, false
		}
		shape = numFloat
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		j := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == j {
			return numNone, false
		}
		shape, exp = numFloat, true
	}
	if i != len(t) {
		return numNone, false
	}
	return shape, exp
}

// IsIntLiteral reports whether t is an integer literal of the JSON number
// grammar (no fraction, no exponent), whatever its magnitude.
func IsIntLiteral(t []byte) bool { return NumberShape(t) == numInt }

// IsNumber reports whether s matches the JSON number grammar in its entirety.
func IsNumber(s string) bool {
	// The conversion does not allocate: the compiler passes the bytes through.
	return NumberShape([]byte(s)) != numNone
}

// ParseInt parses a validated integer literal into an int64, reporting false
// when it lies outside [-2^63, 2^63-1].
func ParseInt(t []byte) (int64, bool) {
	neg := false
	i := 0
	if t[0] == '-' {
		neg = true
		i = 1
	}
	var u uint64
	for ; i < len(t); i++ {
		d := uint64(t[i] - '0')
		if u > (1<<64-1-d)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true // -(1<<63) wraps to itself, the minimum
	}
	if u > 1<<63-1 {
		return 0, false
	}
	return int64(u), true
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// ParseFloat parses a validated number lexeme as a binary64, correctly
// rounded. Short decimals (at most 15 significant digits, power of ten
// within ±22) take an exact fast path that does not allocate: the digits
// and the power of ten are both exact doubles, so one multiplication or
// division rounds once, correctly. Everything else goes to strconv.
func ParseFloat(t []byte) (float64, error) {
	i, neg := 0, false
	if i < len(t) && t[i] == '-' {
		neg, i = true, 1
	}
	var mant uint64
	digits, exp := 0, 0
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		if mant != 0 || t[i] != '0' {
			digits++
		}
		mant = mant*10 + uint64(t[i]-'0')
		if digits > 15 {
			return strconv.ParseFloat(string(t), 64)
		}
	}
	if i < len(t) && t[i] == '.' {
		for i++; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			if mant != 0 || t[i] != '0' {
				digits++
			}
			mant = mant*10 + uint64(t[i]-'0')
			exp--
			if digits > 15 {
				return strconv.ParseFloat(string(t), 64)
			}
		}
	}
	if i < len(t) {
		return strconv.ParseFloat(string(t), 64) // exponent part
	}
	f := float64(mant)
	switch {
	case exp == 0:
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	default:
		return strconv.ParseFloat(string(t), 64)
	}
	if neg {
		f = -f
	}
	return f, nil
}

// ScanQuoted decodes the quoted string that starts at line[pos] (which must
// be '"') into *scratch, following the JSON string grammar and the
// surrogate rules of SPEC §2.2. It returns the decoded text and the index
// just past the closing quote. When the string has no escapes the result
// aliases line and scratch is untouched.
func ScanQuoted(line []byte, pos int, scratch *[]byte) ([]byte, int, *SyntaxError) {
	i := pos + 1
	// Fast path: no escapes.
	for i < len(line) {
		c := line[i]
		if c == '"' {
			return line[pos+1 : i], i + 1, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return nil, 0, errAt(i+1, InvalidEscape, "raw control character in a quoted string; escape it (\\n, \\t, \\u00XX)")
		}
		i++
	}
	if i >= len(line) {
		return nil, 0, errAt(pos+1, UnterminatedQuote, "quoted string has no closing quote")
	}
	buf := *scratch
	start := len(buf)
	buf = append(buf, line[pos+1:i]...)
	for i < len(line) {
		c := line[i]
		switch {
		case c == '"':
			*scratch = buf
			return buf[start:], i + 1, nil
		case c < 0x20:
			*scratch = buf
			return nil, 0, errAt(i+1, InvalidEscape, "raw control character in a quoted string; escape it (\\n, \\t, \\u00XX)")
		case c != '\\':
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(line) {
			*scratch = buf
			return nil, 0, errAt(pos+1, UnterminatedQuote, "quoted string has no closing quote")
		}
		esc := line[i+1]
		switch esc {
		case '"', '\\', '/':
			buf = append(buf, esc)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(line, i+2)
			if !ok {
				*scratch = buf
				return nil, 0, errAt(i+1, InvalidEscape, "\\u must be followed by four hex digits")
			}
			n := 6
			if r >= 0xD800 && r <= 0xDBFF {
				if i+7 < len(line) && line[i+6] == '\\' && line[i+7] == 'u' {
					lo, ok := hex4(line, i+8)
					if !ok {
						*scratch = buf
						return nil, 0, errAt(i+7, InvalidEscape, "\\u must be followed by four hex digits")
					}
					if lo < 0xDC00 || lo > 0xDFFF {
						*scratch = buf
						return nil, 0, errAt(i+1, InvalidSurrogate, "high surrogate escape is not followed by a low surrogate")
					}
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					n = 12
				} else {
					*scratch = buf
					return nil, 0, errAt(i+1, InvalidSurrogate, "isolated high surrogate escape")
				}
			} else if r >= 0xDC00 && r <= 0xDFFF {
				*scratch = buf
				return nil, 0, errAt(i+1, InvalidSurrogate, "isolated low surrogate escape")
			}
			buf = utf8.AppendRune(buf, r)
			i += n
			continue
		default:
			*scratch = buf
			return nil, 0, errAt(i+1, InvalidEscape, "invalid escape sequence \\"+string(rune(esc)))
		}
		i += 2
	}
	*scratch = buf
	return nil, 0, errAt(pos+1, UnterminatedQuote, "quoted string has no closing quote")
}

func hex4(line []byte, i int) (rune, bool) {
	if i+4 > len(line) {
		return 0, false
	}
	var r rune
	for _, c := range line[i : i+4] {
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

// skipFieldDecl returns the index just past the field declaration that
// starts with '{' at line[pos], checking only its shape.
func skipFieldDecl(line []byte, pos int) (int, *SyntaxError) {
	var dummy []byte
	end, _, err := ScanFieldDecl(line, pos, &dummy, nil)
	return end, err
}

// TrimTrailingBlanks returns line without its trailing spaces and tabs:
// SPEC §16.5 lets a decoder warn about trailing whitespace on a line, never
// reject it, and trailing blanks after a bare value are structural (§4.2).
func TrimTrailingBlanks(line []byte) []byte {
	n := len(line)
	for n > 0 && (line[n-1] == ' ' || line[n-1] == '\t') {
		n--
	}
	return line[:n]
}

// CheckLine is CheckUTF8 that also reports whether line may hold a
// control character that ControlAt finds (false means it holds none): a
// byte below 0x20, TAB included, or a C2 lead byte. ASCII lines cost one
// pass of word operations.
func CheckLine(line []byte) (controls bool, err *SyntaxError) {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	n := len(line)
	if n < 8 {
		for _, c := range line {
			if c < 0x20 || c == 0xC2 {
				controls = true
			}
		}
		return controls, CheckUTF8(line)
	}
	var acc, low uint64
	for i := 0; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(line[i:])
		acc |= x
		low |= (x - 0x20*lo) &^ x
	}
	x := binary.LittleEndian.Uint64(line[n-8:])
	acc |= x
	low |= (x - 0x20*lo) &^ x
	controls = low&hi != 0
	if acc&hi == 0 {
		return controls, nil
	}
	return controls || bytes.IndexByte(line, 0xC2) >= 0, CheckUTF8(line)
}

// CheckLineClass is CheckLine that also reports whether every byte of line
// is printable ASCII (0x20-0x7E) other than the quote: plain true means a
// scanner may find the line's cells by looking for '|' alone.
func CheckLineClass(line []byte) (controls, plain bool, err *SyntaxError) {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	n := len(line)
	if n < 8 {
		plain = true
		for _, c := range line {
			if c < 0x20 || c == 0xC2 {
				controls = true
			}
			if c < 0x20 || c >= 0x7f || c == '"' {
				plain = false
			}
		}
		return controls, plain, CheckUTF8(line)
	}
	// acc collects high bits (non-ASCII), low bytes below 0x20, odd bytes
	// that are DEL (x+1 carries into the high bit) or the quote.
	var acc, low, odd uint64
	for i := 0; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(line[i:])
		acc |= x
		low |= (x - 0x20*lo) &^ x
		q := x ^ ('"' * lo)
		odd |= (x + lo) | (q-lo)&^q
	}
	x := binary.LittleEndian.Uint64(line[n-8:])
	acc |= x
	low |= (x - 0x20*lo) &^ x
	q := x ^ ('"' * lo)
	odd |= (x + lo) | (q-lo)&^q
	controls = low&hi != 0
	if acc&hi == 0 {
		return controls, !controls && odd&hi == 0, nil
	}
	return controls || bytes.IndexByte(line, 0xC2) >= 0, false, CheckUTF8(line)
}

// CheckUTF8 validates line as UTF-8 made of Unicode scalar values. It
// returns nil or an error whose Column is the 1-based offset of the first
// bad byte: invalid_surrogate for an encoded surrogate (ED A0-BF ..),
// invalid_utf8 for anything else.
func CheckUTF8(line []byte) *SyntaxError {
	if n := len(line); n >= 8 {
		// All ASCII is the common case: OR the words together (the last
		// one overlapping) and look at the high bits once.
		var acc uint64
		for i := 0; i+8 <= n; i += 8 {
			acc |= binary.LittleEndian.Uint64(line[i:])
		}
		acc |= binary.LittleEndian.Uint64(line[n-8:])
		if acc&0x8080808080808080 == 0 {
			return nil
		}
	}
	i := 0
	for i < len(line) && line[i] < utf8.RuneSelf {
		i++
	}
	if i == len(line) || utf8.Valid(line[i:]) {
		return nil
	}
	for i < len(line) {
		if line[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n <= 1 {
			if IsEncodedSurrogate(line[i:]) {
				return errAt(i+1, InvalidSurrogate, "literal UTF-16 surrogate code point")
			}
			return errAt(i+1, InvalidUTF8, "malformed UTF-8 byte sequence")
		}
		i += n
	}
	return nil
}

// IsEncodedSurrogate reports whether b starts with the (invalid) UTF-8
// encoding of a UTF-16 surrogate code point, U+D800-U+DFFF: ED A0-BF.
// Such bytes are invalid_surrogate rather than invalid_utf8 (SPEC §2.2,
// §16.5 "Literal surrogate").
func IsEncodedSurrogate(b []byte) bool {
	return len(b) >= 2 && b[0] == 0xED && b[1] >= 0xA0 && b[1] <= 0xBF
}

// PlainASCII reports whether every byte of b is printable ASCII or a space
// (0x20-0x7E), eight bytes at a time.
func PlainASCII(b []byte) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// A byte below 0x20 borrows into its high bit; a byte at or above
		// 0x7F has (or carries into) its high bit after adding 1.
		if ((x-0x20*lo)&^x|(x+lo)|x)&hi != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 || b[i] > 0x7E {
			return false
		}
	}
	return true
}

// ControlAt returns the index of the first control character that SPEC §2
// forbids raw in a bare value, or -1: a C0 control other than TAB
// (U+0000-U+0008, U+000A-U+001F) or a C1 control (U+0080-U+009F, encoded
// C2 80 to C2 9F). Printable ASCII is skipped eight bytes at a time.
func ControlAt(b []byte) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// A byte below 0x20 borrows into its high bit; a non-ASCII byte has it.
		if ((x-0x20*lo)&^x|x)&hi != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c < 0x20 && c != '\t':
			return i
		case c == 0xC2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9F:
			return i
		}
	}
	return -1
}

// ClassifyPlainInto is Classify writing into *dst, for a token already
// known to be trimmed, unquoted and free of markers; it saves the copy on
// hot paths.
func ClassifyPlainInto(dst *Scalar, t []byte) *SyntaxError { return classifyInto(dst, t) }

// FloatOverflows reports whether the number lexeme t (which must match the
// JSON number grammar) lies beyond the binary64 range, that is, rounds to
// ±Inf. Underflow is not overflow: a tiny magnitude rounds to a subnormal
// or to zero, as SPEC §2.3.2's binary64 domain implies. It estimates the
// decimal exponent from the digits and the exponent part, and parses
// only a number within a factor of ten of the limit.
func FloatOverflows(t []byte) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	// value = 0.d1d2... × 10^e10 with d1 the first non-zero digit.
	e10, nonzero := 0, false
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		if nonzero || t[i] != '0' {
			nonzero = true
			e10++
		}
	}
	if i < len(t) && t[i] == '.' {
		for i++; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			if !nonzero {
				if t[i] != '0' {
					nonzero = true
				} else {
					e10--
				}
			}
		}
	}
	if !nonzero {
		return false // zero, whatever its exponent
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		neg := false
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			neg = t[i] == '-'
			i++
		}
		exp := 0
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			if exp < 1<<30 {
				exp = exp*10 + int(t[i]-'0')
			}
		}
		if neg {
			exp = -exp
		}
		e10 += exp // |e10| stays far below the int range: digits are bounded by the line limit
	}
	switch {
	case e10 <= 308: // below 1e308
		return false
	case e10 >= 310: // at least 1e309
		return true
	}
	f, err := strconv.ParseFloat(string(t), 64)
	return err != nil && math.IsInf(f, 0)
}
