// Command gcf converts between JSON and GCF (Graph Compact Format).
//
// Usage:
//
//	gcf encode [file]   JSON to GCF (generic profile); stdin when no file
//	gcf decode [file]   GCF to JSON; stdin when no file
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

	"github.com/gcfkit/gcf"
)

const usage = `usage:
  gcf encode [-q] [file]        convert JSON to GCF (stdin when no file)
  gcf decode [-indent] [file]   convert GCF to JSON (stdin when no file)
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
	fs := flag.NewFlagSet("gcf "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	quiet := fs.Bool("q", false, "encode: do not print the size comparison on stderr")
	indent := fs.Bool("indent", false, "decode: indent the JSON output")
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
	name, data, err := readInput(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gcf: %v\n", err)
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	switch cmd {
	case "encode":
		v, err := gcf.ParseJSON(data)
		if err != nil {
			return report(stderr, name, err)
		}
		enc, err := gcf.EncodeGeneric(v)
		if err != nil {
			return report(stderr, name, err)
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
		v, err := gcf.DecodeGeneric(data)
		if err != nil {
			return report(stderr, name, err)
		}
		js, err := gcf.ToJSON(v)
		if err != nil {
			return report(stderr, name, err)
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

// report prints err as file:line:col: category: message.
func report(stderr io.Writer, name string, err error) int {
	var se *gcf.SyntaxError
	if errors.As(err, &se) {
		if se.Line > 0 {
			fmt.Fprintf(stderr, "%s:%d:%d: %s: %s\n", name, se.Line, se.Column, se.Category, se.Msg)
		} else {
			fmt.Fprintf(stderr, "%s: %s: %s\n", name, se.Category, se.Msg)
		}
		return 1
	}
	fmt.Fprintf(stderr, "%s: %v\n", name, err)
	return 1
}
