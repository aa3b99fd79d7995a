package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

var validateCommand = &command{
	name:    "validate",
	args:    "[flags] [file|-]...",
	summary: "report every problem in GCF payloads, with its position",
	doc: `Validate checks GCF payloads of either profile with the spec-shaped parser
(packages grammar and ast) and reports every problem, not just the first,
on stderr:

  file:line:col: category: message
    an excerpt of the line (at most about 80 bytes around the column)
    ^ under the column

It reads stdin when no file is given ("-" names stdin among files). With
-json it writes one JSON array of {"file","line","column","offset",
"category","message"} objects to stdout (or to -o file) instead.

Validation streams: memory is bounded by the longest line and the nesting
depth, not by the size of the input.

A payload whose [?] sections (streaming tables, whose row count is not
known in advance) are not confirmed by a ##! summary trailer is valid, as the
spec allows (SPEC §8.6, streaming), but gets a warning on stderr, because
the stream may have been cut; -require-summary makes it a problem, and also
a v3 payload that does not end with a ##! summary trailer (GCF has no end
marker: a payload cut at the end of a line may still be valid; gcf encode
-summary writes the trailer at the end of a buffered payload). When the inputs give
different results, the exit status is the highest.

-wire v1 checks legacy GCF v1.x payloads (docs/legacy-v1.md) against the v1
grammar and reports every problem with its position; it holds the payload
in memory (bound it with -max-bytes).`,
	example: "gcf validate -require-summary payload.gcf other.gcf",
}

func init() { validateCommand.setup = setupValidate }

// diagnostic is one problem in -json output.
type diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Offset   int    `json:"offset"`
	Category string `json:"category"`
	Message  string `json:"message"`
}

func setupValidate(fs *flag.FlagSet) func(*env, []string) int {
	asJSON := fs.Bool("json", false, "write the problems as a JSON array to stdout instead of text on stderr")
	out := fs.String("o", "", "-json: write the report to `file` (through a temporary file, renamed on success)")
	var lim limitFlags
	lim.register(fs, true)
	var wire wireFlag
	wire.register(fs, false)
	return func(e *env, args []string) int {
		if err := wire.check(); err != nil {
			return e.usageError(validateCommand, "%v", err)
		}
		if setFlags(fs)["o"] && !*asJSON {
			return e.usageError(validateCommand, "-o applies only with -json (the text report goes to stderr)")
		}
		if err := lim.check(); err != nil {
			return e.usageError(validateCommand, "%v", err)
		}
		if len(args) == 0 {
			args = []string{"-"}
		}
		stdin := 0
		for _, a := range args {
			if a == "-" {
				stdin++
			}
		}
		if stdin > 1 {
			return e.usageError(validateCommand, `stdin ("-") given %d times`, stdin)
		}
		var report *output
		if *asJSON {
			var err error
			if report, err = createOutput(e, *out); err != nil {
				return e.report(nil, err, nil)
			}
		}
		status := exitOK
		all := []diagnostic{}
		for _, name := range args {
			s, diags := e.validateOne(name, lim, wire, !*asJSON)
			status = max(status, s)
			all = append(all, diags...)
		}
		if *asJSON {
			enc := json.NewEncoder(report)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			enc.Encode(all)
			if err := report.commit(); err != nil {
				return e.report(nil, err, report)
			}
		}
		return status
	}
}

// validateOne checks one input: it prints the problems on stderr (text) or
// returns them (for -json), and returns the exit status.
func (e *env) validateOne(name string, lim limitFlags, wire wireFlag, text bool) (int, []diagnostic) {
	in, err := openInput(e, name, lim.bytes)
	if err != nil {
		return e.report(nil, err, nil), nil
	}
	defer in.close()
	l := lim.limits()
	// Ask for the trailer always: without -require-summary its absence is
	// a warning (SPEC §8.6), not a problem.
	l.RequireSummary = true
	status := exitOK
	var diags []diagnostic
	check := ast.Check
	if wire.value == "v1" {
		check = checkV1
	}
	for _, d := range check(in.r, l) {
		if isMissingSummary(d) && !lim.requireSummary {
			e.warnUnconfirmed(in.name, 0)
			continue
		}
		if d.Category == gcf.ReadError || in.r.err != nil {
			// Not a problem of the payload: said on stderr, never in the report.
			if in.r.err != nil {
				fmt.Fprintf(e.stderr, "gcf: reading %s: %v\n", in.name, in.r.err)
			} else {
				fmt.Fprintf(e.stderr, "gcf: %s: %s\n", in.name, d.Msg)
			}
			return exitIO, nil
		}
		status = exitInvalid
		if text {
			e.diagnostic(in.name, d.Pos.Line, d.Pos.Column, int64(d.Pos.Offset), string(d.Category), d.Msg, in.src)
			continue
		}
		diags = append(diags, diagnostic{File: in.name, Line: d.Pos.Line, Column: d.Pos.Column, Offset: d.Pos.Offset,
			Category: string(d.Category), Message: d.Msg})
	}
	// A valid v3 payload must also end with the trailer under -require-summary.
	if status == exitOK && lim.requireSummary && wire.value != "v1" && !in.r.endsWithSummary() {
		status = exitInvalid
		se := in.r.missingSummary()
		if text {
			e.diagnostic(in.name, se.Line, se.Column, se.Offset, string(se.Category), se.Msg, in.src)
		} else {
			diags = append(diags, diagnostic{File: in.name, Line: se.Line, Column: se.Column, Offset: int(se.Offset),
				Category: string(se.Category), Message: se.Msg})
		}
	}
	return status, diags
}

// isMissingSummary reports whether d is the error that Limits.RequireSummary
// adds for `[?]` sections that no `##! summary` trailer confirmed.
func isMissingSummary(d *ast.Error) bool {
	return d.Category == gcf.UnexpectedEOF && strings.Contains(d.Msg, "##! summary trailer")
}

// checkV1 checks a legacy v1.x payload with ast.ValidateV1: every problem
// the v1 grammar finds, with its position. It holds the payload (bound it
// with -max-bytes).
func checkV1(r io.Reader, l stream.Limits) ast.ErrorList {
	src := r
	if l.MaxBytes > 0 {
		src = io.LimitReader(r, l.MaxBytes+1)
	}
	data, err := io.ReadAll(src)
	if err != nil {
		return ast.ErrorList{{Pos: ast.Pos{Line: 1, Column: 1}, Category: lexer.ReadFailure, Msg: err.Error()}}
	}
	return ast.ValidateV1(data, l)
}
