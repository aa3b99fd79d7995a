package transcode

import (
	"math"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// appendString appends b as a JSON string with the escapes gcf.ToJSON
// uses: `"` and `\`, the short forms \b \f \n \r \t, \u00XX for the other
// C0 controls, and U+FFFD for each byte of invalid UTF-8. Everything else
// is written as is.
func appendString(dst, b []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, b[start:i]...)
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
		dst = append(dst, b[start:i]...)
		dst = appendEscape(dst, c)
		i++
		start = i
	}
	dst = append(dst, b[start:]...)
	return append(dst, '"')
}

// appendMarshalString appends b as encoding/json's Marshal writes a Go
// string: the escapes of appendString, plus \u003c, \u003e and \u0026 for
// <, > and &, \u2028 and \u2029 for those separators, and \ufffd (escaped)
// for invalid UTF-8. Graph JSON uses it, since today's output is
// json.Marshal of *gcf.Payload.
func appendMarshalString(dst, b []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, b[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, b[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, b[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, b[start:]...)
	return append(dst, '"')
}

// appendEscape appends the JSON escape of the ASCII byte c.
func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendMarshalFloat appends f as encoding/json's Marshal writes a
// float64 (ES6 number formatting). f is finite.
func appendMarshalFloat(dst []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
