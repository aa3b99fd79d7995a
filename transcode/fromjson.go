package transcode

import (
	"errors"
	"io"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/encoder"
)

// EncodeJSON writes to w the generic-profile encoding of the JSON text
// data: the bytes gcf.EncodeGeneric(gcf.ParseJSON(data, opts...),
// opts...) returns, or the error either returns.
//
// The shapes listed in docs/transcode-json.md (every document but a root
// scalar or array of scalars, within the limits) are transcoded in two
// passes over data without building the value, costing memory for the
// largest record (a table row with its attachments, less the arrays of
// containers of a row of 64 KiB or more, which stream; an expanded item;
// a root member that is no table) and one table's column facts; the output
// is written as it is produced, so an encode limit (WithMaxLineBytes,
// WithMaxBytes, ...) broken late may leave part of it in w. Every other document, and every invalid
// one, is encoded by the buffered path, which writes nothing on error.
func EncodeJSON(w io.Writer, data []byte, opts ...gcf.Option) error {
	open := func(off, _ int64) (*feed, error) { return &feed{buf: data[off:], base: off, mark: -1}, nil }
	all := func() ([]byte, error) { return data, nil }
	return encodeJSON(w, int64(len(data)), open, all, nil, opts)
}

// EncodeJSONFrom is EncodeJSON for JSON text read from r, from its current
// offset to its end, which it reads twice (three times for a root object)
// seeking back in between, holding a window of the input rather than all
// of it; a document it does not stream is read whole.
func EncodeJSONFrom(w io.Writer, r io.ReadSeeker, opts ...gcf.Option) error {
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	end, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	src := &source{r: r, start: start, pos: -1}
	open := func(off, size int64) (*feed, error) { return src.feedAt(off, size), nil }
	all := func() ([]byte, error) {
		if _, err := r.Seek(start, io.SeekStart); err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	}
	return encodeJSON(w, end-start, open, all, nil, opts)
}

// ErrNotStreamed is StreamJSONFrom's error for a document it does not
// stream: a shape docs/transcode-json.md lists as falling back, options
// that change the layout, or invalid JSON. Nothing has been written.
var ErrNotStreamed = errors.New("transcode: the JSON document does not stream; encode it buffered")

// StreamJSONFrom is EncodeJSONFrom without the buffered fallback: where
// EncodeJSONFrom would fall back it returns ErrNotStreamed, so that the
// caller may prepare for the buffered encoder's memory (gcf encode does).
func StreamJSONFrom(w io.Writer, r io.ReadSeeker, opts ...gcf.Option) error {
	return StreamJSONWith(w, r, nil, opts...)
}

// StreamJSONWith is StreamJSONFrom that calls longer, when it is not nil,
// during the first pass each time it reads a record (a table row, an
// expanded item, or a root member written whole) longer than all before
// it, before parsing it, with its length in bytes of JSON text (of a
// record of 64 KiB or more, read member by member, the length of the
// members parsed so far, its arrays of containers streamed aside): the
// passes hold about one record's parsed value at a time, so a caller may
// size its memory settings by it (gcf encode does).
func StreamJSONWith(w io.Writer, r io.ReadSeeker, longer func(longest int64), opts ...gcf.Option) error {
	start, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	end, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	src := &source{r: r, start: start, pos: -1}
	open := func(off, size int64) (*feed, error) { return src.feedAt(off, size), nil }
	return encodeJSON(w, end-start, open, nil, longer, opts)
}

// encodeJSON runs the passes over the input that open returns afresh from
// an offset (the passes from 0, a record's stream from its own), or
// the buffered encoder over all's bytes when the first pass falls back
// (ErrNotStreamed when all is nil); longer, if not nil, is told each new
// longest record (see StreamJSONWith).
func encodeJSON(w io.Writer, size int64, open func(off, size int64) (*feed, error), all func() ([]byte, error), longer func(int64), opts []gcf.Option) error {
	lim, spec, canonical := settings(opts)
	d := &doc{maxDepth: lim.MaxDepth, maxElems: lim.MaxElements, longer: longer, open: open}
	err := errFallback
	if canonical && lim.MaxDepth >= minDepth && (lim.MaxBytes <= 0 || size <= lim.MaxBytes) {
		err = d.plan()
	}
	if errors.Is(err, errFallback) {
		if all == nil {
			return ErrNotStreamed
		}
		return encodeBuffered(w, all, opts)
	}
	if err != nil {
		return err
	}
	f, err := open(0, -1)
	if err != nil {
		return err
	}
	e := &jsonEnc{w: w, lim: encoder.NewLimiter(lim), v353: spec == gcf.Spec353}
	if err := e.doc(f, d); err != nil {
		if errors.Is(err, errFallback) {
			// The input changed between the passes.
			return errors.New("transcode: the JSON input changed while it was encoded")
		}
		return err
	}
	return e.flush()
}

// minDepth is the least MaxDepth limit the passes run under: the streamed
// shapes nest at most this deep in GCF, and their records' own limit
// (MaxDepth less the containers around them) stays positive.
const minDepth = 4

// encodeBuffered is the fallback: ParseJSON, then EncodeGeneric.
func encodeBuffered(w io.Writer, all func() ([]byte, error), opts []gcf.Option) error {
	data, err := all()
	if err != nil {
		return err
	}
	v, err := gcf.ParseJSON(data, opts...)
	if err != nil {
		return err
	}
	out, err := gcf.EncodeGeneric(v, opts...)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// parseString reads a JSON string literal as gcf.ParseJSON does.
func parseString(b []byte) (string, error) {
	v, err := gcf.ParseJSON(b)
	if err != nil {
		return "", errFallback
	}
	s, ok := v.(string)
	if !ok {
		return "", errFallback
	}
	return s, nil
}

// parseValue reads one JSON value as gcf.ParseJSON does, under the depth
// limit depth.
func parseValue(b []byte, depth int) (any, error) {
	v, err := gcf.ParseJSON(b, gcf.WithMaxDepth(depth))
	if err != nil {
		return nil, errFallback
	}
	return v, nil
}

func isContainer(v any) bool {
	switch v.(type) {
	case gcf.Object, []any:
		return true
	}
	return false
}
