package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/gcfkit/gcf"
)

// specFlag is the -spec flag: the spec version generic output is written
// in (gcf.WithSpec).
type specFlag struct{ value string }

func (s *specFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&s.value, "spec", string(gcf.Spec36), "`version` of the spec the generic output follows: 3.6.0 (the default; constant columns are factored) or 3.5.3 (no v3.6-only forms, for readers that predate v3.6 such as the reference TypeScript SDK 2.x)")
}

// check reports an unknown version.
func (s *specFlag) check() error {
	switch gcf.Spec(s.value) {
	case gcf.Spec36, gcf.Spec353:
		return nil
	}
	return fmt.Errorf("-spec: unknown version %q (3.6.0 or 3.5.3)", s.value)
}

// options returns the encoder option of the version.
func (s *specFlag) options() []gcf.Option { return []gcf.Option{gcf.WithSpec(gcf.Spec(s.value))} }

// parseGroupBy reads the -group-by value KEY,COLUMN: two field names,
// neither empty, that differ (a name holding a comma cannot be given).
func parseGroupBy(v string) (key, column string, err error) {
	key, column, ok := strings.Cut(v, ",")
	switch {
	case !ok || key == "" || column == "" || strings.Contains(column, ","):
		return "", "", fmt.Errorf("-group-by %q: want KEY,COLUMN, two field names", v)
	case key == column:
		return "", "", fmt.Errorf("-group-by %q: the key and the group column must differ", v)
	}
	return key, column, nil
}
