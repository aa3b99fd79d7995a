// Command codegraph is an MCP server over stdio that answers questions
// about a Go module with GCF graph payloads, through gcfmcp: one GCF
// session per client (symbols already sent become bare references) and
// deltas when the client echoes a pack_root.
//
// It type-checks every package of the module at -root with
// golang.org/x/tools/go/packages and builds a symbol graph (packages,
// functions, methods, types, interfaces, fields; edges calls, implements,
// references, imports), reloaded when a Go file changes. Tools:
//
//	context_for_task  query, budget            ranked neighbourhood of the best matches, within a token budget
//	blast_radius      symbol, max_depth        what depends on the symbol, transitively, grouped by distance
//	graph_query       symbol, edge_type, direction   the symbol's neighbours along one edge type
//	semantic_diff     base, head               symbols and edges added and removed between two git revisions or two directories
//
// Every tool also takes format ("gcf" or "json") and pack_root. It is a
// module of its own (its golang.org/x/tools requirement stays out of
// gcf's go.mod). Usage, from the repository root:
//
//	go -C examples/codegraph build -o ../../bin/codegraph .
//	bin/codegraph -root .
//
// Diagnostics go to stderr; stdout carries only the MCP protocol.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/gcfkit/gcf/tokens"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	root := flag.String("root", ".", "the Go module to serve (a directory with a go.mod)")
	tokenizer := flag.String("tokenizer", "o200k", "token counter of budgets and accounting: o200k or cl100k")
	threshold := flag.Float64("delta-threshold", gcfmcp.DefaultDeltaThreshold, "largest delta, as a fraction of the full payload, sent instead of it")
	preload := flag.Bool("preload", true, "load the module's graph at start instead of on the first call")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: codegraph [-root DIR] [flags]\n\nAn MCP server over stdio answering questions about the Go module at -root in GCF.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	log.SetFlags(0)
	log.SetPrefix("codegraph: ")
	enc, err := tokens.ParseEncoding(*tokenizer)
	if err != nil {
		log.Print(err)
		os.Exit(2)
	}
	t, err := newTools(*root, enc)
	if err != nil {
		log.Print(err)
		os.Exit(1)
	}
	defer t.revs.close()
	if *preload {
		go func() {
			if g, err := t.graph(); err != nil {
				log.Printf("loading %s: %v", t.root, err)
			} else {
				log.Printf("%s: %d symbols, %d edges, loaded in %v", g.Module, len(g.Nodes), len(g.Edges), g.Load.Round(1e6))
			}
		}()
	}
	srv, _ := newServer(t, gcfmcp.WithDeltaThreshold(*threshold), gcfmcp.WithTokenizer(t.counter))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Run(ctx, &mcp.StdioTransport{}); err != nil && ctx.Err() == nil {
		log.Print(err)
		t.revs.close()
		os.Exit(1)
	}
}

// newTools checks root and prepares the tools over it.
func newTools(root string, enc tokens.Encoding) (*tools, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("-root %s: %v", root, err)
	}
	if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
		return nil, fmt.Errorf("-root %s: no go.mod there: codegraph serves a Go module", root)
	}
	counter, err := tokens.New(enc)
	if err != nil {
		return nil, err
	}
	return &tools{root: abs, graphs: newCache(abs), revs: newRevisions(abs), counter: counter}, nil
}

// newServer returns the MCP server with the four tools, and the gcfmcp
// Server that delivers their results.
func newServer(t *tools, opts ...gcfmcp.Option) (*mcp.Server, *gcfmcp.Server) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "codegraph", Version: "0.1.0"}, nil)
	g := gcfmcp.New(opts...)
	t.register(g, srv)
	return srv, g
}
