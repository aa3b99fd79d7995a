package generic

import (
	"errors"
	"reflect"
	"strings"

	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// This file builds encoding/json's forms (map[string]any, []any, float64)
// straight from the pull decoder's events, for Unmarshal and
// Decoder.Decode into a *any in the default form. It is the builder of
// decode_generic.go with maps for objects and float64 for integers: the
// same events, plans, arena, interning and slabs, so the same values and
// the same errors as converting DecodeGeneric's model afterwards
// (anyForm.value), without building that model first.

// jsonTarget returns v as a *any that Decode fills with encoding/json's
// forms built from the events (mapValue), or nil when v takes another
// path: another type or form, or a *any holding a non-nil pointer, which
// encoding/json decodes into.
func (d *Decoder) jsonTarget(v any) *any {
	p, ok := v.(*any)
	if !ok || d.form != 0 || (*p != nil && reflect.TypeOf(*p).Kind() == reflect.Pointer) {
		return nil
	}
	return p
}

// smallFloats holds the integers 0 to 255 boxed as float64, so the most
// common integers cost no slab space.
var smallFloats = func() (t [256]any) {
	for i := range t {
		t[i] = float64(i)
	}
	return t
}()

// number boxes integer v as encoding/json stores it: the float64 that
// parsing its decimal text gives (conversion rounds as parsing does).
func (b *builder) number(v int64) any {
	if v >= 0 && v < int64(len(smallFloats)) {
		return smallFloats[v]
	}
	return b.floats.Box(float64(v))
}

// mapScalar is scalar with an integer as float64.
func (b *builder) mapScalar(s *lexer.Scalar) (any, error) {
	if s.Kind == lexer.KindInt {
		return b.number(s.Int), nil
	}
	return b.scalar(s)
}

// mapValue builds the value that ev opens, in encoding/json's forms.
func (b *builder) mapValue(ev *stream.Event) (any, error) {
	switch ev.Kind {
	case stream.KindScalar:
		return b.mapScalar(&ev.Value)
	case stream.KindObjectStart:
		if ev.Form == stream.FormKeyed {
			return b.mapTable(ev, true)
		}
		return b.mapObject()
	case stream.KindArrayStart:
		switch ev.Form {
		case stream.FormInline:
			arr := b.elems(len(ev.Cells))
			for i := range ev.Cells {
				v, err := b.mapScalar(&ev.Cells[i])
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			return b.arrs.Box(arr), b.expect(stream.KindArrayEnd)
		case stream.FormEmpty:
			return b.arrs.Box([]any{}), b.expect(stream.KindArrayEnd)
		case stream.FormTabular:
			return b.mapTable(ev, false)
		case stream.FormExpanded:
			return b.mapItems()
		}
	}
	return nil, errors.New("gcf: internal error: unexpected " + ev.Kind.String() + " event where a value belongs")
}

// mapObject builds an object's members into a map; a repeated key keeps
// its last value, as with encoding/json.
func (b *builder) mapObject() (any, error) {
	m := make(map[string]any)
	for {
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		if ev.Kind == stream.KindObjectEnd {
			return m, nil
		}
		key := b.text(ev.Key)
		v, err := b.mapValue(ev)
		if err != nil {
			return nil, err
		}
		m[key] = v
	}
}

func (b *builder) mapItems() (any, error) {
	arr := []any{}
	for {
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		if ev.Kind == stream.KindArrayEnd {
			return b.arrs.Box(arr), nil
		}
		v, err := b.mapValue(ev)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
}

// mapCell is cell with an integer as float64.
func (b *builder) mapCell(p *tablePlan, c *lexer.Scalar, j int) (any, cellState, error) {
	if c.Kind == lexer.KindInt {
		return b.number(c.Int), cellValue, nil
	}
	return b.cell(p, c, j)
}

// mapEval is eval building a path object as a map, allocated only once a
// member is present.
func (b *builder) mapEval(p *tablePlan, c *column, cells []lexer.Scalar) (any, cellState, error) {
	if c.col >= 0 {
		return b.mapCell(p, &cells[c.col], c.col)
	}
	var m map[string]any
	allNull := true
	for _, ch := range c.children {
		v, st, err := b.mapEval(p, ch, cells)
		if err != nil {
			return nil, 0, err
		}
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
		return nil, cellAbsent, nil
	case allNull:
		return nil, cellNull, nil
	}
	return m, cellValue, nil
}

// mapTable builds a tabular array or (keyed) a keyed map of records, each
// record a map presized to the declaration's columns and keyed by the
// plan's names (one string per column, shared by every row). The rows the
// stream reports with AtRow are read without an event (mapDirectRow).
func (b *builder) mapTable(start *stream.Event, keyed bool) (any, error) {
	from := 0
	if keyed {
		from = 1
	}
	p := b.plan(start.Fields, from)
	var arr []any
	var obj map[string]any
	if keyed {
		obj = make(map[string]any, b.presize(start.Count))
	} else {
		arr = b.elems(b.presize(start.Count))
	}
	for {
		if !keyed && !b.peeked {
			row, ok, err := b.mapDirectRow(p)
			if err != nil {
				return nil, err
			}
			if ok {
				if err := b.mapAttachments(p, row, true); err != nil {
					return nil, err
				}
				arr = append(arr, row)
				continue
			}
		}
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		if ev.Kind == stream.KindArrayEnd || ev.Kind == stream.KindObjectEnd {
			if keyed {
				return obj, nil
			}
			return b.arrs.Box(arr), nil
		}
		if ev.Kind != stream.KindRow {
			return nil, errors.New("gcf: internal error: unexpected " + ev.Kind.String() + " in a table")
		}
		row, err := b.mapRow(p, ev.Cells, from)
		if err != nil {
			return nil, err
		}
		var key string
		if keyed {
			key = b.text(ev.Cells[0].Bytes) // before the attachments' events reuse the cells
		}
		if err := b.mapAttachments(p, row, false); err != nil {
			return nil, err
		}
		if keyed {
			obj[key] = row
		} else {
			arr = append(arr, row)
		}
	}
}

// mapRow builds the record of a row's cells (without its attachments).
func (b *builder) mapRow(p *tablePlan, cells []lexer.Scalar, from int) (map[string]any, error) {
	row := make(map[string]any, len(p.cols))
	if p.flat {
		for j := from; j < len(cells); j++ {
			v, st, err := b.mapCell(p, &cells[j], j)
			if err != nil {
				return nil, err
			}
			if st != cellAbsent {
				row[p.fieldNames[j]] = v
			}
		}
		return row, nil
	}
	for _, c := range p.cols {
		v, st, err := b.mapEval(p, c, cells)
		if err != nil {
			return nil, err
		}
		if st != cellAbsent {
			row[c.name] = v
		}
	}
	return row, nil
}

// mapRecord stores in *p the record of a row's cells with its
// attachments, for Decoder.Decode of one table row.
func (b *builder) mapRecord(plan *tablePlan, cells []lexer.Scalar, from int, p *any) error {
	row, err := b.mapRow(plan, cells, from)
	if err == nil {
		err = b.mapAttachments(plan, row, false)
	}
	if err == nil {
		*p = row
	}
	return err
}

// mapAttachments fills the row's attachment cells from the events that
// follow it, as attachments does. With direct, a next row of the table
// (stream's AtRow) ends the row without being read, for mapDirectRow.
func (b *builder) mapAttachments(p *tablePlan, row map[string]any, direct bool) error {
	for {
		if direct && !b.peeked {
			if next, err := b.d.AtRow(); next || err != nil {
				return err
			}
		}
		nx, err := b.peek()
		if err != nil {
			return err
		}
		if nx.Kind == stream.KindInlineBody {
			b.peeked = false
			inner := make(map[string]any, len(nx.Fields))
			for i, f := range nx.Fields {
				v, err := b.mapScalar(&nx.Cells[i])
				if err != nil {
					return err
				}
				inner[b.text(f)] = v
			}
			if err := fillMap(row, p.fieldNames[nx.Field], inner); err != nil {
				return err
			}
			continue
		}
		if nx.Role != stream.RoleAttachment || nx.Kind == stream.KindArrayEnd || nx.Kind == stream.KindObjectEnd {
			return nil
		}
		b.peeked = false
		field := nx.Field
		var name string
		if field < 0 {
			name = b.text(nx.Key) // a '>'-named field; columns have their names in the plan
		}
		v, err := b.mapValue(nx)
		if err != nil {
			return err
		}
		if field >= 0 {
			if err := fillMap(row, p.fieldNames[field], v); err != nil {
				return err
			}
			continue
		}
		if _, dup := row[name]; dup {
			return &SyntaxError{Line: nx.Line, Column: 1, Category: lexer.DuplicateKey,
				Msg: "attachment " + lexer.Quote([]byte(name)) + " collides with a decoded field"}
		}
		row[name] = v
	}
}

// fillMap stores v at the member named by a (possibly `>` path) field, a
// slot the row's attachment marker made.
func fillMap(m map[string]any, field string, v any) error {
	var segs [][]byte
	if strings.IndexByte(field, '>') >= 0 {
		segs = lexer.PathSegments([]byte(field))
	}
	if segs == nil {
		if _, ok := m[field]; ok {
			m[field] = v
			return nil
		}
		return errors.New("gcf: internal error: no slot for attachment " + field)
	}
	cur := m
	for k, seg := range segs {
		x, ok := cur[string(seg)]
		if !ok {
			break
		}
		if k == len(segs)-1 {
			cur[string(seg)] = v
			return nil
		}
		next, ok := x.(map[string]any)
		if !ok {
			return errors.New("gcf: internal error: path attachment through a non-object")
		}
		cur = next
	}
	return errors.New("gcf: internal error: no slot for attachment " + field)
}
