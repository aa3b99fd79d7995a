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

// encodeMemShapes are the benchmark's other files, of the shapes the
// transcoder streams through the buffered encoder's row writer: an
// orders API response (records holding arrays of records and objects)
// and a GeoJSON FeatureCollection (a root object whose features hold
// objects that do not flatten, and nested arrays), about 48 MiB each.
var encodeMemShapes = []struct {
	name  string
	gen   func() []byte
	small func() []byte // the same shape at 1/100 of the size
}{
	{"Orders", encodeMemOrders, func() []byte { return genOrders(1_150) }},
	{"GeoJSON", encodeMemGeoJSON, func() []byte { return genGeoJSON(1_100) }},
	{"TopoJSON", encodeMemTopoJSON, func() []byte { return genTopoJSON(4_650, 2_200) }},
}

var (
	encodeMemOrdersOnce, encodeMemGeoOnce, encodeMemTopoOnce sync.Once
	encodeMemOrdersData, encodeMemGeoData, encodeMemTopoData []byte
)

// encodeMemTopoJSON returns a TopoJSON topology (seed 26): `arcs`, an
// array of 465,000 arcs of 2-12 delta-encoded positions (arrays of arrays:
// expanded items, about 70% of the text), and `objects`, a keyed table of
// two records whose `geometries` tables hold 220,000 and 2,000 polygons
// (each record is held whole while it is written: docs/transcode-json.md).
func encodeMemTopoJSON() []byte {
	encodeMemTopoOnce.Do(func() { encodeMemTopoData = genTopoJSON(465_000, 220_000) })
	return encodeMemTopoData
}

// genTopoJSON returns encodeMemTopoJSON's text with arcs arcs and a
// counties record of counties polygons.
func genTopoJSON(arcs, counties int) []byte {
	rng := rand.New(rand.NewSource(26))
	var b bytes.Buffer
	b.WriteString(`{"type":"Topology","transform":{"scale":[0.0036,0.0017],"translate":[-180,-85]},"objects":{`)
	for k, g := range []struct {
		name string
		n    int
	}{{"counties", counties}, {"states", 2_000}} {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `%q:{"type":"GeometryCollection","geometries":[`, g.name)
		for i := 0; i < g.n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"type":"Polygon","arcs":[[`)
			for j, n := 0, 2+rng.Intn(5); j < n; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%d", rng.Intn(2*arcs)-arcs)
			}
			fmt.Fprintf(&b, `]],"id":%d}`, 1000+i)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`},"arcs":[`)
	for i := 0; i < arcs; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "[[%d,%d]", rng.Intn(99999), rng.Intn(99999))
		for j, n := 0, 1+rng.Intn(11); j < n; j++ {
			fmt.Fprintf(&b, ",[%d,%d]", rng.Intn(2001)-1000, rng.Intn(2001)-1000)
		}
		b.WriteByte(']')
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// encodeMemOrders returns `{"orders":[...]}` of 115,000 orders, each with
// a customer and a shipping object (flattened), 1-4 line items (a table
// in an attachment, under the shared array schema of row 0) and a total
// (seed 26).
func encodeMemOrders() []byte {
	encodeMemOrdersOnce.Do(func() { encodeMemOrdersData = genOrders(115_000) })
	return encodeMemOrdersData
}

// genOrders returns encodeMemOrders's text with n orders.
func genOrders(n int) []byte {
	rng := rand.New(rand.NewSource(26))
	names := []string{"Peggy Ivanova", "Ana Diaz", "Li Wei", "Omar Haddad", "Jon Berg", "Mia Rossi"}
	tiers := []string{"standard", "business", "premium"}
	cities := []string{"Amsterdam", "Berlin", "Lisbon", "Oslo", "Paris", "Vienna"}
	methods := []string{"ground", "express", "pickup"}
	status := []string{"paid", "shipped", "refunded", "pending"}
	skus := []struct {
		sku, name string
		price     float64
	}{{"MN-04", "27in Monitor", 249.5}, {"DK-06", "Docking Station", 129}, {"UC-02", "USB-C Cable", 14.99},
		{"WM-01", "Wireless Mouse", 24.9}, {"KB-03", "Mechanical Keyboard", 89}, {"HS-05", "Headset", 59.95}}
	var b bytes.Buffer
	b.WriteString("{\n  \"orders\": [\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		c := rng.Intn(len(names))
		fmt.Fprintf(&b, `    {"id": "ORD-%d", "created_at": "2026-%02d-%02dT%02d:%02d:00Z", "customer": {"id": %d, "name": %q, "email": "c%d@example.com", "tier": %q}, "shipping": {"city": %q, "method": %q}, "items": [`,
			5000+i, 1+rng.Intn(12), 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), 100+rng.Intn(900), names[c], c, tiers[rng.Intn(len(tiers))],
			cities[rng.Intn(len(cities))], methods[rng.Intn(len(methods))])
		total := 0.0
		for j, n := 0, 1+rng.Intn(4); j < n; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			s := skus[rng.Intn(len(skus))]
			q := 1 + rng.Intn(3)
			total += float64(q) * s.price
			fmt.Fprintf(&b, `{"sku": %q, "name": %q, "qty": %d, "unit_price": %g}`, s.sku, s.name, q, s.price)
		}
		fmt.Fprintf(&b, `], "total": %.2f, "status": %q}`, total, status[rng.Intn(len(status))])
	}
	fmt.Fprintf(&b, "\n  ],\n  \"count\": %d\n}\n", n)
	return b.Bytes()
}

// encodeMemGeoJSON returns a GeoJSON FeatureCollection of 110,000
// earthquake-like features (seed 26): a properties object (flattened), a
// geometry object holding an array (an attachment), most a Point, every
// tenth a Polygon ring of 5-12 positions.
func encodeMemGeoJSON() []byte {
	encodeMemGeoOnce.Do(func() { encodeMemGeoData = genGeoJSON(110_000) })
	return encodeMemGeoData
}

// genGeoJSON returns encodeMemGeoJSON's text with n features.
func genGeoJSON(n int) []byte {
	rng := rand.New(rand.NewSource(26))
	places := []string{"4km W of Castaic, CA", "12km SSE of Volcano, Hawaii", "Central Alaska", "off the coast of Oregon", "85km N of Road Town"}
	nets := []string{"ci", "hv", "ak", "us", "nc"}
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"type":"FeatureCollection","metadata":{"generated":1517968154000,"title":"Earthquakes","status":200,"count":%d},"features":[`, n)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		net := nets[rng.Intn(len(nets))]
		fmt.Fprintf(&b, `{"type":"Feature","properties":{"mag":%.2f,"place":%q,"time":%d,"updated":%d,"tz":%d,"url":"https://example.org/eventpage/%s%d","felt":null,"alert":null,"status":"automatic","tsunami":0,"sig":%d,"net":%q,"code":"%d","nst":%d,"dmin":%.5f,"rms":%.2f,"gap":%d,"magType":"ml","type":"earthquake"},"geometry":`,
			rng.Float64()*5, places[rng.Intn(len(places))], 1517966773840+int64(i)*1000, 1517966996303+int64(i)*1000, -480+60*rng.Intn(3),
			net, 37868143+i, rng.Intn(500), net, 37868143+i, rng.Intn(60), rng.Float64(), rng.Float64(), rng.Intn(300))
		lon, lat := -180+rng.Float64()*360, -60+rng.Float64()*120
		if i%10 == 9 {
			b.WriteString(`{"type":"Polygon","coordinates":[[`)
			for j, n := 0, 5+rng.Intn(8); j < n; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "[%.4f,%.4f]", lon+rng.Float64(), lat+rng.Float64())
			}
			b.WriteString(`]]}`)
		} else {
			fmt.Fprintf(&b, `{"type":"Point","coordinates":[%.4f,%.4f,%.2f]}`, lon, lat, rng.Float64()*30)
		}
		fmt.Fprintf(&b, `,"id":"%s%d"}`, net, 37868143+i)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

func BenchmarkEncodeMemory(b *testing.B) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		b.Skip("peak RSS is read from ru_maxrss, on Linux and macOS only")
	}
	dir := b.TempDir()
	bin := buildGCF(b, dir)
	runner := buildRunner(b, dir)
	files := []struct {
		prefix string
		gen    func() []byte
	}{{"", encodeMemJSON}}
	for _, s := range encodeMemShapes {
		files = append(files, struct {
			prefix string
			gen    func() []byte
		}{s.name + "/", s.gen})
	}
	for _, file := range files {
		data := file.gen()
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
			b.Run(file.prefix+c.name, func(b *testing.B) {
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
}

func BenchmarkEncodeJSONFile(b *testing.B) {
	files := []struct {
		prefix string
		gen    func() []byte
	}{{"", encodeMemJSON}}
	for _, s := range encodeMemShapes {
		files = append(files, struct {
			prefix string
			gen    func() []byte
		}{s.name + "/", s.gen})
	}
	for _, file := range files {
		data := file.gen()
		b.Run(file.prefix+"Transcode", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			m := StartCPU()
			for i := 0; i < b.N; i++ {
				if err := transcode.EncodeJSON(io.Discard, data); err != nil {
					b.Fatal(err)
				}
			}
			m.Stop(b)
		})
		b.Run(file.prefix+"Buffered", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			m := StartCPU()
			for i := 0; i < b.N; i++ {
				v, err := gcf.ParseJSON(data)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := gcf.EncodeGeneric(v); err != nil {
					b.Fatal(err)
				}
			}
			m.Stop(b)
		})
	}
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

// TestEncodeMemoryShapes: the other files are about 48 MiB and stream
// (the transcoder does not fall back on them), and at 1/100 of the size
// give the buffered bytes (the whole files would hold up to 1 GiB in the
// buffered encoder; transcode's tests hold the shapes byte for byte).
func TestEncodeMemoryShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 3 x 48 MiB of JSON")
	}
	for _, s := range encodeMemShapes {
		data := s.gen()
		if mib := len(data) >> 20; mib < 44 || mib > 52 {
			t.Errorf("%s: input is %d MiB, want about 48", s.name, mib)
		}
		if err := transcode.StreamJSONFrom(io.Discard, bytes.NewReader(data)); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		small := s.small()
		var got bytes.Buffer
		if err := transcode.StreamJSONFrom(&got, bytes.NewReader(small)); err != nil {
			t.Fatalf("%s, small: %v", s.name, err)
		}
		v, err := gcf.ParseJSON(small)
		if err != nil {
			t.Fatal(err)
		}
		want, err := gcf.EncodeGeneric(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%s: transcode and the buffered path differ", s.name)
		}
		t.Logf("%s: %d bytes of JSON; small: %d of JSON, %d of GCF", s.name, len(data), len(small), len(want))
	}
}
