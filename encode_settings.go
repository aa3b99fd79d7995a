package gcf

// EncodeSettings reports what opts ask of EncodeGeneric, for an encoder
// outside this package that must write the same bytes (transcode's JSON
// transcoder): the resolved limits, the spec version (Spec36 unless
// WithSpec says otherwise), and whether the layout is the canonical one of
// the v3 wire (no WithSize(Smallest), no WithWire(WireV1), no GroupBy).
func EncodeSettings(opts ...Option) (lim Limits, spec Spec, canonical bool) {
	c := newConfig(opts)
	spec = c.spec
	if spec == "" {
		spec = Spec36
	}
	return c.limits, spec, c.size == Canonical && c.wire != WireV1 && c.group == (groupBy{})
}
