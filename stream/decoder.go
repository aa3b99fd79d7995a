// Package stream is GCF's pull decoder: Decoder.Next returns one Event at a
// time and validates structure, indentation, counts and limits as it goes
// (SPEC §4, §7, §8, §13, §16.5). It reads through its own buffer, so memory
// is bounded by the longest line and the nesting depth, not by the payload.
//
// The decoder is a stack of frames, one per open container. Each call to
// Next looks at the current line (read lazily and kept until a frame
// consumes it) and lets the innermost frame either consume it, producing an
// event, or close itself, producing an end event and leaving the line for
// its parent. Steady-state rows make no allocation: cells, scratch text and
// frames are reused.
package stream

import (
	"bytes"
	"io"
	"strconv"

	"github.com/gcfkit/gcf/lexer"
)

type frameKind uint8

const (
	fObject   frameKind = iota + 1 // members at indent
	fTable                         // tabular or keyed rows at indent
	fExpanded                      // @N items at indent
	fClosed                        // a container with no body left: closes on the next call
)

// after records what an object's last member was, to explain a line that
// fits nowhere (a surplus row is a count mismatch, not a syntax error).
type after uint8

const (
	afterNothing after = iota
	afterCounted       // a counted array or keyed block
	afterInline        // a counted block whose rows used inline schemas
)

const (
	markNone   = 0
	markBare   = 1 // ^
	markSchema = 2 // ^{fields}
)

type frame struct {
	kind     frameKind
	indent   int
	count    int64 // declared count, or lexer.Deferred
	seen     int64
	deferred int // index in Decoder.deferred, or -1
	endKind  Kind
	line     int // line of the opening header

	// objects and keyed maps
	keys  keySet
	after after

	// tables
	keyed      bool
	fieldData  []byte
	fieldEnds  []int
	decl       [][]byte // every declared name, in declaration order
	fields     [][]byte // the row columns: decl without constants and the group column
	ownDecl    [][]byte // the frame's own storage of decl, while decl is a shared schema
	sharedUse  bool     // decl and fields are the parent's shared schema (read-only)
	rowCols    [][]byte // storage of fields when it differs from decl
	consts     []Const  // constants and the grouping column (v3.6.0 §7.4.7, §7.4.8)
	constData  []byte   // the text of the constants' values
	bareAt     []int    // per row column: its index in decl (nil when decl is fields)
	full       []lexer.Scalar
	group      int   // index in consts of the grouping column, or -1
	groupKey   int   // row column of the @ key of a grouped table, or -1
	groupLeft  int64 // rows left in the current group
	groupVal   []byte
	groups     keySet              // group values seen
	groupKeys  keySet              // key values seen
	inlineDecl [][][]byte          // per field: inline object schema, if established
	sharedDecl [][][]byte          // per column: shared array schema, if established
	sharedName map[string][][]byte // the same for `>`-named (non-column) attachments
	hadInline  bool
	hadMarkers bool // markers/matched may hold stale entries

	// idCol is the column of the `@` identity field of a keyed set
	// (SPEC §10a.1), or -1
	idCol int

	// the current row of a table and its attachments
	rowActive bool
	rowLine   int
	markers   []uint8
	matched   []bool
	unmatched int    // marker cells of the row still waiting for their attachment
	extra     keySet // names of `>` attachments in the row
}

// Decoder reads a GCF payload one event at a time. It is not safe for
// concurrent use.
type Decoder struct {
	lr     lineReader
	limits Limits

	// the current line
	have  bool // a line is loaded and not yet consumed
	atEOF bool
	raw   []byte // the header state's line, CR removed (body lines leave it)
	body  []byte // the line after its indentation
	level int    // indentation level
	ctl   bool   // the line may hold a control character (lexer.CheckLine)
	plain bool   // the line is printable ASCII without '"' (lexer.CheckLineClass)
	// unchecked: AtRow loaded the line as a table's row without its class
	// check (ctl and plain are not set): checkLine runs it before any other
	// use, and a consumer that scans the row itself checks its bytes.
	unchecked bool
	lazy      bool // AtRow's load: leave the line unchecked
	lineNo    int
	lineOff   int64
	// the last line read that is not blank (comments count), where an
	// error found at the end of input points
	lastContent    int
	lastContentOff int64

	scratch []byte
	cells   []lexer.Scalar
	hdrKeys [][]byte
	ents    []lexer.DeclEntry
	idBuf   []byte
	// expand makes row events carry every declared column (SetExpand)
	expand bool

	stack    []frame
	depth    int // number of frames in use
	deferred []int64
	// unverified counts the `[?]` sections opened; summarized records that
	// a `##! summary` trailer has checked them.
	unverified int64
	summarized bool
	state      rootState
	rootKind   rootKind
	err        error
	profile    string
	g          graphState
	v1         v1State
	wire       Wire       // the wire version read (WireV3 unless SetWire chose another)
	k          keyedState // generic keyed sets and deltas (SPEC §10a)
	ev         Event      // the event being produced; Next returns a copy
	rowFrame   *frame     // the table whose row ev holds, when ev.Kind is KindRow

	// the row scanRow read last: its line, input offset (after the
	// indentation), id and table (ReadRow, RowEvent)
	rowLineNo int
	rowOff    int64
	rowID     int64
	rowTable  *frame
}

type rootState uint8

const (
	stHeader rootState = iota
	stBody
	stAfterRoot
	stAfterSummary
	stEnded
	stEOF
)

type rootKind uint8

const (
	rootObject rootKind = iota
	rootScalar
	rootCounted
)

// NewDecoder returns a decoder reading from r with the given limits (zero
// fields take their defaults).
func NewDecoder(r io.Reader, limits Limits) *Decoder {
	d := &Decoder{}
	d.limits = limits.Resolved()
	d.resetState()
	d.lr.reset(r, d.limits.MaxLineBytes, d.limits.MaxBytes)
	return d
}

// NewBytesDecoder returns a decoder reading data in place, without copying it.
func NewBytesDecoder(data []byte, limits Limits) *Decoder {
	d := &Decoder{}
	d.ResetBytes(data, limits)
	return d
}

// Reset makes d read from r as if newly created, keeping its buffers.
func (d *Decoder) Reset(r io.Reader) {
	d.resetState()
	d.lr.reset(r, d.limits.MaxLineBytes, d.limits.MaxBytes)
}

// ResetBytes makes d read data in place, keeping its buffers.
func (d *Decoder) ResetBytes(data []byte, limits Limits) {
	d.limits = limits.Resolved()
	d.resetState()
	d.lr.resetBytes(data, d.limits.MaxLineBytes, d.limits.MaxBytes)
	if d.limits.MaxBytes > 0 && int64(len(data)) > d.limits.MaxBytes {
		d.err = &lexer.SyntaxError{Line: 1, Column: 1, Offset: d.limits.MaxBytes, Category: lexer.PayloadTooLarge,
			Msg: "payload exceeds the total size limit"}
	}
}

func (d *Decoder) resetState() {
	d.have, d.atEOF = false, false
	d.depth = 0
	d.deferred = d.deferred[:0]
	d.unverified, d.summarized = 0, false
	d.state = stHeader
	d.rootKind = rootObject
	d.err = nil
	d.profile = ""
	d.lineNo, d.lineOff = 0, 0
	d.lastContent, d.lastContentOff = 0, 0
	d.g.reset()
	d.k.reset()
}

// SetExpand chooses how rows of a table with constant columns (v3.6.0
// §7.4.7) or a grouping column (§7.4.8) are reported. Off (the default), a
// row event carries only the row's own cells and the table start event's
// Consts the rest, with a KindGroup event per group subheader. On, each row
// event carries every declared column in declaration order, constants and
// the group's value included, as if the table were written without them
// (Fields is the whole declaration and an attachment's Field indexes it),
// and no KindGroup event is produced: consumers that build records need
// no v3.6 logic, at the cost of copying the row's cells once per row.
// Set it before the first Next; a table opened before a change keeps the
// form it was opened with.
func (d *Decoder) SetExpand(on bool) { d.expand = on }

// Line returns the 1-based number of the line most recently read.
func (d *Decoder) Line() int { return d.lineNo }

// InputOffset returns the input offset of the start of the line most recently read.
func (d *Decoder) InputOffset() int64 { return d.lineOff }

// Profile returns the header's profile once the header has been read.
func (d *Decoder) Profile() string { return d.profile }

// Next returns the next event. At the end of a valid payload it returns a
// KindEnd event and then io.EOF (never wrapped). After an error it keeps
// returning the same error, a *lexer.SyntaxError carrying the position.
func (d *Decoder) Next() (Event, error) {
	if d.err != nil {
		return Event{}, d.err
	}
	if err := d.step(); err != nil {
		if err != io.EOF {
			d.err = err
		} else {
			d.state = stEOF
		}
		return Event{}, err
	}
	return d.ev, nil
}

// Read is Next without the copy: it returns a pointer to the decoder's own
// event, which the next call to Read or Next overwrites.
func (d *Decoder) Read() (*Event, error) {
	if d.err != nil {
		return nil, d.err
	}
	if err := d.step(); err != nil {
		if err != io.EOF {
			d.err = err
		} else {
			d.state = stEOF
		}
		return nil, err
	}
	return &d.ev, nil
}

// load makes the next significant line current (skipping blank and comment
// lines). It sets atEOF at the end of input.
func (d *Decoder) load() error {
	if d.have || d.atEOF {
		if d.unchecked {
			return d.checkLine()
		}
		return nil
	}
	// With lazy (AtRow, in a table) a line kept is left unchecked.
	lazy := d.lazy
	for {
		// The usual line (buffered, printable ASCII) is found and checked
		// in one pass; any other takes next and the class check.
		var line []byte
		if !lazy {
			if l, plain, ok := d.lr.nextClean(); ok {
				line = l
				d.lineNo = d.lr.lineNo
				d.lineOff = d.lr.lineOff
				// Table rows (fastCells) and graph lines (fields) use the
				// plain-line answer.
				d.ctl, d.plain = false, plain
				goto read
			}
		}
		{
			var err error
			line, err = d.lr.next()
			if err == io.EOF {
				d.atEOF, d.unchecked = true, false
				d.lineNo = d.lr.lineNo
				return nil
			}
			if err != nil {
				return err
			}
		}
		d.lineNo = d.lr.lineNo
		d.lineOff = d.lr.lineOff
		// Only a table's rows use the plain-line answer (fastCells): other
		// lines (graph lines, members) take the cheaper check.
		if !lazy {
			var ctl, plain bool
			var bad *lexer.SyntaxError
			if d.depth > 0 && d.stack[d.depth-1].kind == fTable {
				ctl, plain, bad = lexer.CheckLineClass(line)
			} else {
				ctl, bad = lexer.CheckLine(line)
			}
			if bad != nil {
				return d.wrap(bad, 0)
			}
			d.ctl, d.plain = ctl, plain
		}
	read:
		// Trailing whitespace on a line is no error (SPEC §16.5 and
		// SPEC-v1.1 §12.5: decoders MAY warn, without rejecting); a bare
		// value's trailing blanks are structural anyway (§4.2).
		line = lexer.TrimTrailingBlanks(line)
		if d.state == stHeader {
			// The first line is the header as it stands: blank lines are
			// ignored only after it (SPEC §3, §4.2, §16.5 missing_header).
			d.lastContent, d.lastContentOff = d.lineNo, d.lineOff
			d.raw, d.body, d.level = line, line, 0
			d.have = true
			return nil
		}
		// indentation
		n := 0
		for n < len(line) && line[n] == ' ' {
			n++
		}
		if n < len(line) && line[n] == '\t' {
			rest := line[n:]
			if len(bytes.Trim(rest, " \t")) == 0 {
				continue // a blank line of whitespace
			}
			if err := d.checkSkipped(lazy, line); err != nil {
				return err
			}
			return d.errAt(n+1, lexer.TabIndentation, "tab character in indentation")
		}
		body := line[n:]
		if len(body) == 0 {
			continue // blank line
		}
		if body[0] == '#' && (len(body) == 1 || body[1] == ' ') {
			if err := d.checkSkipped(lazy, line); err != nil {
				return err
			}
			continue // comment (SPEC §11)
		}
		d.lastContent, d.lastContentOff = d.lineNo, d.lineOff
		if n%2 != 0 {
			if err := d.checkSkipped(lazy, line); err != nil {
				return err
			}
			return d.errAt(n+1, lexer.InvalidIndent, "indentation must be a multiple of two spaces")
		}
		// d.raw is read only for the header state's line: a body line
		// leaves it (one pointer write less per line).
		d.body, d.level = body, n/2
		d.have, d.unchecked = true, lazy
		if cap(d.scratch) < len(line) {
			d.scratch = make([]byte, 0, 2*len(line)+64)
		}
		return nil
	}
}

// checkLine runs the class check of a line AtRow loaded unchecked, on its
// body: the indentation is spaces and the trimmed blanks are spaces and
// tabs, so the check finds the line's first bad byte and the line's
// answer (a trailing tab's control is never read: no token holds it).
func (d *Decoder) checkLine() error {
	ctl, plain, bad := lexer.CheckLineClass(d.body)
	if bad != nil {
		return d.wrap(bad, 2*d.level)
	}
	d.ctl, d.plain, d.unchecked = ctl, plain, false
	return nil
}

// checkSkipped runs the class check on a line that a lazy load does not
// keep (a comment, an indentation error), so that it fails as a checked
// load does.
func (d *Decoder) checkSkipped(lazy bool, line []byte) error {
	if lazy {
		if _, _, bad := lexer.CheckLineClass(line); bad != nil {
			return d.wrap(bad, 0)
		}
	}
	return nil
}

// scanInto scans a scalar of the current line (lexer.ScanInto), checking
// its tokens for control characters only when the line may hold one.
func (d *Decoder) scanInto(dst *lexer.Scalar, b []byte, pos int, delim byte) (int, *lexer.SyntaxError) {
	if d.ctl {
		return lexer.ScanInto(dst, b, pos, delim, &d.scratch)
	}
	return lexer.ScanCleanInto(dst, b, pos, delim, &d.scratch)
}

func (d *Decoder) scanScalar(b []byte, pos int, delim byte) (lexer.Scalar, int, *lexer.SyntaxError) {
	var s lexer.Scalar
	end, err := d.scanInto(&s, b, pos, delim)
	return s, end, err
}

// consume marks the current line as used and resets per-line buffers.
func (d *Decoder) consume() {
	d.have = false
}

func (d *Decoder) beginLine() {
	d.scratch = d.scratch[:0]
	d.cells = d.cells[:0]
}

// errAt reports an error at a 1-based byte column of the current line.
func (d *Decoder) errAt(col int, c lexer.Category, msg string) error {
	return &lexer.SyntaxError{Line: d.lineNo, Column: col, Offset: d.lineOff + int64(col-1), Category: c, Msg: msg}
}

// bodyErr reports an error at an offset within the line's body.
func (d *Decoder) bodyErr(pos int, c lexer.Category, msg string) error {
	return d.errAt(2*d.level+pos+1, c, msg)
}

// wrap positions a lexer error whose Column is relative to the body start
// plus base.
func (d *Decoder) wrap(e *lexer.SyntaxError, base int) error {
	col := e.Column + base
	if col < 1 {
		col = 1
	}
	e.Line = d.lineNo
	e.Column = col
	e.Offset = d.lineOff + int64(col-1)
	return e
}

func (d *Decoder) lexErr(e *lexer.SyntaxError) error { return d.wrap(e, 2*d.level) }

// endErr reports an error found where a section ends: at column 1 of the
// current line, or at the end of input of the last line that is neither
// blank nor a comment, so that it never names a line past the input.
func (d *Decoder) endErr(c lexer.Category, msg string) error {
	if d.atEOF {
		return &lexer.SyntaxError{Line: d.lastContent, Column: 1, Offset: d.lastContentOff, Category: c, Msg: msg}
	}
	return &lexer.SyntaxError{Line: d.lineNo, Column: 1, Offset: d.lineOff, Category: c, Msg: msg}
}

// eofErr reports an error found at the end of input: at column 1 of the
// last line that is neither blank nor a comment (line 1 of an empty input),
// never past the input.
func (d *Decoder) eofErr(c lexer.Category, msg string) error {
	if d.lastContent == 0 {
		return &lexer.SyntaxError{Line: 1, Column: 1, Category: c, Msg: msg}
	}
	return &lexer.SyntaxError{Line: d.lastContent, Column: 1, Offset: d.lastContentOff, Category: c, Msg: msg}
}

func (d *Decoder) step() error {
	for {
		if err := d.load(); err != nil {
			return err
		}
		switch d.state {
		case stHeader:
			return d.header()
		case stEnded, stEOF:
			return io.EOF
		case stAfterSummary:
			if d.atEOF {
				return d.end()
			}
			return d.bodyErr(0, lexer.InvalidSummary, "content after the ##! summary trailer")
		}
		if d.wire == WireV1 && d.profile == "generic" {
			return d.v1Step()
		}
		if d.depth > 0 {
			done, err := d.stepFrame()
			if err != nil || done {
				return err
			}
			continue
		}
		if d.profile == "graph" {
			return d.graphStep()
		}
		if d.state == stBody {
			return d.root()
		}
		// stAfterRoot
		if d.atEOF {
			return d.end()
		}
		if d.level == 0 && startsWith(d.body, "##!") {
			return d.summary()
		}
		switch d.rootKind {
		case rootCounted:
			return d.bodyErr(0, lexer.CountMismatch, "more items than the root container declares")
		case rootScalar:
			return d.bodyErr(0, lexer.InvalidLine, "content after the root scalar")
		}
		if d.level > 0 {
			return d.bodyErr(0, lexer.InvalidIndent, "unexpected indentation")
		}
		return d.bodyErr(0, lexer.InvalidLine, "unexpected line after the root object")
	}
}

// header parses the first line (SPEC §3).
func (d *Decoder) header() error {
	if d.atEOF {
		if d.wire == WireV1 {
			return d.v1GenericStart() // an empty v1 generic payload: {}
		}
		return d.eofErr(lexer.MissingHeader, "empty input: the first line must be a GCF header")
	}
	d.beginLine()
	line := d.raw
	if startsWith(line, "\xEF\xBB\xBF") {
		return d.errAt(1, lexer.MissingHeader, "input starts with a UTF-8 byte order mark (EF BB BF); GCF payloads have none, remove it")
	}
	if !startsWith(line, "GCF") || (len(line) > 3 && line[3] != ' ') {
		if d.wire == WireV1 {
			return d.v1GenericStart()
		}
		return d.errAt(1, lexer.MissingHeader, "the first line must begin with GCF")
	}
	d.hdrKeys = d.hdrKeys[:0]
	var profile []byte
	profileCol := 0
	pos := 3
	for pos < len(line) {
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
		if eq <= 0 || eq == len(pair)-1 || !lexer.IsBareKey(string(pair[:eq])) {
			return d.errAt(pos+1, lexer.MalformedHeaderField, "header field "+lexer.Quote(pair)+" is not key=value")
		}
		key, val := pair[:eq], pair[eq+1:]
		if i := headerControlAt(val); i >= 0 {
			return d.errAt(pos+eq+2+i, lexer.MalformedHeaderField, "header field "+lexer.Excerpt(key)+" holds a control character; header values are printable (SPEC §4 header-value)")
		}
		for _, k := range d.hdrKeys {
			if bytes.Equal(k, key) {
				return d.errAt(pos+1, lexer.DuplicateHeaderField, "duplicate header field "+lexer.Excerpt(key))
			}
		}
		d.hdrKeys = append(d.hdrKeys, key)
		d.cells = append(d.cells, lexer.Scalar{Kind: lexer.KindString, Bytes: val, Col: pos + eq + 2})
		if string(key) == "profile" {
			profile, profileCol = val, pos+eq+2
		}
		if numericHeaderField(key) && outsideInt64(val) {
			return d.errAt(pos+eq+2, lexer.OutOfRange, "header field "+string(key)+"="+lexer.Excerpt(val)+
				" is outside the int64 range [-9223372036854775808, 9223372036854775807]")
		}
		if (d.wire == WireV1 || string(profile) == "graph") && graphCountField(key) && !isCountValue(val) {
			return d.errAt(pos+eq+2, lexer.MalformedHeaderField, "header field "+string(key)+"="+lexer.Excerpt(val)+
				" is not a non-negative integer (SPEC §3.2)")
		}
		d.g.headerField(key, val)
		pos = end
	}
	if d.wire == WireV1 {
		return d.v1Header(profile, profileCol)
	}
	if profile == nil {
		return d.errAt(1, lexer.MissingProfile, "the header has no profile= field: "+V1Hint)
	}
	if string(d.hdrKeys[0]) != "profile" {
		return d.errAt(1, lexer.MissingProfile, "profile= must be the header's first field (SPEC §3.1)")
	}
	switch string(profile) {
	case "generic":
		d.profile = "generic"
	case "graph":
		d.profile = "graph"
	default:
		return d.errAt(profileCol, lexer.UnknownProfile, "unknown profile "+lexer.Quote(profile)+" (want generic or graph)")
	}
	if d.profile == "generic" {
		if err := d.keyedHeader(); err != nil {
			return err
		}
	}
	d.consume()
	d.state = stBody
	d.ev = Event{Kind: KindHeader, Fields: d.hdrKeys, Cells: d.cells, Line: d.lineNo, Profile: d.profile, ID: -1, Field: -1}
	return nil
}

// numericHeaderField reports whether a header field holds an integer
// whose value must lie in int64: the graph counts, and the row count of a
// generic unchanged answer (SPEC §10a.4).
func numericHeaderField(key []byte) bool { return graphCountField(key) || string(key) == "count" }

// graphCountField reports whether a graph header field is a count
// (SPEC §3.2: budget, tokens, symbols, edges are non-negative integers).
func graphCountField(key []byte) bool {
	switch string(key) {
	case "symbols", "edges", "budget", "tokens":
		return true
	}
	return false
}

// isCountValue reports whether v is a non-negative integer literal
// (SPEC §2.3: no sign, no leading zero).
func isCountValue(v []byte) bool { return lexer.IsIntLiteral(v) && v[0] != '-' }

// outsideInt64 reports whether v is an integer literal (SPEC §2.3) whose
// value lies outside int64.
func outsideInt64(v []byte) bool {
	if !lexer.IsIntLiteral(v) {
		return false
	}
	_, ok := lexer.ParseInt(v)
	return !ok
}

// root parses the first body line and opens the root value (SPEC §7.1).
func (d *Decoder) root() error {
	d.state = stAfterRoot
	if d.atEOF || (d.level == 0 && startsWith(d.body, "##!")) {
		// empty root object
		d.push(fObject, 0, KindObjectEnd)
		d.ev = Event{Kind: KindObjectStart, Role: RoleRoot, Form: FormSection, ID: -1, Field: -1, Line: d.lineNo}
		return nil
	}
	if d.level != 0 {
		return d.bodyErr(0, lexer.InvalidIndent, "the root value must not be indented")
	}
	d.beginLine()
	b := d.body
	if d.k.delta && (b[0] == '=' || startsWith(b, "## [")) {
		return d.bodyErr(0, lexer.MalformedDelta, "a generic delta holds only ## added, ## changed and ## removed sections (SPEC §10a.2)")
	}
	if b[0] == '=' {
		s, end, err := d.scanScalar(b, 1, 0)
		if err != nil {
			return d.lexErr(err)
		}
		_ = end
		if err := d.checkPlain(s); err != nil {
			return err
		}
		d.rootKind = rootScalar
		d.consume()
		d.ev = Event{Kind: KindScalar, Role: RoleRoot, Value: s, ID: -1, Field: -1, Line: d.lineNo}
		return nil
	}
	if startsWith(b, "## [") {
		d.rootKind = rootCounted
		return d.container(3, RoleRoot, nil, -1, -1, 0, anyForm)
	}
	d.push(fObject, 0, KindObjectEnd)
	d.ev = Event{Kind: KindObjectStart, Role: RoleRoot, Form: FormSection, ID: -1, Field: -1, Line: d.lineNo}
	return nil
}

// push opens a frame whose content lines sit at indent.
func (d *Decoder) push(kind frameKind, indent int, endKind Kind) *frame {
	if d.depth >= d.limits.MaxDepth {
		d.err = d.bodyErr(0, lexer.DepthExceeded, "nesting exceeds the depth limit of "+strconv.Itoa(d.limits.MaxDepth))
		// Return a throwaway frame; Next reports d.err on the next call.
	}
	if d.depth == len(d.stack) {
		d.stack = append(d.stack, frame{})
	}
	f := &d.stack[d.depth]
	d.depth++
	f.kind = kind
	f.indent = indent
	f.count, f.seen = 0, 0
	f.deferred = -1
	f.endKind = endKind
	f.line = d.lineNo
	f.keys.reset()
	f.after = afterNothing
	f.keyed = false
	f.fieldData = f.fieldData[:0]
	f.fieldEnds = f.fieldEnds[:0]
	if f.sharedUse { // never write into the parent's shared schema
		f.decl, f.fields, f.ownDecl, f.sharedUse = f.ownDecl, f.ownDecl, nil, false
	}
	f.fields = f.fields[:0]
	f.decl = f.decl[:0]
	f.consts = f.consts[:0]
	f.constData = f.constData[:0]
	f.bareAt = f.bareAt[:0]
	f.full = f.full[:0]
	f.group, f.groupKey, f.groupLeft = -1, -1, 0
	f.inlineDecl = f.inlineDecl[:0]
	f.sharedDecl = f.sharedDecl[:0]
	if f.sharedName != nil {
		clear(f.sharedName)
	}
	f.hadInline = false
	f.idCol = -1
	f.hadMarkers = true // the slot may hold an earlier table's markers
	f.rowActive = false
	return f
}

func (d *Decoder) top() *frame { return &d.stack[d.depth-1] }

// pop closes the innermost frame, validating its count, and returns its end event.
func (d *Decoder) pop() error {
	f := d.top()
	if f.kind == fTable && f.rowActive {
		if err := d.finishRow(f); err != nil {
			return err
		}
	}
	if f.kind == fTable && f.groupLeft > 0 {
		return d.endErr(lexer.CountMismatch, "group "+lexer.Quote(f.consts[f.group].Value.Bytes)+" declares "+
			strconv.FormatInt(f.groupLeft, 10)+" more rows than it has (table opened on line "+strconv.Itoa(f.line)+")")
	}
	if f.kind == fTable || f.kind == fExpanded {
		if f.count >= 0 && f.seen != f.count {
			return d.countErr(f)
		}
		if f.deferred >= 0 {
			d.deferred[f.deferred] = f.seen
		}
	}
	kind := f.endKind
	counted := f.kind == fTable || f.kind == fExpanded
	inline := f.hadInline
	d.depth--
	if d.depth > 0 {
		p := d.top()
		if p.kind == fObject {
			p.after = afterNothing
			if counted {
				p.after = afterCounted
				if inline {
					p.after = afterInline
				}
			}
		}
	}
	d.ev = Event{Kind: kind, ID: -1, Field: -1}
	return nil
}

func (d *Decoder) countErr(f *frame) error {
	what := "items"
	if f.kind == fTable {
		what = "rows"
	}
	msg := "declared " + strconv.FormatInt(f.count, 10) + " " + what + " but found " + strconv.FormatInt(f.seen, 10) +
		" (section opened on line " + strconv.Itoa(f.line) + ")"
	return d.endErr(lexer.CountMismatch, msg)
}

// stepFrame lets the innermost frame handle the current line. done reports
// that ev is an event to return.
func (d *Decoder) stepFrame() (done bool, err error) {
	f := d.top()
	switch f.kind {
	case fClosed:
		return true, d.pop()
	case fObject:
		if d.atEOF || d.level < f.indent || (d.level == 0 && startsWith(d.body, "##!")) {
			return true, d.pop()
		}
		if d.level > f.indent {
			return false, d.bodyErr(0, lexer.InvalidIndent, "unexpected indentation increase")
		}
		return true, d.member(f)
	case fTable:
		if f.rowActive {
			handled, err := d.rowChild(f)
			if err != nil || handled {
				return true, err
			}
		}
		if d.atEOF || d.level < f.indent || (f.count >= 0 && f.seen == f.count) ||
			(d.level == f.indent && startsWith(d.body, "##")) {
			return true, d.pop()
		}
		if d.level > f.indent {
			return false, d.bodyErr(0, lexer.InvalidIndent, "unexpected indentation increase")
		}
		if f.group >= 0 && f.groupLeft == 0 {
			err := d.subheader(f)
			return err != nil || !d.expand, err
		}
		_, err := d.scanRow(f, true)
		return true, err
	case fExpanded:
		if d.atEOF || d.level < f.indent || (f.count >= 0 && f.seen == f.count) ||
			(d.level == f.indent && (d.body[0] != '@' || f.count < 0 && startsWith(d.body, "##"))) {
			return true, d.pop()
		}
		if d.level > f.indent {
			return false, d.bodyErr(0, lexer.InvalidIndent, "unexpected indentation increase")
		}
		return true, d.item(f)
	}
	panic("stream: unknown frame kind")
}

// checkPlain rejects tabular-only tokens outside tabular cells.
func (d *Decoder) checkPlain(s lexer.Scalar) error {
	switch s.Kind {
	case lexer.KindMissing:
		return d.bodyErr(s.Col-1, lexer.InvalidMissing, "~ (missing) is valid only in tabular row cells")
	case lexer.KindAttach, lexer.KindAttachSchema:
		return d.bodyErr(s.Col-1, lexer.InvalidAttachmentMarker, "attachment markers are valid only in tabular row cells")
	}
	return nil
}

// member parses one object member line (SPEC §7.2).
func (d *Decoder) member(f *frame) error {
	d.beginLine()
	b := d.body
	d.k.section = sectNone
	if d.k.delta && d.depth == 1 && !startsWith(b, "## ") {
		if f.after != afterNothing {
			return d.bodyErr(0, lexer.CountMismatch, "line after a counted delta section is not a section (more rows than declared?)")
		}
		return d.bodyErr(0, lexer.MalformedDelta, "a generic delta holds only ## added, ## changed and ## removed sections (SPEC §10a.2)")
	}
	if startsWith(b, "## ") {
		key, pos, err := lexer.ScanKey(b, 3, &d.scratch)
		if err != nil {
			return d.lexErr(err)
		}
		if d.k.delta && d.depth == 1 {
			if err := d.deltaSection(key, pos); err != nil {
				return err
			}
		}
		if !f.keys.add(key) {
			return d.bodyErr(3, lexer.DuplicateKey, "duplicate key "+lexer.Quote(key))
		}
		if f.seen++; f.seen > int64(d.limits.MaxElements) {
			return d.bodyErr(0, lexer.TooManyElements, "object exceeds the element limit")
		}
		if pos == len(b) {
			d.consume()
			d.push(fObject, f.indent+1, KindObjectEnd)
			d.ev = Event{Kind: KindObjectStart, Role: RoleMember, Form: FormSection, Key: key, ID: -1, Field: -1, Line: d.lineNo}
			return d.err
		}
		if b[pos] != ' ' || pos+1 >= len(b) || b[pos+1] != '[' {
			return d.bodyErr(pos, lexer.InvalidLine, "expected a count bracket after the section name")
		}
		return d.container(pos+1, RoleMember, key, -1, -1, f.indent, blockOnly)
	}
	if b[0] == '#' {
		return d.bodyErr(0, lexer.InvalidLine, "malformed section header")
	}
	key, pos, err := lexer.ScanKey(b, 0, &d.scratch)
	if err == nil && pos < len(b) && (b[pos] == '=' || b[pos] == '[') {
		if !f.keys.add(key) {
			return d.bodyErr(0, lexer.DuplicateKey, "duplicate key "+lexer.Quote(key))
		}
		if f.seen++; f.seen > int64(d.limits.MaxElements) {
			return d.bodyErr(0, lexer.TooManyElements, "object exceeds the element limit")
		}
		if b[pos] == '=' {
			s, _, err := d.scanScalar(b, pos+1, 0)
			if err != nil {
				return d.lexErr(err)
			}
			if err := d.checkPlain(s); err != nil {
				return err
			}
			d.consume()
			f.after = afterNothing
			d.ev = Event{Kind: KindScalar, Role: RoleMember, Key: key, Value: s, ID: -1, Field: -1, Line: d.lineNo}
			return nil
		}
		// named inline array key[N]: values
		return d.container(pos, RoleMember, key, -1, -1, f.indent, inlineOnly)
	}
	switch f.after {
	case afterInline:
		if bytes.IndexByte(b, '|') >= 0 || err != nil {
			return d.bodyErr(0, lexer.OrphanInlineAttachment, "positional inline body has no eligible attachment-marker cell")
		}
	case afterCounted:
		return d.bodyErr(0, lexer.CountMismatch, "line after a counted block is neither a member nor a declared item (more items than declared?)")
	}
	if err != nil && err.Category != lexer.InvalidLine {
		return d.lexErr(err)
	}
	return d.bodyErr(0, lexer.InvalidLine, "expected key=value, key[N]: values, or a ## section")
}

// container parses the count bracket at body[pos] and what follows it, and
// opens the container. indent is the indentation of the line's owner; the
// body of a table or expanded array sits at bodyIndent (owner indent for
// sections, +1 for items, +2 for attachments). allowInline permits `[N]:`.
func (d *Decoder) container(pos int, role Role, key []byte, id int64, field int, bodyIndent int, mode containerMode) error {
	b := d.body
	count, keyed, p, lerr := lexer.ScanCount(b, pos, int64(d.limits.MaxElements))
	if lerr != nil {
		return d.wrap(lerr, 2*d.level)
	}
	ev := Event{Role: role, Key: key, ID: id, Field: field, Count: count, Line: d.lineNo}
	// A table of the keyed set: the root array or a member of the root
	// object of a payload whose header names key= (SPEC §10a.1).
	top := d.k.key != nil && (role == RoleRoot || role == RoleMember && d.depth == 1)
	sect := d.k.section
	d.k.section = sectNone
	if sect != sectNone && (keyed || p >= len(b) || b[p] != '{') {
		return d.bodyErr(pos, lexer.MalformedDelta, "a delta section is a table [N]{fields} (SPEC §10a.2)")
	}
	if keyed && count == 0 {
		return d.bodyErr(pos, lexer.InvalidCount, "keyed map with zero count: an empty object is never [0:]")
	}
	switch {
	case p < len(b) && b[p] == ':':
		if keyed || mode == blockOnly {
			return d.bodyErr(p, lexer.InvalidLine, "inline values are not allowed here")
		}
		if count < 0 {
			return d.bodyErr(pos, lexer.InvalidCount, "an inline array needs an exact count")
		}
		p++
		if p < len(b) {
			if b[p] != ' ' {
				return d.bodyErr(p, lexer.InvalidLine, "expected a space after ':'")
			}
			for {
				s, end, err := d.scanScalar(b, p+1, ',')
				if err != nil {
					return d.lexErr(err)
				}
				if err := d.checkPlain(s); err != nil {
					return err
				}
				d.cells = append(d.cells, s)
				if len(d.cells) > d.limits.MaxElements {
					return d.bodyErr(p, lexer.TooManyElements, "inline array exceeds the element limit")
				}
				if end >= len(b) {
					break
				}
				p = end
			}
		}
		if int64(len(d.cells)) != count {
			return d.bodyErr(pos, lexer.CountMismatch, "inline array declares "+strconv.FormatInt(count, 10)+
				" values but has "+strconv.Itoa(len(d.cells)))
		}
		d.consume()
		ev.Kind, ev.Form, ev.Cells = KindArrayStart, FormInline, d.cells
		d.push(fClosed, 0, KindArrayEnd)
		d.ev = ev
		return d.err
	case mode == inlineOnly:
		return d.bodyErr(p, lexer.InvalidLine, "expected ':' after the count of a named inline array")
	case p < len(b) && b[p] == '{':
		var fr *frame
		if keyed {
			fr = d.push(fTable, bodyIndent, KindObjectEnd)
			fr.keyed = true
			ev.Kind, ev.Form = KindObjectStart, FormKeyed
		} else if count == 0 {
			// `[0]{...}`: an empty array with a vacuous declaration.
			fr = d.push(fClosed, 0, KindArrayEnd)
			ev.Kind, ev.Form = KindArrayStart, FormEmpty
		} else {
			fr = d.push(fTable, bodyIndent, KindArrayEnd)
			ev.Kind, ev.Form = KindArrayStart, FormTabular
		}
		end, err := d.fieldDecl(fr, p, top, sect, count)
		if err != nil {
			return err
		}
		if end != len(b) {
			return d.bodyErr(end, lexer.InvalidLine, "unexpected text after the field declaration")
		}
		if keyed && len(fr.decl) < 2 {
			return d.bodyErr(p, lexer.InvalidKeyedMap, "a keyed map header must declare at least two fields (the key column and a value field)")
		}
		fr.count = count
		d.deferSection(fr)
		ev.Fields, ev.Consts = fr.decl, fr.consts
		d.consume()
		d.ev = ev
		return d.err
	case p == len(b):
		if keyed {
			return d.bodyErr(p, lexer.InvalidLine, "a keyed map header needs a field declaration")
		}
		ev.Kind = KindArrayStart
		if count == 0 {
			ev.Form = FormEmpty
			d.consume()
			d.push(fClosed, 0, KindArrayEnd)
			d.ev = ev
			return d.err
		}
		if role == RoleAttachment {
			parent := &d.stack[d.depth-1]
			if decl := parent.shared(field, key); decl != nil {
				fr := d.push(fTable, bodyIndent, KindArrayEnd)
				// The shared schema is a copy no one writes (setShared):
				// the frame reads its names in place, keeping its own
				// storage for the next push.
				fr.ownDecl, fr.sharedUse = fr.decl, true
				fr.decl, fr.fields = decl, decl
				fr.count = count
				d.deferSection(fr)
				ev.Form, ev.Fields = FormTabular, fr.decl
				d.consume()
				d.ev = ev
				return d.err
			}
		}
		fr := d.push(fExpanded, bodyIndent, KindArrayEnd)
		fr.count = count
		d.deferSection(fr)
		ev.Form = FormExpanded
		d.consume()
		d.ev = ev
		return d.err
	}
	return d.bodyErr(p, lexer.InvalidLine, "unexpected text after the count bracket")
}

// end produces the KindEnd event. Its Count is the number of `[?]`
// sections whose counts no `##! summary` trailer confirmed: SPEC §8.6 has
// decoders accept such a payload (with a warning), unless the caller asks
// for the trailer, in which case it is an error, the mark of a stream cut
// off before its end.
func (d *Decoder) end() error {
	unverified := int64(0)
	if !d.summarized {
		unverified = d.unverified
	}
	if unverified > 0 && d.limits.RequireSummary {
		return d.eofErr(lexer.UnexpectedEOF, "the payload ends without the ##! summary trailer that its "+
			strconv.FormatInt(unverified, 10)+" [?] section(s) need: truncated?")
	}
	d.state = stEnded
	d.ev = Event{Kind: KindEnd, ID: -1, Field: -1, Line: d.lineNo, Count: unverified}
	return nil
}

func (d *Decoder) deferSection(f *frame) {
	if f.count == lexer.Deferred {
		d.unverified++
		f.deferred = len(d.deferred)
		d.deferred = append(d.deferred, 0)
	}
}

// startsWith reports whether b begins with p. With p a constant, the
// comparison compiles to a few loads rather than a call.
func startsWith(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// headerControlAt returns the index of the first control character (C0,
// TAB included, DEL or C1) in a header value, or -1.
func headerControlAt(v []byte) int {
	for i, r := range string(v) {
		if r < 0x20 || r == 0x7F || r >= 0x80 && r <= 0x9F {
			return i
		}
	}
	return -1
}
