package lexer

import "bytes"

// IsBareKeyStart reports whether c may begin a bare key (SPEC §2a.1).
func IsBareKeyStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// IsBareKeyByte reports whether c may continue a bare key.
func IsBareKeyByte(c byte) bool {
	return IsBareKeyStart(c) || (c >= '0' && c <= '9')
}

// IsBareKey reports whether s is a valid bare key: ( ALPHA / "_" ) *( ALPHA / DIGIT / "_" ).
func IsBareKey(s string) bool {
	if len(s) == 0 || !IsBareKeyStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsBareKeyByte(s[i]) {
			return false
		}
	}
	return true
}

// ScanKey reads a bare or quoted key at line[pos] and returns its decoded
// text and the index just past it.
func ScanKey(line []byte, pos int, scratch *[]byte) ([]byte, int, *SyntaxError) {
	if pos < len(line) && line[pos] == '"' {
		return ScanQuoted(line, pos, scratch)
	}
	i := pos
	if i < len(line) && IsBareKeyStart(line[i]) {
		i++
		for i < len(line) && IsBareKeyByte(line[i]) {
			i++
		}
	}
	if i == pos {
		return nil, 0, errAt(pos+1, InvalidLine, "expected a key")
	}
	return line[pos:i], i, nil
}

// ScanFieldDecl reads a field declaration `{name,name,...}` whose '{' is at
// line[pos]. Decoded names are appended to dst (which may be nil to only
// check the shape). It returns the index just past '}'.
func ScanFieldDecl(line []byte, pos int, scratch *[]byte, dst [][]byte) (int, [][]byte, *SyntaxError) {
	end, dst, _, err := scanFieldDecl(line, pos, scratch, dst, false)
	return end, dst, err
}

// ScanFieldDeclID is ScanFieldDecl for the declaration of a keyed set
// (SPEC §10a.1), where one name may carry the identity mark `@`
// (id-field = "@" key). It also returns the index of the marked name, or
// -1 when there is none; a second marked name is malformed_delta at its '@'.
func ScanFieldDeclID(line []byte, pos int, scratch *[]byte, dst [][]byte) (int, [][]byte, int, *SyntaxError) {
	return scanFieldDecl(line, pos, scratch, dst, true)
}

func scanFieldDecl(line []byte, pos int, scratch *[]byte, dst [][]byte, ids bool) (int, [][]byte, int, *SyntaxError) {
	id := -1
	if pos >= len(line) || line[pos] != '{' {
		return 0, dst, id, errAt(pos+1, InvalidLine, "expected a field declaration {...}")
	}
	i := pos + 1
	for n := 0; ; n++ {
		var name []byte
		var err *SyntaxError
		if ids && i < len(line) && line[i] == '@' {
			if id >= 0 {
				return 0, dst, id, errAt(i+1, MalformedDelta, "a second @ identity field; a keyed set has exactly one (SPEC §10a.1)")
			}
			id = n
			i++
		}
		if i < len(line) && line[i] == '"' {
			name, i, err = ScanQuoted(line, i, scratch)
		} else {
			name, i, err = ScanKey(line, i, scratch)
		}
		if err != nil {
			if err.Category == InvalidLine {
				err.Msg = "expected a field name in the declaration"
			}
			return 0, dst, id, err
		}
		if dst != nil {
			dst = append(dst, name)
		}
		if i >= len(line) {
			return 0, dst, id, errAt(i+1, InvalidLine, "field declaration has no closing }")
		}
		switch line[i] {
		case ',':
			i++
		case '}':
			return i + 1, dst, id, nil
		default:
			return 0, dst, id, errAt(i+1, InvalidLine, "expected , or } in the field declaration")
		}
	}
}

// FieldNameAt returns the index in line of the first byte (the quote, for a
// quoted name) of name k of the field declaration whose '{' is at
// line[pos]. The declaration must have been scanned without error.
func FieldNameAt(line []byte, pos, k int) int {
	var scratch []byte
	i := pos + 1
	for n := 0; n < k && i < len(line); n++ {
		var err *SyntaxError
		if line[i] == '@' {
			i++
		}
		if _, i, err = ScanKey(line, i, &scratch); err != nil || i >= len(line) {
			return pos
		}
		scratch = scratch[:0]
		i++ // the comma
	}
	return i
}

// Count bracket results.
const (
	// Deferred is the count of a `[?]` bracket (SPEC §8.2).
	Deferred = -1
)

// ScanCount reads a count bracket `[N]`, `[?]`, `[N:]` or `[?:]` whose '['
// is at line[pos]. It returns the count (Deferred for ?), whether the
// bracket marks a keyed map, and the index just past ']'. Counts larger
// than max are reported as too_many_elements without being materialised.
func ScanCount(line []byte, pos int, max int64) (count int64, keyed bool, end int, err *SyntaxError) {
	i := pos + 1
	if i < len(line) && line[i] == '?' {
		count = Deferred
		i++
	} else {
		j := i
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		digits := line[j:i]
		if len(digits) == 0 || (len(digits) > 1 && digits[0] == '0') {
			return 0, false, 0, errAt(pos+1, InvalidCount, "count must be 0, a decimal without leading zeros, or ?")
		}
		if len(digits) > 18 {
			return 0, false, 0, errAt(pos+1, TooManyElements, "declared count "+Excerpt(digits)+" exceeds the element limit")
		}
		for _, c := range digits {
			count = count*10 + int64(c-'0')
		}
		if max > 0 && count > max {
			return 0, false, 0, errAt(pos+1, TooManyElements, "declared count "+Excerpt(digits)+" exceeds the element limit")
		}
	}
	if i < len(line) && line[i] == ':' && i+1 < len(line) && line[i+1] == ']' {
		return count, true, i + 2, nil
	}
	if i < len(line) && line[i] == ']' {
		return count, false, i + 1, nil
	}
	return 0, false, 0, errAt(pos+1, InvalidCount, "count must be 0, a decimal without leading zeros, or ?")
}

// PathSegments splits a flattened field name such as `customer>name` into
// its segments (SPEC §7.4.6), or returns nil when the name is literal (no
// `>`, or an empty segment).
func PathSegments(name []byte) [][]byte {
	if bytes.IndexByte(name, '>') < 0 {
		return nil
	}
	segs := bytes.Split(name, []byte(">"))
	for _, s := range segs {
		if len(s) == 0 {
			return nil
		}
	}
	return segs
}

// IsV1Number reports whether t matches the legacy v1 number pattern
// `-?DIGITS(.DIGITS)?` (SPEC-v1.1 §6a), ASCII digits only: what a v1
// decoder reads as a number, and a v1 graph score.
func IsV1Number(t []byte) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	j := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == j {
		return false
	}
	if i == len(t) {
		return true
	}
	if t[i] != '.' {
		return false
	}
	i++
	j = i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > j && i == len(t)
}
