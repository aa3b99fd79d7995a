package wire

import (
	"io"

	"github.com/gcfkit/gcf"
)

// gcfCodec is GCF text, graph profile, through the root package: the text
// a model reads. It carries what the graph wire carries (SPEC §5, §6): no
// signatures, no score components, scores with two decimals, and only
// edges between declared symbols (gcf.Encode refuses others). The zero
// value is GCF v3 ("gcf"; the graph profile is the same at v3.5.3 and v3.6.0); with v1 set it is the legacy v1.x wire
// ("gcf-v1", docs/legacy-v1.md), through gcf.WithWire(gcf.WireV1).
type gcfCodec struct{ v1 bool }

func (c gcfCodec) Name() string {
	if c.v1 {
		return "gcf-v1"
	}
	return "gcf"
}

func (c gcfCodec) Description() string {
	if c.v1 {
		return "GCF v1.x graph wire (legacy, read and written for old tools and logs; docs/legacy-v1.md)"
	}
	return "GCF v3.6.0 graph profile: text for a model's context window, fewest tokens"
}

func (c gcfCodec) opts() []gcf.Option {
	if c.v1 {
		return []gcf.Option{gcf.WithWire(gcf.WireV1)}
	}
	return nil
}

func (c gcfCodec) Encode(w io.Writer, p *gcf.Payload) error {
	b, err := gcf.Encode(p, c.opts()...)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func (c gcfCodec) Decode(r io.Reader) (*gcf.Payload, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	return c.DecodeBytes(data)
}

func (c gcfCodec) DecodeBytes(data []byte) (*gcf.Payload, error) {
	return gcf.Decode(data, c.opts()...)
}

func (c gcfCodec) EncodeDelta(w io.Writer, d *gcf.DeltaPayload) error {
	b, err := gcf.EncodeDelta(d, c.opts()...)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func (c gcfCodec) DecodeDelta(r io.Reader) (*gcf.DeltaPayload, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	return gcf.DecodeDelta(data, c.opts()...)
}
