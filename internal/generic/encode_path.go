package generic

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gcfkit/gcf/lexer"
)

// Encode errors about one value of the input carry its JSON Pointer (RFC
// 6901) in SyntaxError.Path, as json/v2's SemanticError does: the
// normalizer records the keys and indices it leaves on the way out of a
// failure (normalizer.at), and the layout encoder finds the container a
// limit refused by walking the normalized value after the failure. The
// hot paths pay nothing for either.

// at records that err arose under member key (or struct field name) key
// of the value being left, and returns err.
func (n *normalizer) at(err error, key string) error {
	n.errPath = append(n.errPath, key)
	return err
}

// atIndex records that err arose under element i of the array being left.
func (n *normalizer) atIndex(err error, i int) error {
	return n.at(err, strconv.Itoa(i))
}

// withPointer returns err with Path set to the JSON Pointer of the
// reference tokens toks (innermost first), when err is a *SyntaxError
// without a position or a path. A depth error keeps no path: it would be
// as long as the nesting it refuses.
func withPointer(err error, toks []string) error {
	se, ok := err.(*lexer.SyntaxError)
	if len(toks) == 0 || !ok || se.Line != 0 || se.Path != "" || se.Category == lexer.DepthExceeded {
		return err
	}
	var b []byte
	for _, t := range slices.Backward(toks) {
		b = appendPointerToken(b, t)
	}
	c := *se
	c.Path = string(b)
	return &c
}

// atPointer returns err with Path set to path, when err is a *SyntaxError
// without a position or a path.
func atPointer(err error, path []byte) error {
	se, ok := err.(*lexer.SyntaxError)
	if !ok || se.Line != 0 || se.Path != "" {
		return err
	}
	c := *se
	c.Path = string(path)
	return &c
}

// appendPointerToken appends "/" and key, escaped as RFC 6901 §3 requires
// ("~" as "~0", "/" as "~1"), to b.
func appendPointerToken(b []byte, key string) []byte {
	b = append(b, '/')
	if !strings.ContainsAny(key, "~/") {
		return append(b, key...)
	}
	for i := 0; i < len(key); i++ {
		switch key[i] {
		case '~':
			b = append(b, "~0"...)
		case '/':
			b = append(b, "~1"...)
		default:
			b = append(b, key[i])
		}
	}
	return b
}

// elementsPath gives a too_many_elements error of the layout encoder the
// JSON Pointer of the container it refused: the first container of v, in
// document order, of the kind and with as many elements (members or
// items) as the error reports (the layout encoder's encoder.ElementsError
// writes "array of N elements ...", "object of ..." or "keyed map of
// ..."), more than limit. Table rows and flattened objects are not
// containers to the limit (their members are columns), which is why the
// kind and count must match. Other errors pass unchanged.
func elementsPath(err error, v any, limit int) error {
	se, ok := err.(*lexer.SyntaxError)
	if !ok || se.Category != lexer.TooManyElements || se.Line != 0 || se.Path != "" {
		return err
	}
	what, rest, ok := strings.Cut(se.Msg, " of ")
	num, _, ok2 := strings.Cut(rest, " elements")
	n, err2 := strconv.Atoi(num)
	if !ok || !ok2 || err2 != nil || n <= limit {
		return err
	}
	path, found := findLarge(v, nil, n, what == "array")
	if !found || len(path) == 0 {
		return err
	}
	c := *se
	c.Path = string(path)
	return &c
}

// findLarge returns the JSON Pointer of the first container of v (v
// itself first) with n elements, an array if array, else an object.
func findLarge(v any, path []byte, n int, array bool) ([]byte, bool) {
	switch x := v.(type) {
	case Object:
		if len(x) == n && !array {
			return path, true
		}
		for _, m := range x {
			if p, ok := findLarge(m.Value, appendPointerToken(path[:len(path):len(path)], m.Key), n, array); ok {
				return p, true
			}
		}
	case []any:
		if len(x) == n && array {
			return path, true
		}
		for i, it := range x {
			if p, ok := findLarge(it, strconv.AppendInt(append(path[:len(path):len(path)], '/'), int64(i), 10), n, array); ok {
				return p, true
			}
		}
	}
	return nil, false
}
