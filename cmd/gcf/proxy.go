//go:build !gcf_noproxy

package main

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/cmd/gcf/internal/proxy"
	"github.com/gcfkit/gcf/tokens"
)

func init() { proxyCommand.setup = setupProxy }

// proxyGrace is how long the proxy waits for the server to exit after
// closing its stdin, and after SIGTERM before SIGKILL.
var proxyGrace = 5 * time.Second

func setupProxy(fs *flag.FlagSet) func(*env, []string) int {
	format := fs.String("format", "auto", "`format` of the JSON text blocks of tool results: auto (the cheapest in tokens), gcf or json (relay only)")
	smallest := fs.Bool("smallest", false, "encode the generic profile in the Smallest size (priced in -tokenizer tokens)")
	tok := fs.String("tokenizer", "o200k", "`vocabulary` that prices the forms: o200k (o200k_base) or cl100k (cl100k_base)")
	maxMessage := fs.Int("max-message", proxy.DefaultMaxMessage, "largest message, in `bytes`, that is read to route or rewrite it; longer ones are relayed unread")
	decodeArgs := fs.Bool("decode-args", true, "decode GCF string arguments that the tool declares object or array")
	verbose := fs.Bool("v", false, "print one line per tools/call result on stderr")
	delta := fs.Bool("delta", false, "answer a repeated call (same tool and arguments) with unchanged=true or a delta against the previous answer, when cheaper (graph payloads; keyed tables with -key)")
	key := fs.String("key", "", "-delta: the identity `field` of keyed tables (e.g. id)")
	upstream := fs.String("upstream", "", "speak Streamable HTTP to the MCP server at `URL` instead of starting a command")
	var headers headerFlag
	fs.Var(&headers, "header", "`Name: value` header sent to the -upstream server (repeatable), e.g. an Authorization token")
	httpAddr := fs.String("http", "", "serve Streamable HTTP on `ADDR` (host:port; a bare :port binds 127.0.0.1) instead of stdio, with /health")
	var origins listFlag
	fs.Var(&origins, "allow-origin", "-http: an `origin` allowed besides localhost ones (repeatable; * allows any)")
	var converts listFlag
	fs.Var(&converts, "convert", "`TOOL=FORMAT`: the tool's non-JSON text blocks are FORMAT (yaml, toml, csv or msgpack) and go out as GCF where that costs fewer tokens (repeatable)")
	var spec specFlag
	spec.register(fs)
	maxSessions := fs.Int("max-sessions", proxy.DefaultMaxSessions, "-http: most MCP `sessions` kept at once (each has its own server process or upstream session)")
	return func(e *env, args []string) int {
		f, err := proxy.ParseFormat(*format)
		if err != nil {
			return e.usageError(proxyCommand, "-format: %v", err)
		}
		enc, err := tokens.ParseEncoding(*tok)
		if err != nil {
			return e.usageError(proxyCommand, "-tokenizer: %v", err)
		}
		if err := spec.check(); err != nil {
			return e.usageError(proxyCommand, "%v", err)
		}
		if *maxMessage < 1 {
			return e.usageError(proxyCommand, "-max-message must be at least 1 byte")
		}
		switch {
		case *upstream == "" && len(args) == 0:
			return e.usageError(proxyCommand, "the server's command, after \"--\" (or -upstream URL)")
		case *upstream != "" && len(args) > 0:
			return e.usageError(proxyCommand, "-upstream and a command are exclusive")
		case len(headers) > 0 && *upstream == "":
			return e.usageError(proxyCommand, "-header applies to -upstream")
		case *httpAddr == "" && (len(origins) > 0 || fs.Lookup("max-sessions").Value.String() != fmt.Sprint(proxy.DefaultMaxSessions)):
			return e.usageError(proxyCommand, "-allow-origin and -max-sessions apply to -http")
		}
		if *key != "" && !*delta {
			return e.usageError(proxyCommand, "-key applies to -delta")
		}
		convertTools := map[string]string{}
		for _, c := range converts {
			tool, format, ok := proxy.ParseConvert(c)
			if !ok {
				return e.usageError(proxyCommand, "-convert %q: want TOOL=FORMAT, FORMAT one of yaml, toml, csv, msgpack", c)
			}
			convertTools[tool] = format
		}
		counter, err := tokens.New(enc)
		if err != nil {
			fmt.Fprintf(e.stderr, "gcf proxy: %v\n", err)
			return exitIO
		}
		opts := proxy.Options{
			Rewriter:   proxy.Rewriter{Format: f, Smallest: *smallest, Counter: counter, Spec: gcf.Spec(spec.value)},
			MaxMessage: *maxMessage,
			DecodeArgs: *decodeArgs,
			Log:        e.stderr,
			Verbose:    *verbose,
			Delta:      *delta,
			Key:        *key,

			ConvertTools: convertTools,
		}
		h := http.Header{}
		for _, hv := range headers {
			h.Add(hv[0], hv[1])
		}
		switch {
		case *httpAddr != "":
			return e.proxyHTTP(opts, *httpAddr, args, *upstream, h, origins, *maxSessions, string(enc))
		case *upstream != "":
			return e.proxyToUpstream(opts, *upstream, h, string(enc))
		}
		return e.proxyStdio(opts, args, string(enc))
	}
}

// proxyStdio runs the server argv and relays between it and e.
func (e *env) proxyStdio(opts proxy.Options, argv []string, tokenizer string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = e.stderr
	cmd.WaitDelay = proxyGrace
	toServer, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintf(e.stderr, "gcf proxy: %v\n", err)
		return exitIO
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintf(e.stderr, "gcf proxy: %v\n", err)
		return exitIO
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(e.stderr, "gcf proxy: starting the server: %v\n", err)
		return exitIO
	}
	px := proxy.New(opts)
	clientDone := make(chan struct{})
	go func() {
		if err := px.ClientToServer(e.stdin, toServer); err != nil {
			px.Logf("relaying to the server: %v", err)
		}
		toServer.Close()
		close(clientDone)
	}()
	serverDone := make(chan struct{})
	go func() {
		if err := px.ServerToClient(fromServer, e.stdout); err != nil {
			px.Logf("relaying to the client: %v", err)
		}
		close(serverDone)
	}()
	// stop sends SIGTERM, then SIGKILL after the grace period, and closes
	// the server's output after another one (a grandchild may hold it).
	var once sync.Once
	stopped := false
	stop := func() {
		once.Do(func() {
			stopped = true
			_ = cmd.Process.Signal(syscall.SIGTERM)
			time.AfterFunc(proxyGrace, func() {
				_ = cmd.Process.Kill()
				time.AfterFunc(proxyGrace, func() { fromServer.Close() })
			})
		})
	}
	select {
	case <-serverDone:
	case <-clientDone:
		// The client is gone: the server should exit on its own.
		select {
		case <-serverDone:
		case <-sigs:
			stop()
		case <-time.After(proxyGrace):
			stop()
		}
	case <-sigs:
		stop()
	}
	<-serverDone
	// The server's output has ended (or the client is gone): reap it,
	// stopping it if it does not exit.
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-sigs:
		stop()
		err = <-waited
	case <-time.After(proxyGrace):
		stop()
		err = <-waited
	}
	fmt.Fprintf(e.stderr, "gcf proxy: %s\n", px.Totals().Summary(tokenizer))
	var exit *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			if stopped {
				return exitOK
			}
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	}
	fmt.Fprintf(e.stderr, "gcf proxy: %v\n", err)
	return exitIO
}
