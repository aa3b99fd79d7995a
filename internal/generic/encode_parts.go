package generic

// Parts: the buffered encoder's writers for one part of a document at a
// time (a table row under a plan decided elsewhere, an expanded item, a
// root member), and the per-row facts of its layout rules, for a source
// that reads the document record by record (transcode.EncodeJSON).

import (
	"bytes"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/layout"
	"github.com/gcfkit/gcf/lexer"
)

// PlanField is one field of a table's union as a caller decided it from
// the layout rules (layout.PlanField, layout.Factor).
type PlanField struct {
	Name   string
	Kind   layout.Kind
	Leaves int           // Flattened: the number of path columns
	Attach layout.Attach // how its container values are attached
	Const  bool          // a constant column (no cell in the rows)
}

// Parts writes parts of one canonical generic payload with the buffered
// encoder's code, so that they are the bytes EncodeGeneric writes for
// them in the whole document. Each call appends to dst, whose end is the
// start of a line of the payload, and checks the limits as EncodeGeneric
// does; a caller must rule out too_many_elements beforehand (its error
// names the container by its path in the whole document).
type Parts struct {
	e   *geEncoder
	p   gePlan
	lim Limits
	// the current call's line state: the offset in its buffer of a line
	// start, that line's number, and the budget's end
	start, line, end int
	offer            func(key string, at Place, v any, d int) (bool, error) // deferred, bound to w

	// Indent is the indentation of the rows and items written (0: a root
	// table or array); an attachment's are at Indent+2.
	Indent int
	// Defer, when set, is offered each attachment of the rows Row writes,
	// and each array member of the sections Member writes, in its place:
	// key is the field or member, at where it goes, d the indentation of
	// its `.key` or `## key` line, line the
	// number of the payload line that starts at dst's end. It either
	// reports false, and Row writes v itself, or appends the
	// attachment's lines to dst and returns it with the number of the
	// line that starts at its end; it may write out complete lines of
	// dst's start first (flushed bytes), returning the rest.
	Defer func(dst []byte, line int, key string, at Place, v any, d int) (out []byte, flushed, next int, done bool, err error)
}

// Place is where Parts offers Defer a value.
type Place uint8

const (
	Attached       Place = iota // a row's attachment `.key ...`, its body at d+2
	SharedAttached              // that, under row 0's shared array schema (SPEC §7.4.5.3: `[N]`, no declaration)
	InSection                   // a section's member `## key ...`, its body at d
)

// NewParts returns a Parts under the limits lim; v353 is
// WithSpec(Spec353). Release it after use.
func NewParts(lim Limits, v353 bool) *Parts {
	e := getGE()
	e.v353 = v353
	return &Parts{e: e, lim: lim}
}

// Release returns the encoder's scratch space.
func (w *Parts) Release() {
	if w.e != nil {
		putGE(w.e)
		w.e = nil
	}
}

// Plan sets the table whose rows Row writes: its fields in union order
// and whether it is a keyed map.
func (w *Parts) Plan(fields []PlanField, keyed bool) {
	e := w.e
	e.popPlan(&w.p)
	w.p = gePlan{src: geRows{keyed: keyed}, ub: len(e.strs), kb: len(e.kinds), fb: len(e.flags), un: len(fields)}
	for _, f := range fields {
		e.strs = append(e.strs, f.Name)
		var k int32
		switch f.Kind {
		case layout.NoColumn:
			k = geExcluded
		case layout.Flattened:
			k = int32(f.Leaves)
		}
		e.kinds = append(e.kinds, k)
		var fl uint8
		switch f.Attach {
		case layout.SharedSchema:
			fl = geShared
		case layout.InlineSchema:
			fl = geInline
		}
		if f.Const {
			fl |= geConst
		}
		e.flags = append(e.flags, fl)
	}
}

// Row appends row i of the planned table (key: its member key in a keyed
// map) at indentation 0 with its attachments. line is the number of the
// payload line dst's end starts, end the offset in dst past which the
// payload breaks MaxBytes. It returns dst extended, or with an error the
// bytes written so far.
func (w *Parts) Row(dst []byte, i int, key string, row Object, line, end int) ([]byte, error) {
	return w.run(dst, line, end, func(e *geEncoder) error { return e.writeRow(&w.p, i, key, row, w.Indent) })
}

// Item appends item i, v, of an expanded array at indentation 0 (see Row
// for the rest).
func (w *Parts) Item(dst []byte, i int, v any, line, end int) ([]byte, error) {
	return w.run(dst, line, end, func(e *geEncoder) error { return e.item(i, v, w.Indent) })
}

// Member appends the member key, v, of a root object written member by
// member (see Row for the rest).
func (w *Parts) Member(dst []byte, key string, v any, line, end int) ([]byte, error) {
	return w.run(dst, line, end, func(e *geEncoder) error { return e.members(Object{{Key: key, Value: v}}, 0) })
}

func (w *Parts) run(dst []byte, line, end int, write func(*geEncoder) error) ([]byte, error) {
	e := w.e
	e.buf = dst
	e.lim.Limits = w.lim
	e.lim.BeginBudget(len(dst), end)
	w.start, w.line, w.end = len(dst), line, end
	if w.Defer != nil {
		if w.offer == nil {
			w.offer = w.deferred // bound once, not per call
		}
		e.deferred = w.offer
	}
	err := write(e)
	e.deferred = nil
	out := e.buf
	e.buf = nil
	if se, ok := err.(*lexer.SyntaxError); ok && se.Category == lexer.LineTooLong && len(out) > w.start {
		// The limiter numbers lines from start; the line is the last one.
		body := out[w.start : len(out)-1]
		ls := bytes.LastIndexByte(body, '\n') + 1
		err = encoder.LineTooLongError(w.line+bytes.Count(body[:ls], []byte{'\n'}), len(body)-ls, w.lim.MaxLineBytes, body[ls:])
	}
	return out, err
}

// deferred offers an attachment to Defer; after one it wrote, the line
// state starts again at the end of what it wrote.
func (w *Parts) deferred(key string, at Place, v any, d int) (bool, error) {
	e := w.e
	line := w.line + bytes.Count(e.buf[w.start:], []byte{'\n'})
	out, flushed, next, done, err := w.Defer(e.buf, line, key, at, v, d)
	if !done {
		return false, err
	}
	e.buf = out
	if err != nil {
		w.start = len(out) // Defer's error has its own line number
		return true, err
	}
	w.start, w.line, w.end = len(out), next, w.end-flushed
	e.lim.BeginBudget(w.start, w.end)
	return true, nil
}

// FlatUnion reports whether a is a non-empty array of flat records (the
// arrays that may share a schema, SharedRow) and returns their ordered
// field union.
func FlatUnion(a []any) ([]string, bool) {
	if !geFlatRecords(a) {
		return nil, false
	}
	return geUnion(a, nil), true
}

// TabularArray reports whether the array a, non-empty and not
// all-primitive, takes tabular form in canonical output (SPEC §7.3).
func TabularArray(a []any) bool {
	e := getGE()
	ok := e.tabularOK(a)
	putGE(e)
	return ok
}

// SchemaArray is the fact of the row-0 safety rule (see the
// geEncoder's rowZeroSafe) about one value of a table's field: with
// tabular, whether row 0's value v establishes a shared array schema;
// without, whether a later row's value v would break it.
func SchemaArray(v any, tabular bool) bool {
	e := getGE()
	ok := e.schemaArray(v, tabular)
	putGE(e)
	return ok
}

// SharedRow classifies row i's value v of a field (ok: present) for
// layout.SharedStep, keeping row 0's array in *first.
func SharedRow(i int, v any, ok bool, first *[]any) layout.ArrayRow {
	return sharedRow(i, v, ok, first)
}

// InlineFirst reports whether row 0's value v of a field may set up the
// inline object schema (SPEC §7.4.5.1), and InlineFits whether a later
// row's present value fits the schema of row 0's object first.
func InlineFirst(v any) bool { return inlineFirst(v) }

// InlineFits: see InlineFirst.
func InlineFits(first Object, v any) bool { return inlineFits(first, v) }
