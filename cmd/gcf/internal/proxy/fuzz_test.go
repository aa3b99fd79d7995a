package proxy

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzRelay feeds a client message and a server message to a Proxy's
// routing (without the recover of the relay loop, so that a panic fails):
// it must not panic, and a message it rewrites must still be JSON.
func FuzzRelay(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":"GCF profile=generic\n## [1]{x}\n1\n"}}}`),
		[]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[{\"a\":1},{\"a\":2}]"}]}}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t"}}]`),
		[]byte(`[{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"{\"symbols\":[]}"}]}}]`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`),
		[]byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","inputSchema":{"properties":{"a":{"type":["array","null"]}}}}]}}`))
	f.Add([]byte(`{"id":1,"method":"tools/call","params":{"name":"t"}}`), []byte(`{"id":1,"result":{"isError":true,"content":[]}}`))
	f.Fuzz(func(t *testing.T, client, server []byte) {
		p := New(Options{DecodeArgs: true, Delta: true, Key: "a", MaxPending: 4, Snapshots: 2})
		// Teach the schema so argument decoding is reached.
		p.FromClient([]byte(`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`))
		p.FromServer([]byte(`{"jsonrpc":"2.0","id":"l","result":{"tools":[{"name":"t","inputSchema":{"properties":{"a":{"type":"array"}}}}]}}`))
		for range 2 {
			if out := p.FromClient(client); out != nil && !json.Valid(out) {
				t.Fatalf("a client message was rewritten to invalid JSON:\n%s\n%s", client, out)
			}
			if out := p.FromServer(server); out != nil && !json.Valid(out) {
				t.Fatalf("a server message was rewritten to invalid JSON:\n%s\n%s", server, out)
			}
		}
	})
}

// FuzzReadSSE: the event-stream reader never panics and never delivers an
// event longer than its bound.
func FuzzReadSSE(f *testing.F) {
	f.Add([]byte("event: message\ndata: {\"a\":1}\n\ndata: x\ndata: y\n\n"), 8)
	f.Add([]byte("data: "+string(make([]byte, 200))+"\n\n: comment\r\ndata: ok\r\n\r\n"), 16)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max < 1 || max > 1<<16 {
			return
		}
		var n, over int
		err := readSSE(bytesReader(in), max, func(b []byte) {
			n++
			if len(b) > max {
				t.Fatalf("an event of %d bytes, over the bound %d", len(b), max)
			}
		}, func(int64) { over++ })
		if err != nil {
			t.Fatal(err)
		}
	})
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
