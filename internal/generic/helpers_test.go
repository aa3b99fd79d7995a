package generic

// Test-only copies of the root package's names and test helpers that the
// tests moved here with the code they test use (the root's gcf_test names
// cannot be imported here: the root imports this package).

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/graph"
	"github.com/gcfkit/gcf/internal/options"
	"github.com/gcfkit/gcf/lexer"
)

// The root's options (gcf.go), as the tests here call them.
func WithLimits(l Limits) Option { return func(c *options.Config) { c.Limits = l } }
func WithMaxDepth(n int) Option  { return func(c *options.Config) { c.Limits.MaxDepth = n } }
func WithMaxLineBytes(n int) Option {
	return func(c *options.Config) { c.Limits.MaxLineBytes = n }
}
func WithMaxElements(n int) Option { return func(c *options.Config) { c.Limits.MaxElements = n } }
func WithMaxFields(n int) Option   { return func(c *options.Config) { c.Limits.MaxFields = n } }
func WithMaxBytes(n int64) Option  { return func(c *options.Config) { c.Limits.MaxBytes = n } }
func WithRequireSummary() Option   { return func(c *options.Config) { c.Limits.RequireSummary = true } }
func WithSpec(s Spec) Option       { return func(c *options.Config) { c.Spec = s } }
func GroupBy(key, column string) Option {
	return func(c *options.Config) { c.Group = options.GroupBy{Key: key, Column: column, On: true} }
}

// Marshal is the root's Marshal.
func Marshal(v any) ([]byte, error) { return EncodeGeneric(v) }

type (
	Spec         = options.Spec
	Category     = lexer.Category
	DeltaPayload = graph.DeltaPayload
)

// The error categories the tests here name.
const (
	InvalidGroupHeader = lexer.InvalidGroupHeader
	LineTooLong        = lexer.LineTooLong
	TooManyElements    = lexer.TooManyElements
	TooManyFields      = lexer.TooManyFields
	PayloadTooLarge    = lexer.PayloadTooLarge
	DepthExceeded      = lexer.DepthExceeded
	DuplicateKey       = lexer.DuplicateKey
	UnsupportedValue   = lexer.UnsupportedValue
	OutOfRange         = lexer.OutOfRange
	InvalidSurrogate   = lexer.InvalidSurrogate
	DuplicateGroup     = lexer.DuplicateGroup
)

// The graph profile's entry points, as the root names them.
var (
	Encode            = graph.Encode
	Decode            = graph.Decode
	EncodeDelta       = graph.EncodeDelta
	NewSession        = graph.NewSession
	EncodeWithSession = graph.EncodeWithSession
)

// ---- the conformance fixtures (as in the root's conformance_test.go) ----

type fixture struct {
	Name          string          `json:"name"`
	Description   string          `json:"description"`
	Operation     string          `json:"operation"`
	Input         json.RawMessage `json:"input"`
	InputBase64   string          `json:"inputBase64"`
	Expected      json.RawMessage `json:"expected"`
	ExpectedError string          `json:"expectedError"`
	Options       json.RawMessage `json:"options"`
	path          string
	raw           []byte
}

func loadFixtures(t *testing.T, dir string) []fixture {
	return loadJSON(t, dir, func(f *fixture, path string, raw []byte) { f.path, f.raw = path, raw })
}

// loadJSON decodes every .json file under dir into a T, in the order of
// their paths relative to dir; set gives each one its path and bytes.
func loadJSON[T any](t *testing.T, dir string, set func(f *T, path string, raw []byte)) []T {
	type item struct {
		path string
		f    T
	}
	var items []item
	err := filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var it item
		if err := json.Unmarshal(data, &it.f); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		it.path, _ = filepath.Rel(dir, p)
		set(&it.f, it.path, data)
		items = append(items, it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].path < items[j].path })
	out := make([]T, len(items))
	for i := range items {
		out[i] = items[i].f
	}
	return out
}

// outcome is what became of one fixture's subtest.
// ---- JSON comparison (as in the root's conformance_test.go) ----

func mustJSON(v any) string {
	b, err := ToJSON(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

// jsonEqual is structural JSON equality: same types, same members (in any
// order), same array order, numbers equal by value.
func jsonEqual(a, b any) bool { return jsonEq(a, b, false) }

// jsonEqualOrdered is jsonEqual that also requires every object's members
// in the same order.
func jsonEqualOrdered(a, b any) bool { return jsonEq(a, b, true) }

func jsonEq(a, b any, ordered bool) bool {
	switch x := a.(type) {
	case Object:
		y, ok := b.(Object)
		if !ok || len(x) != len(y) {
			return false
		}
		for i, m := range x {
			v, ok := y.Get(m.Key)
			if ordered {
				v, ok = y[i].Value, y[i].Key == m.Key
			}
			if !ok || !jsonEq(m.Value, v, ordered) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEq(x[i], y[i], ordered) {
				return false
			}
		}
		return true
	case int64, float64:
		fa, oka := number(a)
		fb, okb := number(b)
		if !oka || !okb {
			return false
		}
		if ia, ok := a.(int64); ok {
			if ib, ok := b.(int64); ok {
				return ia == ib
			}
		}
		return fa == fb
	default:
		return a == b
	}
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	}
	return 0, false
}
