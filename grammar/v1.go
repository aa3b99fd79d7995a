package grammar

import (
	"bytes"
	"strconv"
	"sync"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// The legacy GCF v1.x wire (SPEC-v1.1 §2, with the SPEC-v1.4 additions:
// inline arrays, `[?]` counts and the `## _summary` trailer). Its grammar
// is flat: a header, then sections of lines.
//
//	payload       = header LF { section } [ summary ]
//	section       = group-header LF { line LF }
//	line          = node-line | edge-line | ref-line | tabular-row
//	              | kv-line | nested-ref | inline-array | comment
//	header        = "GCF" SP key-value { SP key-value }
//	group-header  = "##" SP group-name [ SP "[" count-or-deferred "]" [ field-decl ] ]
//	summary       = "## _summary" SP key-value { SP key-value } LF
//
// The tabular profile has no header, and its lines may come before the
// first section (a root object's members) or be one root value. The
// productions reuse the v3 structs where v1 spells a line the same way
// (node, ref, edge and delta lines, key=value, inline arrays, scalars).

// V1Payload = [ header LF ] { v1-line } { v1-section } [ summary ].
type V1Payload struct {
	Pos      plexer.Position
	Header   *V1Header    `parser:"@@?"`
	Lines    []*V1Line    `parser:"@@*"`
	Sections []*V1Section `parser:"@@*"`
	Summary  *V1Summary   `parser:"@@?"`
	EndPos   plexer.Position
}

// V1Header = "GCF" { SP key-value } LF.
type V1Header struct {
	Pos   plexer.Position
	Magic string        `parser:"@Magic"`
	Pairs []*HeaderPair `parser:"@@* NL"`
}

// V1Section = group-header LF { line LF }.
type V1Section struct {
	Pos    plexer.Position
	Header *V1GroupHeader `parser:"@@"`
	Lines  []*V1Line      `parser:"@@*"`
}

// V1GroupHeader = "##" SP group-name [ SP "[" count "]" [ field-decl ] ].
type V1GroupHeader struct {
	Pos    plexer.Position
	Mark   string        `parser:"@Group"`
	Name   string        `parser:"@Key"`
	Count  *CountBracket `parser:"@@?"`
	Fields *FieldDecl    `parser:"@@? NL"`
}

// V1Summary = "## _summary" { SP key-value } LF (v1.4 §6b). The scanner
// gives the whole mark as one Group token, which a group header (a Group
// and a Key) cannot be mistaken for.
type V1Summary struct {
	Pos   plexer.Position
	Mark  string        `parser:"@Group"`
	Pairs []*HeaderPair `parser:"@@* NL"`
}

// V1Line = node-line | ref-line | edge-line | delta lines | tabular-row |
// item | kv-line | inline-array | nested-ref | root scalar. The scanner
// types a line's first token by its section and context.
type V1Line struct {
	Pos         plexer.Position
	Ref         *RefLine         `parser:"  @@"`
	Node        *NodeLine        `parser:"| @@"`
	Edge        *EdgeLine        `parser:"| @@"`
	DeltaSymbol *DeltaSymbolLine `parser:"| @@"`
	DeltaEdge   *DeltaEdgeLine   `parser:"| @@"`
	Row         *V1Row           `parser:"| @@"`
	Item        *V1Item          `parser:"| @@"`
	Inline      *InlineArray     `parser:"| @@"`
	Kv          *KvLine          `parser:"| @@"`
	NestedRef   *V1NestedRef     `parser:"| @@"`
	Bad         *BadLine         `parser:"| @@"`
}

// V1Row = tabular-row = [ "@" id SP ] value { "|" value }.
type V1Row struct {
	Pos    plexer.Position
	ID     *string   `parser:"@RowID?"`
	Values []*Scalar `parser:"Inline @@ ( '|' @@ )* NL"`
}

// V1Item = "@" id [ SP value ]: an item of a non-uniform array (v1.4 §6a),
// an object whose members follow indented, or a scalar.
type V1Item struct {
	Pos   plexer.Position
	ID    string  `parser:"@ItemID"`
	Value *Scalar `parser:"@@? NL"`
}

// V1NestedRef = "." field-name.
type V1NestedRef struct {
	Pos  plexer.Position
	Name string `parser:"'.' @Key NL"`
}

var (
	v1Once   sync.Once
	v1Parser *participle.Parser[V1Payload]
)

// V1Parser returns the participle parser of the v1 grammar (built once).
func V1Parser() *participle.Parser[V1Payload] {
	v1Once.Do(func() {
		Parser() // sets participle.MaxIterations
		v1Parser = participle.MustBuild[V1Payload](
			participle.Lexer(Definition{}),
			participle.UseLookahead(4),
		)
	})
	return v1Parser
}

// ParseV1 tokenizes and parses a v1.x payload: the concrete syntax tree and
// every problem the scanner found (lexical ones and, for the tabular
// profile, counts, widths and ids, which need the scanner's context), in
// input order. CheckV1 adds the graph checks that need the whole tree.
func ParseV1(data []byte, limits stream.Limits) (*V1Payload, []Diagnostic) {
	toks, diags := ScanV1(data, limits)
	pl, err := plexer.Upgrade(&tokenLexer{toks: toks})
	if err != nil {
		return &V1Payload{}, append(diags, Diagnostic{Category: lexer.InvalidLine, Msg: err.Error()})
	}
	tree, err := V1Parser().ParseFromLexer(pl)
	if err != nil {
		pos := plexer.Position{Line: 1, Column: 1}
		if pe, ok := err.(participle.Error); ok {
			pos = pe.Position()
		}
		diags = append(diags, Diagnostic{Pos: pos, Category: lexer.InvalidLine, Msg: "grammar: " + err.Error()})
		if tree == nil {
			tree = &V1Payload{}
		}
	}
	return tree, diags
}

// v1ctx is an open array of the tabular profile, for the scanner to type
// the lines at its indent.
type v1ctx struct {
	indent int
	table  bool
	width  int
	count  int64 // declared, or -1 for [?]
	seen   int64
	line   int
}

type v1scanner struct {
	s       *scanner
	graph   bool
	first   bool // no body line read yet
	rootVal bool // a root scalar was read
	ctx     []v1ctx
	section graphSection
	delta   bool
	session bool
	done    bool // the ## _summary trailer was read
}

// ScanV1 tokenizes a v1.x payload for the v1 grammar.
func ScanV1(data []byte, limits stream.Limits) ([]plexer.Token, []Diagnostic) {
	v := &v1scanner{s: newScanner(limits), first: true}
	s := v.s
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
		v.line(data[off:end], off)
		off = next
	}
	s.eof = true
	v.closeCtx(-1)
	if !v.graph && v.first && !s.stopped {
		// No header and no body line: v1 has no empty payload (an empty
		// object has no lines), as v3 has none without a header.
		s.diags = append(s.diags, Diagnostic{Pos: plexer.Position{Line: 1, Column: 1}, Category: lexer.MissingHeader,
			Msg: "empty input: a GCF v1.x payload has a graph header or a value"})
	}
	s.toks = append(s.toks, plexer.EOFToken(s.endPos()))
	return s.toks, s.diags
}

func (v *v1scanner) line(raw []byte, off int) {
	s := v.s
	if s.stopped {
		return
	}
	s.lineNo++
	s.lineOff = off
	s.indent, s.level, s.body = 0, 0, raw
	// The limit counts the line as received (without its LF), before the
	// CR and trailing blanks are dropped, as the decoder and the v3
	// scanner count it; it is checked before the line's syntax.
	if len(raw) > s.limits.MaxLineBytes {
		s.diagAt(s.limits.MaxLineBytes, lexer.LineTooLong, "line exceeds the line-length limit")
		s.stopped = true
		return
	}
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	raw = lexer.TrimTrailingBlanks(raw) // SPEC-v1.1 §12.5: warn, never reject
	s.body = raw
	if e := lexer.CheckUTF8(raw); e != nil {
		s.diagAt(e.Column-1, e.Category, e.Msg)
		s.stopped = true
		return
	}
	if s.lineNo == 1 && bytes.HasPrefix(raw, []byte("GCF")) && (len(raw) == 3 || raw[3] == ' ') {
		v.graph = true
		v.header(raw)
		return
	}
	n := 0
	for n < len(raw) && raw[n] == ' ' {
		n++
	}
	if n < len(raw) && raw[n] == '\t' {
		if len(bytes.Trim(raw[n:], " \t")) == 0 {
			return
		}
		s.indent, s.body = 0, raw
		s.diagAt(n, lexer.TabIndentation, "tab character in indentation")
		s.stopped = true
		return
	}
	body := raw[n:]
	if len(body) == 0 || body[0] == '#' && (len(body) == 1 || body[1] == ' ') {
		return // blank or comment
	}
	s.indent, s.level, s.body = n, n/2, body
	s.lastLine, s.lastOff = s.lineNo, off
	if n%2 != 0 {
		s.diagAt(0, lexer.InvalidIndent, "indentation must be a multiple of two spaces")
		s.stopped = true
		return
	}
	if v.done {
		s.diagAt(0, lexer.InvalidSummary, "content after the ## _summary trailer")
		s.stopped = true
		return
	}
	if v.graph {
		v.graphLine()
	} else {
		v.genericLine()
	}
	v.first = false
}

// header lexes `GCF key=value ...`.
func (v *v1scanner) header(b []byte) {
	s := v.s
	s.body = b
	s.lastLine, s.lastOff = 1, 0
	s.emit(TokMagic, "GCF", 0)
	seen := map[string]bool{}
	tool := false
	for _, f := range spaceFields(b, 3) {
		eq := bytes.IndexByte(f.b, '=')
		if eq <= 0 || eq == len(f.b)-1 || !lexer.IsBareKey(string(f.b[:eq])) {
			s.diagAt(f.at, lexer.MalformedHeaderField, "header field "+lexer.Quote(f.b)+" is not key=value")
			v.stop()
			return
		}
		k, val := string(f.b[:eq]), string(f.b[eq+1:])
		if i := controlIn(val); i >= 0 {
			s.diagAt(f.at+eq+1+i, lexer.MalformedHeaderField, "header field "+k+" holds a control character")
			v.stop()
			return
		}
		if seen[k] {
			s.diagAt(f.at, lexer.DuplicateHeaderField, "duplicate header field "+k)
			v.stop()
			return
		}
		seen[k] = true
		switch k {
		case "profile":
			s.diagAt(f.at, lexer.UnknownProfile, "profile= is a GCF v3 header field: not a v1 payload")
			v.stop()
			return
		case "tool":
			tool = true
		case "session":
			v.session = val == "true"
		case "delta":
			v.delta = val == "true"
		case "symbols", "edges", "budget", "tokens":
			if lexer.IsIntLiteral([]byte(val)) {
				if _, ok := lexer.ParseInt([]byte(val)); !ok {
					s.diagAt(f.at+eq+1, lexer.OutOfRange, "header field "+k+" is outside the int64 range")
					v.stop()
					return
				}
			}
			if !isCountValue(val) {
				s.diagAt(f.at+eq+1, lexer.MalformedHeaderField, "header field "+k+"="+Excerpt(val)+" is not a non-negative integer")
				v.stop()
				return
			}
		}
		s.emit(TokHeaderKey, k, f.at)
		s.emit(TokPunct, "=", f.at+eq)
		s.emit(TokHeaderValue, val, f.at+eq+1)
	}
	if !tool {
		s.diagAt(0, lexer.MissingProfile, "the v1 graph header has no tool= field")
		v.stop()
		return
	}
	s.emitNL()
}

type sfield struct {
	b  []byte
	at int
}

// splitSpaces splits b[from:] on runs of spaces (and, as the decoder
// does on a line that is not plain printable ASCII, tabs).
func splitSpaces(b []byte, from int) []sfield {
	var out []sfield
	tabs := false
	for _, c := range b[min(from, len(b)):] {
		tabs = tabs || c < 0x20 || c > 0x7E
	}
	sep := func(c byte) bool { return c == ' ' || tabs && c == '\t' }
	for i := from; i < len(b); {
		if sep(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && !sep(b[j]) {
			j++
		}
		out = append(out, sfield{b[i:j], i})
		i = j
	}
	return out
}

// stop ends the line whose first tokens were emitted and stops scanning:
// a fatal problem, after which the decoder reads nothing either.
func (v *v1scanner) stop() {
	v.s.emitNL()
	v.s.stopped = true
}

// bad emits the current line as a Bad line.
func (v *v1scanner) bad() {
	s := v.s
	s.emit(TokBad, string(s.body), 0)
	s.emitNL()
}

func (v *v1scanner) isSummary(b []byte) bool {
	return bytes.HasPrefix(b, []byte("## _summary")) && (len(b) == 11 || b[11] == ' ')
}

func (v *v1scanner) summary() {
	s := v.s
	b := s.body
	s.emit(TokGroup, "## _summary", 0)
	seen := map[string]bool{}
	for _, f := range spaceFields(b, 11) {
		eq := bytes.IndexByte(f.b, '=')
		if eq <= 0 || !lexer.IsBareKey(string(f.b[:eq])) {
			s.diagAt(f.at, lexer.InvalidSummary, "summary field "+lexer.Quote(f.b)+" is not key=value")
			continue
		}
		if k := string(f.b[:eq]); seen[k] {
			s.diagAt(f.at, lexer.InvalidSummary, "duplicate summary field "+k)
			continue
		}
		seen[string(f.b[:eq])] = true
		s.emit(TokHeaderKey, string(f.b[:eq]), f.at)
		s.emit(TokPunct, "=", f.at+eq)
		s.emit(TokHeaderValue, string(f.b[eq+1:]), f.at+eq+1)
	}
	s.emitNL()
	v.done = true
}

// spaceFields splits the fields of a header or summary line from b[from]
// on, on spaces only, as the decoder does.
func spaceFields(b []byte, from int) []sfield {
	var out []sfield
	for i := from; i < len(b); {
		if b[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(b) && b[j] != ' ' {
			j++
		}
		out = append(out, sfield{b[i:j], i})
		i = j
	}
	return out
}

// ------------------------------------------------------------------ graph

func (v *v1scanner) graphLine() {
	s := v.s
	b := s.body
	if s.level != 0 {
		s.diagAt(0, lexer.InvalidIndent, "graph-profile lines are not indented")
		s.stopped = true
		return
	}
	if v.isSummary(b) {
		v.summary()
		return
	}
	if bytes.HasPrefix(b, []byte("## ")) {
		v.graphGroup(b)
		return
	}
	switch v.section {
	case gsNone:
		if v.delta {
			s.diagAt(0, lexer.MalformedDelta, "delta line outside a delta section")
		} else if b[0] == '@' && bytes.IndexByte(b, '<') >= 0 {
			s.diagAt(0, lexer.InvalidEdgeSyntax, "edge line outside an ## edges section")
		} else {
			s.diagAt(0, lexer.InvalidNodeLine, "graph line outside a group section")
		}
		v.bad()
	case gsSymbols, gsAdded:
		v.nodeLine(b, v.section == gsAdded)
	case gsEdges:
		v.edgeLine(b)
	case gsRemoved:
		f := splitSpaces(b, 0)
		if len(f) != 2 || !lexer.IsBareKey(string(f[0].b)) {
			s.diagAt(0, lexer.MalformedDelta, "## removed lines are kind qname")
			v.bad()
			return
		}
		if i := v1BadName(f[1].b); i >= 0 {
			s.diagAt(f[1].at+i, lexer.MalformedDelta, "a qualified name may not hold whitespace or control characters")
			v.bad()
			return
		}
		s.emit(TokKind, string(f[0].b), f[0].at)
		s.emit(TokQName, string(f[1].b), f[1].at)
		s.emitNL()
	default:
		f := splitSpaces(b, 0)
		if len(f) != 4 || string(f[1].b) != "->" {
			s.diagAt(0, lexer.MalformedDelta, "delta edge lines are source -> target type")
			v.bad()
			return
		}
		for _, x := range []sfield{f[0], f[2], f[3]} {
			if i := v1BadName(x.b); i >= 0 {
				s.diagAt(x.at+i, lexer.MalformedDelta, "a qualified name or edge type may not hold whitespace or control characters")
				v.bad()
				return
			}
		}
		s.emit(TokQName, string(f[0].b), f[0].at)
		s.emit(TokPunct, "->", f[1].at)
		s.emit(TokQName, string(f[2].b), f[2].at)
		s.emit(TokEdgeType, string(f[3].b), f[3].at)
		s.emitNL()
	}
}

func (v *v1scanner) graphGroup(b []byte) {
	s := v.s
	k := 0 // a graph group name is a bare key (the v3 key grammar, as the decoder reads it)
	if 3 < len(b) && lexer.IsBareKeyStart(b[3]) {
		for k = 1; 3+k < len(b) && lexer.IsBareKeyByte(b[3+k]); k++ {
		}
	}
	if k == 0 {
		if v.delta {
			s.diagAt(3, lexer.MalformedDelta, "delta section names are bare")
		} else {
			s.diagAt(3, lexer.InvalidLine, "graph group names are bare keys")
		}
		v.section = gsNone
		v.bad()
		return
	}
	name := string(b[3 : 3+k])
	s.emit(TokGroup, "##", 0)
	s.emit(TokKey, name, 3)
	p := 3 + k
	if p < len(b) {
		if b[p] != ' ' || p+1 >= len(b) || b[p+1] != '[' {
			s.diagAt(p, lexer.InvalidLine, "expected a count bracket after the group name")
			v.stop()
			return
		}
		_, keyed, end, lerr := lexer.ScanCount(b, p+1, int64(s.limits.MaxElements))
		if lerr != nil {
			s.diagAt(lerr.Column-1, lerr.Category, lerr.Msg)
			v.stop()
			return
		}
		if keyed || end != len(b) {
			s.diagAt(p+1, lexer.InvalidLine, "unexpected text after the group count")
			v.stop()
			return
		}
		s.emit(TokCount, string(b[p+1:end]), p+1)
	}
	s.emitNL()
	if v.delta {
		switch name {
		case "removed":
			v.section = gsRemoved
		case "added":
			v.section = gsAdded
		case "edges_removed", "edges_added":
			v.section = gsDeltaEdges
		default:
			s.diagAt(3, lexer.MalformedDelta, "unknown delta section "+strconv.Quote(name))
			s.stopped = true
		}
		return
	}
	switch name {
	case "edges":
		v.section = gsEdges
	case "removed", "added", "edges_removed", "edges_added":
		s.diagAt(3, lexer.MalformedDelta, "delta section "+strconv.Quote(name)+" in a payload without delta=true")
		s.stopped = true
	default:
		v.section = gsSymbols
	}
}

func (v *v1scanner) nodeLine(b []byte, added bool) {
	s := v.s
	cat := lexer.InvalidNodeLine
	if added {
		cat = lexer.MalformedDelta
	}
	if b[0] != '@' {
		s.diagAt(0, cat, "a node line starts with @id")
		v.bad()
		return
	}
	end := 1
	for end < len(b) && b[end] != ' ' && b[end] != '\t' {
		end++
	}
	id := b[1:end]
	if !v1Digits(id) {
		s.diagAt(1, lexer.InvalidSymbolID, "@ must be followed by a decimal symbol id")
		v.bad()
		return
	}
	rest := end
	for rest < len(b) && (b[rest] == ' ' || b[rest] == '\t') {
		rest++
	}
	if !added && rest < len(b) && b[rest] == '#' {
		if !v.session {
			s.diagAt(0, lexer.InvalidNodeLine, "a bare reference needs session=true in the header")
			v.bad()
			return
		}
		s.emit(TokNodeID, string(b[:end]), 0)
		s.emit(TokRef, string(b[rest:]), rest)
		s.emitNL()
		return
	}
	f := splitSpaces(b, rest)
	if len(f) != 4 || rest == end {
		s.diagAt(0, cat, "a node line has exactly 5 fields: @id kind qname score provenance")
		v.bad()
		return
	}
	for _, x := range f {
		if i := v1BadName(x.b); i >= 0 {
			s.diagAt(x.at+i, cat, "a node field may not hold whitespace or control characters")
			v.bad()
			return
		}
	}
	if !v1Decimal(f[2].b) {
		s.diagAt(f[2].at, lexer.InvalidScore, "score "+lexer.Quote(f[2].b)+" is not a decimal number")
		v.bad()
		return
	}
	s.emit(TokNodeID, string(b[:end]), 0)
	s.emit(TokKind, string(f[0].b), f[0].at)
	s.emit(TokQName, string(f[1].b), f[1].at)
	s.emit(TokScore, string(f[2].b), f[2].at)
	s.emit(TokProvenance, string(f[3].b), f[3].at)
	s.emitNL()
}

func (v *v1scanner) edgeLine(b []byte) {
	s := v.s
	f := splitSpaces(b, 0)
	if len(f) < 2 || len(f) > 3 {
		s.diagAt(0, lexer.InvalidEdgeSyntax, "an edge line is @target<@source type [status]")
		v.bad()
		return
	}
	ref := f[0].b
	lt := bytes.IndexByte(ref, '<')
	if lt < 0 || ref[0] != '@' || lt+1 >= len(ref) || ref[lt+1] != '@' {
		s.diagAt(0, lexer.InvalidEdgeSyntax, "an edge line is @target<@source type [status]")
		v.bad()
		return
	}
	if !v1Digits(ref[1:lt]) || !v1Digits(ref[lt+2:]) {
		s.diagAt(0, lexer.InvalidSymbolID, "edge ids must be decimal integers")
		v.bad()
		return
	}
	// The edge type and the status are checked on the tree, after the
	// references (the decoder's order: ast.CheckV1).
	s.emit(TokEdgeTarget, string(ref[:lt]), 0)
	s.emit(TokPunct, "<", lt)
	s.emit(TokEdgeSource, string(ref[lt+1:]), lt+1)
	s.emit(TokEdgeType, string(f[1].b), f[1].at)
	if len(f) == 3 {
		s.emit(TokStatus, string(f[2].b), f[2].at)
	}
	s.emitNL()
}

// v1Digits reports whether t is 1 to 18 ASCII digits (an id the decoders hold).
func v1Digits(t []byte) bool {
	if len(t) == 0 || len(t) > 18 {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// v1Decimal reports whether t is `-?DIGITS[.DIGITS]`.
func v1Decimal(t []byte) bool {
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

// v1BadName returns the index of the first byte of t that a graph field may
// not hold (a control, DEL, or a C1 control / Unicode space), or -1.
func v1BadName(t []byte) int {
	for i, r := range string(t) {
		if r <= ' ' || r == 0x7F || (r >= 0x80 && r <= 0x9F) || r == 0x85 || r == 0xA0 || r == 0x1680 ||
			(r >= 0x2000 && r <= 0x200A) || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000 {
			return i
		}
	}
	return -1
}

// v1KeyLen returns the length of the v1 key at the start of b (0 if none):
// a letter or _ then letters, digits, _, - and '.'.
func v1KeyLen(b []byte) int {
	if len(b) == 0 || !(b[0] == '_' || b[0]|0x20 >= 'a' && b[0]|0x20 <= 'z') {
		return 0
	}
	i := 1
	for i < len(b) {
		c := b[i]
		if !(c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			break
		}
		i++
	}
	return i
}

// ---------------------------------------------------------------- generic

// closeCtx closes the open arrays indented deeper than level (all, for
// level -1), checking their declared counts.
func (v *v1scanner) closeCtx(level int) {
	for len(v.ctx) > 0 {
		c := &v.ctx[len(v.ctx)-1]
		if c.indent <= level {
			return
		}
		v.endCtx()
	}
}

func (v *v1scanner) endCtx() {
	c := v.ctx[len(v.ctx)-1]
	v.ctx = v.ctx[:len(v.ctx)-1]
	if c.count >= 0 && c.seen != c.count {
		v.s.diags = append(v.s.diags, Diagnostic{Pos: v.s.here(), Category: lexer.CountMismatch,
			Msg: "section on line " + strconv.Itoa(c.line) + " declares " + strconv.FormatInt(c.count, 10) +
				" entries but has " + strconv.FormatInt(c.seen, 10)})
	}
}

func (v *v1scanner) genericLine() {
	s := v.s
	b := s.body
	if s.level == 0 && v.isSummary(b) {
		v.closeCtx(-1)
		v.summary()
		return
	}
	if v.rootVal {
		s.diagAt(0, lexer.InvalidLine, "content after the root value")
		v.bad()
		return
	}
	v.closeCtx(s.level)
	if n := len(v.ctx); n > 0 {
		c := &v.ctx[n-1]
		if c.indent == s.level {
			full := c.count >= 0 && c.seen == c.count
			if c.table && !full && !(c.count < 0 && bytes.HasPrefix(b, []byte("## "))) {
				v.row(c)
				return
			}
			if !c.table && !full && b[0] == '@' {
				v.item(c)
				return
			}
			v.endCtx()
		}
	}
	k := v1KeyLen(b)
	switch {
	case bytes.HasPrefix(b, []byte("## ")):
		v.sectionLine(b)
	case b[0] == '.':
		if n := v1KeyLen(b[1:]); n == 0 || n+1 != len(b) {
			s.diagAt(0, lexer.InvalidLine, "a nested reference is .name")
			v.bad()
			return
		}
		s.emit(TokPunct, ".", 0)
		s.emit(TokKey, string(b[1:]), 1)
		s.emitNL()
	case k > 0 && k < len(b) && b[k] == '=':
		s.emit(TokKey, string(b[:k]), 0)
		s.emit(TokPunct, "=", k)
		v.scalar(b[k+1:], k+1)
		s.emitNL()
	case k > 0 && k < len(b) && b[k] == '[':
		v.inline(b, k)
	case v.first && s.level == 0:
		v.rootVal = true
		s.emit(TokItemID, "", 0) // a root scalar has the shape of an item without an id
		v.scalar(b, 0)
		s.emitNL()
	default:
		s.diagAt(0, lexer.InvalidLine, "expected key=value, key[N]: values, ## section or .name")
		v.bad()
	}
}

func (v *v1scanner) sectionLine(b []byte) {
	s := v.s
	k := v1KeyLen(b[3:])
	if k == 0 {
		s.diagAt(3, lexer.InvalidLine, "expected a section name after ##")
		v.bad()
		return
	}
	s.emit(TokGroup, "##", 0)
	s.emit(TokKey, string(b[3:3+k]), 3)
	p := 3 + k
	if p == len(b) {
		s.emitNL()
		return
	}
	if b[p] != ' ' || p+1 >= len(b) || b[p+1] != '[' {
		s.diagAt(p, lexer.InvalidLine, "expected [count] after the section name")
		v.stop()
		return
	}
	count, keyed, end, lerr := lexer.ScanCount(b, p+1, int64(s.limits.MaxElements))
	if lerr != nil {
		s.diagAt(lerr.Column-1, lerr.Category, lerr.Msg)
		v.stop()
		return
	}
	if keyed {
		s.diagAt(p+1, lexer.InvalidCount, "v1 has no keyed count [N:]")
		v.stop()
		return
	}
	s.emit(TokCount, string(b[p+1:end]), p+1)
	c := v1ctx{indent: s.level, count: count, line: s.lineNo}
	if end < len(b) {
		if b[end] != '{' {
			s.diagAt(end, lexer.InvalidLine, "unexpected text after the section count")
			v.stop()
			return
		}
		names := map[string]bool{}
		s.emit(TokPunct, "{", end)
		i := end + 1
		for {
			n := v1KeyLen(b[i:])
			if n == 0 {
				s.diagAt(i, lexer.InvalidLine, "expected a field name in the declaration")
				v.stop()
				return
			}
			name := string(b[i : i+n])
			if names[name] {
				s.diagAt(i, lexer.DuplicateFieldName, "duplicate field name "+strconv.Quote(name))
			}
			names[name] = true
			if len(names) > s.limits.MaxFields {
				s.diagAt(i, lexer.TooManyFields, "field declaration exceeds the field limit")
				v.stop()
				return
			}
			s.emit(TokKey, name, i)
			i += n
			if i >= len(b) {
				s.diagAt(i, lexer.InvalidLine, "field declaration has no closing }")
				v.stop()
				return
			}
			if b[i] == '}' {
				s.emit(TokPunct, "}", i)
				break
			}
			if b[i] != ',' {
				s.diagAt(i, lexer.InvalidLine, "expected , or } in the field declaration")
				v.stop()
				return
			}
			s.emit(TokPunct, ",", i)
			i++
		}
		if i+1 != len(b) {
			s.diagAt(i+1, lexer.InvalidLine, "unexpected text after the field declaration")
			v.stop()
			return
		}
		c.table, c.width = true, len(names)
	}
	s.emitNL()
	if c.table || count != 0 {
		if len(v.ctx) >= s.limits.MaxDepth {
			s.diagAt(0, lexer.DepthExceeded, "nesting exceeds the depth limit")
			s.stopped = true
			return
		}
		v.ctx = append(v.ctx, c)
	}
}

func (v *v1scanner) row(c *v1ctx) {
	s := v.s
	b := s.body
	pos := 0
	if b[0] == '@' {
		i, ok := v.id(c, "row")
		if !ok {
			return
		}
		c.seen-- // counted below, with the rows without an id
		s.emit(TokRowID, string(b[:i]), 0)
		pos = i + 1
		if pos > len(b) {
			s.diagAt(i, lexer.RowWidthMismatch, "row has no values")
			v.bad()
			c.seen++
			return
		}
	}
	c.seen++
	var ends []int
	for p := pos; ; {
		end, ok := v.cellEnd(b, p, '|')
		if !ok {
			v.bad()
			return
		}
		ends = append(ends, end)
		if end >= len(b) {
			break
		}
		p = end + 1
	}
	s.emit(TokInline, "", pos)
	n := 0
	for _, end := range ends {
		if n > 0 {
			s.emit(TokPunct, "|", pos-1)
		}
		v.scalar(b[pos:end], pos)
		n++
		pos = end + 1
	}
	if n != c.width {
		s.diagAt(0, lexer.RowWidthMismatch, "row has "+strconv.Itoa(n)+" values for "+strconv.Itoa(c.width)+" declared fields")
	}
	s.emitNL()
}

// id reads the `@N` that starts the current line, the entry c.seen of c,
// and counts the entry. It returns the index past the id; on a malformed
// id it reports it and emits the line as Bad (ok false).
func (v *v1scanner) id(c *v1ctx, what string) (end int, ok bool) {
	s := v.s
	b := s.body
	i := 1
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	c.seen++
	if !v1Digits(b[1:i]) || (i < len(b) && b[i] != ' ') {
		s.diagAt(1, lexer.InvalidItemID, "@ must be followed by a decimal id")
		v.bad()
		return 0, false
	}
	if id, _ := strconv.ParseInt(string(b[1:i]), 10, 64); id != c.seen-1 {
		s.diagAt(1, lexer.InvalidItemID, what+" id "+string(b[:i])+" is not the "+what+"'s index "+strconv.FormatInt(c.seen-1, 10))
	}
	return i, true
}

func (v *v1scanner) item(c *v1ctx) {
	s := v.s
	b := s.body
	i, ok := v.id(c, "item")
	if !ok {
		return
	}
	s.emit(TokItemID, string(b[:i]), 0)
	if i < len(b) {
		v.scalar(b[i+1:], i+1)
	}
	s.emitNL()
}

// inline lexes `key[N]: a,b,c`.
func (v *v1scanner) inline(b []byte, k int) {
	s := v.s
	count, keyed, end, lerr := lexer.ScanCount(b, k, int64(s.limits.MaxElements))
	if lerr != nil {
		s.diagAt(lerr.Column-1, lerr.Category, lerr.Msg)
		v.bad()
		return
	}
	if keyed || end >= len(b) || b[end] != ':' || (end+1 < len(b) && b[end+1] != ' ') {
		s.diagAt(end, lexer.InvalidLine, "an inline array is key[N]: values")
		v.bad()
		return
	}
	var ends []int
	if end+1 < len(b) {
		for p := end + 2; ; {
			e, ok := v.cellEnd(b, p, ',')
			if !ok {
				v.bad()
				return
			}
			ends = append(ends, e)
			if e >= len(b) {
				break
			}
			p = e + 1
		}
	}
	s.emit(TokKey, string(b[:k]), 0)
	s.emit(TokCount, string(b[k:end]), k)
	s.emit(TokPunct, ":", end)
	n := int64(0)
	pos := end + 2
	for _, e := range ends {
		if n > 0 {
			s.emit(TokPunct, ",", pos-1)
		}
		v.scalar(b[pos:e], pos)
		n++
		pos = e + 1
	}
	if count >= 0 && n != count {
		s.diagAt(k, lexer.CountMismatch, "inline array declares "+strconv.FormatInt(count, 10)+" values but has "+strconv.FormatInt(n, 10))
	}
	s.emitNL()
}

// cellEnd finds the end of the value at b[pos:] (an unquoted delim or the
// end of b), reporting an unterminated quote or characters after one.
func (v *v1scanner) cellEnd(b []byte, pos int, delim byte) (int, bool) {
	s := v.s
	end := pos
	if end < len(b) && b[end] == '"' {
		end++
		for end < len(b) && b[end] != '"' {
			if b[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(b) {
			s.diagAt(pos, lexer.UnterminatedQuote, "quoted value has no closing \"")
			return 0, false
		}
		end++
		if end < len(b) && b[end] != delim {
			s.diagAt(end, lexer.TrailingCharacters, "characters after the closing quote")
			return 0, false
		}
		return end, true
	}
	for end < len(b) && b[end] != delim {
		end++
	}
	return end, true
}

// scalar emits the value t at body index at: null, bool, number, quoted
// (decoded; escapes \" \\ \n \r \t) or bare.
func (v *v1scanner) scalar(t []byte, at int) {
	s := v.s
	if len(t) > 0 && t[0] == '"' {
		var out []byte
		closed := false
		for i := 1; i < len(t); i++ {
			c := t[i]
			if c == '"' {
				if i != len(t)-1 {
					s.diagAt(at+i+1, lexer.TrailingCharacters, "characters after the closing quote")
				}
				closed = true
				break
			}
			if c != '\\' {
				out = append(out, c)
				continue
			}
			i++
			if i >= len(t) {
				break
			}
			switch t[i] {
			case '"', '\\':
				out = append(out, t[i])
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			default:
				s.diagAt(at+i-1, lexer.InvalidEscape, "invalid escape \\"+string(t[i:i+1]))
			}
		}
		if !closed {
			s.diagAt(at, lexer.UnterminatedQuote, "quoted value has no closing \"")
		}
		s.emit(TokQuoted, string(out), at)
		return
	}
	switch string(t) {
	case "-":
		s.emit(TokNull, "-", at)
		return
	case "true", "false":
		s.emit(TokBool, string(t), at)
		return
	}
	if v1Decimal(t) {
		if bytes.IndexByte(t, '.') < 0 {
			if _, ok := lexer.ParseInt(t); !ok {
				s.diagAt(at, lexer.OutOfRange, "integer is outside the int64 range")
			}
		} else if lexer.FloatOverflows(t) {
			s.diagAt(at, lexer.OutOfRange, "number is outside the binary64 range")
		}
		s.emit(TokNumber, string(t), at)
		return
	}
	s.emit(TokBare, string(t), at)
}
