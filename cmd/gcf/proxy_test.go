//go:build !gcf_noproxy

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/tokens"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The proxy tests drive third-party MCP servers installed by npm, at the
// versions pinned in testdata/mcp-servers/package-lock.json (`npm ci` in
// that folder; .ci/run does it), directly and through `gcf proxy`, with
// the go-sdk client.

// mcpServers returns the absolute path of the installed servers, or skips.
func mcpServers(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("skip: node is not on PATH; the proxy tests run npm-installed MCP servers")
	}
	dir, err := filepath.Abs(mcpServersDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol")); err != nil {
		t.Skipf("skip: the MCP servers are not installed (run `npm ci` in %s)", mcpServersDir)
	}
	return dir
}

// serverArgv is the command line of an npm-installed server.
func serverArgv(dir, bin string, args ...string) []string {
	return append([]string{"node", filepath.Join(dir, "node_modules", ".bin", bin)}, args...)
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newTestClient(opts *mcp.ClientOptions) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "gcf-proxy-test", Version: "1"}, opts)
}

// connectDirect connects a client to the server argv.
func connectDirect(t testing.TB, ctx context.Context, argv []string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = t.TempDir() // tooner writes tooner.log in its working directory
	cs, err := newTestClient(opts).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to %v: %v", argv, err)
	}
	return cs
}

// proxied is a client session through `gcf proxy`, run in this process.
type proxied struct {
	cs     *mcp.ClientSession
	stderr *syncBuffer
	done   chan int
}

// connectProxy runs `gcf proxy flags -- argv` on pipes and connects a
// client to it.
func connectProxy(t testing.TB, ctx context.Context, flags, argv []string, opts *mcp.ClientOptions) *proxied {
	t.Helper()
	toProxy, fromClient := io.Pipe()
	toClient, fromProxy := io.Pipe()
	p := &proxied{stderr: &syncBuffer{}, done: make(chan int, 1)}
	args := append(append([]string{"proxy"}, flags...), "--")
	args = append(args, argv...)
	go func() {
		code := run(args, toProxy, fromProxy, p.stderr)
		fromProxy.Close()
		toProxy.Close()
		p.done <- code
	}()
	cs, err := newTestClient(opts).Connect(ctx, &mcp.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatalf("connecting through the proxy to %v: %v\nstderr:\n%s", argv, err, p.stderr.String())
	}
	p.cs = cs
	return p
}

// close ends the session and returns the proxy's exit status.
func (p *proxied) close(t testing.TB) int {
	t.Helper()
	p.cs.Close()
	select {
	case code := <-p.done:
		return code
	case <-time.After(30 * time.Second):
		t.Fatalf("the proxy did not exit after its client closed\nstderr:\n%s", p.stderr.String())
	}
	return -1
}

// toolCall is one call of a test script.
type toolCall struct {
	name string
	args map[string]any
}

// callTokens is the accounting of one call, direct and through the proxy.
type callTokens struct {
	server, tool, label   string
	direct, proxied, toon int // toon: through tooner, -1 when not run
	forms                 []string
}

// compareCall checks one result through the proxy against the direct one:
// the same error flag, structured content and non-text blocks; each text
// block unchanged or, rewritten, decoding to the server's JSON and costing
// fewer tokens.
func compareCall(t *testing.T, label string, direct, via *mcp.CallToolResult, counter *tokens.Counter) (dTok, pTok int, forms []string) {
	t.Helper()
	if direct.IsError != via.IsError {
		t.Errorf("%s: isError %v direct, %v through the proxy", label, direct.IsError, via.IsError)
	}
	ds, _ := json.Marshal(direct.StructuredContent)
	ps, _ := json.Marshal(via.StructuredContent)
	if !bytes.Equal(ds, ps) {
		t.Errorf("%s: structuredContent changed:\n%s\n%s", label, ds, ps)
	}
	if len(direct.Content) != len(via.Content) {
		t.Fatalf("%s: %d content blocks direct, %d through the proxy", label, len(direct.Content), len(via.Content))
	}
	for i := range direct.Content {
		dt, ok1 := direct.Content[i].(*mcp.TextContent)
		pt, ok2 := via.Content[i].(*mcp.TextContent)
		if !ok1 || !ok2 {
			a, _ := json.Marshal(direct.Content[i])
			b, _ := json.Marshal(via.Content[i])
			if !bytes.Equal(a, b) {
				t.Errorf("%s: block %d changed:\n%s\n%s", label, i, a, b)
			}
			continue
		}
		d, p := counter.Count(dt.Text), counter.Count(pt.Text)
		dTok += d
		pTok += p
		if dt.Text == pt.Text {
			forms = append(forms, "text")
			continue
		}
		if direct.IsError {
			t.Errorf("%s: an error's text was rewritten", label)
		}
		if p >= d {
			t.Errorf("%s: block %d costs %d tokens through the proxy, %d direct", label, i, p, d)
		}
		var got []byte
		switch {
		case strings.HasPrefix(pt.Text, "GCF profile=generic"):
			v, err := gcf.DecodeGeneric([]byte(pt.Text))
			if err != nil {
				t.Fatalf("%s: block %d does not decode: %v", label, i, err)
			}
			if got, err = gcf.ToJSON(v); err != nil {
				t.Fatal(err)
			}
			forms = append(forms, "gcf")
		case strings.HasPrefix(pt.Text, "GCF profile=graph"):
			g, err := gcf.Decode([]byte(pt.Text))
			if err != nil {
				t.Fatalf("%s: block %d does not decode: %v", label, i, err)
			}
			got, _ = json.Marshal(g)
			forms = append(forms, "gcf-graph")
		default:
			var min bytes.Buffer
			if err := json.Compact(&min, []byte(strings.TrimSpace(dt.Text))); err != nil || min.String() != pt.Text {
				t.Errorf("%s: block %d is neither GCF nor the server's minified JSON:\n%.300s", label, i, pt.Text)
			}
			got = min.Bytes()
			forms = append(forms, "json")
		}
		if !sameJSON(t, []byte(dt.Text), got) {
			t.Errorf("%s: block %d decodes to a different value", label, i)
		}
	}
	return dTok, pTok, forms
}

// sameJSON reports whether a and b are the same JSON value (numbers
// compared as binary64).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("the server's text is not JSON: %v", err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("decoded text is not JSON: %v", err)
	}
	return reflect.DeepEqual(x, y)
}

// runScript calls each tool directly and through the proxy and compares.
// argv gives the server's command line for "direct", "proxy" and "tooner"
// (servers with state get a file each).
func runScript(t *testing.T, server string, argv func(via string) []string, calls []toolCall, opts *mcp.ClientOptions) []callTokens {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	counter := tokens.MustNew(tokens.Default)
	direct := connectDirect(t, ctx, argv("direct"), opts)
	defer direct.Close()
	px := connectProxy(t, ctx, []string{"-v"}, argv("proxy"), opts)
	var toon *mcp.ClientSession
	if bin := toonerBinary(); bin != "" {
		toon = connectDirect(t, ctx, append([]string{bin}, argv("tooner")...), opts)
		defer toon.Close()
	}
	dt, err := direct.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := px.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(dt)
	b, _ := json.Marshal(pt)
	if !bytes.Equal(a, b) {
		t.Errorf("%s: tools/list differs through the proxy", server)
	}
	var rows []callTokens
	for _, c := range calls {
		label := c.name
		if p, ok := c.args["path"].(string); ok {
			label += " " + filepath.Base(p)
		}
		dr, derr := direct.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		pr, perr := px.cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if (derr == nil) != (perr == nil) || derr != nil && derr.Error() != perr.Error() {
			t.Errorf("%s %s: error %v direct, %v through the proxy", server, label, derr, perr)
			continue
		}
		if derr != nil {
			continue
		}
		d, p, forms := compareCall(t, server+" "+label, dr, pr, counter)
		row := callTokens{server: server, tool: c.name, label: label, direct: d, proxied: p, toon: -1, forms: forms}
		if toon != nil {
			if tr, err := toon.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args}); err == nil {
				row.toon = textTokens(tr, counter)
			}
		}
		rows = append(rows, row)
	}
	if code := px.close(t); code != 0 {
		t.Errorf("%s: the proxy exited %d\nstderr:\n%s", server, code, px.stderr.String())
	}
	if !strings.Contains(px.stderr.String(), "gcf proxy: ") || !strings.Contains(px.stderr.String(), " tool calls, ") {
		t.Errorf("%s: no -v lines or totals on stderr:\n%s", server, px.stderr.String())
	}
	return rows
}

// textTokens counts the tokens of a result's text blocks.
func textTokens(r *mcp.CallToolResult, counter *tokens.Counter) int {
	n := 0
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			n += counter.Count(tc.Text)
		}
	}
	return n
}

// toonerBinary is the tooner proxy (npm @chaindead/tooner_linux_amd64, an
// optional dependency of the test servers, for linux/amd64 only), or "".
func toonerBinary() string {
	bin, err := filepath.Abs(filepath.Join(mcpServersDir, "node_modules", ".bin", "tooner_linux_amd64"))
	if err != nil {
		return ""
	}
	if _, err := os.Stat(bin); err != nil {
		return ""
	}
	return bin
}

// logRows logs the token table (docs/proxy.md) and checks that the proxy
// costs no more than direct; the comparison with tooner is made on the
// total of all servers (TestProxyServers).
func logRows(t *testing.T, rows []callTokens) {
	t.Helper()
	sumD, sumP, sumT := 0, 0, 0
	for _, r := range rows {
		sumD += r.direct
		sumP += r.proxied
		toon := "n/a"
		if r.toon >= 0 {
			sumT += r.toon
			toon = fmt.Sprint(r.toon)
		}
		t.Logf("| %s | %s | %d | %s | %d | %s |", r.server, r.label, r.direct, toon, r.proxied, strings.Join(r.forms, ","))
	}
	if toonerBinary() == "" {
		t.Logf("| total | | %d | n/a | %d | |", sumD, sumP)
		t.Logf("tooner not installed (optional npm dependency, linux/amd64 only): no comparison")
	} else {
		t.Logf("| total | | %d | %d | %d | |", sumD, sumT, sumP)
	}
	if sumP > sumD {
		t.Errorf("the proxy's total %d tokens is over the direct total %d", sumP, sumD)
	}
}

// vegaFiles are real public documents (the vega-datasets npm package):
// tables, GeoJSON and TopoJSON, a tree, a network and a matrix.
var vegaFiles = []string{
	"anscombe.json", "barley.json", "budgets.json", "cars.json", "flare.json", "gapminder.json",
	"londonTubeLines.json", "miserables.json", "penguins.json", "us-10m.json", "volcano.json", "world-110m.json",
}

func testProxyFilesystem(t *testing.T) []callTokens {
	dir := mcpServers(t)
	data := filepath.Join(dir, "node_modules", "vega-datasets", "data")
	argv := serverArgv(dir, "mcp-server-filesystem", data)
	calls := []toolCall{
		{"list_allowed_directories", nil},
		{"list_directory", map[string]any{"path": data}},
		{"directory_tree", map[string]any{"path": data}},
		{"get_file_info", map[string]any{"path": filepath.Join(data, "cars.json")}},
		{"read_text_file", map[string]any{"path": filepath.Join(data, "no-such-file.json")}},
		{"read_text_file", map[string]any{"path": "/etc/passwd"}},
		{"read_text_file", map[string]any{"path": filepath.Join(data, "seattle-weather.csv")}},
		{"no_such_tool", map[string]any{}},
	}
	for _, f := range vegaFiles {
		calls = append(calls, toolCall{"read_text_file", map[string]any{"path": filepath.Join(data, f)}})
	}
	return runScript(t, "filesystem", func(string) []string { return argv }, calls, nil)
}

func testProxyMemory(t *testing.T) []callTokens {
	dir := mcpServers(t)
	tmp := t.TempDir()
	argv := func(via string) []string {
		return append([]string{"env", "MEMORY_FILE_PATH=" + filepath.Join(tmp, via+".jsonl")}, serverArgv(dir, "mcp-server-memory")...)
	}
	var entities []any
	for i := range 30 {
		entities = append(entities, map[string]any{
			"name": fmt.Sprintf("module-%02d", i), "entityType": "module",
			"observations": []any{fmt.Sprintf("owns %d files", 3+i%7), "written in Go"},
		})
	}
	var relations []any
	for i := range 29 {
		relations = append(relations, map[string]any{"from": fmt.Sprintf("module-%02d", i), "to": fmt.Sprintf("module-%02d", i+1), "relationType": "imports"})
	}
	calls := []toolCall{
		{"create_entities", map[string]any{"entities": entities}},
		{"create_relations", map[string]any{"relations": relations}},
		{"add_observations", map[string]any{"observations": []any{map[string]any{"entityName": "module-03", "contents": []any{"has tests"}}}}},
		{"read_graph", map[string]any{}},
		{"search_nodes", map[string]any{"query": "module-1"}},
		{"open_nodes", map[string]any{"names": []any{"module-01", "module-02", "module-29"}}},
		{"add_observations", map[string]any{"observations": []any{map[string]any{"entityName": "nobody", "contents": []any{"x"}}}}},
		{"create_entities", map[string]any{"entities": "not an array"}},
	}
	return runScript(t, "memory", argv, calls, nil)
}

func testProxyEverything(t *testing.T) []callTokens {
	dir := mcpServers(t)
	argv := serverArgv(dir, "mcp-server-everything")
	var mu sync.Mutex
	samples := 0
	opts := &mcp.ClientOptions{
		//lint:ignore SA1019 server-everything's sampling tool is what shows server-to-client requests pass
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			mu.Lock()
			samples++
			mu.Unlock()
			//lint:ignore SA1019 as above
			return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "sampled"}}, nil
		},
	}
	calls := []toolCall{
		{"echo", map[string]any{"message": "hello"}},
		{"get-sum", map[string]any{"a": 2, "b": 3}},
		{"get-structured-content", map[string]any{"location": "Chicago"}},
		{"get-annotated-message", map[string]any{"messageType": "success", "includeImage": true}},
		{"get-resource-links", map[string]any{"count": 5}},
		{"get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 2}},
		{"get-tiny-image", map[string]any{}},
		{"trigger-sampling-request", map[string]any{"prompt": "say hi", "maxTokens": 10}},
		{"get-sum", map[string]any{"a": "two"}},
	}
	rows := runScript(t, "everything", func(string) []string { return argv }, calls, opts)
	if want := 2 + min(1, len(toonerBinary())); samples != want {
		t.Errorf("sampling requests answered: %d, want %d (one direct, one through the proxy, one through tooner if installed)", samples, want)
	}

	// Progress notifications of a long-running operation arrive through the
	// proxy as they do directly.
	for _, via := range []string{"direct", "proxy"} {
		var got []float64
		popts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, r.Params.Progress)
			mu.Unlock()
		}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var cs *mcp.ClientSession
		var px *proxied
		if via == "direct" {
			cs = connectDirect(t, ctx, argv, popts)
		} else {
			px = connectProxy(t, ctx, nil, argv, popts)
			cs = px.cs
		}
		params := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 1, "steps": 3}}
		params.SetProgressToken("p1")
		if _, err := cs.CallTool(ctx, params); err != nil {
			t.Fatalf("%s: %v", via, err)
		}
		if px != nil {
			px.close(t)
		} else {
			cs.Close()
		}
		cancel()
		mu.Lock()
		if len(got) != 3 {
			t.Errorf("%s: %d progress notifications, want 3: %v", via, len(got), got)
		}
		mu.Unlock()
	}
	return rows
}

// TestProxyServers drives server-filesystem (serving real public documents,
// the vega-datasets package), server-memory and server-everything directly,
// through gcf proxy and, where it is installed, through tooner, and logs the
// token table of docs/proxy.md. Each answer through the proxy is checked
// against the direct one (compareCall); the total through the proxy must be
// below the direct total and below tooner's.
func TestProxyServers(t *testing.T) {
	mcpServers(t)
	var all []callTokens
	for _, s := range []struct {
		name string
		f    func(*testing.T) []callTokens
	}{{"filesystem", testProxyFilesystem}, {"memory", testProxyMemory}, {"everything", testProxyEverything}} {
		t.Run(s.name, func(t *testing.T) {
			rows := s.f(t)
			logRows(t, rows)
			all = append(all, rows...)
		})
	}
	sumD, sumP, sumT := 0, 0, 0
	for _, r := range all {
		sumD, sumP, sumT = sumD+r.direct, sumP+r.proxied, sumT+max(r.toon, 0)
	}
	t.Logf("| all servers | | %d | %d | %d | |", sumD, sumT, sumP)
	if sumP >= sumD {
		t.Errorf("through the proxy %d tokens, direct %d", sumP, sumD)
	}
	if toonerBinary() != "" && sumP >= sumT {
		t.Errorf("through the proxy %d tokens, through tooner %d", sumP, sumT)
	}
}

// TestProxyLoad runs several clients, each with many concurrent calls,
// through the proxy to the memory server, under -race in CI; afterwards
// the goroutines return to the baseline.
func TestProxyLoad(t *testing.T) {
	dir := mcpServers(t)
	tmp := t.TempDir()
	const clients, calls = 4, 40
	baseline := liveGoroutines()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			argv := append([]string{"env", fmt.Sprintf("MEMORY_FILE_PATH=%s/m%d.jsonl", tmp, c)}, serverArgv(dir, "mcp-server-memory")...)
			px := connectProxy(t, ctx, nil, argv, nil)
			var entities []any
			for i := range 20 {
				entities = append(entities, map[string]any{"name": fmt.Sprintf("e%d", i), "entityType": "thing", "observations": []any{"an observation"}})
			}
			if _, err := px.cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_entities", Arguments: map[string]any{"entities": entities}}); err != nil {
				t.Error(err)
				return
			}
			var inner sync.WaitGroup
			for i := range calls {
				inner.Add(1)
				go func() {
					defer inner.Done()
					res, err := px.cs.CallTool(ctx, &mcp.CallToolParams{Name: "open_nodes", Arguments: map[string]any{"names": []any{fmt.Sprintf("e%d", i%20), fmt.Sprintf("e%d", (i+1)%20)}}})
					if err != nil || res.IsError {
						t.Errorf("client %d call %d: %v %v", c, i, err, res)
					}
				}()
			}
			inner.Wait()
			if code := px.close(t); code != 0 {
				t.Errorf("client %d: proxy exit %d", c, code)
			}
		}()
	}
	wg.Wait()
	settleGoroutines(t, baseline)
}

// liveGoroutines counts the goroutines, less the signal package's
// receiver, which the first signal.Notify starts for good.
func liveGoroutines() int {
	buf := make([]byte, 4<<20)
	n := 0
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.TrimSpace(g) != "" && !strings.Contains(g, "os/signal.signal_recv") {
			n++
		}
	}
	return n
}

// settleGoroutines waits for the goroutines to return to baseline (up to
// 10 s: processes and connections close asynchronously) and fails with
// their stacks if they do not.
func settleGoroutines(t *testing.T, baseline int) {
	t.Helper()
	for i := 0; ; i++ {
		n := liveGoroutines()
		if n <= baseline {
			return
		}
		if i == 200 {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines remain, baseline %d:\n%s", n, baseline, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestStatsSaysWhenGCFCostsMore: gcf stats warns when even the smallest
// GCF costs more tokens than minified JSON, naming the shape; a table gets
// no warning.
func TestStatsSaysWhenGCFCostsMore(t *testing.T) {
	dir := t.TempDir()
	var matrix, table []string
	for i := range 40 {
		matrix = append(matrix, fmt.Sprintf("[%d,%d]", i, i*7))
		table = append(table, fmt.Sprintf(`{"id":%d,"name":"n%d","ok":true}`, i, i))
	}
	mpath := filepath.Join(dir, "matrix.json")
	tpath := filepath.Join(dir, "table.json")
	os.WriteFile(mpath, []byte(`{"coordinates":[`+strings.Join(matrix, ",")+`]}`), 0o644)
	os.WriteFile(tpath, []byte("["+strings.Join(table, ",")+"]"), 0o644)
	out, stderr, code := runCLI(t, "", "stats", mpath)
	if code != 0 || !strings.Contains(out, "note: GCF costs") || !strings.Contains(out, "40 arrays inside arrays") || !strings.Contains(out, "first at $.coordinates") {
		t.Errorf("matrix: exit %d\n%s%s", code, out, stderr)
	}
	out, _, _ = runCLI(t, "", "stats", "-json", tpath)
	if strings.Contains(out, "warning") {
		t.Errorf("a table got a warning:\n%s", out)
	}
}

// TestProxyExitStatusAndUsage: the proxy exits with the server's status,
// relays what the server wrote before it exited, and refuses bad flags.
func TestProxyExitStatusAndUsage(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("skip: no sh to play the server")
	}
	line := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}]}}`
	var out, errb syncBuffer
	code := run([]string{"proxy", "--", "sh", "-c", "printf '%s\\n' '" + line + "'; exit 7"}, strings.NewReader(""), &out, &errb)
	if code != 7 || out.String() != line+"\n" {
		t.Errorf("exit %d (want 7), relayed %q\n%s", code, out.String(), errb.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"proxy"}, "the server's command"},
		{[]string{"proxy", "-key", "id", "--", "true"}, "-key applies to -delta"},
		{[]string{"proxy", "-format", "xml", "--", "true"}, "unknown format"},
		{[]string{"proxy", "-upstream", "http://127.0.0.1:1/", "--", "true"}, "exclusive"},
		{[]string{"proxy", "-header", "A: b", "--", "true"}, "-header applies to -upstream"},
		{[]string{"proxy", "-max-sessions", "3", "--", "true"}, "apply to -http"},
		{[]string{"proxy", "-max-message", "0", "--", "true"}, "-max-message"},
	} {
		_, stderr, code := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q (want %q)", c.args, code, stderr, c.want)
		}
	}
	var errc syncBuffer
	if code := run([]string{"proxy", "--", "/no/such/server"}, strings.NewReader(""), io.Discard, &errc); code != exitIO || !strings.Contains(errc.String(), "starting the server") {
		t.Errorf("a missing server: exit %d, %s", code, errc.String())
	}
}
