package generic

import (
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gcfkit/gcf/internal/box"
	"github.com/gcfkit/gcf/internal/rowmap"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// DecodeGeneric decodes a generic-profile payload into the JSON data model:
// Object (member order kept), []any, int64, float64, string, bool or nil.
// Strings and the interfaces holding values are carved from shared chunks
// of a few kilobytes rather than allocated one by one, so a decoded value
// keeps its chunks alive while it is in use.
// Malformed input yields a *SyntaxError with the line, column and SPEC
// §16.5 category. It is a consumer of the pull decoder's events. A table's
// constant columns (spec v3.6.0 §7.4.7) and a grouped table's group values
// (§7.4.8) go into every record, each key in declaration order.
func DecodeGeneric(data []byte, opts ...Option) (any, error) {
	cfg := newConfig(opts)
	d := cfg.bytesDecoder(data)
	b := builder{d: d, budget: len(data)/2 + 1}
	b.sizeBoxes()
	return b.document()
}

// builder assembles values from stream events.
type builder struct {
	d      *stream.Decoder
	peeked bool
	ev     *stream.Event
	budget int // an upper bound on items still in the input, for presizing
	chunk  int // items per slab chunk; 0: from the budget (chunkItems)

	// arena holds the text of decoded strings, chunk by chunk: a string is
	// a slice of the chunk it was appended to, so strings cost no
	// allocation of their own. A chunk is only appended to, never
	// rewritten (a copy may write bytes past its end into the unused
	// capacity, which no string holds yet), which is what makes a string
	// of its bytes safe. Growing
	// the chunk in place writes only its length, no pointer (no write
	// barrier). Under purego the chunk is a strings.Builder (arenaPure).
	arena     []byte
	arenaPure strings.Builder

	plans    map[string]*tablePlan
	lastPlan *tablePlan
	keyBuf   []byte
	slab     []Member
	anySlab  []any

	rmaps rowmap.Slab // the map builder's direct path's records

	// Boxes for decoded values: most values cost no allocation of their own.
	strs   box.Slab[string]
	floats box.Slab[float64]
	ints   box.Slab[int64]
	objs   box.Slab[Object]
	arrs   box.Slab[[]any]

	// The direct rows of both builders (scanCells): the cells of a row of a
	// table with path columns, and the row's absent and null columns.
	genCells           []Member
	genAbsent, genNull uint64
}

// next returns the next event, borrowed from the decoder until the next
// call to next or peek.
func (b *builder) next() (*stream.Event, error) {
	ev, err := b.read()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	return ev, err
}

// read is next that reports the end of the stream as io.EOF.
func (b *builder) read() (*stream.Event, error) {
	if b.peeked {
		b.peeked = false
		return b.ev, nil
	}
	return b.d.Read()
}

func (b *builder) peek() (*stream.Event, error) {
	if !b.peeked {
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		if b.ev != ev { // the stream's one event, mostly: no pointer write
			b.ev = ev
		}
		b.peeked = true
	}
	return b.ev, nil
}

func (b *builder) document() (any, error) {
	ev, err := b.next()
	if err != nil {
		return nil, err
	}
	if ev.Kind != stream.KindHeader {
		return nil, errors.New("gcf: internal error: stream did not start with a header")
	}
	if ev.Profile != "generic" {
		return nil, &SyntaxError{Line: 1, Column: profileCol(ev), Category: lexer.UnknownProfile,
			Msg: "DecodeGeneric needs profile=generic, got profile=" + ev.Profile + " (use Decode)"}
	}
	ev, err = b.next()
	if err != nil {
		return nil, err
	}
	v, err := b.value(ev)
	if err != nil {
		return nil, err
	}
	for {
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindSummary:
			continue
		case stream.KindEnd:
			return v, nil
		}
		return nil, errors.New("gcf: internal error: unexpected " + ev.Kind.String() + " after the root value")
	}
}

// value builds the value that ev opens.
func (b *builder) value(ev *stream.Event) (any, error) {
	switch ev.Kind {
	case stream.KindScalar:
		return b.scalar(&ev.Value)
	case stream.KindObjectStart:
		if ev.Form == stream.FormKeyed {
			return b.table(ev, true)
		}
		return b.object()
	case stream.KindArrayStart:
		switch ev.Form {
		case stream.FormInline:
			arr := b.elems(len(ev.Cells))
			for i := range ev.Cells {
				v, err := b.scalar(&ev.Cells[i])
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			return b.arrs.Box(arr), b.expect(stream.KindArrayEnd)
		case stream.FormEmpty:
			return []any{}, b.expect(stream.KindArrayEnd)
		case stream.FormTabular:
			return b.table(ev, false)
		case stream.FormExpanded:
			return b.items()
		}
	}
	return nil, errors.New("gcf: internal error: unexpected " + ev.Kind.String() + " event where a value belongs")
}

func (b *builder) expect(k stream.Kind) error {
	ev, err := b.next()
	if err != nil {
		return err
	}
	if ev.Kind != k {
		return errors.New("gcf: internal error: expected " + k.String() + ", got " + ev.Kind.String())
	}
	return nil
}

func (b *builder) object() (any, error) {
	obj := Object{}
	for {
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		if ev.Kind == stream.KindObjectEnd {
			return b.objs.Box(obj), nil
		}
		key := b.text(ev.Key)
		v, err := b.value(ev)
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{Key: key, Value: v})
	}
}

func (b *builder) items() (any, error) {
	arr := []any{}
	for {
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		if ev.Kind == stream.KindArrayEnd {
			return b.arrs.Box(arr), nil
		}
		v, err := b.value(ev)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
}

// Slab chunks (members, []any elements) hold maxChunk items for a large
// input and for the streaming Decoder, and an eighth of the budget, at
// least minChunk, for a smaller input held whole, so that a small payload
// does not pay for chunks sized for large ones. An arena chunk holds four
// bytes per item (16 KiB for a large input); a longer string, or a longer
// run of members or elements, gets a chunk of its own.
const (
	maxChunk = 4096
	minChunk = 64
)

// chunkItems is how many items a new slab chunk holds.
func (b *builder) chunkItems() int {
	if b.chunk > 0 {
		return b.chunk
	}
	return min(maxChunk, max(minChunk, b.budget/8))
}

// sizeBoxes gives the value slabs (boxed strings, numbers, objects,
// arrays) a quarter of chunkItems per chunk when that is below their
// default of 256, for a builder sized by a small input.
func (b *builder) sizeBoxes() {
	if n := b.chunkItems() / 4; n < 256 {
		b.strs.SetChunk(n)
		b.floats.SetChunk(n)
		b.ints.SetChunk(n)
		b.objs.SetChunk(n)
		b.arrs.SetChunk(n)
		b.rmaps.SetChunk(max(1, n/16))
	}
}

// chunkLen is the length of a new slab chunk that must hold n items.
func (b *builder) chunkLen(n int) int { return max(b.chunkItems(), n) }

// arenaLen is the size of a new arena chunk that must hold n bytes.
func (b *builder) arenaLen(n int) int { return max(4*b.chunkItems(), n) }

// text returns t as a string whose bytes live in the arena.
func (b *builder) text(t []byte) string {
	if len(t) == 0 {
		return ""
	}
	if box.Purego {
		if b.arenaPure.Cap()-b.arenaPure.Len() < len(t) {
			b.arenaPure = strings.Builder{}
			b.arenaPure.Grow(b.arenaLen(len(t)))
		}
		start := b.arenaPure.Len()
		b.arenaPure.Write(t)
		return b.arenaPure.String()[start:]
	}
	n := len(b.arena)
	if cap(b.arena)-n < len(t) {
		b.arena, n = arenaChunk(b.arenaLen(len(t))), 0
	}
	// A string of 16 bytes or fewer is copied as two words when both
	// buffers have room for 16: the bytes past its end are read from t's
	// capacity and land in the arena's unused tail, which the next string
	// overwrites.
	if l := len(t); l <= 16 && cap(b.arena)-n >= 16 && cap(t) >= 16 {
		src, dst := t[:16], b.arena[n:n+16]
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
		binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:]))
		b.arena = b.arena[:n+l]
		return unsafe.String(&dst[0], l)
	}
	b.arena = b.arena[:n+len(t)]
	copy(b.arena[n:], t)
	return unsafe.String(&b.arena[n], len(t))
}

// arenaChunk returns an empty slice of capacity n or more whose bytes are not
// zeroed (strings.Builder.Grow allocates so): the arena's strings cover
// only bytes it has written, so the rest is never read.
func arenaChunk(n int) []byte {
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0) // a non-empty string, whose data pointer is the buffer's
	return unsafe.Slice(unsafe.StringData(sb.String()), sb.Cap())[:0]
}

// int boxes v; the runtime boxes small values without allocating.
func (b *builder) int(v int64) any {
	if v >= 0 && v < 256 {
		return v
	}
	return b.ints.Box(v)
}

// scalar converts a value-context scalar, boxing it in the builder's slabs.
func (b *builder) scalar(s *lexer.Scalar) (any, error) {
	switch s.Kind {
	case lexer.KindString:
		return b.strs.Box(b.text(s.Bytes)), nil
	case lexer.KindNull:
		return nil, nil
	case lexer.KindBool:
		return s.Bool, nil
	case lexer.KindInt:
		return b.int(s.Int), nil
	case lexer.KindFloat:
		f, err := lexer.ParseFloat(s.Bytes)
		if err != nil {
			// The stream decoder rejects such a token; this is a guard
			// that still positions the error on the current line.
			return nil, &SyntaxError{Line: b.d.Line(), Column: s.Col, Category: lexer.OutOfRange,
				Msg: "number " + lexer.Excerpt(s.Bytes) + " is outside the binary64 range", Err: err}
		}
		return b.floats.Box(f), nil
	}
	return nil, errors.New("gcf: internal error: scalar of kind " + s.Kind.String() + " in a value context")
}

// column is one node of a table's reconstruction plan: a plain column, or
// an object rebuilt from `>` path columns (SPEC §7.4.6.2).
type column struct {
	name     string
	col      int // leaf: column index; -1 for a path object
	children []*column
	keys     *rowmap.Keys // a path object's key set as a map (mapEvalVals)
}

// columnPlan groups a header's fields into top-level columns and path objects.
func columnPlan(fields [][]byte, from int) []*column {
	var top []*column
	for i := from; i < len(fields); i++ {
		name := fields[i]
		segs := lexer.PathSegments(name)
		if segs == nil {
			top = append(top, &column{name: string(name), col: i})
			continue
		}
		level := &top
		for k, seg := range segs {
			last := k == len(segs)-1
			var node *column
			for _, c := range *level {
				if c.name == string(seg) && (c.col < 0) != last {
					node = c
					break
				}
			}
			if node == nil || last {
				node = &column{name: string(seg), col: -1}
				if last {
					node.col = i
				}
				*level = append(*level, node)
			}
			level = &node.children
		}
	}
	return top
}

// cellState is the outcome of evaluating a plan node for one row.
type cellState uint8

const (
	cellAbsent cellState = iota
	cellNull
	cellValue
)

// eval builds a plan node's value from a row's cells.
func (b *builder) eval(p *tablePlan, c *column, cells []lexer.Scalar) (any, cellState, error) {
	if c.col >= 0 {
		return b.cell(p, &cells[c.col], c.col)
	}
	obj := b.members(len(c.children))
	allAbsent, allNull := true, true
	for _, ch := range c.children {
		v, st, err := b.eval(p, ch, cells)
		if err != nil {
			return nil, 0, err
		}
		if st != cellAbsent {
			allAbsent = false
			obj = append(obj, Member{Key: ch.name, Value: v})
		}
		if st != cellNull {
			allNull = false
		}
	}
	switch {
	case allAbsent:
		return nil, cellAbsent, nil
	case allNull:
		return nil, cellNull, nil
	}
	return b.objs.Box(obj), cellValue, nil
}

// tablePlan is how the rows of one field declaration become objects. Plans
// are cached per declaration, so the thousands of nested tables that share
// a declaration (`.items [N]` under every order) build it once.
type tablePlan struct {
	cols       []*column
	from       int // 1 for a keyed map, whose first field is the key
	fieldNames []string
	flat       bool                        // no path columns: cols[k] is field from+k
	intern     []internMap                 // per field: boxed strings seen in that column
	structs    map[reflect.Type]*rowPlan   // Decoder.Decode's row plans per struct type (nil: no fast path)
	fills      map[reflect.Type]*tableFill // Decoder.Decode's typed fill plans per row struct type (nil: tree path)
	lastFill   *tableFill
	rowKeys    *rowmap.Keys // the key set of a record as a map (mapKeys)
}

// internMap shares the boxed value of repeated strings in one column
// (departments, statuses, tiers, names drawn from a small set), saving an
// allocation per repeat. It is a direct-mapped cache: a slot holds the last
// string that hashed to it, so a lookup costs a short hash and one compare,
// and memory stays fixed. A column whose values rarely repeat stops
// interning after a sample of lookups.
type internMap struct {
	slots         []internSlot // 1<<(64-shift) of them, made at the first lookup
	shift         uint8
	lookups, hits int
	off           bool
}

// internSlot holds a boxed string, or nil; the string itself is the key.
type internSlot = any

const (
	internBits   = 10  // log2 of the slots per column, for a large input
	internSample = 256 // lookups after which a column must show repeats
)

// internBitsFor is log2 of the slots of an intern table when slab chunks
// hold chunk items: one slot per four items, so 1,024 for a large input
// and fewer for a small one, and 0 (no interning) below minChunk/4 slots.
func internBitsFor(chunk int) uint8 {
	n := chunk / 4
	if n < minChunk/4 {
		return 0
	}
	return uint8(min(bits.Len(uint(n))-1, internBits))
}

// internHash spreads b over 64 bits, of which a table takes the top ones.
// It reads at most the first and last eight bytes, which tell apart the
// short repeated values interning is for.
func internHash(b []byte) uint64 {
	n := len(b)
	var h uint64
	if n >= 8 {
		h = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 29)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	return (h ^ uint64(n)) * 0x9e3779b97f4a7c15
}

func (b *builder) plan(fields [][]byte, from int) *tablePlan {
	if p := b.lastPlan; p != nil && p.from == from && p.sameFields(fields) {
		return p // the common case: sibling tables with one declaration
	}
	p := b.lookupPlan(fields, from)
	b.lastPlan = p
	return p
}

// sameFields reports whether the plan was built for these field names.
func (p *tablePlan) sameFields(fields [][]byte) bool {
	if len(fields) != len(p.fieldNames) {
		return false
	}
	for i, f := range fields {
		if string(f) != p.fieldNames[i] {
			return false
		}
	}
	return true
}

func (b *builder) lookupPlan(fields [][]byte, from int) *tablePlan {
	b.keyBuf = b.keyBuf[:0]
	b.keyBuf = append(b.keyBuf, byte('0'+from))
	for _, f := range fields {
		b.keyBuf = strconv.AppendInt(b.keyBuf, int64(len(f)), 10)
		b.keyBuf = append(b.keyBuf, ':')
		b.keyBuf = append(b.keyBuf, f...)
	}
	if p, ok := b.plans[string(b.keyBuf)]; ok {
		return p
	}
	p := &tablePlan{cols: columnPlan(fields, from), from: from, fieldNames: make([]string, len(fields)), intern: make([]internMap, len(fields))}
	for i, f := range fields {
		p.fieldNames[i] = string(f)
	}
	p.flat = true
	for _, c := range p.cols {
		p.flat = p.flat && c.col >= 0
	}
	if b.plans == nil {
		b.plans = make(map[string]*tablePlan)
	}
	if len(b.plans) < 1024 {
		b.plans[string(b.keyBuf)] = p
	}
	return p
}

// members returns an empty Object with room for n members, carved from a
// shared slab so rows do not each allocate their member array.
func (b *builder) members(n int) Object {
	if cap(b.slab)-len(b.slab) < n {
		b.slab = make([]Member, 0, b.chunkLen(n))
	}
	l := len(b.slab)
	b.slab = b.slab[:l+n]
	return Object(b.slab[l : l : l+n])
}

// elems returns an empty []any with room for n elements, carved from a
// shared slab like members (a larger array gets its own allocation).
func (b *builder) elems(n int) []any {
	if n == 0 {
		return []any{} // never nil: an empty array is not null
	}
	if n > 1024 {
		return make([]any, 0, n)
	}
	if cap(b.anySlab)-len(b.anySlab) < n {
		b.anySlab = make([]any, 0, b.chunkLen(n))
	}
	l := len(b.anySlab)
	b.anySlab = b.anySlab[:l+n]
	return b.anySlab[l : l : l+n]
}

// presize bounds a container's initial capacity by its declared count and
// by what the input can hold (every item takes at least two bytes), so an
// untrusted count never sizes an allocation beyond the input.
func (b *builder) presize(count int64) int {
	if count <= 0 {
		return 0
	}
	if limit := int64(b.budget); count > limit {
		count = limit
	}
	return int(count)
}

// flatRow builds the object of a row with no path columns.
func (b *builder) flatRow(p *tablePlan, cells []lexer.Scalar, from int) (Object, error) {
	row := b.members(len(p.cols))
	for j := from; j < len(cells); j++ {
		v, st, err := b.cell(p, &cells[j], j)
		if err != nil {
			return nil, err
		}
		if st != cellAbsent {
			row = append(row, Member{Key: p.fieldNames[j], Value: v})
		}
	}
	return row, nil
}

// cell converts c, cell j of a row. Attachment markers yield a nil value
// the attachment fills later. Strings are interned per column, and copied
// into the arena otherwise.
func (b *builder) cell(p *tablePlan, c *lexer.Scalar, j int) (any, cellState, error) {
	switch c.Kind {
	case lexer.KindMissing:
		return nil, cellAbsent, nil
	case lexer.KindNull:
		return nil, cellNull, nil
	case lexer.KindBool:
		return c.Bool, cellValue, nil
	case lexer.KindInt:
		return b.int(c.Int), cellValue, nil
	case lexer.KindAttach, lexer.KindAttachSchema:
		return nil, cellValue, nil
	case lexer.KindString:
	default:
		v, err := b.scalar(c)
		return v, cellValue, err
	}
	return b.internString(p, j, c.Bytes), cellValue, nil
}

// internString boxes t, a string cell of column j, sharing the box of an
// equal string met before in that column.
func (b *builder) internString(p *tablePlan, j int, t []byte) any {
	im := &p.intern[j]
	var slot *internSlot
	if !im.off && im.slots == nil {
		if k := internBitsFor(b.chunkItems()); k > 0 {
			im.slots, im.shift = make([]internSlot, 1<<k), 64-k
		} else {
			im.off = true // a tiny input: nothing to share
		}
	}
	if !im.off {
		slot = &im.slots[internHash(t)>>im.shift]
		im.lookups++
		if s, ok := (*slot).(string); ok && s == string(t) {
			im.hits++
			return *slot
		}
		// A column of mostly unique values (names, ids, emails) stops
		// interning: fewer than one hit in four lookups is not worth it.
		if im.lookups == internSample && im.hits < internSample/4 {
			im.off, im.slots, slot = true, nil, nil
		}
	}
	v := b.strs.Box(b.text(t))
	if slot != nil {
		*slot = v
	}
	return v
}

// table builds a tabular array or (keyed) a keyed map. The rows the
// stream reports with AtRow are read without an event (genDirectRow).
func (b *builder) table(start *stream.Event, keyed bool) (any, error) {
	from := 0
	if keyed {
		from = 1
	}
	p := b.plan(start.Fields, from)
	var arr []any
	var obj Object
	if keyed {
		obj = make(Object, 0, b.presize(start.Count))
	} else {
		arr = b.elems(b.presize(start.Count))
	}
	direct := !keyed && DirectRows
	for {
		if direct && !b.peeked {
			row, ok, err := b.genDirectRow(p)
			if err != nil {
				return nil, err
			}
			if ok {
				if row, err = b.attachments(p, row, true); err != nil {
					return nil, err
				}
				arr = append(arr, b.objs.Box(row))
				continue
			}
		}
		ev, err := b.next()
		if err != nil {
			return nil, err
		}
		if ev.Kind == stream.KindArrayEnd || ev.Kind == stream.KindObjectEnd {
			if keyed {
				return b.objs.Box(obj), nil
			}
			return b.arrs.Box(arr), nil
		}
		if ev.Kind != stream.KindRow {
			return nil, errors.New("gcf: internal error: unexpected " + ev.Kind.String() + " in a table")
		}
		var row Object
		if p.flat {
			if row, err = b.flatRow(p, ev.Cells, from); err != nil {
				return nil, err
			}
		} else {
			row = b.members(len(p.cols))
			for _, c := range p.cols {
				v, st, err := b.eval(p, c, ev.Cells)
				if err != nil {
					return nil, err
				}
				if st != cellAbsent {
					row = append(row, Member{Key: c.name, Value: v})
				}
			}
		}
		var key string
		if keyed {
			key = b.text(ev.Cells[0].Bytes)
		}
		if row, err = b.attachments(p, row, false); err != nil {
			return nil, err
		}
		if keyed {
			obj = append(obj, Member{Key: key, Value: b.objs.Box(row)})
		} else {
			arr = append(arr, b.objs.Box(row))
		}
	}
}

// attachments fills the row's attachment cells from the events that follow
// it. With direct, a next row of the table (stream's AtRow) ends the row
// without being read, for genDirectRow.
func (b *builder) attachments(p *tablePlan, row Object, direct bool) (Object, error) {
	for {
		if direct && !b.peeked {
			if next, err := b.d.AtRow(); next || err != nil {
				return row, err
			}
		}
		nx, err := b.peek()
		if err != nil {
			return nil, err
		}
		if nx.Kind == stream.KindInlineBody {
			b.peeked = false
			inner := b.members(len(nx.Fields))
			for i, f := range nx.Fields {
				v, err := b.scalar(&nx.Cells[i])
				if err != nil {
					return nil, err
				}
				inner = append(inner, Member{Key: b.text(f), Value: v})
			}
			if err := fillObject(row, p.fieldNames[nx.Field], b.objs.Box(inner)); err != nil {
				return nil, err
			}
			continue
		}
		if nx.Role != stream.RoleAttachment || nx.Kind == stream.KindArrayEnd || nx.Kind == stream.KindObjectEnd {
			return row, nil
		}
		b.peeked = false
		field := nx.Field
		var name string
		if field < 0 {
			name = b.text(nx.Key) // a '>'-named field; columns have their names in the plan
		}
		v, err := b.value(nx)
		if err != nil {
			return nil, err
		}
		if field >= 0 {
			if err := fillObject(row, p.fieldNames[field], v); err != nil {
				return nil, err
			}
		} else {
			if _, dup := row.Get(name); dup {
				return nil, &SyntaxError{Line: nx.Line, Column: 1, Category: lexer.DuplicateKey,
					Msg: "attachment " + lexer.Quote([]byte(name)) + " collides with a decoded field"}
			}
			row = append(row, Member{Key: name, Value: v})
		}
	}
}

// fillObject stores v at o's member named by a (possibly `>` path) field.
func fillObject(o Object, field string, v any) error {
	var segs [][]byte
	if strings.IndexByte(field, '>') >= 0 {
		segs = lexer.PathSegments([]byte(field))
	}
	if segs == nil {
		for i := range o {
			if o[i].Key == field {
				o[i].Value = v
				return nil
			}
		}
		return errors.New("gcf: internal error: no slot for attachment " + field)
	}
	cur := o
	for k, seg := range segs {
		found := false
		for i := range cur {
			if cur[i].Key == string(seg) {
				if k == len(segs)-1 {
					cur[i].Value = v
					return nil
				}
				next, ok := cur[i].Value.(Object)
				if !ok {
					return errors.New("gcf: internal error: path attachment through a non-object")
				}
				cur = next
				found = true
				break
			}
		}
		if !found {
			break
		}
	}
	return errors.New("gcf: internal error: no slot for attachment " + field)
}
