package transcode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gcfkit/gcf"
)

// lazy is an io.Reader over head, then body repeated until total bytes
// have been produced, then tail; it never holds more than one body.
type lazy struct {
	head, body, tail []byte
	total            int64 // bytes of repeated body
	pos              int64 // position in the whole stream
	bodyFn           func(i int64) []byte
	cur              []byte
	i                int64
}

func (l *lazy) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		switch {
		case l.pos < int64(len(l.head)):
			k := copy(p[n:], l.head[l.pos:])
			n += k
			l.pos += int64(k)
		case l.pos < int64(len(l.head))+l.total:
			if len(l.cur) == 0 {
				if l.bodyFn != nil {
					l.cur = l.bodyFn(l.i)
				} else {
					l.cur = l.body
				}
				l.i++
			}
			k := copy(p[n:], l.cur)
			if rest := int64(len(l.head)) + l.total - l.pos; int64(k) > rest {
				k = int(rest)
			}
			n += k
			l.pos += int64(k)
			l.cur = l.cur[k:]
			if l.pos == int64(len(l.head))+l.total {
				l.cur = nil
			}
		default:
			off := l.pos - int64(len(l.head)) - l.total
			if off >= int64(len(l.tail)) {
				if n > 0 {
					return n, nil
				}
				return 0, io.EOF
			}
			k := copy(p[n:], l.tail[off:])
			n += k
			l.pos += int64(k)
		}
	}
	return n, nil
}

func category(err error) gcf.Category { return gcf.CategoryOf(err) }

// TestHugeLine: a 1 GB line, generated as it is read, fails with
// line_too_long after reading about one line limit, allocating little.
func TestHugeLine(t *testing.T) {
	for _, f := range []struct {
		name string
		fn   func(io.Writer, io.Reader, Options) (Result, error)
	}{{"ToJSON", ToJSON}, {"ToNDJSON", ToNDJSON}} {
		in := &lazy{head: []byte("GCF profile=generic\nk="), body: bytes.Repeat([]byte("a"), 64<<10), total: 1 << 30}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := f.fn(io.Discard, in, Options{})
		runtime.ReadMemStats(&after)
		var se *gcf.SyntaxError
		if !errors.As(err, &se) || se.Category != gcf.LineTooLong || se.Line != 2 {
			t.Fatalf("%s: %v, want line_too_long on line 2", f.name, err)
		}
		if in.pos > 4<<20 {
			t.Errorf("%s read %d bytes before failing", f.name, in.pos)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %v after reading %d bytes, %d bytes allocated", f.name, err, in.pos, alloc)
		if alloc > 8<<20 {
			t.Errorf("%s allocated %d bytes", f.name, alloc)
		}
	}
}

// TestTruncated: every prefix of several payloads fails (or succeeds)
// exactly as the buffered path does, with the same category, line and
// column; no prefix that the decoder rejects is reported as a success.
func TestTruncated(t *testing.T) {
	ps := append([]string{}, mixedPayloads...)
	ps = append(ps,
		"GCF profile=graph tool=t budget=5 tokens=3 symbols=2 edges=1\n## targets\n@0 fn pkg.Auth 0.78 lsp\n## related\n@1 fn pkg.Server 0.54 lsp\n## edges [1]\n@0<@1 calls\n",
		"GCF profile=graph tool=t delta=true base_root=a new_root=b tokens=3\n## removed\nfn pkg.Old\n## added\n@0 fn pkg.New 0.85 rwr 1\n## edges_added\npkg.New -> pkg.Auth calls\n")
	for _, p := range randomPayloads(t, 12) {
		ps = append(ps, string(p))
	}
	cut := 0
	for _, p := range ps {
		step := max(1, len(p)/100)
		for n := len(p); n > 0; n -= step {
			data := []byte(p[:n])
			checkSame(t, fmt.Sprintf("%q cut at %d", p, n), data)
			_, werr := gcf.DecodeGeneric(data)
			if strings.Contains(p, "profile=graph") {
				continue
			}
			_, nerr := ToNDJSON(io.Discard, bytes.NewReader(data), Options{})
			if (werr == nil) != (nerr == nil) || werr != nil && !sameError(werr, nerr) {
				t.Errorf("%q cut at %d: ToNDJSON %v, DecodeGeneric %v", p, n, nerr, werr)
			}
			if werr != nil {
				cut++
			}
		}
	}
	if cut < 500 {
		t.Errorf("only %d rejected prefixes", cut)
	}
}

// failingReader returns its data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestFailingReader(t *testing.T) {
	boom := errors.New("disk on fire")
	for _, f := range []func(io.Writer, io.Reader, Options) (Result, error){ToJSON, ToNDJSON} {
		for _, p := range []string{mixedPayloads[0], "GCF profile=graph tool=t\n## targets\n@0 fn a 0.50 x\n"} {
			_, err := f(io.Discard, &failingReader{data: []byte(p[:len(p)-3]), err: boom}, Options{})
			if category(err) != gcf.ReadError || !errors.Is(err, boom) {
				t.Errorf("got %v, want read_error wrapping %v", err, boom)
			}
		}
	}
}

// failingWriter accepts n bytes, then fails.
type failingWriter struct {
	n   int
	err error
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, f.err
	}
	f.n -= len(p)
	return len(p), nil
}

func TestFailingWriter(t *testing.T) {
	boom := errors.New("pipe closed")
	big := "GCF profile=generic\n## [?]{id,name}\n" + strings.Repeat("1|somebody\n", 20000)
	var graph strings.Builder
	graph.WriteString("GCF profile=graph tool=t\n## targets\n")
	for i := range 20000 {
		graph.WriteString("@" + strconv.Itoa(i) + " fn pkg.F" + strconv.Itoa(i) + " 0.50 lsp\n")
	}
	for _, f := range []func(io.Writer, io.Reader, Options) (Result, error){ToJSON, ToNDJSON} {
		for _, p := range []string{big, graph.String(), mixedPayloads[0]} {
			for _, n := range []int{0, 100, 40000} {
				if n >= len(p) {
					continue // the output of a small payload fits
				}
				_, err := f(&failingWriter{n: n, err: boom}, strings.NewReader(p), Options{})
				if err != boom {
					t.Errorf("writer failing after %d bytes: got %v, want the writer's error as is", n, err)
				}
			}
		}
	}
}

// TestUnconfirmed: a [?] section cut before its trailer is accepted and
// counted (SPEC §8.6), and rejected under WithRequireSummary.
func TestUnconfirmed(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"GCF profile=generic\n## [?]{id,name}\n1|a\n2|b\n", 1},
		{"GCF profile=generic\n## [?]{id,name}\n1|a\n2|b\n##! summary counts=2\n", 0},
		{"GCF profile=generic\n## a [?]{id}\n1\n## b [?]{id}\n2\n", 2},
		{"GCF profile=graph tool=t\n## targets\n@0 fn a 0.50 x\n@1 fn b 0.50 x\n## edges [?]\n@0<@1 calls\n", 1},
	}
	for _, c := range cases {
		for name, f := range map[string]func(io.Writer, io.Reader, Options) (Result, error){"ToJSON": ToJSON, "ToNDJSON": ToNDJSON} {
			res, err := f(io.Discard, strings.NewReader(c.in), Options{})
			if err != nil || res.Unconfirmed != c.want {
				t.Errorf("%s(%q): Unconfirmed %d, %v; want %d", name, c.in, res.Unconfirmed, err, c.want)
			}
			_, err = f(io.Discard, strings.NewReader(c.in), Options{Decoder: []gcf.Option{gcf.WithRequireSummary()}})
			if (c.want > 0) != (category(err) == gcf.UnexpectedEOF) || c.want == 0 && err != nil {
				t.Errorf("%s(%q) with RequireSummary: %v", name, c.in, err)
			}
		}
	}
}

// TestGraphOrder: symbol groups after edges, and session ids out of
// sequence, print as the buffered path prints them.
func TestGraphOrder(t *testing.T) {
	for _, p := range []string{
		"GCF profile=graph tool=t\n## targets\n@0 fn a 0.50 x\n## edges [1]\n@0<@0 calls\n## related\n@1 fn b<T> 0.25 y\n## edges [1]\n@1<@0 uses added\n",
		"GCF profile=graph tool=t session=true\n## targets\n@7 fn a&b 0.50 x\n@3 fn c 0.50 x\n## edges [2]\n@3<@7 calls\n@7<@3 calls removed\n",
		"GCF profile=graph tool=t delta=true base_root=a new_root=b\n## edges_added\nx -> y calls\n## added\n@0 fn n 1.00 p 3\n## removed\nfn o\n",
	} {
		if !checkSame(t, p, []byte(p)) {
			t.Errorf("%q did not decode", p)
		}
	}
	// The header's symbols= count lets edges go straight out; a symbol
	// beyond it is the decoder's count_mismatch, as on the buffered path.
	bad := "GCF profile=graph tool=t symbols=1\n## targets\n@0 fn a 0.50 x\n## edges [1]\n@0<@0 calls\n## related\n@1 fn b 0.25 y\n"
	if checkSame(t, bad, []byte(bad)) {
		t.Errorf("%q decoded", bad)
	}
	if _, err := ToJSON(io.Discard, strings.NewReader(bad), Options{}); category(err) != gcf.CountMismatch {
		t.Errorf("%q: %v, want count_mismatch", bad, err)
	}
}

// TestGraphBounds: past the bounds ToJSON states, it refuses rather than
// reorder with unbounded memory; below them it matches the buffered path.
func TestGraphBounds(t *testing.T) {
	defer func(p, d int) { pendingEdges, deltaBuffer = p, d }(pendingEdges, deltaBuffer)
	pendingEdges, deltaBuffer = 200, 200
	edges := "GCF profile=graph tool=t\n## targets\n@0 fn a 0.50 x\n## edges [10]\n" + strings.Repeat("@0<@0 calls\n", 10)
	if !checkSame(t, "many edges", []byte(edges)) {
		t.Error("many edges did not decode")
	}
	_, err := ToJSON(io.Discard, strings.NewReader(edges+"## related\n@1 fn b 0.50 x\n"), Options{})
	if err != errSymbolsAfterEdges {
		t.Errorf("symbols after many edges: %v", err)
	}
	delta := "GCF profile=graph tool=t delta=true\n## removed\n" + strings.Repeat("fn old\n", 10)
	if _, err := ToJSON(io.Discard, strings.NewReader(delta), Options{}); err != errDeltaTooLarge {
		t.Errorf("large delta: %v", err)
	}
	res, err := ToNDJSON(io.Discard, strings.NewReader(delta), Options{})
	if err != nil || res.Records != 11 {
		t.Errorf("large delta as NDJSON: %+v, %v", res, err)
	}
}

// tableReader generates a generic `[?]` table of size bytes of rows,
// without allocating per row.
func tableReader(size int64) *lazy {
	var row []byte
	return &lazy{
		head:  []byte("GCF profile=generic\n## [?]{id,name,dept,score,active}\n"),
		total: size,
		bodyFn: func(i int64) []byte {
			row = strconv.AppendInt(row[:0], i, 10)
			row = append(row, "|person number "...)
			row = strconv.AppendInt(row, i, 10)
			row = append(row, "|dept-"...)
			row = strconv.AppendInt(row, i%7, 10)
			row = append(row, '|')
			row = strconv.AppendInt(row, i%1000, 10)
			row = append(row, ".5|"...)
			row = strconv.AppendBool(row, i%2 == 0)
			return append(row, '\n')
		},
	}
}

// TestBoundedMemory: a 200 MB table goes through ToJSON and ToNDJSON with
// a flat live heap and few bytes allocated per input byte.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2 x 200 MB; skipped in -short mode")
	}
	for _, c := range []struct {
		name string
		f    func(io.Writer, io.Reader, Options) (Result, error)
		size int64
	}{{"ToJSON", ToJSON, 200 << 20}, {"ToNDJSON", ToNDJSON, 20 << 20}} {
		name, f, size := c.name, c.f, c.size
		in := tableReader(size)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var peak uint64
		var ms runtime.MemStats
		calls := 0
		o := Options{Progress: func(n, rec int64) {
			calls++
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}}
		res, err := f(io.Discard, &rowCut{r: in}, o)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		perByte := float64(alloc) / float64(size)
		t.Logf("%s: %d records, %d progress calls, allocated %d bytes (%.4f per input byte), heap in use %d KiB before, peak %d KiB",
			name, res.Records, calls, alloc, perByte, before.HeapInuse>>10, peak>>10)
		if alloc > 1<<20 {
			t.Errorf("%s allocated %.4f bytes per input byte", name, perByte)
		}
		if peak == 0 || peak > before.HeapInuse+16<<20 {
			t.Errorf("%s: heap in use grew from %d to %d bytes", name, before.HeapInuse, peak)
		}
		if res.Unconfirmed != 1 || res.Records < size/60 {
			t.Errorf("%s: %+v", name, res)
		}
	}
}

// rowCut passes its reader through up to the last newline, so that a
// generated stream ends on a row boundary.
type rowCut struct {
	r         io.Reader
	held, buf []byte
	eof       bool
}

func (c *rowCut) Read(p []byte) (int, error) {
	for {
		if i := bytes.LastIndexByte(c.held, '\n'); i >= 0 {
			n := copy(p, c.held[:i+1])
			c.held = append(c.held[:0], c.held[n:]...)
			return n, nil
		}
		if c.eof {
			return 0, io.EOF
		}
		if c.buf == nil {
			c.buf = make([]byte, 32<<10)
		}
		n, err := c.r.Read(c.buf)
		c.held = append(c.held, c.buf[:n]...)
		if err == io.EOF {
			c.eof = true
		} else if err != nil {
			return 0, err
		}
	}
}
