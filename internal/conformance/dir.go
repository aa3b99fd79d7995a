// Package conformance locates the shared conformance suites for the tests
// of every package: $GCF_CONFORMANCE_DIR, or ../shared/conformance beside
// the repository root, for v3.5.3; $GCF_CONFORMANCE_V36_DIR, or
// ../shared/reference/v3.6/conformance, for the fixtures spec v3.6.0 adds;
// $GCF_CONFORMANCE_V1_DIR, or ../shared/conformance-v1, for the legacy v1.x wire. The fixtures are read
// in place, never copied.
package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the variable that points at the suite; CI sets it.
const EnvVar = "GCF_CONFORMANCE_DIR"

// EnvVarV1 names the variable that points at the legacy v1 suite.
const EnvVarV1 = "GCF_CONFORMANCE_V1_DIR"

// EnvVarV36 names the variable that points at the spec v3.6.0 fixtures
// (constant columns, value-grouping), which sit beside the v3.5.3 suite.
const EnvVarV36 = "GCF_CONFORMANCE_V36_DIR"

// Find returns the suite's directory. A relative $GCF_CONFORMANCE_DIR is
// taken from the repository root (as .ci/run sets it), whatever package
// the test runs in. It returns an error when $GCF_CONFORMANCE_DIR is set and
// does not name a directory, and ("", nil) when it is unset and the default
// ../shared/conformance is absent.
func Find() (string, error) { return find(EnvVar, "conformance") }

// FindV1 is Find for the legacy v1 suite: $GCF_CONFORMANCE_V1_DIR or
// ../shared/conformance-v1.
func FindV1() (string, error) { return find(EnvVarV1, "conformance-v1") }

// FindV36 is Find for the v3.6.0 fixtures: $GCF_CONFORMANCE_V36_DIR or
// ../shared/reference/v3.6/conformance.
func FindV36() (string, error) { return find(EnvVarV36, v36Path) }

const v36Path = "reference/v3.6/conformance"

func find(envVar, name string) (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	if dir := os.Getenv(envVar); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return "", fmt.Errorf("%s=%q: %s is not a directory", envVar, os.Getenv(envVar), dir)
		}
		return dir, nil
	}
	dir := filepath.Join(root, "..", "shared", name)
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
	return dirOf(tb, Find, EnvVar, "conformance")
}

// DirV1 is Dir for the legacy v1 suite ($GCF_CONFORMANCE_V1_DIR or
// ../shared/conformance-v1).
func DirV1(tb testing.TB) string {
	tb.Helper()
	return dirOf(tb, FindV1, EnvVarV1, "conformance-v1")
}

// DirV36 is Dir for the v3.6.0 fixtures ($GCF_CONFORMANCE_V36_DIR or
// ../shared/reference/v3.6/conformance).
func DirV36(tb testing.TB) string {
	tb.Helper()
	return dirOf(tb, FindV36, EnvVarV36, v36Path)
}

func dirOf(tb testing.TB, find func() (string, error), envVar, name string) string {
	tb.Helper()
	dir, err := find()
	if err != nil {
		tb.Fatal(err)
	}
	if dir == "" {
		root, _ := repoRoot()
		tb.Skipf("conformance suite not found at %s; set %s", filepath.Join(root, "..", "shared", name), envVar)
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

// V1Payloads returns every GCF payload the legacy v1 suite carries: the
// string inputs and expected outputs of its fixtures and the expected
// output of each session call, in file order. It returns (nil, nil) when
// the suite is absent and $GCF_CONFORMANCE_V1_DIR is unset.
func V1Payloads() ([][]byte, error) {
	dir, err := FindV1()
	if err != nil || dir == "" {
		return nil, err
	}
	var out [][]byte
	err = filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || filepath.Ext(p) != ".json" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var f struct {
			Input, Expected json.RawMessage
			Calls           []struct{ Expected string }
		}
		if err := json.Unmarshal(data, &f); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		for _, raw := range []json.RawMessage{f.Input, f.Expected} {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				out = append(out, []byte(s))
			}
		}
		for _, c := range f.Calls {
			out = append(out, []byte(c.Expected))
		}
		return nil
	})
	return out, err
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
