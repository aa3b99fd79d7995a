package encoder

import (
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

func category(err error) lexer.Category {
	if se, ok := err.(*lexer.SyntaxError); ok {
		return se.Category
	}
	return ""
}

func TestLimiter(t *testing.T) {
	lim := stream.Limits{MaxDepth: 3, MaxLineBytes: 5, MaxElements: 2, MaxFields: 1, MaxBytes: 12}
	l := NewLimiter(lim)
	if l.Depth(3) != nil || category(l.Depth(4)) != lexer.DepthExceeded || !l.DepthOK(3) || l.DepthOK(4) {
		t.Error("Depth: want nil at 3, depth_exceeded at 4")
	}
	if l.Elements(2, "x") != nil || category(l.Elements(3, "x")) != lexer.TooManyElements || l.ElementsOK(3) {
		t.Error("Elements: want nil at 2, too_many_elements at 3")
	}
	if l.Fields(1) != nil || category(l.Fields(2)) != lexer.TooManyFields || l.FieldsOK(2) {
		t.Error("Fields: want nil at 1, too_many_fields at 2")
	}
	if l.Total(12) != nil || category(l.Total(13)) != lexer.PayloadTooLarge {
		t.Error("Total: want nil at 12, payload_too_large at 13")
	}
	if n, err := l.LinesFrom([]byte("ab\ncdefgh\n"), 7); n != 1 || err == nil || !strings.Contains(err.Error(), "line 8 ") {
		t.Errorf("LinesFrom = %d, %v; want line 8 too long after 1 line", n, err)
	}
	if n, err := l.LinesFrom([]byte("ab\ncd\n"), 1); n != 2 || err != nil {
		t.Errorf("LinesFrom = %d, %v; want 2 lines, nil", n, err)
	}

	// Line state: lines end at LineDone; one too long, then the payload too large.
	buf := []byte("pre")
	l.Begin(lim, len(buf))
	buf = append(buf, "abcde\n"...)
	if !l.LineDone(len(buf)) {
		t.Fatal("LineDone refused a 5-byte line")
	}
	buf = append(buf, "abcdef\n"...)
	if l.LineDone(len(buf)) {
		t.Fatal("LineDone took a 6-byte line")
	}
	if err := l.LineErr(buf); category(err) != lexer.LineTooLong || !strings.Contains(err.Error(), "line 2 ") {
		t.Errorf("LineErr = %v; want line_too_long at line 2", err)
	}
	buf = append(buf[:9], "abcd\nab\n"...) // 14 bytes of payload, over 12
	l.Begin(lim, 3)
	if !l.LineDone(9) || !l.LineDone(14) || l.LineDone(len(buf)) {
		t.Fatal("LineDone: want the third line refused for size")
	}
	if err := l.LineErr(buf); category(err) != lexer.PayloadTooLarge {
		t.Errorf("LineErr = %v; want payload_too_large", err)
	}
	l.Begin(lim, 0)
	l.Fail()
	if l.LineDone(1) {
		t.Error("LineDone after Fail = true")
	}
}
