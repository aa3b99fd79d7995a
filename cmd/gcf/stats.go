package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/tokens"
	"github.com/gcfkit/gcf/wire"
)

var statsCommand = &command{
	name:    "stats",
	args:    "[-tokenizer o200k|cl100k] [-json] [-max-bytes n ...] file...",
	summary: "compare the bytes and tokens of JSON, GCF and GCB for payloads",
	doc: `Stats reads each file, JSON, GCF or GCB (told apart by the content; "-" is
stdin), and prints, for the same payload, the bytes and the tokens a model's
tokenizer counts in pretty JSON (two-space indent), minified JSON (neither
HTML-escaped), canonical GCF, for a generic payload the smallest GCF (encode
-smallest, priced in the same tokens) and, for a graph payload, GCB (binary:
bytes only), each with its savings against both JSONs; a negative saving is
a cost. A JSON object with "symbols" is read as a graph payload (camelCase
field names, as gcf encode -profile graph reads, or snake_case ones such as
qualified_name); anything else is a generic value. Tokens are counted with a real BPE vocabulary, o200k_base by
default (-tokenizer cl100k for cl100k_base). -json prints the same as a JSON
array, one object per file. The -max-* flags bound what is read, as for
decode; a GCB file's text is bounded even without them (docs/wire.md).`,
	example: "gcf stats testdata/examples/graph.json testdata/examples/orders.json",
}

func init() { statsCommand.setup = setupStats }

// statRow is one representation of a payload.
type statRow struct {
	Format string `json:"format"`
	Bytes  int    `json:"bytes"`
	Tokens *int   `json:"tokens"` // null for binary formats
	// Savings against pretty and minified JSON, in percent (null where
	// there is nothing to compare).
	BytesVsPretty    *float64 `json:"bytesSavedVsPrettyJSON"`
	BytesVsMinified  *float64 `json:"bytesSavedVsMinifiedJSON"`
	TokensVsPretty   *float64 `json:"tokensSavedVsPrettyJSON"`
	TokensVsMinified *float64 `json:"tokensSavedVsMinifiedJSON"`
	Note             string   `json:"note,omitempty"`
}

type statFile struct {
	File      string    `json:"file"`
	Input     string    `json:"input"`   // "json", "gcf" or "gcb"
	Payload   string    `json:"payload"` // "graph" or "generic"
	Tokenizer string    `json:"tokenizer"`
	Rows      []statRow `json:"formats"`
	Warning   string    `json:"warning,omitempty"` // GCF costs more than minified JSON, and why
}

func setupStats(fs *flag.FlagSet) func(*env, []string) int {
	tok := fs.String("tokenizer", "o200k", "`vocabulary` to count tokens with: o200k (o200k_base) or cl100k (cl100k_base)")
	asJSON := fs.Bool("json", false, "print the statistics as a JSON array on stdout")
	var lim limitFlags
	lim.register(fs, false)
	return func(e *env, args []string) int {
		if err := lim.check(); err != nil {
			return e.usageError(statsCommand, "%v", err)
		}
		enc, err := tokens.ParseEncoding(*tok)
		if err != nil {
			return e.usageError(statsCommand, "-tokenizer: %v", err)
		}
		if len(args) == 0 {
			return e.usageError(statsCommand, "at least one file (\"-\" for stdin)")
		}
		counter, err := tokens.New(enc)
		if err != nil {
			fmt.Fprintf(e.stderr, "gcf stats: %v\n", err)
			return exitIO
		}
		status := exitOK
		var all []statFile
		for _, arg := range args {
			in, err := openInput(e, arg, lim.bytes)
			if err != nil {
				status = max(status, e.report(nil, err, nil))
				continue
			}
			data, err := readAll(in)
			if err == nil {
				var sf *statFile
				if sf, err = stats(data, counter, &lim); err == nil {
					sf.File = in.name
					all = append(all, *sf)
				}
			}
			if err != nil {
				in.src = bytes.NewReader(data)
				status = max(status, e.report(in, err, nil))
			}
			in.close()
		}
		if *asJSON {
			b, _ := jsonText(all, "  ")
			fmt.Fprintf(e.stdout, "%s\n", b)
		} else {
			for i := range all {
				if i > 0 {
					fmt.Fprintln(e.stdout)
				}
				printStats(e.stdout, &all[i])
			}
		}
		return status
	}
}

// stats measures one payload, given as JSON, GCF or GCB, read under the
// limits lim.
func stats(data []byte, counter *tokens.Counter, lim *limitFlags) (*statFile, error) {
	sf := &statFile{Tokenizer: string(counter.Encoding())}
	var graph *gcf.Payload
	var generic any
	if bytes.HasPrefix(data, []byte("GCB1")) {
		sf.Input = "gcb"
		p, err := wire.DecodeGCB(data, lim.limits())
		if err != nil {
			return nil, err
		}
		graph = p
	} else if t := bytes.TrimLeft(data, " \t\r\n"); bytes.HasPrefix(t, []byte("GCF")) {
		sf.Input = "gcf"
		if p, err := gcf.Decode(data, lim.options()...); err == nil {
			graph = p
		} else if v, gerr := gcf.DecodeGeneric(data, lim.options()...); gerr == nil {
			generic = v
		} else {
			return nil, err
		}
	} else {
		sf.Input = "json"
		v, err := gcf.ParseJSON(data, lim.options()...)
		if err != nil {
			return nil, err
		}
		if o, ok := v.(gcf.Object); ok {
			if _, has := o.Get("symbols"); has {
				if graph, err = wire.DecodeWith("json", data); err != nil {
					return nil, err
				}
			}
		}
		generic = v
	}
	var pretty, minified, gcfText []byte
	var err error
	var gcfErr error
	if graph != nil {
		sf.Payload = "graph"
		if pretty, err = wire.EncodeWith("json", graph); err != nil {
			return nil, err
		}
		pretty = bytes.TrimSuffix(pretty, []byte("\n"))
		var b bytes.Buffer
		if err := json.Compact(&b, pretty); err != nil {
			return nil, err
		}
		minified = b.Bytes()
		gcfText, gcfErr = gcf.Encode(graph)
	} else {
		sf.Payload = "generic"
		if pretty, err = jsonText(generic, "  "); err != nil {
			return nil, err
		}
		if minified, err = jsonText(generic, ""); err != nil {
			return nil, err
		}
		gcfText, gcfErr = gcf.EncodeGeneric(generic)
	}
	count := func(b []byte) *int { n := counter.CountBytes(b); return &n }
	pb, pt := len(pretty), *count(pretty)
	mb, mt := len(minified), *count(minified)
	saved := func(x, base int) *float64 { v := 100 * (1 - float64(x)/float64(base)); return &v }
	row := func(format string, b []byte, text bool) statRow {
		r := statRow{Format: format, Bytes: len(b)}
		r.BytesVsPretty, r.BytesVsMinified = saved(len(b), pb), saved(len(b), mb)
		if text {
			r.Tokens = count(b)
			r.TokensVsPretty, r.TokensVsMinified = saved(*r.Tokens, pt), saved(*r.Tokens, mt)
		}
		return r
	}
	sf.Rows = append(sf.Rows, statRow{Format: "pretty JSON", Bytes: pb, Tokens: &pt})
	min := row("minified JSON", minified, true)
	min.BytesVsMinified, min.TokensVsMinified = nil, nil
	sf.Rows = append(sf.Rows, min)
	if gcfErr != nil {
		sf.Rows = append(sf.Rows, statRow{Format: "GCF", Note: "cannot encode: " + gcfErr.Error()})
	} else {
		sf.Rows = append(sf.Rows, row("GCF", gcfText, true))
	}
	if graph == nil && gcfErr == nil {
		// The Smallest layout (gcf encode -smallest), priced in the same
		// tokenizer's tokens: never more than canonical GCF.
		small, err := gcf.EncodeGeneric(generic, gcf.WithSize(gcf.Smallest), gcf.WithCost(counter.Count))
		if err != nil {
			return nil, err
		}
		sf.Rows = append(sf.Rows, row("GCF smallest", small, true))
		sf.Warning = costlierNote(generic, counter.CountBytes(small), mt)
	}
	if graph != nil {
		gcb, err := wire.EncodeWith("gcb", graph)
		if err != nil {
			return nil, err
		}
		sf.Rows = append(sf.Rows, row("GCB", gcb, false))
	}
	return sf, nil
}

// jsonText is v as JSON, minified or indented by indent, without HTML
// escaping: json.Marshal writes <, > and & as \u003c, \u003e and \u0026,
// which would inflate the baseline that GCF is compared with.
func jsonText(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// printStats writes one file's statistics as a table.
func printStats(w io.Writer, sf *statFile) {
	fmt.Fprintf(w, "%s: %s payload, %s input, tokens by %s\n", sf.File, sf.Payload, sf.Input, sf.Tokenizer)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "format\tbytes\ttokens\tbytes saved vs pretty\tvs minified\ttokens saved vs pretty\tvs minified\t")
	pct := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", *v)
	}
	for _, r := range sf.Rows {
		if r.Note != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t\n", r.Format)
			continue
		}
		tok := "-"
		if r.Tokens != nil {
			tok = fmt.Sprint(*r.Tokens)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", r.Format, r.Bytes, tok,
			pct(r.BytesVsPretty), pct(r.BytesVsMinified), pct(r.TokensVsPretty), pct(r.TokensVsMinified))
	}
	tw.Flush()
	for _, r := range sf.Rows {
		if r.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", r.Format, r.Note)
		}
	}
	if sf.Warning != "" {
		fmt.Fprintf(w, "note: %s\n", sf.Warning)
	}
}
