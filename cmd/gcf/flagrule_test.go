package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// One flag rule for every command: flags may come before or after the
// file arguments, and "--" ends the flags.
func TestFlagsAfterFilesOnEveryCommand(t *testing.T) {
	dir := t.TempDir()
	js := writeFile(t, dir, "in.json", `{"a":1}`)
	g := writeFile(t, dir, "in.gcf", "GCF profile=generic\na=1\n")
	v1 := writeFile(t, dir, "v1.gcf", "a=1\n")
	oldPath := writeFile(t, dir, "old.json", oldOrders)
	newPath := writeFile(t, dir, "new.json", newOrders)
	deltaPath := writeFile(t, dir, "delta.gcf", ordersDelta)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args   []string
		stdout string // a prefix of stdout, "" for none
		file   string // what -o writes, when it is given
	}{
		{[]string{"encode", js, "-q"}, "GCF profile=generic\na=1\n", ""},
		{[]string{"encode", js, "-q", "-o", out}, "", "GCF profile=generic\na=1\n"},
		{[]string{"decode", g, "-indent"}, "{\n  \"a\": 1\n}\n", ""},
		{[]string{"decode", v1, "-wire", "v1"}, `{"a":1}`, ""},
		{[]string{"validate", g, "-json"}, "[]", ""},
		{[]string{"migrate", v1, "-o", out}, "", "GCF profile=generic\na=1\n"},
		{[]string{"diff", oldPath, newPath, "-key", "id"}, ordersDelta, ""},
		{[]string{"apply", oldPath, deltaPath, "-o", out}, "", newOrders + "\n"},
		{[]string{"stats", js, "-json"}, "[\n  {\n    \"file\": \"" + js, ""},
		{[]string{"help", "encode", "-h"}, "usage: gcf help", ""},
	} {
		os.Remove(out)
		stdout, stderr, code := runCLI(t, "", tc.args...)
		if code != 0 || !strings.HasPrefix(stdout, tc.stdout) || tc.stdout == "" && stdout != "" {
			t.Errorf("gcf %s: exit %d, stderr %q, stdout %q; want a stdout starting %q", strings.Join(tc.args, " "), code, stderr, stdout, tc.stdout)
			continue
		}
		if tc.file != "" {
			if b, err := os.ReadFile(out); err != nil || string(b) != tc.file {
				t.Errorf("gcf %s: -o wrote %q (%v), want %q", strings.Join(tc.args, " "), b, err, tc.file)
			}
		}
	}
	// After "--" everything is a file, even what looks like a flag.
	_, stderr, code := runCLI(t, "", "encode", "-q", "--", "-x")
	if code != exitIO || !strings.Contains(stderr, "-x") {
		t.Errorf("encode -- -x: exit %d, stderr %q; want the file -x not found", code, stderr)
	}
	// "-" is an argument (stdin), and flags may follow it.
	stdout, stderr, code := runCLI(t, `{"b":2}`, "encode", "-", "-q")
	if code != 0 || stderr != "" || stdout != "GCF profile=generic\nb=2\n" {
		t.Errorf("encode - -q: exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	// Two files are still two files, wherever the flags are.
	if _, _, code := runCLI(t, "", "encode", js, "-q", js); code != exitUsage {
		t.Errorf("encode FILE -q FILE: exit %d, want 2", code)
	}
}
