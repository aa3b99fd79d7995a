package gcf

import "github.com/gcfkit/gcf/stream"

// Wire selects the version of the GCF wire a decoder reads or an encoder
// writes (WithWire). The default is WireV3.
type Wire = stream.Wire

// Wire versions.
const (
	// WireV3 is GCF v3.5.3, the default everywhere.
	WireV3 = stream.WireV3
	// WireV1 is the legacy GCF v1.x wire of the original product documents
	// (SPEC-v1.1 as amended by SPEC-v1.4): graph headers `GCF tool=...`
	// without a profile, headerless generic payloads, v1 sessions, deltas
	// and `## _summary` streams. See docs/legacy-v1.md.
	WireV1 = stream.WireV1
)

// WithWire selects the wire version: Decode, DecodeDelta, DecodeGeneric and
// NewDecoder read it, Encode, EncodeWithSession, EncodeDelta,
// EncodeGeneric and NewEncoder write it. Without it they use WireV3, and a
// v3 decoder given a v1.x payload fails with missing_profile and the
// advice to use WireV1 or `gcf migrate`.
func WithWire(w Wire) Option { return func(c *config) { c.wire = w } }

// bytesDecoder returns a pull decoder over data with c's limits and wire.
func (c *config) bytesDecoder(data []byte) *stream.Decoder {
	d := stream.NewBytesDecoder(data, c.limits)
	d.SetWire(c.wire)
	return d
}
