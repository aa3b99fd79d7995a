package generic

import (
	"errors"
	"io"

	"github.com/gcfkit/gcf/graph"
	"github.com/gcfkit/gcf/stream"
)

// Unmarshal decodes the whole payload data into the value v points to (the
// root's gcf.Unmarshal, documented there): a *Payload with a graph header
// goes to graph.Decode, anything else to a Decoder over the bytes.
func Unmarshal(data []byte, v any, opts ...Option) error {
	if p, ok := v.(*Payload); ok && isGraphHeader(data) {
		// Decode shares copied chunks of data between names.
		got, err := graph.Decode(data, opts...)
		if err == nil {
			*p = *got
		}
		return err
	}
	cfg := newConfig(opts)
	d := &Decoder{s: stream.NewBytesDecoder(data, cfg.Limits), form: anyForm(cfg.Form)}
	d.s.SetExpand(true)
	d.reset()
	d.b.budget = len(data)/2 + 1 // the input is all here: presize by it, as DecodeGeneric does
	d.b.chunk = 0                // and size the chunks by it
	d.b.sizeBoxes()
	err := d.Decode(v)
	if err == io.EOF {
		return errors.New("gcf: Unmarshal: the payload holds no value")
	}
	return err
}

// isGraphHeader reports whether data starts with a graph-profile header
// (profile= is the header's first field, SPEC §3.1).
func isGraphHeader(data []byte) bool {
	const h = "GCF profile=graph"
	if len(data) < len(h) || string(data[:len(h)]) != h {
		return false
	}
	return len(data) == len(h) || data[len(h)] == ' ' || data[len(h)] == '\n' || data[len(h)] == '\r'
}
