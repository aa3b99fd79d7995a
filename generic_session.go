package gcf

import (
	"bytes"
	"container/list"
	"strconv"
	"sync"

	"github.com/gcfkit/gcf/keyset"
	"github.com/gcfkit/gcf/lexer"
)

// DefaultReanchorEvery is the re-anchor cadence SPEC §10a.8 suggests: a
// full payload at least every 15 responses.
const DefaultReanchorEvery = 15

// DefaultMaxConsumers is the number of consumers a DeltaSession remembers
// when NewDeltaSession is given no bound.
const DefaultMaxConsumers = 1024

// ReanchorPolicy says when a DeltaSession sends a full payload ("re-anchors",
// SPEC §10a.8) although it could send a delta. Each rule is checked on
// every response that could be a delta; any one of them makes it full.
type ReanchorPolicy struct {
	// Every: the Every-th answer after a full payload that changes the
	// consumer's table (unchanged answers do not count) is full again
	// (SPEC §10a.8 default, N=15). 0 means DefaultReanchorEvery; a
	// negative value never re-anchors by count.
	Every int
	// MaxFraction: a delta is sent only when it is smaller than this
	// fraction of the full payload (the size guard of SPEC §10a.2 and
	// §10a.7). 0 means DeltaThreshold (0.6); a negative value turns the
	// per-response guard off.
	MaxFraction float64
	// Cumulative: when positive, re-anchor once the bytes of the deltas
	// sent since the last full payload, this one included, reach this
	// fraction of the full payload (the adaptive rule of SPEC §10a.8,
	// whose "approaches a full payload's size" is 1.0). 0 turns it off.
	Cumulative float64
}

// DeltaSession is the producer side of the generic delta protocol for many
// consumers (SPEC §10a.4, §10a.8): it remembers, per consumer, the table
// it last sent and answers each new result with unchanged, a delta from
// that table, or a full payload as its ReanchorPolicy says. Deltas carry
// no tool= (their base already names it; the reference SDK's session
// writes them so); full payloads are EncodeTable's.
//
// Memory is bounded: it keeps at most MaxConsumers consumers, forgetting
// the least recently answered (who then gets a full payload), and per
// consumer one table, shared, not copied: tables given to Respond must not
// be modified afterwards. It is safe for concurrent use; answers to one
// consumer are serialized.
type DeltaSession struct {
	policy ReanchorPolicy
	max    int

	mu        sync.Mutex
	consumers map[string]*list.Element // of *consumerState
	lru       list.List
}

type consumerState struct {
	id        string
	mu        sync.Mutex
	held      *Table // the table last sent, nil before the first answer
	root      string
	sinceFull int // answers since the last full payload that changed the table
	cum       int // bytes of the deltas sent since the last full payload
}

// NewDeltaSession returns a session with the given policy, remembering at
// most maxConsumers consumers (DefaultMaxConsumers when maxConsumers <= 0).
func NewDeltaSession(policy ReanchorPolicy, maxConsumers int) *DeltaSession {
	if policy.Every == 0 {
		policy.Every = DefaultReanchorEvery
	}
	if policy.MaxFraction == 0 {
		policy.MaxFraction = DeltaThreshold
	}
	if maxConsumers <= 0 {
		maxConsumers = DefaultMaxConsumers
	}
	return &DeltaSession{policy: policy, max: maxConsumers, consumers: map[string]*list.Element{}}
}

// state returns the consumer's state, creating it (and evicting the least
// recently used one beyond the bound) as needed.
func (s *DeltaSession) state(consumer string) *consumerState {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.consumers[consumer]; ok {
		s.lru.MoveToFront(e)
		return e.Value.(*consumerState)
	}
	st := &consumerState{id: consumer}
	s.consumers[consumer] = s.lru.PushFront(st)
	for s.lru.Len() > s.max {
		old := s.lru.Back()
		s.lru.Remove(old)
		delete(s.consumers, old.Value.(*consumerState).id)
	}
	return st
}

// Forget drops what the session remembers of consumer; its next answer is full.
func (s *DeltaSession) Forget(consumer string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.consumers[consumer]; ok {
		s.lru.Remove(e)
		delete(s.consumers, consumer)
	}
}

// Len returns the number of consumers remembered.
func (s *DeltaSession) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}

// Respond answers consumer, who echoes consumerRoot (the pack root it
// holds; "" for none), with current: unchanged when consumerRoot is
// current's root; a delta from the table the
// session last sent when consumerRoot names that table, the schema is the
// same (SPEC §10a.7) and no rule of the policy re-anchors; otherwise the
// full payload. The session then remembers current as what the consumer
// holds. Errors are those of GenericPackRoot and the encoders; on error
// nothing is remembered.
func (s *DeltaSession) Respond(consumer, consumerRoot string, current *Table) ([]byte, Outcome, error) {
	if current == nil {
		return nil, 0, lexer.Errorf(lexer.MalformedDelta, "Respond needs the current table")
	}
	root, err := GenericPackRoot(current)
	if err != nil {
		return nil, 0, err
	}
	st := s.state(consumer)
	st.mu.Lock()
	defer st.mu.Unlock()
	if consumerRoot == root {
		out, err := EncodeGenericUnchanged(current.Tool, root, len(current.Rows))
		if err == nil && st.root != root {
			st.held, st.root, st.sinceFull, st.cum = current, root, 0, 0
		}
		return out, OutcomeUnchanged, err
	}
	known := st.held != nil && consumerRoot != "" && consumerRoot == st.root
	lim := defaultLimits
	var full []byte
	fullBytes := func() ([]byte, error) {
		if full == nil {
			full, err = appendTable(current, root, lim)
		}
		return full, err
	}
	if known && keyset.SameSchema(st.held, current) && (s.policy.Every < 0 || st.sinceFull+1 < s.policy.Every) {
		d, err := DiffGeneric(st.held, current)
		if err != nil {
			return nil, 0, err
		}
		delta, err := EncodeGenericDelta(d)
		if err != nil {
			return nil, 0, err
		}
		send := true
		if s.policy.MaxFraction > 0 || s.policy.Cumulative > 0 {
			f, err := fullBytes()
			if err != nil {
				return nil, 0, err
			}
			if s.policy.MaxFraction > 0 && float64(len(delta)) >= s.policy.MaxFraction*float64(len(f)) {
				send = false
			}
			if s.policy.Cumulative > 0 && float64(st.cum+len(delta)) >= s.policy.Cumulative*float64(len(f)) {
				send = false
			}
		}
		if send {
			st.held, st.root = current, root
			st.sinceFull++
			st.cum += len(delta)
			return delta, OutcomeDelta, nil
		}
	}
	f, err := fullBytes()
	if err != nil {
		return nil, 0, err
	}
	st.held, st.root = current, root
	st.sinceFull, st.cum = 0, 0
	return f, OutcomeFull, nil
}

// RespondGeneric is Respond for a keyed table (SPEC §10a.4): given the
// root the consumer holds (empty for none) and prior, the table the
// producer kept for it (nil for none), it answers with an unchanged
// payload when the roots match; a delta from prior (with current's tool)
// when prior is the table consumerRoot names, has current's schema, and
// the delta is smaller than DeltaThreshold of the full payload; otherwise
// the full payload (EncodeTable). A root of an unknown algorithm names no
// table (SPEC §10.2), so it gets the full payload. Neither table is
// modified.
func RespondGeneric(current *Table, consumerRoot string, prior *Table) ([]byte, Outcome, error) {
	if current == nil {
		return nil, 0, lexer.Errorf(lexer.MalformedDelta, "RespondGeneric needs the current table")
	}
	root, err := GenericPackRoot(current)
	if err != nil {
		return nil, 0, err
	}
	if consumerRoot == root {
		out, err := EncodeGenericUnchanged(current.Tool, root, len(current.Rows))
		return out, OutcomeUnchanged, err
	}
	lim := defaultLimits
	full, err := appendTable(current, root, lim)
	if err != nil {
		return nil, 0, err
	}
	if prior != nil && consumerRoot != "" {
		if d, err := DiffGeneric(prior, current); err == nil && d.BaseRoot == consumerRoot {
			d.Tool = current.Tool
			out, err := EncodeGenericDelta(d)
			if err != nil {
				return nil, 0, err
			}
			if float64(len(out)) < DeltaThreshold*float64(len(full)) {
				return out, OutcomeDelta, nil
			}
		}
	}
	return full, OutcomeFull, nil
}

// ReceiveGeneric is Receive for a keyed table (SPEC §10a.4, §10a.5): given
// the table it holds (nil for none) and the producer's answer, it returns
// the table to hold next. An unchanged answer must name held's root; a
// delta is decoded and applied atomically, both roots verified
// (root_mismatch otherwise, held untouched); a full payload is decoded
// with DecodeTable and its pack_root, when present, verified. On any error
// the caller keeps held and should ask for a full payload.
func ReceiveGeneric(held *Table, answer []byte) (*Table, Outcome, error) {
	header, _, _ := bytes.Cut(answer, []byte("\n"))
	has := func(f string) bool {
		for _, x := range bytes.Fields(header) {
			if string(x) == f {
				return true
			}
		}
		return false
	}
	switch {
	case has("profile=generic") && has("unchanged=true"):
		if _, err := DecodeGeneric(answer); err != nil {
			return nil, 0, err
		}
		if held == nil {
			return nil, 0, lexer.Errorf(RootMismatch, "unchanged answer but no table is held")
		}
		root, err := GenericPackRoot(held)
		if err != nil {
			return nil, 0, err
		}
		named := false
		for _, x := range bytes.Fields(header) {
			if v, ok := bytes.CutPrefix(x, []byte("pack_root=")); ok && string(v) == root {
				named = true
			}
			if v, ok := bytes.CutPrefix(x, []byte("count=")); ok {
				n, err := strconv.ParseUint(string(v), 10, 63)
				if err != nil {
					return nil, 0, lexer.Errorf(MalformedHeaderField, "unchanged answer: count=%s is not a row count", lexer.Excerpt(v))
				}
				if n != uint64(len(held.Rows)) {
					return nil, 0, lexer.Errorf(CountMismatch, "unchanged answer says count=%d but the held table has %d rows", n, len(held.Rows))
				}
			}
		}
		if named {
			return held, OutcomeUnchanged, nil
		}
		return nil, 0, lexer.Errorf(RootMismatch, "unchanged answer does not name the held table's root %s", root)
	case has("profile=generic") && has("delta=true"):
		if held == nil {
			return nil, 0, lexer.Errorf(RootMismatch, "delta answer but no table is held")
		}
		d, err := DecodeGenericDelta(answer)
		if err != nil {
			return nil, 0, err
		}
		t, err := ApplyGenericDelta(held, d)
		if err != nil {
			return nil, 0, err
		}
		return t, OutcomeDelta, nil
	}
	t, err := DecodeTable(answer)
	if err != nil {
		return nil, 0, err
	}
	if t.PackRoot != "" {
		root, err := GenericPackRoot(t)
		if err != nil {
			return nil, 0, err
		}
		if root != t.PackRoot {
			return nil, 0, lexer.Errorf(RootMismatch, "pack_root %s does not identify the table (its root is %s)", t.PackRoot, root)
		}
	}
	return t, OutcomeFull, nil
}
