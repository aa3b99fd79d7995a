package main

// The proxy command's help; its runner is in proxy.go, or in
// proxy_off.go when gcf is built with -tags gcf_noproxy (docs/cli.md).

var proxyCommand = &command{
	name:    "proxy",
	args:    "[flags] -- command [arguments]",
	summary: "put GCF in front of any MCP server (stdio), never costing more tokens",
	doc: `Proxy starts an MCP server (command and its arguments, after "--") and relays
the Model Context Protocol between it and the client on stdin/stdout. Each
JSON-RPC message passes as its original bytes, in both directions; the proxy
reads each one only far enough to route it. A tools/call result's text
content block that is a JSON object or array is re-encoded, block by block:
with -format auto (the default) it goes out in the cheapest, in tokens of
-tokenizer, of the server's text unchanged, minified JSON and GCF (generic
profile; graph profile for a graph payload it carries whole), so no answer
costs more than without the proxy. -format gcf forces GCF, -format json
relays only. structuredContent, tool errors, notifications, progress,
cancellation, server-to-client requests and batches pass unchanged. GCF
is written in spec v3.6.0; -spec 3.5.3 writes no v3.6-only form, for
clients whose GCF reader predates v3.6.

A tools/call argument whose value is a string starting with "GCF profile="
is decoded to JSON before it reaches the server, where the tool's
inputSchema (from tools/list) declares that argument an object or an array
(-decode-args=false turns this off).

Blocks in other formats are converted only where they declare their format:
an embedded resource whose mimeType is application/yaml, application/toml,
text/csv or application/msgpack (text, or a blob), or a text block of a tool
named with -convert TOOL=FORMAT. Such a block goes out as GCF (a resource
then declares application/vnd.gcf+text) only where that costs fewer tokens
than the block as sent; plain text is never guessed at.

A message longer than -max-message bytes is relayed unchanged as it streams,
never held whole. When the server exits, the proxy flushes what it has and
exits with the server's status; on SIGINT or SIGTERM, or when the client
closes stdin and the server has not exited 5 s later, it stops the server
(SIGTERM, then SIGKILL 5 s later). -v prints one line per tools/call result
on stderr (tool, tokens before and after, form chosen); the totals are
printed at exit.

State is kept per client connection (one per proxy process over stdio) and
bounded: a graph symbol already sent becomes a bare reference (SPEC §9;
gcf.Session, 50,000 symbols at most); with -delta, a call repeated with the
same tool and arguments is answered "unchanged=true" or with a delta against
the previous answer (graph payloads, SPEC §10; keyed tables whose identity
field -key names, SPEC §10a) when that is cheaper; the last 32 answers are
kept for it.`,
	example: `gcf proxy -v -- npx -y @modelcontextprotocol/server-filesystem /data

In an MCP client's configuration, the command becomes "gcf" and the
arguments ["proxy", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"].`,
}
