package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/gcfkit/gcf/tokens"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// repoRoot is this repository's root, two levels up.
func repoRoot(t testing.TB) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

var (
	repoOnce  sync.Once
	repoTools *tools
	repoErr   error
)

// sharedRepoTools are the tools over this repository, loaded once per test
// binary.
func sharedRepoTools(t testing.TB) *tools {
	t.Helper()
	repoOnce.Do(func() {
		repoTools, repoErr = newTools(repoRoot(t), tokens.O200kBase)
		if repoErr == nil {
			_, repoErr = repoTools.graph()
		}
	})
	if repoErr != nil {
		t.Fatal(repoErr)
	}
	return repoTools
}

// connect starts srv on an in-memory transport and returns a connected
// client session, closed at the end of the test.
func connect(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// call calls a tool with a deadline and fails the test on a protocol error.
func call(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	return res
}

// text returns a successful result's text.
func text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	s, err := gcfmcp.Text(res)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// meta returns a result's accounting.
func meta(t testing.TB, res *mcp.CallToolResult) gcfmcp.Report {
	t.Helper()
	b, err := json.Marshal(res.Meta[gcfmcp.MetaKey])
	if err != nil {
		t.Fatal(err)
	}
	var r gcfmcp.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// writeModule writes a small module into dir.
func writeModule(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// smallModule is a module whose call graph the tests know by heart: B is
// called by A, C and F00..F19; sub.Use calls A.
var smallModule = map[string]string{
	"more.go": moreCallers(),
	"go.mod":  "module example.com/small\n\ngo 1.22\n",
	"small.go": `package small

// Store is implemented by Memory.
type Store interface{ Get(key string) string }

// Memory is a Store.
type Memory struct{ Data map[string]string }

func (m *Memory) Get(key string) string { return m.Data[key] }

func Lookup(s Store, key string) string { return s.Get(key) }

func A() string { return B() + "a" }

func B() string { return "b" }

func C() string { return B() + "c" }

func E() string { return "e" }
`,
	"sub/sub.go": `package sub

import "example.com/small"

func Use() string { return small.A() + small.Lookup(&small.Memory{}, "k") }
`,
}

func moreCallers() string {
	var b strings.Builder
	b.WriteString("package small\n")
	for i := range 20 {
		fmt.Fprintf(&b, "\nfunc F%02d() string { return B() }\n", i)
	}
	return b.String()
}

// hasLine reports whether text has the line.
func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if l == line {
			return true
		}
	}
	return false
}
