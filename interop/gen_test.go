package interop

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/gcfkit/gcf"
)

// The random documents: realistic JSON values (API responses, records,
// configuration) with the shapes that decide GCF's layout (record arrays,
// keyed maps, nested objects and arrays inside rows, absent and null
// fields), drawn from a fixed seed. Keys and strings that the spec treats
// specially (§2.4, §2a) appear with a small probability, so that the
// documents stay mostly ordinary and the byte-identical rate measures the
// common case; the targeted shapes (targets_test.go) go after the corners.

type gen struct {
	r *rand.Rand
}

func newGen(seed uint64) *gen { return &gen{r: rand.New(rand.NewPCG(seed, 0x6366))} }

func (g *gen) n(k int) int         { return g.r.IntN(k) }
func (g *gen) p(prob float64) bool { return g.r.Float64() < prob }

var plainKeys = []string{"id", "name", "type", "status", "value", "count", "items", "tags", "user", "meta",
	"created_at", "url", "title", "body", "labels", "price", "qty", "sku", "city", "owner", "a", "b", "c", "x", "y"}

var oddKeys = []string{"", " ", "with space", "a.b", "a,b", "x|y", "k=v", ">", "a>b", ">x", "^", "@", "#", "##",
	"-", "~", "1", "01", "é", "日本", "e\u0301", "\"q\"", "\\", "[1]", "{}", "tab\t", "__proto__", "constructor", "prototype"}

func (g *gen) key() string {
	if g.p(0.01) {
		return oddKeys[g.n(len(oddKeys))]
	}
	return plainKeys[g.n(len(plainKeys))]
}

var plainStrings = []string{"alice", "Bob Jones", "shipped", "pending", "https://example.com/a?b=c", "New York",
	"hello world", "ERR-1", "x", "2026-11-24T01:02:03Z", "a longer sentence, with a comma", "ok"}

var oddStrings = []string{"", " ", " lead", "trail ", "-", "~", "^", "^{a,b}", "true", "false", "null", "12", "-3",
	"1.5", "1e5", "01", "+1", ".5", "-.5", "@x", "#c", ".d", "a|b", "a,b", "ERR[404]: Not Found", "é", "e\u0301",
	"\u0915\u094d\u0937", "日本語", "🙂", "\n", "a\r\nb", "tab\there", "\"q\"", "back\\slash", "\u00a0nb", "x\u2028y",
	"\ufeffbom", "\u0085nel", "\u007f", "\x01", "{}", "[0]", "## x", "##", "1.٥", "١٢"}

func (g *gen) str() string {
	if g.p(0.05) {
		return oddStrings[g.n(len(oddStrings))]
	}
	return plainStrings[g.n(len(plainStrings))]
}

var edgeNumbers = []any{int64(0), int64(-1), int64(1 << 53), int64(1<<53 + 1), int64(-(1<<53 + 1)), int64(math.MaxInt64),
	int64(math.MinInt64), int64(math.MaxInt32), 0.5, -0.25, 1e-7, 1e-6, 1.5e300, 5e-324, 2.2250738585072014e-308,
	math.Copysign(0, -1), 1e21, 9007199254740992.0, 123456789.125, 1.7976931348623157e308, 0.1, 100.0}

func (g *gen) number() any {
	switch {
	case g.p(0.04):
		return edgeNumbers[g.n(len(edgeNumbers))]
	case g.p(0.6):
		return int64(g.n(2000) - 100)
	default:
		return math.Round(g.r.NormFloat64()*10000) / 100
	}
}

func (g *gen) scalar() any {
	switch g.n(10) {
	case 0:
		return nil
	case 1, 2:
		return g.p(0.5)
	case 3, 4, 5:
		return g.number()
	default:
		return g.str()
	}
}

// object returns an object with up to width members; d is the remaining depth.
func (g *gen) object(d, width int) gcf.Object {
	n := g.n(width + 1)
	o := make(gcf.Object, 0, n)
	seen := map[string]bool{}
	for range n {
		k := g.key()
		if seen[k] {
			continue
		}
		seen[k] = true
		o = append(o, gcf.Member{Key: k, Value: g.value(d - 1)})
	}
	return o
}

func (g *gen) value(d int) any {
	if d <= 0 {
		return g.scalar()
	}
	switch g.n(12) {
	case 0, 1, 2, 3:
		return g.scalar()
	case 4, 5:
		return g.object(d, 5)
	case 6:
		a := make([]any, g.n(5))
		for i := range a {
			a[i] = g.scalar()
		}
		return a
	case 7:
		a := make([]any, g.n(4))
		for i := range a {
			a[i] = g.value(d - 1)
		}
		return a
	default:
		return g.records(d, 1+g.n(5))
	}
}

// field is one column of a record schema: how its values are drawn.
type field struct {
	key     string
	kind    int     // 0 scalar, 1 nested object, 2 record array, 3 primitive array, 4 any value
	absent  float64 // probability the field is absent from a row
	null    float64 // probability it is null
	sub     []field // kind 1 and 2: the schema of the nested objects
	shuffle bool    // kind 1: rows list the nested keys in varying order
}

func (g *gen) schema(d, width int) []field {
	n := 1 + g.n(width)
	fs := make([]field, 0, n)
	seen := map[string]bool{}
	for range n {
		k := g.key()
		if seen[k] {
			continue
		}
		seen[k] = true
		f := field{key: k}
		if g.p(0.2) {
			f.absent = 0.3
		}
		if g.p(0.15) {
			f.null = 0.2
		}
		if d > 0 {
			switch g.n(10) {
			case 0, 1:
				f.kind = 1
				f.sub = g.schema(d-1, 4)
				f.shuffle = g.p(0.05)
			case 2, 3:
				f.kind = 2
				f.sub = g.schema(d-1, 4)
			case 4:
				f.kind = 3
			case 5:
				f.kind = 4
			}
		}
		fs = append(fs, f)
	}
	return fs
}

func (g *gen) row(fs []field, d int) gcf.Object {
	o := make(gcf.Object, 0, len(fs))
	for _, f := range fs {
		if f.absent > 0 && g.p(f.absent) {
			continue
		}
		if f.null > 0 && g.p(f.null) {
			o = append(o, gcf.Member{Key: f.key, Value: nil})
			continue
		}
		var v any
		switch f.kind {
		case 0:
			v = g.scalar()
		case 1:
			sub := g.row(f.sub, d-1)
			if f.shuffle && len(sub) > 1 {
				g.r.Shuffle(len(sub), func(i, j int) { sub[i], sub[j] = sub[j], sub[i] })
			}
			v = sub
		case 2:
			n := g.n(4)
			if g.p(0.1) {
				n = 0
			}
			a := make([]any, n)
			for i := range a {
				a[i] = g.row(f.sub, d-1)
			}
			v = a
		case 3:
			a := make([]any, g.n(4))
			for i := range a {
				a[i] = g.scalar()
			}
			v = a
		default:
			v = g.value(d - 1)
		}
		o = append(o, gcf.Member{Key: f.key, Value: v})
	}
	return o
}

// records returns an array of n records of one random schema; sometimes a
// keyed map of them instead.
func (g *gen) records(d, n int) any {
	fs := g.schema(d-1, 6)
	a := make([]any, n)
	for i := range a {
		a[i] = g.row(fs, d-1)
	}
	if g.p(0.15) {
		o := make(gcf.Object, n)
		for i := range a {
			o[i] = gcf.Member{Key: "k" + strconv.Itoa(i), Value: a[i]}
		}
		return o
	}
	return a
}

// document returns the i-th random document: most are an object or an
// array at the root, a few a scalar.
func (g *gen) document() any {
	switch g.n(20) {
	case 0:
		return g.scalar()
	case 1, 2, 3, 4, 5, 6:
		return g.records(4, 1+g.n(6))
	default:
		o := make(gcf.Object, 0, 4)
		seen := map[string]bool{}
		for range 1 + g.n(4) {
			k := g.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			var v any
			if g.p(0.5) {
				v = g.records(4, 1+g.n(5))
			} else {
				v = g.value(3)
			}
			o = append(o, gcf.Member{Key: k, Value: v})
		}
		return o
	}
}
