package stream

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/gcfkit/gcf/lexer"
)

// graphSection is the kind of the current graph group.
type graphSection uint8

const (
	gsNone       graphSection = iota
	gsSymbols                 // targets, related, extended, distance_N, or another group name
	gsEdges                   // edges
	gsRemoved                 // delta: removed
	gsAdded                   // delta: added
	gsDeltaEdges              // delta: edges_removed, edges_added
)

// graphState is the decoder state of a graph-profile body. Graph bodies are
// flat: a sequence of group sections, each holding one line form.
type graphState struct {
	session, delta, unchanged bool
	hdrSymbols, hdrEdges      int64 // header counts, -1 when absent
	section                   graphSection
	count, seen               int64 // the current section's declared count (or -1) and lines
	deferred                  bool  // the current section is `[?]`
	groupLine                 int
	symbols, edges            int64 // lines seen in the payload
	deferredEdges             int64 // edges under `[?]` sections, -1 if none
	ids                       map[int64]struct{}
	addedIDs                  int64
}

func (g *graphState) reset() {
	*g = graphState{hdrSymbols: -1, hdrEdges: -1, deferredEdges: -1, ids: g.ids}
	if g.ids != nil {
		clear(g.ids)
	}
}

// headerField records the header fields the graph body depends on.
func (g *graphState) headerField(key, val []byte) {
	switch string(key) {
	case "session":
		g.session = string(val) == "true"
	case "delta":
		g.delta = string(val) == "true"
	case "unchanged":
		g.unchanged = string(val) == "true"
	case "symbols":
		if v, ok := parseCount(val); ok {
			g.hdrSymbols = v
		}
	case "edges":
		if v, ok := parseCount(val); ok {
			g.hdrEdges = v
		}
	}
}

// graphStep reads the next graph-profile line (SPEC §5, §6, §6a, §9, §10).
func (d *Decoder) graphStep() error {
	g := &d.g
	if d.atEOF || d.level == 0 && (d.wire == WireV3 && startsWith(d.body, "##!") || d.wire == WireV1 && d.isSummary()) {
		if err := d.graphClose(); err != nil {
			return err
		}
		if d.atEOF {
			return d.end()
		}
		if err := d.summary(); err != nil {
			return err
		}
		return d.graphSummary(d.ev)
	}
	if d.level != 0 {
		return d.bodyErr(0, lexer.InvalidIndent, "graph-profile lines are not indented")
	}
	d.beginLine()
	b := d.body
	if startsWith(b, "## ") {
		if err := d.graphSectionEnd(); err != nil {
			return err
		}
		return d.graphGroup(b)
	}
	if g.section == gsNone {
		if g.delta {
			return d.bodyErr(0, lexer.MalformedDelta, "delta line outside a delta section")
		}
		if b[0] == '@' && bytes.IndexByte(b, '<') >= 0 {
			return d.bodyErr(0, lexer.InvalidEdgeSyntax, "edge line outside an ## edges section")
		}
		return d.bodyErr(0, lexer.InvalidNodeLine, "graph line outside a group section")
	}
	if g.count >= 0 && g.seen == g.count {
		return d.bodyErr(0, lexer.CountMismatch, "group on line "+strconv.Itoa(g.groupLine)+" declares "+
			strconv.FormatInt(g.count, 10)+" lines; this one is more")
	}
	if g.seen++; g.seen > int64(d.limits.MaxElements) {
		return d.bodyErr(0, lexer.TooManyElements, "graph section exceeds the element limit")
	}
	d.consume()
	switch g.section {
	case gsSymbols:
		return d.graphNode(b, false)
	case gsEdges:
		return d.graphEdge(b)
	case gsAdded:
		return d.graphNode(b, true)
	case gsRemoved:
		return d.graphRemoved(b)
	default:
		return d.graphDeltaEdge(b)
	}
}

// fields splits a graph line, from byte from on, on runs of spaces and
// tabs into d.cells as string scalars. ok is false if there are more than
// max fields; clean is true when every field is printable ASCII (%x21-7E),
// so that no field needs checking with badName.
func (d *Decoder) fields(b []byte, from, max int) (ok, clean bool) {
	cells := d.cells[:0]
	base := 2*d.level + 1
	n := len(b)
	if d.plain || lexer.PlainASCII(b[from:]) {
		// Only spaces separate fields: find them with IndexByte.
		for i := from; i < n; {
			if b[i] == ' ' {
				i++
				continue
			}
			j := bytes.IndexByte(b[i:], ' ')
			if j < 0 {
				j = n
			} else {
				j += i
			}
			if len(cells) == max {
				d.cells = cells
				return false, true
			}
			cells = appendCell(cells, lexer.KindString, b[i:j], base+i)
			i = j
		}
		d.cells = cells
		return true, true
	}
	clean = true
	for i := from; ; {
		for i < n && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i >= n {
			break
		}
		j := i
		for ; j < n; j++ {
			c := b[j]
			if c <= ' ' {
				if c == ' ' || c == '\t' {
					break
				}
				clean = false
			} else if c >= 0x7f {
				clean = false
			}
		}
		if len(cells) == max {
			d.cells = cells
			return false, clean
		}
		cells = append(cells, lexer.Scalar{Kind: lexer.KindString, Bytes: b[i:j], Col: base + i})
		i = j
	}
	d.cells = cells
	return true, clean
}

// badName returns the index of the first code point of t that a graph name
// (qualified name, provenance, edge type) may not hold, or -1. Names are
// any Unicode scalar values except whitespace (space, tab, any Unicode
// White_Space) and controls (C0, DEL, C1): the official fixture
// graph-decode/004 and the reference SDK accept non-ASCII names that the
// ABNF's %x21-7E would not (docs/spec-notes.md). t is valid UTF-8.
func badName(t []byte) int {
	for i := 0; i < len(t); {
		c := t[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7F {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(t[i:])
		if r <= 0x9F || unicode.Is(unicode.White_Space, r) {
			return i
		}
		i += n
	}
	return -1
}

var fieldIdx = [...]int{0, 1, 2, 3, 4}

// checkNames checks that the cells at idx are graph names (see badName),
// reporting the first bad code point with category c.
func (d *Decoder) checkNames(c lexer.Category, what string, idx ...int) error {
	for _, i := range idx {
		if k := badName(d.cells[i].Bytes); k >= 0 {
			return d.errAt(d.cells[i].Col+k, c, what+" may not hold whitespace or control characters")
		}
	}
	return nil
}

func parseID(t []byte) (int64, bool) {
	if len(t) == 0 || len(t) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// validScore reports whether t matches `[-]1*DIGIT "." 2DIGIT` (SPEC §4).
func validScore(t []byte) bool {
	i := 0
	if i < len(t) && t[i] == '-' {
		i++
	}
	j := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == j || i+3 != len(t) || t[i] != '.' {
		return false
	}
	return t[i+1] >= '0' && t[i+1] <= '9' && t[i+2] >= '0' && t[i+2] <= '9'
}

func (d *Decoder) graphGroup(b []byte) error {
	g := &d.g
	name, p, lerr := lexer.ScanKey(b, 3, &d.scratch)
	if lerr != nil || bytes.IndexByte(name, '"') >= 0 || b[3] == '"' {
		if g.delta {
			return d.bodyErr(3, lexer.MalformedDelta, "delta section names are bare")
		}
		return d.bodyErr(3, lexer.InvalidLine, "graph group names are bare keys")
	}
	ev := Event{Kind: KindGroup, Key: name, ID: -1, Field: -1, Count: lexer.Deferred, Line: d.lineNo}
	g.count, g.seen, g.deferred, g.groupLine = -1, 0, false, d.lineNo
	if p < len(b) {
		if b[p] != ' ' || p+1 >= len(b) || b[p+1] != '[' {
			return d.bodyErr(p, lexer.InvalidLine, "expected a count bracket after the group name")
		}
		count, keyed, end, lerr := lexer.ScanCount(b, p+1, int64(d.limits.MaxElements))
		if lerr != nil {
			return d.wrap(lerr, 2*d.level)
		}
		if keyed || end != len(b) {
			return d.bodyErr(p+1, lexer.InvalidLine, "unexpected text after the group count")
		}
		ev.Count, g.count = count, count
		g.deferred = count == lexer.Deferred
		if g.deferred {
			d.unverified++
		}
	}
	n := string(name)
	if g.delta {
		switch n {
		case "removed":
			g.section = gsRemoved
		case "added":
			g.section = gsAdded
		case "edges_removed", "edges_added":
			g.section = gsDeltaEdges
		default:
			return d.bodyErr(3, lexer.MalformedDelta, "unknown delta section "+lexer.Quote(name))
		}
	} else {
		switch {
		case n == "edges":
			g.section = gsEdges
		case n == "targets":
			g.section, ev.ID = gsSymbols, 0
		case n == "related":
			g.section, ev.ID = gsSymbols, 1
		case n == "extended":
			g.section, ev.ID = gsSymbols, 2
		case n == "removed" || n == "added" || n == "edges_removed" || n == "edges_added":
			return d.bodyErr(3, lexer.MalformedDelta, "delta section "+lexer.Quote(name)+" in a payload without delta=true")
		default:
			g.section = gsSymbols
			if rest, ok := bytes.CutPrefix(name, []byte("distance_")); ok {
				if v, ok := parseID(rest); ok {
					ev.ID = v
				}
			}
		}
	}
	d.consume()
	d.ev = ev
	return nil
}

// graphSectionEnd validates the count of the section being closed.
func (d *Decoder) graphSectionEnd() error {
	g := &d.g
	if g.count >= 0 && g.seen != g.count {
		msg := "group on line " + strconv.Itoa(g.groupLine) + " declares " + strconv.FormatInt(g.count, 10) +
			" lines but has " + strconv.FormatInt(g.seen, 10)
		return d.endErr(lexer.CountMismatch, msg)
	}
	if g.deferred && g.section == gsEdges {
		if g.deferredEdges < 0 {
			g.deferredEdges = 0
		}
		g.deferredEdges += g.seen
	}
	g.count, g.seen, g.deferred = -1, 0, false
	return nil
}

// graphClose ends the body: the open section's count and the header's
// symbols= and edges= counts (not for delta or unchanged payloads).
func (d *Decoder) graphClose() error {
	if err := d.graphSectionEnd(); err != nil {
		return err
	}
	g := &d.g
	g.section = gsNone
	if g.delta || g.unchanged {
		return nil
	}
	check := func(what string, declared, actual int64) error {
		if declared >= 0 && declared != actual {
			msg := "header declares " + what + "=" + strconv.FormatInt(declared, 10) + " but the payload has " + strconv.FormatInt(actual, 10)
			return d.endErr(lexer.CountMismatch, msg)
		}
		return nil
	}
	if err := check("symbols", g.hdrSymbols, g.symbols); err != nil {
		return err
	}
	return check("edges", g.hdrEdges, g.edges)
}

// graphSummary validates a graph trailer: its edges= field must match the
// edges under `[?]` (SPEC §13.2); counts= is informational (§8.4.1).
func (d *Decoder) graphSummary(ev Event) error {
	g := &d.g
	for i, k := range ev.Fields {
		v, ok := parseCount(ev.Cells[i].Bytes)
		switch string(k) {
		case "edges":
			if ok && g.deferredEdges >= 0 && v != g.deferredEdges {
				return d.errAt(1, lexer.CountMismatch, "summary edges="+strconv.FormatInt(v, 10)+" but the [?] edges section has "+
					strconv.FormatInt(g.deferredEdges, 10))
			}
		case "symbols":
			if ok && g.hdrSymbols < 0 && v != g.symbols {
				return d.errAt(1, lexer.CountMismatch, "summary symbols="+strconv.FormatInt(v, 10)+" but the payload has "+
					strconv.FormatInt(g.symbols, 10))
			}
		}
	}
	return nil
}

// graphNode parses a node line, a session reference, or (delta) an added line.
func (d *Decoder) graphNode(b []byte, delta bool) error {
	g := &d.g
	if b[0] != '@' {
		if delta {
			return d.bodyErr(0, lexer.MalformedDelta, "## added lines are @id kind qname score provenance distance")
		}
		return d.bodyErr(0, lexer.InvalidNodeLine, "a node line starts with @id")
	}
	// The id's digits are read as they are found; a token that is not 1
	// to 18 digits up to a space, a tab or the end takes parseID's path.
	end := 1
	var id int64
	for end < len(b) && b[end] >= '0' && b[end] <= '9' {
		id = id*10 + int64(b[end]-'0')
		end++
	}
	ok := end > 1 && end <= 19 && (end == len(b) || lexer.IsSpace(b[end]))
	if !ok {
		for end < len(b) && !lexer.IsSpace(b[end]) {
			end++
		}
		id, ok = parseID(b[1:end])
	}
	if !ok {
		return d.bodyErr(1, lexer.InvalidSymbolID, "@ must be followed by a decimal symbol id")
	}
	rest := end
	for rest < len(b) && lexer.IsSpace(b[rest]) {
		rest++
	}
	if !delta && rest < len(b) && b[rest] == '#' {
		if !g.session {
			return d.bodyErr(0, lexer.InvalidNodeLine, "a bare reference needs session=true in the header")
		}
		if err := d.declare(id, 1); err != nil {
			return err
		}
		d.ev = Event{Kind: KindReference, ID: id, Field: -1, Line: d.lineNo}
		return nil
	}
	want := 4 // kind, qname, score, provenance (the id is parsed)
	if delta && d.wire == WireV3 {
		want = 5 // and distance
	}
	ok, clean := d.fields(b, rest, want)
	if !ok || len(d.cells) != want || rest == end {
		if delta && d.wire == WireV3 {
			return d.bodyErr(0, lexer.MalformedDelta, "## added lines are @id kind qname score provenance distance")
		}
		if delta {
			return d.bodyErr(0, lexer.MalformedDelta, "v1 ## added lines are @id kind qname score provenance")
		}
		return d.bodyErr(0, lexer.InvalidNodeLine, "a node line has exactly 5 fields: @id kind qname score provenance")
	}
	cat := lexer.InvalidNodeLine
	if delta {
		cat = lexer.MalformedDelta
	}
	if !clean {
		// Every field, as names: kind and score have narrower grammars
		// checked below, but a control or a space is the line's error.
		if err := d.checkNames(cat, "a node field", fieldIdx[:want]...); err != nil {
			return err
		}
	}
	if kind := d.cells[0].Bytes; d.wire == WireV3 && !lexer.IsBareKey(string(kind)) {
		return d.bodyErr(d.cells[0].Col-1, lexer.InvalidNodeLine, "kind "+lexer.Quote(kind)+" is not a bare key")
	}
	if score := d.cells[2].Bytes; d.wire == WireV1 && !v1Score(score) {
		return d.bodyErr(d.cells[2].Col-1, lexer.InvalidScore, "score "+lexer.Quote(score)+" is not a decimal number")
	} else if d.wire == WireV3 && !validScore(score) {
		return d.bodyErr(d.cells[2].Col-1, lexer.InvalidScore, "score "+lexer.Quote(score)+" does not match [-]DIGITS.2DIGIT")
	} else if len(score) > 300 && lexer.FloatOverflows(score) {
		return d.bodyErr(d.cells[2].Col-1, lexer.OutOfRange, "score "+lexer.Excerpt(score)+" is outside the binary64 range")
	}
	d.cells[2].Kind = lexer.KindFloat
	if delta && d.wire == WireV1 {
		if id != g.addedIDs {
			return d.bodyErr(1, lexer.InvalidSymbolID, "## added ids are sequential from 0")
		}
		g.addedIDs++
	} else if delta {
		dist, ok := parseID(d.cells[4].Bytes)
		if !ok {
			return d.bodyErr(d.cells[4].Col-1, lexer.MalformedDelta, "distance must be a decimal integer")
		}
		d.cells[4].Kind, d.cells[4].Int = lexer.KindInt, dist
		if id != g.addedIDs {
			return d.bodyErr(1, lexer.InvalidSymbolID, "## added ids are sequential from 0")
		}
		g.addedIDs++
	} else if err := d.declare(id, 0); err != nil {
		return err
	}
	// Cells: kind, qname, score, provenance[, distance]; ID carries the id.
	d.lightEvent(KindSymbol, id, d.lineOff+int64(2*d.level))
	return nil
}

// declare records a symbol id: sequential from 0 without a session (SPEC
// §5), unique with one.
func (d *Decoder) declare(id int64, col int) error {
	g := &d.g
	if !g.session {
		if id != g.symbols {
			return d.bodyErr(col+1, lexer.InvalidSymbolID, "symbol id @"+strconv.FormatInt(id, 10)+
				" is not the next sequential id @"+strconv.FormatInt(g.symbols, 10))
		}
	} else {
		if g.ids == nil {
			g.ids = make(map[int64]struct{})
		}
		if _, dup := g.ids[id]; dup {
			return d.bodyErr(col+1, lexer.InvalidSymbolID, "symbol id @"+strconv.FormatInt(id, 10)+" is declared twice")
		}
		g.ids[id] = struct{}{}
	}
	g.symbols++
	return nil
}

func (d *Decoder) declared(id int64) bool {
	g := &d.g
	if !g.session {
		return id < g.symbols
	}
	_, ok := g.ids[id]
	return ok
}

// graphEdge parses `@T<@S type [status]` (SPEC §6).
func (d *Decoder) graphEdge(b []byte) error {
	if d.fastEdge(b) {
		return nil
	}
	ok, clean := d.fields(b, 0, 3)
	if !ok || len(d.cells) < 2 {
		return d.bodyErr(0, lexer.InvalidEdgeSyntax, "an edge line is @target<@source type [status]")
	}
	ref := d.cells[0].Bytes
	lt := bytes.IndexByte(ref, '<')
	if lt < 0 {
		return d.bodyErr(0, lexer.InvalidEdgeSyntax, "edge line is missing the < separator")
	}
	if ref[0] != '@' || lt+1 >= len(ref) || ref[lt+1] != '@' {
		return d.bodyErr(0, lexer.InvalidEdgeSyntax, "an edge line is @target<@source type [status]")
	}
	tgt, ok1 := parseID(ref[1:lt])
	src, ok2 := parseID(ref[lt+2:])
	if !ok1 || !ok2 {
		return d.bodyErr(0, lexer.InvalidSymbolID, "edge ids must be decimal integers")
	}
	if !d.declared(tgt) {
		return d.bodyErr(1, lexer.UnknownEdgeReference, "edge target @"+strconv.FormatInt(tgt, 10)+" is not a declared symbol")
	}
	if !d.declared(src) {
		return d.bodyErr(lt+2, lexer.UnknownEdgeReference, "edge source @"+strconv.FormatInt(src, 10)+" is not a declared symbol")
	}
	// The status is any token of the name rule, as the reference SDKs read
	// it (docs/spec-notes.md): added and removed are only the common ones.
	if !clean {
		if err := d.checkNames(lexer.InvalidEdgeSyntax, "an edge type", 1); err != nil {
			return err
		}
		if len(d.cells) == 3 {
			if err := d.checkNames(lexer.InvalidEdgeSyntax, "an edge status", 2); err != nil {
				return err
			}
		}
	}
	d.g.edges++
	typ := d.cells[1]
	status, hasStatus := lexer.Scalar{}, len(d.cells) == 3
	if hasStatus {
		status = d.cells[2]
	}
	base := 2 * d.level
	d.cells = append(d.cells[:0],
		lexer.Scalar{Kind: lexer.KindInt, Int: tgt, Bytes: ref[1:lt], Col: base + 2},
		lexer.Scalar{Kind: lexer.KindInt, Int: src, Bytes: ref[lt+2:], Col: base + lt + 3},
		typ)
	if hasStatus {
		d.cells = append(d.cells, status)
	}
	d.lightEvent(KindEdge, -1, d.lineOff+int64(2*d.level))
	return nil
}

// graphRemoved parses a delta `kind qname` line (SPEC §10.1).
func (d *Decoder) graphRemoved(b []byte) error {
	ok, clean := d.fields(b, 0, 2)
	if !ok || len(d.cells) != 2 || !lexer.IsBareKey(string(d.cells[0].Bytes)) {
		return d.bodyErr(0, lexer.MalformedDelta, "## removed lines are kind qname")
	}
	if !clean {
		if err := d.checkNames(lexer.MalformedDelta, "a qualified name", 1); err != nil {
			return err
		}
	}
	d.ev = Event{Kind: KindRemoved, ID: -1, Field: -1, Cells: d.cells, Line: d.lineNo}
	return nil
}

// graphDeltaEdge parses a delta `source -> target type` line (SPEC §10.1).
func (d *Decoder) graphDeltaEdge(b []byte) error {
	ok, clean := d.fields(b, 0, 4)
	if !ok || len(d.cells) != 4 || string(d.cells[1].Bytes) != "->" {
		return d.bodyErr(0, lexer.MalformedDelta, "delta edge lines are source -> target type")
	}
	if !clean {
		if err := d.checkNames(lexer.MalformedDelta, "a qualified name or edge type", 0, 2, 3); err != nil {
			return err
		}
	}
	d.cells[1] = d.cells[2]
	d.cells[2] = d.cells[3]
	d.cells = d.cells[:3]
	d.ev = Event{Kind: KindDeltaEdge, ID: -1, Field: -1, Cells: d.cells, Line: d.lineNo}
	return nil
}

// fastEdge decodes the common edge line `@T<@S type` (single spaces,
// plain ASCII, both ids declared, no status) without splitting it into
// fields first. It reports false, having changed nothing, for any other
// line; graphEdge then takes the general path, which also explains errors.
func (d *Decoder) fastEdge(b []byte) bool {
	n := len(b)
	if n < 7 || b[0] != '@' {
		return false
	}
	i := 1
	var tgt int64
	for ; i < n && b[i] >= '0' && b[i] <= '9'; i++ {
		tgt = tgt*10 + int64(b[i]-'0')
	}
	if i == 1 || i > 19 || i+2 >= n || b[i] != '<' || b[i+1] != '@' {
		return false
	}
	lt := i
	i += 2
	j := i
	var src int64
	for ; i < n && b[i] >= '0' && b[i] <= '9'; i++ {
		src = src*10 + int64(b[i]-'0')
	}
	if i == j || i-j > 18 || i+1 >= n || b[i] != ' ' {
		return false
	}
	typ := b[i+1:]
	if d.plain && n >= 8 {
		// Every byte is 0x20-0x7E: only a space can end the type early.
		k := i + 1
		for ; k+8 <= n; k += 8 {
			if zeroByte(binary.LittleEndian.Uint64(b[k:])^(' '*ones)) != 0 {
				return false // a status or more fields
			}
		}
		// The last bytes, read as the line's last word shifted down: the
		// bytes shifted in are zeros, which are not spaces.
		if k < n && zeroByte(binary.LittleEndian.Uint64(b[n-8:])>>(8*(k+8-n))^(' '*ones)) != 0 {
			return false
		}
	} else {
		for _, c := range typ {
			if c <= ' ' || c > 0x7E {
				return false // a status, more fields, or bytes the general path must judge
			}
		}
	}
	if !d.declared(tgt) || !d.declared(src) {
		return false
	}
	d.g.edges++
	base := 2 * d.level
	if cap(d.cells) < 3 {
		d.cells = make([]lexer.Scalar, 0, 8)
	}
	d.cells = d.cells[:3]
	setCell(&d.cells[0], lexer.KindInt, tgt, b[1:lt], base+2)
	setCell(&d.cells[1], lexer.KindInt, src, b[j:i], base+j+1)
	setCell(&d.cells[2], lexer.KindString, 0, typ, base+i+2)
	d.lightEvent(KindEdge, -1, d.lineOff+int64(base))
	return true
}

// lightEvent makes ev an event of kind k (KindSymbol or KindEdge) carrying
// only ID, Cells, Line and Offset. Every event of those kinds has this
// shape, so when ev already is one only those fields are rewritten.
func (d *Decoder) lightEvent(k Kind, id int64, off int64) {
	if d.ev.Kind == k {
		d.ev.ID, d.ev.Cells, d.ev.Line, d.ev.Offset = id, d.cells, d.lineNo, off
		return
	}
	d.ev = Event{Kind: k, ID: id, Field: -1, Cells: d.cells, Line: d.lineNo, Offset: off}
}

// appendCell appends a cell, writing its fields one by one.
func appendCell(cells []lexer.Scalar, k lexer.Kind, t []byte, col int) []lexer.Scalar {
	if len(cells) < cap(cells) {
		cells = cells[:len(cells)+1]
	} else {
		cells = append(cells, lexer.Scalar{})
	}
	setCell(&cells[len(cells)-1], k, 0, t, col)
	return cells
}
