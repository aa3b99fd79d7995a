package main

import (
	"fmt"
	"io"
	"time"
)

// progress reports bytes and rows per second on stderr, about once a
// second, when enabled; a nil *progress reports nothing.
type progress struct {
	w                   io.Writer
	start, last         time.Time
	rows, bytes         int64
	nextRows, nextBytes int64 // look at the clock again only past these
}

func newProgress(w io.Writer, on bool) *progress {
	if !on {
		return nil
	}
	now := time.Now()
	return &progress{w: w, start: now, last: now}
}

// update records the totals so far and prints them when a second has
// passed since the last line.
func (p *progress) update(bytes, rows int64) {
	if p == nil {
		return
	}
	p.bytes, p.rows = bytes, rows
	if rows < p.nextRows && bytes < p.nextBytes {
		return
	}
	p.nextRows, p.nextBytes = rows+4096, bytes+1<<20
	if now := time.Now(); now.Sub(p.last) >= time.Second {
		p.last = now
		p.print(now, "")
	}
}

// callback returns update as a transcode progress function, or nil.
func (p *progress) callback() func(bytesRead, records int64) {
	if p == nil {
		return nil
	}
	return p.update
}

func (p *progress) print(now time.Time, suffix string) {
	secs := max(now.Sub(p.start).Seconds(), 1e-9)
	fmt.Fprintf(p.w, "gcf: %s read, %d records, %.1f MB/s, %.0f records/s%s\n",
		size(p.bytes), p.rows, float64(p.bytes)/1e6/secs, float64(p.rows)/secs, suffix)
}

// done prints the final line.
func (p *progress) done() {
	if p != nil {
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
