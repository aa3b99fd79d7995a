package proxy

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// DefaultMaxSessions bounds the MCP sessions an HTTPServer keeps.
const DefaultMaxSessions = 64

// queueBound is the most server messages a session holds while no stream
// is open to carry them.
const queueBound = 256

// HTTPServer serves the Model Context Protocol over Streamable HTTP and
// relays each session to its own upstream (a child process or a remote
// server), with its own Proxy state. GET /health answers "ok".
type HTTPServer struct {
	// Connect starts the server side of a new session; the server's
	// messages go to deliver.
	Connect     func(deliver func([]byte)) (Upstream, error)
	Options     Options  // of each session's Proxy
	MaxSessions int      // < 1: DefaultMaxSessions
	Origins     []string // allowed Origin values besides localhost ones
	Tokenizer   string   // named in the session totals

	mu       sync.Mutex
	sessions map[string]*httpSession
}

type httpSession struct {
	id string
	px *Proxy
	up Upstream

	mu      sync.Mutex
	waiters map[string]*sseStream // request id -> the POST stream awaiting its answer
	streams []*sseStream          // open streams, oldest first
	queue   [][]byte              // server messages no stream could take
}

// sseStream is one open response stream.
type sseStream struct {
	ch      chan []byte
	pending int // answers still awaited (POST streams)
	get     bool
	closed  bool
}

// Sessions returns the number of live sessions.
func (s *HTTPServer) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

func (s *HTTPServer) logf(format string, args ...any) {
	if s.Options.Log != nil {
		fmt.Fprintf(s.Options.Log, "gcf proxy: "+format+"\n", args...)
	}
}

// localOrigin reports whether an Origin header names this machine.
func localOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *HTTPServer) originOK(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || localOrigin(origin) {
		return true
	}
	for _, o := range s.Origins {
		if o == origin || o == "*" {
			return true
		}
	}
	return false
}

func httpError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(errorResponse(id, code, message))
}

// ServeHTTP implements http.Handler.
func (s *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/health" {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
		return
	}
	if !s.originOK(r) {
		httpError(w, http.StatusForbidden, nil, -32600, "Origin "+r.Header.Get("Origin")+" is not allowed (gcf proxy -allow-origin)")
		return
	}
	switch r.Method {
	case http.MethodPost:
		s.post(w, r)
	case http.MethodGet:
		s.get(w, r)
	case http.MethodDelete:
		if sess := s.session(r); sess != nil {
			s.end(sess)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		httpError(w, http.StatusNotFound, nil, -32001, "unknown Mcp-Session-Id")
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		httpError(w, http.StatusMethodNotAllowed, nil, -32600, "method not allowed")
	}
}

func (s *HTTPServer) session(r *http.Request) *httpSession {
	id := r.Header.Get("Mcp-Session-Id")
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[id]
}

// newSession starts a session and its upstream.
func (s *HTTPServer) newSession() (*httpSession, error) {
	max := s.MaxSessions
	if max < 1 {
		max = DefaultMaxSessions
	}
	full := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.sessions) >= max
	}
	if full() {
		return nil, fmt.Errorf("%d sessions are open, the most this proxy keeps (-max-sessions)", max)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	sess := &httpSession{id: hex.EncodeToString(b[:]), px: New(s.Options), waiters: map[string]*sseStream{}}
	up, err := s.Connect(sess.fromServer)
	if err != nil {
		return nil, err
	}
	sess.up = up
	s.mu.Lock()
	if s.sessions == nil {
		s.sessions = map[string]*httpSession{}
	}
	if len(s.sessions) >= max {
		s.mu.Unlock()
		go up.Close()
		return nil, fmt.Errorf("%d sessions are open, the most this proxy keeps (-max-sessions)", max)
	}
	s.sessions[sess.id] = sess
	s.mu.Unlock()
	go func() {
		<-up.Done()
		s.end(sess)
	}()
	return sess, nil
}

// end closes a session: its upstream, its streams and its state.
func (s *HTTPServer) end(sess *httpSession) {
	s.mu.Lock()
	_, live := s.sessions[sess.id]
	delete(s.sessions, sess.id)
	s.mu.Unlock()
	if !live {
		return
	}
	sess.mu.Lock()
	up := sess.up
	for _, st := range sess.streams {
		st.close()
	}
	sess.streams, sess.waiters, sess.queue = nil, map[string]*sseStream{}, nil
	sess.mu.Unlock()
	if up != nil {
		go up.Close()
	}
	if s.Options.Verbose {
		s.logf("session %s ended: %s", sess.id[:8], sess.px.Totals().Summary(s.Tokenizer))
	}
}

func (st *sseStream) close() {
	if !st.closed {
		st.closed = true
		close(st.ch)
	}
}

// fromServer routes one message of the server: an answer to the stream
// awaiting it, anything else to the newest open stream (or the queue).
func (sess *httpSession) fromServer(msg []byte) {
	if out := sess.px.FromServer(msg); out != nil {
		msg = out
	}
	var id json.RawMessage
	var env envelope
	first := msg
	if isArray(msg) {
		var elems []json.RawMessage
		if json.Unmarshal(msg, &elems) == nil && len(elems) > 0 {
			first = elems[0]
		}
	}
	if json.Unmarshal(first, &env) == nil && env.Method == "" && hasID(env.ID) {
		id = env.ID
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if id != nil {
		if st, ok := sess.waiters[idKey(id)]; ok {
			delete(sess.waiters, idKey(id))
			st.send(msg)
			st.pending--
			if st.pending <= 0 {
				sess.drop(st)
			}
			return
		}
	}
	for i := len(sess.streams) - 1; i >= 0; i-- {
		if st := sess.streams[i]; !st.closed {
			st.send(msg)
			return
		}
	}
	if len(sess.queue) >= queueBound {
		sess.queue = sess.queue[1:]
		sess.px.logf("session %s: more than %d messages of the server with no stream open to carry them; the oldest was dropped", sess.id[:8], queueBound)
	}
	sess.queue = append(sess.queue, msg)
}

// send queues msg on the stream; a stream whose client does not read is
// closed rather than stalling the session.
func (st *sseStream) send(msg []byte) {
	if st.closed {
		return
	}
	select {
	case st.ch <- msg:
	default:
		st.close()
	}
}

// drop closes st and forgets it (sess.mu held).
func (sess *httpSession) drop(st *sseStream) {
	st.close()
	for i, x := range sess.streams {
		if x == st {
			sess.streams = append(sess.streams[:i], sess.streams[i+1:]...)
			break
		}
	}
}

// open registers a stream for the answers to ids (none: a GET stream) and
// hands it the queued messages.
func (sess *httpSession) open(ids []json.RawMessage) *sseStream {
	st := &sseStream{ch: make(chan []byte, 1024), pending: len(ids), get: len(ids) == 0}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	for _, id := range ids {
		sess.waiters[idKey(id)] = st
	}
	sess.streams = append(sess.streams, st)
	for _, m := range sess.queue {
		st.send(m)
	}
	sess.queue = nil
	return st
}

// forget removes a stream whose client has gone.
func (sess *httpSession) forget(st *sseStream) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	for k, x := range sess.waiters {
		if x == st {
			delete(sess.waiters, k)
		}
	}
	sess.drop(st)
}

func (s *HTTPServer) post(w http.ResponseWriter, r *http.Request) {
	max := s.Options.MaxMessage
	if max < 1 {
		max = DefaultMaxMessage
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(max)+1))
	if err != nil {
		httpError(w, http.StatusBadRequest, nil, -32700, "reading the request: "+err.Error())
		return
	}
	if len(body) > max {
		httpError(w, http.StatusRequestEntityTooLarge, nil, -32600, fmt.Sprintf("the message is over the %d-byte bound (-max-message)", max))
		return
	}
	msg := []byte(strings.TrimSpace(string(body)))
	if !json.Valid(msg) {
		httpError(w, http.StatusBadRequest, nil, -32700, "Parse error: the body is not JSON")
		return
	}
	ids := requestIDs(msg)
	sess := s.session(r)
	if sess == nil {
		if r.Header.Get("Mcp-Session-Id") != "" {
			httpError(w, http.StatusNotFound, firstID(ids), -32001, "unknown Mcp-Session-Id (the session ended)")
			return
		}
		if method(msg) != "initialize" {
			httpError(w, http.StatusBadRequest, firstID(ids), -32600, "no Mcp-Session-Id: the first request of a session is initialize")
			return
		}
		if sess, err = s.newSession(); err != nil {
			httpError(w, http.StatusServiceUnavailable, firstID(ids), -32603, err.Error())
			return
		}
		w.Header().Set("Mcp-Session-Id", sess.id)
	}
	if out := sess.px.FromClient(msg); out != nil {
		msg = out
	}
	if len(ids) == 0 {
		if err := sess.up.Send(msg); err != nil {
			httpError(w, http.StatusBadGateway, nil, -32603, "the server is gone: "+err.Error())
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st := sess.open(ids)
	defer sess.forget(st)
	if err := sess.up.Send(msg); err != nil {
		httpError(w, http.StatusBadGateway, firstID(ids), -32603, "the server is gone: "+err.Error())
		return
	}
	s.stream(w, r, st)
}

func firstID(ids []json.RawMessage) json.RawMessage {
	if len(ids) > 0 {
		return ids[0]
	}
	return nil
}

func (s *HTTPServer) get(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		httpError(w, http.StatusNotAcceptable, nil, -32600, "GET needs Accept: text/event-stream")
		return
	}
	sess := s.session(r)
	if sess == nil {
		httpError(w, http.StatusNotFound, nil, -32001, "unknown Mcp-Session-Id")
		return
	}
	st := sess.open(nil)
	defer sess.forget(st)
	s.stream(w, r, st)
}

// stream writes the stream's messages as server-sent events until it is
// closed or the client goes away.
func (s *HTTPServer) stream(w http.ResponseWriter, r *http.Request, st *sseStream) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	if flusher != nil {
		flusher.Flush()
	}
	for {
		select {
		case msg, ok := <-st.ch:
			if !ok {
				return
			}
			if _, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		case <-r.Context().Done():
			return
		}
	}
}

// Close ends every session.
func (s *HTTPServer) Close() {
	s.mu.Lock()
	var all []*httpSession
	for _, sess := range s.sessions {
		all = append(all, sess)
	}
	s.mu.Unlock()
	for _, sess := range all {
		s.end(sess)
		sess.mu.Lock()
		up := sess.up
		sess.mu.Unlock()
		if up != nil {
			up.Close()
		}
	}
}
