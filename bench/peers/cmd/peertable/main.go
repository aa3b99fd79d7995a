// Command peertable turns the output of the peers benchmarks (go test
// -bench . -count N) into the markdown table of docs/benchmarks.md: the
// median µs/op (and allocs/op) of every library per dataset and op, and the ratio peer
// time / gcf time for every peer (above 1 means gcf is faster).
//
//	go test -run '^$' -bench . -count 5 -benchmem | tee peers.txt
//	go run ./cmd/peertable < peers.txt
//	go run ./cmd/peertable -metric cpu-ns/op < peers.txt
//
// -metric picks the time measure: ns/op (wall time, the default) or
// cpu-ns/op (the process's CPU time per op, steadier on a shared machine).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

var libs = []string{"gcf", "json", "jsonv2", "goccy", "sonic"}

type cell struct{ ns, allocs []float64 }

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	metric := flag.String("metric", "ns/op", "the time measure: ns/op or cpu-ns/op")
	flag.Parse()
	cells := map[string]*cell{} // "Dataset/Op/Lib"
	var rows []string           // "Dataset/Op" in first-seen order
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkPeers/") {
			continue
		}
		name := strings.TrimPrefix(f[0], "BenchmarkPeers/")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i] // the GOMAXPROCS suffix
		}
		parts := strings.Split(name, "/")
		if len(parts) != 3 {
			continue
		}
		c := cells[name]
		if c == nil {
			c = &cell{}
			cells[name] = c
			if row := parts[0] + "/" + parts[1]; !slices.Contains(rows, row) {
				rows = append(rows, row)
			}
		}
		for i := 2; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case *metric:
				c.ns = append(c.ns, v)
			case "allocs/op":
				c.allocs = append(c.allocs, v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "peertable:", err)
		os.Exit(1)
	}
	fmt.Println("| Dataset/Op | gcf | json | jsonv2 | goccy | sonic | json/gcf | jsonv2/gcf | goccy/gcf | sonic/gcf |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, row := range rows {
		g := median(cellOf(cells, row, "gcf").ns)
		line := "| " + row
		for _, lib := range libs {
			c := cellOf(cells, row, lib)
			if len(c.ns) == 0 {
				line += " | -"
				continue
			}
			line += fmt.Sprintf(" | %s (%s)", comma(median(c.ns)/1000), comma(median(c.allocs)))
		}
		for _, lib := range libs[1:] {
			c := cellOf(cells, row, lib)
			if len(c.ns) == 0 || g == 0 {
				line += " | -"
				continue
			}
			line += fmt.Sprintf(" | %.2fx", median(c.ns)/g)
		}
		fmt.Println(line + " |")
	}
}

func cellOf(cells map[string]*cell, row, lib string) *cell {
	if c := cells[row+"/"+lib]; c != nil {
		return c
	}
	return &cell{}
}

// comma formats x rounded to an integer with thousands separators.
func comma(x float64) string {
	s := strconv.FormatInt(int64(x+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
