package transcode

import (
	"strconv"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/lexer"
)

// Graph payloads (SPEC §5, §6, §6a) are written as json.Marshal writes a
// *gcf.Payload: the header's fields, then "symbols", then "edges". Edges
// name their endpoints, so the qualified name of every symbol is kept, in
// JSON form, in one byte arena with one offset per symbol (names); that is
// the only memory that grows with the payload.
//
// Every encoder writes all symbol groups before the edges, but the format
// does not require it. Once the header's symbols= count has been reached
// no symbol can follow, so edges go straight out; without that count
// (a streamed payload) edges are held back, as JSON, until pendingEdges
// bytes of them have accumulated, and only then committed to the output.
// A symbol group after that many bytes of edges cannot be moved in front
// of them, and ToJSON reports it (gcf.Decode can, holding everything).
var pendingEdges = 8 << 20 // a variable so that tests can lower it

// deltaBuffer bounds the JSON held for a graph delta (SPEC §10), whose
// sections may come in any order while the JSON lists removed, added,
// removedEdges and addedEdges in that order: ToJSON buffers a delta's
// sections and refuses a delta whose JSON would exceed it.
var deltaBuffer = 64 << 20 // a variable so that tests can lower it

// names maps symbol ids to their qualified names, in JSON form, for edges.
type names struct {
	data []byte // the names back to back
	ends []int  // ends[i] is the end of name i in data; it starts at ends[i-1]
	// sparse maps ids to indexes once they stop matching (only session
	// payloads, SPEC §9, may declare ids out of sequence).
	sparse map[int64]int
}

func (n *names) add(id int64, qname []byte) {
	i := len(n.ends)
	if n.sparse == nil && id != int64(i) {
		n.sparse = make(map[int64]int)
		for k := range i {
			n.sparse[int64(k)] = k
		}
	}
	if n.sparse != nil {
		n.sparse[id] = i
	}
	n.data = appendMarshalString(n.data, qname)
	n.ends = append(n.ends, len(n.data))
}

// get returns the JSON of a declared symbol's name (the decoder has
// checked that the id is declared).
func (n *names) get(id int64) []byte {
	i := int(id)
	if n.sparse != nil {
		i = n.sparse[id]
	}
	start := 0
	if i > 0 {
		start = n.ends[i-1]
	}
	return n.data[start:n.ends[i]]
}

// graphHeader holds the header fields graph JSON carries.
type graphHeader struct {
	tool, packRoot, baseRoot, newRoot []byte
	tokens, budget                    int
	symbols                           int // the header's symbols= count, or -1
	delta                             bool
}

// readGraphHeader reads the fields of a graph header event, checking the
// numeric ones in header order as gcf.Decode (or, for a delta,
// gcf.DecodeDelta) does.
func readGraphHeader(ev *gcf.Event) (graphHeader, error) {
	h := graphHeader{symbols: -1}
	for i, k := range ev.Fields {
		if string(k) == "delta" && string(ev.Cells[i].Bytes) == "true" {
			h.delta = true
		}
	}
	for i, k := range ev.Fields {
		v := ev.Cells[i].Bytes
		var err error
		switch string(k) {
		case "tool":
			h.tool = append([]byte(nil), v...)
		case "pack_root":
			h.packRoot = append([]byte(nil), v...)
		case "base_root":
			h.baseRoot = append([]byte(nil), v...)
		case "new_root":
			h.newRoot = append([]byte(nil), v...)
		case "tokens":
			h.tokens, err = headerInt(ev, i)
		case "budget", "symbols", "edges":
			if !h.delta {
				var n int
				n, err = headerInt(ev, i)
				switch string(k) {
				case "budget":
					h.budget = n
				case "symbols":
					h.symbols = n
				}
			}
		}
		if err != nil {
			return h, err
		}
	}
	return h, nil
}

func headerInt(ev *gcf.Event, i int) (int, error) {
	c := ev.Cells[i]
	v, err := strconv.Atoi(string(c.Bytes))
	if err != nil || v < 0 {
		return 0, &gcf.SyntaxError{Line: ev.Line, Column: c.Col, Category: gcf.MalformedHeaderField,
			Msg: "header field " + string(ev.Fields[i]) + " must be a non-negative integer"}
	}
	return v, nil
}

// appendKind appends the JSON of a symbol's full kind (SPEC §5 table;
// unknown abbreviations pass through).
func appendKind(dst, abbrev []byte) []byte {
	switch string(abbrev) {
	case "fn":
		return append(dst, `"function"`...)
	case "iface":
		return append(dst, `"interface"`...)
	case "route":
		return append(dst, `"route_handler"`...)
	case "ext":
		return append(dst, `"external"`...)
	case "pkg":
		return append(dst, `"package"`...)
	case "svc":
		return append(dst, `"service"`...)
	case "type", "method", "var", "const", "field", "class", "table", "file", "resource", "selector":
		return appendMarshalString(dst, abbrev)
	}
	return appendMarshalString(dst, []byte(gcf.KindExpand(string(abbrev))))
}

// appendSymbol appends the members of a symbol's JSON (without braces).
func appendSymbol(dst []byte, ev *gcf.Event, distance int64) ([]byte, error) {
	score, err := lexer.ParseFloat(ev.Cells[2].Bytes)
	if err != nil {
		return dst, &gcf.SyntaxError{Line: ev.Line, Column: ev.Cells[2].Col, Category: gcf.InvalidScore, Msg: "score out of range"}
	}
	dst = append(dst, `"qualifiedName":`...)
	dst = appendMarshalString(dst, ev.Cells[1].Bytes)
	dst = append(dst, `,"kind":`...)
	dst = appendKind(dst, ev.Cells[0].Bytes)
	dst = append(dst, `,"score":`...)
	dst = appendMarshalFloat(dst, score)
	dst = append(dst, `,"provenance":`...)
	dst = appendMarshalString(dst, ev.Cells[3].Bytes)
	dst = append(dst, `,"distance":`...)
	return strconv.AppendInt(dst, int64(int(distance)), 10), nil
}

// appendEdge appends the members of an edge's JSON; source and target are
// already JSON strings.
func appendEdge(dst, source, target, edgeType, status []byte) []byte {
	dst = append(dst, `"source":`...)
	dst = append(dst, source...)
	dst = append(dst, `,"target":`...)
	dst = append(dst, target...)
	dst = append(dst, `,"edgeType":`...)
	dst = appendMarshalString(dst, edgeType)
	dst = append(dst, `,"status":`...)
	return appendMarshalString(dst, status)
}

// graphWriter writes a graph payload as JSON or as NDJSON.
type graphWriter struct {
	d     *gcf.Decoder
	o     *output
	lines bool // NDJSON
	rec   int64
	names names

	nsym, nedge int64
	unconfirmed int64    // the Count of the KindEnd event
	pend        [][]byte // edges not yet committed (JSON mode), in chunks
	npend       int      // bytes in pend
	committed   bool
	late        bool // a symbol came after the edges were committed
	scratch     []byte
	refs        map[int64]struct{} // v1 session references, skipped
}

// graph writes the body of a graph payload whose header h has been read.
func (g *graphWriter) graph(h graphHeader) error {
	o := g.o
	if g.lines {
		o.buf = append(o.buf, `{"type":"header",`...)
	} else {
		o.buf = append(o.buf, '{')
	}
	o.buf = append(o.buf, `"tool":`...)
	o.buf = appendMarshalString(o.buf, h.tool)
	o.buf = append(o.buf, `,"tokensUsed":`...)
	o.buf = strconv.AppendInt(o.buf, int64(h.tokens), 10)
	o.buf = append(o.buf, `,"tokenBudget":`...)
	o.buf = strconv.AppendInt(o.buf, int64(h.budget), 10)
	o.buf = append(o.buf, `,"packRoot":`...)
	o.buf = appendMarshalString(o.buf, h.packRoot)
	if g.lines {
		o.buf = append(o.buf, "}\n"...)
		g.rec++
	} else {
		o.buf = append(o.buf, `,"symbols":[`...)
	}
	distance, group := int64(0), ""
	for {
		ev, err := g.d.Read()
		if err != nil {
			return err // io.EOF never comes before KindEnd
		}
		switch ev.Kind {
		case gcf.KindGroup:
			distance, group = ev.ID, string(ev.Key)
		case gcf.KindSymbol:
			if distance < 0 {
				return &gcf.SyntaxError{Line: ev.Line, Column: 1, Category: gcf.InvalidNodeLine,
					Msg: "symbol in group " + strconv.Quote(group) + ", which has no distance"}
			}
			if g.committed && !g.lines {
				// Too late to list it before the edges. Read on, so
				// that a malformed payload still reports its own error.
				g.late = true
				continue
			}
			switch {
			case g.lines:
				o.buf = append(o.buf, `{"type":"symbol",`...)
			case g.nsym > 0:
				o.buf = append(o.buf, ",{"...)
			default:
				o.buf = append(o.buf, '{')
			}
			if o.buf, err = appendSymbol(o.buf, ev, distance); err != nil {
				return err
			}
			o.buf = append(o.buf, '}')
			if g.lines {
				o.buf = append(o.buf, '\n')
			}
			g.names.add(ev.ID, ev.Cells[1].Bytes)
			g.nsym++
			g.rec++
			if !g.lines && g.nsym == int64(h.symbols) {
				// The header's count is reached: no symbol can follow.
				if err := g.commitEdges(); err != nil {
					return err
				}
			}
		case gcf.KindReference:
			if g.d.Wire() == gcf.WireV1 {
				// As gcf.Decode with WireV1: a v1 reference names no
				// symbol; it and the edges touching it are skipped.
				if g.refs == nil {
					g.refs = map[int64]struct{}{}
				}
				g.refs[ev.ID] = struct{}{}
				continue
			}
			return &gcf.SyntaxError{Line: ev.Line, Column: 1, Category: gcf.InvalidNodeLine,
				Msg: "session reference @" + strconv.FormatInt(ev.ID, 10) + " cannot be resolved without the session's earlier payloads"}
		case gcf.KindEdge:
			if g.refs != nil {
				_, t := g.refs[ev.Cells[0].Int]
				_, s := g.refs[ev.Cells[1].Int]
				if t || s {
					continue
				}
			}
			var status []byte
			if len(ev.Cells) > 3 {
				status = ev.Cells[3].Bytes
			}
			src, tgt := g.names.get(ev.Cells[1].Int), g.names.get(ev.Cells[0].Int)
			switch {
			case g.lines:
				o.buf = append(o.buf, `{"type":"edge",`...)
				o.buf = appendEdge(o.buf, src, tgt, ev.Cells[2].Bytes, status)
				o.buf = append(o.buf, "}\n"...)
			case g.committed:
				if g.nedge > 0 {
					o.buf = append(o.buf, ',')
				}
				o.buf = append(o.buf, '{')
				o.buf = appendEdge(o.buf, src, tgt, ev.Cells[2].Bytes, status)
				o.buf = append(o.buf, '}')
			default:
				g.scratch = append(g.scratch[:0], ',', '{')
				g.scratch = appendEdge(g.scratch, src, tgt, ev.Cells[2].Bytes, status)
				g.scratch = append(g.scratch, '}')
				g.hold(g.scratch)
				if g.npend >= pendingEdges {
					if err := g.commitEdges(); err != nil {
						return err
					}
				}
			}
			g.nedge++
			g.rec++
		case gcf.KindEnd:
			g.unconfirmed = ev.Count
			if g.late {
				return errSymbolsAfterEdges
			}
			if !g.lines {
				if !g.committed {
					if err := g.commitEdges(); err != nil {
						return err
					}
				}
				o.buf = append(o.buf, "]}\n"...)
			}
			return nil
		}
		if err := o.maybeFlush(); err != nil {
			return err
		}
	}
}

var errSymbolsAfterEdges = gcfError("a symbol group follows more than 8 MiB of edges: JSON lists symbols first and ToJSON does not hold that many edges back (gcf.Decode, which holds the whole payload, can)")

type gcfError string

func (e gcfError) Error() string { return "transcode: " + string(e) }

// hold keeps the JSON of an edge, preceded by a comma, until the edges
// are committed.
func (g *graphWriter) hold(e []byte) {
	const chunk = 64 << 10
	if n := len(g.pend); n == 0 || cap(g.pend[n-1])-len(g.pend[n-1]) < len(e) {
		g.pend = append(g.pend, make([]byte, 0, max(chunk, len(e))))
	}
	last := &g.pend[len(g.pend)-1]
	*last = append(*last, e...)
	g.npend += len(e)
}

// commitEdges closes the symbols and writes the edges held back; after it
// edges go straight to the output.
func (g *graphWriter) commitEdges() error {
	if g.committed {
		return nil
	}
	g.o.buf = append(g.o.buf, `],"edges":[`...)
	g.committed = true
	for i, c := range g.pend {
		if i == 0 {
			c = c[1:] // the first edge's comma
		}
		if err := g.o.flush(); err != nil {
			return err
		}
		g.o.buf, c = c, g.o.buf
		err := g.o.flush()
		g.o.buf = c[:0]
		if err != nil {
			return err
		}
	}
	g.pend, g.npend = nil, 0
	return nil
}

// delta writes a graph delta whose header h has been read (SPEC §10).
// As JSON its four lists are buffered, at most deltaBuffer bytes, since
// the sections may come in any order; as NDJSON each line is written as
// it is read.
func (g *graphWriter) delta(h graphHeader) error {
	o := g.o
	var lists [4][]byte // removed, added, removedEdges, addedEdges
	var counts [4]int
	total := 0
	if g.lines {
		o.buf = append(o.buf, `{"type":"delta","tool":`...)
		o.buf = appendMarshalString(o.buf, h.tool)
		o.buf = append(o.buf, `,"baseRoot":`...)
		o.buf = appendMarshalString(o.buf, h.baseRoot)
		o.buf = append(o.buf, `,"newRoot":`...)
		o.buf = appendMarshalString(o.buf, h.newRoot)
		o.buf = append(o.buf, `,"deltaTokens":`...)
		o.buf = strconv.AppendInt(o.buf, int64(h.tokens), 10)
		o.buf = append(o.buf, "}\n"...)
		g.rec++
	}
	section := ""
	for {
		ev, err := g.d.Read()
		if err != nil {
			return err
		}
		var list int
		var b []byte
		switch ev.Kind {
		case gcf.KindGroup:
			section = string(ev.Key)
			continue
		case gcf.KindRemoved:
			list = 0
			b = append(g.scratch[:0], `"qualifiedName":`...)
			b = appendMarshalString(b, ev.Cells[1].Bytes)
			b = append(b, `,"kind":`...)
			b = appendKind(b, ev.Cells[0].Bytes)
			if !g.lines {
				b = append(b, `,"score":0,"provenance":"","distance":0`...)
			}
		case gcf.KindSymbol:
			list = 1
			// A v1 added line carries no distance: 0, as gcf.DecodeDelta.
			if b, err = appendSymbol(g.scratch[:0], ev, max(ev.Distance(), 0)); err != nil {
				return err
			}
		case gcf.KindDeltaEdge:
			list = 3
			if section == "edges_removed" {
				list = 2
			}
			b = append(g.scratch[:0], `"source":`...)
			b = appendMarshalString(b, ev.Cells[0].Bytes)
			b = append(b, `,"target":`...)
			b = appendMarshalString(b, ev.Cells[1].Bytes)
			b = append(b, `,"edgeType":`...)
			b = appendMarshalString(b, ev.Cells[2].Bytes)
			b = append(b, `,"status":""`...)
		case gcf.KindEnd:
			g.unconfirmed = ev.Count
			if g.lines {
				return nil
			}
			for i, name := range [4]string{`"removed":[`, `"added":[`, `"removedEdges":[`, `"addedEdges":[`} {
				if i == 0 {
					o.buf = append(o.buf, `{"tool":`...)
					o.buf = appendMarshalString(o.buf, h.tool)
					o.buf = append(o.buf, `,"baseRoot":`...)
					o.buf = appendMarshalString(o.buf, h.baseRoot)
					o.buf = append(o.buf, `,"newRoot":`...)
					o.buf = appendMarshalString(o.buf, h.newRoot)
				}
				o.buf = append(o.buf, ',')
				o.buf = append(o.buf, name...)
				o.buf = append(o.buf, lists[i]...)
				o.buf = append(o.buf, ']')
				lists[i] = nil
				if err := o.maybeFlush(); err != nil {
					return err
				}
			}
			o.buf = append(o.buf, `,"deltaTokens":`...)
			o.buf = strconv.AppendInt(o.buf, int64(h.tokens), 10)
			o.buf = append(o.buf, ",\"fullTokens\":0}\n"...)
			return nil
		default:
			continue
		}
		g.scratch = b
		g.rec++
		if g.lines {
			o.buf = append(o.buf, `{"type":`...)
			o.buf = append(o.buf, [4]string{`"removed",`, `"added",`, `"removedEdge",`, `"addedEdge",`}[list]...)
			o.buf = append(o.buf, b...)
			o.buf = append(o.buf, "}\n"...)
			if err := o.maybeFlush(); err != nil {
				return err
			}
			continue
		}
		if total += len(b) + 3; total > deltaBuffer {
			return errDeltaTooLarge
		}
		if counts[list] > 0 {
			lists[list] = append(lists[list], ',')
		}
		lists[list] = append(lists[list], '{')
		lists[list] = append(lists[list], b...)
		lists[list] = append(lists[list], '}')
		counts[list]++
	}
}

var errDeltaTooLarge = gcfError("a graph delta whose JSON exceeds 64 MiB: its sections may come in any order, so ToJSON buffers a delta, up to that size (use ToNDJSON, which does not)")
