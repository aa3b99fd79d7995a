package transcode

import (
	"errors"
	"io"

	"github.com/gcfkit/gcf"
)

// Options control a transcode; the zero value uses the decoder's default
// limits and compact JSON.
type Options struct {
	// Indent, when non-empty, makes ToJSON indent its output with this
	// unit, exactly as json.Indent with prefix "" would. ToNDJSON ignores
	// it: a record is one line.
	Indent string
	// Decoder holds the limits and RequireSummary, passed to gcf.NewDecoder.
	Decoder []gcf.Option
	// Progress, if set, is called now and then (at most once per MiB
	// read, and once at the end) with the bytes read and the records
	// written so far.
	Progress func(bytesRead, records int64)
}

// Result says what a transcode saw.
type Result struct {
	Profile string // "generic" or "graph"
	// Records counts the table rows (for ToJSON of a generic payload), or
	// the symbols and edges, written; for ToNDJSON it is the lines written.
	Records int64
	// Unconfirmed counts the [?] sections that ended without a ##! summary
	// trailer confirming their count: SPEC §8.6 says to warn, not reject.
	Unconfirmed int
}

// progressEvery is how many bytes pass between Progress calls.
const progressEvery = 1 << 20

// counter counts the bytes read through it and reports progress.
type counter struct {
	r     io.Reader
	n     int64
	next  int64
	rec   *int64
	progr func(int64, int64)
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.progr != nil && c.n >= c.next {
		c.next = c.n + progressEvery
		c.progr(c.n, *c.rec)
	}
	return n, err
}

// run is one transcode: the decoder, the output and what was seen.
type run struct {
	d   *gcf.Decoder
	o   *output
	in  *counter
	rec int64
	res Result
}

func newRun(w io.Writer, r io.Reader, o Options, indent bool) *run {
	t := &run{o: &output{w: w, buf: make([]byte, 0, flushAt+flushAt/2)}}
	t.in = &counter{r: r, next: progressEvery, rec: &t.rec, progr: o.Progress}
	if indent && o.Indent != "" {
		t.o.ind = &indenter{unit: o.Indent}
	}
	t.d = gcf.NewDecoder(t.in, o.Decoder...)
	return t
}

// header reads the header event and records the profile.
func (t *run) header() (*gcf.Event, error) {
	ev, err := t.d.Read()
	if err == io.EOF {
		return nil, errors.New("transcode: internal error: no header event")
	}
	if err != nil {
		return nil, err
	}
	if ev.Kind != gcf.KindHeader {
		return nil, errors.New("transcode: internal error: the stream did not start with a header")
	}
	t.res.Profile = ev.Profile
	return ev, nil
}

// finish reads what follows the payload's body (the summary and the end,
// which carries the count of unconfirmed [?] sections) unless end is
// already known, then flushes the output.
func (t *run) finish(endSeen bool) (Result, error) {
	if !endSeen {
		for {
			ev, err := t.d.Read()
			if err != nil {
				return t.result(), err
			}
			if ev.Kind == gcf.KindEnd {
				t.res.Unconfirmed = int(ev.Count)
				break
			}
			if ev.Kind != gcf.KindSummary {
				return t.result(), errors.New("transcode: internal error: unexpected " + ev.Kind.String() + " after the root value")
			}
		}
	}
	if err := t.o.flush(); err != nil {
		return t.result(), err
	}
	if t.in.progr != nil {
		t.in.progr(t.in.n, t.rec)
	}
	return t.result(), nil
}

func (t *run) result() Result {
	r := t.res
	r.Records = t.rec
	return r
}

// ToJSON reads one GCF payload of either profile from r and writes it to w
// as one JSON value followed by a newline: exactly what `gcf decode` has
// always printed, that is gcf.ToJSON of gcf.DecodeGeneric's value for a
// generic payload and json.Marshal of *gcf.Payload (or, with delta=true,
// *gcf.DeltaPayload) for a graph payload, with Options.Indent applied as
// json.Indent would.
//
// Memory is bounded by the longest line and the nesting depth for a
// generic payload, whose events go straight to JSON; only a table row
// with ^ attachments is assembled whole before it is written. A graph
// payload also keeps the qualified name of every symbol (for the edges,
// which JSON names by qualified name) in one byte arena with an offset
// per symbol; when its header has no symbols= count, up to 8 MiB of edges
// are held back in case a symbol group follows them. A graph delta, whose
// sections may come in any order, is buffered: at most 64 MiB of JSON.
// Past either bound ToJSON returns an error rather than reorder.
//
// A malformed payload yields the decoder's *gcf.SyntaxError, unchanged;
// a failing w yields its error as is. In both cases w may have received
// part of the output, and the Result counts what was written.
func ToJSON(w io.Writer, r io.Reader, o Options) (Result, error) {
	t := newRun(w, r, o, true)
	ev, err := t.header()
	if err != nil {
		return t.result(), err
	}
	if ev.Profile == "graph" {
		return t.graph(ev, false)
	}
	g := &gen{d: t.d, o: t.o}
	ev, err = t.d.Read()
	if err == nil {
		err = g.value(ev)
	}
	t.rec = g.rec
	if err != nil {
		return t.result(), err
	}
	t.o.buf = append(t.o.buf, '\n')
	return t.finish(false)
}

// graph writes a graph payload (or delta) whose header is ev.
func (t *run) graph(ev *gcf.Event, lines bool) (Result, error) {
	h, err := readGraphHeader(ev)
	if err != nil {
		return t.result(), err
	}
	g := &graphWriter{d: t.d, o: t.o, lines: lines}
	if h.delta {
		err = g.delta(h)
	} else {
		err = g.graph(h)
	}
	t.rec = g.rec
	if err != nil {
		return t.result(), err
	}
	t.res.Unconfirmed = int(g.unconfirmed)
	return t.finish(true)
}
