package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// caretTarget returns the excerpt line and the byte of it above the caret.
func caretTarget(t *testing.T, stderr string) (string, string) {
	t.Helper()
	lines := strings.Split(stderr, "\n")
	if len(lines) < 3 {
		t.Fatalf("no excerpt in %q", stderr)
	}
	text, caret := lines[1], lines[2]
	col := strings.Index(caret, "^")
	if col < 0 || col >= len(text) {
		t.Fatalf("no caret under the excerpt:\n%s", stderr)
	}
	r, _ := utf8.DecodeRuneInString(text[col:])
	return text, string(r)
}

// A long line is never echoed whole: the excerpt holds at most about 80
// bytes around the column, and the caret is under the right byte.
func TestLongLinesAreCut(t *testing.T) {
	line := "v=\"" + strings.Repeat("a", 4996) + "\\q" + strings.Repeat("b", 5000) + "\""
	in := "GCF profile=generic\n" + line + "\n"
	for _, cmd := range []string{"decode", "validate"} {
		_, stderr, code := runCLI(t, in, cmd)
		if code != 1 || !strings.HasPrefix(stderr, "<stdin>:2:5000: invalid_escape: ") {
			t.Fatalf("%s: exit %d, %q", cmd, code, stderr)
		}
		text, at := caretTarget(t, stderr)
		if at != "\\" || len(text) > 2+3+2*excerptHalf+3 || !strings.HasPrefix(text, "  ...a") || !strings.HasSuffix(text, "b...") {
			t.Fatalf("%s: excerpt %q, caret under %q", cmd, text, at)
		}
	}
	// From a file, the excerpt is read back from the file.
	dir := t.TempDir()
	files := map[string]string{"long.gcf": in}
	_, stderr, _ := validateFiles(t, files)
	if text, at := caretTarget(t, stderr); at != "\\" || len(text) > 90 {
		t.Fatalf("file: excerpt %q, caret under %q", text, at)
	}
	_ = dir
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string
		off   int64
		col   int
		text  string
		pad   string
	}{
		{"short line", "ab\ncdef\n", 5, 3, "cdef", "  "},
		{"tab kept", "x\n\tab\n", 4, 3, "\tab", "\t "},
		{"CRLF", "x\r\nabc\r\n", 4, 2, "abc", " "},
		{"end of line", "x\nabc\n", 5, 4, "abc", "   "},
		{"control byte", "x\na\x01b\n", 4, 3, "a?b", "  "},
		{"cut on both sides", strings.Repeat("é", 60), 60, 61, "..." + strings.Repeat("é", 40) + "...", strings.Repeat(" ", 23)},
		{"cut inside a character", strings.Repeat("€", 60), 90, 91, "..." + strings.Repeat("€", 26) + "...", strings.Repeat(" ", 16)},
	} {
		text, pad, ok := excerpt(bytes.NewReader([]byte(tc.input)), tc.off, tc.col)
		if !ok || text != tc.text || pad != tc.pad {
			t.Errorf("%s: %q %q %v, want %q %q", tc.name, text, pad, ok, tc.text, tc.pad)
		}
	}
	// No excerpt rather than a wrong one: an offset that does not agree
	// with the column, an empty line, or bytes that are gone.
	for _, tc := range []struct {
		input string
		off   int64
		col   int
	}{
		{"ab\ncd\n", 4, 3}, // the line starts at 3, not at 2
		{"ab\ncd\n", 4, 1}, // offset 4 is column 2
		{"ab\n\n", 3, 1},   // an empty line
		{"ab\n", 30, 1},    // past the end
	} {
		if text, _, ok := excerpt(bytes.NewReader([]byte(tc.input)), tc.off, tc.col); ok {
			t.Errorf("%q at %d col %d: got %q", tc.input, tc.off, tc.col, text)
		}
	}
	tl := newTail(16)
	tl.write([]byte(strings.Repeat("x", 100) + "\nabcdef"))
	if text, pad, ok := excerpt(tl, 103, 3); !ok || text != "abcdef" || pad != "  " {
		t.Errorf("tail: %q %q %v", text, pad, ok)
	}
	if _, _, ok := excerpt(tl, 50, 51); ok {
		t.Errorf("tail: bytes no longer held were shown")
	}
}
