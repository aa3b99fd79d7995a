package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/tokens"
)

// relayServer runs lines through ServerToClient after the client lines
// went through ClientToServer, and returns both outputs.
func relay(t *testing.T, p *Proxy, client, server string) (toServer, toClient string) {
	t.Helper()
	var a, b bytes.Buffer
	if err := p.ClientToServer(strings.NewReader(client), &a); err != nil {
		t.Fatal(err)
	}
	if err := p.ServerToClient(strings.NewReader(server), &b); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

const table = `[
  {"id": 1, "name": "alpha", "score": 0.5},
  {"id": 2, "name": "beta", "score": 1.5},
  {"id": 3, "name": "gamma", "score": 2.5},
  {"id": 4, "name": "delta", "score": 3.5}
]`

func callResult(id, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}],"structuredContent":{"keep":"  as is  "}}}`, id, quoteJSON(text))
}

func TestRelayRewritesOnlyToolsCallResults(t *testing.T) {
	p := New(Options{})
	client := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"7","method":"resources/read","params":{"uri":"x"}}` + "\n"
	server := callResult(`"7"`, table) + "\n" + // answers resources/read: untouched
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}` + "\n" +
		`{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}` + "\n" +
		callResult("7", table) + "\n"
	toServer, toClient := relay(t, p, client, server)
	if toServer != client {
		t.Errorf("client messages changed:\n%s", toServer)
	}
	lines := strings.Split(strings.TrimSuffix(toClient, "\n"), "\n")
	serverLines := strings.Split(strings.TrimSuffix(server, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines out, want 4:\n%s", len(lines), toClient)
	}
	for i := 0; i < 3; i++ {
		if lines[i] != serverLines[i] {
			t.Errorf("line %d changed:\n%s\n%s", i, serverLines[i], lines[i])
		}
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Result struct {
			Content []struct {
				Type, Text string
			} `json:"content"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[3]), &msg); err != nil {
		t.Fatal(err)
	}
	if string(msg.ID) != "7" || string(msg.Result.StructuredContent) != `{"keep":"  as is  "}` {
		t.Errorf("id or structuredContent changed: %s", lines[3])
	}
	text := msg.Result.Content[0].Text
	if !strings.HasPrefix(text, "GCF profile=generic") {
		t.Fatalf("the table was not rewritten as GCF: %q", text)
	}
	v, err := gcf.DecodeGeneric([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := gcf.ToJSON(v)
	var min bytes.Buffer
	_ = json.Compact(&min, []byte(table))
	if string(got) != min.String() {
		t.Errorf("decodes to %s, want %s", got, min.String())
	}
	if tot := p.Totals(); tot.Calls != 1 || tot.Rewritten != 1 || tot.After >= tot.Before {
		t.Errorf("totals %+v", tot)
	}
	if p.Pending() != 0 {
		t.Errorf("%d requests still pending", p.Pending())
	}
}

func TestRewriteNeverCostsMore(t *testing.T) {
	cnt := tokens.MustNew(tokens.Default)
	// An array of small arrays, where GCF costs more than JSON: auto keeps
	// the server's text, or its minified form.
	matrix := "[[1,2],[3,4],[5,6],[7,8],[9,10],[11,12]]"
	for _, text := range []string{matrix, "[\n  [1, 2],\n  [3, 4],\n  [5, 6]\n]", table, `{"a":1}`, "plain text", `"a string"`, "{not json", "[1,2", "  "} {
		r := Rewriter{}
		out, c, ok := r.Rewrite(text, nil)
		if cnt.Count(out) > cnt.Count(text) {
			t.Errorf("%q: %d tokens out, %d in", text, cnt.Count(out), cnt.Count(text))
		}
		if ok == (out == text) {
			t.Errorf("%q: ok=%v but out=%q", text, ok, out)
		}
		if ok && c.After >= c.Before {
			t.Errorf("%q: rewritten without saving: %+v", text, c)
		}
	}
	if out, c, _ := (&Rewriter{Format: GCF}).Rewrite(matrix, nil); !strings.HasPrefix(out, "GCF profile=generic") || c.Form != FormGCF {
		t.Errorf("-format gcf did not force GCF: %q %+v", out, c)
	}
	if out, _, ok := (&Rewriter{Format: JSON}).Rewrite(table, nil); ok || out != table {
		t.Errorf("-format json rewrote: %q", out)
	}
}

func TestRewriteGraphPayload(t *testing.T) {
	data, err := os.ReadFile("../../../../testdata/examples/graph.json")
	if err != nil {
		t.Fatal(err)
	}
	graph := string(data)
	if graphPayload([]byte(graph)) == nil {
		t.Fatal("the example graph payload is not taken for one")
	}
	s := gcf.NewSession()
	r := Rewriter{Format: GCF}
	first, c, _ := r.Rewrite(graph, s)
	if c.Form != FormGraph || !strings.HasPrefix(first, "GCF profile=graph") {
		t.Fatalf("not the graph profile: %+v %q", c, first)
	}
	second, _, _ := r.Rewrite(graph, s)
	if !strings.Contains(second, "previously transmitted") {
		t.Errorf("the second answer does not refer to the symbols already sent:\n%s", second)
	}
	// A score the graph profile would round is sent in the generic profile.
	lossy := strings.Replace(graph, "0.95", "0.987", 1)
	if _, c, _ := r.Rewrite(lossy, nil); c.Form != FormGCF {
		t.Errorf("a payload with a three-decimal score went out as %s", c.Form)
	}
}

func TestRelayMalformedAndBatches(t *testing.T) {
	p := New(Options{})
	client := "not json\n" +
		`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}},{"jsonrpc":"2.0","method":"notifications/initialized"}]` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"bad"}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"c"}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n" +
		"\n"
	server := "{\"id\":\n" + // truncated
		"[" + callResult("1", table) + `,{"jsonrpc":"2.0","id":99,"result":{}}]` + "\n" +
		callResult("1", table) + "\n" + // already answered: relayed unchanged
		`{"jsonrpc":"2.0","id":1,"result":{"content":"not an array"}}` + "\n" +
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n" +
		"trailing without newline"
	toServer, toClient := relay(t, p, client, server)
	if toServer != client {
		t.Errorf("client messages changed:\n%s", toServer)
	}
	lines := strings.Split(toClient, "\n")
	want := strings.Split(server, "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(lines), len(want))
	}
	for i := range lines {
		if i == 1 {
			if lines[i] == want[i] || !strings.Contains(lines[i], "GCF profile=generic") || !strings.HasSuffix(lines[i], `{"jsonrpc":"2.0","id":99,"result":{}}]`) {
				t.Errorf("the batch was not rewritten element by element:\n%s", lines[i])
			}
			continue
		}
		if lines[i] != want[i] {
			t.Errorf("line %d changed:\n%s\n%s", i, want[i], lines[i])
		}
	}
	if p.Pending() != 0 {
		t.Errorf("%d requests pending after answers and a cancellation", p.Pending())
	}
}

func TestRelayOversizedMessage(t *testing.T) {
	var log bytes.Buffer
	p := New(Options{MaxMessage: 100, Log: &log})
	big := callResult("1", table)
	client := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}` + "\n"
	_, toClient := relay(t, p, client, big+"\n"+big)
	if toClient != big+"\n"+big {
		t.Errorf("an oversized message was changed")
	}
	if !strings.Contains(log.String(), "over the 100-byte bound") {
		t.Errorf("no log line for the oversized message: %q", log.String())
	}
}

func TestPendingIsBounded(t *testing.T) {
	p := New(Options{MaxPending: 10})
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"a"}}`+"\n", i)
	}
	relay(t, p, b.String(), "")
	if p.Pending() != 10 {
		t.Errorf("%d pending, want the bound 10", p.Pending())
	}
	// The newest are kept.
	_, out := relay(t, p, "", callResult("99", table)+"\n")
	if !strings.Contains(out, "GCF profile=") {
		t.Errorf("the newest request was forgotten")
	}
}

func TestDecodeArgs(t *testing.T) {
	p := New(Options{DecodeArgs: true})
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n"
	tools := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"put","inputSchema":{"type":"object","properties":{` +
		`"rows":{"type":"array"},"doc":{"type":["object","null"]},"content":{"type":"string"},"either":{"type":["string","object"]}}}}]}}` + "\n"
	relay(t, p, list, tools)
	payload, err := gcf.EncodeGeneric([]any{map[string]any{"id": int64(1)}, map[string]any{"id": int64(2)}})
	if err != nil {
		t.Fatal(err)
	}
	s := string(payload)
	call := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"put","arguments":{"rows":%s,"content":%s,"either":%s,"doc":%s}}}`,
		quoteJSON(s), quoteJSON(s), quoteJSON(s), quoteJSON("GCF profile=generic\nnot valid"))
	var log bytes.Buffer
	p.opts.Log = &log
	toServer, _ := relay(t, p, call+"\n", "")
	var msg struct {
		Params struct {
			Arguments map[string]json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(toServer), &msg); err != nil {
		t.Fatal(err)
	}
	a := msg.Params.Arguments
	if string(a["rows"]) != `[{"id":1},{"id":2}]` {
		t.Errorf("rows = %s, want the decoded array", a["rows"])
	}
	if string(a["content"]) != string(quoteJSON(s)) || string(a["either"]) != string(quoteJSON(s)) {
		t.Errorf("a string argument was decoded: %s %s", a["content"], a["either"])
	}
	if string(a["doc"]) != string(quoteJSON("GCF profile=generic\nnot valid")) || !strings.Contains(log.String(), `argument "doc"`) {
		t.Errorf("an invalid payload was not sent unchanged and logged: %s %q", a["doc"], log.String())
	}
	// Off: unchanged.
	p.opts.DecodeArgs = false
	if toServer, _ := relay(t, p, call+"\n", ""); toServer != call+"\n" {
		t.Errorf("-decode-args=false decoded")
	}
}

func TestDeltaOfRepeatedCalls(t *testing.T) {
	rows := func(changed string) string {
		var b strings.Builder
		b.WriteString("[")
		for i := range 30 {
			if i > 0 {
				b.WriteString(",")
			}
			name := fmt.Sprintf("item-%d", i)
			if i == 7 {
				name = changed
			}
			fmt.Fprintf(&b, `{"id":%d,"name":%q,"stock":%d}`, i, name, i*3)
		}
		b.WriteString("]")
		return b.String()
	}
	p := New(Options{Delta: true, Key: "id", Snapshots: 2})
	ask := func(id int, args, result string) string {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"stock","arguments":%s}}`+"\n", id, args)
		_, out := relay(t, p, req, callResult(fmt.Sprint(id), result)+"\n")
		var msg struct {
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(out), &msg); err != nil {
			t.Fatal(err)
		}
		return msg.Result.Content[0].Text
	}
	first := ask(1, `{"q":"all"}`, rows("seven"))
	base, err := gcf.DecodeTable([]byte(first))
	if err != nil || base.PackRoot == "" {
		t.Fatalf("the first answer is not a keyed table with its root: %v\n%s", err, first)
	}
	if same := ask(2, `{ "q": "all" }`, rows("seven")); !strings.Contains(same, "unchanged=true") {
		t.Errorf("the same answer again is not unchanged=true:\n%s", same)
	}
	second := ask(3, `{"q":"all"}`, rows("SEVEN"))
	d, err := gcf.DecodeGenericDelta([]byte(second))
	if err != nil {
		t.Fatalf("a one-row change is not a delta: %v\n%s", err, second)
	}
	got, err := gcf.ApplyGenericDelta(base, d)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := gcf.NewTable(mustParse(t, rows("SEVEN")), "id")
	gr, _ := gcf.GenericPackRoot(got)
	wr, _ := gcf.GenericPackRoot(want)
	if gr != wr {
		t.Errorf("base + delta has root %s, want %s", gr, wr)
	}
	// Other arguments are another call: a full answer.
	if other := ask(4, `{"q":"other"}`, rows("SEVEN")); strings.Contains(other, "delta") || strings.Contains(other, "unchanged") {
		t.Errorf("a call with other arguments got a delta:\n%s", other)
	}
	ask(5, `{"q":"third"}`, rows("x"))
	if p.Snapshots() != 2 {
		t.Errorf("%d snapshots kept, want the bound 2", p.Snapshots())
	}
}

func mustParse(t *testing.T, s string) any {
	t.Helper()
	v, err := gcf.ParseJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRewriteSmallest(t *testing.T) {
	cnt := tokens.MustNew(tokens.Default)
	doc := `{"users":{"u1":{"name":"a","age":1},"u2":{"name":"b","age":2},"u3":{"name":"c","age":3}},"tags":["x","y"]}`
	canon, c1, _ := (&Rewriter{Format: GCF}).Rewrite(doc, nil)
	small, c2, _ := (&Rewriter{Format: GCF, Smallest: true}).Rewrite(doc, nil)
	if c1.Form != FormGCF || c2.Form != FormGCF || cnt.Count(small) > cnt.Count(canon) {
		t.Errorf("-smallest: %d tokens, canonical %d", cnt.Count(small), cnt.Count(canon))
	}
	v, err := gcf.DecodeGeneric([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := gcf.ToJSON(v); string(got) != doc {
		t.Errorf("the Smallest form decodes to %s", got)
	}
}
