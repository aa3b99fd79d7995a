package stream

import (
	"bytes"

	"github.com/gcfkit/gcf/lexer"
)

// Wire is the version of the GCF wire a Decoder reads.
type Wire uint8

// Wire versions.
const (
	// WireV3 is GCF v3 (SPEC.md v3.5.3 with the v3.6.0 additions): `GCF profile=...` headers. The default.
	WireV3 Wire = iota
	// WireV1 is the legacy GCF v1.x wire (SPEC-v1.1, as amended by
	// SPEC-v1.4): a graph header `GCF tool=...` without a profile, and a
	// headerless generic (tabular) profile. See docs/legacy-v1.md.
	WireV1
)

func (w Wire) String() string {
	if w == WireV1 {
		return "v1"
	}
	return "v3"
}

// V1Hint is the advice a v3 decoder gives when it meets a v1.x header.
const V1Hint = "this is a GCF v1.x payload; decode it with WireV1 or run `gcf migrate`"

// SetWire selects the wire version d reads; call it before the first Next.
// Reset and ResetBytes keep it. The v1 wire is a mode of the same decoder:
// the same limits, events and errors, with the v1 header, the v1 score
// grammar, 5-field delta `## added` lines and the `## _summary` trailer.
func (d *Decoder) SetWire(w Wire) { d.wire = w }

// Wire returns the wire version d reads.
func (d *Decoder) Wire() Wire { return d.wire }

// LooksV1 reports whether line, the first line of a payload, is a GCF v1.x
// graph header: `GCF` alone or followed by fields none of which is
// `profile=`. It does not validate the fields.
func LooksV1(line []byte) bool {
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !startsWith(line, "GCF") || (len(line) > 3 && line[3] != ' ') {
		return false
	}
	for _, f := range bytes.Fields(line[3:]) {
		if bytes.HasPrefix(f, []byte("profile=")) {
			return false
		}
	}
	return true
}

// v1Header finishes a v1 graph header whose fields header() has read
// (SPEC-v1.1 §3): tool= is required and profile= does not exist.
func (d *Decoder) v1Header(profile []byte, profileCol int) error {
	if profile != nil {
		return d.errAt(profileCol-len("profile="), lexer.UnknownProfile,
			"profile= is a GCF v3 header field: this is a v3 payload, decode it without WireV1")
	}
	tool := false
	for _, k := range d.hdrKeys {
		if string(k) == "tool" {
			tool = true
		}
	}
	if !tool {
		return d.errAt(1, lexer.MissingProfile, "the v1 graph header has no tool= field (SPEC-v1.1 §3: required)")
	}
	d.profile = "graph"
	d.consume()
	d.state = stBody
	d.ev = Event{Kind: KindHeader, Fields: d.hdrKeys, Cells: d.cells, Line: d.lineNo, Profile: d.profile, ID: -1, Field: -1}
	return nil
}

// v1Score reports whether t is a v1 score: a decimal `-?DIGITS[.DIGITS]`
// (SPEC-v1.1 §4 "decimal float"; encoders write two decimals, decoders
// take any decimal).
func v1Score(t []byte) bool { return lexer.IsV1Number(t) }

// summaryPrefix is the trailer's prefix on the wire d reads: `##! summary`
// (v3) or `## _summary` (v1.4).
func (d *Decoder) summaryPrefix() string {
	if d.wire == WireV1 {
		return "## _summary"
	}
	return "##! summary"
}

// isSummary reports whether the current line is the trailer.
func (d *Decoder) isSummary() bool {
	p := d.summaryPrefix()
	return d.level == 0 && startsWith(d.body, p) && (len(d.body) == len(p) || d.body[len(p)] == ' ')
}
