package lexer

import (
	"strconv"
	"unicode/utf8"
)

// MaxExcerpt is the most input bytes an error message quotes.
const MaxExcerpt = 80

// Excerpt returns at most MaxExcerpt bytes of b as a string, cut on a UTF-8
// boundary and followed by "..." when cut, so that a message never echoes
// a long input line.
func Excerpt(b []byte) string {
	if len(b) <= MaxExcerpt {
		return string(b)
	}
	n := MaxExcerpt
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "..."
}

// Quote is strconv.Quote of at most MaxExcerpt bytes of b, cut on a UTF-8
// boundary and marked with "..." after the closing quote when cut.
func Quote(b []byte) string {
	if len(b) <= MaxExcerpt {
		return strconv.Quote(string(b))
	}
	n := MaxExcerpt
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return strconv.Quote(string(b[:n])) + "..."
}
