// Package jsonmodel is the ordered JSON data model of the generic profile:
// Object and Member, and ParseJSON and ToJSON between it and JSON text.
package jsonmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/jsonnum"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/lexer"
)

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its members in order. DecodeGeneric
// returns objects as Object, and EncodeGeneric emits an Object's members in
// slice order (SPEC §7.2). Values inside are nil, bool, int64, float64,
// string, []any or Object.
type Object []Member

// Get returns the value stored under key and whether it is present.
func (o Object) Get(key string) (any, bool) {
	for i := range o {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the object as JSON with its members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	return AppendJSON(nil, o)
}

// UnmarshalJSON reads a JSON object keeping member order and number
// fidelity (see ParseJSON).
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := ParseJSON(data)
	if err != nil {
		return err
	}
	obj, ok := v.(Object)
	if !ok {
		return fmt.Errorf("gcf: JSON value is %T, not an object", v)
	}
	*o = obj
	return nil
}

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
func ParseJSON(data []byte, opts ...options.Option) (any, error) {
	cfg := options.Resolve(opts)
	p := jsonParser{data: data, maxDepth: cfg.Limits.MaxDepth}
	if max := cfg.Limits.MaxBytes; max > 0 && int64(len(data)) > max {
		return nil, p.errAt(int(max), lexer.PayloadTooLarge, "JSON input is %d bytes, over the limit of %d", len(data), max)
	}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		return nil, p.errAt(0, lexer.InvalidLine, "input starts with a UTF-8 byte order mark (EF BB BF); JSON text has none, remove it")
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(data) {
		return nil, p.unexpected("the end of input after the JSON value")
	}
	return v, nil
}

// jsonParser is a recursive-descent JSON parser over one byte slice.
type jsonParser struct {
	data     []byte
	pos      int
	maxDepth int
	buf      []byte // scratch for strings with escapes
}

// smallObject is the member count up to which duplicate keys are found
// by scanning the object; larger objects index their keys in a map.
const smallObject = 16

// jsonPlain marks the bytes a string copies without a second look: ASCII
// other than controls, '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses the value at p.pos; depth counts the enclosing containers.
func (p *jsonParser) value(depth int) (any, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.unexpected("a JSON value")
	}
	switch c := p.data[p.pos]; c {
	case '{':
		return p.object(depth + 1)
	case '[':
		return p.array(depth + 1)
	case '"':
		return p.str()
	case 't':
		return p.literal("true", true)
	case 'f':
		return p.literal("false", false)
	case 'n':
		return p.literal("null", nil)
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return p.number()
		}
		return nil, p.unexpected("a JSON value")
	}
}

func (p *jsonParser) object(depth int) (any, error) {
	if depth > p.maxDepth {
		return nil, p.errAt(p.pos, lexer.DepthExceeded, "JSON nesting exceeds the depth limit of %d", p.maxDepth)
	}
	p.pos++ // '{'
	obj := Object{}
	var index map[string]struct{} // the keys, once the object outgrows smallObject
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.unexpected("an object key (a string)")
		}
		keyAt := p.pos
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		dup := false
		if index != nil {
			n := len(index)
			index[k] = struct{}{} // one hash lookup: the map grows unless k is there
			dup = len(index) == n
		} else {
			for i := range obj {
				if obj[i].Key == k {
					dup = true
					break
				}
			}
			if len(obj) == smallObject {
				index = make(map[string]struct{}, 2*smallObject)
				for i := range obj {
					index[obj[i].Key] = struct{}{}
				}
				index[k] = struct{}{}
			}
		}
		if dup {
			return nil, p.errAt(keyAt, lexer.DuplicateKey, "duplicate key %s in JSON object", clipQuote(k))
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.unexpected("':' after an object key")
		}
		p.pos++
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{k, v})
		p.skipSpace()
		if p.pos < len(p.data) {
			switch p.data[p.pos] {
			case ',':
				p.pos++
				continue
			case '}':
				p.pos++
				return obj, nil
			}
		}
		return nil, p.unexpected("',' or '}' after an object member")
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	if depth > p.maxDepth {
		return nil, p.errAt(p.pos, lexer.DepthExceeded, "JSON nesting exceeds the depth limit of %d", p.maxDepth)
	}
	p.pos++ // '['
	arr := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return arr, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.skipSpace()
		if p.pos < len(p.data) {
			switch p.data[p.pos] {
			case ',':
				p.pos++
				continue
			case ']':
				p.pos++
				return arr, nil
			}
		}
		return nil, p.unexpected("',' or ']' after an array element")
	}
}

// str parses the string whose opening quote is at p.pos.
func (p *jsonParser) str() (string, error) {
	d := p.data
	open := p.pos
	var buf []byte // nil until the first escape
	lit := open + 1
	for i := lit; i < len(d); {
		c := d[i]
		switch {
		case jsonPlain[c]:
			i++
		case c == '"':
			p.pos = i + 1
			if buf == nil {
				return string(d[lit:i]), nil
			}
			buf = append(buf, d[lit:i]...)
			p.buf = buf
			return string(buf), nil
		case c == '\\':
			if buf == nil {
				buf = p.buf[:0]
			}
			buf = append(buf, d[lit:i]...)
			n, err := p.escape(&buf, i)
			if err != nil {
				return "", err
			}
			i += n
			lit = i
		case c < 0x20:
			return "", p.errAt(i, lexer.InvalidEscape, "raw control character U+%04X in a JSON string; write it as \\u%04X", c, c)
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				if lexer.IsEncodedSurrogate(d[i:]) {
					// SPEC §2.2, §16.5: U+D800-U+DFFF are not scalar values.
					return "", p.errAt(i, lexer.InvalidSurrogate, "literal UTF-16 surrogate code point in a JSON string")
				}
				return "", p.errAt(i, lexer.InvalidUTF8, "invalid UTF-8 byte 0x%02X in a JSON string", c)
			}
			i += size
		}
	}
	return "", p.errAt(open, lexer.UnterminatedQuote, "JSON string is not closed before the end of input")
}

// escape appends the character the escape at d[at] ('\\') stands for and
// returns the escape's length in bytes.
func (p *jsonParser) escape(buf *[]byte, at int) (int, error) {
	d := p.data
	if at+1 >= len(d) {
		return 0, p.errAt(at, lexer.UnterminatedQuote, "JSON string is not closed before the end of input")
	}
	var c byte
	switch d[at+1] {
	case '"', '\\', '/':
		c = d[at+1]
	case 'b':
		c = '\b'
	case 'f':
		c = '\f'
	case 'n':
		c = '\n'
	case 'r':
		c = '\r'
	case 't':
		c = '\t'
	case 'u':
		r, ok := hex4(d, at+2)
		if !ok {
			return 0, p.errAt(at, lexer.InvalidEscape, "\\u must be followed by four hex digits")
		}
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return 0, p.errAt(at, lexer.InvalidSurrogate, "\\u%04X is a low surrogate without a high surrogate before it", r)
		case r >= 0xD800 && r <= 0xDBFF:
			lo, ok := rune(0), false
			if at+7 < len(d) && d[at+6] == '\\' && d[at+7] == 'u' {
				lo, ok = hex4(d, at+8)
			}
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return 0, p.errAt(at, lexer.InvalidSurrogate, "\\u%04X is a high surrogate without a low surrogate after it", r)
			}
			*buf = utf8.AppendRune(*buf, utf16.DecodeRune(r, lo))
			return 12, nil
		}
		*buf = utf8.AppendRune(*buf, r)
		return 6, nil
	default:
		r, _ := utf8.DecodeRune(d[at+1:])
		return 0, p.errAt(at, lexer.InvalidEscape, "invalid escape \\%c in a JSON string", r)
	}
	*buf = append(*buf, c)
	return 2, nil
}

// hex4 reads the four hex digits at d[at:].
func hex4(d []byte, at int) (rune, bool) {
	if at+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number parses the number at p.pos: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *jsonParser) number() (any, error) {
	d := p.data
	start := p.pos
	i := start
	digits := func() bool {
		n := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > n
	}
	bad := func(why string) error {
		return p.errAt(start, lexer.InvalidLine, "invalid JSON number %s: %s", clipQuote(string(d[start:min(i+1, len(d))])), why)
	}
	if d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		i++
		if i < len(d) && d[i] >= '0' && d[i] <= '9' {
			return nil, bad("leading zero")
		}
	} else if !digits() {
		return nil, bad("expected a digit")
	}
	float := false
	if i < len(d) && d[i] == '.' {
		float = true
		i++
		if !digits() {
			return nil, bad("expected a digit after '.'")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		float = true
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return nil, bad("expected a digit in the exponent")
		}
	}
	p.pos = i
	lexeme := d[start:i]
	if !float {
		v, ok := lexer.ParseInt(lexeme)
		if !ok {
			return nil, p.errAt(start, lexer.OutOfRange, "integer %s is outside the int64 range [-9223372036854775808, 9223372036854775807]; model it as a string", clipQuote(string(lexeme)))
		}
		return v, nil
	}
	f, err := lexer.ParseFloat(lexeme)
	if err != nil || math.IsInf(f, 0) {
		return nil, p.errAt(start, lexer.OutOfRange, "number %s is outside the binary64 range", clipQuote(string(lexeme)))
	}
	return f, nil
}

func (p *jsonParser) literal(word string, v any) (any, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, p.unexpected("a JSON value")
	}
	p.pos += len(word)
	return v, nil
}

// unexpected reports the byte at p.pos (or the end of input) where want
// was expected.
func (p *jsonParser) unexpected(want string) error {
	d := p.data
	if p.pos >= len(d) {
		// At the end of the last non-blank byte, not past a final newline.
		end := len(bytes.TrimRight(d, " \t\r\n"))
		return p.errAt(end, lexer.UnexpectedEOF, "unexpected end of JSON input; expected %s", want)
	}
	r, size := utf8.DecodeRune(d[p.pos:])
	if r == utf8.RuneError && size <= 1 {
		return p.errAt(p.pos, lexer.InvalidUTF8, "invalid UTF-8 byte 0x%02X; expected %s", d[p.pos], want)
	}
	return p.errAt(p.pos, lexer.InvalidLine, "expected %s, found %q", want, r)
}

// errAt builds the error for byte offset off, with its line and 1-based
// byte column (computed only now, so the parser tracks no lines).
func (p *jsonParser) errAt(off int, c lexer.Category, format string, args ...any) error {
	off = min(off, len(p.data))
	before := p.data[:off]
	return &lexer.SyntaxError{
		Line:     1 + bytes.Count(before, []byte{'\n'}),
		Column:   off - bytes.LastIndexByte(before, '\n'),
		Offset:   int64(off),
		Category: c,
		Msg:      fmt.Sprintf(format, args...),
	}
}

// clipQuote quotes s, cut to at most 80 bytes on a UTF-8 boundary and
// marked with "..." when longer, so that a message never echoes a long
// input.
func clipQuote(s string) string {
	const max = 80
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}

// NumberFromJSON converts a JSON number lexeme (a json.Number) as
// ParseJSON does: int64 for an integer literal, float64 otherwise.
// The zero json.Number ("") is 0, as encoding/json writes it; a string
// that is not a JSON number is unsupported_value.
func NumberFromJSON(s string) (any, error) {
	if s == "" {
		return int64(0), nil
	}
	if s[0] != '-' && (s[0] < '0' || s[0] > '9') || !json.Valid([]byte(s)) {
		return nil, lexer.Errorf(lexer.UnsupportedValue, "json.Number %s is not a JSON number", lexer.Excerpt([]byte(s)))
	}
	if strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, lexer.Errorf(lexer.OutOfRange, "number %s is outside the binary64 range", s)
		}
		return f, nil
	}
	v, ok := lexer.ParseInt([]byte(s))
	if !ok {
		return nil, lexer.Errorf(lexer.OutOfRange, "integer %s is outside the int64 range [-9223372036854775808, 9223372036854775807]; model it as a string", s)
	}
	return v, nil
}

// ToJSON writes a generic value (as returned by DecodeGeneric) as compact
// JSON, objects in member order. Integers are written exactly.
func ToJSON(v any) ([]byte, error) { return AppendJSON(nil, v) }

// AppendJSON appends the compact JSON of v to dst: ToJSON's append form.
func AppendJSON(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return dst, lexer.Errorf(lexer.OutOfRange, "non-finite number %v has no JSON form", x)
		}
		return jsonnum.AppendFloat(dst, x), nil
	case string:
		return encoder.AppendQuoted(dst, x), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = AppendJSON(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case Object:
		dst = append(dst, '{')
		for i, m := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = encoder.AppendQuoted(dst, m.Key)
			dst = append(dst, ':')
			var err error
			if dst, err = AppendJSON(dst, m.Value); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	default:
		// Without HTML escaping, as the cases above write strings.
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			return dst, err
		}
		return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...), nil
	}
}
