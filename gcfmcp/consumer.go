package gcfmcp

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/stream"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Consumer is the client side of a GCF tool session: it remembers the
// symbol declarations of the graph answers it has read, so that bare
// references (`@N  # previously transmitted`) resolve, and the snapshots it
// was sent, so that unchanged and delta answers (SPEC §10.3) yield the
// current snapshot. Use one Consumer per MCP client session. It is safe for
// concurrent use.
type Consumer struct {
	mu    sync.Mutex
	decls map[int64][]byte // session ID -> the symbol line that declared it
	held  map[string]*gcf.Payload
	order []string // held roots, oldest first
	max   int
}

// NewConsumer returns a Consumer that keeps at most maxSnapshots snapshots
// (oldest dropped first; < 1 means 16).
func NewConsumer(maxSnapshots int) *Consumer {
	if maxSnapshots < 1 {
		maxSnapshots = 16
	}
	return &Consumer{decls: map[int64][]byte{}, held: map[string]*gcf.Payload{}, max: maxSnapshots}
}

// Text returns the text of a tool result's first TextContent, and an error
// when the result is a tool error or has no text.
func Text(res *mcp.CallToolResult) (string, error) {
	if res == nil {
		return "", fmt.Errorf("gcfmcp: no result")
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if res.IsError {
				return "", fmt.Errorf("tool error: %s", t.Text)
			}
			return t.Text, nil
		}
	}
	if res.IsError {
		return "", fmt.Errorf("tool error without text")
	}
	return "", fmt.Errorf("gcfmcp: the result has no text content")
}

// Read returns the graph snapshot a graph answer denotes and its outcome: a
// full payload (bare references resolved from earlier answers), the held
// snapshot an unchanged answer names, or the held base snapshot with a
// delta applied (roots verified, SPEC §10.4). The result is remembered
// under its pack root. An error leaves the Consumer as it was, except that
// the declarations of a valid payload are remembered.
func (c *Consumer) Read(answer []byte) (*gcf.Payload, gcf.Outcome, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	header, _, _ := bytes.Cut(answer, []byte("\n"))
	fields := map[string]string{}
	for _, f := range bytes.Fields(header) {
		if k, v, ok := bytes.Cut(f, []byte("=")); ok {
			fields[string(k)] = string(v)
		}
	}
	var held *gcf.Payload
	switch {
	case fields["unchanged"] == "true":
		held = c.held[fields["pack_root"]]
	case fields["delta"] == "true":
		held = c.held[fields["base_root"]]
	default:
		resolved, err := c.resolve(answer, fields["session"] == "true")
		if err != nil {
			return nil, 0, err
		}
		answer = resolved
	}
	p, outcome, err := gcf.Receive(held, answer)
	if err != nil {
		return nil, 0, err
	}
	if root, err := gcf.PackRoot(p); err == nil {
		c.keep(root, p)
	}
	return p, outcome, nil
}

func (c *Consumer) keep(root string, p *gcf.Payload) {
	if _, ok := c.held[root]; !ok {
		c.order = append(c.order, root)
	}
	c.held[root] = p
	for len(c.order) > c.max {
		delete(c.held, c.order[0])
		c.order = c.order[1:]
	}
}

// resolve replaces each bare reference of a session payload by the line
// that declared it, remembering the payload's declarations.
func (c *Consumer) resolve(answer []byte, session bool) ([]byte, error) {
	d := gcf.NewDecoder(bytes.NewReader(answer))
	type ref struct {
		line int
		id   int64
	}
	var refs []ref
	lines := bytes.SplitAfter(answer, []byte("\n"))
	found := map[int64][]byte{}
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindSymbol:
			if ev.ID >= 0 && ev.Line >= 1 && ev.Line <= len(lines) {
				found[ev.ID] = bytes.TrimRight(lines[ev.Line-1], "\n")
			}
		case stream.KindReference:
			refs = append(refs, ref{ev.Line, ev.ID})
		}
	}
	if !session { // payload-local IDs, not session IDs
		return answer, nil
	}
	for id, l := range found {
		c.decls[id] = l
	}
	if len(refs) == 0 {
		return answer, nil
	}
	var out bytes.Buffer
	out.Grow(len(answer))
	next := 0
	for i, l := range lines {
		if next < len(refs) && refs[next].line == i+1 {
			decl, ok := c.decls[refs[next].id]
			if !ok {
				return nil, fmt.Errorf("line %d: session reference @%s was never declared to this consumer", i+1, strconv.FormatInt(refs[next].id, 10))
			}
			out.Write(decl)
			out.WriteByte('\n')
			next++
			continue
		}
		out.Write(l)
	}
	return out.Bytes(), nil
}
