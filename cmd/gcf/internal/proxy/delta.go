package proxy

import (
	"bytes"
	"container/list"
	"encoding/json"

	"github.com/gcfkit/gcf"
)

// DefaultSnapshots bounds the previous answers a Proxy keeps for -delta.
const DefaultSnapshots = 32

// history keeps, per call (tool, arguments, block), the value last
// answered, least recently used dropped first; not safe for concurrent use
// (the Proxy's mutex guards it).
type history struct {
	max   int
	order *list.List // of *snapshot, most recent first
	index map[string]*list.Element
}

type snapshot struct {
	key   string
	table *gcf.Table
	graph *gcf.Payload
}

func newHistory(max int) *history {
	return &history{max: max, order: list.New(), index: map[string]*list.Element{}}
}

func (h *history) get(key string) *snapshot {
	if e, ok := h.index[key]; ok {
		h.order.MoveToFront(e)
		return e.Value.(*snapshot)
	}
	return nil
}

func (h *history) put(s *snapshot) {
	if e, ok := h.index[s.key]; ok {
		e.Value = s
		h.order.MoveToFront(e)
		return
	}
	h.index[s.key] = h.order.PushFront(s)
	for h.order.Len() > h.max {
		last := h.order.Back()
		h.order.Remove(last)
		delete(h.index, last.Value.(*snapshot).key)
	}
}

func (h *history) len() int { return h.order.Len() }

// callKey identifies a call for -delta: the tool, its arguments without
// insignificant white space, and the block's index.
func callKey(tool string, args json.RawMessage, block int) string {
	var b bytes.Buffer
	b.WriteString(tool)
	b.WriteByte(0)
	if json.Compact(&b, args) != nil {
		b.Write(args)
	}
	b.WriteByte(0)
	b.WriteByte(byte(block))
	b.WriteByte(byte(block >> 8))
	return b.String()
}

// deltaCandidates offers, for a repeated call, the unchanged answer or a
// delta against the previous answer (graph payloads; keyed tables with
// Options.Key), and records the current value. With a key, a table's full
// form carries its pack_root (gcf.EncodeTable), which a delta names.
func (p *Proxy) deltaCandidates(tool, key string) candidates {
	return func(v any, g *gcf.Payload, consider func([]byte, string)) bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		prev := p.history.get(key)
		cur := &snapshot{key: key}
		switch {
		case g != nil:
			cur.graph = g
			if prev != nil && prev.graph != nil {
				graphDelta(tool, prev.graph, g, consider)
			}
		case p.opts.Key != "":
			t, err := gcf.NewTable(v, p.opts.Key)
			if err != nil {
				break
			}
			t.Tool = tool
			cur.table = t
			full, err := gcf.EncodeTable(t)
			if err != nil {
				cur.table = nil
				break
			}
			consider(full, FormGCF)
			if prev != nil && prev.table != nil {
				tableDelta(tool, prev.table, t, consider)
			}
		}
		if cur.graph != nil || cur.table != nil {
			p.history.put(cur)
		}
		return cur.table != nil
	}
}

func graphDelta(tool string, base, cur *gcf.Payload, consider func([]byte, string)) {
	br, err1 := gcf.PackRoot(base)
	cr, err2 := gcf.PackRoot(cur)
	if err1 != nil || err2 != nil {
		return
	}
	if br == cr {
		if out, err := gcf.EncodeUnchanged(tool, cr, len(cur.Symbols)); err == nil {
			consider(out, FormSame)
		}
		return
	}
	d, err := gcf.Diff(base, cur)
	if err != nil {
		return
	}
	d.Tool, d.BaseRoot, d.NewRoot = tool, br, cr
	if out, err := gcf.EncodeDelta(d); err == nil {
		consider(out, FormDelta)
	}
}

func tableDelta(tool string, base, cur *gcf.Table, consider func([]byte, string)) {
	br, err1 := gcf.GenericPackRoot(base)
	cr, err2 := gcf.GenericPackRoot(cur)
	if err1 != nil || err2 != nil {
		return
	}
	if br == cr {
		if out, err := gcf.EncodeGenericUnchanged(tool, cr, len(cur.Rows)); err == nil {
			consider(out, FormSame)
		}
		return
	}
	d, err := gcf.DiffGeneric(base, cur)
	if err != nil {
		return
	}
	d.Tool = tool
	if out, err := gcf.EncodeGenericDelta(d); err == nil {
		consider(out, FormDelta)
	}
}
