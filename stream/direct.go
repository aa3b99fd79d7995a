package stream

import "github.com/gcfkit/gcf/lexer"

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
// may follow; an error is the one Read would report there (a marker
// left without its attachment).
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
	if err := d.load(); err != nil {
		d.err = err
		return false, err
	}
	if d.atEOF || d.level != f.indent || (f.count >= 0 && f.seen == f.count) || startsWith(d.body, "##") {
		return false, nil
	}
	if f.rowActive {
		// stepFrame's rowChild, for a line at the table's indentation.
		if d.body[0] == '.' || f.nextEligible() >= 0 {
			return false, nil
		}
		if err := d.finishRow(f); err != nil {
			d.err = err
			return false, err
		}
	}
	return true, nil
}

// ReadRow reads the next line as a row of the innermost table when AtRow
// reports it is one, and returns its cells (borrowed until the next call
// to Read, Next or ReadRow) with ok true; RowID and RowEvent describe the
// row. With ok false nothing was read: the line is left for Read.
func (d *Decoder) ReadRow() (cells []lexer.Scalar, ok bool, err error) {
	if ok, err := d.AtRow(); !ok {
		return nil, false, err
	}
	f := &d.stack[d.depth-1]
	id, err := d.scanRow(f)
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
