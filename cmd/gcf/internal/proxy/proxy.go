// Package proxy is the relay of `gcf proxy`: it passes JSON-RPC messages of
// the Model Context Protocol between a client and a server as their
// original bytes, reading each one only far enough to route it, and
// rewrites the JSON text blocks of tools/call results as GCF where that
// costs fewer tokens (see Rewriter).
//
// A Proxy holds the state of one client connection: the tools/call
// requests in flight (by id), the input schemas learned from tools/list
// results, the graph symbols already sent (a gcf.Session) and the totals.
package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gcfkit/gcf"
)

// DefaultMaxMessage is the default bound, in bytes, of a message the relay
// reads to route or rewrite; a longer one is relayed unchanged as it
// streams, never held whole.
const DefaultMaxMessage = 64 << 20

// DefaultMaxPending bounds the requests in flight a Proxy remembers; past
// it, the oldest is forgotten (its answer is then relayed unchanged).
const DefaultMaxPending = 4096

// Options configure a Proxy.
type Options struct {
	Rewriter
	MaxMessage int       // bytes; < 1: DefaultMaxMessage
	MaxPending int       // < 1: DefaultMaxPending
	DecodeArgs bool      // decode `GCF profile=` string arguments declared object or array
	Log        io.Writer // one line per rewritten call and per problem; nil: none
	Verbose    bool      // log every rewritten call (problems are logged anyway)
	// Delta answers a repeated call (same tool, same arguments) with the
	// unchanged answer or a delta against the previous answer, when that
	// is cheaper: graph payloads, and keyed tables identified by Key.
	Delta bool
	Key   string
	// ConvertTools maps a tool to the format (yaml, toml, csv, msgpack) of
	// its text blocks, which are then converted to GCF where cheaper
	// (-convert TOOL=FORMAT); resource blocks declare theirs in mimeType.
	ConvertTools map[string]string
	Snapshots    int // previous answers kept for Delta; < 1: DefaultSnapshots
}

// call is a request of the client in flight.
type call struct {
	seq  uint64
	tool string // "" for tools/list
	args json.RawMessage
	list bool
}

// Totals is the accounting of a Proxy.
type Totals struct {
	Calls     int // tools/call results seen
	Rewritten int // of which at least one block was rewritten
	Blocks    int // JSON text blocks priced
	Before    int // tokens of the priced blocks as the server sent them
	After     int // tokens of the same blocks as sent
}

// Proxy is the state of one client connection.
type Proxy struct {
	opts   Options
	graphs *gcf.Session

	mu      sync.Mutex
	seq     uint64
	pending map[string]call
	structs map[string]map[string]bool // tool -> argument -> declared object or array
	history *history                   // previous answers, for Options.Delta
	totals  Totals

	logMu sync.Mutex
}

// New returns a Proxy for one client connection.
func New(opts Options) *Proxy {
	if opts.MaxMessage < 1 {
		opts.MaxMessage = DefaultMaxMessage
	}
	if opts.MaxPending < 1 {
		opts.MaxPending = DefaultMaxPending
	}
	if opts.Snapshots < 1 {
		opts.Snapshots = DefaultSnapshots
	}
	if opts.MaxBytes == 0 {
		opts.MaxBytes = int64(opts.MaxMessage)
	}
	return &Proxy{opts: opts, graphs: gcf.NewSession(), pending: map[string]call{}, structs: map[string]map[string]bool{}, history: newHistory(opts.Snapshots)}
}

// Totals returns the accounting so far.
func (p *Proxy) Totals() Totals {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.totals
}

// Snapshots returns the number of previous answers kept for Options.Delta.
func (p *Proxy) Snapshots() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.history.len()
}

// Pending returns the number of requests in flight the Proxy remembers.
func (p *Proxy) Pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.pending)
}

// Logf prints a line, prefixed "gcf proxy: ", to Options.Log.
func (p *Proxy) Logf(format string, args ...any) { p.logf(format, args...) }

func (p *Proxy) logf(format string, args ...any) {
	if p.opts.Log == nil {
		return
	}
	p.logMu.Lock()
	defer p.logMu.Unlock()
	fmt.Fprintf(p.opts.Log, "gcf proxy: "+format+"\n", args...)
}

// Summary is the line of totals printed at exit.
func (t Totals) Summary(tokenizer string) string {
	pct := 0.0
	if t.Before > 0 {
		pct = 100 * float64(t.After-t.Before) / float64(t.Before)
	}
	return fmt.Sprintf("%d tool calls, %d rewritten; JSON text blocks %d -> %d %s tokens (%+.1f%%)", t.Calls, t.Rewritten, t.Before, t.After, tokenizer, pct)
}

// ClientToServer relays r (the client's messages) to w (the server's
// input) until r ends, then returns nil (or the read or write error).
func (p *Proxy) ClientToServer(r io.Reader, w io.Writer) error {
	return p.pump(r, w, p.FromClient)
}

// ServerToClient relays r (the server's messages) to w (the client) until
// r ends.
func (p *Proxy) ServerToClient(r io.Reader, w io.Writer) error {
	return p.pump(r, w, p.FromServer)
}

// pump relays newline-delimited messages from r to w, each through handle.
// A message longer than MaxMessage is streamed through unchanged.
func (p *Proxy) pump(r io.Reader, w io.Writer, handle func([]byte) []byte) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > p.opts.MaxMessage {
			// Too long to hold: pass what we have and the rest of the
			// line through unchanged.
			if _, werr := bw.Write(buf); werr != nil {
				return werr
			}
			if _, werr := bw.Write(chunk); werr != nil {
				return werr
			}
			n := int64(len(buf) + len(chunk))
			buf = buf[:0]
			for err == bufio.ErrBufferFull {
				chunk, err = br.ReadSlice('\n')
				n += int64(len(chunk))
				if _, werr := bw.Write(chunk); werr != nil {
					return werr
				}
			}
			p.logf("a message of %d bytes, over the %d-byte bound (-max-message), was relayed unread", n, p.opts.MaxMessage)
		} else {
			buf = append(buf, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if len(buf) > 0 {
				if werr := p.relay(bw, buf, handle); werr != nil {
					return werr
				}
				buf = buf[:0]
			}
		}
		if err != nil && err != bufio.ErrBufferFull {
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// relay writes one line (with its terminator, if any) through handle.
func (p *Proxy) relay(w *bufio.Writer, line []byte, handle func([]byte) []byte) error {
	body := line
	term := []byte(nil)
	if bytes.HasSuffix(body, []byte("\r\n")) {
		body, term = body[:len(body)-2], line[len(line)-2:]
	} else if bytes.HasSuffix(body, []byte("\n")) {
		body, term = body[:len(body)-1], line[len(line)-1:]
	}
	out := p.safely(handle, body)
	if out == nil {
		_, err := w.Write(line)
		return err
	}
	if _, err := w.Write(out); err != nil {
		return err
	}
	_, err := w.Write(term)
	return err
}

// safely runs handle, treating a panic as "relay unchanged" (nil).
func (p *Proxy) safely(handle func([]byte) []byte, msg []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			p.logf("internal error on a %d-byte message, relayed unchanged: %v", len(msg), r)
			out = nil
		}
	}()
	return handle(msg)
}

// FromClient routes one message from the client: it remembers the ids of
// tools/call and tools/list requests, forgets cancelled ones, and decodes
// GCF arguments (Options.DecodeArgs). It returns the message to send, or
// nil to send msg unchanged.
func (p *Proxy) FromClient(msg []byte) []byte {
	if isArray(msg) {
		return p.batch(msg, p.clientMessage)
	}
	return p.clientMessage(msg)
}

// FromServer routes one message from the server: a tools/call result has
// its JSON text blocks rewritten, a tools/list result teaches the
// arguments' declared types. It returns the message to send, or nil to
// send msg unchanged.
func (p *Proxy) FromServer(msg []byte) []byte {
	if isArray(msg) {
		return p.batch(msg, p.serverMessage)
	}
	return p.serverMessage(msg)
}

// batch handles each element of a JSON-RPC batch and writes the batch
// again only when an element changed.
func (p *Proxy) batch(msg []byte, each func([]byte) []byte) []byte {
	var elems []json.RawMessage
	if json.Unmarshal(msg, &elems) != nil {
		return nil
	}
	changed := false
	for i, e := range elems {
		if out := each(e); out != nil {
			elems[i], changed = out, true
		}
	}
	if !changed {
		return nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(e)
	}
	b.WriteByte(']')
	return b.Bytes()
}

func (p *Proxy) clientMessage(msg []byte) []byte {
	var env envelope
	if json.Unmarshal(msg, &env) != nil {
		return nil // the server answers a parse error
	}
	switch env.Method {
	case "tools/call":
		var params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(env.Params, &params) != nil {
			return nil
		}
		if hasID(env.ID) {
			c := call{tool: params.Name}
			if p.opts.Delta {
				c.args = params.Arguments
			}
			p.remember(env.ID, c)
		}
		if p.opts.DecodeArgs && len(params.Arguments) > 0 {
			return p.decodeArgs(msg, params.Name, params.Arguments)
		}
	case "tools/list":
		if hasID(env.ID) {
			p.remember(env.ID, call{list: true})
		}
	case "notifications/cancelled":
		var params struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(env.Params, &params) == nil && hasID(params.RequestID) {
			p.mu.Lock()
			delete(p.pending, idKey(params.RequestID))
			p.mu.Unlock()
		}
	}
	return nil
}

// remember records a request in flight, forgetting the oldest past the
// bound.
func (p *Proxy) remember(id json.RawMessage, c call) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	c.seq = p.seq
	p.pending[idKey(id)] = c
	if len(p.pending) > p.opts.MaxPending {
		oldest, min := "", ^uint64(0)
		for k, v := range p.pending {
			if v.seq < min {
				oldest, min = k, v.seq
			}
		}
		delete(p.pending, oldest)
	}
}

func (p *Proxy) serverMessage(msg []byte) []byte {
	var env envelope
	if json.Unmarshal(msg, &env) != nil || env.Method != "" || !hasID(env.ID) {
		return nil // a notification, a request to the client, or not JSON-RPC
	}
	p.mu.Lock()
	c, ok := p.pending[idKey(env.ID)]
	delete(p.pending, idKey(env.ID))
	p.mu.Unlock()
	if !ok || len(env.Result) == 0 {
		return nil // not ours, or an error answer
	}
	if c.list {
		p.learnSchemas(env.Result)
		return nil
	}
	result, changed := p.rewriteResult(c, env.Result)
	if !changed {
		return nil
	}
	ms, err := members(msg)
	if err != nil {
		return nil
	}
	set(ms, "result", result)
	return object(ms)
}

// rewriteResult rewrites the text blocks of a tools/call result.
func (p *Proxy) rewriteResult(c call, raw json.RawMessage) (json.RawMessage, bool) {
	tool := c.tool
	ms, err := members(raw)
	if err != nil {
		return nil, false
	}
	if isErr := get(ms, "isError"); bytes.Equal(bytes.TrimSpace(isErr), []byte("true")) {
		p.count(tool, 0, 0, 0, nil, false)
		return nil, false // a tool error is relayed as the server wrote it
	}
	var content []json.RawMessage
	if json.Unmarshal(get(ms, "content"), &content) != nil {
		p.count(tool, 0, 0, 0, nil, false)
		return nil, false
	}
	changed := false
	blocks, before, after := 0, 0, 0
	var forms []string
	for i, block := range content {
		bm, err := members(block)
		if err != nil {
			continue
		}
		var typ, text string
		if json.Unmarshal(get(bm, "type"), &typ) != nil {
			continue
		}
		var (
			choice Choice
			ok     bool
		)
		switch {
		case typ == "resource":
			choice, ok = p.convertResource(bm)
		case typ != "text" || json.Unmarshal(get(bm, "text"), &text) != nil:
			continue
		default:
			var more candidates
			if p.opts.Delta {
				more = p.deltaCandidates(tool, callKey(tool, c.args, i))
			}
			var out string
			out, choice, ok = p.opts.rewrite(text, p.graphs, more)
			if f := p.opts.ConvertTools[tool]; choice.Form == "" && f != "" {
				// Not JSON: the user declared the tool's format.
				out, choice, ok = p.opts.Convert([]byte(text), f, text)
			}
			if ok {
				set(bm, "text", quoteJSON(out))
			}
		}
		if choice.Form == "" {
			continue // neither JSON nor a declared format that converts
		}
		blocks++
		before += choice.Before
		after += choice.After
		forms = append(forms, choice.Form)
		if !ok {
			continue
		}
		content[i] = object(bm)
		changed = true
	}
	p.count(tool, blocks, before, after, forms, changed)
	if !changed {
		return nil, false
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, c := range content {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(c)
	}
	b.WriteByte(']')
	set(ms, "content", b.Bytes())
	return object(ms), true
}

func (p *Proxy) count(tool string, blocks, before, after int, forms []string, changed bool) {
	p.mu.Lock()
	p.totals.Calls++
	p.totals.Blocks += blocks
	p.totals.Before += before
	p.totals.After += after
	if changed {
		p.totals.Rewritten++
	}
	p.mu.Unlock()
	if p.opts.Verbose && blocks > 0 {
		p.logf("%s: %d -> %d tokens (%s)", tool, before, after, strings.Join(forms, ","))
	}
}

// learnSchemas records, from a tools/list result, which arguments of each
// tool are declared as an object or an array.
func (p *Proxy) learnSchemas(raw json.RawMessage) {
	var res struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Properties map[string]struct {
					Type json.RawMessage `json:"type"`
				} `json:"properties"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range res.Tools {
		args := map[string]bool{}
		for name, prop := range t.InputSchema.Properties {
			if structured(prop.Type) {
				args[name] = true
			}
		}
		if len(p.structs) >= p.opts.MaxPending {
			if _, known := p.structs[t.Name]; !known {
				continue
			}
		}
		p.structs[t.Name] = args
	}
}

// structured reports whether a JSON Schema "type" admits an object or an
// array and not a string.
func structured(typ json.RawMessage) bool {
	var one string
	if json.Unmarshal(typ, &one) == nil {
		return one == "object" || one == "array"
	}
	var many []string
	if json.Unmarshal(typ, &many) != nil {
		return false
	}
	obj, str := false, false
	for _, t := range many {
		obj = obj || t == "object" || t == "array"
		str = str || t == "string"
	}
	return obj && !str
}

// gcfArgPrefix starts every GCF payload (SPEC §3.1).
const gcfArgPrefix = "GCF profile="

// decodeArgs replaces each string argument that is a GCF payload, where the
// tool declares the argument an object or an array, with its JSON.
func (p *Proxy) decodeArgs(msg []byte, tool string, args json.RawMessage) []byte {
	p.mu.Lock()
	declared := p.structs[tool]
	p.mu.Unlock()
	if len(declared) == 0 {
		return nil
	}
	am, err := members(args)
	if err != nil {
		return nil
	}
	changed := false
	for i, m := range am {
		if !declared[m.key] {
			continue
		}
		var s string
		if json.Unmarshal(m.value, &s) != nil || !strings.HasPrefix(s, gcfArgPrefix) {
			continue
		}
		js, err := decodeGCF(s)
		if err != nil {
			p.logf("%s: argument %q is not a GCF payload that decodes (%v); sent unchanged", tool, m.key, err)
			continue
		}
		am[i].value, changed = js, true
	}
	if !changed {
		return nil
	}
	ms, err := members(msg)
	if err != nil {
		return nil
	}
	pm, err := members(get(ms, "params"))
	if err != nil {
		return nil
	}
	set(pm, "arguments", object(am))
	set(ms, "params", object(pm))
	return object(ms)
}

// decodeGCF returns the JSON of a GCF payload: a generic one as its value,
// a graph one as its gcf.Payload.
func decodeGCF(s string) (json.RawMessage, error) {
	if strings.HasPrefix(s, gcfArgPrefix+"graph") {
		g, err := gcf.Decode([]byte(s))
		if err != nil {
			return nil, err
		}
		return json.Marshal(g)
	}
	v, err := gcf.DecodeGeneric([]byte(s))
	if err != nil {
		return nil, err
	}
	return gcf.ToJSON(v)
}
