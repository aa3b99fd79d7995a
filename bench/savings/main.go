// Command savings measures the token saving of spec v3.6.0's constant
// columns (§7.4.7: a column with one value in every record is written once,
// in the field declaration). For every JSON document of testdata/corpus and
// every JSON and CSV file of the vega-datasets npm package (real public
// data; present once `npm ci` has run in cmd/gcf/testdata/mcp-servers, as
// .ci/run does), it counts the o200k_base tokens of canonical GCF written at
// spec v3.5.3 (gcf.WithSpec(gcf.Spec353)) and at v3.6.0 (the default), and
// of the Smallest size (gcf.WithSize(gcf.Smallest), priced in the same
// tokens) at both, and prints one markdown table (docs/v3.6.md).
//
//	go -C bench/savings run .                        # from the repository root
//	go -C bench/savings run . -vega DIR -max-bytes 2000000
//
// Every encoding is decoded back and compared with its document; a
// difference, or a v3.5.3 encoding that declares a constant, stops it with
// an error. It is its own module so that the tokenizer's vocabulary stays
// out of the library's builds.
package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/stream"
	"github.com/gcfkit/gcf/tokens"
)

func main() {
	corpus := flag.String("corpus", "", "directory of JSON documents (default: testdata/corpus of the repository)")
	vega := flag.String("vega", "", "the vega-datasets data directory (default: cmd/gcf/testdata/mcp-servers/node_modules/vega-datasets/data of the repository; skipped, saying so, when absent)")
	maxBytes := flag.Int64("max-bytes", 1<<20, "skip, listing them, files larger than this many bytes")
	smallest := flag.Bool("smallest", true, "also measure the Smallest size (slower)")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	if *corpus == "" {
		*corpus = filepath.Join(root, "testdata", "corpus")
	}
	if *vega == "" {
		*vega = filepath.Join(root, "cmd", "gcf", "testdata", "mcp-servers", "node_modules", "vega-datasets", "data")
	}
	docs, notes, err := collect(*corpus, *vega, *maxBytes)
	if err != nil {
		fail(err)
	}
	text, err := table(docs, *smallest)
	if err != nil {
		fail(err)
	}
	fmt.Print(text)
	for _, n := range notes {
		fmt.Println()
		fmt.Println(n)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "savings:", err)
	os.Exit(1)
}

// doc is one measured document.
type doc struct {
	name string
	v    any
}

// collect reads the corpus's JSON files and vega's JSON and CSV files (CSV
// as `gcf encode -from csv` reads it: a header row naming the fields of the
// records that follow, every value a string). notes say what was skipped.
func collect(corpus, vega string, maxBytes int64) ([]doc, []string, error) {
	var docs []doc
	var notes, big []string
	add := func(prefix, dir string, exts ...string) error {
		var names []string
		for _, ext := range exts {
			m, err := filepath.Glob(filepath.Join(dir, "*"+ext))
			if err != nil {
				return err
			}
			names = append(names, m...)
		}
		sort.Strings(names)
		for _, p := range names {
			fi, err := os.Stat(p)
			if err != nil {
				return err
			}
			base := filepath.Base(p)
			if fi.Size() > maxBytes {
				big = append(big, prefix+base)
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var v any
			if strings.HasSuffix(p, ".csv") {
				v, err = csvRecords(data)
			} else {
				v, err = gcf.ParseJSON(data)
			}
			if err != nil {
				return fmt.Errorf("%s: %v", p, err)
			}
			docs = append(docs, doc{name: prefix + base, v: v})
		}
		return nil
	}
	if err := add("corpus/", corpus, ".json"); err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(vega); err != nil {
		notes = append(notes, "vega-datasets: not measured, "+vega+" is absent (run npm ci in cmd/gcf/testdata/mcp-servers, or pass -vega DIR).")
	} else if err := add("vega/", vega, ".json", ".csv"); err != nil {
		return nil, nil, err
	}
	if len(big) > 0 {
		notes = append(notes, "Skipped, larger than -max-bytes: "+strings.Join(big, ", ")+".")
	}
	return docs, notes, nil
}

// csvRecords reads CSV text as records of strings, fields named by the
// header row.
func csvRecords(data []byte) (any, error) {
	r := csv.NewReader(bytes.NewReader(data))
	head, err := r.Read()
	if err != nil {
		return nil, err
	}
	recs := []any{}
	for {
		row, err := r.Read()
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return nil, err
		}
		o := make(gcf.Object, len(head))
		for i, f := range head {
			o[i] = gcf.Member{Key: f, Value: row[i]}
		}
		recs = append(recs, o)
	}
}

// measure is the token counts of one document.
type measure struct {
	json, old, cur, smallOld, smallCur, factored int
}

// table measures docs and returns the markdown table.
func table(docs []doc, smallest bool) (string, error) {
	counter, err := tokens.New(tokens.O200kBase)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| document | minified JSON | GCF v3.5.3 | GCF v3.6.0 | change | tables factored |")
	if smallest {
		b.WriteString(" Smallest v3.5.3 | Smallest v3.6.0 | change |")
	}
	b.WriteString("\n|---|---:|---:|---:|---:|---:|")
	if smallest {
		b.WriteString("---:|---:|---:|")
	}
	b.WriteString("\n")
	var tot measure
	for _, d := range docs {
		m, err := measureDoc(d, counter, smallest)
		if err != nil {
			return "", fmt.Errorf("%s: %v", d.name, err)
		}
		row(&b, d.name, m, smallest)
		tot.json += m.json
		tot.old += m.old
		tot.cur += m.cur
		tot.smallOld += m.smallOld
		tot.smallCur += m.smallCur
		tot.factored += m.factored
	}
	row(&b, "**total, "+strconv.Itoa(len(docs))+" documents**", tot, smallest)
	return b.String(), nil
}

func row(b *strings.Builder, name string, m measure, smallest bool) {
	fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %d |", name, thousands(m.json), thousands(m.old), thousands(m.cur), change(m.cur, m.old), m.factored)
	if smallest {
		fmt.Fprintf(b, " %s | %s | %s |", thousands(m.smallOld), thousands(m.smallCur), change(m.smallCur, m.smallOld))
	}
	b.WriteString("\n")
}

// measureDoc encodes d four ways, checks that each decodes back to it and
// that the v3.5.3 ones declare no constant, and counts their tokens.
func measureDoc(d doc, counter *tokens.Counter, smallest bool) (measure, error) {
	var m measure
	js, err := gcf.ToJSON(d.v)
	if err != nil {
		return m, err
	}
	m.json = counter.CountBytes(js)
	enc := func(dst *int, old bool, opts ...gcf.Option) error {
		if old {
			opts = append(opts, gcf.WithSpec(gcf.Spec353))
		}
		out, err := gcf.EncodeGeneric(d.v, opts...)
		if err != nil {
			return err
		}
		back, err := gcf.DecodeGeneric(out)
		if err != nil {
			return fmt.Errorf("decode of our encoding: %v", err)
		}
		if !same(d.v, back) {
			return errors.New("our encoding does not decode to the document")
		}
		n := tables(out)
		if old && n > 0 {
			return errors.New("the v3.5.3 encoding declares a constant column")
		}
		if !old && len(opts) == 0 {
			m.factored = n
		}
		*dst = counter.CountBytes(out)
		return nil
	}
	if err := enc(&m.old, true); err != nil {
		return m, err
	}
	if err := enc(&m.cur, false); err != nil {
		return m, err
	}
	if smallest {
		small := []gcf.Option{gcf.WithSize(gcf.Smallest), gcf.WithCost(counter.Count)}
		if err := enc(&m.smallOld, true, small...); err != nil {
			return m, err
		}
		if err := enc(&m.smallCur, false, small...); err != nil {
			return m, err
		}
	}
	return m, nil
}

// tables counts the tables of a GCF text that declare a constant column.
func tables(text []byte) int {
	d := stream.NewBytesDecoder(text, stream.Limits{})
	n := 0
	for {
		ev, err := d.Next()
		if err != nil {
			return n
		}
		if len(ev.Consts) > 0 {
			n++
		}
	}
}

// same compares two values of the generic model, object members unordered
// (a table row decodes in field-union order, SPEC §7.4.3), numbers by value
// (1.0 is written 1 and read back an integer).
func same(a, b any) bool {
	switch x := a.(type) {
	case gcf.Object:
		y, ok := b.(gcf.Object)
		if !ok || len(x) != len(y) {
			return false
		}
		for _, m := range x {
			found := false
			for _, n := range y {
				if n.Key == m.Key {
					found = same(m.Value, n.Value)
					break
				}
			}
			if !found {
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
			if !same(x[i], y[i]) {
				return false
			}
		}
		return true
	case int64:
		if y, ok := b.(int64); ok {
			return x == y
		}
		y, ok := b.(float64)
		return ok && float64(x) == y
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int64:
			return x == float64(y)
		}
		return false
	}
	return a == b
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// change is (x-base)/base as a signed percentage with one decimal.
func change(x, base int) string {
	if base == 0 {
		return "-"
	}
	p := 100 * float64(x-base) / float64(base)
	s := strconv.FormatFloat(p, 'f', 1, 64)
	switch {
	case s == "0.0" || s == "-0.0":
		return "0.0%"
	case p < 0:
		return "−" + s[1:] + "%"
	}
	return "+" + s + "%"
}

// repoRoot is the directory of the library's go.mod at or above the
// working directory.
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
