package transcode

import (
	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/internal/options"
)

// Canonical reports whether opts ask gcf.EncodeGeneric for the canonical
// layout of the v3 wire (no WithSize(Smallest), no WithWire(WireV1), no
// GroupBy): the only output EncodeJSON and EncodeJSONFrom write by their
// own passes; for any other they use the buffered encoder.
func Canonical(opts ...gcf.Option) bool {
	_, _, ok := settings(opts)
	return ok
}

// settings resolves opts as gcf.EncodeGeneric does: the limits, the spec
// version written (Spec36 unless WithSpec says otherwise) and whether the
// layout is canonical.
func settings(opts []gcf.Option) (lim gcf.Limits, spec gcf.Spec, canonical bool) {
	c := options.Resolve(opts)
	spec = c.Spec
	if spec == "" {
		spec = gcf.Spec36
	}
	return c.Limits, spec, c.Size == gcf.Canonical && c.Wire != gcf.WireV1 && !c.Group.On
}
