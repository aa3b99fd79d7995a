//go:build !gcf_noproxy

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcfkit/gcf/cmd/gcf/internal/proxy"
	"github.com/gcfkit/gcf/tokens"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpProxy serves `gcf proxy -http` in front of argv (one child per
// session) on a test server.
func httpProxy(t *testing.T, argv []string, log io.Writer) (*proxy.HTTPServer, *httptest.Server) {
	t.Helper()
	opts := proxy.Options{MaxMessage: proxy.DefaultMaxMessage, DecodeArgs: true, Log: log, Verbose: true,
		Rewriter: proxy.Rewriter{Counter: tokens.MustNew(tokens.Default)}}
	srv := &proxy.HTTPServer{Options: opts, MaxSessions: 4, Tokenizer: "o200k_base"}
	srv.Connect = func(deliver func([]byte)) (proxy.Upstream, error) {
		return proxy.StartChild(argv, log, opts.MaxMessage, time.Second, deliver, func(f string, a ...any) { fmt.Fprintf(log, f+"\n", a...) })
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	return srv, ts
}

// TestProxyHTTP drives server-memory and server-everything through
// `gcf proxy -http` with the go-sdk Streamable client, and through a
// chain: a stdio client, `gcf proxy -upstream`, `gcf proxy -http`, the
// server. Answers match the direct ones as in TestProxyServers; sampling
// and progress arrive; sessions end with their clients.
func TestProxyHTTP(t *testing.T) {
	dir := mcpServers(t)
	tmp := t.TempDir()
	baseline := liveGoroutines()
	log := &syncBuffer{}
	counter := tokens.MustNew(tokens.Default)
	memory := func(name string) []string {
		return append([]string{"env", "MEMORY_FILE_PATH=" + filepath.Join(tmp, name)}, serverArgv(dir, "mcp-server-memory")...)
	}
	srv, ts := httpProxy(t, memory("http.jsonl"), log)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	entities := []any{}
	for i := range 12 {
		entities = append(entities, map[string]any{"name": fmt.Sprintf("n%d", i), "entityType": "node", "observations": []any{"seen", fmt.Sprint(i)}})
	}
	script := []toolCall{
		{"create_entities", map[string]any{"entities": entities}},
		{"read_graph", map[string]any{}},
		{"open_nodes", map[string]any{"names": []any{"n1", "n2"}}},
		{"create_entities", map[string]any{"entities": 3}},
	}
	direct := connectDirect(t, ctx, memory("direct.jsonl"), nil)
	defer direct.Close()
	viaHTTP, err := newTestClient(nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connecting over HTTP: %v\n%s", err, log.String())
	}
	// The chain: stdio -> gcf proxy -upstream -> gcf proxy -http -> server.
	_, ts2 := httpProxy(t, memory("chain.jsonl"), log)
	chain := connectProxy(t, ctx, []string{"-upstream", ts2.URL + "/mcp", "-header", "X-Test: chained"}, nil, nil)

	rewritten := 0
	for _, c := range script {
		dr, derr := direct.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		for via, cs := range map[string]*mcp.ClientSession{"http": viaHTTP, "chain": chain.cs} {
			pr, perr := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
			if (derr == nil) != (perr == nil) {
				t.Fatalf("%s %s: error %v direct, %v through the proxy", via, c.name, derr, perr)
			}
			if derr != nil {
				continue
			}
			d, p, forms := compareCall(t, via+" "+c.name, dr, pr, counter)
			if p < d {
				rewritten++
			}
			t.Logf("%s %s: %d -> %d tokens %v", via, c.name, d, p, forms)
		}
	}
	if rewritten < 4 {
		t.Errorf("%d answers were cheaper through HTTP, want at least 4", rewritten)
	}
	if srv.Sessions() != 1 {
		t.Errorf("%d sessions, want 1", srv.Sessions())
	}
	viaHTTP.Close()
	if code := chain.close(t); code != 0 {
		t.Errorf("the -upstream proxy exited %d:\n%s", code, chain.stderr.String())
	}
	for i := 0; srv.Sessions() != 0; i++ {
		if i == 100 {
			t.Fatalf("%d sessions remain after the client closed", srv.Sessions())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// server-everything over HTTP: sampling (a server-to-client request)
	// and progress notifications reach the client.
	_, ts3 := httpProxy(t, serverArgv(dir, "mcp-server-everything"), log)
	var mu sync.Mutex
	var progress []float64
	sampled := 0
	opts := &mcp.ClientOptions{
		//lint:ignore SA1019 server-everything's sampling tool is what shows server-to-client requests pass
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			mu.Lock()
			sampled++
			mu.Unlock()
			//lint:ignore SA1019 as above
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "ok"}}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, r.Params.Progress)
			mu.Unlock()
		},
	}
	ev, err := newTestClient(opts).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts3.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.CallTool(ctx, &mcp.CallToolParams{Name: "trigger-sampling-request", Arguments: map[string]any{"prompt": "hi", "maxTokens": 5}}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 1, "steps": 2}}
	params.SetProgressToken("tok")
	if _, err := ev.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	ev.Close()
	mu.Lock()
	if sampled != 1 || len(progress) != 2 {
		t.Errorf("over HTTP: %d sampling requests (want 1), progress %v (want 2 notifications)", sampled, progress)
	}
	mu.Unlock()

	if !strings.Contains(log.String(), "read_graph: ") {
		t.Errorf("no -v line for read_graph:\n%s", log.String())
	}
	direct.Close()
	srv.Close()
	ts.Close()
	ts2.Close()
	ts3.Close()
	settleGoroutines(t, baseline)
}

// TestProxyHTTPGuards: /health, Origin validation, an unknown session, a
// first request that is not initialize, the session bound, and the
// -header values reaching the upstream.
func TestProxyHTTPGuards(t *testing.T) {
	srv := &proxy.HTTPServer{MaxSessions: 1, Connect: func(deliver func([]byte)) (proxy.Upstream, error) {
		return newEchoUpstream(deliver), nil
	}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close()
	do := func(method, origin, sid, body string) (*http.Response, string) {
		req, _ := http.NewRequest(method, ts.URL+"/mcp", strings.NewReader(body))
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	if resp, err := http.Get(ts.URL + "/health"); err != nil || resp.StatusCode != 200 {
		t.Errorf("/health: %v %v", resp, err)
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	if resp, _ := do("POST", "https://evil.example", "", init); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign Origin got %d, want 403", resp.StatusCode)
	}
	if resp, _ := do("POST", "", "nope", init); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown session got %d, want 404", resp.StatusCode)
	}
	if resp, _ := do("POST", "", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a first request other than initialize got %d, want 400", resp.StatusCode)
	}
	if resp, body := do("POST", "", "", "{not json"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "-32700") {
		t.Errorf("malformed JSON got %d %s", resp.StatusCode, body)
	}
	resp, body := do("POST", "http://localhost:3000", "", init)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" || !strings.Contains(body, `"echo":true`) {
		t.Fatalf("initialize: %d %q %s", resp.StatusCode, sid, body)
	}
	if resp, _ := do("POST", "", "", init); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a session past -max-sessions got %d, want 503", resp.StatusCode)
	}
	if resp, _ := do("POST", "", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
		t.Errorf("a notification got %d, want 202", resp.StatusCode)
	}
	if resp, _ := do("DELETE", "", sid, ""); resp.StatusCode != http.StatusNoContent || srv.Sessions() != 0 {
		t.Errorf("DELETE: %d, %d sessions left", resp.StatusCode, srv.Sessions())
	}

	// -header reaches the upstream.
	got := make(chan string, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- r.Header.Get("Authorization"):
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer up.Close()
	var out syncBuffer
	code := run([]string{"proxy", "-upstream", up.URL, "-header", "Authorization: Bearer s3cret"},
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), &out, io.Discard)
	if code != 0 || <-got != "Bearer s3cret" {
		t.Errorf("exit %d, the upstream saw no Authorization header", code)
	}
	if _, stderr, code := runCLI(t, "", "proxy", "-header", "bad", "-upstream", up.URL); code != exitUsage || !strings.Contains(stderr, "Name: value") {
		t.Errorf("a malformed -header: exit %d, %s", code, stderr)
	}
}

// echoUpstream answers every request with {"echo":true}.
type echoUpstream struct {
	deliver func([]byte)
	done    chan struct{}
	once    sync.Once
}

func newEchoUpstream(deliver func([]byte)) *echoUpstream {
	return &echoUpstream{deliver: deliver, done: make(chan struct{})}
}

func (u *echoUpstream) Send(msg []byte) error {
	if i := strings.Index(string(msg), `"id":`); i >= 0 && strings.Contains(string(msg), `"method"`) {
		id := strings.SplitN(string(msg)[i+5:], ",", 2)[0]
		go u.deliver([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"echo":true}}`))
	}
	return nil
}

func (u *echoUpstream) Close() error {
	u.once.Do(func() { close(u.done) })
	return nil
}

func (u *echoUpstream) Done() <-chan struct{} { return u.done }
