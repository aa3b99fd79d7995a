package generic

import (
	"github.com/gcfkit/gcf/internal/rowmap"
)

// The direct row path of the map builder: a row of a plain table (the
// stream's AtRow) is read without an event, its cells converted to
// encoding/json's values as they are found (scanCells, shared with
// DecodeGeneric's builder) and the record built from them. A row the plain scan does not take is read by the
// stream's ReadRow and built from its cells as an event's would be, so a
// payload decodes and fails the same way on either path.

// mapDirectRow reads the next line as a row of the innermost table when
// the stream reports one (AtRow) and returns its record, without its
// attachments; ok false when the next line is not such a row (nothing is
// read: it is left for Read).
func (b *builder) mapDirectRow(p *tablePlan) (row map[string]any, ok bool, err error) {
	body, plain, ok, err := b.d.RawRow()
	if err != nil || !ok {
		return nil, false, err
	}
	if want := len(p.fieldNames); plain && want <= 64 {
		if cap(b.genCells) < want {
			b.genCells = make([]Member, want)
		}
		out := b.genCells[:want]
		if id, marks, fits := b.scanCells(p, body, out, true); fits && b.d.CommitRow(want, id, marks) {
			return b.mapRowVals(p, out), true, nil
		}
	}
	cells, ok, err := b.d.ReadRow()
	if err != nil || !ok {
		return nil, false, err
	}
	row, err = b.mapRow(p, cells, 0)
	return row, err == nil, err
}

// mapRowVals builds the record of the row scanCells converted into out. A
// record with every column present (the usual row) is a map of the plan's
// key set from the builder's rowmap slab.
func (b *builder) mapRowVals(p *tablePlan, out []Member) map[string]any {
	var vals [8]any
	if p.flat {
		if b.genAbsent == 0 && len(out) <= len(vals) {
			for j := range out {
				vals[j] = out[j].Value
			}
			return b.rmaps.Map(p.mapKeys(), vals[:len(out)])
		}
		row := make(map[string]any, len(out))
		for j := range out {
			if b.genAbsent&(1<<j) == 0 {
				row[p.fieldNames[j]] = out[j].Value
			}
		}
		return row
	}
	if len(p.cols) <= len(vals) {
		var sts [8]cellState
		all := true
		for i, c := range p.cols {
			vals[i], sts[i] = b.mapEvalVals(c, out)
			all = all && sts[i] != cellAbsent
		}
		if all {
			return b.rmaps.Map(p.mapKeys(), vals[:len(p.cols)])
		}
		row := make(map[string]any, len(p.cols))
		for i, c := range p.cols {
			if sts[i] != cellAbsent {
				row[c.name] = vals[i]
			}
		}
		return row
	}
	row := make(map[string]any, len(p.cols))
	for _, c := range p.cols {
		if v, st := b.mapEvalVals(c, out); st != cellAbsent {
			row[c.name] = v
		}
	}
	return row
}

// mapKeys is the key set of the plan's records with every column present.
func (p *tablePlan) mapKeys() *rowmap.Keys {
	if p.rowKeys == nil {
		names := make([]string, len(p.cols))
		for i, c := range p.cols {
			names[i] = c.name
		}
		p.rowKeys = rowmap.NewKeys(names)
	}
	return p.rowKeys
}

// mapEvalVals is mapEval on the values scanCells converted into out.
func (b *builder) mapEvalVals(c *column, out []Member) (any, cellState) {
	if c.col >= 0 {
		switch bit := uint64(1) << c.col; {
		case b.genAbsent&bit != 0:
			return nil, cellAbsent
		case b.genNull&bit != 0:
			return nil, cellNull
		}
		return out[c.col].Value, cellValue
	}
	if len(c.children) <= len([8]any{}) {
		var vals [8]any
		all, allNull := true, true
		for i, ch := range c.children {
			v, st := b.mapEvalVals(ch, out)
			vals[i] = v
			all = all && st != cellAbsent
			allNull = allNull && st == cellNull
		}
		if all && !allNull {
			if c.keys == nil {
				names := make([]string, len(c.children))
				for i, ch := range c.children {
					names[i] = ch.name
				}
				c.keys = rowmap.NewKeys(names)
			}
			return b.rmaps.Map(c.keys, vals[:len(c.children)]), cellValue
		}
	}
	var m map[string]any
	allNull := true
	for _, ch := range c.children {
		v, st := b.mapEvalVals(ch, out)
		if st != cellAbsent {
			if m == nil {
				m = make(map[string]any, len(c.children))
			}
			m[ch.name] = v
		}
		if st != cellNull {
			allNull = false
		}
	}
	switch {
	case m == nil:
		return nil, cellAbsent
	case allNull:
		return nil, cellNull
	}
	return m, cellValue
}
