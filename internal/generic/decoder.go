package generic

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/gcfkit/gcf/graph"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Event is one step of a payload read by a Decoder; see the stream package
// for the meaning of each field. Its byte slices are borrowed until the
// next call on the Decoder; Clone keeps them.
type Event = stream.Event

// Scalar is one decoded value token of an Event (Event.Value, Event.Cells).
// Its typed accessors (Int64, Float64, Boolean, AppendString, IsNull) do
// not allocate.
type Scalar = lexer.Scalar

// Kind, Role and Form describe an Event; see the stream package.
type (
	Kind = stream.Kind
	Role = stream.Role
	Form = stream.Form
)

// Event kinds. Every ObjectStart is closed by an ObjectEnd and every
// ArrayStart by an ArrayEnd; a graph group (KindGroup) runs until the next
// group, the summary or the end.
const (
	KindHeader      = stream.KindHeader
	KindObjectStart = stream.KindObjectStart
	KindObjectEnd   = stream.KindObjectEnd
	KindArrayStart  = stream.KindArrayStart
	KindArrayEnd    = stream.KindArrayEnd
	KindScalar      = stream.KindScalar
	KindRow         = stream.KindRow
	KindInlineBody  = stream.KindInlineBody
	KindSummary     = stream.KindSummary
	KindEnd         = stream.KindEnd
	KindGroup       = stream.KindGroup
	KindSymbol      = stream.KindSymbol
	KindReference   = stream.KindReference
	KindEdge        = stream.KindEdge
	KindRemoved     = stream.KindRemoved
	KindDeltaEdge   = stream.KindDeltaEdge
)

// Roles of value events and forms of container bodies.
const (
	RoleRoot       = stream.RoleRoot
	RoleMember     = stream.RoleMember
	RoleItem       = stream.RoleItem
	RoleAttachment = stream.RoleAttachment

	FormEmpty    = stream.FormEmpty
	FormInline   = stream.FormInline
	FormTabular  = stream.FormTabular
	FormExpanded = stream.FormExpanded
	FormKeyed    = stream.FormKeyed
	FormSection  = stream.FormSection
)

// Decoder is a pull decoder over an io.Reader for either profile. Memory is
// bounded by the longest line and the nesting depth, never by the payload
// size; steady-state events make no allocation. Next and Read return one
// event at a time; Skip passes over a container; More and Decode turn the
// next whole value (or table row, or graph symbol) into Go values, so event
// streaming and value decoding mix as with encoding/json.Decoder. Its row
// events are expanded (stream.Decoder.SetExpand): a row of a table with
// constant columns or groups (spec v3.6.0 §7.4.7, §7.4.8) carries every
// declared column in declaration order and no group event is returned; the
// table's start event still lists the constants in Consts. A Decoder is
// not safe for concurrent use.
type Decoder struct {
	s    *stream.Decoder
	b    builder
	open []openContainer
	dist int64        // distance of the current graph symbol group, or -1
	td   typedDecoder // Decode into typed targets; kept for its caches and slabs
	form anyForm      // what Decode stores in interfaces
}

// typed returns the decoder's typedDecoder, ready for one Decode.
func (d *Decoder) typed() *typedDecoder {
	d.td.b, d.td.err, d.td.form = &d.b, nil, d.form
	return &d.td
}

// openContainer is a container or graph group that an event handed out by
// the Decoder opened and no event has closed yet.
type openContainer struct {
	end  stream.Kind // KindObjectEnd, KindArrayEnd, or KindGroup for a graph group
	plan *tablePlan  // how rows become objects, for tables and keyed maps (nil until a row is decoded)
	from int         // first value column of a row (1 in a keyed map)
	// fields is the declaration the plan is made from, when a row is first
	// decoded: a walk that only reads events needs no plan. The stream
	// keeps the names unchanged while the container is open.
	fields [][]byte
}

// NewDecoder returns a Decoder reading from r. Options set the limits.
func NewDecoder(r io.Reader, opts ...Option) *Decoder {
	cfg := newConfig(opts)
	d := &Decoder{s: stream.NewDecoder(r, cfg.Limits), form: anyForm(cfg.Form)}
	d.s.SetWire(cfg.Wire)
	d.s.SetExpand(true)
	d.reset()
	return d
}

// Reset makes d read a new payload from r, reusing its buffers.
func (d *Decoder) Reset(r io.Reader) {
	d.s.Reset(r)
	d.reset()
}

func (d *Decoder) reset() {
	// Keep what is worth keeping across payloads: table plans and the
	// scratch key they are looked up by.
	plans, keyBuf := d.b.plans, d.b.keyBuf
	d.b = builder{d: d.s, budget: 4096, chunk: maxChunk, plans: plans, keyBuf: keyBuf}
	d.open = d.open[:0]
	d.dist = -1
}

// Line returns the 1-based number of the line most recently read.
func (d *Decoder) Line() int { return d.s.Line() }

// InputOffset returns the byte offset of the start of the line most
// recently read.
func (d *Decoder) InputOffset() int64 { return d.s.InputOffset() }

// Profile returns "generic" or "graph" once the header has been read, and
// "" before.
func (d *Decoder) Profile() string { return d.s.Profile() }

// Depth returns the number of containers (and graph groups) that events
// handed out so far have opened and not closed.
func (d *Decoder) Depth() int { return len(d.open) }

// Next returns the next event; io.EOF (unwrapped) after the KindEnd event.
// Its byte slices are borrowed until the next call on d; Clone keeps them.
// After an error, every call returns the same *SyntaxError.
func (d *Decoder) Next() (Event, error) {
	ev, err := d.Read()
	if err != nil {
		return Event{}, err
	}
	return *ev, nil
}

// Read is Next without the copy: it returns the decoder's own event, which
// the next call on d overwrites.
func (d *Decoder) Read() (*Event, error) {
	ev, err := d.b.read()
	if err != nil {
		return nil, err
	}
	d.track(ev)
	return ev, nil
}

// peek returns the next event without consuming it.
func (d *Decoder) peek() (*Event, error) {
	if d.b.peeked {
		return d.b.ev, nil
	}
	ev, err := d.b.read()
	if err != nil {
		return nil, err
	}
	d.b.ev, d.b.peeked = ev, true
	return ev, nil
}

// PeekKind returns the kind of the next event without consuming it, or
// KindInvalid when the next call would return an error or io.EOF.
func (d *Decoder) PeekKind() Kind {
	ev, err := d.peek()
	if err != nil {
		return stream.KindInvalid
	}
	return ev.Kind
}

// track keeps the stack of open containers in step with the events handed
// out.
func (d *Decoder) track(ev *Event) {
	switch ev.Kind {
	case stream.KindObjectStart:
		c := openContainer{end: stream.KindObjectEnd}
		if ev.Form == stream.FormKeyed {
			c.fields, c.from = ev.Fields, 1
		}
		d.open = append(d.open, c)
	case stream.KindArrayStart:
		c := openContainer{end: stream.KindArrayEnd}
		if ev.Form == stream.FormTabular {
			c.fields = ev.Fields
		}
		d.open = append(d.open, c)
	case stream.KindObjectEnd, stream.KindArrayEnd:
		d.open = d.open[:len(d.open)-1]
	case stream.KindGroup:
		d.closeGroup()
		d.open = append(d.open, openContainer{end: stream.KindGroup})
		d.dist = ev.ID
	case stream.KindSummary, stream.KindEnd:
		d.closeGroup()
	}
}

func (d *Decoder) closeGroup() {
	if n := len(d.open); n > 0 && d.open[n-1].end == stream.KindGroup {
		d.open = d.open[:n-1]
		d.dist = -1
	}
}

// endsGroup reports whether an event closes a graph group (without being
// part of it).
func endsGroup(k Kind) bool {
	return k == stream.KindGroup || k == stream.KindSummary || k == stream.KindEnd
}

// Skip passes over the rest of the innermost open container or graph group,
// including its end event: right after a KindObjectStart, KindArrayStart or
// KindGroup event it skips that whole container or group. With nothing open
// it skips to the end of the payload. Skipped lines are still validated, so
// Skip reports malformed input like Next.
func (d *Decoder) Skip() error {
	n := len(d.open)
	if n == 0 {
		for {
			if _, err := d.Read(); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	}
	if d.open[n-1].end == stream.KindGroup {
		for {
			ev, err := d.peek()
			if err != nil {
				return err
			}
			if endsGroup(ev.Kind) {
				d.closeGroup()
				return nil
			}
			d.b.peeked = false
		}
	}
	for len(d.open) >= n {
		if _, err := d.Read(); err != nil {
			return err
		}
	}
	return nil
}

// More reports whether the innermost open container or graph group has
// another element: a member, item, row or symbol that Next or Decode would
// return before its end. It also returns true when the next call would
// fail, so that the call reports the error.
func (d *Decoder) More() bool {
	ev, err := d.peek()
	if err == io.EOF {
		return false
	}
	if err != nil {
		return true
	}
	switch ev.Kind {
	case stream.KindObjectEnd, stream.KindArrayEnd, stream.KindSummary, stream.KindEnd:
		return false
	case stream.KindGroup:
		return len(d.open) == 0 || d.open[len(d.open)-1].end != stream.KindGroup
	}
	return true
}

// Decode reads the next whole value and stores it in v, which must be a
// non-nil pointer. What the next value is depends on where the decoder
// stands:
//
//   - before the header, or right after it: the payload's root value,
//     read through the summary trailer to the end, so that a nil error
//     means the whole payload is valid; for a graph payload v must be a
//     *Payload and receives the whole payload;
//   - before a member, item or attachment: that value (object, array or
//     scalar), with everything it contains;
//   - inside a table: the next row as an object, its attachments included
//     (for a keyed map, the member's value; read the row with Next for its
//     key);
//   - inside a graph symbol group: the next symbol, into a *Symbol.
//
// A summary trailer is passed over; at the end of the payload Decode
// returns io.EOF. Values are stored as Unmarshal stores them: by
// encoding/json's rules for the JSON form of the value (structs through
// their json tags, interfaces as map[string]any, []any and float64 unless
// NewDecoder was given WithOrderedObjects or WithExactNumbers), a *Object
// in the ordered model. Structs,
// slices, maps with string keys and pointers are filled straight from the
// events, without building the generic value first; a type mismatch stops
// the storing and is reported once the value has been read and found
// valid (a syntax error anywhere in it wins), a number that does not fit
// its field as out_of_range at the number's line.
func (d *Decoder) Decode(v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("gcf: Decode needs a non-nil pointer, got %T", v)
	}
	for {
		ev, err := d.peek()
		if err != nil {
			return err
		}
		switch ev.Kind {
		case stream.KindHeader, stream.KindSummary, stream.KindGroup:
			if ev.Kind == stream.KindHeader && ev.Profile == "graph" {
				if p, ok := v.(*Payload); ok {
					d.b.peeked = false
					got, err := graph.DecodeFrom(d.b.d, ev)
					if err != nil {
						return err
					}
					d.open = d.open[:0]
					*p = *got
					return nil
				}
			}
			d.b.peeked = false
			d.track(ev)
			continue
		case stream.KindEnd:
			d.b.peeked = false
			d.track(ev)
			if _, err := d.b.read(); err != io.EOF {
				return err
			}
			return io.EOF
		case stream.KindObjectStart, stream.KindArrayStart, stream.KindScalar:
			d.b.peeked = false
			root := ev.Role == stream.RoleRoot
			line, lineOff := ev.Line, d.s.InputOffset()
			var x any
			var typed *typedDecoder
			direct := d.jsonTarget(v) // encoding/json's forms, built from the events
			switch v.(type) {
			case *any, *Object, *[]any:
				if direct != nil {
					x, err = d.b.mapValue(ev)
				} else {
					x, err = d.b.value(ev)
				}
			default:
				// Typed targets are filled straight from the events.
				typed = d.typed()
				err = typed.value(rv.Elem(), ev, 0)
			}
			if err != nil {
				return err
			}
			if root {
				// The root value is the whole payload: read the trailer
				// and the end too, so that a nil error means all of it
				// was valid.
				for {
					ev, err := d.b.read()
					if err == io.EOF {
						break
					}
					if err != nil {
						return err
					}
					d.track(ev)
				}
			}
			if typed != nil {
				return typed.err
			}
			if direct != nil {
				*direct = x
				return nil
			}
			return positioned(d.assign(v, x), line, 1, lineOff, false)
		case stream.KindRow:
			return d.decodeRow(ev, v, rv)
		case stream.KindSymbol:
			if s, ok := v.(*Symbol); ok && d.dist >= 0 && len(ev.Cells) == 4 {
				d.b.peeked = false
				return decodeSymbol(ev, d.dist, s)
			}
		}
		return fmt.Errorf("gcf: line %d: Decode cannot decode a %s event into %T; use Next", ev.Line, ev.Kind, v)
	}
}

// decodeRow decodes the table row ev (peeked) and its attachments into v.
func (d *Decoder) decodeRow(ev *Event, v any, rv reflect.Value) error {
	c := d.open[len(d.open)-1]
	if c.plan == nil {
		c.plan = d.b.plan(c.fields, c.from)
		d.open[len(d.open)-1].plan = c.plan
	}
	// The row is the line most recently read: its indentation is the
	// distance from the line's start to the event's offset.
	line, indent := ev.Line, int(ev.Offset-d.s.InputOffset())
	if c.plan.flat && !hasMarkers(ev, c.from) {
		if rp := rowPlanFor(rv.Type().Elem(), c.plan); rp != nil {
			d.b.peeked = false
			return positioned(rp.fill(ev, c.from, rv.Elem()), line, indent+1, ev.Offset, true)
		}
	}
	if st := rv.Type().Elem(); st.Kind() == reflect.Struct && !valuePlanFor(st).viaJSON {
		// Any other row into a struct: straight from the row's cells and
		// attachments, as Decode fills typed values.
		if f := c.plan.fill(st); f != nil {
			d.b.peeked = false
			t := d.typed()
			row := valueTarget(rv.Elem())
			if err := t.row(&row, ev, c.plan, f, 0); err != nil {
				return err
			}
			return t.err
		}
	}
	d.b.peeked = false
	if p := d.jsonTarget(v); p != nil {
		return d.b.mapRecord(c.plan, ev.Cells, c.from, p)
	}
	var row Object
	var err error
	if c.plan.flat {
		row, err = d.b.flatRow(c.plan, ev.Cells, c.from)
	} else {
		row = d.b.members(len(c.plan.cols))
		for _, col := range c.plan.cols {
			x, st, err := d.b.eval(c.plan, col, ev.Cells)
			if err != nil {
				return err
			}
			if st != cellAbsent {
				row = append(row, Member{Key: col.name, Value: x})
			}
		}
	}
	if err != nil {
		return err
	}
	if row, err = d.b.attachments(c.plan, row, false); err != nil {
		return err
	}
	return positioned(d.assign(v, row), line, indent+1, ev.Offset, false)
}

// positioned gives a number that does not fit its Go target a position:
// such a *json.UnmarshalTypeError becomes the Err of an out_of_range
// *SyntaxError (errors.As still finds it). base is the input offset of
// column col of line. With exact, the error comes from the row fast path
// and its Offset is the cell's input offset; otherwise it comes from
// encoding/json and the error points at line:col, where the value starts.
// Other errors pass unchanged.
func positioned(err error, line, col int, base int64, exact bool) error {
	if err == nil {
		return nil // before te, which escapes: rows must not allocate
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number") || !numericKind(te.Type.Kind()) {
		return err
	}
	off := base
	if exact {
		col, off = col+int(te.Offset-base), te.Offset
	}
	field := te.Field
	if field == "" {
		field = "value"
	}
	return &SyntaxError{Line: line, Column: col, Offset: off, Category: lexer.OutOfRange,
		Msg: lexer.Excerpt([]byte(te.Value)) + " does not fit " + lexer.Excerpt([]byte(field)) + " (" + te.Type.String() + ")", Err: err}
}

func numericKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func hasMarkers(ev *Event, from int) bool {
	for i := from; i < len(ev.Cells); i++ {
		if k := ev.Cells[i].Kind; k == lexer.KindAttach || k == lexer.KindAttachSchema {
			return true
		}
	}
	return false
}

func decodeSymbol(ev *Event, dist int64, s *Symbol) error {
	score, err := ev.Score()
	if err != nil {
		return err
	}
	*s = Symbol{
		Kind:          KindExpand(string(ev.Cells[0].Bytes)),
		QualifiedName: string(ev.Cells[1].Bytes),
		Score:         score,
		Provenance:    string(ev.Cells[3].Bytes),
		Distance:      int(dist),
	}
	return nil
}

// assign stores a decoded JSON-model value x in the target v: into an
// empty *any (or a *[]any) in the decoder's form, into an *Object as it
// is, into anything else as assignValue does.
func (d *Decoder) assign(v any, x any) error {
	switch p := v.(type) {
	case *any:
		// encoding/json decodes a value into the pointer *p holds and
		// replaces anything else.
		if x == nil || *p == nil || reflect.TypeOf(*p).Kind() != reflect.Pointer {
			*p = d.form.value(x, &d.b.floats)
			return nil
		}
	case *Object:
		if o, ok := x.(Object); ok {
			*p = o
			return nil
		}
	case *[]any:
		if a, ok := x.([]any); ok {
			*p = d.form.value(a, &d.b.floats).([]any)
			return nil
		}
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("gcf: Decode needs a non-nil pointer, got %T", v)
	}
	return assignValue(rv.Elem(), x, 0, d.form)
}

// DecodeGeneric reads a whole generic-profile payload from the start of
// the stream into the JSON data model, like the package-level DecodeGeneric.
//
// Deprecated: Decode into a *any reads the same value (the whole payload,
// from the start) and is the one way to decode with a Decoder; give
// NewDecoder WithOrderedObjects and WithExactNumbers for DecodeGeneric's
// ordered model. DecodeGeneric keeps working.
func (d *Decoder) DecodeGeneric() (any, error) {
	v, err := d.b.document()
	d.open = d.open[:0]
	return v, err
}

// profileCol returns the column of the profile value in a header event
// (profile= is the header's first field).
func profileCol(ev *stream.Event) int {
	if len(ev.Cells) > 0 {
		return ev.Cells[0].Col
	}
	return 1
}
