// Command wire-format regenerates scorecard.md: bytes and real-tokenizer
// token counts of the product's six benchmark cases in JSON, GCF, GCB1 and
// GCB version 2, with savings, medians, the product's published figures
// and each codec's round-trip fidelity.
//
//	go -C bench/wire-format run .          # from the repository root: rewrite scorecard.md
//	go -C bench/wire-format run . -check   # exit 1 when scorecard.md is out of date
//
// It is its own module so that its YAML dependency stays out of the
// library's module graph.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gcfkit/gcf/tokens"
)

func main() {
	cases := flag.String("cases", "", "directory of the *.yaml cases (default: ../shared/reference/wire/cases beside the repository root)")
	out := flag.String("o", "", "scorecard to write (default: scorecard.md in this module's directory)")
	check := flag.Bool("check", false, "do not write: exit 1 when the scorecard differs from what it would be")
	flag.Parse()
	if err := run(*cases, *out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "wire-format:", err)
		os.Exit(1)
	}
}

func run(casesDir, out string, check bool) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	if casesDir == "" {
		casesDir = filepath.Join(root, "..", "shared", "reference", "wire", "cases")
	}
	if out == "" {
		out = filepath.Join(root, "bench", "wire-format", "scorecard.md")
	}
	text, err := generate(casesDir)
	if err != nil {
		return err
	}
	if check {
		old, err := os.ReadFile(out)
		if err != nil {
			return err
		}
		if !bytes.Equal(old, []byte(text)) {
			return fmt.Errorf("%s is out of date (regenerate it with: go -C bench/wire-format run .)", out)
		}
		fmt.Println("wire-format: scorecard.md is up to date")
		return nil
	}
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		return err
	}
	fmt.Println("wire-format: wrote", out)
	return nil
}

// generate measures every case and renders the scorecard.
func generate(casesDir string) (string, error) {
	cs, err := loadCases(casesDir)
	if err != nil {
		return "", err
	}
	o, err := tokens.New(tokens.O200kBase)
	if err != nil {
		return "", err
	}
	cl, err := tokens.New(tokens.Cl100kBase)
	if err != nil {
		return "", err
	}
	var results []*caseResult
	for _, c := range cs {
		r, err := runCase(c, o, cl)
		if err != nil {
			return "", err
		}
		results = append(results, r)
	}
	return scorecard(results), nil
}

// repoRoot is the nearest directory at or above the working directory
// whose go.mod is the library's (this module's go.mod is skipped).
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/gcfkit/gcf\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("the repository root (go.mod of github.com/gcfkit/gcf) is not at or above " + wd)
		}
		dir = parent
	}
}
