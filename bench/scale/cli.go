package main

// The CLI runs: the gcf command itself, built once and run as a child
// process on the generated streams and on two hostile inputs, so that each
// peak RSS is the command's own, as a user would see it.
//
//	cli-validate-<profile>   gcf validate FILE              (valid, exit 0)
//	cli-decode-<profile>     gcf decode FILE > counter      (valid, exit 0)
//	cli-ndjson-table         gcf decode -ndjson FILE        (valid, exit 0)
//	cli-decode-longline      gcf decode on a payload whose second line is
//	                         -size bytes long               (line_too_long, exit 1)
//	cli-encode-longstring    gcf encode -stream on one JSON record holding a
//	                         -size byte string               (refused, exit 1)
//	parsejson-keys           gcf.ParseJSON of one object with -keys members

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gcfkit/gcf"
)

// buildCLI builds the gcf command into dir and returns its path.
func buildCLI(dir string) (string, error) {
	bin := filepath.Join(dir, fmt.Sprintf("gcf-scale-%d-cli", os.Getpid()))
	cmd := exec.Command("go", "build", "-o", bin, "github.com/gcfkit/gcf/cmd/gcf")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the gcf command: %v", err)
	}
	return bin, nil
}

// cliRun runs the gcf command with args, counting (and discarding) its
// stdout, and returns the phase's result with the command's peak RSS.
// wantExit is the exit status the run must end with, and wantErr a text
// its stderr must hold (for the hostile runs).
func cliRun(phase, bin string, wantExit int, wantErr string, records, inBytes int64, args ...string) (*result, error) {
	cmd := exec.Command(bin, args...)
	var out countWriter
	var stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &limitedBuffer{b: &stderr, max: 4096}
	start := time.Now()
	err := cmd.Run()
	res := &result{Phase: phase, Records: records, Bytes: inBytes, Seconds: time.Since(start).Seconds()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.MaxRSSKB = int64(ru.Maxrss)
	}
	exit := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		exit = ee.ExitCode()
	} else if err != nil {
		return nil, fmt.Errorf("%s: %v", phase, err)
	}
	if exit != wantExit || !strings.Contains(stderr.String(), wantErr) {
		return nil, fmt.Errorf("%s: gcf %s: exit %d (want %d), stderr %q (want it to contain %q)",
			phase, strings.Join(args, " "), exit, wantExit, stderr.String(), wantErr)
	}
	res.Events = out.n // bytes written to stdout, shown in the note column
	return res, nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// writeLongLine writes a generic payload whose second line, `a="xxx..."`,
// is size bytes long.
func writeLongLine(file string, size int64) error {
	return writeFill(file, "GCF profile=generic\na=\"", "\"\nb=1\n", size)
}

// writeLongString writes a JSON array holding one record whose string
// member is size bytes long.
func writeLongString(file string, size int64) error {
	return writeFill(file, `[{"id":1,"s":"`, "\"}]\n", size)
}

// writeFill writes head, size bytes of 'x' and tail.
func writeFill(file, head, tail string, size int64) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(head)
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for left := size; left > 0; left -= int64(len(chunk)) {
		w.Write(chunk[:min(int64(len(chunk)), left)])
	}
	w.WriteString(tail)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cliPhases runs the CLI runs over the graph and table streams already
// written (files) and the two hostile inputs of the given size.
func cliPhases(files map[string]string, counts map[string]int64, size int64) ([]*result, error) {
	bin, err := buildCLI(*dirFlag)
	if err != nil {
		return nil, err
	}
	defer os.Remove(bin)
	maxElems := strconv.Itoa(*maxElemsFlag)
	var results []*result
	add := func(r *result, err error) error {
		if err != nil {
			return err
		}
		results = append(results, r)
		return nil
	}
	for _, profile := range []string{"graph", "table"} {
		file := files[profile]
		st, err := os.Stat(file)
		if err != nil {
			return nil, err
		}
		if err := add(cliRun("cli-validate-"+profile, bin, 0, "", counts[profile], st.Size(),
			"validate", "-max-elements", maxElems, file)); err != nil {
			return nil, err
		}
		if err := add(cliRun("cli-decode-"+profile, bin, 0, "", counts[profile], st.Size(),
			"decode", "-max-elements", maxElems, file)); err != nil {
			return nil, err
		}
		if profile == "table" {
			if err := add(cliRun("cli-ndjson-table", bin, 0, "", counts[profile], st.Size(),
				"decode", "-ndjson", "-max-elements", maxElems, file)); err != nil {
				return nil, err
			}
		}
	}
	long := filepath.Join(*dirFlag, fmt.Sprintf("gcf-scale-%d-longline.gcf", os.Getpid()))
	defer os.Remove(long)
	if err := writeLongLine(long, size); err != nil {
		return nil, err
	}
	for _, cmd := range []string{"decode", "validate"} {
		if err := add(cliRun("cli-"+cmd+"-longline", bin, 1, "line_too_long", 0, size+25, cmd, long)); err != nil {
			return nil, err
		}
	}
	os.Remove(long)
	str := filepath.Join(*dirFlag, fmt.Sprintf("gcf-scale-%d-longstring.json", os.Getpid()))
	defer os.Remove(str)
	if err := writeLongString(str, size); err != nil {
		return nil, err
	}
	if err := add(cliRun("cli-encode-longstring", bin, 1, "line", 0, size+18, "encode", "-stream", str)); err != nil {
		return nil, err
	}
	return results, nil
}

// parseJSONKeys is the parsejson-keys phase: one JSON object with n
// members, parsed by gcf.ParseJSON (whose duplicate-key check must be
// linear in n).
func parseJSONKeys(n int, res *result) error {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteByte('}')
	res.Bytes = int64(b.Len())
	start := time.Now()
	v, err := gcf.ParseJSON(b.Bytes())
	if err != nil {
		return err
	}
	if o, ok := v.(gcf.Object); !ok || len(o) != n {
		return fmt.Errorf("parsed %T, want an object of %d members", v, n)
	}
	res.Records = int64(n)
	res.Seconds = time.Since(start).Seconds() // parse only, not the generation
	return nil
}
