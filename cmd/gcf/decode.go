package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/transcode"
	"github.com/gcfkit/gcf/wire"
)

var decodeCommand = &command{
	name:    "decode",
	args:    "[flags] [file|-]",
	summary: "convert GCF (either profile) to JSON, or table rows to NDJSON",
	doc: `Decode reads a GCF payload (stdin when no file or "-" is given) and writes it
as JSON: generic payloads as the JSON value they carry, graph payloads and
deltas as a JSON object with camelCase field names ({"tool", "symbols": [...],
"edges": [...]}), the JSON that gcf encode -profile graph reads.

With -ndjson it writes the records of a generic payload as NDJSON, one JSON
object per line with its table's path, or refuses with an error naming what
it cannot represent.

Decoding streams: memory is bounded by the longest line and the nesting
depth, not by the size of the input.

A payload whose [?] sections (streaming tables, whose row count is not
known in advance) are not confirmed by a ##! summary trailer is accepted, as
the spec allows (SPEC §8.6, streaming), with a warning on stderr, because the
stream may have been cut; -require-summary makes it an error.

GCF has no end marker, unlike JSON's closing brace: a payload cut at the end
of a line (between two sections, say) may still be valid, and decodes to a
shorter value without any error. -require-summary also refuses a v3 payload
that does not end with a ##! summary trailer: streaming output always has
one, and gcf encode -summary writes one at the end of a buffered payload.

-wire v1 decodes a legacy GCF v1.x payload (docs/legacy-v1.md); -wire auto
picks v1 or v3 from the first line and says which on stderr. With the
default -wire v3, a v1.x payload is refused with a missing_profile error
that says so.`,
	example: "gcf encode -stream rows.ndjson | gcf decode -ndjson -require-summary -",
}

func init() { decodeCommand.setup = setupDecode }

func setupDecode(fs *flag.FlagSet) func(*env, []string) int {
	out := fs.String("o", "", "write the output to `file` (through a temporary file, renamed on success); \"-\" is stdout")
	indent := fs.Bool("indent", false, "indent the JSON output by two spaces per level")
	ndjson := fs.Bool("ndjson", false, "write every record as one JSON line with its table's path")
	showProgress := fs.Bool("progress", false, "report bytes and rows per second on stderr")
	codec := fs.String("codec", "gcf", "`codec` of the input: "+wire.ListNames()+" (any but gcf reads a graph payload)")
	var lim limitFlags
	lim.register(fs, true)
	var wireMode wireFlag
	wireMode.register(fs, true)
	return func(e *env, args []string) int {
		if err := wireMode.check(); err != nil {
			return e.usageError(decodeCommand, "%v", err)
		}
		if *ndjson && *indent {
			return e.usageError(decodeCommand, "-indent does not apply to -ndjson (one record per line)")
		}
		c, err := wire.Get(*codec)
		if err != nil {
			return e.usageError(decodeCommand, "-codec: %v", err)
		}
		if *codec != "gcf" && wireMode.value != "v3" {
			return e.usageError(decodeCommand, "-wire applies to GCF text (-codec gcf); the legacy wire as a codec is -codec gcf-v1")
		}
		if *codec != "gcf" && (*ndjson || *showProgress) {
			return e.usageError(decodeCommand, "-ndjson and -progress apply to GCF input only, not -codec %s", *codec)
		}
		if err := lim.check(); err != nil {
			return e.usageError(decodeCommand, "%v", err)
		}
		in, o, status := e.openOne(decodeCommand, args, lim.bytes, *out)
		if in == nil {
			return status
		}
		defer in.close()
		if *codec != "gcf" {
			return e.decodeCodec(in, o, c, lim, *indent)
		}
		prog := newProgress(e.stderr, *showProgress)
		src, wopts := wireMode.resolve(e, in)
		topts := transcode.Options{Decoder: append(lim.options(), wopts...), Progress: prog.callback()}
		if *indent {
			topts.Indent = "  "
		}
		var res transcode.Result
		if *ndjson {
			res, err = toNDJSON(o, src, topts)
		} else {
			res, err = transcode.ToJSON(o, src, topts)
		}
		if err == nil && lim.requireSummary && len(wopts) == 0 && !in.r.endsWithSummary() {
			err = in.r.missingSummary()
		}
		if err != nil {
			o.abort()
			return e.report(in, err, o)
		}
		if err := o.commit(); err != nil {
			return e.report(in, err, o)
		}
		prog.done()
		if res.Unconfirmed > 0 {
			e.warnUnconfirmed(in.name, res.Unconfirmed)
		}
		return exitOK
	}
}

// warnUnconfirmed is the SPEC §8.6 warning for `[?]` sections that no
// summary trailer confirmed; n <= 0 when the number is not known.
func (e *env) warnUnconfirmed(name string, n int) {
	what := "the payload's [?] sections have"
	switch {
	case n == 1:
		what = "1 [?] section has"
	case n > 1:
		what = fmt.Sprintf("%d [?] sections have", n)
	}
	fmt.Fprintf(e.stderr, "%s: warning: %s no ##! summary trailer to confirm the count; "+
		"the stream may have been cut short (-require-summary makes this an error)\n", name, what)
}

// decodeCodec decodes a graph payload written by codec c and writes it as
// JSON with the fixtures' field names.
func (e *env) decodeCodec(in *input, out *output, c wire.Codec, lim limitFlags, indent bool) int {
	fail := func(err error) int {
		out.abort()
		return e.report(in, err, out)
	}
	data, err := readAll(in)
	if err != nil {
		return fail(err)
	}
	in.src = bytes.NewReader(data)
	var p *gcf.Payload
	switch c := c.(type) {
	case wire.GCB:
		c.Limits = lim.limits()
		p, err = c.DecodeBytes(data)
	case wire.GCB1:
		c.Limits = lim.limits()
		p, err = c.DecodeBytes(data)
	default:
		p, err = wire.DecodeWith(c.Name(), data)
	}
	if err != nil {
		return fail(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(p); err != nil {
		return fail(&gcf.SyntaxError{Category: gcf.UnsupportedValue, Msg: "the payload has no JSON form: " + err.Error()})
	}
	out.Write(b.Bytes())
	if err := out.commit(); err != nil {
		return e.report(in, err, out)
	}
	return exitOK
}

// toNDJSON writes every record of a payload as one JSON line, as a stream.
// Rows stream through one at a time, so the per-container element limit
// (which bounds what a buffered decoder must hold) would only cap a
// table's length here: it is lifted unless -max-elements sets it.
func toNDJSON(w io.Writer, r io.Reader, o transcode.Options) (transcode.Result, error) {
	o.Decoder = append([]gcf.Option{gcf.WithMaxElements(math.MaxInt)}, o.Decoder...)
	return transcode.ToNDJSON(w, r, o)
}
