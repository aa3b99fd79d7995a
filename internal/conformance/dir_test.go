package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindEnv(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repoRoot %s holds no go.mod", root)
	}

	// A relative value is taken from the repository root, not from the
	// package directory the test runs in (internal/conformance here).
	t.Setenv(EnvVar, "internal")
	if dir, err := Find(); err != nil || dir != filepath.Join(root, "internal") {
		t.Errorf("relative: got %q, %v; want %s", dir, err, filepath.Join(root, "internal"))
	}
	abs := t.TempDir()
	t.Setenv(EnvVar, abs)
	if dir, err := Find(); err != nil || dir != abs {
		t.Errorf("absolute: got %q, %v", dir, err)
	}

	// Set but absent, or not a directory: an error, never a silent skip.
	for _, bad := range []string{filepath.Join(abs, "missing"), "go.mod"} {
		t.Setenv(EnvVar, bad)
		if dir, err := Find(); err == nil || dir != "" || !strings.Contains(err.Error(), EnvVar) {
			t.Errorf("%s: got %q, %v; want an error naming %s", bad, dir, err, EnvVar)
		}
	}
}
