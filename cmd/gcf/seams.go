package main

// This file is the only place where the command calls library APIs that
// other work on issue 11 is changing. Each function has the signature of
// the API that replaces it and, for now, a body built from today's code.
// When an API lands, its function's body becomes a one-line call (and the
// matching have* constant below turns true, which un-skips the tests that
// need the real behaviour).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/stream"
)

// Which seams are the real APIs already; tests that need the real
// behaviour skip, visibly, while their constant is false.
const (
	haveEncodeLimits = false // gcf.EncodeGeneric/gcf.Encode/gcf.NewEncoder honour the limit options
	haveParseJSON    = false // gcf.ParseJSON(data, opts...): limits, line:column errors, invalid_utf8
	haveTranscode    = false // transcode.ToJSON / transcode.ToNDJSON
	haveCheck        = false // ast.Check(r, limits): streaming validation
)

// encodeGeneric encodes a generic value, refusing with the limit
// categories what the decoder with the same options would reject.
//
// seam: replaced by gcf.EncodeGeneric(v, opts...) when it lands.
func encodeGeneric(v any, opts []gcf.Option) ([]byte, error) {
	return gcf.EncodeGeneric(v)
}

// encodeGraph encodes a graph payload under the same limits.
//
// seam: replaced by gcf.Encode(p, opts...) when it lands.
func encodeGraph(p *gcf.Payload, opts []gcf.Option) ([]byte, error) {
	return gcf.Encode(p)
}

// parseJSON reads one JSON value into the generic model under the limits
// (MaxDepth, MaxBytes); its errors carry line:column, and invalid UTF-8 is
// invalid_utf8 with the byte offset.
//
// seam: replaced by gcf.ParseJSON(data, opts...) when it lands.
func parseJSON(data []byte, opts []gcf.Option) (any, error) {
	return gcf.ParseJSON(data)
}

// transcodeOptions mirrors transcode.Options.
//
// seam: becomes `type transcodeOptions = transcode.Options` when it lands.
type transcodeOptions struct {
	Indent   string                         // indent JSON output by this string per level; "" writes compact JSON
	Decoder  []gcf.Option                   // limits for the GCF decoder
	Progress func(bytesRead, records int64) // called now and then while converting; may be nil
}

// transcodeResult mirrors transcode.Result.
//
// seam: becomes `type transcodeResult = transcode.Result` when it lands.
type transcodeResult struct {
	Profile     string // "generic" or "graph"
	Records     int64  // NDJSON lines written (ToNDJSON)
	Unconfirmed int    // `[?]` sections that no `##! summary` trailer confirmed
}

// toJSON converts a GCF payload of either profile to JSON.
//
// seam: replaced by transcode.ToJSON(w, r, o) when it lands (streaming, in
// bounded memory); today it reads the whole payload and decodes it.
func toJSON(w io.Writer, r io.Reader, o transcodeOptions) (transcodeResult, error) {
	var res transcodeResult
	data, err := io.ReadAll(r)
	if err != nil {
		return res, &gcf.SyntaxError{Line: 1, Column: 1, Category: gcf.ReadError, Msg: "reading input: " + err.Error(), Err: err}
	}
	if o.Progress != nil {
		defer func() { o.Progress(int64(len(data)), res.Records) }()
	}
	js, profile, err := decodeBuffered(data, o.Decoder)
	res.Profile = profile
	if err != nil {
		return res, err
	}
	if bytes.Contains(data, []byte("[?]")) {
		// A second pass, only for payloads that may hold deferred counts.
		dec := gcf.NewDecoder(bytes.NewReader(data), o.Decoder...)
		for {
			ev, err := dec.Read()
			if err != nil {
				break
			}
			if ev.Kind == gcf.KindEnd {
				res.Unconfirmed = int(ev.Count)
			}
		}
	}
	if o.Indent != "" {
		var buf bytes.Buffer
		if err := json.Indent(&buf, js, "", o.Indent); err == nil {
			js = buf.Bytes()
		}
	}
	js = append(js, '\n')
	_, err = w.Write(js)
	return res, err
}

// decodeBuffered converts a payload of either profile to JSON, choosing
// the decoder from the header line (today's code behind toJSON).
func decodeBuffered(data []byte, opts []gcf.Option) ([]byte, string, error) {
	header, _, _ := bytes.Cut(data, []byte("\n"))
	graph, delta := false, false
	for _, f := range bytes.Fields(header) {
		graph = graph || string(f) == "profile=graph"
		delta = delta || string(f) == "delta=true"
	}
	switch {
	case graph && delta:
		d, err := gcf.DecodeDelta(data, opts...)
		if err != nil {
			return nil, "graph", err
		}
		js, err := json.Marshal(d)
		return js, "graph", err
	case graph:
		p, err := gcf.Decode(data, opts...)
		if err != nil {
			return nil, "graph", err
		}
		js, err := json.Marshal(p)
		return js, "graph", err
	}
	v, err := gcf.DecodeGeneric(data, opts...)
	if err != nil {
		return nil, "generic", err
	}
	js, err := gcf.ToJSON(v)
	return js, "generic", err
}

// toNDJSON writes every record of a generic-profile payload as one JSON
// line, each with its table path, or refuses what it cannot represent.
//
// seam: replaced by transcode.ToNDJSON(w, r, o) when it lands; today it
// is the old `decode -ndjson` (rows of tabular sections only, no path).
func toNDJSON(w io.Writer, r io.Reader, o transcodeOptions) (transcodeResult, error) {
	var res transcodeResult
	cr := &countingReader{r: r}
	// Rows stream through one at a time, so the per-container element limit
	// (which bounds what a buffered decoder must hold) would only cap the
	// table's length here.
	opts := append(append([]gcf.Option(nil), o.Decoder...), gcf.WithMaxElements(math.MaxInt))
	dec := gcf.NewDecoder(bufio.NewReaderSize(cr, 64<<10), opts...)
	bw := bufio.NewWriterSize(w, 64<<10)
	var row any
	for {
		ev, err := dec.Read()
		if err == io.EOF {
			if o.Progress != nil {
				o.Progress(cr.n, res.Records)
			}
			return res, bw.Flush()
		}
		if err != nil {
			bw.Flush()
			return res, err
		}
		switch {
		case ev.Kind == gcf.KindHeader:
			res.Profile = ev.Profile
			if ev.Profile != "generic" {
				return res, fmt.Errorf("decode -ndjson reads generic-profile tables, not profile=%s", ev.Profile)
			}
		case ev.Kind == gcf.KindEnd:
			res.Unconfirmed = int(ev.Count)
		}
		if ev.Kind != gcf.KindArrayStart || ev.Form != gcf.FormTabular {
			continue
		}
		for dec.More() {
			if err := dec.Decode(&row); err != nil {
				bw.Flush()
				return res, err
			}
			js, err := gcf.ToJSON(row)
			if err != nil {
				return res, err
			}
			bw.Write(js)
			if err := bw.WriteByte('\n'); err != nil {
				return res, err
			}
			res.Records++
			if o.Progress != nil && res.Records%4096 == 0 {
				o.Progress(cr.n, res.Records)
			}
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// checkInput validates a payload of either profile with the spec-shaped
// parser and returns every problem, sorted by position.
//
// seam: replaced by ast.Check(r, l) when it lands (streaming, in bounded
// memory); today it reads the whole payload and calls ast.Parse.
func checkInput(r io.Reader, l stream.Limits) ast.ErrorList {
	data, err := io.ReadAll(r)
	if err != nil {
		return ast.ErrorList{{Pos: ast.Pos{Line: 1, Column: 1}, Category: gcf.ReadError, Msg: "reading input: " + err.Error()}}
	}
	if l.MaxBytes > 0 && int64(len(data)) > l.MaxBytes {
		return ast.ErrorList{{Pos: ast.Pos{Line: 1, Column: 1, Offset: int(l.MaxBytes)}, Category: gcf.PayloadTooLarge,
			Msg: "payload exceeds the total size limit"}}
	}
	_, errs := ast.Parse(data, l)
	return errs
}
