package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// Every subcommand has its own flag set: a flag or an argument that does
// not apply is a usage error (exit 2), reported on stderr only.
func TestFlagsThatDoNotApplyAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"decode", "-fields", "x"},
		{"decode", "-stream"},
		{"decode", "-q"},
		{"decode", "-ndjson", "-indent"},
		{"encode", "-fields", "x"},
		{"encode", "-table", "t"},
		{"encode", "-progress"},
		{"encode", "-indent"},
		{"encode", "-require-summary"},
		{"encode", "-stream", "-profile", "graph"},
		{"encode", "-profile", "yaml"},
		{"encode", "a.json", "b.json"},
		{"encode", "-max-depth", "-1"},
		{"decode", "-max-bytes", "-5"},
		{"decode", "-json"},
		{"validate", "-indent"},
		{"validate", "-o", "report.json"},
		{"validate", "-", "-"},
		{"version", "extra"},
		{"version", "-o", "x"},
		{"help", "encode", "decode"},
		{"help", "bogus"},
		{"bogus"},
		{},
	} {
		out, stderr, code := runCLI(t, "", args...)
		if code != exitUsage || out != "" || stderr == "" {
			t.Errorf("gcf %s: exit %d, stdout %q, stderr %q; want exit 2, only stderr", strings.Join(args, " "), code, out, stderr)
		}
	}
}

// `gcf help <command>` and `gcf <command> -h` print the command's usage,
// every flag, an example and the exit codes, on stdout with exit 0.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		help, stderr, code := runCLI(t, "", "help", c.name)
		if code != 0 || stderr != "" {
			t.Fatalf("help %s: exit %d, stderr %q", c.name, code, stderr)
		}
		for _, want := range []string{"usage: gcf " + c.name, "\nExample:\n  gcf ", "Exit status: 0 ok, 1 invalid input", "2 usage error, 3 I/O error"} {
			if !strings.Contains(help, want) {
				t.Errorf("help %s lacks %q:\n%s", c.name, want, help)
			}
		}
		for _, f := range flagNames(c) {
			if !strings.Contains(help, "  -"+f) {
				t.Errorf("help %s does not list -%s", c.name, f)
			}
		}
		for _, h := range []string{"-h", "-help", "--help"} {
			out, stderr, code := runCLI(t, "", c.name, h)
			if code != 0 || out != help || stderr != "" {
				t.Errorf("gcf %s %s: exit %d, stderr %q, stdout differs from gcf help %s", c.name, h, code, stderr, c.name)
			}
		}
	}
	list, _, code := runCLI(t, "", "help")
	if code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	for _, c := range commands {
		if !strings.Contains(list, "\t"+c.name+" ") {
			t.Errorf("gcf help does not list %s", c.name)
		}
	}
}

func flagNames(c *command) []string {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.setup(fs)
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

func TestVersion(t *testing.T) {
	out, stderr, code := runCLI(t, "", "version")
	want := regexp.MustCompile(`^gcf version (\(devel\)|v\S+) ` + regexp.QuoteMeta(runtime.Version()) + ` ` + runtime.GOOS + `/` + runtime.GOARCH + "\n$")
	if code != 0 || stderr != "" || !want.MatchString(out) {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, stderr, out)
	}
}

// The package doc comment and the README list every command, every flag
// and every exit code.
func TestDocsListEveryCommandFlagAndExitCode(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"doc.go": string(doc), "README.md": string(readme)} {
		for _, c := range commands {
			if !strings.Contains(text, c.name+" ") {
				t.Errorf("%s does not mention the command %s", name, c.name)
			}
			for _, f := range flagNames(c) {
				if !regexp.MustCompile(`(^|[\s|(\x60])-` + regexp.QuoteMeta(f) + `\b`).MatchString(text) {
					t.Errorf("%s does not document %s -%s", name, c.name, f)
				}
			}
		}
		for _, want := range []string{"0", "1", "2", "3"} {
			if !regexp.MustCompile(`(?m)^[\s/|]*` + want + `[\s|]+\S`).MatchString(text) {
				t.Errorf("%s does not list exit status %s", name, want)
			}
		}
		for _, want := range []string{"usage error", "I/O error", "invalid input", "8 times -max-line"} {
			if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
				t.Errorf("%s does not say %q", name, want)
			}
		}
	}
	// The README's opening commands stay true.
	for _, want := range []string{"go run ./cmd/gcf encode testdata/examples/orders.json", "go test ./..."} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README lost %q", want)
		}
	}
}

// -o writes the output to the file and nothing to stdout; "-" is stdin.
func TestOutputFileAndStdinDash(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.gcf")
	out, stderr, code := runCLI(t, `{"a":1}`, "encode", "-q", "-o", dest, "-")
	if code != 0 || out != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if got, _ := os.ReadFile(dest); string(got) != "GCF profile=generic\na=1\n" {
		t.Fatalf("file holds %q", got)
	}
	js, _, code := runCLI(t, "", "decode", "-o", "-", dest)
	if code != 0 || js != `{"a":1}`+"\n" {
		t.Fatalf("decode: exit %d, %q", code, js)
	}
	assertOnly(t, dir, "out.gcf")
}

// A failure never leaves a partial file at the destination, and an
// existing destination is left untouched.
func TestOutputFileFailureLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "rows.gcf")
	records := `{"id":1}` + "\n" + `{"id":2}` + "\n" + `{"id":{"x":1}}` + "\n"
	_, stderr, code := runCLI(t, records, "encode", "-stream", "-o", dest)
	if code != 1 || !strings.Contains(stderr, "gcf: "+dest+" not written") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	assertOnly(t, dir)

	if err := os.WriteFile(dest, []byte("previous content\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if _, _, code := runCLI(t, records, "encode", "-stream", "-o", dest); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if got, _ := os.ReadFile(dest); string(got) != "previous content\n" {
		t.Fatalf("destination changed: %q", got)
	}
	assertOnly(t, dir, "rows.gcf")
	// The same for a buffered encode and a decode.
	if _, _, code := runCLI(t, `{"a":`, "encode", "-o", dest); code != 1 {
		t.Fatalf("encode: exit %d", code)
	}
	if _, _, code := runCLI(t, "GCF profile=generic\n## [2]{a}\n1\n", "decode", "-o", dest); code != 1 {
		t.Fatalf("decode: exit %d", code)
	}
	if got, _ := os.ReadFile(dest); string(got) != "previous content\n" {
		t.Fatalf("destination changed: %q", got)
	}
	// On success the file is replaced and keeps its permissions.
	if _, _, code := runCLI(t, `{"a":1}`, "encode", "-q", "-o", dest); code != 0 {
		t.Fatalf("exit %d", code)
	}
	st, err := os.Stat(dest)
	if err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("stat: %v %v", st.Mode(), err)
	}
	assertOnly(t, dir, "rows.gcf")
}

// assertOnly checks that dir holds exactly the named files (no temporary
// file was left behind).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("%s holds %q, want %q", dir, got, names)
	}
}

type failingWriter struct{}

var errDiskFull = errors.New("no space left on device")

func (failingWriter) Write(p []byte) (int, error) { return 0, errDiskFull }

type failingReader struct{ data string }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errors.New("input/output error")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// Exit statuses: 0 ok, 1 invalid input, 2 usage error, 3 I/O error.
func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	gcfIn := "GCF profile=generic\na=1\n"
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		want   int
		stderr string
	}{
		{"ok", []string{"encode", "-q"}, `{"a":1}`, exitOK, ""},
		{"invalid JSON", []string{"encode"}, `{"a":}`, exitInvalid, "<stdin>:1:6: "},
		{"invalid GCF", []string{"decode"}, "GCF profile=generic\n## [2]{a}\n1\n", exitInvalid, "count_mismatch"},
		{"invalid GCF, validate", []string{"validate"}, "GCF\n", exitInvalid, "missing_profile"},
		{"missing input", []string{"encode", missing}, "", exitIO, "missing.json"},
		{"missing input, decode", []string{"decode", missing}, "", exitIO, "missing.json"},
		{"missing input, validate", []string{"validate", missing}, "", exitIO, "missing.json"},
		{"input is a directory", []string{"decode", dir}, "", exitIO, "is a directory"},
		{"output in a missing directory", []string{"encode", "-q", "-o", filepath.Join(dir, "no", "x.gcf")}, `{"a":1}`, exitIO, "no such file"},
		{"output is a directory", []string{"decode", "-o", dir}, gcfIn, exitIO, "is a directory"},
		{"usage", []string{"decode", "-bogus"}, "", exitUsage, "flag provided but not defined: -bogus"},
	} {
		_, stderr, code := runCLI(t, tc.stdin, tc.args...)
		if code != tc.want || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", tc.name, code, stderr, tc.want, tc.stderr)
		}
	}
	// Unwritable stdout and unreadable stdin are I/O errors too.
	for _, args := range [][]string{{"encode", "-q"}, {"encode", "-stream", "-q"}, {"decode"}, {"decode", "-ndjson"}, {"validate", "-json"}} {
		in := `{"a":1}`
		if args[0] != "encode" {
			in = "GCF profile=generic\n## [1]{a}\n1\n"
		}
		var errb bytes.Buffer
		if code := run(args, strings.NewReader(in), failingWriter{}, &errb); code != exitIO || !strings.Contains(errb.String(), errDiskFull.Error()) {
			t.Errorf("%v to a full disk: exit %d, %q", args, code, errb.String())
		}
		errb.Reset()
		if code := run(args, &failingReader{data: in[:5]}, &bytes.Buffer{}, &errb); code != exitIO || !strings.Contains(errb.String(), "input/output error") {
			t.Errorf("%v from a failing stdin: exit %d, %q", args, code, errb.String())
		}
	}
}

// Diagnostics go to stderr only; stdout carries only the requested output.
func TestDiagnosticsOnlyOnStderr(t *testing.T) {
	for _, args := range [][]string{{"decode"}, {"decode", "-ndjson"}, {"validate"}, {"encode"}, {"encode", "-stream"}} {
		out, stderr, code := runCLI(t, "GCF profile=generic\n## [1]{a,a}\n1|2\n", args...)
		if code != exitInvalid || out != "" || stderr == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	out, stderr, code := runCLI(t, "GCF profile=generic\n## [1]{a,a}\n1|2\n", "validate", "-json")
	if code != exitInvalid || stderr != "" || !strings.HasPrefix(out, "[\n  {\n    \"file\": \"<stdin>\"") {
		t.Errorf("validate -json: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// An -o error names the path the user gave, never the temporary file.
func TestOutputErrorNamesThePathGiven(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "missing", "out.gcf")
	for _, args := range [][]string{{"encode", "-q", "-o", dest}, {"encode", "-stream", "-q", "-o", dest}, {"decode", "-o", dest}, {"migrate", "-o", dest}} {
		in := `{"a":1}`
		if args[0] != "encode" {
			in = "GCF profile=generic\na=1\n"
		}
		_, stderr, code := runCLI(t, in, args...)
		if code != exitIO || !strings.Contains(stderr, dest+": no such file or directory") || strings.Contains(stderr, ".tmp-") {
			t.Errorf("%v: exit %d, stderr %q; want the path given, not the temporary file", args, code, stderr)
		}
	}
}

// Help speaks to the user: no words of the project's own ("the product",
// "the fixtures"), no section number without what it is about, and each
// command's flags describe what that command does.
func TestHelpSpeaksToTheUser(t *testing.T) {
	texts := map[string]string{"gcf help": mainUsage()}
	for _, c := range commands {
		texts["gcf help "+c.name] = c.help()
	}
	jargon := regexp.MustCompile(`(?i)\bproduct\b|\bproduct's\b|\bfixtures?\b`)
	section := regexp.MustCompile(`§[0-9][0-9a-z.]*`)
	for name, text := range texts {
		flat := strings.Join(strings.Fields(text), " ")
		if m := jargon.FindString(flat); m != "" {
			t.Errorf("%s says %q", name, m)
		}
		// A § number sits in parentheses that say, in words, what the
		// section is about: "(SPEC §8.6, streaming)".
		for _, loc := range section.FindAllStringIndex(flat, -1) {
			open := strings.LastIndex(flat[:loc[0]], "(")
			end := strings.Index(flat[loc[1]:], ")")
			if open < 0 || end < 0 {
				t.Errorf("%s: %s outside parentheses", name, flat[loc[0]:loc[1]])
				continue
			}
			words := section.ReplaceAllString(flat[open+1:loc[1]+end], "")
			var said []string
			for _, w := range regexp.MustCompile(`[A-Za-z]{4,}`).FindAllString(words, -1) {
				if w != "SPEC" {
					said = append(said, w)
				}
			}
			if len(said) == 0 {
				t.Errorf("%s: %q cites a section without saying what it is about", name, flat[open:loc[1]+end+1])
			}
		}
	}
	for _, c := range []string{"decode", "validate", "migrate", "diff", "apply"} {
		if h := lookup(c).help(); strings.Contains(h, "encode also") {
			t.Errorf("gcf help %s speaks of encode under -max-bytes", c)
		}
	}
	if h := encodeCommand.help(); !strings.Contains(strings.Join(strings.Fields(h), " "), "a larger output is refused") {
		t.Errorf("gcf help encode does not say that -max-bytes bounds the output")
	}
}

// The README's layout table is one table (no blank line breaks it) and
// names every top-level folder of the repository.
func TestReadmeLayoutTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	i := strings.Index(text, "\n## Layout\n")
	if i < 0 {
		t.Fatal("README has no Layout section")
	}
	section := text[i+len("\n## Layout\n"):]
	if j := strings.Index(section, "\n## "); j >= 0 {
		section = section[:j]
	}
	var table []string
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(section), "\n") {
		if strings.HasPrefix(line, "|") {
			rows++
			table = append(table, line)
		} else if rows > 0 {
			break
		}
	}
	if rest := strings.TrimSpace(strings.SplitAfterN(strings.TrimSpace(section), strings.Join(table, "\n"), 2)[1]); strings.HasPrefix(rest, "|") {
		t.Errorf("the layout table is broken: rows follow a blank line:\n%s", rest)
	}
	joined := strings.Join(table, "\n")
	entries, err := os.ReadDir(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if !strings.Contains(joined, "`"+e.Name()+"/") && !strings.Contains(joined, "`"+e.Name()+"`") {
			t.Errorf("the layout table does not name %s/", e.Name())
		}
	}
	// Stale: every generic-delta fixture runs.
	if strings.Contains(strings.Join(strings.Fields(text), " "), "Skipped fixtures belong to work not done yet") {
		t.Error("README says that fixtures are skipped for work not done yet")
	}
}
