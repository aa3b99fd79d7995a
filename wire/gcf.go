package wire

import (
	"io"

	"github.com/gcfkit/gcf"
)

// gcfCodec is GCF v3.5.3, graph profile, through the root package: the
// text a model reads. It carries what the graph wire carries (SPEC §5, §6):
// no signatures, no score components, scores with two decimals, and only
// edges between declared symbols (gcf.Encode refuses others).
type gcfCodec struct{}

func (gcfCodec) Name() string { return "gcf" }

func (gcfCodec) Description() string {
	return "GCF v3.5.3 graph profile: text for a model's context window, fewest tokens"
}

func (gcfCodec) Encode(w io.Writer, p *gcf.Payload) error {
	b, err := gcf.Encode(p)
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

func (gcfCodec) DecodeBytes(data []byte) (*gcf.Payload, error) { return gcf.Decode(data) }

func (gcfCodec) EncodeDelta(w io.Writer, d *gcf.DeltaPayload) error {
	b, err := gcf.EncodeDelta(d)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func (gcfCodec) DecodeDelta(r io.Reader) (*gcf.DeltaPayload, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	return gcf.DecodeDelta(data)
}
