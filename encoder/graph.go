package encoder

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// The graph profile's own syntax pieces (SPEC §5, §6a, §10.1): scores,
// distance-group names, the delta header's savings and the delta lines,
// the mirror of what package stream's graph decoder reads (validScore,
// graphGroup, graphRemoved, graphDeltaEdge). The v1 graph wire writes the
// same pieces (SPEC-v1.1 §3, SPEC-v1.4).

// AppendGroupName appends the section name of distance group d (SPEC §6a):
// targets, related, extended, then distance_N.
func AppendGroupName(dst []byte, d int) []byte {
	switch d {
	case 0:
		return append(dst, "targets"...)
	case 1:
		return append(dst, "related"...)
	case 2:
		return append(dst, "extended"...)
	}
	dst = append(dst, "distance_"...)
	return strconv.AppendInt(dst, int64(d), 10)
}

// GroupNameLen is len(AppendGroupName(nil, d)) for d >= 0.
func GroupNameLen(d int) int {
	switch d {
	case 0, 1:
		return len("targets")
	case 2:
		return len("extended")
	}
	return len("distance_") + DigitsLen(d)
}

// DigitsLen is the number of decimal digits of a non-negative n.
func DigitsLen(n int) int {
	// The bit length gives the digit count or one more (log10(2) ~
	// 1233/4096); one comparison with a power of ten, without a branch,
	// tells which. u|1 has the digits of u (powers of ten are even) and
	// makes 0 count as 1.
	u := uint64(n) | 1
	t := uint(bits.Len64(u)) * 1233 >> 12
	d := int(t) + 1
	if u < tenPow[t%20] {
		d--
	}
	return d
}

// tenPow holds 10^0 .. 10^19, every power of ten a uint64 holds.
var tenPow = func() (t [20]uint64) {
	t[0] = 1
	for i := 1; i < 20; i++ {
		t[i] = t[i-1] * 10
	}
	return t
}()

// EdgesSection is the name of the graph profile's edge section, also its
// label in a trailer's labelled counts (`edges:M`).
const EdgesSection = "edges"

// AppendEdgesLabel appends `edges`, the label of the edge count in a
// trailer's labelled counts; AppendLabelEnd and the count follow.
func AppendEdgesLabel(dst []byte) []byte { return append(dst, EdgesSection...) }

// AppendScore appends the finite score v as the graph wire writes it (SPEC
// §5): exactly two decimals, rounded half to even on the exact binary
// value, no minus sign on a result of zero (SPEC §2.3.1).
func AppendScore(dst []byte, v float64) []byte {
	if n, neg, ok := ScoreCents(v); ok {
		return AppendCents(dst, n, neg)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', 2, 64) // rounds the exact decimal expansion
	if string(dst[start:]) == "-0.00" {
		dst = append(dst[:start], "0.00"...)
	}
	return dst
}

// AppendCents appends n hundredths as a score with exactly two decimals,
// after a minus sign when neg: AppendScore once ScoreCents has rounded.
func AppendCents(dst []byte, n uint64, neg bool) []byte {
	if neg {
		dst = append(dst, '-')
	}
	// One pass, as AppendInt writes digits: in place, two at a time from
	// the end, the two decimals first.
	nd := CentsLen(n, false)
	l := len(dst)
	if cap(dst)-l < nd {
		dst = slices.Grow(dst, nd)
	}
	dst = dst[:l+nd]
	i := l + nd - 3
	r := 2 * (n % 100)
	dst[i], dst[i+1], dst[i+2] = '.', digitPairs[r], digitPairs[r+1]
	u := n / 100
	for u >= 100 {
		q := u / 100
		r := 2 * (u - 100*q)
		i -= 2
		dst[i], dst[i+1] = digitPairs[r], digitPairs[r+1]
		u = q
	}
	if u >= 10 {
		dst[i-2], dst[i-1] = digitPairs[2*u], digitPairs[2*u+1]
	} else {
		dst[i-1] = byte('0' + u)
	}
	return dst
}

// CentsLen is len(AppendCents(nil, n, neg)).
func CentsLen(n uint64, neg bool) int {
	l := 3 + DigitsLen(int(n/100))
	if neg {
		l++
	}
	return l
}

// ScoreLen is len(AppendScore(nil, v)) for a finite v.
func ScoreLen(v float64) int {
	if n, neg, ok := ScoreCents(v); ok {
		return CentsLen(n, neg)
	}
	var tmp [48]byte
	return len(AppendScore(tmp[:0], v))
}

// ScoreCents returns |v| in hundredths, rounded half to even on the exact
// binary value, and whether the written score has a minus sign (not for a
// result of zero); ok is false for |v| >= 2^44, which AppendScore formats
// with strconv.
func ScoreCents(v float64) (n uint64, neg, ok bool) {
	a := math.Abs(v)
	if a >= 1<<44 {
		return 0, false, false
	}
	// Exact fast path. y is a*100 rounded; the FMA gives the product's
	// rounding error exactly, so the exact value a*100 = y + e is rounded
	// to the nearest integer, ties to even, without formatting digits.
	y := a * 100
	e := math.FMA(a, 100, -y)
	r := math.Floor(y)
	switch f := y - r; {
	case f > 0.5, f == 0.5 && e > 0, f == 0.5 && e == 0 && math.Mod(r, 2) == 1:
		r++
	}
	n = uint64(r)
	return n, v < 0 && n != 0, true
}

// AppendHeaderPercent appends ` key=n%`, a header field whose value is a
// percentage: the delta header's savings= (SPEC §10.1).
func AppendHeaderPercent(dst []byte, key string, n int64) []byte {
	return append(AppendHeaderInt(dst, key, n), '%')
}

// AppendRemovedLine appends the body of a delta `## removed` line, `kind
// qname` (SPEC §10.1, what stream's graphRemoved reads); a line end follows.
func AppendRemovedLine[S ~string | ~[]byte](dst []byte, kind, qname S) []byte {
	dst = append(dst, kind...)
	dst = append(dst, ' ')
	return append(dst, qname...)
}

// AppendDistance appends ` d`, the distance that ends a delta `## added`
// line after its node fields (SPEC §10.1).
func AppendDistance(dst []byte, d int64) []byte {
	return AppendInt(append(dst, ' '), d)
}

// AppendDeltaEdge appends the body of a delta edge line, `source -> target
// type` (SPEC §10.1, what stream's graphDeltaEdge reads); a line end
// follows.
func AppendDeltaEdge[S ~string | ~[]byte](dst []byte, source, target, typ S) []byte {
	dst = append(dst, source...)
	dst = append(dst, " -> "...)
	dst = append(dst, target...)
	dst = append(dst, ' ')
	return append(dst, typ...)
}
