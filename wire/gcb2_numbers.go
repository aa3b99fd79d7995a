package wire

// The numbers of GCB version 2: a float64 as its shortest decimal
// (decimal, shortestDecimal), the one-byte codes of small decimals under a
// default exponent, and the encoder's table of the hundredths that most
// scores are (numCode, appendNumCode). The layout is in docs/wire.md.

import (
	"math"
	"math/bits"
)

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimal is a float64 as ±m·10^e with m < 2^53, the fewest digits that
// give the same double; ok is false when there is none (NaN, ±Inf, ...).
// Bit i of one is set when the number takes one byte under the default
// exponent -i (see small).
type decimal struct {
	m   uint64
	e   int8
	neg bool
	ok  bool
	one uint8
}

// hundredths holds the doubles nearest k/100 for k < 256 and their
// decimals: most scores and components are one of them.
var hundredths = func() (t [256]struct {
	v float64
	d decimal
}) {
	for k := range t {
		t[k].v = float64(k) / 100
		t[k].d = shortestDecimal(t[k].v)
	}
	return t
}()

// shortestDecimal returns the decimal of v, with its one-byte exponents.
func shortestDecimal(v float64) decimal {
	d := findDecimal(v)
	for i := 0; i <= -minDefaultExponent; i++ {
		if _, ok := d.smallLoop(-i); ok {
			d.one |= 1 << i
		}
	}
	return d
}

// findDecimal returns the decimal of v, without its one-byte exponents.
func findDecimal(v float64) decimal {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return decimal{}
	}
	neg := math.Signbit(v)
	a := math.Abs(v)
	if a == 0 {
		return decimal{neg: neg, ok: true}
	}
	if a < 1<<40 {
		// Fast path for the usual two-decimal scores: if a is the double
		// nearest m/100, no decimal with fewer digits but another value
		// is (doubles this small are far closer than 0.01 apart), so
		// stripping m's trailing zeros gives the shortest form.
		if m := math.Round(a * 100); m/100 == a {
			k := 2
			u := uint64(m)
			for k > 0 && u%10 == 0 {
				u /= 10
				k--
			}
			return decimal{m: u, e: int8(-k), neg: neg, ok: true}
		}
	}
	if a < 1<<53 {
		for k := 0; k <= 19; k++ {
			x := a * pow10[k]
			if x >= 1<<53 {
				break
			}
			// m/10^k is one correctly rounded division of exact operands:
			// the double nearest the decimal, as a parser would give.
			if m := math.Round(x); m/pow10[k] == a {
				return decimal{m: uint64(m), e: int8(-k), neg: neg, ok: true}
			}
		}
		return decimal{}
	}
	for k := 19; k >= 1; k-- { // the largest exponent: the fewest mantissa digits
		if m := math.Round(a / pow10[k]); m < 1<<53 && m*pow10[k] == a {
			return decimal{m: uint64(m), e: int8(k), neg: neg, ok: true}
		}
	}
	return decimal{}
}

// value is the double a decimal denotes.
func (d decimal) value() float64 {
	v := float64(d.m)
	if d.e < 0 {
		v /= pow10[-d.e]
	} else {
		v *= pow10[d.e]
	}
	if d.neg {
		v = -v
	}
	return v
}

// minDefaultExponent is the least default exponent the encoder picks.
const minDefaultExponent = -6

var pow10u = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000}

// small returns the one-byte form of d under the default exponent E
// (minDefaultExponent..0), if it has one.
func (d decimal) small(E int) (byte, bool) {
	if d.one>>-E&1 == 0 {
		return 0, false
	}
	return byte(d.m * pow10u[int(d.e)-E]), true // at most 200: d.e-E <= 2, or m = 0
}

// smallLoop is small for any E, by its definition: d is m·10^(d.e-E)·10^E
// with that multiple at most numSmallMax.
func (d decimal) smallLoop(E int) (byte, bool) {
	if !d.ok || d.neg || int(d.e) < E {
		return 0, false
	}
	m := d.m
	for k := int(d.e) - E; k > 0; k-- {
		m *= 10
		if m > numSmallMax {
			return 0, false
		}
	}
	if m > numSmallMax {
		return 0, false
	}
	return byte(m), true
}

// appendNum writes the number v, of decimal d, under the default exponent
// E (minDefaultExponent..0).
func appendNum(b []byte, d decimal, v float64, E int) []byte {
	if c, ok := d.small(E); ok {
		return append(b, c)
	}
	return appendWideNum(b, d, v)
}

// appendWideNum writes the number v, of decimal d, in its decimal or raw
// form.
func appendWideNum(b []byte, d decimal, v float64) []byte {
	if d.ok && d.e >= -19 && d.e <= 19 {
		b = append(b, byte(numDecimalMid+int(d.e)))
		u := d.m << 1
		if d.neg {
			u |= 1
		}
		return appendUvarint(b, u)
	}
	u := math.Float64bits(v)
	return append(b, numRaw, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
}

// The first pass over a payload's numbers gives each a code: k < 256 for
// hundredths[k], 256+i for e.wide[i]; it counts, per default exponent, the
// numbers one byte long (e.ones[i] for exponent -i: hundredths through
// nine-bit fields of e.packed, flushed every 511 numbers).

// wideNum is a number outside hundredths, with its decimal.
type wideNum struct {
	d decimal
	v float64
}

var (
	// onePacked[k] has 1 in nine-bit field i when hundredths[k] is one
	// byte long under exponent -i.
	onePacked [256]uint64
	// oneByte[i][k] is that byte, or 0xFF.
	oneByte [1 - minDefaultExponent][256]uint8
)

func init() {
	for k := range hundredths {
		for i := range oneByte {
			c, ok := hundredths[k].d.small(-i)
			if !ok {
				c = 0xFF
			} else {
				onePacked[k] |= 1 << (9 * i)
			}
			oneByte[i][k] = c
		}
	}
}

// notHundredth is numCode's answer for a number that is not a hundredth
// (no code is as large, nor the OR of codes: that would take 2^31
// numbers outside the hundredths).
const notHundredth = 1 << 31

// numCode returns the code of v when it is a hundredth, adding its counts
// to e.packed (the caller counts the additions in e.npacked and flushes
// before 511), else notHundredth: the caller then takes wideCode. (It is
// small enough to be inlined.)
func (e *v2enc) numCode(v float64) uint32 {
	if x := v * 100; x > 0 && x < 255.5 { // false for NaN; 0 keeps its sign below
		if k := uint8(x + 0.5); hundredths[k].v == v {
			e.packed += onePacked[k]
			return uint32(k)
		}
	}
	return notHundredth
}

// wideCode returns the code of v, not a hundredth, counting it in e.ones.
func (e *v2enc) wideCode(v float64) uint32 {
	d := shortestDecimal(v)
	for m := d.one; m != 0; m &= m - 1 {
		e.ones[bits.TrailingZeros8(m)]++
	}
	e.wide = append(e.wide, wideNum{d, v})
	return uint32(256 + len(e.wide) - 1)
}

func (e *v2enc) flushOnes() {
	for i := range e.ones {
		e.ones[i] += int(e.packed >> (9 * i) & 511)
	}
	e.packed, e.npacked = 0, 0
}

// exponent returns the default exponent of the numbers counted: the one
// in minDefaultExponent..0 under which the most are one byte long (the
// greatest on a tie).
func (e *v2enc) exponent() int {
	e.flushOnes()
	best := 0
	for i := 1; i < len(e.ones); i++ {
		if e.ones[i] > e.ones[best] {
			best = i
		}
	}
	return -best
}

// oneByteOf returns the byte of the number of code c when it is a
// hundredth one byte long, ones being oneByte[-E].
func oneByteOf(ones *[256]uint8, c uint32) (byte, bool) {
	if c < 256 {
		x := ones[c]
		return x, x != 0xFF
	}
	return 0, false
}

// appendNumCode writes the number of code c under the default exponent E.
func (e *v2enc) appendNumCode(b []byte, c uint32, E int) []byte {
	if c < 256 {
		if x := oneByte[-E][c]; x != 0xFF {
			return append(b, x)
		}
		return appendWideNum(b, hundredths[c].d, hundredths[c].v)
	}
	w := &e.wide[c-256]
	return appendNum(b, w.d, w.v, E)
}
