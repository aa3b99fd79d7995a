package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Upstream is the server side of a relay. Send passes one message to the
// server; the server's messages go to the deliver function the Upstream
// was made with, one at a time.
type Upstream interface {
	Send(msg []byte) error
	// Close ends the connection (closing a child's stdin and stopping it
	// if it does not exit; deleting an HTTP session) and waits for it.
	Close() error
	// Done is closed when the server side has ended.
	Done() <-chan struct{}
}

// ReadMessages calls fn with each newline-delimited message of r until r
// ends (nil) or fails. A message longer than max bytes is skipped, and
// tooLong is called with its length.
func ReadMessages(r io.Reader, max int, fn func(msg []byte), tooLong func(n int64)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max {
			n := int64(len(buf) + len(chunk))
			buf = buf[:0]
			for err == bufio.ErrBufferFull {
				chunk, err = br.ReadSlice('\n')
				n += int64(len(chunk))
			}
			tooLong(n)
		} else {
			buf = append(buf, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if msg := bytes.TrimSpace(buf); len(msg) > 0 {
				fn(bytes.Clone(msg))
			}
			buf = buf[:0]
		}
		if err == io.EOF {
			return nil
		}
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
	}
}

// Child is an MCP server run as a child process, over stdio.
type Child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	done  chan struct{}
	grace time.Duration
	once  sync.Once
	err   error
}

// StartChild starts argv; its stderr goes to stderr, and each message it
// writes goes to deliver (one longer than max is dropped and logged).
func StartChild(argv []string, stderr io.Writer, max int, grace time.Duration, deliver func([]byte), logf func(string, ...any)) (*Child, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	cmd.WaitDelay = grace
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Child{cmd: cmd, stdin: stdin, done: make(chan struct{}), grace: grace}
	go func() {
		err := ReadMessages(stdout, max, deliver, func(n int64) {
			logf("the server sent a message of %d bytes, over the %d-byte bound (-max-message); dropped", n, max)
		})
		if err != nil {
			logf("reading the server: %v", err)
		}
		c.err = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// Send writes msg and a newline to the child's stdin.
func (c *Child) Send(msg []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.stdin.Write(append(bytes.Clone(msg), '\n')); err != nil {
		return err
	}
	return nil
}

// Done is closed when the child has exited and its output is read.
func (c *Child) Done() <-chan struct{} { return c.done }

// Close closes the child's stdin, then sends SIGTERM and SIGKILL, a grace
// period apart, while it has not exited; it returns the child's exit error.
func (c *Child) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.stdin.Close()
		c.mu.Unlock()
		select {
		case <-c.done:
			return
		case <-time.After(c.grace):
		}
		_ = c.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-c.done:
			return
		case <-time.After(c.grace):
		}
		_ = c.cmd.Process.Kill()
		<-c.done
	})
	<-c.done
	return c.err
}

// HTTPUpstream is a client of an MCP server over Streamable HTTP: each
// message is POSTed (concurrently); a JSON or an SSE response is
// delivered message by message; the Mcp-Session-Id and the negotiated
// MCP-Protocol-Version are sent back; after initialization a GET stream
// receives the server's own messages when the server offers one.
type HTTPUpstream struct {
	url     string
	header  http.Header
	client  *http.Client
	max     int
	deliver func([]byte)
	logf    func(string, ...any)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine
	posts  sync.WaitGroup // the POSTs in flight
	dmu    sync.Mutex     // serializes deliver
	mu     sync.Mutex
	sid    string
	proto  string
	getOn  bool
	grace  time.Duration
	done   chan struct{}
	once   sync.Once
}

// NewHTTPUpstream returns a client of the Streamable HTTP endpoint url,
// sending header (e.g. Authorization) on every request; Close waits up to
// grace for the answers in flight.
func NewHTTPUpstream(url string, header http.Header, max int, grace time.Duration, deliver func([]byte), logf func(string, ...any)) *HTTPUpstream {
	ctx, cancel := context.WithCancel(context.Background())
	return &HTTPUpstream{url: url, header: header, client: &http.Client{}, max: max, deliver: deliver, logf: logf,
		ctx: ctx, cancel: cancel, grace: grace, done: make(chan struct{})}
}

// Done is closed by Close.
func (u *HTTPUpstream) Done() <-chan struct{} { return u.done }

// Send POSTs msg; the answer is delivered when it comes.
func (u *HTTPUpstream) Send(msg []byte) error {
	select {
	case <-u.ctx.Done():
		return errors.New("the upstream connection is closed")
	default:
	}
	u.wg.Add(1)
	u.posts.Add(1)
	go func() {
		defer u.wg.Done()
		defer u.posts.Done()
		u.post(msg)
	}()
	return nil
}

func (u *HTTPUpstream) request(method string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(u.ctx, method, u.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, vs := range u.header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	u.mu.Lock()
	if u.sid != "" {
		req.Header.Set("Mcp-Session-Id", u.sid)
	}
	if u.proto != "" {
		req.Header.Set("MCP-Protocol-Version", u.proto)
	}
	u.mu.Unlock()
	return req, nil
}

func (u *HTTPUpstream) post(msg []byte) {
	ids := requestIDs(msg)
	req, err := u.request(http.MethodPost, msg)
	if err != nil {
		u.fail(ids, err.Error())
		return
	}
	resp, err := u.client.Do(req)
	if err != nil {
		if u.ctx.Err() == nil {
			u.fail(ids, err.Error())
		}
		return
	}
	defer resp.Body.Close()
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		u.mu.Lock()
		u.sid = sid
		u.mu.Unlock()
	}
	if resp.StatusCode == http.StatusAccepted {
		if method(msg) == "notifications/initialized" {
			u.startGet()
		}
		return
	}
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		u.fail(ids, fmt.Sprintf("the upstream answered HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(body))))
		return
	}
	u.readBody(resp)
}

// readBody delivers the messages of a JSON or SSE response.
func (u *HTTPUpstream) readBody(resp *http.Response) {
	ct := resp.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "text/event-stream") {
		err := readSSE(resp.Body, u.max, u.give, func(n int64) {
			u.logf("the upstream sent an event of %d bytes, over the %d-byte bound (-max-message); dropped", n, u.max)
		})
		if err != nil && u.ctx.Err() == nil {
			u.logf("reading the upstream's event stream: %v", err)
		}
		return
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(u.max)+1))
	if err != nil {
		u.logf("reading the upstream's answer: %v", err)
		return
	}
	if len(body) > u.max {
		u.logf("the upstream's answer is over the %d-byte bound (-max-message); dropped", u.max)
		return
	}
	if msg := bytes.TrimSpace(body); len(msg) > 0 {
		u.give(msg)
	}
}

// give delivers one message from the server, learning the protocol
// version from an initialize result.
func (u *HTTPUpstream) give(msg []byte) {
	var res struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if bytes.Contains(msg, []byte(`"protocolVersion"`)) && json.Unmarshal(msg, &res) == nil && res.Result.ProtocolVersion != "" {
		u.mu.Lock()
		u.proto = res.Result.ProtocolVersion
		u.mu.Unlock()
	}
	u.dmu.Lock()
	defer u.dmu.Unlock()
	u.deliver(msg)
}

// fail answers each request id with a JSON-RPC error.
func (u *HTTPUpstream) fail(ids []json.RawMessage, reason string) {
	u.logf("%s", reason)
	for _, id := range ids {
		u.give(errorResponse(id, -32603, reason))
	}
}

// startGet opens the GET stream of server-initiated messages once.
func (u *HTTPUpstream) startGet() {
	u.mu.Lock()
	if u.getOn {
		u.mu.Unlock()
		return
	}
	u.getOn = true
	u.mu.Unlock()
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		req, err := u.request(http.MethodGet, nil)
		if err != nil {
			return
		}
		req.Header.Set("Accept", "text/event-stream")
		resp, err := u.client.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			u.readBody(resp)
		}
	}()
}

// Close waits up to grace for the answers in flight, deletes the session,
// ends what is still open and waits for it.
func (u *HTTPUpstream) Close() error {
	u.once.Do(func() {
		posted := make(chan struct{})
		go func() {
			u.posts.Wait()
			close(posted)
		}()
		select {
		case <-posted:
		case <-time.After(u.grace):
		}
		u.mu.Lock()
		sid := u.sid
		u.mu.Unlock()
		if sid != "" {
			if req, err := u.request(http.MethodDelete, nil); err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				if resp, err := u.client.Do(req.WithContext(ctx)); err == nil {
					resp.Body.Close()
				}
				cancel()
			}
		}
		u.cancel()
		u.wg.Wait()
		u.client.CloseIdleConnections()
		close(u.done)
	})
	return nil
}

// readLine returns the next line of br without its terminator; a line
// longer than max is drained and returned as nil with its length n.
func readLine(br *bufio.Reader, max int) (line []byte, n int64, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		n += int64(len(chunk))
		if line != nil || n <= int64(max) {
			if n <= int64(max) {
				line = append(line, chunk...)
			} else {
				line = nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n > int64(max) {
			return nil, n, err
		}
		if line == nil {
			line = []byte{}
		}
		return bytes.TrimRight(line, "\r\n"), n, err
	}
}

// readSSE calls fn with the data of each event of a text/event-stream; an
// event whose data is longer than max is dropped, and tooLong called.
func readSSE(r io.Reader, max int, fn func([]byte), tooLong func(int64)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	over := int64(-1)
	dispatch := func() {
		if over >= 0 {
			tooLong(over)
		} else if msg := bytes.TrimSpace(data); len(msg) > 0 {
			fn(bytes.Clone(msg))
		}
		data, over = data[:0], -1
	}
	for {
		line, n, err := readLine(br, max)
		switch {
		case line == nil: // over the bound
			if over < 0 {
				over = int64(len(data))
			}
			over += n
		case len(line) == 0 && err == nil:
			dispatch()
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			switch {
			case over >= 0:
				over += int64(len(v))
			case len(data)+len(v)+1 > max:
				over = int64(len(data) + len(v))
			default:
				if len(data) > 0 {
					data = append(data, '\n')
				}
				data = append(data, v...)
			}
		}
		if err == io.EOF {
			dispatch()
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// requestIDs returns the ids of the requests in msg (a message or a
// batch): members with both a method and an id.
func requestIDs(msg []byte) []json.RawMessage {
	var elems []json.RawMessage
	if isArray(msg) {
		if json.Unmarshal(msg, &elems) != nil {
			return nil
		}
	} else {
		elems = []json.RawMessage{msg}
	}
	var ids []json.RawMessage
	for _, e := range elems {
		var env envelope
		if json.Unmarshal(e, &env) == nil && env.Method != "" && hasID(env.ID) {
			ids = append(ids, env.ID)
		}
	}
	return ids
}

// method returns the method of a single message, or "".
func method(msg []byte) string {
	var env envelope
	if isArray(msg) || json.Unmarshal(msg, &env) != nil {
		return ""
	}
	return env.Method
}

// errorResponse is a JSON-RPC error answer to id.
func errorResponse(id json.RawMessage, code int, message string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, quoteJSON(message)))
}
