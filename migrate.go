package gcf

import (
	"bufio"
	"bytes"
	"io"
	"strconv"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/graph"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Migrate reads a GCF v1.x payload from r (SPEC-v1.1 as amended by
// SPEC-v1.4) and writes the equivalent v3.5.3 payload to w: decoding the
// output with the v3 decoder gives the value that decoding the input with
// WithWire(WireV1) gives.
//
// A graph payload (first line `GCF ...`), a session payload or a delta is
// translated line by line as the v1 decoder validates it, in memory bounded
// by the longest line (plus the symbol ids the decoder keeps for edge
// checks). Its header gains `profile=graph` and keeps its fields (budget=0,
// tokens=0 and edges=0 are dropped, as a canonical v3 header omits them);
// scores are written with the two decimals v3 requires; a `## _summary`
// trailer becomes `##! summary`, and an edges section or a header whose
// counts v1 left out is written in the v3 streaming form (`## edges [?]`
// and a `##! summary` trailer). A delta `## added` line gains the distance
// v3 requires, 0, the distance the v1 decoder reports for it.
//
// A generic (headerless) payload is decoded whole and re-encoded with
// EncodeGeneric, so its memory grows with the payload: bound it with
// WithMaxBytes.
//
// What v1 carries that v3 cannot express is an error, never dropped: a
// score with more than two significant decimals (invalid_score), a kind
// that is not a v3 bare key (invalid_node_line). Every error is a
// *SyntaxError with the input's line and column; on error w may hold a
// partial payload (the CLI writes to a temporary file and renames it only
// on success). opts are the decoder's limits.
func Migrate(r io.Reader, w io.Writer, opts ...Option) error {
	cfg := newConfig(opts)
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(5)
	if !isGraphHead(head) {
		return migrateGeneric(br, w, cfg.Limits.MaxBytes, opts)
	}
	d := stream.NewDecoder(br, cfg.Limits)
	d.SetWire(WireV1)
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

// isGraphHead reports whether a payload starting with head (its first 5
// bytes, or all of a shorter payload) has a GCF header line, as the pull
// decoder decides it: "GCF" then a space or the end of the line.
func isGraphHead(head []byte) bool {
	if !bytes.HasPrefix(head, []byte("GCF")) {
		return false
	}
	rest := head[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\n' ||
		rest[0] == '\r' && (len(rest) == 1 || rest[1] == '\n')
}

// migrateGeneric moves a headerless v1 generic payload to v3 through the
// value model.
func migrateGeneric(r io.Reader, w io.Writer, maxBytes int64, opts []Option) error {
	src := r
	if maxBytes > 0 {
		src = io.LimitReader(r, maxBytes+1)
	}
	data, err := io.ReadAll(src)
	if err != nil {
		return &SyntaxError{Category: lexer.ReadFailure, Msg: "reading the v1 payload: " + err.Error(), Err: err}
	}
	v1 := append(append([]Option(nil), opts...), WithWire(WireV1))
	v, err := DecodeGeneric(data, v1...)
	if err != nil {
		return err
	}
	v3 := append(append([]Option(nil), opts...), WithWire(WireV3))
	out, err := EncodeGeneric(v, v3...)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
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
		b = encoder.AppendSectionMark(b)
		b = append(b, ev.Key...)
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
			b = encoder.AppendCount(append(b, ' '), countInt(count), false)
		} else if count != lexer.Deferred {
			b = encoder.AppendCount(append(b, ' '), countInt(count), false)
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
		b = append(b, ev.Cells[0].Bytes...)
		b = append(b, ' ')
		b = append(b, ev.Cells[1].Bytes...)
		b = encoder.AppendLineEnd(b)
	case stream.KindDeltaEdge:
		b = append(b, ev.Cells[0].Bytes...)
		b = append(b, " -> "...)
		b = append(b, ev.Cells[1].Bytes...)
		b = append(b, ' ')
		b = append(b, ev.Cells[2].Bytes...)
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
		return b, &SyntaxError{Line: ev.Line, Column: kind.Col, Offset: ev.Offset + int64(kind.Col-1), Category: lexer.InvalidNodeLine,
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
	b = graph.AppendScore(b, f)
	if back, err := strconv.ParseFloat(string(b[at:]), 64); err != nil || back != f {
		return b, &SyntaxError{Line: ev.Line, Column: score.Col, Offset: ev.Offset + int64(score.Col-1), Category: lexer.InvalidScore,
			Msg: "score " + lexer.Quote(score.Bytes) + " has more precision than the two decimals of a v3 score"}
	}
	b = append(encoder.AppendWordSep(b), ev.Cells[3].Bytes...)
	if m.delta {
		b = append(b, " 0"...)
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
