package graph

import (
	"bytes"
	"io"
	"strconv"

	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Decode decodes a graph-profile payload (SPEC §3.2, §5, §6, §6a). Kinds
// are expanded (KindExpand; unknown abbreviations pass through), each
// symbol takes the distance of its group, and edges name their endpoints by
// qualified name. It is a consumer of the pull decoder's events, so every
// structural error carries its line, column and §16.5 category.
//
// A payload with session references (`@N  # previously transmitted`)
// cannot be resolved without the earlier payloads: Decode rejects it (SPEC
// §9.4: the consumer requests a full payload). A delta payload is decoded
// with DecodeDelta.
func Decode(data []byte, opts ...Option) (*Payload, error) {
	cfg := options.Resolve(opts)
	return decodeGraph(bytesDecoder(&cfg, data), nil, data)
}

// DecodeFrom reads a whole graph payload from d, whose header event is
// header (already read from d), or the next event when header is nil. It
// is Decode for a decoder that has already started, as gcf.Decoder.Decode
// into a *Payload.
func DecodeFrom(d *stream.Decoder, header *stream.Event) (*Payload, error) {
	return decodeGraph(d, header, nil)
}

// decodeGraph reads a whole graph payload from d, header first (ev when
// not nil). data is the whole input when decoding from memory (names then
// share copied chunks of it), or nil when reading from a stream.
func decodeGraph(d *stream.Decoder, ev *stream.Event, data []byte) (*Payload, error) {
	g := graphBuilder{data: data}
	p := &Payload{}
	distance := int64(0)
	group := ""
	var refs map[int64]struct{} // v1 session references
	for ; ; ev = nil {
		var err error
		if ev == nil {
			ev, err = d.Read()
		}
		if err == io.EOF {
			if p.Symbols == nil {
				p.Symbols = []Symbol{}
			}
			if p.Edges == nil {
				p.Edges = []Edge{}
			}
			return p, nil
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindHeader:
			if err := requireGraph(ev, "Decode"); err != nil {
				return nil, err
			}
			nsym, nedge := -1, -1
			for i, k := range ev.Fields {
				v := string(ev.Cells[i].Bytes)
				switch string(k) {
				case "tool":
					p.Tool = v
				case "budget":
					p.TokenBudget, err = headerInt(ev, i)
				case "tokens":
					p.TokensUsed, err = headerInt(ev, i)
				case "pack_root":
					p.PackRoot = v
				case "symbols":
					nsym, err = headerInt(ev, i)
				case "edges":
					nedge, err = headerInt(ev, i)
				case "delta":
					if v == "true" {
						return nil, &lexer.SyntaxError{Line: 1, Column: ev.Cells[i].Col, Category: lexer.MalformedDelta,
							Msg: "a delta payload is decoded with DecodeDelta"}
					}
				}
				if err != nil {
					return nil, err
				}
			}
			p.Symbols, p.Edges = g.presize(nsym, nedge)
		case stream.KindGroup:
			distance, group = ev.ID, string(ev.Key)
		case stream.KindSymbol:
			if distance < 0 {
				return nil, &lexer.SyntaxError{Line: ev.Line, Column: 1, Category: lexer.InvalidNodeLine,
					Msg: "symbol in group " + lexer.Quote([]byte(group)) + ", which has no distance"}
			}
			score, err := lexer.ParseFloat(ev.Cells[2].Bytes)
			if err != nil { // the stream decoder rejects such a score first
				return nil, &lexer.SyntaxError{Line: ev.Line, Column: ev.Cells[2].Col, Category: lexer.OutOfRange, Msg: "score out of range"}
			}
			p.Symbols = append(p.Symbols, Symbol{
				QualifiedName: g.qname(ev, &ev.Cells[1]),
				Kind:          g.kind(ev.Cells[0].Bytes),
				Score:         score,
				Provenance:    g.word(ev.Cells[3].Bytes),
				Distance:      int(distance),
			})
			if g.sparse != nil || ev.ID != int64(len(p.Symbols)-1) {
				g.index(p.Symbols, ev.ID)
			} else {
				g.qnames = append(g.qnames, p.Symbols[len(p.Symbols)-1].QualifiedName)
			}
		case stream.KindReference:
			if d.Wire() == stream.WireV1 {
				// A v1 reference's id is local to its payload and names no
				// symbol: it is skipped, with the edges that touch it
				// (docs/legacy-v1.md).
				if refs == nil {
					refs = map[int64]struct{}{}
				}
				refs[ev.ID] = struct{}{}
				continue
			}
			return nil, &lexer.SyntaxError{Line: ev.Line, Column: 1, Category: lexer.InvalidNodeLine,
				Msg: "session reference @" + strconv.FormatInt(ev.ID, 10) + " cannot be resolved without the session's earlier payloads"}
		case stream.KindEdge:
			if refs != nil {
				_, t := refs[ev.Cells[0].Int]
				_, s := refs[ev.Cells[1].Int]
				if t || s {
					continue
				}
			}
			e := Edge{
				Target:   g.name(p.Symbols, ev.Cells[0].Int),
				Source:   g.name(p.Symbols, ev.Cells[1].Int),
				EdgeType: g.word(ev.Cells[2].Bytes),
			}
			if len(ev.Cells) > 3 {
				e.Status = g.word(ev.Cells[3].Bytes)
			}
			p.Edges = append(p.Edges, e)
		}
	}
}

// graphBuilder holds what Decode shares across lines: the strings of
// qualified names come from copies of input chunks (one copy per chunk,
// not per name), short repeated words are interned, and ids map to symbols.
type graphBuilder struct {
	data      []byte
	chunk     string // a copy of data[chunkBase : chunkBase+len(chunk)]
	chunkBase int
	words     map[string]string
	recent    [4]string     // the last words interned, checked before the map
	sparse    map[int64]int // symbol id -> index, once ids stop matching indexes
	// qnames holds the names by id while ids match indexes: edges resolve
	// endpoints through this compact slice rather than the larger symbols.
	qnames []string
}

const graphChunk = 64 << 10

// presize allocates the symbol and edge slices from the declared counts
// (or, in a streaming payload, from a count of the lines that can hold
// them), never more than the input can contain.
func (g *graphBuilder) presize(nsym, nedge int) ([]Symbol, []Edge) {
	if g.data == nil { // a stream: its size is unknown, so trust no count
		return []Symbol{}, []Edge{}
	}
	if nsym < 0 || nedge < 0 {
		// Edge lines ("@0<@1 calls") start with '@' too, so the node
		// lines are the '@' lines less the edges. A name holding "<@"
		// only makes the hint low (append then grows the slice).
		edges := bytes.Count(g.data, []byte("<@"))
		if nsym < 0 {
			nsym = max(0, bytes.Count(g.data, []byte("\n@"))-edges)
		}
		if nedge < 0 {
			nedge = edges
		}
	}
	nsym = min(nsym, len(g.data)/13)  // "@0 k q 0.00 p\n" is the shortest node line
	nedge = min(nedge, len(g.data)/8) // "@0<@0 t\n"
	g.qnames = make([]string, 0, nsym)
	return make([]Symbol, 0, nsym), make([]Edge, 0, nedge)
}

// qname returns the text of cell c of the line of ev as a string that
// shares a copied chunk of the input.
func (g *graphBuilder) qname(ev *stream.Event, c *lexer.Scalar) string {
	if g.data == nil {
		return string(c.Bytes)
	}
	off := int(ev.Offset) + c.Col - 1
	n := len(c.Bytes)
	if off < g.chunkBase || off+n > g.chunkBase+len(g.chunk) {
		end := min(len(g.data), off+max(n, graphChunk))
		g.chunk, g.chunkBase = string(g.data[off:end]), off
	}
	return g.chunk[off-g.chunkBase : off-g.chunkBase+n]
}

// word interns a short repeated word (provenance, edge type, status).
func (g *graphBuilder) word(b []byte) string {
	for _, r := range g.recent {
		if r == string(b) && r != "" {
			return r
		}
	}
	s, ok := g.words[string(b)]
	if ok {
		copy(g.recent[1:], g.recent[:3])
		g.recent[0] = s
		return s
	}
	s = string(b)
	if g.words == nil {
		g.words = make(map[string]string)
	}
	if len(g.words) < 4096 {
		g.words[s] = s
	}
	return s
}

// kind expands a kind abbreviation without allocating for known kinds.
func (g *graphBuilder) kind(b []byte) string {
	switch string(b) { // no allocation: the compiler compares in place
	case "fn":
		return "function"
	case "iface":
		return "interface"
	case "route":
		return "route_handler"
	case "ext":
		return "external"
	case "pkg":
		return "package"
	case "svc":
		return "service"
	case "type":
		return "type"
	case "method":
		return "method"
	case "var":
		return "var"
	case "const":
		return "const"
	case "field":
		return "field"
	case "class":
		return "class"
	case "table":
		return "table"
	case "file":
		return "file"
	case "resource":
		return "resource"
	case "selector":
		return "selector"
	}
	return g.word(b)
}

// index records that symbol id sits at the end of syms.
func (g *graphBuilder) index(syms []Symbol, id int64) {
	if g.sparse == nil {
		g.sparse = make(map[int64]int, len(syms))
		for i := 0; i < len(syms)-1; i++ {
			g.sparse[int64(i)] = i
		}
	}
	g.sparse[id] = len(syms) - 1
}

// name returns the qualified name of a declared symbol id.
func (g *graphBuilder) name(syms []Symbol, id int64) string {
	if g.sparse != nil {
		return syms[g.sparse[id]].QualifiedName
	}
	return g.qnames[id] // the decoder has checked the id is declared
}

// requireGraph rejects a header whose profile is not graph.
func requireGraph(ev *stream.Event, fn string) error {
	if ev.Profile == "graph" {
		return nil
	}
	if len(ev.Fields) == 0 && ev.Profile == "generic" {
		// A v1 payload without a header line: the tabular profile.
		return &lexer.SyntaxError{Line: 1, Column: 1, Category: lexer.MissingHeader,
			Msg: fn + ": the first line must begin with GCF (a v1 payload without a header is a generic one: use DecodeGeneric)"}
	}
	return &lexer.SyntaxError{Line: 1, Column: profileCol(ev), Category: lexer.UnknownProfile,
		Msg: fn + " needs profile=graph, got profile=" + ev.Profile + " (use DecodeGeneric)"}
}

// profileCol returns the column of the profile value in a header event
// (profile= is the header's first field).
func profileCol(ev *stream.Event) int {
	if len(ev.Cells) > 0 {
		return ev.Cells[0].Col
	}
	return 1
}

func headerInt(ev *stream.Event, i int) (int, error) {
	c := ev.Cells[i]
	v, err := strconv.Atoi(string(c.Bytes))
	if err != nil || v < 0 {
		return 0, &lexer.SyntaxError{Line: ev.Line, Column: c.Col, Category: lexer.MalformedHeaderField,
			Msg: "header field " + lexer.Excerpt(ev.Fields[i]) + " must be a non-negative integer"}
	}
	return v, nil
}

// DecodeDelta decodes a graph delta payload (SPEC §10.1): the header must
// say delta=true; only the sections removed, added, edges_removed and
// edges_added may appear. Apply the result with ApplyDelta.
func DecodeDelta(data []byte, opts ...Option) (*DeltaPayload, error) {
	cfg := options.Resolve(opts)
	d := bytesDecoder(&cfg, data)
	dp := &DeltaPayload{Removed: []Symbol{}, Added: []Symbol{}, RemovedEdges: []Edge{}, AddedEdges: []Edge{}}
	section := ""
	isDelta := false
	for {
		ev, err := d.Read()
		if err == io.EOF {
			return dp, nil
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindHeader:
			if err := requireGraph(ev, "DecodeDelta"); err != nil {
				return nil, err
			}
			for i, k := range ev.Fields {
				v := string(ev.Cells[i].Bytes)
				switch string(k) {
				case "tool":
					dp.Tool = v
				case "base_root":
					dp.BaseRoot = v
				case "new_root":
					dp.NewRoot = v
				case "tokens":
					if dp.DeltaTokens, err = headerInt(ev, i); err != nil {
						return nil, err
					}
				case "delta":
					isDelta = v == "true"
				}
			}
			if !isDelta {
				return nil, &lexer.SyntaxError{Line: 1, Column: 1, Category: lexer.MalformedDelta, Msg: "the header does not say delta=true"}
			}
		case stream.KindGroup:
			section = string(ev.Key)
		case stream.KindRemoved:
			dp.Removed = append(dp.Removed, Symbol{Kind: KindExpand(string(ev.Cells[0].Bytes)), QualifiedName: string(ev.Cells[1].Bytes)})
		case stream.KindSymbol:
			score, err := ev.Score()
			if err != nil {
				return nil, err
			}
			dp.Added = append(dp.Added, Symbol{
				QualifiedName: string(ev.Cells[1].Bytes),
				Kind:          KindExpand(string(ev.Cells[0].Bytes)),
				Score:         score,
				Provenance:    string(ev.Cells[3].Bytes),
				Distance:      int(max(ev.Distance(), 0)), // a v1 added line has none: 0
			})
		case stream.KindDeltaEdge:
			e := Edge{Source: string(ev.Cells[0].Bytes), Target: string(ev.Cells[1].Bytes), EdgeType: string(ev.Cells[2].Bytes)}
			if section == "edges_removed" {
				dp.RemovedEdges = append(dp.RemovedEdges, e)
			} else {
				dp.AddedEdges = append(dp.AddedEdges, e)
			}
		}
	}
}
