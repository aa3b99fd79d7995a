package gcfmcp

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gcfkit/gcf"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server turns tool results into GCF with one gcf.Session per MCP client
// session. It does not replace mcp.Server: register tools on an mcp.Server
// with AddTool, or call Server.Result from any tool handler. A Server is
// safe for concurrent use; its zero value is not usable, call New.
type Server struct {
	cfg config

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*state
	lru      list.List                       // of *mcp.ServerSession, most recent first
	expired  map[*mcp.ServerSession]struct{} // evicted but still connected: served without state
	watching map[*mcp.ServerSession]struct{} // sessions whose close is being awaited
}

// New returns a Server with the options (see Option).
func New(opts ...Option) *Server {
	return &Server{
		cfg:      newConfig(opts),
		sessions: map[*mcp.ServerSession]*state{},
		expired:  map[*mcp.ServerSession]struct{}{},
		watching: map[*mcp.ServerSession]struct{}{},
	}
}

// Result encodes v as the result of the tool call req, in the state of
// req's MCP session (see the package documentation), with the delivery
// arguments args. A nil req or one without a session is encoded outside
// any session, as by the package-level Result. Errors are invalid
// arguments (an unknown format, a malformed pack_root) and the encoder's;
// a tool handler returns them as tool errors.
func (s *Server) Result(ctx context.Context, req *mcp.CallToolRequest, v any, args Args) (*mcp.CallToolResult, error) {
	var st *state
	tool := ""
	if req != nil {
		if req.Params != nil {
			tool = req.Params.Name
		}
		if req.Session != nil {
			st = s.state(req.Session)
		}
	}
	return deliver(ctx, &s.cfg, st, tool, v, args)
}

// Stats is the state a Server retains.
type Stats struct {
	Sessions  int // MCP sessions with state
	Symbols   int // symbol identities retained by their gcf.Sessions
	Snapshots int // snapshots retained for deltas
}

// Stats returns what the Server retains now. After every client has
// disconnected, and the SDK has noticed, it is the zero Stats.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	states := make([]*state, 0, len(s.sessions))
	for _, st := range s.sessions {
		states = append(states, st)
	}
	s.mu.Unlock()
	var out Stats
	for _, st := range states {
		st.mu.Lock()
		out.Sessions++
		if st.sess != nil {
			out.Symbols += st.sess.Len()
		}
		out.Snapshots += st.snaps.Len()
		st.mu.Unlock()
	}
	return out
}

// state returns the state of the MCP session ss, creating it on first use,
// or nil when ss's state was evicted; its release is tied to the session's
// end.
func (s *Server) state(ss *mcp.ServerSession) *state {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.sessions[ss]; ok {
		s.lru.MoveToFront(st.elem)
		return st
	}
	if _, ok := s.expired[ss]; ok {
		return nil
	}
	st := &state{id: ss.ID(), sess: gcf.NewSession(gcf.WithMaxSymbols(s.cfg.maxSymbols)), maxSnaps: s.cfg.snapshots,
		decl: map[ident]wireVal{}, byRoot: map[string]*list.Element{}}
	st.elem = s.lru.PushFront(ss)
	s.sessions[ss] = st
	for len(s.sessions) > s.cfg.maxSessions {
		back := s.lru.Back()
		old := back.Value.(*mcp.ServerSession)
		s.lru.Remove(back)
		delete(s.sessions, old)
		// The evicted session is served without state from now on: full
		// non-session payloads (SPEC §9.4). A new gcf.Session would reuse
		// IDs the client has bound to other symbols (SPEC §9.2).
		s.expired[old] = struct{}{}
	}
	if _, ok := s.watching[ss]; !ok {
		s.watching[ss] = struct{}{}
		go func() {
			_ = ss.Wait() // returns when the connection is closed, by either side
			s.release(ss)
		}()
	}
	return st
}

// release drops the state of the closed session ss.
func (s *Server) release(ss *mcp.ServerSession) {
	s.mu.Lock()
	if st, ok := s.sessions[ss]; ok {
		s.lru.Remove(st.elem)
		delete(s.sessions, ss)
	}
	delete(s.expired, ss)
	delete(s.watching, ss)
	s.mu.Unlock()
}

// ident is a symbol identity, kind abbreviated (SPEC §9.1).
type ident struct{ kind, qname string }

// wireVal is what a bare reference stands for besides the identity: the
// score at wire precision and the provenance (distance comes from the group
// the reference sits in).
type wireVal struct {
	score      float64
	provenance string
}

// state is one MCP session's delivery state.
type state struct {
	id string

	mu   sync.Mutex
	sess *gcf.Session
	decl map[ident]wireVal // the values the client holds for each declared identity
	// snapshots by pack root, least recently used last
	snaps    list.List // of snapEntry
	byRoot   map[string]*list.Element
	maxSnaps int
	elem     *list.Element // in Server.lru
}

type snapEntry struct {
	root string
	v    any // *gcf.Payload (graph) or the generic value
}

// snapshot returns the snapshot named root, or nil; st.mu must be held.
func (st *state) snapshot(root string) any {
	if root == "" {
		return nil
	}
	e, ok := st.byRoot[root]
	if !ok {
		return nil
	}
	st.snaps.MoveToFront(e)
	return e.Value.(snapEntry).v
}

// putSnapshot keeps v under root; st.mu must be held.
func (st *state) putSnapshot(root string, v any) {
	if e, ok := st.byRoot[root]; ok {
		st.snaps.MoveToFront(e)
		return
	}
	st.byRoot[root] = st.snaps.PushFront(snapEntry{root, v})
	for st.snaps.Len() > st.maxSnaps {
		back := st.snaps.Back()
		st.snaps.Remove(back)
		delete(st.byRoot, back.Value.(snapEntry).root)
	}
}

// encodeSession encodes p with the session's bare references; snap is p as
// the wire carries it. A symbol whose score or provenance differs from what
// the client was last sent is declared in full again. st.mu must be held.
func (st *state) encodeSession(p *gcf.Payload, snap *gcf.Payload) ([]byte, error) {
	cur := make(map[ident]wireVal, len(snap.Symbols))
	for i := range snap.Symbols {
		s := &snap.Symbols[i]
		k := ident{gcf.KindAbbrev(s.Kind), s.QualifiedName}
		w := wireVal{s.Score, s.Provenance}
		cur[k] = w
		if old, ok := st.decl[k]; ok && old != w {
			st.sess.Resend(s.Kind, s.QualifiedName)
		}
	}
	out, err := gcf.EncodeWithSession(p, st.sess)
	if err != nil {
		return nil, err
	}
	if !sessionHeader(out) {
		// The session hit its symbol limit and was reset (SPEC §9.5).
		clear(st.decl)
	}
	for k, w := range cur {
		st.decl[k] = w
	}
	return out, nil
}

// sessionHeader reports whether the payload's header ends with session=true.
func sessionHeader(b []byte) bool {
	for i, c := range b {
		if c == '\n' {
			b = b[:i]
			break
		}
	}
	const tail = " session=true"
	return len(b) >= len(tail) && string(b[len(b)-len(tail):]) == tail
}

// Handler is a typed tool handler for AddTool: it returns the tool's
// result as a Go value (a *gcf.Payload for the graph profile, anything
// else for the generic profile) or an error, which reaches the client as a
// tool error (isError) with the error's text.
type Handler[In, Out any] func(ctx context.Context, req *mcp.CallToolRequest, in In) (Out, error)

// AddTool registers the tool t on srv, in the style of mcp.AddTool: the
// input schema is inferred from In when t.InputSchema is nil, arguments are
// validated against it (an unknown argument or a wrong type is a tool
// error naming it) and unmarshaled into In, and h's result is encoded by
// s.Result. The schema gains the optional `format` and `pack_root`
// arguments (Args) unless In declares them. It panics, as mcp.AddTool
// does, when the schema cannot be inferred or is not an object schema.
func AddTool[In, Out any](s *Server, srv *mcp.Server, t *mcp.Tool, h Handler[In, Out]) {
	tt := *t
	if tt.InputSchema == nil {
		schema, err := jsonschema.For[In](nil)
		if err != nil {
			panic(fmt.Sprintf("gcfmcp.AddTool: tool %q: input schema: %v", t.Name, err))
		}
		tt.InputSchema = schema
	}
	if schema, ok := tt.InputSchema.(*jsonschema.Schema); ok && schema != nil {
		c := *schema
		c.Properties = make(map[string]*jsonschema.Schema, len(schema.Properties)+2)
		for k, v := range schema.Properties {
			c.Properties[k] = v
		}
		if _, ok := c.Properties["format"]; !ok {
			c.Properties["format"] = &jsonschema.Schema{Type: "string", Enum: []any{"gcf", "json", "auto"},
				Description: "result format: gcf (default, compact), json, or auto (whichever costs fewer tokens)"}
		}
		if _, ok := c.Properties["pack_root"]; !ok {
			c.Properties["pack_root"] = &jsonschema.Schema{Type: "string",
				Description: "pack_root of a result you hold (sha256:<64 hex>): the answer is then unchanged=true, a delta, or the full result"}
		}
		tt.InputSchema = &c
	}
	mcp.AddTool(srv, &tt, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		var args Args
		if req.Params != nil && len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, nil, fmt.Errorf("delivery arguments: %v", err)
			}
		}
		if _, err := ParseFormat(args.Format); err != nil {
			return nil, nil, err
		}
		if args.PackRoot != "" {
			if err := CheckPackRoot(args.PackRoot); err != nil {
				return nil, nil, err
			}
		}
		out, err := h(ctx, req, in)
		if err != nil {
			return nil, nil, err
		}
		res, err := s.Result(ctx, req, out, args)
		if err != nil {
			return nil, nil, err
		}
		return res, nil, nil
	})
}
