package lexer

// DeclEntry is one entry of a table's field declaration (SPEC §7.4, and
// v3.6.0 §7.4.7): a field name, which may carry the `@` key mark
// (§10a.1, §7.4.8.1), and, for a constant column, its value.
type DeclEntry struct {
	Name  []byte // the decoded name, without its @ mark
	ID    bool   // the name carried the @ key mark
	Const bool   // a constant column `name=value`
	Value Scalar // the constant's value (Const only); Col is its index in the line + 1
	At    int    // index in the line of the entry's first byte (its @, quote or name)
}

// ScanDeclEntries reads a table field declaration `{entry,entry,...}`
// whose '{' is at line[pos], where an entry is `[@]name` or
// `[@]name=value` (v3.6.0 §7.4.7): the first '=' outside quotes after the
// name starts a constant value, which runs to the next ',' or '}' outside
// quotes and is a §2.1 scalar (`-` null, a number, true/false, a quoted
// or a bare string). Decoded entries are appended to dst; names and
// values alias line or *scratch. It returns the index just past '}'.
//
// Errors: an entry with an empty name before '=' is malformed_header_field;
// an empty value, `~`, a bare `^` or a complete `^{...}` marker is
// invalid_const_value; other shape errors are invalid_line, as in
// ScanFieldDecl. Whether @ marks and constants are allowed where the
// declaration stands is the caller's decision.
func ScanDeclEntries(line []byte, pos int, scratch *[]byte, dst []DeclEntry) (int, []DeclEntry, *SyntaxError) {
	if pos >= len(line) || line[pos] != '{' {
		return 0, dst, errAt(pos+1, InvalidLine, "expected a field declaration {...}")
	}
	i := pos + 1
	for {
		e := DeclEntry{At: i}
		if i < len(line) && line[i] == '@' {
			e.ID = true
			i++
		}
		var err *SyntaxError
		switch {
		case i < len(line) && line[i] == '"':
			e.Name, i, err = ScanQuoted(line, i, scratch)
		case i < len(line) && line[i] == '=':
			return 0, dst, errAt(i+1, MalformedHeaderField, "field entry has an empty name before '=' (SPEC §7.4.7: name=value)")
		default:
			e.Name, i, err = ScanKey(line, i, scratch)
		}
		if err != nil {
			if err.Category == InvalidLine {
				err.Msg = "expected a field name in the declaration"
			}
			return 0, dst, err
		}
		if i < len(line) && line[i] == '=' {
			e.Const = true
			if i, err = scanConstValue(line, i+1, scratch, &e.Value); err != nil {
				return 0, dst, err
			}
		}
		dst = append(dst, e)
		if i >= len(line) {
			return 0, dst, errAt(i+1, InvalidLine, "field declaration has no closing }")
		}
		switch line[i] {
		case ',':
			i++
		case '}':
			return i + 1, dst, nil
		default:
			return 0, dst, errAt(i+1, InvalidLine, "expected , or } in the field declaration")
		}
	}
}

// scanConstValue reads the value token of a constant column at line[pos]
// (just past its '='): a quoted string, or the bare text up to the next
// ',' or '}'. It returns the index of the delimiter after the token.
func scanConstValue(line []byte, pos int, scratch *[]byte, dst *Scalar) (int, *SyntaxError) {
	if pos < len(line) && line[pos] == '"' {
		text, end, err := ScanQuoted(line, pos, scratch)
		if err != nil {
			return 0, err
		}
		*dst = Scalar{Kind: KindString, Quoted: true, Bytes: text, Col: pos + 1}
		return end, nil
	}
	end := pos
	for end < len(line) && line[end] != ',' && line[end] != '}' && line[end] != '"' {
		end++
	}
	if end < len(line) && line[end] == '"' {
		return 0, errAt(end+1, InvalidConstValue, "a quote inside a bare constant value; quote the whole value")
	}
	t := line[pos:end]
	if k := ControlAt(t); k >= 0 {
		return 0, errAt(pos+k+1, InvalidEscape, "raw control character in a bare constant value; quote the value and escape it")
	}
	if err := classifyInto(dst, t); err != nil {
		err.Column += pos
		return 0, err
	}
	dst.Col = pos + 1
	bad := ""
	switch {
	case len(t) == 0:
		bad = "an empty constant value; write \"\" for the empty string"
	case IsSpace(t[0]) || IsSpace(t[len(t)-1]):
		bad = "a constant value with surrounding whitespace; quote it"
	case dst.Kind == KindMissing:
		bad = "~ (absent) cannot be a constant value"
	case dst.Kind == KindAttach:
		bad = "a bare ^ is the attachment marker; the string ^ is written \"^\""
	case len(t) >= 2 && t[0] == '^' && t[1] == '{' && end < len(line) && line[end] == '}':
		bad = "a ^{...} attachment marker cannot be a constant value; quote the string"
	}
	if bad != "" {
		return 0, errAt(pos+1, InvalidConstValue, bad)
	}
	return end, nil
}
