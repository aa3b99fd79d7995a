package transcode

import (
	"errors"
	"io"
	"strconv"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/jsonnum"
	"github.com/gcfkit/gcf/lexer"
)

// gen writes generic-profile values as JSON straight from the decoder's
// events, producing what gcf.ToJSON writes for the value gcf.DecodeGeneric
// builds. Nothing is held beyond the current line, except a table row
// with ^ attachments: its cells and attachments are assembled in the
// output buffer before the row is written.
type gen struct {
	d   *gcf.Decoder
	o   *output
	rec int64 // table rows written

	plans    map[string]*plan
	lastPlan *plan
	keyBuf   []byte
	cells    []cellSpan // row assembly stack: one span per cell of each row being assembled
	extras   []span     // `>`-named attachments of rows being assembled: key, value
}

type span struct{ start, end int }

// cellSpan is one cell of a row being assembled: its state and, for a
// value, where its JSON sits in the output buffer (start < 0: an
// attachment that has not arrived, written as null).
type cellSpan struct {
	span
	st cellState
}

// cellState is what a cell (or a `>` path object) contributes to its row.
type cellState uint8

const (
	cellAbsent cellState = iota // ~, or a path object whose cells are all ~
	cellNull                    // -, or a path object whose cells are all null
	cellValue
)

func errInternal(what string) error { return errors.New("transcode: internal error: " + what) }

// read returns the next event; the end of input inside a value is an
// internal error, since the decoder reports a cut payload itself.
func (g *gen) read() (*gcf.Event, error) {
	ev, err := g.d.Read()
	if err != nil {
		if err == io.EOF {
			return nil, errInternal("end of input inside a value")
		}
		return nil, err
	}
	return ev, nil
}

// scalar appends the JSON of a value-context scalar.
func appendScalar(dst []byte, s *gcf.Scalar) ([]byte, error) {
	switch s.Kind {
	case lexer.KindString:
		return appendString(dst, s.Bytes), nil
	case lexer.KindNull:
		return append(dst, "null"...), nil
	case lexer.KindBool:
		return strconv.AppendBool(dst, s.Bool), nil
	case lexer.KindInt:
		return strconv.AppendInt(dst, s.Int, 10), nil
	case lexer.KindFloat:
		f, err := lexer.ParseFloat(s.Bytes)
		if err != nil {
			return dst, lexer.Errorf(lexer.OutOfRange, "number %s is outside the binary64 range", s.Bytes)
		}
		return jsonnum.AppendFloat(dst, f), nil
	}
	return dst, errInternal("scalar of kind " + s.Kind.String() + " in a value context")
}

// value writes the value that ev (just read) opens, through its end.
func (g *gen) value(ev *gcf.Event) error {
	var err error
	switch ev.Kind {
	case gcf.KindScalar:
		g.o.buf, err = appendScalar(g.o.buf, &ev.Value)
		return err
	case gcf.KindObjectStart:
		if ev.Form == gcf.FormKeyed {
			return g.table(ev, true)
		}
		return g.object()
	case gcf.KindArrayStart:
		switch ev.Form {
		case gcf.FormEmpty:
			g.o.buf = append(g.o.buf, '[', ']')
			return g.expect(gcf.KindArrayEnd)
		case gcf.FormInline:
			g.o.buf = append(g.o.buf, '[')
			for i := range ev.Cells {
				if i > 0 {
					g.o.buf = append(g.o.buf, ',')
				}
				if g.o.buf, err = appendScalar(g.o.buf, &ev.Cells[i]); err != nil {
					return err
				}
			}
			g.o.buf = append(g.o.buf, ']')
			return g.expect(gcf.KindArrayEnd)
		case gcf.FormTabular:
			return g.table(ev, false)
		case gcf.FormExpanded:
			return g.items()
		}
	}
	return errInternal("unexpected " + ev.Kind.String() + " event where a value belongs")
}

func (g *gen) expect(k gcf.Kind) error {
	ev, err := g.read()
	if err != nil {
		return err
	}
	if ev.Kind != k {
		return errInternal("expected " + k.String() + ", got " + ev.Kind.String())
	}
	return nil
}

func (g *gen) object() error {
	g.o.buf = append(g.o.buf, '{')
	for n := 0; ; n++ {
		ev, err := g.read()
		if err != nil {
			return err
		}
		if ev.Kind == gcf.KindObjectEnd {
			g.o.buf = append(g.o.buf, '}')
			return nil
		}
		if n > 0 {
			g.o.buf = append(g.o.buf, ',')
		}
		g.o.buf = appendString(g.o.buf, ev.Key)
		g.o.buf = append(g.o.buf, ':')
		if err := g.value(ev); err != nil {
			return err
		}
		if err := g.o.maybeFlush(); err != nil {
			return err
		}
	}
}

func (g *gen) items() error {
	g.o.buf = append(g.o.buf, '[')
	for n := 0; ; n++ {
		ev, err := g.read()
		if err != nil {
			return err
		}
		if ev.Kind == gcf.KindArrayEnd {
			g.o.buf = append(g.o.buf, ']')
			return nil
		}
		if n > 0 {
			g.o.buf = append(g.o.buf, ',')
		}
		if err := g.value(ev); err != nil {
			return err
		}
		if err := g.o.maybeFlush(); err != nil {
			return err
		}
	}
}

// table writes a tabular array, or (keyed) a keyed map, whose start event
// is ev.
func (g *gen) table(ev *gcf.Event, keyed bool) error {
	from := 0
	if keyed {
		from = 1
	}
	p := g.plan(ev.Fields, from)
	if keyed {
		g.o.buf = append(g.o.buf, '{')
	} else {
		g.o.buf = append(g.o.buf, '[')
	}
	for n := 0; ; n++ {
		ev, err := g.read()
		if err != nil {
			return err
		}
		switch ev.Kind {
		case gcf.KindArrayEnd:
			g.o.buf = append(g.o.buf, ']')
			return nil
		case gcf.KindObjectEnd:
			g.o.buf = append(g.o.buf, '}')
			return nil
		case gcf.KindRow:
		default:
			return errInternal("unexpected " + ev.Kind.String() + " in a table")
		}
		if n > 0 {
			g.o.buf = append(g.o.buf, ',')
		}
		if keyed {
			g.o.buf = appendString(g.o.buf, ev.Cells[0].Bytes)
			g.o.buf = append(g.o.buf, ':')
		}
		if err := g.row(p, ev); err != nil {
			return err
		}
		g.rec++
		if err := g.o.maybeFlush(); err != nil {
			return err
		}
	}
}

// plan is how the rows of one field declaration become JSON objects.
type plan struct {
	from   int      // first value column: 1 in a keyed map, whose cell 0 is the key
	names  []string // the declared field names
	keys   [][]byte // per field: its JSON key and colon, `"name":`
	flat   bool     // no field is a `>` path: column j is member j
	nodes  []*node  // top-level members, when not flat
	nCells int
}

// node is a member of a row of a table with `>` path fields (SPEC
// §7.4.6.2): a column, or an object rebuilt from the path columns that
// share its prefix.
type node struct {
	name     string
	key      []byte // `"name":`
	col      int    // the column; -1 for a path object
	children []*node
}

func (g *gen) plan(fields [][]byte, from int) *plan {
	if p := g.lastPlan; p != nil && p.from == from && p.same(fields) {
		return p
	}
	g.keyBuf = append(g.keyBuf[:0], byte('0'+from))
	for _, f := range fields {
		g.keyBuf = strconv.AppendInt(g.keyBuf, int64(len(f)), 10)
		g.keyBuf = append(g.keyBuf, ':')
		g.keyBuf = append(g.keyBuf, f...)
	}
	p, ok := g.plans[string(g.keyBuf)]
	if !ok {
		p = newPlan(fields, from)
		if g.plans == nil {
			g.plans = make(map[string]*plan)
		}
		if len(g.plans) < 1024 {
			g.plans[string(g.keyBuf)] = p
		}
	}
	g.lastPlan = p
	return p
}

func (p *plan) same(fields [][]byte) bool {
	if len(fields) != len(p.names) {
		return false
	}
	for i, f := range fields {
		if string(f) != p.names[i] {
			return false
		}
	}
	return true
}

func newPlan(fields [][]byte, from int) *plan {
	p := &plan{from: from, names: make([]string, len(fields)), keys: make([][]byte, len(fields)), flat: true, nCells: len(fields)}
	for i, f := range fields {
		p.names[i] = string(f)
		p.keys[i] = append(appendString(nil, f), ':')
		if i >= from && lexer.PathSegments(f) != nil {
			p.flat = false
		}
	}
	if p.flat {
		return p
	}
	// Group the fields into members, as gcf.DecodeGeneric does: a plain
	// field is a member of its own; a path a>b>c adds c to the object b
	// of the object a, the objects being shared by the paths that name
	// them in turn.
	for i := from; i < len(fields); i++ {
		segs := lexer.PathSegments(fields[i])
		if segs == nil {
			p.nodes = append(p.nodes, &node{name: p.names[i], key: p.keys[i], col: i})
			continue
		}
		level := &p.nodes
		for k, seg := range segs {
			last := k == len(segs)-1
			var n *node
			if !last {
				for _, c := range *level {
					if c.col < 0 && c.name == string(seg) {
						n = c
						break
					}
				}
			}
			if n == nil {
				n = &node{name: string(seg), key: append(appendString(nil, seg), ':'), col: -1}
				if last {
					n.col = i
				}
				*level = append(*level, n)
			}
			level = &n.children
		}
	}
	return p
}

func hasMarkers(cells []gcf.Scalar, from int) bool {
	for i := from; i < len(cells); i++ {
		if k := cells[i].Kind; k == lexer.KindAttach || k == lexer.KindAttachSchema {
			return true
		}
	}
	return false
}

// attachmentNext reports whether the next event belongs to the row just
// read: a value with the attachment role or a positional inline body.
// (Inside a table everything but rows and the table's end is one.)
func (g *gen) attachmentNext() bool {
	switch g.d.PeekKind() {
	case gcf.KindScalar, gcf.KindObjectStart, gcf.KindArrayStart, gcf.KindInlineBody:
		return true
	}
	return false
}

// row writes the row ev (just read) of a table planned by p as a JSON
// object, attachments included.
func (g *gen) row(p *plan, ev *gcf.Event) error {
	if !p.flat || hasMarkers(ev.Cells, p.from) {
		return g.assembleRow(p, ev)
	}
	// The common case: the cells in order, then any `>`-named
	// attachments, straight to the output.
	var err error
	buf := append(g.o.buf, '{')
	n := 0
	for j := p.from; j < len(ev.Cells); j++ {
		c := &ev.Cells[j]
		if c.Kind == lexer.KindMissing {
			continue
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		n++
		buf = append(buf, p.keys[j]...)
		if buf, err = appendScalar(buf, c); err != nil {
			g.o.buf = buf
			return err
		}
	}
	g.o.buf = buf
	for g.attachmentNext() {
		nx, err := g.read()
		if err != nil {
			return err
		}
		if nx.Kind == gcf.KindInlineBody || nx.Field >= 0 {
			return errInternal("attachment to a row without ^ cells")
		}
		// A `>` name that is not a column: never the name of a column
		// of a flat table, which holds no `>`, and the decoder rejects a
		// second attachment of one name.
		if n > 0 {
			g.o.buf = append(g.o.buf, ',')
		}
		n++
		g.o.buf = appendString(g.o.buf, nx.Key)
		g.o.buf = append(g.o.buf, ':')
		if err := g.value(nx); err != nil {
			return err
		}
	}
	g.o.buf = append(g.o.buf, '}')
	return nil
}

// assembleRow writes a row that needs its members put in order: one with
// ^ cells, whose attachments follow it, or one of a table with `>` path
// fields. Each cell's JSON (and each attachment's) is written to the
// output buffer first, held there, then the row is assembled from those
// pieces and moved into their place.
func (g *gen) assembleRow(p *plan, ev *gcf.Event) error {
	o := g.o
	o.hold++
	defer func() { o.hold-- }()
	start := len(o.buf)
	base, xbase := len(g.cells), len(g.extras)
	defer func() { g.cells, g.extras = g.cells[:base], g.extras[:xbase] }()
	var err error
	for j := range ev.Cells {
		c := &ev.Cells[j]
		cs := cellSpan{st: cellValue}
		switch {
		case j < p.from:
		case c.Kind == lexer.KindMissing:
			cs.st = cellAbsent
		case c.Kind == lexer.KindNull:
			cs.st = cellNull
		case c.Kind == lexer.KindAttach || c.Kind == lexer.KindAttachSchema:
			cs.start = -1
		default:
			cs.start = len(o.buf)
			if o.buf, err = appendScalar(o.buf, c); err != nil {
				return err
			}
			cs.end = len(o.buf)
		}
		g.cells = append(g.cells, cs)
	}
	for g.attachmentNext() {
		nx, err := g.read()
		if err != nil {
			return err
		}
		s := len(o.buf)
		if nx.Kind == gcf.KindInlineBody {
			j := nx.Field
			o.buf = append(o.buf, '{')
			for i, f := range nx.Fields {
				if i > 0 {
					o.buf = append(o.buf, ',')
				}
				o.buf = appendString(o.buf, f)
				o.buf = append(o.buf, ':')
				if o.buf, err = appendScalar(o.buf, &nx.Cells[i]); err != nil {
					return err
				}
			}
			o.buf = append(o.buf, '}')
			if j < 0 || base+j >= len(g.cells) {
				return errInternal("inline body for no column")
			}
			g.cells[base+j] = cellSpan{span{s, len(o.buf)}, cellValue}
			continue
		}
		if nx.Role != gcf.RoleAttachment {
			return errInternal("unexpected " + nx.Kind.String() + " after a row")
		}
		if j := nx.Field; j >= 0 {
			if base+j >= len(g.cells) {
				return errInternal("attachment for no column")
			}
			if err := g.value(nx); err != nil {
				return err
			}
			g.cells[base+j] = cellSpan{span{s, len(o.buf)}, cellValue}
			continue
		}
		// A `>` name that is not a column: it follows the row's members.
		// (It cannot collide with one: top-level member names hold no
		// `>` unless they are columns, and the decoder rejects a second
		// attachment of one name.)
		o.buf = appendString(o.buf, nx.Key)
		o.buf = append(o.buf, ':')
		k := span{s, len(o.buf)}
		if err := g.value(nx); err != nil {
			return err
		}
		g.extras = append(g.extras, k, span{k.end, len(o.buf)})
	}

	cells := g.cells[base:]
	asm := len(o.buf)
	o.buf = append(o.buf, '{')
	n := 0
	if p.flat {
		for j := p.from; j < len(cells); j++ {
			if cells[j].st == cellAbsent {
				continue
			}
			if n > 0 {
				o.buf = append(o.buf, ',')
			}
			n++
			o.buf = append(o.buf, p.keys[j]...)
			o.buf = appendCell(o.buf, cells[j])
		}
	} else {
		for _, nd := range p.nodes {
			if nodeState(nd, cells) == cellAbsent {
				continue
			}
			if n > 0 {
				o.buf = append(o.buf, ',')
			}
			n++
			o.buf = append(o.buf, nd.key...)
			o.buf = appendNode(o.buf, nd, cells)
		}
	}
	for x := xbase; x < len(g.extras); x += 2 {
		if n > 0 {
			o.buf = append(o.buf, ',')
		}
		n++
		k, v := g.extras[x], g.extras[x+1]
		o.buf = append(o.buf, o.buf[k.start:k.end]...)
		o.buf = append(o.buf, o.buf[v.start:v.end]...)
	}
	o.buf = append(o.buf, '}')
	o.buf = o.buf[:start+copy(o.buf[start:], o.buf[asm:])]
	return nil
}

func appendCell(dst []byte, c cellSpan) []byte {
	if c.st == cellNull || c.start < 0 {
		return append(dst, "null"...)
	}
	return append(dst, dst[c.start:c.end]...)
}

// nodeState is the state of a member: its cell's, or for a path object
// absent when every part is absent, null when every part is null, and a
// value otherwise.
func nodeState(n *node, cells []cellSpan) cellState {
	if n.col >= 0 {
		return cells[n.col].st
	}
	allAbsent, allNull := true, true
	for _, c := range n.children {
		st := nodeState(c, cells)
		if st != cellAbsent {
			allAbsent = false
		}
		if st != cellNull {
			allNull = false
		}
	}
	switch {
	case allAbsent:
		return cellAbsent
	case allNull:
		return cellNull
	}
	return cellValue
}

func appendNode(dst []byte, n *node, cells []cellSpan) []byte {
	if n.col >= 0 {
		return appendCell(dst, cells[n.col])
	}
	if nodeState(n, cells) == cellNull {
		return append(dst, "null"...)
	}
	dst = append(dst, '{')
	k := 0
	for _, c := range n.children {
		if nodeState(c, cells) == cellAbsent {
			continue
		}
		if k > 0 {
			dst = append(dst, ',')
		}
		k++
		dst = append(dst, c.key...)
		dst = appendNode(dst, c, cells)
	}
	return append(dst, '}')
}
