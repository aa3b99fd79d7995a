package gcf

import (
	"io"
	"strconv"

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
	cfg := newConfig(opts)
	d := stream.NewBytesDecoder(data, cfg.limits)
	p := &Payload{Symbols: []Symbol{}, Edges: []Edge{}}
	var qnames []string         // by symbol id while ids are sequential (always, without a session)
	var sparse map[int64]string // by symbol id once a session payload skips ids
	distance := int64(0)
	group := ""
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return p, nil
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindHeader:
			if ev.Profile != "graph" {
				return nil, &SyntaxError{Line: 1, Column: 1, Category: lexer.UnknownProfile,
					Msg: "Decode needs profile=graph, got profile=" + ev.Profile + " (use DecodeGeneric)"}
			}
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
				case "delta":
					if v == "true" {
						return nil, &SyntaxError{Line: 1, Column: ev.Cells[i].Col, Category: lexer.MalformedDelta,
							Msg: "a delta payload is decoded with DecodeDelta"}
					}
				}
				if err != nil {
					return nil, err
				}
			}
		case stream.KindGroup:
			distance, group = ev.ID, string(ev.Key)
		case stream.KindSymbol:
			if distance < 0 {
				return nil, &SyntaxError{Line: ev.Line, Column: 1, Category: lexer.InvalidNodeLine,
					Msg: "symbol in group " + strconv.Quote(group) + ", which has no distance"}
			}
			score, err := lexer.ParseFloat(ev.Cells[2].Bytes)
			if err != nil {
				return nil, &SyntaxError{Line: ev.Line, Column: ev.Cells[2].Col, Category: lexer.InvalidScore, Msg: "score out of range"}
			}
			qn := string(ev.Cells[1].Bytes)
			p.Symbols = append(p.Symbols, Symbol{
				QualifiedName: qn,
				Kind:          KindExpand(string(ev.Cells[0].Bytes)),
				Score:         score,
				Provenance:    string(ev.Cells[3].Bytes),
				Distance:      int(distance),
			})
			switch {
			case sparse == nil && ev.ID == int64(len(qnames)):
				qnames = append(qnames, qn)
			default:
				if sparse == nil {
					sparse = make(map[int64]string, len(qnames)+1)
					for i, q := range qnames {
						sparse[int64(i)] = q
					}
				}
				sparse[ev.ID] = qn
			}
		case stream.KindReference:
			return nil, &SyntaxError{Line: ev.Line, Column: 1, Category: lexer.InvalidNodeLine,
				Msg: "session reference @" + strconv.FormatInt(ev.ID, 10) + " cannot be resolved without the session's earlier payloads"}
		case stream.KindEdge:
			name := func(id int64) string {
				if sparse != nil {
					return sparse[id]
				}
				return qnames[id] // the decoder has checked the id is declared
			}
			e := Edge{
				Target:   name(ev.Cells[0].Int),
				Source:   name(ev.Cells[1].Int),
				EdgeType: string(ev.Cells[2].Bytes),
			}
			if len(ev.Cells) > 3 {
				e.Status = string(ev.Cells[3].Bytes)
			}
			p.Edges = append(p.Edges, e)
		}
	}
}

func headerInt(ev stream.Event, i int) (int, error) {
	c := ev.Cells[i]
	v, err := strconv.Atoi(string(c.Bytes))
	if err != nil || v < 0 {
		return 0, &SyntaxError{Line: ev.Line, Column: c.Col, Category: lexer.MalformedHeaderField,
			Msg: "header field " + string(ev.Fields[i]) + " must be a non-negative integer"}
	}
	return v, nil
}

// DecodeDelta decodes a graph delta payload (SPEC §10.1): the header must
// say delta=true; only the sections removed, added, edges_removed and
// edges_added may appear. Apply the result with ApplyDelta.
func DecodeDelta(data []byte, opts ...Option) (*DeltaPayload, error) {
	cfg := newConfig(opts)
	d := stream.NewBytesDecoder(data, cfg.limits)
	dp := &DeltaPayload{Removed: []Symbol{}, Added: []Symbol{}, RemovedEdges: []Edge{}, AddedEdges: []Edge{}}
	section := ""
	isDelta := false
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return dp, nil
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindHeader:
			if ev.Profile != "graph" {
				return nil, &SyntaxError{Line: 1, Column: 1, Category: lexer.UnknownProfile,
					Msg: "DecodeDelta needs profile=graph, got profile=" + ev.Profile}
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
				return nil, &SyntaxError{Line: 1, Column: 1, Category: lexer.MalformedDelta, Msg: "the header does not say delta=true"}
			}
		case stream.KindGroup:
			section = string(ev.Key)
		case stream.KindRemoved:
			dp.Removed = append(dp.Removed, Symbol{Kind: KindExpand(string(ev.Cells[0].Bytes)), QualifiedName: string(ev.Cells[1].Bytes)})
		case stream.KindSymbol:
			score, err := lexer.ParseFloat(ev.Cells[2].Bytes)
			if err != nil {
				return nil, &SyntaxError{Line: ev.Line, Column: ev.Cells[2].Col, Category: lexer.InvalidScore, Msg: "score out of range"}
			}
			dp.Added = append(dp.Added, Symbol{
				QualifiedName: string(ev.Cells[1].Bytes),
				Kind:          KindExpand(string(ev.Cells[0].Bytes)),
				Score:         score,
				Provenance:    string(ev.Cells[3].Bytes),
				Distance:      int(ev.Cells[4].Int),
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
