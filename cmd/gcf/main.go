// Command gcf converts between JSON and GCF (Graph Compact Format).
//
// Usage:
//
//	gcf encode [-profile generic|graph] [file]   JSON to GCF; stdin when no file
//	gcf encode -stream [-fields a,b] [-table name] [-progress] [file]
//	                                             JSON array of records or NDJSON to a streaming GCF table
//	gcf decode [file]                            GCF to JSON (either profile); stdin when no file
//	gcf decode -ndjson [-progress] [file]        rows of every GCF table as NDJSON
//
// The -stream and -ndjson modes run in constant memory, whatever the input
// size; -progress reports bytes and rows per second on stderr.
//
// With -profile graph the JSON is a graph payload as the reference SDKs and
// the conformance fixtures spell it: {"tool", "tokenBudget", "tokensUsed",
// "symbols": [{"qualifiedName", "kind", "score", "provenance", "distance"}],
// "edges": [{"source", "target", "edgeType"}]}. decode prints graph payloads
// (and graph deltas) in that form.
//
// Errors go to stderr as file:line:col: category: message, with exit status 1.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/gcfkit/gcf"
)

const usage = `usage:
  gcf encode [-q] [-profile generic|graph] [file]   convert JSON to GCF (stdin when no file)
  gcf encode -stream [-fields a,b,...] [-table name] [-progress] [file]
                                                    JSON array of records or NDJSON to a streaming
                                                    GCF table, in constant memory
  gcf decode [-indent] [file]                       convert GCF to JSON (stdin when no file)
  gcf decode -ndjson [-progress] [file]             every table row as one JSON line, in constant memory
  gcf validate [-json] [files...]                   report every problem with its position (exit 1 if any)
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, args := args[0], args[1:]
	if cmd == "validate" {
		return runValidate(args, stdout, stderr)
	}
	fs := flag.NewFlagSet("gcf "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	quiet := fs.Bool("q", false, "encode: do not print the size comparison on stderr")
	indent := fs.Bool("indent", false, "decode: indent the JSON output")
	profile := fs.String("profile", "generic", "encode: generic (any JSON value) or graph (a graph payload)")
	streaming := fs.Bool("stream", false, "encode: stream a JSON array of records or NDJSON into a [?] table")
	fieldList := fs.String("fields", "", "encode -stream: the table's fields, comma-separated (default: the first record's keys)")
	table := fs.String("table", "", "encode -stream: name the table (default: the root array)")
	ndjson := fs.Bool("ndjson", false, "decode: write the rows of every table as NDJSON")
	showProgress := fs.Bool("progress", false, "-stream/-ndjson: report bytes and rows per second on stderr")
	switch cmd {
	case "encode", "decode":
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "gcf: unknown command %q\n%s", cmd, usage)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (cmd == "encode" && *streaming) || (cmd == "decode" && *ndjson) {
		return runStream(cmd, fs.Args(), stdin, stdout, stderr, *table, parseFields(*fieldList), *showProgress)
	}
	name, data, err := readInput(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gcf: %v\n", err)
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	switch cmd {
	case "encode":
		var enc []byte
		switch *profile {
		case "generic":
			v, err := gcf.ParseJSON(data)
			if err != nil {
				return report(stderr, name, err, nil)
			}
			if enc, err = gcf.EncodeGeneric(v); err != nil {
				return report(stderr, name, err, nil)
			}
		case "graph":
			var p gcf.Payload
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&p); err != nil {
				return report(stderr, name, fmt.Errorf("not a graph payload: %v", err), nil)
			}
			var err error
			if enc, err = gcf.Encode(&p); err != nil {
				return report(stderr, name, err, nil)
			}
		default:
			fmt.Fprintf(stderr, "gcf: unknown profile %q (generic or graph)\n", *profile)
			return 2
		}
		out.Write(enc)
		if !*quiet {
			saved := len(data) - len(enc)
			pct := 0.0
			if len(data) > 0 {
				pct = 100 * float64(saved) / float64(len(data))
			}
			fmt.Fprintf(stderr, "gcf: %d bytes of JSON -> %d bytes of GCF (%d bytes saved, %.1f%%)\n", len(data), len(enc), saved, pct)
		}
	case "decode":
		js, err := decode(data)
		if err != nil {
			return report(stderr, name, err, data)
		}
		if *indent {
			var buf bytes.Buffer
			if err := json.Indent(&buf, js, "", "  "); err == nil {
				js = buf.Bytes()
			}
		}
		out.Write(js)
		out.WriteByte('\n')
	}
	return 0
}

// runStream runs encode -stream or decode -ndjson.
func runStream(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer, table string, fields []string, showProgress bool) int {
	name, in, closeIn, err := openInput(args, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gcf: %v\n", err)
		return 1
	}
	defer closeIn()
	prog := newProgress(stderr, showProgress)
	out := bufio.NewWriterSize(stdout, 64<<10)
	if cmd == "encode" {
		err = encodeStream(in, out, table, fields, prog)
	} else {
		err = decodeNDJSON(in, out, prog)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		var se *gcf.SyntaxError
		if cmd == "decode" && errors.As(err, &se) && se.Line > 0 && name != "<stdin>" {
			if line, ok := lineAt(name, se.Offset); ok {
				report(stderr, name, err, nil)
				fmt.Fprintf(stderr, "  %s\n  %s^\n", printable(line), caretPad(line, se.Column))
				return 1
			}
		}
		return report(stderr, name, err, nil)
	}
	prog.done()
	return 0
}

func readInput(args []string, stdin io.Reader) (string, []byte, error) {
	switch len(args) {
	case 0:
		data, err := io.ReadAll(stdin)
		return "<stdin>", data, err
	case 1:
		data, err := os.ReadFile(args[0])
		return args[0], data, err
	}
	return "", nil, errors.New("at most one input file")
}

// report prints err as file:line:col: category: message, followed, for a
// decode error, by the offending line with a caret under the column.
func report(stderr io.Writer, name string, err error, input []byte) int {
	var se *gcf.SyntaxError
	if !errors.As(err, &se) {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
	if se.Line <= 0 {
		fmt.Fprintf(stderr, "%s: %v\n", name, err) // keeps context such as "record 12: "
		return 1
	}
	fmt.Fprintf(stderr, "%s:%d:%d: %s: %s\n", name, se.Line, se.Column, se.Category, se.Msg)
	if input != nil {
		if line, ok := nthLine(input, se.Line); ok {
			fmt.Fprintf(stderr, "  %s\n  %s^\n", printable(line), caretPad(line, se.Column))
		}
	}
	return 1
}

// nthLine returns the 1-based line n of data without its terminator.
func nthLine(data []byte, n int) ([]byte, bool) {
	for i := 1; i < n; i++ {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			return nil, false
		}
		data = data[nl+1:]
	}
	if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
		data = data[:nl]
	}
	return bytes.TrimSuffix(data, []byte("\r")), true
}

// printable shows a line safely on a terminal: control bytes and invalid
// UTF-8 become '?', and very long lines are cut.
func printable(line []byte) string {
	if len(line) > 200 {
		line = line[:200]
	}
	out := []rune{}
	for _, r := range string(line) {
		if r < 0x20 && r != '\t' || r == 0x7f || r == utf8.RuneError {
			r = '?'
		}
		out = append(out, r)
	}
	return string(out)
}

// caretPad is the run of spaces (tabs kept) that puts a caret under the
// 1-based byte column col of line.
func caretPad(line []byte, col int) string {
	if col-1 > len(line) {
		col = len(line) + 1
	}
	var pad []byte
	for _, r := range string(line[:max(col-1, 0)]) {
		if r == '\t' {
			pad = append(pad, '\t')
		} else {
			pad = append(pad, ' ')
		}
	}
	return string(pad)
}

// decode converts a payload of either profile to JSON, choosing the
// decoder from the header line.
func decode(data []byte) ([]byte, error) {
	header, _, _ := bytes.Cut(data, []byte("\n"))
	graph, delta := false, false
	for _, f := range bytes.Fields(header) {
		graph = graph || string(f) == "profile=graph"
		delta = delta || string(f) == "delta=true"
	}
	switch {
	case graph && delta:
		d, err := gcf.DecodeDelta(data)
		if err != nil {
			return nil, err
		}
		return json.Marshal(d)
	case graph:
		p, err := gcf.Decode(data)
		if err != nil {
			return nil, err
		}
		return json.Marshal(p)
	}
	v, err := gcf.DecodeGeneric(data)
	if err != nil {
		return nil, err
	}
	return gcf.ToJSON(v)
}
