package gcf

import (
	"errors"
	"strings"
	"testing"
)

// Invalid UTF-8 anywhere in encoder input is an invalid_utf8 error that
// says where the string is and, in Offset, where in it the bad byte is;
// never a silent U+FFFD.
func TestEncodeGenericInvalidUTF8(t *testing.T) {
	keyed := func(k string) Object {
		return Object{{k, Object{{"v", int64(1)}}}, {"b", Object{{"v", int64(2)}}}}
	}
	cases := []struct {
		name string
		v    any
		path string
		off  int64
	}{
		{"root scalar", "ab\xff", "$", 2},
		{"member value", Object{{"a", "x\xffy"}}, "$.a", 1},
		{"member key", Object{{"k\xfe", int64(1)}}, `$["k\xfe"]`, 1},
		{"section key", Object{{"\xfek", Object{{"a", int64(1)}}}}, `$["\xfek"]`, 0},
		{"keyed-map key", Object{{"k", keyed("\xfe")}}, `$.k["\xfe"]`, 0},
		{"inline element", Object{{"a", []any{"ok", "\xc3("}}}, "$.a[1]", 0},
		{"row cell", []any{Object{{"a", "é\xff"}}, Object{{"a", "b"}}}, "$[0].a", 2},
		{"field name", []any{Object{{"é\x80", int64(1)}}}, `$[0]["é\x80"]`, 2},
		{"flattened path", []any{Object{{"p", Object{{"q\xff", int64(1)}}}}, Object{{"p", Object{{"q\xff", int64(2)}}}}}, `$[0].p["q\xff"]`, 1},
		{"expanded item", []any{"\xff", []any{int64(1)}}, "$[0]", 0},
		{"truncated rune", Object{{"a", "abc\xe2\x82"}}, "$.a", 3},
		{"surrogate half", Object{{"a", "\xed\xa0\x80"}}, "$.a", 0},
	}
	for _, c := range cases {
		out, err := EncodeGeneric(c.v)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Category != InvalidUTF8 {
			t.Errorf("%s: got %q, %v; want invalid_utf8", c.name, out, err)
			continue
		}
		if se.Offset != c.off || !strings.Contains(se.Msg, " at "+c.path+" ") {
			t.Errorf("%s: offset %d, message %q; want offset %d and path %s", c.name, se.Offset, se.Msg, c.off, c.path)
		}
		if out != nil {
			t.Errorf("%s: returned bytes on error", c.name)
		}
	}
	// Valid non-ASCII text is written unchanged.
	out, err := EncodeGeneric(Object{{"k", "héllo ௗ"}})
	if err != nil || string(out) != "GCF profile=generic\nk=héllo ௗ\n" {
		t.Errorf("got %q, %v", out, err)
	}
}
