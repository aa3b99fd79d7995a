package stream

import (
	"strconv"

	"github.com/gcfkit/gcf/lexer"
)

var roleNames = [...]string{"", "root", "member", "item", "attachment"}

// String returns the role's name ("root", "member", "item", "attachment"),
// or "" for RoleNone.
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "role(" + strconv.Itoa(int(r)) + ")"
}

var formNames = [...]string{"", "empty", "inline", "tabular", "expanded", "keyed", "section"}

// String returns the form's name ("empty", "inline", "tabular",
// "expanded", "keyed", "section"), or "" for FormNone.
func (f Form) String() string {
	if int(f) < len(formNames) {
		return formNames[f]
	}
	return "form(" + strconv.Itoa(int(f)) + ")"
}

// String returns a one-line, readable description of the event for
// logging and debugging (so that %v shows text, not byte slices): its
// kind, role and form, key, id, declared count, fields, constants (and
// the grouping column as group=name), value
// and cells, each scalar as text (strings quoted as Go quotes them, null
// as -, missing as ~), and its line. The format is for people and may
// change; read the fields to process events.
func (e Event) String() string {
	b := make([]byte, 0, 64)
	b = append(b, e.Kind.String()...)
	if e.Role != RoleNone {
		b = append(b, ' ')
		b = append(b, e.Role.String()...)
	}
	if e.Form != FormNone {
		b = append(b, ' ')
		b = append(b, e.Form.String()...)
	}
	if e.Key != nil || e.Role == RoleMember || e.Role == RoleAttachment {
		b = append(b, " key="...)
		b = strconv.AppendQuote(b, string(e.Key))
	}
	if e.ID >= 0 {
		if e.Kind == KindGroup {
			b = append(b, " distance="...)
		} else {
			b = append(b, " @"...)
		}
		b = strconv.AppendInt(b, e.ID, 10)
	}
	if e.Field >= 0 {
		b = append(b, " field="...)
		b = strconv.AppendInt(b, int64(e.Field), 10)
	}
	if e.Kind == KindArrayStart || e.Kind == KindGroup || e.Form == FormKeyed {
		b = append(b, " ["...)
		if e.Count == lexer.Deferred {
			b = append(b, '?')
		} else {
			b = strconv.AppendInt(b, e.Count, 10)
		}
		b = append(b, ']')
	}
	paired := len(e.Fields) > 0 && len(e.Fields) == len(e.Cells) && e.Kind != KindArrayStart
	if len(e.Fields) > 0 && !paired {
		b = append(b, " {"...)
		for i, f := range e.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, f...)
		}
		b = append(b, '}')
	}
	for _, k := range e.Consts {
		if k.Group {
			b = append(b, " group="...) // as declared; its value changes with each group
			b = append(b, k.Name...)
			continue
		}
		b = append(b, ' ')
		b = append(b, k.Name...)
		b = append(b, '=')
		b = appendScalarText(b, k.Value)
	}
	if e.Kind == KindScalar || (e.Kind == KindGroup && e.Value.Kind != lexer.KindInvalid) {
		b = append(b, " value="...)
		b = appendScalarText(b, e.Value)
	}
	if len(e.Cells) > 0 {
		b = append(b, " ("...)
		for i, c := range e.Cells {
			if i > 0 {
				b = append(b, ' ')
			}
			if paired {
				b = append(b, e.Fields[i]...)
				b = append(b, '=')
			}
			b = appendScalarText(b, c)
		}
		b = append(b, ')')
	}
	if e.Line > 0 {
		b = append(b, " line "...)
		b = strconv.AppendInt(b, int64(e.Line), 10)
	}
	return string(b)
}

// appendScalarText appends s as text: a string quoted as Go quotes it, a
// number as its lexeme, true or false, and the tokens -, ~, ^ and ^{...}
// for null, missing and attachment markers.
func appendScalarText(b []byte, s lexer.Scalar) []byte {
	switch s.Kind {
	case lexer.KindString:
		return strconv.AppendQuote(b, string(s.Bytes))
	case lexer.KindInt:
		return strconv.AppendInt(b, s.Int, 10)
	case lexer.KindFloat:
		return append(b, s.Bytes...)
	case lexer.KindBool:
		return strconv.AppendBool(b, s.Bool)
	case lexer.KindNull:
		return append(b, '-')
	case lexer.KindMissing:
		return append(b, '~')
	case lexer.KindAttach:
		return append(b, '^')
	case lexer.KindAttachSchema:
		return append(append(b, '^'), s.Bytes...)
	}
	return append(b, "<invalid>"...)
}
