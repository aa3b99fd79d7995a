package grammar

import (
	"bytes"
	"strconv"
	"strings"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// The scanner turns a payload into the token stream the grammar parses. It
// works line by line (§4: LF-terminated, a trailing CR tolerated) and
// decides, for every line, which production it starts. That decision needs
// context the ABNF cannot carry, so the scanner keeps a stack of open
// bodies, each with its indentation (§4.1) and, for counted arrays, how
// many items are still due (§13.1: "exactly N data items MUST follow", so
// the N+1st same-indent line belongs to the parent). Within a line the
// leading sigil decides the mode: "##" headers, "@N" rows or items, "."
// attachments, "key=" and "key[" members, and plain cell lines.
//
// Layout becomes tokens: NL after every line, Indent/Dedent around every
// body the ABNF writes with INDENT, and zero-width markers for the profile
// and for positional inline bodies (§7.4.5.2). Comment lines (§11) and blank
// lines after the header (§4.2) produce no tokens.
//
// A line that fits no production where it stands is reported with its
// category and replaced by a Bad token (keeping the key or id it started
// with, so scope checks still see it); lines indented beneath it are
// skipped. Problems inside a token that do not change the shape of the line
// (an invalid escape, an out-of-range integer, a `~` outside a cell) are
// reported and the token is kept.

type frameKind uint8

const (
	fObject   frameKind = iota + 1 // members at indent
	fTable                         // tabular or keyed rows at indent
	fExpanded                      // @N items at indent
)

type afterKind uint8

const (
	afterNothing afterKind = iota
	afterCounted           // the previous member was a counted block
	afterInline            // ... whose rows had positional inline bodies
)

const (
	markNone   = 0
	markBare   = 1 // ^
	markSchema = 2 // ^{fields}
)

type frame struct {
	kind     frameKind
	indent   int
	indented bool // the body is enclosed in Indent/Dedent
	count    int64
	seen     int64
	after    afterKind

	// tables
	fields     []string
	inlineDecl []bool              // per column: an inline object schema is established (§7.4.5.1)
	sharedCol  map[int][]string    // per column: the shared array schema, once established (§7.4.5.3)
	sharedName map[string][]string // the same for `>`-named fields that are not columns
	hadInline  bool
	rowActive  bool
	markers    []uint8
	matched    []bool
	hasID      bool // a table of the keyed set: idCol is its "@" field (§10a.1)
	idCol      int

	// grouped tables (v3.6.0 §7.4.8)
	grouped   bool
	group     string          // the group column
	groupKey  int             // row column of the @ key
	groupLeft int64           // rows left in the current group
	groups    map[string]bool // group values seen
	groupKeys map[string]bool // key values seen
}

type rootState uint8

const (
	stBody rootState = iota
	stAfterRoot
	stAfterSummary
)

type rootKind uint8

const (
	rootObject rootKind = iota
	rootScalar
	rootCounted
)

type graphSection uint8

const (
	gsNone graphSection = iota
	gsBad               // after a malformed group header: its lines are skipped
	gsSymbols
	gsEdges
	gsRemoved
	gsAdded
	gsDeltaEdges
)

// Diagnostic is one problem found while scanning, with its position.
type Diagnostic struct {
	Pos      plexer.Position
	Category lexer.Category
	Msg      string
}

type scanner struct {
	limits stream.Limits
	toks   []plexer.Token
	diags  []Diagnostic

	// the current line
	lineNo  int
	lineOff int
	indent  int // bytes of indentation
	level   int
	body    []byte
	eof     bool
	size    int // input size, known at the end

	lastLine, lastOff int // the last line with content

	headerDone bool
	stopped    bool // a fatal header problem: nothing more is scanned

	profile  string
	session  bool
	delta    bool
	state    rootState
	rootKind rootKind
	frames   []frame
	skipFrom int  // skip lines indented deeper than this level (-1: none)
	skipAll  bool // skip everything up to a summary line

	keyed keyedScan // generic keyed sets and deltas (§10a)

	section graphSection
	gseen   int64 // lines in the current graph group
	child   bool  // the current line is being read as a row's attachment
}

// tok builds a token at body index idx of the current line.
func (s *scanner) tok(typ plexer.TokenType, val string, idx int) plexer.Token {
	col := s.indent + idx
	return plexer.Token{Type: typ, Value: val, Pos: plexer.Position{Offset: s.lineOff + col, Line: s.lineNo, Column: col + 1}}
}

func (s *scanner) emit(typ plexer.TokenType, val string, idx int) {
	s.toks = append(s.toks, s.tok(typ, val, idx))
}

func (s *scanner) emitNL() { s.emit(TokNL, "", len(s.body)) }

// here is where a body that the current line ends (or the end of input)
// is closed: column 1 of the current line, or at the end of input column 1
// of the last line that has content (never a line past the end).
func (s *scanner) here() plexer.Position {
	if s.eof {
		return s.endPos()
	}
	return plexer.Position{Offset: s.lineOff, Line: s.lineNo, Column: 1}
}

// endPos is the position of the end of input: column 1 of the last line
// with content, or 1:1.
func (s *scanner) endPos() plexer.Position {
	if s.lastLine == 0 {
		return plexer.Position{Line: 1, Column: 1}
	}
	return plexer.Position{Offset: s.lastOff, Line: s.lastLine, Column: 1}
}

func (s *scanner) diagAt(idx int, cat lexer.Category, msg string) {
	p := s.tok(0, "", idx).Pos
	if s.eof {
		p = s.here()
	}
	s.diags = append(s.diags, Diagnostic{Pos: p, Category: cat, Msg: msg})
}

func (s *scanner) report(e *perr) { s.diagAt(e.idx, e.cat, e.msg) }

// bad replaces the current line by a Bad token of the context the line
// stood in (so the grammar knows which body it belongs to) plus the tokens
// that identify it (a key or an id), and skips the lines indented beneath it.
func (s *scanner) bad(keep ...plexer.Token) {
	typ := TokBad
	if n := len(s.frames); n > 0 && s.profile == "generic" {
		switch f := &s.frames[n-1]; {
		case s.child:
			typ = TokBadChild
		case f.kind == fObject:
			typ = TokBadMember
		case f.kind == fTable:
			typ = TokBadRow
		default:
			typ = TokBadItem
		}
	}
	s.emit(typ, string(s.body), 0)
	s.toks = append(s.toks, keep...)
	s.emitNL()
	s.skipFrom = s.level
}

// Scan tokenizes data, returning the tokens (ending with EOF) and the
// problems found on the way, in input order.
func Scan(data []byte, limits stream.Limits) ([]plexer.Token, []Diagnostic) {
	s := newScanner(limits)
	if s.limits.MaxBytes > 0 && int64(len(data)) > s.limits.MaxBytes {
		s.diags = append(s.diags, Diagnostic{Pos: plexer.Position{Line: 1, Column: 1}, Category: lexer.PayloadTooLarge,
			Msg: "payload exceeds the total size limit"})
		s.toks = append(s.toks, plexer.EOFToken(plexer.Position{Line: 1, Column: 1}))
		return s.toks, s.diags
	}
	for off := 0; off < len(data); {
		end, next := len(data), len(data)
		if nl := bytes.IndexByte(data[off:], '\n'); nl >= 0 {
			end, next = off+nl, off+nl+1
		}
		s.feed(data[off:end], off, end-off)
		off = next
	}
	s.end(len(data))
	return s.toks, s.diags
}

func newScanner(limits stream.Limits) *scanner {
	return &scanner{limits: limits.Resolved(), skipFrom: -1}
}

// feed scans one line that starts at input offset off and is n bytes long
// without its LF; raw holds the line, or (when n exceeds the line limit) as
// much of it as the caller kept, which is not looked at.
func (s *scanner) feed(raw []byte, off, n int) {
	if s.stopped {
		return
	}
	s.lineNo++
	s.lineOff = off
	s.indent, s.level, s.body = 0, 0, raw
	if n > s.limits.MaxLineBytes || hasContent(raw) {
		s.lastLine, s.lastOff = s.lineNo, off
	}
	if n > s.limits.MaxLineBytes {
		s.body = nil
		s.diagAt(s.limits.MaxLineBytes, lexer.LineTooLong, "line exceeds the line-length limit of "+strconv.Itoa(s.limits.MaxLineBytes)+" bytes")
		if !s.headerDone {
			s.stopped = true
		}
		return
	}
	if n := len(raw); n > 0 && raw[n-1] == '\r' {
		raw = raw[:n-1]
		s.body = raw
	}
	if i, cat := checkUTF8(raw); i >= 0 {
		// The line counts as content even when it is a comment: the pull
		// decoder stops on it, so nothing found at the end of input may
		// point before it.
		s.lastLine, s.lastOff = s.lineNo, off
		msg := "malformed UTF-8 byte sequence"
		if cat == lexer.InvalidSurrogate {
			msg = "literal UTF-16 surrogate code point"
		}
		s.diagAt(i, cat, msg)
		if !s.headerDone {
			s.stopped = true
		}
		return
	}
	// §16.5: trailing whitespace on a line is no error (a decoder MAY warn).
	raw = lexer.TrimTrailingBlanks(raw)
	if !s.headerDone {
		// §3: the first line is the header; nothing may precede it.
		if !s.header(raw) {
			s.stopped = true
			return
		}
		s.headerDone = true
		return
	}
	// §4.1 indentation: spaces only, two per level; blank and comment lines carry no structure.
	i := 0
	for i < len(raw) && raw[i] == ' ' {
		i++
	}
	if i < len(raw) && raw[i] == '\t' {
		if len(bytes.Trim(raw[i:], " \t")) == 0 {
			return // whitespace-only line
		}
		s.diagAt(i, lexer.TabIndentation, "tab character in indentation")
		return
	}
	body := raw[i:]
	if len(body) == 0 {
		return // §4.2: blank lines after the header are ignored
	}
	if body[0] == '#' && (len(body) == 1 || body[1] == ' ') {
		return // §11: comment line
	}
	if i%2 != 0 {
		s.diagAt(i, lexer.InvalidIndent, "indentation must be a multiple of two spaces")
		return
	}
	s.indent, s.level, s.body = i, i/2, body
	if s.skipFrom >= 0 {
		if s.level > s.skipFrom {
			return
		}
		s.skipFrom = -1
	}
	if s.skipAll && !(s.level == 0 && bytes.HasPrefix(body, []byte("##!"))) {
		return
	}
	s.skipAll = false
	s.line()
}

// end finishes the scan of an input of size bytes: it closes every open
// body and appends the EOF token.
func (s *scanner) end(size int) {
	s.size = size
	if s.stopped {
		s.eof = true
		s.finishEOF()
		return
	}
	if !s.headerDone {
		s.diags = append(s.diags, Diagnostic{Pos: plexer.Position{Line: s.lineNo + 1, Column: 1, Offset: size},
			Category: lexer.MissingHeader, Msg: "empty input: the first line must be a GCF header"})
		s.finishEOF()
		return
	}
	s.eof = true
	s.indent, s.level, s.body = 0, 0, nil
	s.line()
	s.finishEOF()
}

func (s *scanner) finishEOF() {
	s.toks = append(s.toks, plexer.EOFToken(s.endPos()))
}

// header scans header = "GCF" SP "profile=" profile *( SP header-pair ) (§3,
// §4). It reports false when the body cannot be lexed (no GCF, no usable
// profile). Pairs are separated by runs of spaces.
func (s *scanner) header(line []byte) bool {
	if bytes.HasPrefix(line, []byte("\xEF\xBB\xBF")) {
		s.diagAt(0, lexer.MissingHeader, "input starts with a UTF-8 byte order mark (EF BB BF); GCF payloads have none, remove it")
		return false
	}
	if !bytes.HasPrefix(line, []byte("GCF")) || (len(line) > 3 && line[3] != ' ') {
		s.diagAt(0, lexer.MissingHeader, "the first line must begin with GCF")
		return false
	}
	s.emit(TokMagic, "GCF", 0)
	profile := ""
	seenProfile := false
	for pos := 3; pos < len(line); {
		for pos < len(line) && line[pos] == ' ' {
			pos++
		}
		if pos >= len(line) {
			break
		}
		end := pos
		for end < len(line) && line[end] != ' ' {
			end++
		}
		pair := line[pos:end]
		eq := bytes.IndexByte(pair, '=')
		if eq <= 0 || eq == len(pair)-1 || !isBareKey(string(pair[:eq])) {
			s.diagAt(pos, lexer.MalformedHeaderField, "header field "+Excerpt(string(pair))+" is not key=value")
			pos = end
			continue
		}
		k, v := string(pair[:eq]), string(pair[eq+1:])
		if i := controlIn(v); i >= 0 {
			// header-value = 1*( %x21-7E ) (§4); non-ASCII is let through,
			// as for graph names, but no control character.
			s.diagAt(pos+eq+1+i, lexer.MalformedHeaderField, "header field "+Excerpt(k)+" holds a control character; header values are printable (SPEC §4 header-value)")
			pos = end
			continue
		}
		if int64HeaderField(k) && outOfInt64(v) {
			s.diagAt(pos+eq+1, lexer.OutOfRange, "header field "+k+"="+Excerpt(v)+" is outside the int64 range")
		} else if seenProfile && profile == "graph" && int64Field(k) && !isCountValue(v) {
			s.diagAt(pos+eq+1, lexer.MalformedHeaderField, "header field "+k+"="+Excerpt(v)+" is not a non-negative integer (SPEC §3.2)")
		}
		s.emit(TokHeaderKey, k, pos)
		s.emit(TokPunct, "=", pos+eq)
		s.emit(TokHeaderValue, v, pos+eq+1)
		switch k {
		case "profile":
			if !seenProfile {
				profile, seenProfile = v, true
			}
		case "session":
			s.session = v == "true"
		case "delta":
			s.delta = v == "true"
		}
		s.keyed.headerPair(k, v)
		pos = end
	}
	s.emitNL()
	switch profile {
	case "generic":
		s.profile = profile
		s.emit(TokGeneric, "", len(s.body))
		s.keyedHeader()
	case "graph":
		s.profile = profile
		s.emit(TokGraph, "", len(s.body))
	default:
		return false // missing or unknown profile: Validate reports it
	}
	return true
}

// line handles the current line (or the end of input).
func (s *scanner) line() {
	if s.state == stAfterSummary {
		if !s.eof {
			s.diagAt(0, lexer.InvalidSummary, "content after the ##! summary trailer")
			s.bad()
		}
		return
	}
	if s.profile == "graph" {
		s.graphLine()
		return
	}
	for {
		if len(s.frames) > 0 {
			if s.stepFrame() {
				return
			}
			continue
		}
		switch s.state {
		case stBody:
			s.root()
			if len(s.frames) > 0 && s.state == stAfterRoot && s.rootKind == rootObject {
				continue // the line is the root object's first member
			}
			return
		}
		// stAfterRoot
		if s.eof {
			return
		}
		if s.level == 0 && bytes.HasPrefix(s.body, []byte("##!")) {
			s.summary()
			return
		}
		switch {
		case s.rootKind == rootCounted:
			s.diagAt(0, lexer.CountMismatch, "more items than the root container declares")
		case s.rootKind == rootScalar:
			s.diagAt(0, lexer.InvalidLine, "content after the root scalar")
		case s.level > 0:
			s.diagAt(0, lexer.InvalidIndent, "unexpected indentation")
		default:
			s.diagAt(0, lexer.InvalidLine, "unexpected line after the root object")
		}
		s.bad()
		return
	}
}

// root reads the first body line and opens the root value (§7.1).
func (s *scanner) root() {
	b := s.body
	if s.eof || (s.level == 0 && bytes.HasPrefix(b, []byte("##!"))) {
		s.state = stAfterRoot
		s.push(fObject, 0, false) // empty root object
		return
	}
	if s.level != 0 {
		s.diagAt(0, lexer.InvalidIndent, "the root value must not be indented")
		s.bad()
		return
	}
	s.state = stAfterRoot
	if s.keyed.delta && (b[0] == '=' || bytes.HasPrefix(b, []byte("## ["))) {
		s.diagAt(0, lexer.MalformedDelta, "a generic delta holds only ## added, ## changed and ## removed sections (SPEC §10a.2)")
		s.bad()
		return
	}
	switch {
	case b[0] == '=':
		// root-scalar = "=" scalar LF
		s.rootKind = rootScalar
		s.emit(TokPunct, "=", 0)
		s.value(b, 1)
		s.emitNL()
	case bytes.HasPrefix(b, []byte("## [")):
		// root-array / root-keyed-map: an anonymous header.
		s.rootKind = rootCounted
		s.keyed.top = s.keyed.hasKey
		if !s.container([]plexer.Token{s.tok(TokPunct, "##", 0)}, nil, 3, modeAny, 0, false, nil) {
			s.skipAll = true
		}
	default:
		s.rootKind = rootObject
		s.push(fObject, 0, false)
	}
}

// push opens a body whose lines sit at indent. It reports false (and a
// depth_exceeded diagnostic) when the nesting limit is reached.
func (s *scanner) push(kind frameKind, indent int, indented bool) *frame {
	if len(s.frames) >= s.limits.MaxDepth {
		s.diagAt(0, lexer.DepthExceeded, "nesting exceeds the depth limit of "+strconv.Itoa(s.limits.MaxDepth))
		if indented {
			// Keep the token stream well formed: an empty body.
			s.toks = append(s.toks, plexer.Token{Type: TokIndent, Pos: s.afterLine()}, plexer.Token{Type: TokDedent, Pos: s.afterLine()})
		}
		return nil
	}
	if indented {
		s.toks = append(s.toks, plexer.Token{Type: TokIndent, Pos: s.afterLine()})
	}
	s.frames = append(s.frames, frame{kind: kind, indent: indent, indented: indented, count: Deferred})
	return &s.frames[len(s.frames)-1]
}

// afterLine is the position just past the current line.
func (s *scanner) afterLine() plexer.Position {
	return plexer.Position{Offset: s.lineOff + s.indent + len(s.body), Line: s.lineNo, Column: s.indent + len(s.body) + 1}
}

// depthOK checks the nesting limit for a container that has no body (an
// inline or empty array), which still counts as one level.
func (s *scanner) depthOK() bool {
	if len(s.frames) >= s.limits.MaxDepth {
		s.diagAt(0, lexer.DepthExceeded, "nesting exceeds the depth limit of "+strconv.Itoa(s.limits.MaxDepth))
		return false
	}
	return true
}

// pop closes the innermost body.
func (s *scanner) pop() {
	f := s.frames[len(s.frames)-1]
	if f.indented {
		s.toks = append(s.toks, plexer.Token{Type: TokDedent, Pos: s.here()})
	}
	s.frames = s.frames[:len(s.frames)-1]
	if n := len(s.frames); n > 0 {
		p := &s.frames[n-1]
		if p.kind == fObject {
			p.after = afterNothing
			if f.kind == fTable || f.kind == fExpanded {
				p.after = afterCounted
				if f.hadInline {
					p.after = afterInline
				}
			}
		}
	}
}

func (s *scanner) top() *frame { return &s.frames[len(s.frames)-1] }

// stepFrame lets the innermost body take the current line, or closes it
// (reporting false so the parent gets the line).
func (s *scanner) stepFrame() bool {
	f := s.top()
	b := s.body
	switch f.kind {
	case fObject:
		if s.eof || s.level < f.indent || (s.level == 0 && bytes.HasPrefix(b, []byte("##!"))) {
			s.pop()
			return false
		}
		if s.level > f.indent {
			s.diagAt(0, lexer.InvalidIndent, "unexpected indentation increase")
			s.bad()
			return true
		}
		s.member(f)
		return true
	case fTable:
		if f.rowActive && s.rowChild(f) {
			return true
		}
		if s.eof || s.level < f.indent || (f.count >= 0 && f.seen == f.count) ||
			(s.level == f.indent && bytes.HasPrefix(b, []byte("##"))) {
			s.pop()
			return false
		}
		if s.level > f.indent {
			s.diagAt(0, lexer.InvalidIndent, "unexpected indentation increase")
			f.seen++
			s.bad()
			return true
		}
		if f.grouped && f.groupLeft == 0 {
			s.subheader(f)
			return true
		}
		s.row(f)
		return true
	default: // fExpanded
		if s.eof || s.level < f.indent || (f.count >= 0 && f.seen == f.count) ||
			(s.level == f.indent && b[0] != '@') {
			s.pop()
			return false
		}
		if s.level > f.indent {
			s.diagAt(0, lexer.InvalidIndent, "unexpected indentation increase")
			f.seen++
			s.bad()
			return true
		}
		s.item(f)
		return true
	}
}

// value scans a scalar that runs to the end of the line (kv-line, root
// scalar, primitive item) and emits it; `~` and `^` are not allowed there
// (§2.1 rules 3-4).
func (s *scanner) value(b []byte, pos int) {
	sc, _, err := s.scanScalar(b, pos, 0)
	if err != nil {
		s.report(err)
	}
	s.emitScalar(sc, false)
}

// emitScalar emits a scanned scalar; in a non-cell context, `~` and `^`
// tokens are reported and emitted as bare strings.
func (s *scanner) emitScalar(sc scalar, cell bool) {
	if !cell {
		switch sc.typ {
		case TokMissing:
			s.diagAt(sc.start, lexer.InvalidMissing, "~ (missing) is valid only in tabular row cells")
			sc.typ = TokBare
		case TokAttach:
			s.diagAt(sc.start, lexer.InvalidAttachmentMarker, "attachment markers are valid only in tabular row cells")
			sc.typ, sc.decl = TokBare, nil
		}
	}
	s.emit(sc.typ, sc.val, sc.start)
	s.toks = append(s.toks, sc.decl...)
}

// member reads one object-member line (§4 object-member, §7.2).
func (s *scanner) member(f *frame) {
	b := s.body
	rootMember := len(s.frames) == 1
	if s.keyed.delta && rootMember && !bytes.HasPrefix(b, []byte("## ")) {
		if f.after != afterNothing {
			s.diagAt(0, lexer.CountMismatch, "line after a counted delta section is not a section (more rows than declared?)")
		} else {
			s.diagAt(0, lexer.MalformedDelta, "a generic delta holds only ## added, ## changed and ## removed sections (SPEC §10a.2)")
		}
		s.bad()
		return
	}
	if bytes.HasPrefix(b, []byte("## ")) {
		text, q, pos, err := key(b, 3)
		if err != nil {
			s.report(err)
			s.bad()
			return
		}
		if s.keyed.delta && rootMember && !s.deltaSection(text, pos) {
			s.bad(s.keyTok(text, q, 3))
			return
		}
		kt := s.keyTok(text, q, 3)
		f.after = afterNothing // a counted body sets it again when it closes
		f.seen++
		if f.seen > int64(s.limits.MaxElements) {
			s.diagAt(0, lexer.TooManyElements, "object exceeds the element limit")
		}
		if pos == len(b) {
			// object-section = "##" SP key LF indented-object-body
			s.emit(TokPunct, "##", 0)
			s.toks = append(s.toks, kt)
			s.emitNL()
			if s.push(fObject, f.indent+1, true) == nil {
				s.skipFrom = s.level
			}
			return
		}
		if b[pos] != ' ' || pos+1 >= len(b) || b[pos+1] != '[' {
			s.diagAt(pos, lexer.InvalidLine, "expected a count bracket after the section name")
			s.bad(kt)
			return
		}
		// array-block / keyed-block
		s.keyed.top = s.keyed.hasKey && rootMember
		s.container([]plexer.Token{s.tok(TokPunct, "##", 0), kt}, []plexer.Token{kt}, pos+1, modeBlock, f.indent, false, nil)
		return
	}
	if b[0] == '#' {
		s.diagAt(0, lexer.InvalidLine, "malformed section header")
		s.bad()
		return
	}
	text, q, pos, kerr := key(b, 0)
	if kerr == nil && pos < len(b) && (b[pos] == '=' || b[pos] == '[') {
		kt := s.keyTok(text, q, 0)
		f.after = afterNothing
		f.seen++
		if f.seen > int64(s.limits.MaxElements) {
			s.diagAt(0, lexer.TooManyElements, "object exceeds the element limit")
		}
		if b[pos] == '=' {
			// kv-line = key "=" scalar LF
			s.toks = append(s.toks, kt)
			s.emit(TokPunct, "=", pos)
			s.value(b, pos+1)
			s.emitNL()
			return
		}
		// inline-array = key count-bracket ":" [ SP scalar-list ] LF
		s.container([]plexer.Token{kt}, []plexer.Token{kt}, pos, modeInline, f.indent, false, nil)
		return
	}
	// The line is no member. Explain it by what came before (§13.1: a
	// surplus row after a counted block is a count mismatch).
	switch {
	case f.after == afterInline && (bytes.IndexByte(b, '|') >= 0 || kerr != nil):
		s.diagAt(0, lexer.OrphanInlineAttachment, "positional inline body has no eligible attachment-marker cell")
	case f.after == afterCounted:
		s.diagAt(0, lexer.CountMismatch, "line after a counted block is neither a member nor a declared item (more items than declared?)")
	case kerr != nil && kerr.cat != lexer.InvalidLine:
		s.report(kerr)
	default:
		s.diagAt(0, lexer.InvalidLine, "expected key=value, key[N]: values, or a ## section")
	}
	s.bad()
}

func (s *scanner) keyTok(text string, q bool, idx int) plexer.Token {
	if q {
		return s.tok(TokQKey, text, idx)
	}
	return s.tok(TokKey, text, idx)
}

type containerMode uint8

const (
	modeAny    containerMode = iota // items, attachments and the anonymous root
	modeBlock                       // `## key [N]...` sections: no inline values
	modeInline                      // `key[N]: values`
)

// attInfo describes the traditional attachment a container header belongs to.
type attInfo struct {
	table  int // index of the table's frame (frames may move when pushed)
	col    int
	name   string
	shared bool
}

// container scans the count bracket at body[pos] and what follows it
// (§4 named-array, anonymous-array, keyed-block, array-item,
// array-attachment), emits the line, and opens its body at bodyIndent.
// pre are the tokens before the bracket; keep are the tokens a Bad line
// keeps. It reports false when the line was replaced by a Bad token.
func (s *scanner) container(pre, keep []plexer.Token, pos int, mode containerMode, bodyIndent int, indented bool, att *attInfo) bool {
	b := s.body
	top, sect := s.keyed.top, s.keyed.sect
	s.keyed.top, s.keyed.sect = false, sectNone
	count, keyed, p, err := countBracket(b, pos, int64(s.limits.MaxElements))
	if err != nil {
		s.report(err)
		s.bad(keep...)
		return false
	}
	if sect != sectNone && (keyed || p >= len(b) || b[p] != '{') {
		s.diagAt(pos, lexer.MalformedDelta, "a delta section is a table [N]{fields} (SPEC §10a.2)")
		s.bad(keep...)
		return false
	}
	if keyed && count == 0 {
		// §7.2a.4: a keyed map has at least one member.
		s.diagAt(pos, lexer.InvalidCount, "keyed map with zero count: an empty object is never [0:]")
		s.bad(keep...)
		return false
	}
	bt := s.tok(TokCount, string(b[pos:p]), pos)
	if keyed {
		bt.Type = TokKeyedCount
	}
	toks := append(append([]plexer.Token{}, pre...), bt)
	switch {
	case p < len(b) && b[p] == ':':
		if keyed || mode == modeBlock {
			s.diagAt(p, lexer.InvalidLine, "inline values are not allowed here")
			s.bad(keep...)
			return false
		}
		if count < 0 {
			s.diagAt(pos, lexer.InvalidCount, "an inline array needs an exact count")
			s.bad(keep...)
			return false
		}
		toks = append(toks, s.tok(TokPunct, ":", p))
		p++
		if p < len(b) && b[p] != ' ' {
			s.diagAt(p, lexer.InvalidLine, "expected a space after ':'")
			s.bad(keep...)
			return false
		}
		s.toks = append(s.toks, toks...)
		if p < len(b) {
			// scalar-list = scalar *( "," scalar )
			for q, n := p+1, 1; ; n++ {
				sc, end, err := s.scanScalar(b, q, ',')
				if err != nil {
					s.report(err)
				}
				s.emitScalar(sc, false)
				if end >= len(b) {
					break
				}
				if n >= s.limits.MaxElements {
					s.diagAt(end, lexer.TooManyElements, "inline array exceeds the element limit")
					break
				}
				s.emit(TokPunct, ",", end)
				q = end + 1
			}
		}
		s.emitNL()
		s.depthOK()
		return true
	case mode == modeInline:
		s.diagAt(p, lexer.InvalidLine, "expected ':' after the count of a named inline array")
		s.bad(keep...)
		return false
	case p < len(b) && b[p] == '{':
		d, err := s.tableDecl(b, p)
		if err != nil {
			s.report(err)
			s.bad(keep...)
			return false
		}
		names, at := d.names, d.at
		var probs []*perr
		var group *plexer.Token
		groupName, groupAt := "", 0
		trailing := false
		if d.end != len(b) {
			if bytes.HasPrefix(b[d.end:], []byte(" group=")) {
				text, q, e, kerr := key(b, d.end+7)
				if kerr != nil || e != len(b) {
					probs = append(probs, newErr(d.end+1, lexer.InvalidGroupHeader, "expected group=<column> at the end of the table header (SPEC §7.4.8)"))
				} else {
					t := s.keyTok(text, q, d.end+7)
					group, groupName, groupAt = &t, text, d.end+7
				}
			} else {
				trailing = true
			}
		}
		grouped := group != nil
		id := -1
		if len(probs) == 0 {
			for _, i := range d.ids {
				switch {
				case grouped && id >= 0:
					probs = append(probs, newErr(at[i], lexer.InvalidGroupHeader, "a second @ key column; a grouped table has exactly one"))
				case grouped:
				case !top:
					probs = append(probs, newErr(at[i], lexer.InvalidLine, "expected a field name in the declaration"))
				case id >= 0:
					probs = append(probs, newErr(at[i], lexer.MalformedDelta, "a second @ identity field; a keyed set has exactly one (SPEC §10a.1)"))
				}
				if len(probs) > 0 {
					break
				}
				id = i
			}
		}
		// A problem of the names (a duplicate, a path collision, too many)
		// is Validate's to report, unless the line is lost anyway; the
		// pull decoder meets it before what v3.6.0 adds to the header.
		var declProb *perr
		if len(probs) == 0 {
			if cat, msg, k := DeclProblem(names, keyed, s.limits.MaxFields); cat != "" {
				idx := p
				if k >= 0 {
					idx = at[k]
				}
				declProb = newErr(idx, cat, msg)
			} else {
				probs = s.v36Decl(d, keyed, count, id, groupName, groupAt, p)
			}
		}
		if trailing {
			// The pull decoder checks the whole declaration, the keyed
			// set's identity included, before the rest of the line.
			switch {
			case declProb != nil:
				probs = append(probs, declProb)
			case len(probs) == 0 && top:
				s.topIdentity(d, id, p, sect)
			}
			probs = append(probs, newErr(d.end, lexer.InvalidLine, "unexpected text after the field declaration"))
		}
		if len(probs) > 0 {
			// The declaration is checked before the rest of the line, and
			// the rest of the line is lost with it: report every problem.
			for _, e := range probs {
				s.report(e)
			}
			s.bad(keep...)
			return false
		}
		s.toks = append(s.toks, toks...)
		s.toks = append(s.toks, d.toks...)
		if grouped {
			s.emit(TokPunct, "group=", d.end+1)
			s.toks = append(s.toks, *group)
		}
		s.emitNL()
		if top {
			s.topIdentity(d, id, p, sect)
		}
		if !keyed && count == 0 {
			s.depthOK() // `[0]{...}`: an empty array with a vacuous declaration
			return true
		}
		fr := s.push(fTable, bodyIndent, indented)
		if fr == nil {
			s.skipFrom = s.level
			return true
		}
		fr.count = count
		// The rows hold the row columns: neither the constants nor the
		// group column (v3.6.0 §7.4.7, §7.4.8).
		fr.idCol, fr.groupKey = -1, -1
		for i, n := range names {
			if d.consts[i] != nil || (grouped && n == groupName) {
				continue
			}
			if i == id {
				if top {
					fr.idCol = len(fr.fields)
				}
				if grouped {
					fr.groupKey = len(fr.fields)
				}
			}
			fr.fields = append(fr.fields, n)
		}
		fr.hasID = top && fr.idCol >= 0
		if grouped {
			fr.group, fr.grouped = groupName, true
			fr.groups, fr.groupKeys = map[string]bool{}, map[string]bool{}
		}
		if att != nil && !att.shared && !keyed && s.frames[att.table].seen == 1 {
			// An explicit tabular declaration in the first row establishes
			// the field's shared array schema for later rows (§7.4.5.3:
			// only the first row does; seen is 1 during row 0).
			s.frames[att.table].setShared(att.col, att.name, names)
		}
		return true
	case p == len(b):
		if keyed {
			s.diagAt(p, lexer.InvalidLine, "a keyed map header needs a field declaration")
			s.bad(keep...)
			return false
		}
		s.toks = append(s.toks, toks...)
		s.emitNL()
		if count == 0 {
			s.depthOK()
			return true
		}
		kind := fExpanded
		var shared []string
		if att != nil {
			shared = s.frames[att.table].shared(att.col, att.name)
		}
		if shared != nil {
			kind = fTable // §7.4.5.3: the body is tabular with the shared schema
		}
		fr := s.push(kind, bodyIndent, indented)
		if fr == nil {
			s.skipFrom = s.level
			return true
		}
		fr.count = count
		fr.fields = shared
		return true
	}
	s.diagAt(p, lexer.InvalidLine, "unexpected text after the count bracket")
	s.bad(keep...)
	return false
}

func (f *frame) setShared(col int, name string, names []string) {
	if col >= 0 {
		if f.sharedCol == nil {
			f.sharedCol = map[int][]string{}
		}
		f.sharedCol[col] = names
		return
	}
	if f.sharedName == nil {
		f.sharedName = map[string][]string{}
	}
	f.sharedName[name] = names
}

func (f *frame) shared(col int, name string) []string {
	if col >= 0 {
		return f.sharedCol[col]
	}
	return f.sharedName[name]
}

// itemID scans the "@N " prefix of a row or item (§7.4.4, §7.6). It returns
// the index after the space, or -1 after reporting a problem.
func (s *scanner) itemID(b []byte) int {
	j := 1
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		if j > 18 {
			s.diagAt(0, lexer.InvalidItemID, "item id is too large")
			return -1
		}
		j++
	}
	if j == 1 {
		s.diagAt(1, lexer.InvalidItemID, "@ must be followed by a decimal item id")
		return -1
	}
	if j >= len(b) || b[j] != ' ' {
		s.diagAt(j, lexer.InvalidLine, "expected a space after the item id")
		return -1
	}
	return j + 1
}

// row reads one tabular-row = [ "@" id SP ] cell *( "|" cell ) LF (§4, §7.4).
func (s *scanner) row(f *frame) {
	b := s.body
	p := 0
	f.seen++
	f.rowActive = false
	if b[0] == '@' {
		if p = s.itemID(b); p < 0 {
			s.bad()
			return
		}
		s.emit(TokRowID, string(b[:p-1]), 0)
	}
	var markers []uint8
	var cells []scalar
	for col := 0; ; col++ {
		sc, end, err := s.scanScalar(b, p, '|')
		if err != nil {
			s.report(err)
		}
		if f.hasID || f.grouped {
			cells = append(cells, sc)
		}
		m := uint8(markNone)
		if sc.typ == TokAttach {
			m = markBare
			if sc.decl != nil {
				m = markSchema
				if col < len(f.fields) {
					for len(f.inlineDecl) <= col {
						f.inlineDecl = append(f.inlineDecl, false)
					}
					f.inlineDecl[col] = true
				}
			}
		}
		markers = append(markers, m)
		s.emitScalar(sc, true)
		if end >= len(b) {
			break
		}
		s.emit(TokPunct, "|", end)
		p = end + 1
	}
	s.emitNL()
	if f.grouped {
		s.groupRow(f, cells)
	}
	if f.hasID {
		s.keyedRow(f, cells)
	}
	if f.seen > int64(s.limits.MaxElements) {
		s.diagAt(0, lexer.TooManyElements, "table exceeds the element limit")
	}
	f.rowActive = true
	f.markers = markers
	f.matched = make([]bool, len(markers))
}

// nextEligible is the first unmatched marker of the current row that a
// positional inline body can fill (§7.4.5.2), or -1.
func (f *frame) nextEligible() int {
	for j, m := range f.markers {
		if j >= len(f.fields) || f.matched[j] {
			continue
		}
		if m == markSchema || (m == markBare && j < len(f.inlineDecl) && f.inlineDecl[j]) {
			return j
		}
	}
	return -1
}

// rowChild handles a line that may belong to the active row: a traditional
// attachment or a positional inline body (§4.1, §7.4.4, §7.4.5.2). It
// reports false when the line is not the row's.
func (s *scanner) rowChild(f *frame) bool {
	if !s.eof && (s.level == f.indent || s.level == f.indent+1) {
		b := s.body
		s.child = true
		defer func() { s.child = false }()
		if b[0] == '.' {
			s.attachment(f)
			return true
		}
		if j := f.nextEligible(); j >= 0 && !(s.level == f.indent && bytes.HasPrefix(b, []byte("##"))) {
			s.inlineBody(f, j)
			return true
		}
		if s.level == f.indent+1 {
			s.diagAt(0, lexer.OrphanInlineAttachment, "positional inline body has no eligible attachment-marker cell")
			s.bad()
			return true
		}
	}
	f.rowActive = false
	return false
}

// inlineBody reads inline-object-attachment = scalar *( "|" scalar ) LF for column j.
func (s *scanner) inlineBody(f *frame, j int) {
	b := s.body
	s.emit(TokInline, "", 0)
	for p := 0; ; {
		sc, end, err := s.scanScalar(b, p, '|')
		if err != nil {
			s.report(err)
		}
		s.emitScalar(sc, false)
		if end >= len(b) {
			break
		}
		s.emit(TokPunct, "|", end)
		p = end + 1
	}
	s.emitNL()
	f.matched[j] = true
	f.hadInline = true
}

// attachment reads a traditional-attachment line "." key SP ... (§4, §7.4.4).
func (s *scanner) attachment(f *frame) {
	b := s.body
	text, q, p, err := key(b, 1)
	if err != nil {
		s.report(err)
		s.bad()
		return
	}
	col := -1
	for i, name := range f.fields {
		if name == text {
			col = i
			break
		}
	}
	if col >= 0 && col < len(f.markers) && !f.matched[col] && f.markers[col] == markBare {
		f.matched[col] = true
	}
	dot := s.tok(TokPunct, ".", 0)
	kt := s.keyTok(text, q, 1)
	keep := []plexer.Token{dot, kt}
	if p >= len(b) || b[p] != ' ' || p+1 >= len(b) {
		s.diagAt(p, lexer.InvalidLine, "expected {}, =value or a count bracket after the attachment name")
		s.bad(keep...)
		return
	}
	p++
	switch b[p] {
	case '{':
		if p+2 != len(b) || b[p+1] != '}' {
			s.diagAt(p, lexer.InvalidLine, "expected {} after the attachment name")
			s.bad(keep...)
			return
		}
		// object-attachment = "." key SP "{}" LF *( INDENT object-member )
		s.toks = append(s.toks, dot, kt)
		s.emit(TokPunct, "{}", p)
		s.emitNL()
		if s.push(fObject, f.indent+2, true) == nil {
			s.skipFrom = s.level
		}
	case '=':
		// A scalar attachment `.f =value`, which the encoder writes for a
		// `>`-named field that has no column (§7.4.6.1 rule 4).
		s.toks = append(s.toks, dot, kt)
		s.emit(TokPunct, "=", p)
		s.value(b, p+1)
		s.emitNL()
	case '[':
		att := &attInfo{table: len(s.frames) - 1, col: col, name: text, shared: f.shared(col, text) != nil}
		s.container(keep, keep, p, modeAny, f.indent+2, true, att)
	default:
		s.diagAt(p, lexer.InvalidLine, "expected {}, =value or a count bracket after the attachment name")
		s.bad(keep...)
	}
}

// item reads one expanded-item (§4, §7.6).
func (s *scanner) item(f *frame) {
	b := s.body
	f.seen++
	p := s.itemID(b)
	if p < 0 {
		s.bad()
		return
	}
	id := s.tok(TokItemID, string(b[:p-1]), 0)
	if f.seen > int64(s.limits.MaxElements) {
		s.diagAt(0, lexer.TooManyElements, "array exceeds the element limit")
	}
	if p >= len(b) {
		s.diagAt(p, lexer.InvalidLine, "expected =value, {} or a count bracket after the item id")
		s.bad(id)
		return
	}
	switch b[p] {
	case '=':
		// primitive-item = "@" id SP "=" scalar LF
		s.toks = append(s.toks, id)
		s.emit(TokPunct, "=", p)
		s.value(b, p+1)
		s.emitNL()
	case '{':
		if p+2 != len(b) || b[p+1] != '}' {
			s.diagAt(p, lexer.InvalidLine, "expected {} after the item id")
			s.bad(id)
			return
		}
		// object-item = "@" id SP "{}" LF *( INDENT object-member )
		s.toks = append(s.toks, id)
		s.emit(TokPunct, "{}", p)
		s.emitNL()
		if s.push(fObject, f.indent+1, true) == nil {
			s.skipFrom = s.level
		}
	case '[':
		s.container([]plexer.Token{id}, []plexer.Token{id}, p, modeAny, f.indent+1, true, nil)
	default:
		s.diagAt(p, lexer.InvalidLine, "expected =value, {} or a count bracket after the item id")
		s.bad(id)
	}
}

// summary reads metadata-summary = "##!" SP "summary" *( SP header-pair ) LF
// (§4, §8.4). Its values are checked by Validate.
func (s *scanner) summary() {
	b := s.body
	s.state = stAfterSummary
	if !bytes.HasPrefix(b, []byte("##! summary")) || (len(b) > 11 && b[11] != ' ') {
		s.diagAt(0, lexer.InvalidSummary, "expected ##! summary")
		s.emit(TokPunct, "##!", 0)
		s.emit(TokBad, string(b), 0)
		s.emitNL()
		return
	}
	s.emit(TokPunct, "##!", 0)
	s.emit(TokKey, "summary", 4)
	for pos := 11; pos < len(b); {
		for pos < len(b) && b[pos] == ' ' {
			pos++
		}
		if pos >= len(b) {
			break
		}
		end := pos
		for end < len(b) && b[end] != ' ' {
			end++
		}
		pair := b[pos:end]
		eq := bytes.IndexByte(pair, '=')
		if eq <= 0 || !isBareKey(string(pair[:eq])) {
			s.diagAt(pos, lexer.InvalidSummary, "summary field "+Excerpt(string(pair))+" is not key=value")
		} else {
			k, v := string(pair[:eq]), string(pair[eq+1:])
			s.summaryRange(k, v, pos+eq+1)
			s.emit(TokHeaderKey, k, pos)
			s.emit(TokPunct, "=", pos+eq)
			s.emit(TokHeaderValue, v, pos+eq+1)
		}
		pos = end
	}
	s.emitNL()
}

// summaryRange reports summary numbers outside int64: the count fields, and
// each item of counts= (positional N, or labeled name:N), at its column.
func (s *scanner) summaryRange(k, v string, idx int) {
	if int64Field(k) && outOfInt64(v) {
		s.diagAt(idx, lexer.OutOfRange, "summary field "+k+"="+Excerpt(v)+" is outside the int64 range")
		return
	}
	if k != "counts" {
		return
	}
	for _, item := range strings.Split(v, ",") {
		n := item
		at := idx
		if c := strings.LastIndexByte(item, ':'); c >= 0 {
			n, at = item[c+1:], idx+c+1
		}
		if outOfInt64(n) {
			s.diagAt(at, lexer.OutOfRange, "summary count "+Excerpt(n)+" is outside the int64 range")
			return
		}
		idx += len(item) + 1
	}
}

// hasContent reports whether a line is neither blank nor a comment (§4.2, §11).
func hasContent(raw []byte) bool {
	i := 0
	for i < len(raw) && raw[i] == ' ' {
		i++
	}
	t := bytes.TrimRight(raw[i:], " \t\r")
	if len(t) > 0 && t[0] == '\t' {
		// A tab in the indentation before text makes the line an error
		// (tab_indentation), never a comment, as in the pull decoder.
		return true
	}
	return len(t) > 0 && !(t[0] == '#' && (len(t) == 1 || t[1] == ' '))
}

// controlIn returns the byte index of the first control character (C0,
// TAB included, DEL or C1) in v, or -1.
func controlIn(v string) int {
	for i, r := range v {
		if r < 0x20 || r == 0x7F || r >= 0x80 && r <= 0x9F {
			return i
		}
	}
	return -1
}
