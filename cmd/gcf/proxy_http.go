//go:build !gcf_noproxy

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gcfkit/gcf/cmd/gcf/internal/proxy"
)

// headerFlag collects repeated -header "Name: value" flags.
type headerFlag [][2]string

func (h *headerFlag) String() string { return fmt.Sprint(*h) }

func (h *headerFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("%q is not a header: use 'Name: value'", s)
	}
	*h = append(*h, [2]string{name, strings.TrimSpace(value)})
	return nil
}

// listFlag collects a repeated string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// proxyToUpstream relays between the client on stdio and the Streamable
// HTTP server at url.
func (e *env) proxyToUpstream(opts proxy.Options, url string, header http.Header, tokenizer string) int {
	px := proxy.New(opts)
	var outMu sync.Mutex
	out := bufio.NewWriter(e.stdout)
	write := func(m []byte) {
		outMu.Lock()
		defer outMu.Unlock()
		out.Write(m)
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			px.Logf("writing to the client: %v", err)
		}
	}
	up := proxy.NewHTTPUpstream(url, header, opts.MaxMessage, proxyGrace, func(m []byte) {
		if o := px.FromServer(m); o != nil {
			m = o
		}
		write(m)
	}, px.Logf)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() {
		done <- proxy.ReadMessages(e.stdin, opts.MaxMessage, func(m []byte) {
			if o := px.FromClient(m); o != nil {
				m = o
			}
			if err := up.Send(m); err != nil {
				px.Logf("%v", err)
			}
		}, func(n int64) {
			msg := fmt.Sprintf("a message of %d bytes is over the %d-byte bound (-max-message)", n, opts.MaxMessage)
			px.Logf("%s", msg)
			write(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":%q}}`, msg))
		})
	}()
	status := exitOK
	select {
	case err := <-done:
		if err != nil {
			px.Logf("reading the client: %v", err)
			status = exitIO
		}
	case <-sigs:
	}
	up.Close()
	fmt.Fprintf(e.stderr, "gcf proxy: %s\n", px.Totals().Summary(tokenizer))
	return status
}

// proxyHTTP serves Streamable HTTP on addr; each session gets its own
// server process (argv) or upstream session (url).
func (e *env) proxyHTTP(opts proxy.Options, addr string, argv []string, url string, header http.Header, origins []string, maxSessions int, tokenizer string) int {
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr
	}
	logOut := &lockedWriter{w: e.stderr}
	opts.Log = logOut
	logf := func(format string, args ...any) { fmt.Fprintf(logOut, "gcf proxy: "+format+"\n", args...) }
	srv := &proxy.HTTPServer{Options: opts, MaxSessions: maxSessions, Origins: origins, Tokenizer: tokenizer}
	srv.Connect = func(deliver func([]byte)) (proxy.Upstream, error) {
		if url != "" {
			return proxy.NewHTTPUpstream(url, header, opts.MaxMessage, proxyGrace, deliver, logf), nil
		}
		return proxy.StartChild(argv, logOut, opts.MaxMessage, proxyGrace, deliver, logf)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "gcf proxy: %v\n", err)
		return exitIO
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	logf("serving Streamable HTTP on http://%s/mcp (GET /health)", ln.Addr())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	status := exitOK
	select {
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			logf("%v", err)
			status = exitIO
		}
	case <-sigs:
	}
	ctx, cancel := context.WithTimeout(context.Background(), proxyGrace)
	defer cancel()
	srv.Close()
	_ = hs.Shutdown(ctx)
	return status
}

// lockedWriter serializes writes from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  interface{ Write([]byte) (int, error) }
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
