package wire

// The GCB version 2 decoder (decodeV2) and its enum, number and LZ text
// readers; the encoder is in gcb2.go.

import (
	"encoding/hex"
	"math"
	"strings"

	"github.com/gcfkit/gcf"
)

// v2dec is the state of one version 2 decode.
type v2dec struct {
	r       *reader
	arena   strings.Builder // the primer, then every text of the stream
	textEnd int             // the arena's declared final length
	dyn     [4][]string
	E       int
}

func decodeV2(r *reader, l gcf.Limits) (*gcf.Payload, error) {
	d := &v2dec{r: r}
	p := &gcf.Payload{}
	n, err := r.length("the tool length")
	if err != nil {
		return nil, err
	}
	p.Tool = string(r.b[r.off : r.off+n])
	r.off += n
	for _, f := range [...]struct {
		dst  *int
		what string
	}{{&p.TokensUsed, "tokens used"}, {&p.TokenBudget, "the token budget"}} {
		u, err := r.uvarint(f.what)
		if err != nil {
			return nil, err
		}
		*f.dst = int(unzigzag(u))
	}
	at := r.off
	k, err := r.count("the pack root", r.rest()+2)
	if err != nil {
		return nil, err
	}
	switch k {
	case 0:
	case 1:
		raw, err := r.bytesN(32, "the pack root")
		if err != nil {
			return nil, err
		}
		p.PackRoot = hex.EncodeToString(raw)
	default:
		if k-2 > r.rest() {
			r.off = at
			return nil, r.errf(gcf.InvalidCount, "the pack root length %d is more than the %d bytes that remain", k-2, r.rest())
		}
		p.PackRoot = string(r.b[r.off : r.off+k-2])
		r.off += k - 2
	}
	at = r.off
	u, err := r.uvarint("the default exponent")
	if err != nil {
		return nil, err
	}
	if E := unzigzag(u); E < -22 || E > 22 {
		r.off = at
		return nil, r.errf(gcf.InvalidScore, "the default exponent %d is outside -22..22", E)
	} else {
		d.E = int(E)
	}
	at = r.off
	T, err := r.count("the text length", v2MaxExpand*r.rest())
	if err != nil {
		return nil, err
	}
	if bound := textBound(len(r.b), l); int64(T) > bound {
		r.off = at
		return nil, r.errf(gcf.PayloadTooLarge, "the stream declares %d bytes of text, over the bound of %d for its %d bytes (%s)",
			T, bound, len(r.b), textBoundRule(l))
	}
	maxEl := elementLimit(l)
	nsym, err := r.count("the symbol count", min(maxEl, r.rest()/v2MinSymbol))
	if err != nil {
		return nil, err
	}
	nedge, err := r.count("the edge count", min(maxEl, (r.rest()-nsym*v2MinSymbol)/v2MinEdge))
	if err != nil {
		return nil, err
	}
	d.arena.Grow(len(lzPrimer) + min(T, 8*r.rest()))
	d.arena.WriteString(lzPrimer)
	d.textEnd = len(lzPrimer) + T

	p.Symbols = make([]gcf.Symbol, nsym)
	// The names again, compactly: edges look them up at random, and a
	// 16-byte stride misses the cache far less than the symbols' 88.
	names := make([]string, nsym)
	var comps []gcf.Components
	prevStart, prevLen := 0, 0
	for i := range p.Symbols {
		s := &p.Symbols[i]
		at := r.off
		shared, err := r.uvarint("a qualified name")
		if err != nil {
			return nil, err
		}
		if shared > uint64(min(prevLen, v2MaxShared)) {
			r.off = at
			return nil, r.errf(gcf.InvalidNodeLine, "symbol %d shares %d bytes with the previous name, which has %d (at most %d may be shared)",
				i, shared, prevLen, v2MaxShared)
		}
		n, err := r.length("a qualified name")
		if err != nil {
			return nil, err
		}
		start := d.arena.Len()
		if start+int(shared)+n > d.textEnd {
			r.off = at
			return nil, d.overText()
		}
		d.arena.WriteString(d.arena.String()[prevStart : prevStart+int(shared)])
		d.arena.Write(r.b[r.off : r.off+n])
		r.off += n
		s.QualifiedName = d.arena.String()[start:]
		prevStart, prevLen = start, len(s.QualifiedName)
		names[i] = s.QualifiedName
		if s.Kind, err = d.enum(tabKind, "kind"); err != nil {
			return nil, err
		}
		if s.Provenance, err = d.enum(tabProvenance, "provenance"); err != nil {
			return nil, err
		}
		f, err := r.byte1("symbol flags")
		if err != nil {
			return nil, err
		}
		if dist := int(f >> 2); dist < distEscape {
			s.Distance = dist
		} else {
			u, err := r.uvarint("a distance")
			if err != nil {
				return nil, err
			}
			s.Distance = int(unzigzag(u))
		}
		if s.Score, err = d.num(); err != nil {
			return nil, err
		}
		if f&1 != 0 {
			if s.Signature, err = d.lzText("a signature"); err != nil {
				return nil, err
			}
		}
		if f&2 != 0 {
			if comps == nil {
				comps = make([]gcf.Components, nsym-i)
			}
			c := &comps[0]
			comps = comps[1:]
			for _, x := range [...]*float64{&c.BlastRadius, &c.Confidence, &c.Recency, &c.Distance} {
				if *x, err = d.num(); err != nil {
					return nil, err
				}
			}
			s.Components = c
		}
	}
	p.Edges = make([]gcf.Edge, nedge)
	var ext []string
	endpoint := func(i int) (string, error) {
		at := r.off
		v, err := r.uvarint("an edge endpoint")
		if err != nil {
			return "", err
		}
		if v < uint64(nsym) {
			return names[v], nil
		}
		k := v - uint64(nsym)
		switch {
		case k < uint64(len(ext)):
			return ext[k], nil
		case k == uint64(len(ext)):
			s, err := d.lzText("an edge endpoint name")
			ext = append(ext, s)
			return s, err
		}
		r.off = at
		return "", r.errf(gcf.UnknownEdgeReference, "edge %d refers to endpoint %d; there are %d symbols and %d names so far", i, v, nsym, len(ext))
	}
	for i := range p.Edges {
		e := &p.Edges[i]
		// Fast path: both endpoints are symbols below 128, one byte each.
		if r.off+1 < len(r.b) && uint64(r.b[r.off]) < uint64(min(nsym, 128)) && uint64(r.b[r.off+1]) < uint64(min(nsym, 128)) {
			e.Source, e.Target = names[r.b[r.off]], names[r.b[r.off+1]]
			r.off += 2
		} else {
			if e.Source, err = endpoint(i); err != nil {
				return nil, err
			}
			if e.Target, err = endpoint(i); err != nil {
				return nil, err
			}
		}
		at := r.off
		f, err := r.uvarint("an edge type")
		if err != nil {
			return nil, err
		}
		if e.EdgeType, err = d.enumValue(tabEdgeType, "edge type", f>>2, at); err != nil {
			return nil, err
		}
		switch f & 3 {
		case 1:
			e.Status = "added"
		case 2:
			e.Status = "removed"
		case 3:
			if e.Status, err = d.enum(tabStatus, "status"); err != nil {
				return nil, err
			}
		}
	}
	if d.arena.Len() != d.textEnd {
		return nil, r.errf(gcf.CountMismatch, "the stream declares %d bytes of text and holds %d", T, d.arena.Len()-len(lzPrimer))
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	return p, nil
}

func (d *v2dec) overText() error {
	return d.r.errf(gcf.CountMismatch, "the text runs past the %d bytes the stream declares", d.textEnd-len(lzPrimer))
}

func (d *v2dec) enum(t int, what string) (string, error) {
	at := d.r.off
	v, err := d.r.uvarint(what)
	if err != nil {
		return "", err
	}
	return d.enumValue(t, what, v, at)
}

// enumValue resolves table value v (read at offset at): a static or
// dynamic entry, or 0 for a literal that follows and joins the table.
func (d *v2dec) enumValue(t int, what string, v uint64, at int) (string, error) {
	r := d.r
	static := staticTables[t].names
	switch {
	case v == 0:
		n, err := r.length("a " + what + " literal")
		if err != nil {
			return "", err
		}
		s := string(r.b[r.off : r.off+n])
		r.off += n
		d.dyn[t] = append(d.dyn[t], s)
		return s, nil
	case v <= uint64(len(static)):
		return static[v-1], nil
	case v-uint64(len(static))-1 < uint64(len(d.dyn[t])):
		return d.dyn[t][v-uint64(len(static))-1], nil
	}
	r.off = at
	c := gcf.InvalidNodeLine
	if t >= tabEdgeType {
		c = gcf.InvalidEdgeSyntax
	}
	return "", r.errf(c, "%s value %d is not in its table (%d entries so far)", what, v, len(static)+len(d.dyn[t]))
}

// num reads one number (see docs/wire.md).
func (d *v2dec) num() (float64, error) {
	r := d.r
	if r.off >= len(r.b) {
		return 0, r.eof("a number")
	}
	c := r.b[r.off]
	r.off++
	switch {
	case c <= numSmallMax:
		v := float64(c)
		if d.E < 0 {
			return v / pow10[-d.E], nil
		}
		return v * pow10[d.E], nil
	case c <= numDecimalHi:
		at := r.off - 1
		u, err := r.uvarint("a number")
		if err != nil {
			return 0, err
		}
		if u>>1 >= 1<<53 {
			r.off = at
			return 0, r.errf(gcf.InvalidScore, "decimal mantissa %d is 2^53 or more", u>>1)
		}
		return decimal{m: u >> 1, e: int8(int(c) - numDecimalMid), neg: u&1 != 0}.value(), nil
	case c == numRaw:
		b, err := r.bytesN(8, "a number")
		if err != nil {
			return 0, err
		}
		return math.Float64frombits(uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56), nil
	}
	r.off--
	return 0, r.errf(gcf.InvalidScore, "number code 0x%02X is reserved", c)
}

// lzText reads a length and back-reference operations, appends the text
// to the arena and returns it.
func (d *v2dec) lzText(what string) (string, error) {
	r := d.r
	at := r.off
	L, err := r.uvarint(what)
	if err != nil {
		return "", err
	}
	start := d.arena.Len()
	if L > uint64(d.textEnd-start) {
		r.off = at
		return "", d.overText()
	}
	end := start + int(L)
	for d.arena.Len() < end {
		op, err := r.byte1(what)
		if err != nil {
			return "", err
		}
		cur := d.arena.Len()
		if op < 0x80 {
			n := int(op) + 1
			if n > end-cur {
				r.off--
				return "", r.errf(gcf.CountMismatch, "%s: a literal of %d bytes runs past its length %d", what, n, L)
			}
			if n > r.rest() {
				r.off = len(r.b)
				return "", r.eof(what)
			}
			d.arena.Write(r.b[r.off : r.off+n])
			r.off += n
			continue
		}
		n := int(op&0x7f) + 3
		opAt := r.off - 1
		dist, err := r.uvarint(what)
		if err != nil {
			return "", err
		}
		if n > end-cur || dist == 0 || dist > uint64(cur) {
			r.off = opAt
			if n > end-cur {
				return "", r.errf(gcf.CountMismatch, "%s: a copy of %d bytes runs past its length %d", what, n, L)
			}
			return "", r.errf(gcf.OutOfRange, "%s: a copy from %d bytes back, where %d bytes precede", what, dist, cur)
		}
		src := cur - int(dist)
		for n > 0 {
			k := min(n, int(dist))
			d.arena.WriteString(d.arena.String()[src : src+k])
			src += k
			n -= k
		}
	}
	return d.arena.String()[start:end], nil
}
