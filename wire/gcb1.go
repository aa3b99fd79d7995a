package wire

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/gcfkit/gcf"
)

// GCB1 is the product's binary layout, version 1, byte for byte (its
// description: ../shared/reference/wire/GCB.md). Version 1 cannot hold
// everything a payload holds; by default Encode refuses, naming the field
// and the value, a payload it would change:
//
//   - a kind, provenance or edge type outside its table (even ""), or a
//     status other than "", "added" and "removed";
//   - a distance outside 0..255;
//   - a score or component that float32 does not hold exactly;
//   - a pack root (version 1 has no field for it);
//   - an edge endpoint that names no symbol (version 1 has only indexes).
//
// Absent components are written as zeros, and decode as zero components.
// With Lossy set, Encode writes what the product writes instead: 0 for an
// unknown table string, the low 8 bits of a distance, float32 numbers,
// no pack root, and index 0 for an undeclared endpoint.
//
// Decode reads both versions (see DecodeGCB).
type GCB1 struct {
	Lossy  bool       // reproduce the product's silent losses instead of refusing
	Limits gcf.Limits // for Decode: MaxElements, MaxBytes (zero: defaults); as GCB's
	// Float32Decimals makes Decode return each version 1 number as the
	// shortest decimal of its float32 (0.7799999713897705 -> 0.78), which
	// is the value the strict encoder was given. The product, and Decode
	// without it, return the float32's exact value.
	Float32Decimals bool
}

func (GCB1) Name() string { return "gcb1" }
func (GCB1) Binary() bool { return true }

func (GCB1) Description() string {
	return "GCB version 1, byte-compatible with the product; refuses what it would lose"
}

func (c GCB1) Encode(w io.Writer, p *gcf.Payload) error {
	b, err := c.Append(nil, p)
	return writeTo(w, b, err)
}

func (c GCB1) Decode(r io.Reader) (*gcf.Payload, error) {
	data, err := readMax(r, c.Limits.MaxBytes)
	if err != nil {
		return nil, err
	}
	return c.DecodeBytes(data)
}

// DecodeBytes decodes a GCB stream of either version held in memory.
func (c GCB1) DecodeBytes(data []byte) (*gcf.Payload, error) {
	return decodeGCB(data, c.Limits, c.Float32Decimals)
}

// lossErr reports a value GCB1 cannot carry.
func lossErr(format string, args ...any) error {
	return &gcf.SyntaxError{Category: gcf.UnsupportedValue,
		Msg: "wire/gcb1: " + fmt.Sprintf(format, args...) + " (GCB1 would lose it; use the gcb codec, or GCB1{Lossy: true} to reproduce the loss)"}
}

// Append appends the GCB1 encoding of p to dst.
// Like GCB's, it refuses what a decoder with the same Limits would reject.
func (c GCB1) Append(dst []byte, p *gcf.Payload) (out []byte, err error) {
	if p == nil {
		return dst, &gcf.SyntaxError{Category: gcf.UnsupportedValue, Msg: "wire/gcb1: nil payload"}
	}
	if err := checkEncodeLimits(p, c.Limits); err != nil {
		return dst, err
	}
	defer func() {
		if err == nil {
			if err = checkEncodedSize(len(out)-len(dst), 0, c.Limits); err != nil {
				out = dst
			}
		}
	}()
	if p.PackRoot != "" && !c.Lossy {
		return dst, lossErr("pack root %q", p.PackRoot)
	}
	b := append(dst, gcbMagic...)
	b = append(b, gcbVersion1)
	b = appendUvarint(b, uint64(len(p.Tool)))
	b = append(b, p.Tool...)
	b = appendUvarint(b, uint64(p.TokensUsed))
	b = appendUvarint(b, uint64(p.TokenBudget))
	b = appendUvarint(b, uint64(len(p.Symbols)))
	b = appendUvarint(b, uint64(len(p.Edges)))
	index := make(map[string]int, len(p.Symbols))
	for i := range p.Symbols {
		s := &p.Symbols[i]
		index[s.QualifiedName] = i // the last of duplicates wins, as in the product
		what := func() string { return "symbol " + strconv.Itoa(i) + " (" + strconv.Quote(s.QualifiedName) + ")" }
		kind, ok := kindIDs[s.Kind]
		if !ok && !c.Lossy {
			return dst, lossErr("%s: kind %q is not in the GCB1 table", what(), s.Kind)
		}
		prov, ok := provenanceIDs[s.Provenance]
		if !ok && !c.Lossy {
			return dst, lossErr("%s: provenance %q is not in the GCB1 table", what(), s.Provenance)
		}
		if (s.Distance < 0 || s.Distance > 255) && !c.Lossy {
			return dst, lossErr("%s: distance %d is outside 0..255", what(), s.Distance)
		}
		var comps gcf.Components
		if s.Components != nil {
			comps = *s.Components
		}
		for _, f := range [...]struct {
			name string
			v    float64
		}{{"score", s.Score}, {"components.blastRadius", comps.BlastRadius}, {"components.confidence", comps.Confidence},
			{"components.recency", comps.Recency}, {"components.distance", comps.Distance}} {
			if !c.Lossy && !float32Keeps(f.v) {
				return dst, lossErr("%s: %s %v does not survive float32 (it would become %v)", what(), f.name, f.v, float64(float32(f.v)))
			}
		}
		b = appendUvarint(b, uint64(len(s.QualifiedName)))
		b = append(b, s.QualifiedName...)
		b = append(b, byte(kind))
		b = appendF32(b, s.Score)
		b = append(b, byte(prov), byte(s.Distance))
		b = appendUvarint(b, uint64(len(s.Signature)))
		b = append(b, s.Signature...)
		b = appendF32(b, comps.BlastRadius)
		b = appendF32(b, comps.Confidence)
		b = appendF32(b, comps.Recency)
		b = appendF32(b, comps.Distance)
	}
	for i := range p.Edges {
		e := &p.Edges[i]
		src, okS := index[e.Source]
		tgt, okT := index[e.Target]
		if !c.Lossy {
			what := "edge " + strconv.Itoa(i) + " (" + strconv.Quote(e.Source) + " -> " + strconv.Quote(e.Target) + ")"
			switch {
			case !okS:
				return dst, lossErr("%s: source %q is not a symbol of the payload", what, e.Source)
			case !okT:
				return dst, lossErr("%s: target %q is not a symbol of the payload", what, e.Target)
			}
			if _, ok := edgeTypeIDs[e.EdgeType]; !ok {
				return dst, lossErr("%s: edge type %q is not in the GCB1 table", what, e.EdgeType)
			}
			if e.Status != "" && e.Status != "added" && e.Status != "removed" {
				return dst, lossErr("%s: status %q is not \"\", \"added\" or \"removed\"", what, e.Status)
			}
		}
		b = appendUvarint(b, uint64(src))
		b = appendUvarint(b, uint64(tgt))
		b = append(b, byte(edgeTypeIDs[e.EdgeType]))
		switch e.Status {
		case "added":
			b = append(b, 1)
		case "removed":
			b = append(b, 2)
		default:
			b = append(b, 0)
		}
	}
	return b, nil
}

func appendF32(b []byte, v float64) []byte {
	u := math.Float32bits(float32(v))
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
}

// Minimum sizes of a version 1 symbol and edge, to bound declared counts.
const (
	v1MinSymbol = 1 + 1 + 4 + 1 + 1 + 1 + 16
	v1MinEdge   = 4
)

func v1Name(t []string, id byte) string {
	if id >= 1 && int(id) <= len(t) {
		return t[id-1]
	}
	return "unknown_" + strconv.Itoa(int(id))
}

// decodeV1 reads the rest of a version 1 stream (after the version byte).
// Unknown table ids decode as "unknown_<id>" and unknown statuses as "", as
// in the product; unlike it, counts and lengths are checked against the
// input first, an index past the symbols is an error, and so are bytes
// after the last edge.
func decodeV1(r *reader, l gcf.Limits, decimals bool) (*gcf.Payload, error) {
	// One string holds every text of the stream; fields are slices of it.
	all := string(r.b)
	str := func(what string) (string, error) {
		n, err := r.length(what + " length")
		if err != nil {
			return "", err
		}
		s := all[r.off : r.off+n]
		r.off += n
		return s, nil
	}
	p := &gcf.Payload{}
	var err error
	if p.Tool, err = str("the tool"); err != nil {
		return nil, err
	}
	u, err := r.uvarint("tokens used")
	if err != nil {
		return nil, err
	}
	p.TokensUsed = int(u)
	if u, err = r.uvarint("the token budget"); err != nil {
		return nil, err
	}
	p.TokenBudget = int(u)
	max := elementLimit(l)
	nsym, err := r.count("the symbol count", min(max, r.rest()/v1MinSymbol))
	if err != nil {
		return nil, err
	}
	nedge, err := r.count("the edge count", min(max, (r.rest()-nsym*v1MinSymbol)/v1MinEdge))
	if err != nil {
		return nil, err
	}
	p.Symbols = make([]gcf.Symbol, nsym)
	comps := make([]gcf.Components, nsym)
	for i := range p.Symbols {
		s := &p.Symbols[i]
		what := "symbol " + strconv.Itoa(i)
		if s.QualifiedName, err = str(what + " qualified name"); err != nil {
			return nil, err
		}
		if r.rest() < 7 {
			r.off = len(r.b)
			return nil, r.eof(what)
		}
		b := r.b[r.off:]
		s.Kind = v1Name(kindTable, b[0])
		s.Score = widen(math.Float32frombits(uint32(b[1])|uint32(b[2])<<8|uint32(b[3])<<16|uint32(b[4])<<24), decimals)
		s.Provenance = v1Name(provenanceTable, b[5])
		s.Distance = int(b[6])
		r.off += 7
		if s.Signature, err = str(what + " signature"); err != nil {
			return nil, err
		}
		c := &comps[i]
		for _, f := range [...]*float64{&c.BlastRadius, &c.Confidence, &c.Recency, &c.Distance} {
			if *f, err = r.f32(what + " components"); err != nil {
				return nil, err
			}
			*f = widen(float32(*f), decimals)
		}
		s.Components = c
	}
	p.Edges = make([]gcf.Edge, nedge)
	for i := range p.Edges {
		e := &p.Edges[i]
		what := "edge " + strconv.Itoa(i)
		at := r.off
		src, err := r.uvarint(what + " source")
		if err != nil {
			return nil, err
		}
		tgt, err := r.uvarint(what + " target")
		if err != nil {
			return nil, err
		}
		if src >= uint64(nsym) || tgt >= uint64(nsym) {
			r.off = at
			return nil, r.errf(gcf.UnknownEdgeReference, "%s refers to symbols %d and %d; there are %d", what, src, tgt, nsym)
		}
		b, err := r.bytesN(2, what+" type and status")
		if err != nil {
			return nil, err
		}
		e.Source, e.Target = p.Symbols[src].QualifiedName, p.Symbols[tgt].QualifiedName
		e.EdgeType = v1Name(edgeTypeTable, b[0])
		switch b[1] {
		case 1:
			e.Status = "added"
		case 2:
			e.Status = "removed"
		}
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	return p, nil
}

// float32Keeps reports whether v survives GCB1's float32 narrowing as a
// number: the float32 holds it exactly, or prints (shortest form for
// float32) as the decimal that denotes v. 0.78 is kept (the float32
// 0.7799999713897705 prints as 0.78); 1e40 (+Inf), 1e-50 (0) and
// 0.30000000000000004 are not. A decoder gets the float32's value back
// (GCB1 Float32Decimals restores the decimal).
func float32Keeps(v float64) bool {
	f := float32(v)
	if float64(f) == v || math.IsNaN(v) {
		return true
	}
	if math.IsInf(float64(f), 0) {
		return false
	}
	back, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return err == nil && back == v
}

// widen returns f as a float64: its exact value, or with decimals the
// value of its shortest float32 decimal.
func widen(f float32, decimals bool) float64 {
	if !decimals || math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
		return float64(f)
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil {
		return float64(f)
	}
	return v
}
