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
	"runtime/debug"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/cmd/gcf/internal/convert"
	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/stream"
	"github.com/gcfkit/gcf/tokens"
	"github.com/gcfkit/gcf/transcode"
	"github.com/gcfkit/gcf/wire"
)

// streamRecordFactor bounds the JSON text of one record in encode -stream:
// at most this many times the line limit. A row is at most about as long
// as its record's JSON text, but JSON escapes (\u00e9 is one character) and
// white space shrink, so the bound is generous; it exists to keep memory
// bounded, and the encoder still refuses a row longer than the line limit.
const streamRecordFactor = 8

var encodeCommand = &command{
	name:    "encode",
	args:    "[flags] [file|-]",
	summary: "convert JSON to GCF",
	doc: `Encode reads one JSON value (stdin when no file or "-" is given) and writes
it as GCF: any JSON value with -profile generic (the default), or a graph
payload with -profile graph. Generic JSON input in canonical form (no
-smallest, no -wire v1) from a file or stdin is transcoded without building
the value: a first pass gathers each table's columns, a second writes the
output as it goes, so a document costs memory for its largest record
(a table row with its attachments, an expanded item, or a root member that
is not a table; stdin is also held in memory, a file is read twice); a root
scalar or array of scalars, and -buffered, hold the whole value in memory
(docs/transcode-json.md). An encode limit broken late may
leave part of the output on stdout, as with -stream. Unless -q
is given, a line on stderr compares the size of the output with that of the
input as minified JSON (white space outside strings removed; with -stream,
the records as one minified JSON array), whatever the input's layout: bytes,
not tokens (gcf stats counts tokens too).

With -stream it reads a JSON array of objects, or a sequence of objects
(NDJSON), and writes one streaming table, ` + "`## [?]{fields}`" + ` (or ` + "`## name [?]{fields}`" + `
with -table), closed by the ##! summary trailer. It holds one record at a
time: a record's JSON text may be at most 8 times -max-line bytes. The
fields are -fields, or else the first record's keys. Records must be flat
(scalar values only) and may not add fields; a record that breaks this, or
is not valid JSON, stops the encoding with an error naming the record and
its line:column. Then -o leaves nothing at the destination, and on stdout
the error says how many records were written.

GCF has no end marker, unlike JSON's closing brace: a payload cut at the end
of a line may still be valid, only shorter. With -summary the output ends
with a ##! summary trailer (as -stream output always does), which the spec
allows in any payload; gcf decode -require-summary and gcf validate
-require-summary then refuse a payload that lacks it, so a cut is noticed.
Without -summary the output is the canonical bytes.

With -smallest the generic encoding is not the canonical one: per container
it takes, among the layouts every conformant decoder reads to the same value,
the one with the fewest tokens of -tokenizer's vocabulary (o200k_base by
default), and never one with more tokens than the canonical encoding.

The output follows spec v3.6.0 unless -spec 3.5.3 is given: then it holds no
v3.6-only form (no constant column written once in the field declaration),
for readers that predate v3.6 such as the reference TypeScript SDK 2.x. Every
gcf decoder reads both. -stream output is the same in both versions.

With -group-by KEY,COLUMN the input, a non-empty array of flat records, is
written as a value-grouped keyed set (spec v3.6.0 §7.4.8): one table whose
KEY column (unique in every record) is marked @KEY, and, after the header
"group=COLUMN", one subheader "COLUMN=value [n]" per value of COLUMN followed
by its n records. Records are reordered (groups in order of first
appearance), so use it only where the array's order carries no meaning. An
input it cannot carry (not an array of objects, a nested value, a missing,
null or repeated key, a missing group value) is refused with its category
(invalid_group_header, duplicate_key; exit status 1).

With -from yaml, toml, csv or msgpack the input is converted to JSON first,
with the format's own parser: YAML mappings keep their key order, TOML tables
come out with sorted keys, a CSV header row names the fields of the records
that follow (every value a string), and MessagePack maps need string keys.
docs/proxy.md has the whole mapping. -max-bytes and -max-depth apply to the
conversion as well.

The encoder refuses, with the decoder's categories, anything a decoder with
the same limit flags would reject.`,
	example: "gcf encode -stream -fields id,name,total -table orders -o orders.gcf orders.ndjson",
}

func init() { encodeCommand.setup = setupEncode }

func setupEncode(fs *flag.FlagSet) func(*env, []string) int {
	out := fs.String("o", "", "write the output to `file` (through a temporary file, renamed on success); \"-\" is stdout")
	quiet := fs.Bool("q", false, "do not print the size comparison on stderr")
	profile := fs.String("profile", "generic", "`profile` of the output: generic (any JSON value) or graph (a graph payload)")
	streaming := fs.Bool("stream", false, "stream a JSON array of objects or NDJSON into one [?] table, in bounded memory")
	fieldList := fs.String("fields", "", "-stream: the table's `fields`, comma-separated (default: the first record's keys)")
	table := fs.String("table", "", "-stream: the table's `name` (default: the root array)")
	showProgress := fs.Bool("progress", false, "-stream: report bytes and rows per second on stderr")
	wholeValue := fs.Bool("buffered", false, "generic JSON input: build the whole value in memory before encoding, as before the two-pass transcoder (same output, for comparison)")
	smallest := fs.Bool("smallest", false, "generic profile: per container, the valid layout with the fewest tokens instead of the canonical one")
	tokenizer := fs.String("tokenizer", "o200k", "-smallest: the `vocabulary` whose tokens are counted: o200k (o200k_base) or cl100k (cl100k_base)")
	lossy := fs.Bool("lossy", false, "-codec gcb1: where GCB version 1 cannot hold a value, write what the original GCF tools write (losing it) instead of refusing")
	summary := fs.Bool("summary", false, "end the output with a ##! summary trailer, which decode -require-summary checks, so that a cut payload is noticed (-stream output always has it)")
	from := fs.String("from", "json", "`format` of the input: json, yaml, toml, csv (a header row, then records of strings) or msgpack; see docs/proxy.md for the mapping")
	codec := fs.String("codec", "gcf", "`codec` of a graph payload's output: "+wire.ListNames()+" (any but gcf implies -profile graph)")
	groupBy := fs.String("group-by", "", "generic profile: write a root array of records as a value-grouped keyed set (spec v3.6.0 §7.4.8), `KEY,COLUMN`: KEY the unique identity field, COLUMN the field whose values group the records (records are reordered)")
	var lim limitFlags
	lim.registerFor(fs, false, true)
	var wireMode wireFlag
	wireMode.register(fs, false)
	var spec specFlag
	spec.register(fs)
	return func(e *env, args []string) int {
		set := setFlags(fs)
		if err := wireMode.check(); err != nil {
			return e.usageError(encodeCommand, "%v", err)
		}
		if err := spec.check(); err != nil {
			return e.usageError(encodeCommand, "%v", err)
		}
		if set["spec"] && (wireMode.value == "v1" || *codec != "gcf") {
			return e.usageError(encodeCommand, "-spec applies to GCF v3 text (-codec gcf, -wire v3)")
		}
		if *streaming && wireMode.value == "v1" {
			return e.usageError(encodeCommand, "-stream writes v3 tables; -wire v1 applies to buffered encoding")
		}
		if *profile != "generic" && *profile != "graph" {
			return e.usageError(encodeCommand, "unknown profile %q (generic or graph)", *profile)
		}
		c, err := wire.Get(*codec)
		if err != nil {
			return e.usageError(encodeCommand, "-codec: %v", err)
		}
		if *codec != "gcf" && wireMode.value != "v3" {
			return e.usageError(encodeCommand, "-wire applies to GCF text (-codec gcf); the legacy wire as a codec is -codec gcf-v1")
		}
		if *lossy {
			if *codec != "gcb1" {
				return e.usageError(encodeCommand, "-lossy applies only with -codec gcb1")
			}
			c = wire.GCB1{Lossy: true}
		}
		if *codec != "gcf" {
			if set["profile"] && *profile != "graph" || *streaming {
				return e.usageError(encodeCommand, "-codec %s writes graph payloads; it does not apply to -profile generic or -stream", *codec)
			}
			*profile = "graph"
		}
		if *streaming {
			if set["profile"] && *profile != "generic" {
				return e.usageError(encodeCommand, "-stream writes generic-profile tables; -profile %s does not apply", *profile)
			}
		} else {
			for _, f := range []string{"fields", "table", "progress"} {
				if set[f] {
					return e.usageError(encodeCommand, "-%s applies only with -stream", f)
				}
			}
		}
		if err := lim.check(); err != nil {
			return e.usageError(encodeCommand, "%v", err)
		}
		if !convert.Known(*from) {
			return e.usageError(encodeCommand, "-from: unknown format %q (json, yaml, toml, csv or msgpack)", *from)
		}
		if *from != "json" && *streaming {
			return e.usageError(encodeCommand, "-stream reads JSON; -from %s applies to buffered encoding", *from)
		}
		if *wholeValue && (*streaming || *codec != "gcf") {
			return e.usageError(encodeCommand, "-buffered applies to GCF text without -stream")
		}
		src := inputFormat{*from, convert.Limits{MaxDepth: lim.depthLimit(), MaxBytes: lim.bytes}}
		if *summary && (*codec != "gcf" || wireMode.value == "v1") {
			return e.usageError(encodeCommand, "-summary applies to GCF v3 text (-codec gcf, -wire v3)")
		}
		opts := append(lim.options(), spec.options()...)
		if set["group-by"] {
			key, column, err := parseGroupBy(*groupBy)
			switch {
			case err != nil:
				return e.usageError(encodeCommand, "%v", err)
			case *streaming || *profile != "generic" || wireMode.value == "v1" || *smallest:
				return e.usageError(encodeCommand, "-group-by applies to the generic profile of the v3 wire, without -stream or -smallest")
			case gcf.Spec(spec.value) == gcf.Spec353:
				return e.usageError(encodeCommand, "-group-by writes a v3.6.0 form (value-grouping); -spec 3.5.3 cannot carry it")
			}
			opts = append(opts, gcf.GroupBy(key, column))
		}
		if *smallest {
			if *streaming || *profile != "generic" || wireMode.value == "v1" {
				return e.usageError(encodeCommand, "-smallest applies to the generic profile of the v3 wire, without -stream")
			}
			enc, err := tokens.ParseEncoding(*tokenizer)
			if err != nil {
				return e.usageError(encodeCommand, "-tokenizer: %v", err)
			}
			counter, err := tokens.New(enc)
			if err != nil {
				return e.usageError(encodeCommand, "-tokenizer: %v", err)
			}
			opts = append(opts, gcf.WithSize(gcf.Smallest), gcf.WithCost(counter.Count))
		} else if set["tokenizer"] {
			return e.usageError(encodeCommand, "-tokenizer applies only with -smallest")
		}
		arg, ok := e.oneInput(encodeCommand, args)
		if !ok {
			return exitUsage
		}
		in, err := openInput(e, arg, lim.bytes)
		if err != nil {
			return e.report(nil, err, nil)
		}
		defer in.close()
		if *codec != "gcf" && wire.IsBinary(c) && (*out == "" || *out == "-") && isTerminal(e.stdout) {
			return e.usageError(encodeCommand, "-codec %s writes binary data; refusing to write it to a terminal: use -o FILE or redirect stdout", *codec)
		}
		o, err := createOutput(e, *out)
		if err != nil {
			return e.report(in, err, nil)
		}
		if *codec != "gcf" {
			return e.encodeCodec(in, o, src, c, lim.bytes, *quiet)
		}
		if *streaming {
			so := streamOptions{table: *table, fields: parseFields(*fieldList), opts: append(lim.options(), spec.options()...),
				maxRecord: streamRecordFactor * lim.lineLimit(), maxDepth: lim.depthLimit()}
			return e.encodeStream(in, o, so, *quiet, newProgress(e.stderr, *showProgress))
		}
		if *wholeValue {
			return e.encodeWhole(in, o, src, *profile, append(opts, wireMode.options()...), *quiet, *summary, nil)
		}
		return e.encodeBuffered(in, o, src, *profile, append(opts, wireMode.options()...), *quiet, *summary)
	}
}

// recordHeap is about the most heap a byte of a record's JSON text costs
// while the transcoder holds it: its parsed value, the previous pass's
// garbage and its output (21 on a 15 MB TopoJSON record, docs/benchmarks.md
// "lowmem2").
const recordHeap = 32

// encodeBuffered runs encode without -stream: the whole value in memory;
// with trailer, the output ends with a ##! summary trailer.
func (e *env) encodeBuffered(in *input, out *output, src inputFormat, profile string, opts []gcf.Option, quiet, trailer bool) int {
	if transcode.Canonical(opts...) && profile == "generic" && (src.name == "" || src.name == "json") {
		return e.encodeTranscoded(in, out, opts, quiet, trailer)
	}
	return e.encodeWhole(in, out, src, profile, opts, quiet, trailer, nil)
}

// encodeTranscoded runs encode of JSON text in canonical generic form
// through transcode.StreamJSONFrom (a regular file, read twice, or stdin,
// held in memory in chunks), which writes the output as it produces it
// and does not build the value. For a document that does not stream, and
// on an error before any output, it runs encodeWhole, so that errors are
// reported as they always were (-max-bytes, UTF-8, the JSON's position).
func (e *env) encodeTranscoded(in *input, out *output, opts []gcf.Option, quiet, trailer bool) int {
	cw := &countingWriter{w: out}
	var again io.ReadSeeker // the input, for its minified size
	var err error
	if f := in.file; f != nil {
		again = f
		var st os.FileInfo
		if st, err = f.Stat(); err != nil || in.r.limit > 0 && st.Size() > in.r.limit {
			return e.encodeWhole(in, out, inputFormat{}, "generic", opts, quiet, trailer, nil)
		}
		err = transcode.StreamJSONFrom(cw, f, opts...)
		if cw.n == 0 && err != nil {
			if _, serr := f.Seek(0, io.SeekStart); serr == nil {
				return e.encodeWhole(in, out, inputFormat{}, "generic", opts, quiet, trailer, nil)
			}
		}
	} else {
		c, err2 := readChunks(in)
		if err2 != nil {
			out.abort()
			return e.report(in, err2, out)
		}
		in.src = c
		// The input stays live while it is transcoded and the garbage of
		// its records is small: collecting at 10% growth, and at the
		// latest when the Go heap reaches 1.25 times the input and 16 MiB,
		// keeps the peak well under twice the input. The input's chunks
		// hold no pointers, so a collection costs little. A record whose
		// parsed value alone exceeds that limit would keep the collector
		// running without pause (4-5 times the CPU on a TopoJSON file),
		// and its heap is pointers, which GOGC 10 would mark over and
		// over: once the longest record would cost more than 16 MiB (at
		// recordHeap bytes a byte of its text), the limit makes room for
		// it and the collector paces at its default percentage.
		limit := c.size + c.size/4 + 16<<20
		gcp := debug.SetGCPercent(10)
		ml := debug.SetMemoryLimit(limit)
		relaxed := int64(0)
		err = transcode.StreamJSONWith(cw, c, func(longest int64) {
			if rec := recordHeap * longest; rec > 16<<20 && rec > relaxed+relaxed/4 {
				relaxed = rec
				debug.SetMemoryLimit(limit + rec)
				debug.SetGCPercent(gcp)
			}
		}, opts...)
		debug.SetGCPercent(gcp)
		debug.SetMemoryLimit(ml)
		if err != nil && cw.n == 0 {
			data := c.bytes()
			c = nil
			return e.encodeWhole(in, out, inputFormat{}, "generic", opts, quiet, trailer, data)
		}
		again = c
	}
	if err != nil {
		out.abort()
		code := e.report(in, err, out)
		if out.toStdout() {
			fmt.Fprintf(e.stderr, "gcf: %d bytes written to stdout before the error; the output is incomplete\n", cw.n)
		}
		return code
	}
	if trailer {
		enc := encoder.AppendLineEnd(encoder.AppendSummary(nil))
		cw.Write(enc)
	}
	if err := out.commit(); err != nil {
		return e.report(in, err, out)
	}
	if !quiet {
		var m minified
		if _, err := again.Seek(0, io.SeekStart); err == nil {
			io.Copy(&m, again)
		}
		e.sizeLine(m.n, cw.n)
	}
	return exitOK
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// encodeWhole is encode with the whole input in memory (data, or read
// from in when nil).
func (e *env) encodeWhole(in *input, out *output, src inputFormat, profile string, opts []gcf.Option, quiet, trailer bool, data []byte) int {
	fail := func(err error) int {
		out.abort()
		return e.report(in, err, out)
	}
	if data == nil {
		var err error
		if data, err = readAll(in); err != nil {
			return fail(err)
		}
	}
	var err error
	in.src = bytes.NewReader(data)
	if data, err = src.toJSON(data); err != nil {
		return fail(err)
	}
	if err := checkUTF8(data, origin); err != nil {
		return fail(err)
	}
	var enc []byte
	switch profile {
	case "generic":
		v, err := gcf.ParseJSON(data, opts...)
		if err != nil {
			return fail(src.convertedError(jsonError(err, data, origin, "")))
		}
		if enc, err = gcf.EncodeGeneric(v, opts...); err != nil {
			return fail(err)
		}
	case "graph":
		var p gcf.Payload
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			// The product's snake_case export (qualified_name, ...) is a
			// graph payload too: the wire JSON codec reads both spellings.
			wp, werr := wire.DecodeWith("json", data)
			if werr != nil {
				return fail(src.convertedError(graphJSONError(err, data)))
			}
			p = *wp
		} else if _, err := dec.Token(); err != io.EOF {
			return fail(errorAt(origin.after(data[:dec.InputOffset()]), "", "not a graph payload: data after the JSON object"))
		}
		if enc, err = gcf.Encode(&p, opts...); err != nil {
			return fail(err)
		}
	}
	if trailer {
		if enc, err = appendSummary(enc, profile, opts); err != nil {
			return fail(err)
		}
	}
	out.Write(enc)
	if err := out.commit(); err != nil {
		return e.report(in, err, out)
	}
	if !quiet {
		e.sizeLine(minifiedSize(data), int64(len(enc)))
	}
	return exitOK
}

// inputFormat is encode's -from: the input's format and the limits of its
// conversion to JSON.
type inputFormat struct {
	name string
	lim  convert.Limits
}

// toJSON converts data, the input, to JSON text from the format f names,
// first checking that it is UTF-8 (unless it is JSON, checked later, or
// MessagePack, binary).
func (f inputFormat) toJSON(data []byte) ([]byte, error) {
	if f.name == "" || f.name == "json" {
		return data, nil
	}
	if f.name != "msgpack" {
		if err := checkUTF8(data, origin); err != nil {
			return nil, err
		}
	}
	return convert.ToJSON(f.name, data, f.lim)
}

// convertedError drops the position of an error found in the JSON text
// converted from another format (a limit such as -max-elements): it would
// be a line:column of text the user never saw.
func (f inputFormat) convertedError(err error) error {
	var se *gcf.SyntaxError
	if f.name == "" || f.name == "json" || !errors.As(err, &se) {
		return err
	}
	return &gcf.SyntaxError{Category: se.Category, Msg: fmt.Sprintf("in the JSON converted from %s: %s", f.name, se.Msg), Err: se.Err}
}

// appendSummary appends to the buffered payload enc the ##! summary trailer
// that streaming output ends with (SPEC §8.4), which SPEC §8.5 allows in a
// buffered payload as well, where the [N] counts stay authoritative: for the
// generic profile a bare "##! summary" (counts lists the [?] sections, and
// a buffered payload has none); for the graph profile the symbols, the edges
// and the counts per non-empty distance group then the edges, positional,
// as the streaming graph encoder writes them.
func appendSummary(enc []byte, profile string, opts []gcf.Option) ([]byte, error) {
	if profile != "graph" {
		return encoder.AppendLineEnd(encoder.AppendSummary(enc)), nil
	}
	p, err := gcf.Decode(enc, opts...)
	if err != nil {
		return nil, err
	}
	b := fmt.Appendf(encoder.AppendSummary(enc), " symbols=%d edges=%d counts=", len(p.Symbols), len(p.Edges))
	for i := 0; i < len(p.Symbols); {
		j := i + 1
		for j < len(p.Symbols) && p.Symbols[j].Distance == p.Symbols[i].Distance {
			j++
		}
		b = fmt.Appendf(b, "%d,", j-i)
		i = j
	}
	return fmt.Appendf(b, "%d\n", len(p.Edges)), nil
}

// encodeCodec encodes a graph payload, read from JSON with either field
// spelling (the fixtures' or the product's snake_case), with codec c.
func (e *env) encodeCodec(in *input, out *output, src inputFormat, c wire.Codec, maxBytes int64, quiet bool) int {
	fail := func(err error) int {
		out.abort()
		return e.report(in, err, out)
	}
	data, err := readAll(in)
	if err != nil {
		return fail(err)
	}
	in.src = bytes.NewReader(data)
	if data, err = src.toJSON(data); err != nil {
		return fail(err)
	}
	p, err := wire.DecodeWith("json", data)
	if err != nil {
		return fail(src.convertedError(err))
	}
	var buf bytes.Buffer
	if err := c.Encode(&buf, p); err != nil {
		return fail(err)
	}
	enc := buf.Bytes()
	if maxBytes > 0 && int64(len(enc)) > maxBytes {
		return fail(&gcf.SyntaxError{Category: gcf.PayloadTooLarge,
			Msg: fmt.Sprintf("the %s encoding is %d bytes, over -max-bytes %d", c.Name(), len(enc), maxBytes)})
	}
	out.Write(enc)
	if err := out.commit(); err != nil {
		return e.report(in, err, out)
	}
	if !quiet {
		e.sizeLineOf(minifiedSize(data), int64(len(enc)), c.Name())
	}
	return exitOK
}

// minifiedSize is the length of the JSON text data as minified JSON: without
// the white space outside strings (json.Compact's output, which keeps
// every other byte, and escapes nothing).
func minifiedSize(data []byte) int64 {
	var m minified
	m.Write(data)
	return m.n
}

// minified counts the bytes of JSON text written to it as minifiedSize
// does, chunk by chunk.
type minified struct {
	n                 int64
	inString, escaped bool
}

func (m *minified) Write(data []byte) (int, error) {
	for _, c := range data {
		switch {
		case m.inString:
			switch {
			case m.escaped:
				m.escaped = false
			case c == '\\':
				m.escaped = true
			case c == '"':
				m.inString = false
			}
		case c == '"':
			m.inString = true
		case c == ' ', c == '\t', c == '\r', c == '\n':
			continue
		}
		m.n++
	}
	return len(data), nil
}

// sizeLine compares the size of the input as minified JSON with the GCF
// output.
func (e *env) sizeLine(in, out int64) { e.sizeLineOf(in, out, "GCF") }

// sizeLineOf is sizeLine for an output in the named format.
func (e *env) sizeLineOf(in, out int64, format string) {
	var diff string
	switch d := in - out; {
	case d > 0:
		diff = fmt.Sprintf("%d bytes smaller, %.1f%%", d, 100*float64(d)/float64(in))
	case d < 0 && in > 0:
		diff = fmt.Sprintf("%d bytes larger, %.1f%%", -d, 100*float64(-d)/float64(in))
	case d < 0:
		diff = fmt.Sprintf("%d bytes larger", -d)
	default:
		diff = "the same size"
	}
	fmt.Fprintf(e.stderr, "gcf: %d bytes as minified JSON -> %d bytes of %s (%s)\n", in, out, format, diff)
}

// jsonError places an error from parsing the JSON text data, which starts
// at p in the input, at its line:column in the input; prefix (such as
// "record 3: ") goes before the message.
func jsonError(err error, data []byte, p position, prefix string) error {
	var se *gcf.SyntaxError
	var js *json.SyntaxError
	switch {
	case errors.As(err, &se):
		q := p
		if se.Line > 0 { // relative to data
			q.off += se.Offset
			if se.Line == 1 {
				q.col += se.Column - 1
			} else {
				q.line, q.col = p.line+se.Line-1, se.Column
			}
		}
		return errorAt(q, se.Category, "%s%s", prefix, se.Msg)
	case errors.As(err, &js):
		return errorAt(p.after(data[:jsonErrorOffset(js, js.Offset, data)]), "", "%s%s", prefix, strings.TrimPrefix(js.Error(), "json: "))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errorAt(p.after(data), gcf.UnexpectedEOF, "%sthe JSON text ends inside a value", prefix)
	}
	return errorAt(p, "", "%s%s", prefix, strings.TrimPrefix(err.Error(), "gcf: "))
}

// jsonErrorOffset is the offset of the byte an encoding/json syntax error
// is about. The error's Offset (off here) is that of the offending byte,
// just past it, or that of the token before it, depending on the API that
// found it, so the character the message names ("invalid character '@'")
// is looked for from there.
func jsonErrorOffset(js *json.SyntaxError, off int64, data []byte) int64 {
	off = min(max(off, 0), int64(len(data)))
	msg := js.Error()
	if i := strings.Index(msg, "invalid character '"); i >= 0 {
		if c := msg[i+len("invalid character '"):]; len(c) >= 2 && c[1] == '\'' {
			if j := bytes.IndexByte(data[off:], c[0]); j >= 0 {
				off += int64(j)
			}
		}
	}
	return off
}

// graphJSONError places an error from decoding a graph payload's JSON
// (with json.Decoder.Decode) when it has a position.
func graphJSONError(err error, data []byte) error {
	var js *json.SyntaxError
	var te *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.As(err, &js):
		off = jsonErrorOffset(js, js.Offset-1, data)
	case errors.As(err, &te):
		off = min(max(te.Offset-1, 0), int64(len(data)))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data))
	default:
		return fmt.Errorf("not a graph payload: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return errorAt(origin.after(data[:off]), "", "not a graph payload: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// streamOptions configure encode -stream.
type streamOptions struct {
	table     string
	fields    []string // nil: the first record's keys
	opts      []gcf.Option
	maxRecord int // the longest record, in bytes of JSON text
	maxDepth  int
}

// encodeStream runs encode -stream.
func (e *env) encodeStream(in *input, out *output, so streamOptions, quiet bool, prog *progress) int {
	cr := &countingReader{r: in.r}
	written, minified, err := encodeStream(cr, out, so, prog)
	if in.r.overLimit() { // the input was cut at -max-bytes: whatever came of it is void
		err = &gcf.SyntaxError{Category: gcf.PayloadTooLarge, Msg: fmt.Sprintf("the input is larger than -max-bytes %d", in.r.limit)}
	}
	if err != nil {
		out.abort()
		status := e.report(in, err, out)
		if out.toStdout() {
			fmt.Fprintf(e.stderr, "gcf: %s written to stdout before the error; the output is incomplete\n", plural(written, "record"))
		} else {
			fmt.Fprintf(e.stderr, "gcf: %s not written\n", out.dest)
		}
		return status
	}
	if err := out.commit(); err != nil {
		return e.report(in, err, out)
	}
	prog.done()
	if !quiet {
		e.sizeLine(minified, out.n)
	}
	return exitOK
}

// encodeStream turns a JSON array of records, or a sequence of records
// (NDJSON), into a streaming GCF table: the root array `## [?]{fields}`,
// or `## table [?]{fields}` when table is set, closed by the summary
// trailer. It holds one record at a time and returns how many records it
// wrote, and the size of the records as one minified JSON array; on an
// error, those records have been flushed to out.
func encodeStream(in io.Reader, out io.Writer, so streamOptions, prog *progress) (written, minified int64, err error) {
	cr := &countingReader{r: in}
	rr := &recordReader{br: bufio.NewReaderSize(cr, 64<<10), pos: origin, max: so.maxRecord, maxDepth: so.maxDepth}
	if rr.max <= 0 {
		rr.max = streamRecordFactor * stream.DefaultMaxLineBytes
	}
	if rr.maxDepth <= 0 {
		rr.maxDepth = stream.DefaultMaxDepth
	}
	enc := gcf.NewEncoder(out, so.opts...)
	minified = 2 // [ and ]
	fail := func(err error) (int64, int64, error) {
		var ie *ioError
		if !errors.As(err, &ie) {
			enc.Flush() // the records written so far reach the output
		}
		return written, minified, err
	}
	fields := so.fields
	var index map[string]bool
	for {
		rec, at, err := rr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(err)
		}
		n := rr.n
		v, err := gcf.ParseJSON(rec, so.opts...)
		if err != nil {
			return fail(jsonError(err, rec, at, fmt.Sprintf("record %d: ", n)))
		}
		obj, ok := v.(gcf.Object)
		if !ok { // the record reader only returns objects
			return fail(errorAt(at, gcf.UnsupportedValue, "record %d is not a JSON object", n))
		}
		if index == nil {
			if fields == nil {
				for _, m := range obj {
					fields = append(fields, m.Key)
				}
			}
			index = make(map[string]bool, len(fields))
			for _, f := range fields {
				index[f] = true
			}
			if err := enc.BeginTable(so.table, fields...); err != nil {
				return fail(err)
			}
		}
		if err := checkRecord(obj, n, index, so.fields != nil, fields); err != nil {
			return fail(placed(err, at))
		}
		if err := enc.WriteRecord(obj); err != nil {
			return fail(placed(fmt.Errorf("record %d: %w", n, err), at))
		}
		if written > 0 {
			minified++ // the comma before the record
		}
		minified += minifiedSize(rec)
		written++
		prog.update(cr.n, written)
	}
	if written == 0 {
		switch {
		case fields != nil: // an empty table still declares its schema
			if err := enc.BeginTable(so.table, fields...); err != nil {
				return fail(err)
			}
		case so.table == "":
			return written, minified, enc.Encode([]any{})
		}
	}
	prog.update(cr.n, written)
	return written, minified, enc.Close()
}

// checkRecord explains, with a hint, a record that a streaming table cannot
// take: a field outside the schema, or a nested value.
func checkRecord(obj gcf.Object, n int, index map[string]bool, declared bool, fields []string) error {
	for _, m := range obj {
		if !index[m.Key] {
			if declared {
				return &gcf.SyntaxError{Category: gcf.InvalidSchema, Msg: fmt.Sprintf(
					"record %d: field %q is not listed in -fields (%s); a streaming table cannot add fields: add it to -fields", n, m.Key, strings.Join(fields, ","))}
			}
			return &gcf.SyntaxError{Category: gcf.InvalidSchema, Msg: fmt.Sprintf(
				"record %d: field %q is not among the fields of record 1 (%s); a streaming table cannot add fields: list every field with -fields", n, m.Key, strings.Join(fields, ","))}
		}
		var what string
		switch m.Value.(type) {
		case gcf.Object:
			what = "an object"
		case []any:
			what = "an array"
		default:
			continue
		}
		return &gcf.SyntaxError{Category: gcf.UnsupportedValue, Msg: fmt.Sprintf(
			"record %d: field %q holds %s; -stream writes flat rows: list flat fields with -fields, or encode without -stream", n, m.Key, what)}
	}
	return nil
}

// placed gives an error without a position the position p (a record's
// start), keeping its category and message.
func placed(err error, p position) error {
	var se *gcf.SyntaxError
	if errors.As(err, &se) && se.Line == 0 {
		msg := err.Error()
		if c := string(se.Category); c != "" {
			msg = strings.Replace(msg, c+": ", "", 1)
		}
		return errorAt(p, se.Category, "%s", msg)
	}
	return err
}

// parseFields splits a -fields list; empty means none given.
func parseFields(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// recordReader splits the JSON input of encode -stream into records: the
// elements of one top-level array, or a sequence of top-level objects
// (NDJSON, or objects simply written one after another). It holds one
// record's text at a time and refuses a record longer than max bytes, or
// nested deeper than maxDepth, as soon as it crosses the bound, without
// reading the rest of it. It checks only the structure it needs to find a
// record's end (strings, brackets) and UTF-8; the record's text is then
// parsed as JSON.
type recordReader struct {
	br       *bufio.Reader
	pos      position // of the next unread byte
	max      int
	maxDepth int
	state    int  // rsStart, rsRecords or rsDone
	array    bool // the input is one JSON array
	n        int  // records returned
	buf      []byte
	stack    []byte // open brackets of the current record
}

const (
	rsStart = iota
	rsRecords
	rsDone
)

// next returns the next record's text, valid until the next call, and its
// position; io.EOF after the last.
func (r *recordReader) next() ([]byte, position, error) {
	if r.state == rsStart {
		c, err := r.peek()
		if err != nil {
			if err == io.EOF {
				r.state = rsDone
			}
			return nil, r.pos, err
		}
		r.state = rsRecords
		if c == '[' {
			r.array = true
			r.skip(c)
		}
	}
	if r.state == rsDone {
		return nil, r.pos, io.EOF
	}
	c, err := r.peek()
	if r.array {
		if err == io.EOF {
			return nil, r.pos, errorAt(r.pos, gcf.UnexpectedEOF, "record %d: the input ends inside the JSON array (no closing ])", r.n+1)
		}
		if err != nil {
			return nil, r.pos, err
		}
		if c == ']' {
			r.skip(c)
			r.state = rsDone
			if _, err := r.peek(); err != io.EOF {
				if err != nil {
					return nil, r.pos, err
				}
				return nil, r.pos, errorAt(r.pos, "", "unexpected data after the JSON array")
			}
			return nil, r.pos, io.EOF
		}
		if r.n > 0 {
			if c != ',' {
				return nil, r.pos, errorAt(r.pos, "", "record %d: expected , or ] after the record, found %s", r.n, quoteByte(c))
			}
			r.skip(c)
			if c, err = r.peek(); err == io.EOF {
				return nil, r.pos, errorAt(r.pos, gcf.UnexpectedEOF, "record %d: the input ends inside the JSON array (no closing ])", r.n+1)
			}
		}
	} else if err == io.EOF {
		r.state = rsDone
		return nil, r.pos, io.EOF
	}
	if err != nil {
		return nil, r.pos, err
	}
	if c != '{' {
		return nil, r.pos, errorAt(r.pos, gcf.UnsupportedValue,
			"record %d is not a JSON object (found %s); -stream reads a JSON array of objects or one object per line", r.n+1, quoteByte(c))
	}
	return r.object()
}

// object reads one JSON object, starting at '{'.
func (r *recordReader) object() ([]byte, position, error) {
	n := r.n + 1
	at := r.pos
	r.buf, r.stack = r.buf[:0], r.stack[:0]
	inString, escaped := false, false
	for {
		if r.br.Buffered() == 0 {
			if _, err := r.br.Peek(1); err != nil {
				if err == io.EOF {
					return nil, at, errorAt(r.pos, gcf.UnexpectedEOF, "record %d: the input ends inside the record (which starts at line %d, column %d)", n, at.line, at.col)
				}
				return nil, at, err
			}
		}
		chunk, _ := r.br.Peek(r.br.Buffered())
		i, closed := 0, false
	scan:
		for ; i < len(chunk); i++ {
			if len(r.buf)+i >= r.max {
				return nil, at, errorAt(r.pos.after(chunk[:i]), gcf.LineTooLong,
					"record %d: the record's JSON text is longer than %d bytes (%d times -max-line); its row would be too long to decode: raise -max-line",
					n, r.max, streamRecordFactor)
			}
			c := chunk[i]
			if inString {
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
				}
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[':
				if len(r.stack) >= r.maxDepth {
					return nil, at, errorAt(r.pos.after(chunk[:i]), gcf.DepthExceeded,
						"record %d: JSON nesting deeper than %d (-max-depth)", n, r.maxDepth)
				}
				r.stack = append(r.stack, c)
			case '}', ']':
				open := byte('{')
				if c == ']' {
					open = '['
				}
				if top := r.stack[len(r.stack)-1]; top != open {
					return nil, at, errorAt(r.pos.after(chunk[:i]), "", "record %d: %s does not close an open %s", n, quoteByte(c), quoteByte(top))
				}
				r.stack = r.stack[:len(r.stack)-1]
				if len(r.stack) == 0 {
					i++
					closed = true
					break scan
				}
			}
		}
		r.buf = append(r.buf, chunk[:i]...)
		r.pos = r.pos.after(chunk[:i])
		r.br.Discard(i)
		if closed {
			break
		}
	}
	if err := checkUTF8(r.buf, at); err != nil {
		err.Msg = fmt.Sprintf("record %d: %s", n, err.Msg)
		return nil, at, err
	}
	r.n = n
	return r.buf, at, nil
}

// peek returns the next byte that is not JSON white space, without
// consuming it.
func (r *recordReader) peek() (byte, error) {
	for {
		b, err := r.br.Peek(1)
		if len(b) == 0 {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			r.skip(b[0])
			continue
		}
		return b[0], nil
	}
}

// skip consumes the byte c that peek returned.
func (r *recordReader) skip(c byte) {
	r.br.Discard(1)
	r.pos = r.pos.after([]byte{c})
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", string(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// plural is "1 record" or "n records".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
