package encoder

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/gcfkit/gcf/lexer"
)

// The encode limits (SPEC §12): the errors of an encoder that would write
// what a decoder with the same limits rejects, with the decoder's
// categories. Each says which limit to raise, by option and CLI flag; the
// decoder must then be given the same limit. Every encoding path of the
// module refuses through these.

// DepthError is the depth_exceeded error of an encoding nested deeper than
// limit.
func DepthError(limit int) error {
	return lexer.Errorf(lexer.DepthExceeded,
		"the encoding would nest containers deeper than the depth limit of %d "+
			"(raise it with gcf.WithMaxDepth or -max-depth, on the decoder too)", limit)
}

// LineTooLongError is the line_too_long error of line number line, n bytes
// long (text), over limit.
func LineTooLongError(line, n, limit int, text []byte) error {
	return lexer.Errorf(lexer.LineTooLong,
		"line %d of the encoding would be %d bytes, over the line limit of %d "+
			"(raise it with gcf.WithMaxLineBytes or -max-line, on the decoder too): %s", line, n, limit, quoteStart(text))
}

// ElementsError is the too_many_elements error of a container (described
// by what) of n elements over limit.
func ElementsError(n int, what string, limit int) error {
	return lexer.Errorf(lexer.TooManyElements,
		"%s of %d elements exceeds the element limit of %d "+
			"(raise it with gcf.WithMaxElements or -max-elements, on the decoder too)", what, n, limit)
}

// FieldsError is the too_many_fields error of a declaration of n fields
// over limit.
func FieldsError(n, limit int) error {
	return lexer.Errorf(lexer.TooManyFields,
		"field declaration of %d fields exceeds the field limit of %d "+
			"(raise it with gcf.WithMaxFields or -max-fields, on the decoder too)", n, limit)
}

// SizeError is the payload_too_large error of an encoding over limit bytes.
func SizeError(limit int64) error {
	return lexer.Errorf(lexer.PayloadTooLarge,
		"the encoding exceeds the payload size limit of %d bytes "+
			"(raise it with gcf.WithMaxBytes or -max-bytes, on the decoder too)", limit)
}

// quoteStart quotes at most the first 40 bytes of b, cut on a UTF-8
// boundary and marked with "..." when cut.
func quoteStart(b []byte) string {
	const max = 40
	if len(b) <= max {
		return strconv.Quote(string(b))
	}
	n := max
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return strconv.Quote(string(b[:n])) + "..."
}

// CheckLines returns a line_too_long error for the first line of out
// longer than max bytes (without its line end), or nil.
func CheckLines(out []byte, max int) error {
	for line := 1; len(out) > 0; line++ {
		i := bytes.IndexByte(out, '\n')
		if i < 0 {
			i = len(out)
		}
		if i > max {
			return LineTooLongError(line, i, max, out[:i])
		}
		out = out[min(i+1, len(out)):]
	}
	return nil
}

// CheckSize returns a payload_too_large error when n bytes exceed the
// limit (0: none).
func CheckSize(n int, limit int64) error {
	if limit > 0 && int64(n) > limit {
		return SizeError(limit)
	}
	return nil
}
