// Command gcf converts between JSON and GCF (Graph Compact Format) and
// checks GCF payloads.
//
// Usage:
//
//	gcf <command> [flags] [arguments]
//
// The commands are:
//
//	encode [flags] [file|-]        convert JSON to GCF
//	decode [flags] [file|-]        convert GCF (either profile) to JSON, or table rows to NDJSON
//	validate [flags] [file|-]...   report every problem in GCF payloads, with its position
//	migrate [flags] [file|-]       convert a legacy GCF v1.x payload to GCF v3
//	diff [flags] OLD.json NEW.json print the GCF delta that turns one JSON result into another
//	apply [flags] BASE.json DELTA.gcf  apply a GCF delta and print the new JSON
//	stats [flags] file...          compare the bytes and tokens of JSON, GCF and GCB for payloads
//	proxy [flags] -- cmd [args]    put GCF in front of any MCP server, never costing more tokens
//	version                        print the version of gcf and of the Go toolchain that built it
//	help [command]                 print help for a command: its usage, flags and an example
//
// Each command has its own flags; a flag that does not apply to it is a
// usage error. On every command flags may come before or after the file
// arguments (gcf encode FILE -q is gcf encode -q FILE); after "--" every
// argument is a file. `gcf <command> -h` prints the same as
// `gcf help <command>`. An input "-", or none, is stdin.
//
// -o FILE: when FILE is a regular file or does not exist, the output goes
// to a temporary file next to it, renamed onto it only on success (a
// failure, SIGINT or SIGTERM leaves FILE as it was and removes the
// temporary file); a symbolic link is followed, and its target replaced the
// same way. Anything else (a FIFO, a device, /proc/self/fd/1) is written
// directly, as a shell redirection would. Errors name FILE.
//
// Flags of encode:
//
//	-o file        write the output to file (see -o FILE above; "-" is stdout)
//	-q             do not print the size line on stderr, which compares the
//	               output's bytes with the input's as minified JSON
//	-summary       end the output with a ##! summary trailer, which
//	               decode -require-summary checks (-stream output has it)
//	-from f        the input's format: json (the default), yaml, toml, csv (a
//	               header row, then records of strings) or msgpack; converted
//	               to JSON first (docs/proxy.md has the mapping)
//	-profile p     generic (any JSON value, the default) or graph (a graph payload:
//	               {"tool", "tokenBudget", "tokensUsed", "symbols", "edges"})
//	-stream        a JSON array of objects, or NDJSON, to one streaming [?] table
//	-fields a,b    -stream: the table's fields (default: the first record's keys)
//	-table name    -stream: the table's name (default: the root array)
//	-progress      -stream: report bytes and rows per second on stderr
//	-smallest      the layout with the fewest tokens, not the canonical one
//	-tokenizer v   -smallest: o200k (default) or cl100k tokens
//	-buffered      build the whole value in memory first (the path before the
//	               two-pass JSON transcoder; same output, for comparison)
//	-wire w        v3 (the default) or v1: the legacy GCF v1.x wire
//	-codec c       the graph payload's output codec: gcf (the default), gcb (binary,
//	               lossless), gcb1 (GCB version 1, the original GCF tools' binary)
//	               or json; any but gcf implies -profile graph and reads either
//	               JSON spelling (camelCase, or snake_case such as qualified_name).
//	               Binary output never goes to a terminal: use -o or redirect stdout
//	-lossy         -codec gcb1: where GCB version 1 cannot hold a value, write
//	               what the original GCF tools write (losing it) instead of refusing
//	-spec v        the spec version of the output: 3.6.0 (the default; constant
//	               columns factored) or 3.5.3 (no v3.6-only form, for older readers
//	               such as the reference TypeScript SDK 2.x)
//	-group-by k,c  generic profile: a root array of flat records as a value-grouped
//	               keyed set (spec v3.6.0 §7.4.8): k the unique key, c the column
//	               whose values group the records (reordered); not with -stream,
//	               -smallest, -wire v1 or -spec 3.5.3
//
// Flags of decode:
//
//	-o file        as for encode
//	-indent        indent the JSON output
//	-ndjson        every record as one JSON line with its table's path
//	-progress      report bytes and rows per second on stderr
//	-require-summary  a payload that does not end with a ##! summary trailer is
//	               an error (without it, a [?] section without one is a warning)
//	-wire w        v3 (the default), v1, or auto (v3 when the first line starts
//	               "GCF profile=", v1 otherwise; says on stderr which it used)
//	-codec c       the input's codec: gcf (the default), gcb and gcb1 (either GCB
//	               version), or json; the output is the graph payload as JSON
//
// Flags of validate:
//
//	-json          the problems as a JSON array on stdout instead of text on stderr
//	-o file        -json: write the report to file
//	-require-summary  a payload that does not end with a ##! summary trailer is
//	               a problem (without it, a [?] section without one is a warning)
//	-wire w        v3 (the default) or v1: check against the v1 grammar (holds
//	               the payload in memory)
//
// Flags of migrate:
//
//	-o file        as for encode
//	-spec v        as for encode: 3.6.0 (the default) or 3.5.3
//
// Without -wire, decode and validate refuse a v1.x payload with
// missing_profile and the advice to use -wire v1 or gcf migrate. migrate
// translates graph payloads, sessions and deltas line by line in constant
// memory; what v3 cannot express is an error, never dropped
// (docs/legacy-v1.md).
//
// Flags of stats:
//
//	-tokenizer t   o200k (o200k_base, the default) or cl100k (cl100k_base)
//	-json          the statistics as a JSON array on stdout instead of tables
//
// Flags of proxy (docs/proxy.md):
//
//	-format f         auto (the cheapest in tokens of the server's text, minified
//	                  JSON and GCF; the default), gcf or json (relay only)
//	-smallest         the Smallest size of the generic profile
//	-tokenizer t      the vocabulary that prices the forms: o200k (default) or cl100k
//	-spec v           the spec version of the GCF sent: 3.6.0 (default) or 3.5.3
//	-delta            a repeated call gets unchanged=true or a delta when cheaper
//	-key field        -delta: the identity field of keyed tables
//	-decode-args      decode GCF string arguments declared object or array (default true)
//	-upstream url     the server is a Streamable HTTP endpoint, not a command
//	-header h         'Name: value' sent to the upstream (repeatable)
//	-http addr        serve Streamable HTTP on addr (127.0.0.1 for :port), /health
//	-allow-origin o   -http: an Origin allowed besides loopback ones (repeatable)
//	-max-sessions n   -http: most sessions at once (default 64)
//	-convert t=f      the tool t's non-JSON text blocks are f (yaml, toml, csv or
//	                  msgpack): GCF where cheaper (repeatable); a resource block
//	                  whose mimeType declares such a format is converted anyway
//	-max-message n    bytes read to route a message (default 64 MiB); longer ones
//	                  are relayed unread
//	-v                one line per tools/call result on stderr; totals at exit
//
// Flags of diff:
//
//	-key field     generic: the identity field of the rows (required)
//	-profile p     generic (keyed tables, the default) or graph (graph payloads)
//	-tool name     the delta header's tool= (default: none for generic, the new
//	               payload's for graph)
//	-o file        as for encode
//
// Flags of apply:
//
//	-profile p     the profile the delta must have (default: the delta's)
//	-o file        as for encode; nothing is written when the delta does not apply
//
// Limit flags of encode, decode, validate, migrate, diff and apply (0 means the default; the
// encoder refuses what a decoder with the same limits would reject):
//
//	-max-depth n     deepest nesting (default 256)
//	-max-line n      longest line in bytes (default 1048576)
//	-max-elements n  most items, rows or members in one container (default 16777216)
//	-max-fields n    most fields in one field declaration (default 4096)
//	-max-bytes n     largest input in bytes (default no limit): it is read no
//	                 further; encode also refuses a larger output
//
// Memory: decode and validate stream, bounded by the longest line and the
// nesting depth; encode -stream holds one record, whose JSON text may be
// at most 8 times -max-line bytes; encode without -stream holds the whole
// value.
//
// Diagnostics go to stderr as file:line:col: category: message, the
// category spelled as in SPEC §16.5, followed by an excerpt of at most
// about 80 bytes of the line with a caret under the column. Only the
// requested output goes to stdout. decode and validate warn on stderr
// about [?] sections (streaming tables) that no ##! summary trailer
// confirmed (SPEC §8.6). GCF has no end marker: a payload cut at the end of
// a line may still be valid and decode to a shorter value; encode -summary
// with decode (or validate) -require-summary detects the cut.
//
// Exit status:
//
//	0  ok
//	1  invalid input (validate: a problem was found)
//	2  usage error
//	3  I/O error: unreadable input, unwritable output, or the output file
//	   could not be put in place
//	130, 143  SIGINT or SIGTERM while writing -o FILE (128 plus the signal's
//	   number); the temporary file is removed and FILE left as it was
package main
