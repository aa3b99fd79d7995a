package bench

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/transcode"
)

// Memory of `gcf encode` on a 48 MiB JSON array of records (issue 26):
// BenchmarkEncodeMemory runs the CLI as a subprocess on a file of
// encodeMemRecords records, each a few scalar fields and a `tags` array of
// 2-4 strings (seed 26), and reports the process's peak RSS (the kernel's
// ru_maxrss, read by a small runner process: see rssRunner) as rss/input
// and MiB:
//
//   - Transcoded: `gcf encode FILE` (transcode.EncodeJSONFrom, two reads
//     of the file);
//   - Stdin: `gcf encode < FILE` (the input in memory, transcode.EncodeJSON);
//   - Buffered: `gcf encode -buffered FILE` (ParseJSON, then EncodeGeneric:
//     the path before the transcoder).
//
// BenchmarkEncodeJSONFile times the two library paths on the same bytes.

const encodeMemRecords = 380_000

var (
	encodeMemOnce sync.Once
	encodeMemData []byte
)

// encodeMemJSON returns the benchmark's JSON text, generated once.
func encodeMemJSON() []byte {
	encodeMemOnce.Do(func() {
		rng := rand.New(rand.NewSource(26))
		words := []string{"alpha", "beta", "gamma", "delta", "urgent", "backend", "frontend", "infra", "billing", "search", "mobile", "docs"}
		cities := []string{"Amsterdam", "Berlin", "Lisbon", "Oslo", "Paris", "Vienna"}
		var b bytes.Buffer
		b.WriteString("[\n")
		for i := 0; i < encodeMemRecords; i++ {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `  {"id": %d, "name": "user %d", "city": %q, "score": %.2f, "active": %t, "tags": [`,
				i+1, i, cities[rng.Intn(len(cities))], rng.Float64()*100, rng.Intn(3) > 0)
			for j, n := 0, 2+rng.Intn(3); j < n; j++ {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%q", words[rng.Intn(len(words))])
			}
			b.WriteString("]}")
		}
		b.WriteString("\n]\n")
		encodeMemData = b.Bytes()
	})
	return encodeMemData
}

// buildGCF builds cmd/gcf into dir and returns the binary's path.
func buildGCF(b *testing.B, dir string) string {
	bin := filepath.Join(dir, "gcf")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "cmd", "gcf")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build cmd/gcf: %v\n%s", err, out)
	}
	return bin
}

// rssRunner is a program that runs its arguments as a command and prints
// the command's peak RSS in bytes. The benchmark measures through it
// because on Linux a child's ru_maxrss counts the RSS of the process that
// started it, up to its exec (the kernel keeps the old address space's
// high-water mark, and Go starts commands with vfork): the runner is a
// few MiB, the test process holding the 48 MiB input is not.
const rssRunner = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

func main() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if runtime.GOOS == "linux" {
		rss <<= 10 // KiB
	}
	fmt.Println(rss)
}
`

// buildRunner builds rssRunner into dir and returns the binary's path.
func buildRunner(b *testing.B, dir string) string {
	src := filepath.Join(dir, "rssrun")
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module rssrun\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte(rssRunner), 0o644)
	bin := filepath.Join(dir, "rssrun.bin")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build rssrun: %v\n%s", err, out)
	}
	return bin
}

func BenchmarkEncodeMemory(b *testing.B) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		b.Skip("peak RSS is read from ru_maxrss, on Linux and macOS only")
	}
	dir := b.TempDir()
	bin := buildGCF(b, dir)
	runner := buildRunner(b, dir)
	data := encodeMemJSON()
	in := filepath.Join(dir, "records.json")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		stdin bool
	}{
		{"Transcoded", []string{"encode", "-q", "-o", filepath.Join(dir, "out.gcf"), in}, false},
		{"Stdin", []string{"encode", "-q", "-o", filepath.Join(dir, "out.gcf")}, true},
		{"Buffered", []string{"encode", "-q", "-buffered", "-o", filepath.Join(dir, "out.gcf"), in}, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			var peak int64
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(runner, append([]string{bin}, c.args...)...)
				if c.stdin {
					f, err := os.Open(in)
					if err != nil {
						b.Fatal(err)
					}
					defer f.Close()
					cmd.Stdin = f
				}
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("gcf %v: %v\n%s", c.args, err, stderr.Bytes())
				}
				rss, err := strconv.ParseInt(string(bytes.TrimSpace(out)), 10, 64)
				if err != nil {
					b.Fatal(err)
				}
				peak = max(peak, rss)
			}
			b.ReportMetric(float64(peak)/float64(len(data)), "rss/input")
			b.ReportMetric(float64(peak)/(1<<20), "MiB")
			b.ReportMetric(float64(len(data))/(1<<20), "input-MiB")
		})
	}
}

func BenchmarkEncodeJSONFile(b *testing.B) {
	data := encodeMemJSON()
	b.Run("Transcode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if err := transcode.EncodeJSON(io.Discard, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Buffered", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			v, err := gcf.ParseJSON(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := gcf.EncodeGeneric(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEncodeMemoryData: the benchmark's file is the issue's, about 48 MiB,
// and both library paths agree on it.
func TestEncodeMemoryData(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 48 MiB of JSON")
	}
	data := encodeMemJSON()
	if mib := len(data) >> 20; mib < 44 || mib > 52 {
		t.Errorf("input is %d MiB, want about 48", mib)
	}
	var got bytes.Buffer
	if err := transcode.EncodeJSON(&got, data); err != nil {
		t.Fatal(err)
	}
	v, err := gcf.ParseJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := gcf.EncodeGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatal("transcode and the buffered path differ on the benchmark's file")
	}
	t.Log(strconv.Itoa(len(data)) + " bytes of JSON, " + strconv.Itoa(len(want)) + " of GCF")
}
