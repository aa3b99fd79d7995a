// Package conformance locates the shared conformance suite for the tests
// of every package: $GCF_CONFORMANCE_DIR, or ../shared/conformance beside
// the repository root. The fixtures are read in place, never copied.
package conformance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the variable that points at the suite; CI sets it.
const EnvVar = "GCF_CONFORMANCE_DIR"

// Find returns the suite's directory. A relative $GCF_CONFORMANCE_DIR is
// taken from the repository root (as .ci/run sets it), whatever package
// the test runs in. It returns an error when $GCF_CONFORMANCE_DIR is set and
// does not name a directory, and ("", nil) when it is unset and the default
// ../shared/conformance is absent.
func Find() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	if dir := os.Getenv(EnvVar); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return "", fmt.Errorf("%s=%q: %s is not a directory", EnvVar, os.Getenv(EnvVar), dir)
		}
		return dir, nil
	}
	dir := filepath.Join(root, "..", "shared", "conformance")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", nil
	}
	return dir, nil
}

// Dir returns the suite's directory for a test that needs it. The test
// fails when $GCF_CONFORMANCE_DIR is set but absent (CI must not pass
// without the suite) and is skipped, naming the missing path, when the
// variable is unset and ../shared/conformance is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := Find()
	if err != nil {
		tb.Fatal(err)
	}
	if dir == "" {
		root, _ := repoRoot()
		tb.Skipf("conformance suite not found at %s; set %s", filepath.Join(root, "..", "shared", "conformance"), EnvVar)
	}
	return dir
}

// repoRoot is the nearest directory at or above the working directory
// (a test's package directory) that holds go.mod.
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above " + wd)
		}
		dir = parent
	}
}

// WireEnvVar names the variable that points at the wire reference pack
// (GCB.md, cases/, golden/); by default ../shared/reference/wire beside the
// repository root.
const WireEnvVar = "GCF_WIRE_REFERENCE_DIR"

// WireDir returns the wire reference pack's directory for a test that needs
// it: $GCF_WIRE_REFERENCE_DIR (relative to the repository root) or
// ../shared/reference/wire. When the variable is set and the directory is
// absent the test fails; when it is unset and the default is absent the test
// is skipped, naming the path.
func WireDir(tb testing.TB) string {
	tb.Helper()
	root, err := repoRoot()
	if err != nil {
		tb.Fatal(err)
	}
	dir := os.Getenv(WireEnvVar)
	set := dir != ""
	if !set {
		dir = filepath.Join(root, "..", "shared", "reference", "wire")
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if set {
			tb.Fatalf("%s=%q: %s is not a directory", WireEnvVar, os.Getenv(WireEnvVar), dir)
		}
		tb.Skipf("wire reference pack not found at %s; set %s", dir, WireEnvVar)
	}
	return dir
}
