package grammar

import (
	"bytes"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/lexer"
)

// The graph profile (§5, §6, §6a, §9, §10.1) is flat: group headers, each
// followed by lines of the one form its group allows. The group decides the
// line form, so the scanner tells the grammar which form a line is by the
// token type of its first field.

// gfield is one whitespace-separated field of a graph line.
type gfield struct {
	text  string
	start int
}

// fields splits b[from:] on runs of ASCII spaces and tabs, as the pull
// decoder does (docs/spec-notes.md, "Graph names"). ok is false when there
// are more than max fields.
func fields(b []byte, from, max int) (out []gfield, ok bool) {
	for i := from; ; {
		for i < len(b) && lexer.IsSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return out, true
		}
		j := i
		for j < len(b) && !lexer.IsSpace(b[j]) {
			j++
		}
		if len(out) == max {
			return out, false
		}
		out = append(out, gfield{string(b[i:j]), i})
		i = j
	}
}

func (s *scanner) graphLine() {
	b := s.body
	if s.eof || (s.level == 0 && bytes.HasPrefix(b, []byte("##!"))) {
		s.section = gsNone
		if !s.eof {
			s.summary()
		}
		return
	}
	if s.level != 0 {
		s.diagAt(0, lexer.InvalidIndent, "graph-profile lines are not indented")
		s.bad()
		return
	}
	if bytes.HasPrefix(b, []byte("## ")) {
		s.groupHeader()
		return
	}
	switch s.section {
	case gsNone:
		switch {
		case s.delta:
			s.diagAt(0, lexer.MalformedDelta, "delta line outside a delta section")
		case b[0] == '@' && bytes.IndexByte(b, '<') >= 0:
			s.diagAt(0, lexer.InvalidEdgeSyntax, "edge line outside an ## edges section")
		default:
			s.diagAt(0, lexer.InvalidNodeLine, "graph line outside a group section")
		}
		s.bad()
		return
	case gsBad:
		return // lines of a malformed group header
	}
	if s.gseen++; s.gseen > int64(s.limits.MaxElements) {
		s.diagAt(0, lexer.TooManyElements, "graph section exceeds the element limit")
		s.bad()
		return
	}
	switch s.section {
	case gsSymbols:
		s.nodeLine(false)
	case gsAdded:
		s.nodeLine(true)
	case gsEdges:
		s.edgeLine()
	case gsRemoved:
		s.deltaSymbolLine()
	default:
		s.deltaEdgeLine()
	}
}

// groupHeader reads group-header = "##" SP group-name [ SP count-bracket ] (§4, §6a).
func (s *scanner) groupHeader() {
	b := s.body
	s.gseen = 0
	s.emit(TokGroup, "##", 0)
	fail := func(idx int, cat lexer.Category, msg string) {
		s.diagAt(idx, cat, msg)
		s.emit(TokBad, string(b), 0)
		s.emitNL()
		s.section = gsBad
	}
	name, q, p, err := key(b, 3)
	if err != nil || q {
		if s.delta {
			fail(3, lexer.MalformedDelta, "delta section names are bare")
		} else {
			fail(3, lexer.InvalidLine, "graph group names are bare keys")
		}
		return
	}
	toks := []plexer.Token{s.tok(TokKey, name, 3)}
	if p < len(b) {
		if b[p] != ' ' || p+1 >= len(b) || b[p+1] != '[' {
			fail(p, lexer.InvalidLine, "expected a count bracket after the group name")
			return
		}
		_, keyed, end, err := countBracket(b, p+1, int64(s.limits.MaxElements))
		if err != nil {
			fail(err.idx, err.cat, err.msg)
			return
		}
		if keyed || end != len(b) {
			// The ABNF admits a field-decl here, but no section gives a
			// graph group one; both parsers reject it.
			fail(p+1, lexer.InvalidLine, "unexpected text after the group count")
			return
		}
		toks = append(toks, s.tok(TokCount, string(b[p+1:end]), p+1))
	}
	section := gsSymbols
	if s.delta {
		// §10.1: with delta=true only the four delta sections are valid.
		switch name {
		case "removed":
			section = gsRemoved
		case "added":
			section = gsAdded
		case "edges_removed", "edges_added":
			section = gsDeltaEdges
		default:
			fail(3, lexer.MalformedDelta, "unknown delta section "+Excerpt(name))
			return
		}
	} else {
		switch name {
		case "edges":
			section = gsEdges
		case "removed", "added", "edges_removed", "edges_added":
			fail(3, lexer.MalformedDelta, "delta section "+Excerpt(name)+" in a payload without delta=true")
			return
		}
	}
	s.toks = append(s.toks, toks...)
	s.emitNL()
	s.section = section
}

// nodeLine reads node-line = "@" id SP kind SP qname SP score SP provenance
// (§5), ref-line (§9) or, in `## added`, delta-added-line (§10.1).
func (s *scanner) nodeLine(added bool) {
	b := s.body
	malformed := func(idx int) {
		if added {
			s.diagAt(idx, lexer.MalformedDelta, "## added lines are @id kind qname score provenance distance")
		} else {
			s.diagAt(idx, lexer.InvalidNodeLine, "a node line has exactly 5 fields: @id kind qname score provenance")
		}
		s.bad()
	}
	if b[0] != '@' {
		malformed(0)
		return
	}
	// Fields are split on runs of spaces and tabs, as fields() does
	// (docs/spec-notes.md "Graph names"); the pull decoder ends the id the same way.
	end := 1
	for end < len(b) && !lexer.IsSpace(b[end]) {
		end++
	}
	if _, ok := parseID(string(b[1:end])); !ok {
		s.diagAt(1, lexer.InvalidSymbolID, "@ must be followed by a decimal symbol id")
		s.bad()
		return
	}
	rest := end
	for rest < len(b) && lexer.IsSpace(b[rest]) {
		rest++
	}
	idTyp := TokNodeID
	if added {
		idTyp = TokAddedID
	}
	if !added && rest < len(b) && b[rest] == '#' {
		// ref-line: a previously transmitted symbol (§9).
		if !s.session {
			s.diagAt(0, lexer.InvalidNodeLine, "a bare reference needs session=true in the header")
			s.bad()
			return
		}
		s.emit(idTyp, string(b[:end]), 0)
		s.emit(TokRef, string(b[rest:]), rest)
		s.emitNL()
		return
	}
	want := 4
	if added {
		want = 5
	}
	fs, ok := fields(b, rest, want)
	if !ok || len(fs) != want || rest == end {
		malformed(0)
		return
	}
	for _, f := range fs {
		if i := badNameChar(f.text); i >= 0 {
			cat := lexer.InvalidNodeLine
			if added {
				cat = lexer.MalformedDelta
			}
			s.diagAt(f.start+i, cat, "node fields hold no whitespace or control characters")
			s.bad()
			return
		}
	}
	if !isBareKey(fs[0].text) {
		s.diagAt(fs[0].start, lexer.InvalidNodeLine, "kind "+Excerpt(fs[0].text)+" is not a bare key")
		s.bad()
		return
	}
	if !validScore(fs[2].text) {
		s.diagAt(fs[2].start, lexer.InvalidScore, "score "+Excerpt(fs[2].text)+" does not match [-]DIGITS.2DIGIT")
		s.bad()
		return
	}
	if added {
		if _, ok := parseID(fs[4].text); !ok {
			s.diagAt(fs[4].start, lexer.MalformedDelta, "distance must be a decimal integer")
			s.bad()
			return
		}
	}
	s.emit(idTyp, string(b[:end]), 0)
	for i, typ := range []plexer.TokenType{TokKind, TokQName, TokScore, TokProvenance, TokDistance}[:want] {
		s.emit(typ, fs[i].text, fs[i].start)
	}
	s.emitNL()
}

// edgeLine reads edge-line = "@" target-id "<" "@" source-id SP edge-type [ SP status ] (§6),
// where status is any name token (docs/spec-notes.md).
func (s *scanner) edgeLine() {
	b := s.body
	fs, ok := fields(b, 0, 3)
	if !ok || len(fs) < 2 {
		s.diagAt(0, lexer.InvalidEdgeSyntax, "an edge line is @target<@source type [status]")
		s.bad()
		return
	}
	ref := fs[0].text
	lt := bytes.IndexByte([]byte(ref), '<')
	if lt < 0 {
		s.diagAt(0, lexer.InvalidEdgeSyntax, "edge line is missing the < separator")
		s.bad()
		return
	}
	if ref[0] != '@' || lt+1 >= len(ref) || ref[lt+1] != '@' {
		s.diagAt(0, lexer.InvalidEdgeSyntax, "an edge line is @target<@source type [status]")
		s.bad()
		return
	}
	_, ok1 := parseID(ref[1:lt])
	_, ok2 := parseID(ref[lt+2:])
	if !ok1 || !ok2 {
		s.diagAt(0, lexer.InvalidSymbolID, "edge ids must be decimal integers")
		s.bad()
		return
	}
	s.emit(TokEdgeTarget, ref[:lt], 0)
	s.emit(TokPunct, "<", lt)
	s.emit(TokEdgeSource, ref[lt+1:], lt+1)
	// The type and status are checked after the references (Validate), as
	// they do not change the shape of the line.
	if i := badNameChar(fs[1].text); i >= 0 {
		s.diagAt(fs[1].start+i, lexer.InvalidEdgeSyntax, "an edge type holds no whitespace or control characters")
	}
	s.emit(TokEdgeType, fs[1].text, fs[1].start)
	if len(fs) == 3 {
		// Any token of the name rule, as the reference SDKs read it
		// (docs/spec-notes.md); added and removed are the common ones.
		if i := badNameChar(fs[2].text); i >= 0 {
			s.diagAt(fs[2].start+i, lexer.InvalidEdgeSyntax, "an edge status holds no whitespace or control characters")
		}
		s.emit(TokStatus, fs[2].text, fs[2].start)
	}
	s.emitNL()
}

// deltaSymbolLine reads delta-symbol-line = kind SP qname (§10.1 `## removed`).
func (s *scanner) deltaSymbolLine() {
	fs, ok := fields(s.body, 0, 2)
	if !ok || len(fs) != 2 || !isBareKey(fs[0].text) || !printable(fs[1].text) {
		s.diagAt(0, lexer.MalformedDelta, "## removed lines are kind qname")
		s.bad()
		return
	}
	s.emit(TokKind, fs[0].text, fs[0].start)
	s.emit(TokQName, fs[1].text, fs[1].start)
	s.emitNL()
}

// deltaEdgeLine reads delta-edge-line = qname SP "->" SP qname SP edge-type (§10.1).
func (s *scanner) deltaEdgeLine() {
	fs, ok := fields(s.body, 0, 4)
	if !ok || len(fs) != 4 || fs[1].text != "->" || !printable(fs[0].text) || !printable(fs[2].text) || !printable(fs[3].text) {
		s.diagAt(0, lexer.MalformedDelta, "delta edge lines are source -> target type")
		s.bad()
		return
	}
	s.emit(TokQName, fs[0].text, fs[0].start)
	s.emit(TokPunct, "->", fs[1].start)
	s.emit(TokQName, fs[2].text, fs[2].start)
	s.emit(TokEdgeType, fs[3].text, fs[3].start)
	s.emitNL()
}
