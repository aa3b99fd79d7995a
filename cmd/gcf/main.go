package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/stream"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one subcommand: its own flag set, help text and runner.
type command struct {
	name    string
	args    string // after "gcf name" in the usage line
	summary string // one line, for the list of commands
	doc     string // paragraphs after the usage line
	example string
	// setup defines the command's flags on fs and returns the runner, which
	// gets the arguments left after the flags and returns the exit status.
	setup func(fs *flag.FlagSet) func(e *env, args []string) int
}

var commands []*command

func init() {
	commands = []*command{encodeCommand, decodeCommand, validateCommand, migrateCommand, diffCommand, applyCommand, statsCommand, proxyCommand, versionCommand, helpCommand}
}

const exitStatusText = `Exit status: 0 ok, 1 invalid input (validate: a problem was found),
2 usage error, 3 I/O error (unreadable input, unwritable output, or the
output file could not be put in place).`

func mainUsage() string {
	var b strings.Builder
	b.WriteString(`Gcf converts between JSON and GCF (Graph Compact Format) and checks GCF payloads.

Usage:

	gcf <command> [flags] [arguments]

The commands are:

`)
	for _, c := range commands {
		fmt.Fprintf(&b, "\t%-10s %s\n", c.name, c.summary)
	}
	b.WriteString(`
Use "gcf help <command>" for a command's flags and an example.
A file argument "-" means stdin; "-o file" writes the output to file.
Diagnostics go to stderr as file:line:col: category: message.

` + exitStatusText + "\n")
	return b.String()
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage())
		return exitUsage
	}
	name, args := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, mainUsage())
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "gcf: unknown command %q\nRun 'gcf help' for usage.\n", name)
		return exitUsage
	}
	fs := flag.NewFlagSet("gcf "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	runner := c.setup(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, c.help())
			return exitOK
		}
		fmt.Fprintf(stderr, "usage: %s\nRun 'gcf help %s' for details.\n", c.usageLine(), c.name)
		return exitUsage
	}
	return runner(e, pos)
}

// parseFlags is the one flag rule of every command: flags may come before,
// between or after the file arguments (gcf encode FILE -q is gcf encode -q
// FILE), as Go's flag package alone does not allow; "-" is an argument
// (stdin), and everything after "--" is an argument. It returns the
// arguments in their order.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		// fs.Parse stops at the first argument, or consumes a "--".
		if len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func (c *command) usageLine() string {
	if c.args == "" {
		return "gcf " + c.name
	}
	return "gcf " + c.name + " " + c.args
}

// help is the text of `gcf help name` and `gcf name -h`.
func (c *command) help() string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s\n\n%s\n", c.usageLine(), c.doc)
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.setup(fs)
	var flags bytes.Buffer
	fs.SetOutput(&flags)
	fs.PrintDefaults()
	if flags.Len() > 0 {
		fmt.Fprintf(&b, "\nFlags:\n%s", flags.String())
	}
	fmt.Fprintf(&b, "\nExample:\n  %s\n\n%s\n", c.example, exitStatusText)
	return b.String()
}

// usageError reports a bad command line and returns exitUsage.
func (e *env) usageError(c *command, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "gcf %s: %s\nusage: %s\nRun 'gcf help %s' for details.\n", c.name, fmt.Sprintf(format, args...), c.usageLine(), c.name)
	return exitUsage
}

// oneInput returns the single input argument ("-", stdin, when there is
// none); ok is false after a usage error.
func (e *env) oneInput(c *command, args []string) (string, bool) {
	switch len(args) {
	case 0:
		return "-", true
	case 1:
		return args[0], true
	}
	e.usageError(c, "at most one input file (got %d)", len(args))
	return "", false
}

// openOne opens the single input argument and the output (-o) of a
// command that reads one payload and writes one result. When it fails it
// has reported the problem and returns the exit status; otherwise the
// caller closes in and commits or aborts o.
func (e *env) openOne(c *command, args []string, maxBytes int64, outPath string) (in *input, o *output, status int) {
	arg, ok := e.oneInput(c, args)
	if !ok {
		return nil, nil, exitUsage
	}
	in, err := openInput(e, arg, maxBytes)
	if err != nil {
		return nil, nil, e.report(nil, err, nil)
	}
	if o, err = createOutput(e, outPath); err != nil {
		status = e.report(in, err, nil)
		in.close()
		return nil, nil, status
	}
	return in, o, exitOK
}

// setFlags is the set of flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// limitFlags are the limits that encode, decode and validate take: those
// of package stream (SPEC §12), 0 meaning the default.
type limitFlags struct {
	depth, line, elements, fields int
	bytes                         int64
	requireSummary                bool
}

func (l *limitFlags) register(fs *flag.FlagSet, summary bool) { l.registerFor(fs, summary, false) }

// registerFor is register for a command that may also refuse an output
// larger than -max-bytes (encode).
func (l *limitFlags) registerFor(fs *flag.FlagSet, summary, output bool) {
	fs.IntVar(&l.depth, "max-depth", 0, fmt.Sprintf("deepest nesting accepted, `n` levels (0 = default %d)", stream.DefaultMaxDepth))
	fs.IntVar(&l.line, "max-line", 0, fmt.Sprintf("longest line accepted, `n` bytes (0 = default %d)", stream.DefaultMaxLineBytes))
	fs.IntVar(&l.elements, "max-elements", 0, fmt.Sprintf("most items, rows or members in one container, `n` (0 = default %d)", stream.DefaultMaxElements))
	fs.IntVar(&l.fields, "max-fields", 0, fmt.Sprintf("most fields in one field declaration, `n` (0 = default %d)", stream.DefaultMaxFields))
	maxBytes := "largest input, `n` bytes (0 = no limit, except that a GCB stream of n bytes may hold at most max(1 MiB, 8n) bytes of text): the input is read no further"
	if output {
		maxBytes = "largest input and output, `n` bytes (0 = no limit): the input is read no further, and a larger output is refused"
	}
	fs.Int64Var(&l.bytes, "max-bytes", 0, maxBytes)
	if summary {
		fs.BoolVar(&l.requireSummary, "require-summary", false, "refuse a payload that does not end with a ##! summary trailer (streaming output, or encode -summary), which may have been cut; without it, a [?] section without the trailer is a warning")
	}
}

func (l *limitFlags) check() error {
	for _, f := range []struct {
		name string
		v    int64
	}{{"max-depth", int64(l.depth)}, {"max-line", int64(l.line)}, {"max-elements", int64(l.elements)},
		{"max-fields", int64(l.fields)}, {"max-bytes", l.bytes}} {
		if f.v < 0 {
			return fmt.Errorf("-%s %d: a limit is a positive number, or 0 for the default", f.name, f.v)
		}
	}
	return nil
}

// limits returns the flags as stream.Limits.
func (l *limitFlags) limits() stream.Limits {
	return stream.Limits{MaxDepth: l.depth, MaxLineBytes: l.line, MaxElements: l.elements, MaxFields: l.fields,
		MaxBytes: l.bytes, RequireSummary: l.requireSummary}
}

// options returns the flags as gcf options.
func (l *limitFlags) options() []gcf.Option {
	var opts []gcf.Option
	if l.depth > 0 {
		opts = append(opts, gcf.WithMaxDepth(l.depth))
	}
	if l.line > 0 {
		opts = append(opts, gcf.WithMaxLineBytes(l.line))
	}
	if l.elements > 0 {
		opts = append(opts, gcf.WithMaxElements(l.elements))
	}
	if l.fields > 0 {
		opts = append(opts, gcf.WithMaxFields(l.fields))
	}
	if l.bytes > 0 {
		opts = append(opts, gcf.WithMaxBytes(l.bytes))
	}
	if l.requireSummary {
		opts = append(opts, gcf.WithRequireSummary())
	}
	return opts
}

// lineLimit and depthLimit are the limits in effect.
func (l *limitFlags) lineLimit() int  { return l.limits().Resolved().MaxLineBytes }
func (l *limitFlags) depthLimit() int { return l.limits().Resolved().MaxDepth }

var versionCommand = &command{
	name:    "version",
	summary: "print the version of gcf and of the Go toolchain that built it",
	doc: `Version prints the module version of gcf from the binary's build information
("(devel)" for a build from a source tree), the Go version, and the platform.`,
	example: "gcf version",
}

func init() {
	versionCommand.setup = func(fs *flag.FlagSet) func(*env, []string) int {
		return func(e *env, args []string) int {
			if len(args) > 0 {
				return e.usageError(versionCommand, "takes no arguments")
			}
			fmt.Fprintln(e.stdout, versionString())
			return exitOK
		}
	}
}

// versionString is "gcf version <module version> <go version> <os>/<arch>".
func versionString() string {
	v, gov := "", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		if bi.GoVersion != "" {
			gov = bi.GoVersion
		}
	}
	if v == "" {
		v = "(devel)"
	}
	return fmt.Sprintf("gcf version %s %s %s/%s", v, gov, runtime.GOOS, runtime.GOARCH)
}

var helpCommand = &command{
	name:    "help",
	args:    "[command]",
	summary: "print help for a command: its usage, flags and an example",
	doc:     `Help prints the list of commands, or one command's usage, flags and an example.`,
	example: "gcf help encode",
}

func init() {
	helpCommand.setup = func(fs *flag.FlagSet) func(*env, []string) int {
		return func(e *env, args []string) int {
			switch len(args) {
			case 0:
				fmt.Fprint(e.stdout, mainUsage())
				return exitOK
			case 1:
				if c := lookup(args[0]); c != nil {
					fmt.Fprint(e.stdout, c.help())
					return exitOK
				}
				fmt.Fprintf(e.stderr, "gcf help %s: unknown command\nRun 'gcf help' for the list of commands.\n", args[0])
				return exitUsage
			}
			return e.usageError(helpCommand, "at most one command")
		}
	}
}
