package gcf

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/gcfkit/gcf/lexer"
)

// Errors of an encoder that would write what a decoder with the same
// limits rejects. Each says which limit to raise, by option and CLI flag;
// the decoder must then be given the same limit.

func depthErr(limit int) error {
	return lexer.Errorf(lexer.DepthExceeded,
		"the encoding would nest containers deeper than the depth limit of %d "+
			"(raise it with gcf.WithMaxDepth or -max-depth, on the decoder too)", limit)
}

func lineTooLongErr(line, n, limit int, text []byte) error {
	return lexer.Errorf(lexer.LineTooLong,
		"line %d of the encoding would be %d bytes, over the line limit of %d "+
			"(raise it with gcf.WithMaxLineBytes or -max-line, on the decoder too): %s", line, n, limit, quoteStart(text))
}

func elementsErr(n int, what string, limit int) error {
	return lexer.Errorf(lexer.TooManyElements,
		"%s of %d elements exceeds the element limit of %d "+
			"(raise it with gcf.WithMaxElements or -max-elements, on the decoder too)", what, n, limit)
}

func fieldsErr(n, limit int) error {
	return lexer.Errorf(lexer.TooManyFields,
		"field declaration of %d fields exceeds the field limit of %d "+
			"(raise it with gcf.WithMaxFields or -max-fields, on the decoder too)", n, limit)
}

func bytesErr(limit int64) error {
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

// checkLines returns a line_too_long error for the first line of out
// longer than max bytes (without its line end), or nil.
func checkLines(out []byte, max int) error {
	for line := 1; len(out) > 0; line++ {
		i := bytes.IndexByte(out, '\n')
		if i < 0 {
			i = len(out)
		}
		if i > max {
			return lineTooLongErr(line, i, max, out[:i])
		}
		out = out[min(i+1, len(out)):]
	}
	return nil
}

// checkSize returns a payload_too_large error when n bytes exceed the
// limit (0: none).
func checkSize(n int, limit int64) error {
	if limit > 0 && int64(n) > limit {
		return bytesErr(limit)
	}
	return nil
}
