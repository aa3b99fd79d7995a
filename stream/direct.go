package stream

import (
	"bytes"

	"github.com/gcfkit/gcf/lexer"
)

// The direct row path: a consumer that fills its own values from a table's
// cells (the typed decoder) reads each row with ReadRow, without an event,
// and falls back to Read for everything else (attachments, the table's end,
// group subheaders). Both paths run the same checks in the same order
// (stepFrame's for a table frame, scanRow's for the row), so a payload
// decodes and fails the same way whichever the consumer calls.

// AtRow reports whether the next line is a row of the innermost table,
// which ReadRow would read: the table is tabular (not keyed, without
// constant or grouping columns, not a keyed set's), its current row (if
// any) has no attachment or inline body left, and the line sits at the
// table's indentation, is not a `##` line and falls within the declared
// count. It returns false, leaving the line for Read, when anything else
// may follow (a line it loaded is left without its class check, which
// Read's load runs first); an error is the one Read would report there
// (a marker left without its attachment).
func (d *Decoder) AtRow() (bool, error) {
	if d.err != nil {
		return false, d.err
	}
	if d.depth == 0 || d.state != stAfterRoot || d.wire == WireV1 {
		return false, nil
	}
	f := &d.stack[d.depth-1]
	if f.kind != fTable || f.keyed || f.group >= 0 || f.idCol >= 0 || len(f.consts) > 0 {
		return false, nil
	}
	if !d.have && !d.atEOF {
		// The line is loaded without its class check: a row's consumer
		// checks its bytes (RawRow) or ReadRow does; anything else runs
		// the check here first, so errors come in the order Read gives.
		d.lazy = true
		err := d.load()
		d.lazy = false
		if err != nil {
			d.err = err
			return false, err
		}
	}
	if d.atEOF || d.level != f.indent || (f.count >= 0 && f.seen == f.count) || startsWith(d.body, "##") ||
		f.rowActive && (d.body[0] == '.' || f.nextEligible() >= 0) { // stepFrame's rowChild
		// Not a row: the line stays unchecked for its next use (Read,
		// whose load checks it first; SharedAttachment and EndRows, which
		// read only bytes they account for).
		return false, nil
	}
	if f.rowActive {
		if err := d.finishRow(f); err != nil {
			if cerr := d.checked(); cerr != nil {
				return false, cerr
			}
			d.err = err
			return false, err
		}
	}
	return true, nil
}

// checked runs the class check of a line loaded unchecked, recording its
// error.
func (d *Decoder) checked() error {
	if !d.unchecked {
		return nil
	}
	if err := d.checkLine(); err != nil {
		d.err = err
		return err
	}
	return nil
}

// ReadRow reads the next line as a row of the innermost table when AtRow
// reports it is one, and returns its cells (borrowed until the next call
// to Read, Next or ReadRow) with ok true; RowID and RowEvent describe the
// row. With ok false nothing was read: the line is left for Read.
func (d *Decoder) ReadRow() (cells []lexer.Scalar, ok bool, err error) {
	if ok, err := d.AtRow(); !ok {
		return nil, false, err
	}
	if err := d.checked(); err != nil {
		return nil, false, err
	}
	f := &d.stack[d.depth-1]
	id, err := d.scanRow(f, false)
	if err != nil {
		d.err = err
		return nil, false, err
	}
	d.rowID, d.rowTable = id, f
	return d.cells, true, nil
}

// RowPos returns the line and the input offset (of its first byte after
// the indentation) of the row ReadRow read last.
func (d *Decoder) RowPos() (line int, offset int64) { return d.rowLineNo, d.rowOff }

// RowEvent returns the event Read would have returned for the row ReadRow
// read last; it must be called before the next Read, Next or ReadRow.
func (d *Decoder) RowEvent() *Event {
	d.rowEvent(d.rowTable, d.rowID)
	return &d.ev
}

// RawRow returns the body of the next line (after its indentation) when
// AtRow reports it is a row of the innermost table, and whether the line
// may be plain (printable ASCII without a quote, lexer.CheckLineClass):
// plain false means it is not; plain true that the caller may scan it as
// plain provided it finds every byte of body printable ASCII other than
// '"' (the line may not be checked yet). It reads nothing: the caller
// scans the cells itself and either takes the line with CommitRow or
// leaves it to ReadRow or Read, which check it and report its errors.
func (d *Decoder) RawRow() (body []byte, plain, ok bool, err error) {
	if ok, err := d.AtRow(); !ok {
		return nil, false, false, err
	}
	return d.body, d.plain || d.unchecked, true, nil
}

// CommitRow takes the line RawRow returned as the table's next row, which
// the caller found to be plain (every byte printable ASCII but '"') and to
// hold n cells that the row scanner's plain path
// (fastCells) reads without error, with the id id (-1 without an `@N `
// prefix) and bare `^` markers in the columns of the bits of marks (no
// `^{...}`). It runs the row's remaining checks and reports false, taking
// nothing, when one fails or needs the general path: ReadRow or Read then
// reads the line and reports the error.
func (d *Decoder) CommitRow(n int, id int64, marks uint64) bool {
	f := &d.stack[d.depth-1]
	if n != len(f.fields) || id >= 0 && id != f.seen || id < 0 && marks != 0 ||
		f.seen >= int64(d.limits.MaxElements) || n > 64 && marks != 0 {
		return false
	}
	if len(f.markers) != n {
		if cap(f.markers) < n {
			f.markers = make([]uint8, n)
			f.matched = make([]bool, n)
		}
		f.markers, f.matched = f.markers[:n], f.matched[:n]
	}
	f.unmatched = 0
	if marks == 0 {
		if f.hadMarkers {
			clear(f.markers)
			clear(f.matched)
			f.hadMarkers = false
		}
	} else {
		f.hadMarkers = true
		for j := range f.markers {
			m := uint8(markNone)
			if marks>>j&1 != 0 {
				m = markBare
				f.unmatched++
			}
			f.markers[j], f.matched[j] = m, false
		}
	}
	f.seen++
	f.rowActive = true
	f.rowLine = d.lineNo
	f.extra.reset()
	d.rowLineNo, d.rowOff = d.lineNo, d.lineOff+int64(2*d.level)
	d.consume()
	return true
}

// SharedAttachment reports whether the current line (the one AtRow just
// left for Read) is a `.name [N]` attachment, N ≥ 1, of a column of the
// current row of the innermost table (one AtRow reads: its columns are its
// declared fields) that holds a bare ^ marker still waiting,
// and whose array shares the schema the table's first row established
// (SPEC §7.4.5.3): a line Read would turn, without error, into the start
// of a tabular array of N rows of those fields. It then returns the column,
// N and the shared field names (read-only), for OpenShared. It reads
// nothing: with ok false, or without OpenShared, Read takes the line.
func (d *Decoder) SharedAttachment() (field int, count int64, fields [][]byte, ok bool) {
	if d.err != nil || !d.have || d.atEOF || d.depth == 0 || d.state != stAfterRoot ||
		d.wire == WireV1 || d.depth >= d.limits.MaxDepth || d.k.section != sectNone {
		return -1, 0, nil, false
	}
	f := &d.stack[d.depth-1]
	b := d.body
	if f.kind != fTable || f.keyed || f.group >= 0 || f.idCol >= 0 || len(f.consts) > 0 || // AtRow's tables: columns are fields
		!f.rowActive || d.level != f.indent && d.level != f.indent+1 || b[0] != '.' {
		return -1, 0, nil, false
	}
	// attachment's checks, for this one outcome. A line AtRow left
	// unchecked is taken only with a bare name: then every byte of it is
	// one the parse below accounts for (a key byte, ' ', '[', a digit,
	// ']'), printable ASCII, which is all the class check would ask.
	if d.unchecked && (len(b) < 2 || b[1] == '"') {
		return -1, 0, nil, false
	}
	name, p, lerr := lexer.ScanKey(b, 1, &d.scratch)
	if lerr != nil || p+1 >= len(b) || b[p] != ' ' || b[p+1] != '[' {
		return -1, 0, nil, false
	}
	j := -1
	for i, fn := range f.fields {
		if bytes.Equal(fn, name) {
			j = i
			break
		}
	}
	if j < 0 || j >= len(f.markers) || f.markers[j] != markBare || f.matched[j] {
		return -1, 0, nil, false
	}
	// container's, for a shared tabular array
	count, keyed, end, lerr := lexer.ScanCount(b, p+1, int64(d.limits.MaxElements))
	if lerr != nil || keyed || end != len(b) || count < 1 {
		return -1, 0, nil, false
	}
	decl := f.shared(j, name)
	if decl == nil {
		return -1, 0, nil, false
	}
	return j, count, decl, true
}

// OpenShared takes the line SharedAttachment reported, given what it
// returned, and opens its table as Read would, without the event: the
// rows then come through AtRow, RawRow, ReadRow and Read, and the table's
// end through Read.
func (d *Decoder) OpenShared(field int, count int64, fields [][]byte) {
	f := &d.stack[d.depth-1]
	d.beginLine()
	f.matched[field] = true
	f.unmatched--
	body := f.indent + 2
	fr := d.push(fTable, body, KindArrayEnd) // f is stale from here
	fr.ownDecl, fr.sharedUse = fr.decl, true
	fr.decl, fr.fields = fields, fields
	fr.count = count
	if d.rowFrame == fr {
		d.rowFrame = nil // no row event of this frame is current
	}
	d.ctl, d.plain, d.unchecked = false, true, false // the line SharedAttachment read in full
	d.consume()
}

// EndRows closes the innermost table without an event when Read would
// close it next, without error, with the end event: the table is one AtRow
// reads, its declared rows are all in, its last row has no marker left
// waiting, and the next line (loaded as AtRow loads it, its class check
// left to whoever uses it next) sits below the table's indentation, or the
// input has ended. It reports false, closing nothing, otherwise (the line
// is then left for Read).
func (d *Decoder) EndRows() bool {
	if d.err != nil || d.depth == 0 || d.state != stAfterRoot || d.wire == WireV1 {
		return false
	}
	f := &d.stack[d.depth-1]
	if f.kind != fTable || f.keyed || f.group >= 0 || f.idCol >= 0 || len(f.consts) > 0 ||
		f.count < 0 || f.seen != f.count || f.rowActive && f.unmatched != 0 {
		return false
	}
	if !d.have && !d.atEOF {
		d.lazy = true
		err := d.load()
		d.lazy = false
		if err != nil {
			d.err = err
			return false
		}
	}
	if !d.atEOF && d.level >= f.indent {
		return false
	}
	// pop's work for this table: no row, group or count left to check
	f.rowActive = false
	if d.rowFrame == f {
		d.rowFrame = nil // the frame's slot may hold another table next
	}
	d.depth--
	if d.depth > 0 {
		if p := &d.stack[d.depth-1]; p.kind == fObject {
			p.after = afterCounted
			if f.hadInline {
				p.after = afterInline
			}
		}
	}
	return true
}
