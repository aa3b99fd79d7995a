// Package legacy converts the legacy GCF v1.x wire (SPEC-v1.1 as amended by
// SPEC-v1.4; docs/legacy-v1.md) to GCF v3: the line-by-line migration of
// graph, session and delta payloads behind gcf.Migrate.
//
// Reading v1 is a mode of the pull decoder (stream.WireV1), writing it a
// mode of the encoders (gcf.WithWire(gcf.WireV1)) and of the encoder
// package's v1 formatting; validating it is ast.ValidateV1 over
// grammar.ParseV1. This package holds what is v1's own and no mode of
// another: the migration.
package legacy

import (
	"bytes"
	"io"
	"strconv"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// IsGraphHead reports whether a payload starting with head (its first 5
// bytes, or all of a shorter payload) has a GCF header line, as the pull
// decoder decides it: "GCF" then a space or the end of the line.
func IsGraphHead(head []byte) bool {
	if !bytes.HasPrefix(head, []byte("GCF")) {
		return false
	}
	rest := head[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\n' ||
		rest[0] == '\r' && (len(rest) == 1 || rest[1] == '\n')
}

// MigrateGraph reads a v1.x graph, session or delta payload (one whose
// first line IsGraphHead accepts) from r under the decoder limits lim and
// writes the equivalent v3.5.3 payload to w, line by line, as gcf.Migrate
// documents; on error w may hold a partial payload.
func MigrateGraph(r io.Reader, w io.Writer, lim stream.Limits) error {

	d := stream.NewDecoder(r, lim)
	d.SetWire(stream.WireV1)
	m := migrator{out: encoder.NewWriter(w)}
	defer m.out.Release()
	for {
		ev, err := d.Read()
		if err == io.EOF {
			return m.out.Flush()
		}
		if err != nil {
			return err
		}
		if err := m.event(ev); err != nil {
			return err
		}
	}
}

// migrator writes the v3 lines of a v1 graph payload, one event at a time.
type migrator struct {
	out      *encoder.Writer
	delta    bool
	trailer  bool  // the output needs a ##! summary trailer
	symbols  int64 // symbol lines (references included)
	edges    int64
	hdrEdges int64 // edges= of the v1 header, or -1
	groups   []int64
	inGroup  bool
}

func (m *migrator) event(ev *stream.Event) error {
	b := m.out.Buf()
	switch ev.Kind {
	case stream.KindHeader:
		if err := m.checkHeader(ev); err != nil {
			return err
		}
		b = m.header(b, ev)
	case stream.KindGroup:
		b = append(encoder.AppendSectionMark(b), ev.Key...) // the group name, carried as is
		m.inGroup = ev.ID >= 0 && !m.delta
		if m.inGroup {
			m.groups = append(m.groups, 0)
		}
		count := ev.Count
		if string(ev.Key) == "edges" && !m.delta {
			if count == lexer.Deferred && m.hdrEdges >= 0 {
				count = m.hdrEdges
			}
			if count == lexer.Deferred {
				m.trailer = true
			}
			b = encoder.AppendCount(encoder.AppendWordSep(b), countInt(count), false)
		} else if count != lexer.Deferred {
			b = encoder.AppendCount(encoder.AppendWordSep(b), countInt(count), false)
		}
		b = encoder.AppendLineEnd(b)
	case stream.KindSymbol:
		var err error
		if b, err = m.symbol(b, ev); err != nil {
			return err
		}
	case stream.KindReference:
		m.count()
		b = encoder.AppendRef(b, ev.ID)
		b = encoder.AppendPreviouslySent(b)
	case stream.KindEdge:
		m.edges++
		t, s := ev.EdgeIDs()
		b = encoder.AppendEdgeRefs(b, t, s)
		b = append(encoder.AppendWordSep(b), ev.Cells[2].Bytes...)
		if len(ev.Cells) > 3 {
			b = append(encoder.AppendWordSep(b), ev.Cells[3].Bytes...)
		}
		b = encoder.AppendLineEnd(b)
	case stream.KindRemoved:
		b = encoder.AppendRemovedLine(b, ev.Cells[0].Bytes, ev.Cells[1].Bytes)
		b = encoder.AppendLineEnd(b)
	case stream.KindDeltaEdge:
		b = encoder.AppendDeltaEdge(b, ev.Cells[0].Bytes, ev.Cells[1].Bytes, ev.Cells[2].Bytes)
		b = encoder.AppendLineEnd(b)
	case stream.KindEnd:
		if m.trailer {
			b = m.summary(b)
		}
	}
	return m.out.Commit(b)
}

func (m *migrator) count() {
	m.symbols++
	if m.inGroup {
		m.groups[len(m.groups)-1]++
	}
}

// header writes `GCF profile=graph` and the v1 fields, canonical ones in
// the order Encode and EncodeDelta write them, the others after them in
// their input order.
func (m *migrator) header(b []byte, ev *stream.Event) []byte {
	m.hdrEdges = -1
	val := func(k string) ([]byte, bool) {
		for i, f := range ev.Fields {
			if string(f) == k {
				return ev.Cells[i].Bytes, true
			}
		}
		return nil, false
	}
	if v, ok := val("delta"); ok && string(v) == "true" {
		m.delta = true
	}
	order := []string{"tool", "budget", "tokens", "symbols", "edges", "pack_root", "session", "delta", "base_root", "new_root", "savings"}
	if m.delta {
		order = []string{"tool", "delta", "base_root", "new_root", "tokens", "savings", "budget", "symbols", "edges", "pack_root", "session"}
	}
	b = encoder.AppendHeader(b, "graph")
	put := func(k string, v []byte) {
		b = encoder.AppendHeaderField(b, k, string(v))
	}
	for _, k := range order {
		v, ok := val(k)
		if !ok {
			if k == "symbols" && !m.delta {
				m.trailer = true // the count comes in the trailer
			}
			continue
		}
		switch k {
		case "budget", "tokens", "edges":
			if n, ok := parseHeaderCount(v); ok {
				if k == "edges" {
					m.hdrEdges = n
				}
				if string(v) == "0" {
					continue // a canonical v3 header omits it; any other spelling is kept
				}
			}
		}
		put(k, v)
	}
	for i, f := range ev.Fields {
		known := false
		for _, k := range order {
			known = known || string(f) == k
		}
		if !known {
			put(string(f), ev.Cells[i].Bytes)
		}
	}
	return encoder.AppendLineEnd(b)
}

// checkHeader refuses a delta header whose tokens= is not a non-negative
// integer, as DecodeDelta does (headerInt), so that migrate fails where
// decoding the v1 delta fails. A payload header's counts are carried as
// they are: the event stream reads them as text, and v3's Decode refuses
// the same malformed values v1's Decode does.
func (m *migrator) checkHeader(ev *stream.Event) error {
	delta := false
	for i, f := range ev.Fields {
		delta = delta || string(f) == "delta" && string(ev.Cells[i].Bytes) == "true"
	}
	if !delta {
		return nil
	}
	for i, f := range ev.Fields {
		if string(f) == "tokens" {
			if _, err := headerInt(ev, i); err != nil {
				return err
			}
		}
	}
	return nil
}

func parseHeaderCount(v []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil && n >= 0
}

// symbol writes a node line (or a delta `## added` line, with distance 0).
func (m *migrator) symbol(b []byte, ev *stream.Event) ([]byte, error) {
	kind, score := &ev.Cells[0], &ev.Cells[2]
	if !lexer.IsBareKey(string(kind.Bytes)) {
		return b, &lexer.SyntaxError{Line: ev.Line, Column: kind.Col, Offset: ev.Offset + int64(kind.Col-1), Category: lexer.InvalidNodeLine,
			Msg: "kind " + lexer.Quote(kind.Bytes) + " is not a v3 bare key: v3 cannot carry it"}
	}
	f, err := ev.Score()
	if err != nil {
		return b, err
	}
	if !m.delta {
		m.count()
	}
	b = encoder.AppendRef(b, ev.ID)
	b = append(encoder.AppendWordSep(b), kind.Bytes...)
	b = append(encoder.AppendWordSep(b), ev.Cells[1].Bytes...)
	b = encoder.AppendWordSep(b)
	at := len(b)
	b = encoder.AppendScore(b, f)
	if back, err := strconv.ParseFloat(string(b[at:]), 64); err != nil || back != f {
		return b, &lexer.SyntaxError{Line: ev.Line, Column: score.Col, Offset: ev.Offset + int64(score.Col-1), Category: lexer.InvalidScore,
			Msg: "score " + lexer.Quote(score.Bytes) + " has more precision than the two decimals of a v3 score"}
	}
	b = append(encoder.AppendWordSep(b), ev.Cells[3].Bytes...)
	if m.delta {
		b = encoder.AppendDistance(b, 0)
	}
	return encoder.AppendLineEnd(b), nil
}

// summary writes the v3 trailer: symbols, edges and the positional counts
// of the distance groups and the edges (SPEC §8.4).
func (m *migrator) summary(b []byte) []byte {
	b = encoder.AppendSummary(b)
	if !m.delta {
		b = encoder.AppendHeaderInt(b, "symbols", m.symbols)
		b = encoder.AppendHeaderInt(b, "edges", m.edges)
	}
	b = encoder.AppendTrailerList(b, "counts")
	i := 0
	for _, n := range m.groups {
		if n > 0 {
			b = encoder.AppendInt(encoder.AppendListSep(b, i), n)
			i++
		}
	}
	b = encoder.AppendInt(encoder.AppendListSep(b, i), m.edges)
	return encoder.AppendLineEnd(b)
}

// countInt is a decoded count as AppendCount takes it: -1 for a deferred
// count (lexer.Deferred).
func countInt(n int64) int {
	if n == lexer.Deferred {
		return -1
	}
	return int(n)
}

// headerInt returns header field i of ev as a non-negative int, as
// graph.DecodeDelta reads it.
func headerInt(ev *stream.Event, i int) (int, error) {
	c := ev.Cells[i]
	v, err := strconv.Atoi(string(c.Bytes))
	if err != nil || v < 0 {
		return 0, &lexer.SyntaxError{Line: ev.Line, Column: c.Col, Category: lexer.MalformedHeaderField,
			Msg: "header field " + lexer.Excerpt(ev.Fields[i]) + " must be a non-negative integer"}
	}
	return v, nil
}
