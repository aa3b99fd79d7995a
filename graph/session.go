package graph

import (
	"sync"

	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// DefaultMaxSessionSymbols is the default bound on the symbol identities a
// Session retains (SPEC §9.5).
const DefaultMaxSessionSymbols = 100_000

// Session is the producer side of graph session statefulness (SPEC §9): it
// binds each symbol identity to a stable local ID and remembers which
// declarations have been delivered, so later payloads can send the bare
// reference `@N  # previously transmitted` instead.
//
// Symbol identity is (kind, qualified name) (SPEC §9.1). Kinds are compared
// in full form: "fn" and "function" name the same identity because both
// reach the wire as "fn" (KindExpand is applied to the kind first).
//
// IDs are allocated monotonically from 0 and are never reused by the same
// Session value, not even after Reset or a limit fallback, so a consumer can
// never see one ID bound to two symbols.
//
// A Session must be scoped to one principal, one conversation, one producer
// namespace and one protocol version (SPEC §9.3); sharing one between users
// is a bug in the caller. The only limit enforced is the number of
// retained identities (WithMaxSymbols); idle time and lifetime are the
// caller's to enforce, by discarding the Session or calling Reset.
//
// A Session is safe for concurrent use; concurrent EncodeWithSession calls
// on one Session are serialized. The zero value is an empty Session with
// the default limit; NewSession is the usual constructor.
type Session struct {
	mu   sync.Mutex
	max  int
	next int // next ID to allocate
	syms map[sessKey]sessEntry
}

type sessKey struct{ kind, qname string }

type sessEntry struct {
	id   int
	sent bool // the full declaration has been delivered
}

func sessKeyOf(kind, qname string) sessKey { return sessKey{KindExpand(kind), qname} }

// lazyInit makes the zero Session usable; s.mu must be held.
func (s *Session) lazyInit() {
	if s.syms == nil {
		s.syms = map[sessKey]sessEntry{}
	}
	if s.max < 1 {
		s.max = DefaultMaxSessionSymbols
	}
}

// SessionOption configures a Session.
type SessionOption func(*Session)

// WithMaxSymbols bounds the number of symbol identities the Session
// retains (SPEC §9.5); n < 1 selects DefaultMaxSessionSymbols. When an
// EncodeWithSession call would make the Session exceed the bound, the
// Session is reset and the call returns a full non-session payload (see
// EncodeWithSession); Record returns -1 instead of allocating.
func WithMaxSymbols(n int) SessionOption {
	return func(s *Session) {
		if n < 1 {
			n = DefaultMaxSessionSymbols
		}
		s.max = n
	}
}

// NewSession returns an empty Session.
func NewSession(opts ...SessionOption) *Session {
	s := &Session{max: DefaultMaxSessionSymbols, syms: map[sessKey]sessEntry{}}
	for _, o := range opts {
		if o != nil {
			o(s)
		}
	}
	return s
}

// GetID returns the ID bound to the symbol (kind, qname), and whether one
// is bound.
func (s *Session) GetID(kind, qname string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.syms[sessKeyOf(kind, qname)]
	return e.id, ok
}

// Record binds the symbol (kind, qname) to the next ID and returns it, or
// returns the ID already bound. Recording does not mark the symbol as
// transmitted: the next EncodeWithSession that carries it still sends the
// full declaration (with this ID). When the symbol is new and the Session
// already holds its maximum number of identities, Record allocates nothing
// and returns -1.
func (s *Session) Record(kind, qname string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lazyInit()
	k := sessKeyOf(kind, qname)
	if e, ok := s.syms[k]; ok {
		return e.id
	}
	if len(s.syms) >= s.max {
		return -1
	}
	id := s.next
	s.next++
	s.syms[k] = sessEntry{id: id}
	return id
}

// Transmitted reports whether the full declaration of (kind, qname) has
// been delivered by a successful EncodeWithSession, so that it is now sent
// as a bare reference.
func (s *Session) Transmitted(kind, qname string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.syms[sessKeyOf(kind, qname)].sent
}

// Resend marks the symbol (kind, qname) as not delivered, keeping its ID:
// the next EncodeWithSession that carries it declares it in full again
// instead of sending a bare reference. A producer calls it when the
// symbol's score, provenance or distance changed since its declaration
// (SPEC §9.1), so that the consumer's copy is updated. It reports whether
// the symbol was bound.
func (s *Session) Resend(kind, qname string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := sessKeyOf(kind, qname)
	e, ok := s.syms[k]
	if ok && e.sent {
		e.sent = false
		s.syms[k] = e
	}
	return ok
}

// Len returns the number of symbol identities the Session retains.
func (s *Session) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.syms)
}

// Reset forgets every identity (SPEC §9.4 session reset): later payloads
// declare every symbol in full again. IDs allocated afterwards continue
// from the previous ones and are never reused.
func (s *Session) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.syms)
}

// EncodeWithSession encodes p like Encode, but with session statefulness
// (SPEC §9): the header ends with ` session=true`, every symbol carries its
// session-stable ID (new symbols get the next IDs in emission order:
// group order, then score order), symbols whose declaration an earlier
// call delivered are sent as `@N  # previously transmitted`, and edges use
// session IDs. `symbols=` counts every symbol of p, references included.
// Symbols and edges are ordered exactly as by Encode; edges are ordered by
// their session IDs.
//
// The Session changes only when the call succeeds: new identities are
// bound and every fully declared symbol is marked transmitted. A failed
// call leaves it untouched.
//
// Errors are those of Encode, plus invalid_node_line when p holds the same
// identity (kind, qname) twice (its second line could be neither a valid
// declaration nor a valid reference).
//
// Limit fallback (SPEC §9.5): when binding the new identities of p would
// make the Session retain more than its maximum (WithMaxSymbols), the
// Session is reset (as by Reset) and the result is the full non-session
// payload Encode(p) (no session=true, IDs from 0). The next call starts the
// session afresh with full declarations. If that encoding fails, the error
// is returned and the Session is not reset.
//
// A nil s means no session is known: the result is Encode(p) (SPEC §9.4).
//
// opts are the decoder's limits, enforced as by Encode; a refused payload
// leaves the Session unchanged.
func EncodeWithSession(p *Payload, s *Session, opts ...Option) ([]byte, error) {
	if s == nil {
		return Encode(p, opts...)
	}
	if p == nil {
		return nil, lexer.Errorf(lexer.InvalidNodeLine, "nil graph payload")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lazyInit()

	fresh := 0
	seen := make(map[sessKey]struct{}, len(p.Symbols))
	for i := range p.Symbols {
		sym := &p.Symbols[i]
		k := sessKeyOf(sym.Kind, sym.QualifiedName)
		if _, dup := seen[k]; dup {
			return nil, lexer.Errorf(lexer.InvalidNodeLine, "symbol %d: identity (%s, %s) appears twice in a session payload", i, sym.Kind, sym.QualifiedName)
		}
		seen[k] = struct{}{}
		if _, ok := s.syms[k]; !ok {
			fresh++
		}
	}
	if len(s.syms)+fresh > s.max {
		out, err := Encode(p, opts...)
		if err != nil {
			return nil, err
		}
		clear(s.syms)
		return out, nil
	}

	plan := &sessPlan{s: s, next: s.next, fresh: make(map[sessKey]int, fresh)}
	c := options.Resolve(opts)
	wire := c.Wire
	if wire == stream.WireV1 {
		// v1 ids are local to each payload (sequential from 0, references
		// included): the session only remembers what was transmitted.
		plan.local = new(int)
	}
	buf := encoder.GetBuffer()
	b, err := appendGraph(buf.B[:0], p, plan, c.Limits, wire)
	var out []byte
	if err == nil {
		out = make([]byte, len(b))
		copy(out, b)
		plan.commit()
	}
	buf.B = b
	encoder.PutBuffer(buf)
	return out, err
}

// sessPlan assigns session IDs for one payload without touching the
// Session; commit applies the outcome once the payload encoded.
type sessPlan struct {
	s        *Session
	next     int
	fresh    map[sessKey]int // identities new to the session -> tentative ID
	declared []sessKey       // bound identities declared in full
	local    *int            // v1: the next payload-local id
}

func (pl *sessPlan) assign(sym *Symbol) (int, bool) {
	id, ref := pl.assignSession(sym)
	if pl.local != nil {
		id = *pl.local
		*pl.local++
	}
	return id, ref
}

func (pl *sessPlan) assignSession(sym *Symbol) (int, bool) {
	k := sessKeyOf(sym.Kind, sym.QualifiedName)
	if e, ok := pl.s.syms[k]; ok {
		if e.sent {
			return e.id, true
		}
		pl.declared = append(pl.declared, k)
		return e.id, false
	}
	id := pl.next
	pl.next++
	pl.fresh[k] = id
	return id, false
}

func (pl *sessPlan) commit() {
	for _, k := range pl.declared {
		e := pl.s.syms[k]
		e.sent = true
		pl.s.syms[k] = e
	}
	for k, id := range pl.fresh {
		pl.s.syms[k] = sessEntry{id: id, sent: true}
	}
	pl.s.next = pl.next
}
