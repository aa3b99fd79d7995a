// Command scale measures the streaming encoder and decoder on payloads far
// larger than memory should allow: it writes a graph stream and a tabular
// stream of about -size bytes each through gcf.NewEncoder (BeginGraph/
// WriteSymbol/WriteEdge and BeginTable/WriteRow, generated on the fly) into
// a temporary file, reads each back through gcf.NewDecoder event by event,
// and prints bytes, seconds, MB/s and peak resident memory per phase.
// decodebuffered-graph reads the graph stream into memory and decodes it
// with the buffered gcf.Decode, reporting peak RSS (input bytes included)
// as a multiple of the input size.
//
// Every phase runs in a child process (this program re-executed with
// -phase), so each peak RSS is that phase's own: the parent reads it from
// the child's rusage (ru_maxrss) and the child cross-checks it with VmHWM
// from /proc/self/status. The GC runs with its defaults (no GOGC or
// GOMEMLIMIT), so the numbers are what a plain program would see.
//
//	go run ./bench/scale                 # 1 GB per profile
//	go run ./bench/scale -size 100MB     # quick run
//	go run ./bench/scale -heapprofile /tmp/prof   # heap profile per phase
//	go run ./bench/scale -cli=false -keys 0       # the library phases only
//
// With -cli (the default) the gcf command is built and run on the same
// streams (cli-validate-*, cli-decode-*, cli-ndjson-table), and on two
// hostile inputs of -size bytes: a payload with one -size long line
// (cli-decode-longline, cli-validate-longline: line_too_long, exit 1) and
// a JSON record holding a -size long string (cli-encode-longstring:
// refused, exit 1). parsejson-keys parses one JSON object of -keys members
// with gcf.ParseJSON. See cli.go.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/bench"
	"github.com/gcfkit/gcf/stream"
)

// result is what a child phase reports on stdout as one JSON line.
type result struct {
	Phase    string  `json:"phase"`
	Records  int64   `json:"records"` // symbols+edges or rows
	Events   int64   `json:"events"`  // decode phases: events read
	Bytes    int64   `json:"bytes"`
	Seconds  float64 `json:"seconds"`
	VmHWMKB  int64   `json:"vmhwm_kb"`  // /proc/self/status, cross-check of ru_maxrss
	HeapSys  uint64  `json:"heap_sys"`  // runtime.MemStats at the end
	HeapLive uint64  `json:"heap_live"` // HeapAlloc at the end, before any release
	NumGC    uint32  `json:"num_gc"`
	MaxRSSKB int64   `json:"-"` // filled in by the parent from rusage
}

var (
	sizeFlag     = flag.String("size", "1GB", "approximate size of each generated stream (e.g. 1GB, 100MB, 512KB)")
	dirFlag      = flag.String("dir", os.TempDir(), "directory for the temporary stream files (deleted afterwards)")
	heapFlag     = flag.String("heapprofile", "", "if set, each phase writes a heap profile `dir/<phase>.heap` at its end")
	maxElemsFlag = flag.Int("maxelements", math.MaxInt32, "MaxElements (rows/edges per section) of the encoder, the decoder and the gcf command; 0 keeps the library default of 16,777,216, which a 1 GB stream exceeds")
	keepFlag     = flag.Bool("keep", false, "keep the stream files")
	phaseFlag    = flag.String("phase", "", "internal: run one phase (encode-graph, decode-graph, decodebuffered-graph, encode-table, decode-table)")
	fileFlag     = flag.String("file", "", "internal: stream file of the phase")
	nFlag        = flag.Int("n", 0, "internal: symbols (graph) or rows (table) to generate")
	cliFlag      = flag.Bool("cli", true, "also run the gcf command (validate, decode, decode -ndjson) on the streams and on a -size long line and string")
	keysFlag     = flag.Int("keys", 1_000_000, "members of the object parsed by the parsejson-keys phase (0 skips it)")
)

func main() {
	flag.Parse()
	if *phaseFlag != "" {
		res, err := runPhase(*phaseFlag, *fileFlag, *nFlag)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", *phaseFlag, err)
			os.Exit(1)
		}
		json.NewEncoder(os.Stdout).Encode(res)
		return
	}
	if err := parent(); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, x := range []struct {
		suf string
		m   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, x.suf) {
			u, mult = strings.TrimSuffix(u, x.suf), x.m
			break
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("bad -size %q", s)
	}
	return int64(f * float64(mult)), nil
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// perRecord measures the bytes one generated graph symbol (with its two
// edges) or one table row takes, from a sample written to a counter. The
// sample's ids are shorter than at full size, so the estimate errs low by
// a few percent; the real byte count is what gets reported.
func perRecord(profile string, sample int) (float64, error) {
	var c countWriter
	e := gcf.NewEncoder(&c)
	var err error
	if profile == "graph" {
		err = bench.WriteGraphStream(e, sample)
	} else {
		err = bench.WriteEmployeesStream(e, sample)
	}
	if err == nil {
		err = e.Close()
	}
	return float64(c.n) / float64(sample), err
}

func parent() error {
	size, err := parseSize(*sizeFlag)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Printf("scale: %s per profile, go %s, GOMAXPROCS %d, GOGC %q, GOMEMLIMIT %q, dir %s\n",
		*sizeFlag, runtime.Version(), runtime.GOMAXPROCS(0), os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT"), *dirFlag)
	var results []*result
	files, counts := map[string]string{}, map[string]int64{}
	defer func() {
		if !*keepFlag {
			for _, f := range files {
				os.Remove(f)
			}
		}
	}()
	for _, profile := range []string{"graph", "table"} {
		// Sizing runs in a child too, so the parent stays small: with
		// vfork+exec a child's ru_maxrss starts from the parent's RSS.
		sz, err := child(self, "size-"+profile, "-", 100_000)
		if err != nil {
			return err
		}
		n := int(float64(size) / (float64(sz.Bytes) / float64(sz.Records)))
		file := filepath.Join(*dirFlag, fmt.Sprintf("gcf-scale-%d-%s.gcf", os.Getpid(), profile))
		files[profile] = file
		ops := []string{"encode", "decode"}
		if profile == "graph" {
			ops = append(ops, "decodebuffered")
		}
		for _, op := range ops {
			phase := op + "-" + profile
			res, err := child(self, phase, file, n)
			if err != nil {
				return err
			}
			results = append(results, res)
			if op != "decodebuffered" {
				counts[profile] = res.Records
			}
		}
	}
	if *cliFlag {
		cli, err := cliPhases(files, counts, size)
		if err != nil {
			return err
		}
		results = append(results, cli...)
	}
	if *keysFlag > 0 {
		res, err := child(self, "parsejson-keys", "-", *keysFlag)
		if err != nil {
			return err
		}
		results = append(results, res)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\trecords\tbytes\tseconds\tMB/s\tpeak RSS (MB)\tVmHWM (MB)\theap in use (MB)\tGCs\t")
	for _, r := range results {
		if strings.HasPrefix(r.Phase, "cli-") { // the command's own process: only rusage is known
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.1f\t%.1f\t-\t-\t-\t\n", r.Phase, r.Records, r.Bytes, r.Seconds,
				float64(r.Bytes)/1e6/r.Seconds, float64(r.MaxRSSKB)/1024)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t\n", r.Phase, r.Records, r.Bytes, r.Seconds,
			float64(r.Bytes)/1e6/r.Seconds, float64(r.MaxRSSKB)/1024, float64(r.VmHWMKB)/1024, float64(r.HeapLive)/(1<<20), r.NumGC)
	}
	tw.Flush()
	fmt.Println("peak RSS = the child's ru_maxrss; VmHWM = its /proc/self/status high-water mark (cross-check);")
	fmt.Println("heap in use = HeapAlloc at the phase's largest point (encode: just before Close); cli-* phases are the")
	fmt.Println("gcf command's own process (no heap figures); the hostile cli-*-long* runs must fail (exit 1) with bounded memory")
	worst, worstCLI := int64(0), int64(0)
	for _, r := range results {
		if strings.HasPrefix(r.Phase, "cli-") {
			worstCLI = max(worstCLI, r.MaxRSSKB)
			continue
		}
		if r.Phase == "parsejson-keys" || r.Phase == "decodebuffered-graph" {
			continue
		}
		peak := max(r.MaxRSSKB, r.VmHWMKB)
		worst = max(worst, peak)
		if peak >= 32*1024 {
			fmt.Printf("over 32 MB: %s peaked at %.1f MB\n", r.Phase, float64(peak)/1024)
		}
	}
	fmt.Printf("worst peak RSS %.1f MB (target < 32 MB; decodebuffered-graph is not a streaming phase and is reported below)\n", float64(worst)/1024)
	for _, r := range results {
		if r.Phase == "decodebuffered-graph" {
			peak := max(r.MaxRSSKB, r.VmHWMKB)
			fmt.Printf("buffered gcf.Decode: peak RSS %.1f MB for a %.1f MB input = %.2fx the input (target <= 3x; the RSS includes the input bytes, which the caller holds)\n",
				float64(peak)/1024, float64(r.Bytes)/(1<<20), float64(peak)*1024/float64(r.Bytes))
		}
	}
	if *cliFlag {
		fmt.Printf("worst peak RSS of the gcf command %.1f MB (target < 256 MB)\n", float64(worstCLI)/1024)
	}
	return nil
}

// child runs one phase in a fresh process and returns its result with the
// process's peak RSS.
func child(self, phase, file string, n int) (*result, error) {
	args := []string{"-phase", phase, "-file", file, "-n", strconv.Itoa(n),
		"-maxelements", strconv.Itoa(*maxElemsFlag), "-heapprofile", *heapFlag}
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("phase %s: %v", phase, err)
	}
	var res result
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("phase %s: bad report %q: %v", phase, out, err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.MaxRSSKB = int64(ru.Maxrss) // kilobytes on Linux
	}
	return &res, nil
}

func runPhase(phase, file string, n int) (*result, error) {
	if file == "" || n <= 0 {
		return nil, errors.New("-file and -n are required")
	}
	res := &result{Phase: phase}
	start := time.Now()
	var err error
	switch phase {
	case "size-graph", "size-table":
		var bpr float64
		bpr, err = perRecord(strings.TrimPrefix(phase, "size-"), n)
		res.Records, res.Bytes = int64(n), int64(bpr*float64(n))
	case "encode-graph", "encode-table":
		err = encode(phase, file, n, res)
	case "decode-graph", "decode-table":
		err = decode(phase, file, n, res)
	case "decodebuffered-graph":
		err = decodeBuffered(phase, file, n, res)
	case "parsejson-keys":
		err = parseJSONKeys(n, res)
	default:
		err = fmt.Errorf("unknown phase %q", phase)
	}
	if res.Seconds == 0 {
		res.Seconds = time.Since(start).Seconds()
	}
	if err != nil {
		return nil, err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapSys, res.NumGC = ms.HeapSys, ms.NumGC
	if res.HeapLive == 0 {
		res.HeapLive = ms.HeapAlloc
	}
	res.VmHWMKB = vmHWM()
	return res, nil
}

// encode writes the stream with the streaming encoder straight into the
// file (the encoder buffers internally), generating records on the fly.
func encode(phase, file string, n int, res *result) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	// The encoder refuses what the decoder with the same limits would
	// reject, so it gets the decoder's element limit.
	var opts []gcf.Option
	if *maxElemsFlag > 0 {
		opts = append(opts, gcf.WithMaxElements(*maxElemsFlag))
	}
	e := gcf.NewEncoder(f, opts...)
	if phase == "encode-graph" {
		err = bench.WriteGraphStream(e, n)
		res.Records = 3 * int64(n)
	} else {
		err = bench.WriteEmployeesStream(e, n)
		res.Records = int64(n)
	}
	if err != nil {
		return err
	}
	// The encoder's state is at its largest just before Close.
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapLive = ms.HeapAlloc
	if err := heapProfile(phase); err != nil {
		return err
	}
	if err := e.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	res.Bytes = st.Size()
	return nil
}

// decode reads the stream through gcf.NewDecoder (which reads the file
// through its own buffer), touching every event and checking the record
// counts.
func decode(phase, file string, n int, res *result) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	var opts []gcf.Option
	if *maxElemsFlag > 0 {
		opts = append(opts, gcf.WithMaxElements(*maxElemsFlag))
	}
	d := gcf.NewDecoder(f, opts...)
	var kinds [256]int64
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		kinds[ev.Kind]++
		res.Events++
	}
	if err := heapProfile(phase); err != nil {
		return err
	}
	if phase == "decode-graph" {
		if kinds[stream.KindSymbol] != int64(n) || kinds[stream.KindEdge] != 2*int64(n) {
			return fmt.Errorf("read %d symbols and %d edges, want %d and %d", kinds[stream.KindSymbol], kinds[stream.KindEdge], n, 2*n)
		}
		res.Records = kinds[stream.KindSymbol] + kinds[stream.KindEdge]
	} else {
		if kinds[gcf.KindRow] != int64(n) {
			return fmt.Errorf("read %d rows, want %d", kinds[gcf.KindRow], n)
		}
		res.Records = kinds[gcf.KindRow]
	}
	res.Bytes = d.InputOffset()
	if st, err := f.Stat(); err == nil {
		res.Bytes = st.Size()
	}
	return nil
}

// decodeBuffered is the decodebuffered-graph phase: the buffered API as a
// user calls it. The whole graph stream is read into memory with
// os.ReadFile and decoded with gcf.Decode into one *gcf.Payload; the input
// and the payload are both kept alive until after the payload is checked
// (the peak), so the phase's RSS includes the input bytes, as a user's
// process holding them would.
func decodeBuffered(phase, file string, n int, res *result) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var opts []gcf.Option
	if *maxElemsFlag > 0 {
		opts = append(opts, gcf.WithMaxElements(*maxElemsFlag))
	}
	start := time.Now()
	p, err := gcf.Decode(data, opts...)
	if err != nil {
		return err
	}
	res.Seconds = time.Since(start).Seconds() // the decode only, not the read
	if len(p.Symbols) != n || len(p.Edges) != 2*n {
		return fmt.Errorf("decoded %d symbols and %d edges, want %d and %d", len(p.Symbols), len(p.Edges), n, 2*n)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapLive = ms.HeapAlloc
	if err := heapProfile(phase); err != nil {
		return err
	}
	res.Records = int64(len(p.Symbols) + len(p.Edges))
	res.Bytes = int64(len(data))
	runtime.KeepAlive(data)
	runtime.KeepAlive(p)
	return nil
}

func heapProfile(phase string) error {
	if *heapFlag == "" {
		return nil
	}
	if err := os.MkdirAll(*heapFlag, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(*heapFlag, phase+".heap"))
	if err != nil {
		return err
	}
	defer f.Close()
	runtime.GC() // up-to-date in-use statistics
	return pprof.WriteHeapProfile(f)
}

// vmHWM returns the peak resident set size from /proc/self/status, in KB
// (0 where unavailable).
func vmHWM() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return v
		}
	}
	return 0
}
