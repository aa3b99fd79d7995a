//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// -o through a symbolic link writes the link's target (atomically, through
// a temporary file next to the target) and leaves the link a link; a
// dangling link is written through, as a shell redirection does.
func TestOutputThroughSymlink(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	target := writeFile(t, other, "target.gcf", "old\n")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.gcf")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, `{"a":1}`, "encode", "-q", "-o", link); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "GCF profile=generic\na=1\n" {
		t.Fatalf("target holds %q", b)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("target's mode %v, want 0600 kept", st.Mode().Perm())
	}
	assertOnly(t, other, "target.gcf")
	// A relative, dangling link: the target is created next to the link.
	dangling := filepath.Join(dir, "dangling.gcf")
	if err := os.Symlink("made.gcf", dangling); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, `{"b":2}`, "encode", "-q", "-o", dangling); code != 0 {
		t.Fatalf("dangling: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.gcf")); string(b) != "GCF profile=generic\nb=2\n" {
		t.Fatalf("dangling link's target holds %q", b)
	}
	assertOnly(t, dir, "dangling.gcf", "link.gcf", "made.gcf")
	// A failure leaves the target as it was.
	if _, _, code := runCLI(t, `{"a":`, "encode", "-o", link); code != exitInvalid {
		t.Fatalf("exit %d", code)
	}
	if b, _ := os.ReadFile(target); string(b) != "GCF profile=generic\na=1\n" {
		t.Fatalf("target changed on failure: %q", b)
	}
	assertOnly(t, other, "target.gcf")
}

// -o to a FIFO writes into the FIFO, which stays a FIFO.
func TestOutputToFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if _, stderr, code := runCLI(t, `{"a":1}`, "encode", "-q", "-o", fifo); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
	select {
	case s := <-got:
		if s != "GCF profile=generic\na=1\n" {
			t.Fatalf("the FIFO's reader got %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was written to the FIFO")
	}
	assertOnly(t, dir, "pipe")
}

// -o to a character device (/dev/null, directly or through a link) writes
// to the device and leaves it, and the link, in place.
func TestOutputToDevice(t *testing.T) {
	null, err := os.Stat(os.DevNull)
	if err != nil || null.Mode()&os.ModeCharDevice == 0 {
		t.Skipf("no %s character device: %v", os.DevNull, err)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "null")
	if err := os.Symlink(os.DevNull, link); err != nil {
		t.Fatal(err)
	}
	for _, dest := range []string{link, os.DevNull} {
		for _, args := range [][]string{{"encode", "-q", "-o", dest}, {"encode", "-stream", "-q", "-o", dest}} {
			if _, stderr, code := runCLI(t, `[{"a":1}]`, args...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
		}
		if _, stderr, code := runCLI(t, "GCF profile=generic\na=1\n", "decode", "-o", dest); code != 0 {
			t.Fatalf("decode -o %s: exit %d: %s", dest, code, stderr)
		}
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link to %s was replaced: %v %v", os.DevNull, st.Mode(), err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || !os.SameFile(st, null) {
		t.Fatalf("%s was replaced", os.DevNull)
	}
	assertOnly(t, dir, "null")
}

// cliProcess runs gcf in a child process (the test binary, through
// TestCLIProcess) with the arguments after "--".
func cliProcess(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestCLIProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "GCF_CLI_PROCESS=1")
	return cmd
}

// TestCLIProcess is the child of cliProcess: gcf itself.
func TestCLIProcess(t *testing.T) {
	if os.Getenv("GCF_CLI_PROCESS") != "1" {
		t.Skip("the child process of cliProcess, not a test")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}

// -o /proc/self/fd/1 writes to the process's stdout.
func TestOutputToProcSelfFd(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	cmd := cliProcess(t, "encode", "-q", "-o", "/proc/self/fd/1")
	cmd.Stdin = strings.NewReader(`{"a":1}`)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || out.String() != "GCF profile=generic\na=1\n" {
		t.Fatalf("%v: stdout %q, stderr %q", err, out.String(), errb.String())
	}
}

// SIGINT or SIGTERM while -o is being written removes the temporary file
// and leaves the destination as it was.
func TestOutputSignalRemovesTemporaryFile(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		dest := writeFile(t, dir, "rows.gcf", "previous\n")
		cmd := cliProcess(t, "encode", "-stream", "-q", "-o", dest)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(stdin, `{"id":1}`+"\n")
		// Wait for the temporary file (the child holds stdin open).
		deadline := time.Now().Add(30 * time.Second)
		for {
			entries, _ := os.ReadDir(dir)
			if len(entries) == 2 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("no temporary file appeared in %s: %s", dir, errb.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		cmd.Process.Signal(sig)
		err = cmd.Wait()
		stdin.Close()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 128+int(sig) {
			t.Errorf("%v: %v, want exit status %d", sig, err, 128+int(sig))
		}
		assertOnly(t, dir, "rows.gcf")
		if b, _ := os.ReadFile(dest); string(b) != "previous\n" {
			t.Errorf("%v: destination changed: %q", sig, b)
		}
	}
}
