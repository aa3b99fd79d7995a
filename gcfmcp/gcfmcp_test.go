package gcfmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// graphOf returns a payload of n symbols s0..s(n-1), each calling the next.
func graphOf(tool string, n int, score float64) *gcf.Payload {
	p := &gcf.Payload{Tool: tool}
	for i := range n {
		p.Symbols = append(p.Symbols, gcf.Symbol{QualifiedName: fmt.Sprintf("example.com/pkg.Func%03d", i), Kind: "function",
			Score: score, Provenance: "test", Distance: i % 3})
		if i > 0 {
			p.Edges = append(p.Edges, gcf.Edge{Source: p.Symbols[i-1].QualifiedName, Target: p.Symbols[i].QualifiedName, EdgeType: "calls"})
		}
	}
	return p
}

func textOf(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	s, err := gcfmcp.Text(res)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func metaOf(t testing.TB, res *mcp.CallToolResult) gcfmcp.Report {
	t.Helper()
	b, _ := json.Marshal(res.Meta[gcfmcp.MetaKey])
	var r gcfmcp.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestResultProfilesFormatsAndAccounting(t *testing.T) {
	p := graphOf("t", 5, 0.5)
	res, err := gcfmcp.Result(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := gcf.Decode([]byte(textOf(t, res)))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := gcf.PackRoot(got)
	m := metaOf(t, res)
	if got.PackRoot != root || m.PackRoot != root || m.Profile != "graph" || m.Outcome != "full" || m.Format != gcfmcp.GCF {
		t.Errorf("graph result: payload root %s, computed %s, meta %+v", got.PackRoot, root, m)
	}
	if m.Bytes != len(textOf(t, res)) || m.Tokens <= 0 || m.JSONBytes <= m.Bytes || m.JSONTokens <= m.Tokens || m.Tokenizer != "o200k_base" {
		t.Errorf("accounting %+v", m)
	}
	if res.StructuredContent != nil {
		t.Error("structuredContent without WithStructuredContent")
	}

	res, err = gcfmcp.Result(p, gcfmcp.WithFormat(gcfmcp.JSON), gcfmcp.WithTokenizer(nil))
	if err != nil {
		t.Fatal(err)
	}
	var back gcf.Payload
	if err := json.Unmarshal([]byte(textOf(t, res)), &back); err != nil || len(back.Symbols) != 5 || back.PackRoot != root {
		t.Errorf("JSON format: %v, %+v", err, back)
	}
	if m := metaOf(t, res); m.Tokens != -1 || m.JSONTokens != -1 || m.Format != gcfmcp.JSON {
		t.Errorf("without a tokenizer: %+v", m)
	}

	v := map[string]any{"rows": []map[string]any{{"id": 1, "name": "a"}, {"id": 2, "name": "b"}}}
	res, err = gcfmcp.Result(v, gcfmcp.WithStructuredContent())
	if err != nil {
		t.Fatal(err)
	}
	back2, err := gcf.DecodeGeneric([]byte(textOf(t, res)))
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := gcf.ToJSON(back2)
	j2, _ := json.Marshal(v)
	if string(j1) != string(j2) {
		t.Errorf("generic round trip %s, want %s", j1, j2)
	}
	if sc, ok := res.StructuredContent.(json.RawMessage); !ok || string(sc) != string(j2) {
		t.Errorf("structuredContent %v", res.StructuredContent)
	}
	if m := metaOf(t, res); m.Profile != "generic" {
		t.Errorf("generic meta %+v", m)
	}
	if _, err := gcfmcp.Result(map[string]any{"bad": "\xff"}); gcf.CategoryOf(err) != "invalid_utf8" {
		t.Errorf("invalid UTF-8: %v", err)
	}
}

// harness is an MCP server whose tool "graph" returns what current holds,
// delivered by a gcfmcp.Server with the given options.
type harness struct {
	srv     *mcp.Server
	g       *gcfmcp.Server
	current atomic.Pointer[gcf.Payload]
	reports atomic.Int64
}

func newHarness(opts ...gcfmcp.Option) *harness {
	h := &harness{srv: mcp.NewServer(&mcp.Implementation{Name: "h"}, nil)}
	opts = append(opts, gcfmcp.WithReport(func(context.Context, gcfmcp.Report) { h.reports.Add(1) }))
	h.g = gcfmcp.New(opts...)
	type in struct {
		N int `json:"n,omitempty"`
	}
	gcfmcp.AddTool(h.g, h.srv, &mcp.Tool{Name: "graph"}, func(ctx context.Context, req *mcp.CallToolRequest, in in) (*gcf.Payload, error) {
		if in.N > 0 { // a payload of its own, to tell concurrent answers apart
			return graphOf(fmt.Sprintf("n%d", in.N), 3+in.N%5, 0.5), nil
		}
		return h.current.Load(), nil
	})
	return h
}

func (h *harness) connect(t testing.TB) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := h.srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func callGraph(t testing.TB, cs *mcp.ClientSession, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestDeltaThresholdAndRedeclaration(t *testing.T) {
	for _, tc := range []struct {
		threshold float64
		want      string
	}{{0, "delta"}, {0.01, "full"}} {
		h := newHarness(gcfmcp.WithDeltaThreshold(tc.threshold))
		cs := h.connect(t)
		c := gcfmcp.NewConsumer(0)
		h.current.Store(graphOf("t", 40, 0.5))
		res := callGraph(t, cs, nil)
		first := textOf(t, res)
		if _, _, err := c.Read([]byte(first)); err != nil {
			t.Fatal(err)
		}
		root := metaOf(t, res).PackRoot
		id7 := ""
		for _, l := range strings.Split(first, "\n") {
			if strings.HasSuffix(l, " fn example.com/pkg.Func007 0.50 test") {
				id7, _, _ = strings.Cut(l, " ")
			}
		}
		// One symbol's score changes: a small delta.
		next := graphOf("t", 40, 0.5)
		next.Symbols[7].Score = 0.9
		h.current.Store(next)
		res = callGraph(t, cs, map[string]any{"pack_root": root})
		m := metaOf(t, res)
		if m.Outcome != tc.want {
			t.Fatalf("threshold %v: outcome %s, want %s:\n%s", tc.threshold, m.Outcome, tc.want, textOf(t, res))
		}
		p, outcome, err := c.Read([]byte(textOf(t, res)))
		if err != nil || outcome.String() != tc.want {
			t.Fatalf("consumer: %v %v", outcome, err)
		}
		if r, _ := gcf.PackRoot(p); r != m.PackRoot {
			t.Errorf("consumer holds %s, server sent %s", r, m.PackRoot)
		}
		if tc.want == "full" {
			// Session answer: Func007 (new score) declared again with its ID,
			// the rest bare references.
			text := textOf(t, res)
			if id7 == "" || m.References != 39 || !strings.Contains(text, "\n"+id7+" fn example.com/pkg.Func007 0.90 test\n") {
				t.Errorf("redeclaration: %d references\n%s", m.References, text)
			}
		}
	}
	if h := newHarness(); h.reports.Load() != 0 {
		t.Error("reports before any call")
	}
}

func TestUnchangedAndUnknownRoot(t *testing.T) {
	h := newHarness()
	cs := h.connect(t)
	h.current.Store(graphOf("t", 10, 0.5))
	res := callGraph(t, cs, nil)
	root := metaOf(t, res).PackRoot
	res = callGraph(t, cs, map[string]any{"pack_root": root})
	if m := metaOf(t, res); m.Outcome != "unchanged" || !strings.Contains(textOf(t, res), "unchanged=true") {
		t.Errorf("same root: %+v", m)
	}
	unknown := "sha256:" + strings.Repeat("ab", 32)
	res = callGraph(t, cs, map[string]any{"pack_root": unknown})
	if m := metaOf(t, res); m.Outcome != "full" {
		t.Errorf("unknown root: %+v", m)
	}
	if h.reports.Load() != 3 {
		t.Errorf("%d reports for 3 calls", h.reports.Load())
	}
}

type fakeGeneric struct{ calls []string }

func (f *fakeGeneric) Respond(current any, consumerRoot string, prior any, threshold float64) ([]byte, string, gcf.Outcome, error) {
	f.calls = append(f.calls, fmt.Sprintf("%v|%s|%v|%v", current, consumerRoot, prior, threshold))
	out, err := gcf.EncodeGeneric(current)
	return out, "sha256:" + strings.Repeat("1", 64), gcf.OutcomeFull, err
}

func TestGenericDeltaHook(t *testing.T) {
	f := &fakeGeneric{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "h"}, nil)
	g := gcfmcp.New(gcfmcp.WithGenericDelta(f), gcfmcp.WithDeltaThreshold(0.5))
	gcfmcp.AddTool(g, srv, &mcp.Tool{Name: "graph"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (map[string]int, error) {
		return map[string]int{"a": 1}, nil
	})
	h := &harness{srv: srv, g: g}
	cs := h.connect(t)
	callGraph(t, cs, nil)
	res := callGraph(t, cs, map[string]any{"pack_root": "sha256:" + strings.Repeat("1", 64)})
	want := []string{"map[a:1]||<nil>|0.5", "map[a:1]|sha256:" + strings.Repeat("1", 64) + "|map[a:1]|0.5"}
	if fmt.Sprint(f.calls) != fmt.Sprint(want) {
		t.Errorf("hook calls %q, want %q", f.calls, want)
	}
	if m := metaOf(t, res); m.PackRoot != "sha256:"+strings.Repeat("1", 64) || m.Profile != "generic" {
		t.Errorf("meta %+v", m)
	}
}

func TestSessionsBoundedAndApart(t *testing.T) {
	h := newHarness(gcfmcp.WithMaxSessions(2))
	h.current.Store(graphOf("t", 4, 0.5))
	a, b, c := h.connect(t), h.connect(t), h.connect(t)
	callGraph(t, a, nil)
	callGraph(t, b, nil)
	if s := textOf(t, callGraph(t, b, nil)); strings.Count(s, "previously transmitted") != 4 {
		t.Errorf("b's second call:\n%s", s)
	}
	callGraph(t, c, nil) // evicts a, the least recently used
	if st := h.g.Stats(); st.Sessions != 2 || st.Symbols != 8 {
		t.Errorf("Stats %+v, want 2 sessions of 4 symbols", st)
	}
	// a is served without state now: full non-session payloads.
	for range 2 {
		if s := textOf(t, callGraph(t, a, nil)); strings.Contains(s, "session=true") || strings.Contains(s, "previously") {
			t.Errorf("evicted session got session state:\n%s", s)
		}
	}
	// c's first call declared everything, whatever b was sent.
	if s := textOf(t, callGraph(t, c, nil)); strings.Count(s, "previously transmitted") != 4 {
		t.Errorf("c's second call:\n%s", s)
	}
}

// TestConcurrentLoad: 8 clients x 200 calls; no lost or crossed answers,
// and the state is released when the clients disconnect. CI runs it under
// the race detector.
func TestConcurrentLoad(t *testing.T) {
	const clients, calls = 8, 200
	// Bytes only: BPE counting under the race detector would take most of
	// the run, and accounting is tested above.
	h := newHarness(gcfmcp.WithTokenizer(nil))
	h.current.Store(graphOf("shared", 30, 0.5))
	base := runtime.NumGoroutine()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	var answered atomic.Int64
	deadline := time.Now().Add(2 * time.Minute)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithDeadline(context.Background(), deadline)
			defer cancel()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := h.srv.Connect(ctx, st, nil)
			if err != nil {
				errs <- err
				return
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c"}, nil).Connect(ctx, ct, nil)
			if err != nil {
				errs <- err
				return
			}
			defer func() { cs.Close(); ss.Wait() }()
			cons := gcfmcp.NewConsumer(0)
			for i := range calls {
				n := 1 + (c*calls+i)%50
				args := map[string]any{"n": n}
				if i%3 == 0 {
					args = nil // the shared payload
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "graph", Arguments: args})
				if err != nil {
					errs <- fmt.Errorf("client %d call %d: %v", c, i, err)
					return
				}
				s, err := gcfmcp.Text(res)
				if err != nil {
					errs <- err
					return
				}
				p, _, err := cons.Read([]byte(s))
				if err != nil {
					errs <- fmt.Errorf("client %d call %d: %v\n%s", c, i, err, s)
					return
				}
				want := "shared"
				if args != nil {
					want = fmt.Sprintf("n%d", n)
				}
				if p.Tool != want {
					errs <- fmt.Errorf("client %d call %d: answer for %s, want %s", c, i, p.Tool, want)
					return
				}
				answered.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := answered.Load(); n != clients*calls {
		t.Errorf("%d of %d answers", n, clients*calls)
	}
	if n := h.reports.Load(); n != clients*calls {
		t.Errorf("%d reports for %d calls", n, clients*calls)
	}
	end := time.Now().Add(10 * time.Second)
	for {
		st, n := h.g.Stats(), runtime.NumGoroutine()
		if st == (gcfmcp.Stats{}) && n <= base+2 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("after disconnect: %+v retained, %d goroutines (baseline %d)", st, n, base)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCheckPackRootAndParseFormat(t *testing.T) {
	good := "sha256:" + strings.Repeat("0a", 32)
	if err := gcfmcp.CheckPackRoot(good); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "sha256:", "md5:" + strings.Repeat("0", 64), "sha256:" + strings.Repeat("A", 64), "sha256:" + strings.Repeat("0", 65), strings.Repeat("0", 64)} {
		if gcfmcp.CheckPackRoot(bad) == nil {
			t.Errorf("CheckPackRoot(%q) = nil", bad)
		}
	}
	for s, want := range map[string]gcfmcp.Format{"": gcfmcp.GCF, "GCF": gcfmcp.GCF, "json": gcfmcp.JSON} {
		if f, err := gcfmcp.ParseFormat(s); err != nil || f != want {
			t.Errorf("ParseFormat(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := gcfmcp.ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml) = nil error")
	}
}

func TestConsumerErrors(t *testing.T) {
	c := gcfmcp.NewConsumer(1)
	root := "sha256:" + strings.Repeat("0", 64)
	if _, _, err := c.Read([]byte("GCF profile=graph tool=t unchanged=true pack_root=" + root + " symbols=1\n")); err == nil {
		t.Error("unchanged answer with nothing held: no error")
	}
	if _, _, err := c.Read([]byte("GCF profile=graph tool=t symbols=1 session=true\n## targets\n@3  # previously transmitted\n")); err == nil || !strings.Contains(err.Error(), "@3 was never declared") {
		t.Errorf("unknown reference: %v", err)
	}
	// Two snapshots with a limit of one: the first is forgotten.
	a, _ := gcfmcp.Result(graphOf("t", 2, 0.5))
	b, _ := gcfmcp.Result(graphOf("t", 3, 0.5))
	for _, res := range []*mcp.CallToolResult{a, b} {
		if _, _, err := c.Read([]byte(textOf(t, res))); err != nil {
			t.Fatal(err)
		}
	}
	rootA := metaOf(t, a).PackRoot
	if _, _, err := c.Read([]byte("GCF profile=graph tool=t unchanged=true pack_root=" + rootA + " symbols=2\n")); err == nil {
		t.Error("unchanged answer naming a dropped snapshot: no error")
	}
	if _, err := gcfmcp.Text(&mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "boom"}}}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("Text of a tool error: %v", err)
	}
}

// TestGenericTables: keyed tables get pack_root, unchanged and deltas
// through the root package's generic delta; gcf.ReceiveGeneric applies them.
func TestGenericTables(t *testing.T) {
	type order struct {
		ID     int     `json:"id"`
		Total  float64 `json:"total"`
		Status string  `json:"status"`
	}
	var current atomic.Value
	orders := func(changed int) map[string][]order {
		var rows []order
		for i := range 40 {
			st := "pending"
			if i == changed {
				st = "shipped"
			}
			rows = append(rows, order{1000 + i, float64(i) + 0.5, st})
		}
		return map[string][]order{"orders": rows}
	}
	current.Store(orders(-1))
	srv := mcp.NewServer(&mcp.Implementation{Name: "h"}, nil)
	g := gcfmcp.New(gcfmcp.WithGenericDelta(gcfmcp.Tables{Key: "id"}))
	gcfmcp.AddTool(g, srv, &mcp.Tool{Name: "graph"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		Nested bool `json:"nested,omitempty"`
	}) (any, error) {
		if in.Nested { // not a keyed table: sent in full, without a root
			return map[string]any{"a": map[string]any{"b": 1}}, nil
		}
		return current.Load(), nil
	})
	cs := (&harness{srv: srv, g: g}).connect(t)

	res := callGraph(t, cs, nil)
	held, outcome, err := gcf.ReceiveGeneric(nil, []byte(textOf(t, res)))
	root := metaOf(t, res).PackRoot
	if err != nil || outcome != gcf.OutcomeFull || root == "" || held.PackRoot != root {
		t.Fatalf("first answer: %v %v, root %q\n%s", outcome, err, root, textOf(t, res))
	}
	res = callGraph(t, cs, map[string]any{"pack_root": root})
	if m := metaOf(t, res); m.Outcome != "unchanged" {
		t.Errorf("same table: %+v", m)
	}
	current.Store(orders(7))
	res = callGraph(t, cs, map[string]any{"pack_root": root})
	m := metaOf(t, res)
	if m.Outcome != "delta" || m.Bytes*3 > m.JSONBytes {
		t.Fatalf("one row changed: %+v\n%s", m, textOf(t, res))
	}
	next, outcome, err := gcf.ReceiveGeneric(held, []byte(textOf(t, res)))
	if err != nil || outcome != gcf.OutcomeDelta || len(next.Rows) != 40 {
		t.Fatalf("applying the delta: %v %v", outcome, err)
	}
	if r, _ := gcf.GenericPackRoot(next); r != m.PackRoot {
		t.Errorf("after the delta the client holds %s, the server sent %s", r, m.PackRoot)
	}
	res = callGraph(t, cs, map[string]any{"nested": true, "pack_root": root})
	if m := metaOf(t, res); m.Outcome != "full" || m.PackRoot != "" {
		t.Errorf("nested value: %+v", m)
	}
}

// The JSON of a result, sent with format=json and counted in _meta, is not
// HTML-escaped: <, > and & are one byte each, not \u003c and the like.
func TestJSONBaselineIsNotHTMLEscaped(t *testing.T) {
	v := map[string]any{"a": "<b>&</b>"}
	const want = `{"a":"<b>&</b>"}`
	res, err := gcfmcp.Result(v)
	if err != nil {
		t.Fatal(err)
	}
	if m := metaOf(t, res); m.JSONBytes != len(want) {
		t.Errorf("json_bytes %d, want %d", m.JSONBytes, len(want))
	}
	res, err = gcfmcp.Result(v, gcfmcp.WithFormat(gcfmcp.JSON))
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, res); got != want {
		t.Errorf("format=json sent %s, want %s", got, want)
	}
}

// TestAutoFormat: WithFormat(Auto) sends GCF where it is cheaper (a table)
// and the JSON where GCF costs more (an array of small arrays, SPEC §7.6),
// and says which in the accounting.
func TestAutoFormat(t *testing.T) {
	var rows, matrix []any
	for i := range 20 {
		rows = append(rows, map[string]any{"id": i, "name": fmt.Sprintf("item-%d", i), "price": float64(i) + 0.5})
		matrix = append(matrix, []any{i, i + 1})
	}
	for _, c := range []struct {
		name string
		v    any
		want gcfmcp.Format
	}{{"table", rows, gcfmcp.GCF}, {"matrix", matrix, gcfmcp.JSON}} {
		res, err := gcfmcp.Result(c.v, gcfmcp.WithFormat(gcfmcp.Auto))
		if err != nil {
			t.Fatal(err)
		}
		m := metaOf(t, res)
		if m.Format != c.want || m.Tokens > m.JSONTokens {
			t.Errorf("%s: sent %s, %d tokens, JSON %d; want %s", c.name, m.Format, m.Tokens, m.JSONTokens, c.want)
		}
		text := textOf(t, res)
		if strings.HasPrefix(text, "GCF profile=") != (c.want == gcfmcp.GCF) {
			t.Errorf("%s: the text is not %s: %.60q", c.name, c.want, text)
		}
		if f, err := gcfmcp.ParseFormat("AUTO"); err != nil || f != gcfmcp.Auto {
			t.Errorf("ParseFormat(AUTO) = %v, %v", f, err)
		}
	}
}
