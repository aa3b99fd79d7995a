package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/gcfkit/gcf"
)

var migrateCommand = &command{
	name:    "migrate",
	args:    "[flags] [file|-]",
	summary: "convert a legacy GCF v1.x payload to GCF v3",
	doc: `Migrate reads a GCF v1.x payload (the legacy wire of the original GCF
tools: a graph header "GCF tool=..." without profile=, or a headerless
generic payload; stdin when no file or "-" is given) and writes the
equivalent GCF v3 payload (spec v3.6.0; with -spec 3.5.3 a generic payload
holds no v3.6-only form): "gcf decode" of the output gives what
"gcf decode -wire v1" of the input gives.

Graph payloads, sessions and deltas are translated line by line as they are
validated, in memory bounded by the longest line; generic payloads are
decoded whole and re-encoded (bound them with -max-bytes). What v1 carries
that v3 cannot express (a score with more than two decimals, a kind that is
not a bare key) is an error, never dropped. See docs/legacy-v1.md.`,
	example: "gcf migrate -o payload.v3.gcf payload.v1.gcf",
}

func init() { migrateCommand.setup = setupMigrate }

func setupMigrate(fs *flag.FlagSet) func(*env, []string) int {
	out := fs.String("o", "", "write the output to `file` (through a temporary file, renamed on success); \"-\" is stdout")
	var lim limitFlags
	lim.register(fs, false)
	var spec specFlag
	spec.register(fs)
	return func(e *env, args []string) int {
		if err := lim.check(); err != nil {
			return e.usageError(migrateCommand, "%v", err)
		}
		if err := spec.check(); err != nil {
			return e.usageError(migrateCommand, "%v", err)
		}
		in, o, status := e.openOne(migrateCommand, args, lim.bytes, *out)
		if in == nil {
			return status
		}
		defer in.close()
		if err := gcf.Migrate(in.r, o, append(lim.options(), spec.options()...)...); err != nil {
			o.abort()
			return e.report(in, err, o)
		}
		if err := o.commit(); err != nil {
			return e.report(in, err, o)
		}
		return exitOK
	}
}

// wireFlag is the -wire flag: v3 (the default), v1, or, where allowed, auto.
type wireFlag struct {
	value string
	auto  bool // auto is accepted
}

func (w *wireFlag) register(fs *flag.FlagSet, auto bool) {
	w.auto = auto
	usage := "`wire` version: v3 (GCF v3.6.0 and v3.5.3, the default) or v1 (legacy GCF v1.x, docs/legacy-v1.md)"
	if auto {
		usage = "`wire` version: v3 (GCF v3.6.0 and v3.5.3, the default), v1 (legacy GCF v1.x, docs/legacy-v1.md) or auto (from the header; says which on stderr)"
	}
	fs.StringVar(&w.value, "wire", "v3", usage)
}

func (w *wireFlag) check() error {
	switch w.value {
	case "v1", "v3":
		return nil
	case "auto":
		if w.auto {
			return nil
		}
	}
	if w.auto {
		return fmt.Errorf("unknown -wire %q (v3, v1 or auto)", w.value)
	}
	return fmt.Errorf("unknown -wire %q (v3 or v1)", w.value)
}

// options returns the option for a fixed wire (none for v3).
func (w *wireFlag) options() []gcf.Option {
	if w.value == "v1" {
		return []gcf.Option{gcf.WithWire(gcf.WireV1)}
	}
	return nil
}

// resolve returns the reader to decode from and the wire options. With
// -wire auto it peeks at the first line: a v3 payload starts with
// `GCF profile=` (SPEC §3.1: profile= is the first field); anything else
// is read as v1 (a graph header without profile=, or a headerless generic
// payload). It says on stderr which wire it chose.
func (w *wireFlag) resolve(e *env, in *input) (io.Reader, []gcf.Option) {
	if w.value != "auto" {
		return in.r, w.options()
	}
	br := bufio.NewReaderSize(in.r, 4096)
	head, _ := br.Peek(len("GCF profile="))
	if bytes.Equal(head, []byte("GCF profile=")) {
		fmt.Fprintf(e.stderr, "gcf: %s: decoding as GCF v3 (the header has profile=)\n", in.name)
		return br, nil
	}
	what := "the first line is not a GCF header: a v1 generic payload"
	if bytes.HasPrefix(head, []byte("GCF")) {
		what = "the header has no profile="
	}
	fmt.Fprintf(e.stderr, "gcf: %s: decoding as GCF v1.x (%s)\n", in.name, what)
	return br, []gcf.Option{gcf.WithWire(gcf.WireV1)}
}
