package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gcfkit/gcf"
)

// The streaming modes convert in constant memory: nothing holds more than
// one record (and the decoder's line buffer) at a time.

// encodeStream turns a JSON array of records, or NDJSON (one record per
// line), into a streaming GCF table: the root array `## [?]{fields}`, or
// `## table [?]{fields}` when table is set, closed by the summary trailer.
// The schema is fields, or else the keys of the first record; a record with
// a key outside it, or a nested value, stops the conversion with an error
// naming the record.
func encodeStream(in io.Reader, out io.Writer, table string, fields []string, prog *progress) error {
	br := bufio.NewReaderSize(prog.reader(in), 64<<10)
	dec := json.NewDecoder(br)
	first, err := firstByte(br)
	if err != nil && err != io.EOF {
		return err
	}
	array := first == '['
	if array {
		if _, err := dec.Token(); err != nil {
			return err
		}
	}
	enc := gcf.NewEncoder(out)
	var raw json.RawMessage
	for n := 1; ; n++ {
		if array && !dec.More() {
			if _, err := dec.Token(); err != nil { // the closing ]
				return fmt.Errorf("record %d: %w", n, err)
			}
			if _, err := dec.Token(); err != io.EOF {
				return errors.New("unexpected data after the JSON array")
			}
			break
		}
		if err := dec.Decode(&raw); err != nil {
			if err == io.EOF {
				if !array {
					break
				}
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("record %d: %w", n, err)
		}
		v, err := gcf.ParseJSON(raw)
		if err != nil {
			return fmt.Errorf("record %d: %w", n, err)
		}
		rec, ok := v.(gcf.Object)
		if !ok {
			return fmt.Errorf("record %d is not a JSON object", n)
		}
		if n == 1 {
			if fields == nil {
				for _, m := range rec {
					fields = append(fields, m.Key)
				}
			}
			if err := enc.BeginTable(table, fields...); err != nil {
				return err
			}
		}
		if err := enc.WriteRecord(rec); err != nil {
			return fmt.Errorf("record %d: %w", n, err)
		}
		prog.row()
	}
	if prog.rows == 0 {
		switch {
		case fields != nil: // an empty table still declares its schema
			if err := enc.BeginTable(table, fields...); err != nil {
				return err
			}
		case table == "":
			return enc.Encode([]any{})
		}
	}
	return enc.Close()
}

// firstByte returns the first byte of br that is not JSON whitespace,
// without consuming it; io.EOF means the input is empty.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b, br.UnreadByte()
	}
}

// decodeNDJSON writes every row of every tabular section of a
// generic-profile payload as one JSON object per line (attachments
// included); content outside tables is passed over.
func decodeNDJSON(in io.Reader, out io.Writer, prog *progress) error {
	// Rows stream through one at a time, so the per-container element limit
	// (which bounds what a buffered decoder must hold) would only cap the
	// table's length here.
	dec := gcf.NewDecoder(bufio.NewReaderSize(prog.reader(in), 64<<10), gcf.WithMaxElements(math.MaxInt))
	w := bufio.NewWriterSize(out, 64<<10)
	var row any
	for {
		ev, err := dec.Read()
		if err == io.EOF {
			return w.Flush()
		}
		if err != nil {
			return err
		}
		if ev.Kind == gcf.KindHeader && ev.Profile != "generic" {
			return fmt.Errorf("decode -ndjson reads generic-profile tables, not profile=%s", ev.Profile)
		}
		if ev.Kind != gcf.KindArrayStart || ev.Form != gcf.FormTabular {
			continue
		}
		for dec.More() {
			if err := dec.Decode(&row); err != nil {
				return err
			}
			js, err := gcf.ToJSON(row)
			if err != nil {
				return err
			}
			w.Write(js)
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
			prog.row()
		}
	}
}

// progress reports bytes and rows per second on stderr, about once a
// second, when enabled.
type progress struct {
	w          io.Writer // nil: disabled
	start      time.Time
	last       time.Time
	rows       int64
	bytes      int64
	sinceCheck int
}

func newProgress(w io.Writer, on bool) *progress {
	p := &progress{start: time.Now()}
	p.last = p.start
	if on {
		p.w = w
	}
	return p
}

func (p *progress) reader(r io.Reader) io.Reader { return &countingReader{r: r, p: p} }

type countingReader struct {
	r io.Reader
	p *progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.bytes += int64(n)
	return n, err
}

func (p *progress) row() {
	p.rows++
	if p.w == nil {
		return
	}
	if p.sinceCheck++; p.sinceCheck < 4096 {
		return
	}
	p.sinceCheck = 0
	if now := time.Now(); now.Sub(p.last) >= time.Second {
		p.last = now
		p.print(now, "")
	}
}

func (p *progress) print(now time.Time, suffix string) {
	secs := now.Sub(p.start).Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	fmt.Fprintf(p.w, "gcf: %s read, %d rows, %.1f MB/s, %.0f rows/s%s\n",
		size(p.bytes), p.rows, float64(p.bytes)/1e6/secs, float64(p.rows)/secs, suffix)
}

// done prints the final line.
func (p *progress) done() {
	if p.w != nil {
		p.print(time.Now(), " (done)")
	}
}

func size(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// openInput opens the named file, or returns stdin when there is none.
func openInput(args []string, stdin io.Reader) (string, io.Reader, func(), error) {
	switch len(args) {
	case 0:
		return "<stdin>", stdin, func() {}, nil
	case 1:
		f, err := os.Open(args[0])
		if err != nil {
			return "", nil, nil, err
		}
		return args[0], f, func() { f.Close() }, nil
	}
	return "", nil, nil, errors.New("at most one input file")
}

// parseFields splits a --fields list; empty means none given.
func parseFields(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// lineAt reads the line containing byte offset off of the named file, for
// showing a streaming error in context; ok is false when it cannot.
func lineAt(name string, off int64) ([]byte, bool) {
	f, err := os.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	start := max(off-4096, 0)
	buf := make([]byte, 8192)
	n, _ := f.ReadAt(buf, start)
	buf = buf[:n]
	rel := int(off - start)
	if rel > len(buf) {
		return nil, false
	}
	if i := bytes.LastIndexByte(buf[:rel], '\n'); i >= 0 {
		buf, rel = buf[i+1:], rel-i-1
	} else if start > 0 {
		return nil, false
	}
	if i := bytes.IndexByte(buf[rel:], '\n'); i >= 0 {
		buf = buf[:rel+i]
	}
	return bytes.TrimSuffix(buf, []byte("\r")), true
}
