package generic

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// awkward strings that collide with GCF syntax in some context.
var awkward = []string{
	"", "-", "~", "^", "^{a}", "^{", "^{}", "true", "false", "null", "0", "-0", "01", "1e10", "+1", ".5", "-.5",
	" x", "x ", " ", "a|b", "a,b", "#x", "# x", "@x", ".x", "a=b", "=", "\"q\"", "a\\b", "tab\there",
	"line\nbreak", "cr\rx", "\x00", "\x1f", "\u0085", "nb\u00a0sp", "\u2028", "\ufeff", "ERR[404]: x",
	"[0]: y", "value[0] ok", "key: value", "café", "😀", "ௗ", " ૌx", "1.٥", "+٥", "0٥", "a>b", ">", "a>>b",
	"{}", "[1]", "@0 =x", ".f {}", "## x", "##! summary", "x\r", "\"", "\\", "-5", "9223372036854775808",
}

type gen struct {
	r       *rand.Rand
	ordered bool // keep member order representable (shared key order, no '>' keys)
}

func (g *gen) str() string {
	switch g.r.IntN(4) {
	case 0:
		return awkward[g.r.IntN(len(awkward))]
	case 1:
		var sb strings.Builder
		for n := g.r.IntN(6); n > 0; n-- {
			sb.WriteString(awkward[g.r.IntN(len(awkward))])
		}
		return sb.String()
	default:
		const alpha = "abcxyz_ AZ09-.|,:#@\"\\é😀\t"
		rs := []rune(alpha)
		var sb strings.Builder
		for n := g.r.IntN(8); n > 0; n-- {
			sb.WriteRune(rs[g.r.IntN(len(rs))])
		}
		return sb.String()
	}
}

func (g *gen) key() string {
	for {
		k := g.str()
		if !g.ordered || !strings.Contains(k, ">") {
			return k
		}
	}
}

func (g *gen) scalar() any {
	switch g.r.IntN(8) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return int64(g.r.Int64()) - math.MaxInt64/2
	case 3:
		return []int64{math.MaxInt64, math.MinInt64, 0, -1, 1 << 53}[g.r.IntN(5)]
	case 4:
		f := []float64{0.1, -2.5, 1e-7, 1e-6, 1e21, 5e18, 6.022e23, 1.5, 1 << 53, 123456.789, -1e-300, 1e300}[g.r.IntN(12)]
		return f
	case 5:
		return g.r.NormFloat64() * math.Pow(10, float64(g.r.IntN(40)-20))
	default:
		return g.str()
	}
}

func (g *gen) value(depth int) any {
	if depth <= 0 {
		return g.scalar()
	}
	switch g.r.IntN(6) {
	case 0, 1:
		return g.scalar()
	case 2:
		return g.object(depth, nil, false)
	case 3: // array of objects sharing keys: tabular, keyed, flattening
		keys := g.keys(1 + g.r.IntN(4))
		arr := make([]any, g.r.IntN(4))
		for i := range arr {
			arr[i] = g.object(depth, keys, i == 0)
		}
		return arr
	case 4: // map of objects: keyed map candidates
		keys := g.keys(1 + g.r.IntN(3))
		obj := Object{}
		for i, k := range g.keys(g.r.IntN(4)) {
			obj = append(obj, Member{Key: k, Value: g.object(depth, keys, i == 0)})
		}
		return obj
	default:
		arr := make([]any, g.r.IntN(4))
		for i := range arr {
			arr[i] = g.value(depth - 1)
		}
		if g.ordered {
			// A scalar element keeps unrelated objects out of tabular form,
			// where rows with conflicting key orders share one union.
			arr = append(arr, g.scalar())
		}
		return arr
	}
}

func (g *gen) keys(n int) []string {
	var out []string
	seen := map[string]bool{}
	for len(out) < n {
		k := g.key()
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// object builds an object; with shared keys it uses a random subset of
// them in their shared order. In ordered mode the first object of a group
// has every key, so the field union (first object's keys, then new ones in
// first-seen order, SPEC §7.4.3) lists them in the shared order and each
// row's member order survives.
func (g *gen) object(depth int, shared []string, first bool) Object {
	keys := shared
	if keys == nil {
		keys = g.keys(g.r.IntN(4))
	}
	obj := Object{}
	for _, k := range keys {
		if shared != nil && !(first && g.ordered) && g.r.IntN(4) == 0 {
			continue
		}
		obj = append(obj, Member{Key: k, Value: g.value(depth - 1)})
	}
	if g.ordered && shared == nil && len(obj) > 0 {
		// A scalar member keeps unrelated objects out of keyed-map form.
		for _, k := range g.keys(len(obj) + 1) {
			if _, dup := obj.Get(k); !dup {
				obj = append(obj, Member{Key: k, Value: g.scalar()})
				break
			}
		}
	}
	if !g.ordered && shared != nil && len(obj) > 1 && g.r.IntN(3) == 0 {
		g.r.Shuffle(len(obj), func(i, j int) { obj[i], obj[j] = obj[j], obj[i] })
	}
	return obj
}

// TestRoundTripProperty: decode(encode(v)) == v for random values full of
// awkward strings, numbers at the domain edges and deep nesting. With
// representable member order (shared key order, no '>' keys) order must
// survive too; otherwise equality is structural (SPEC §1.1).
func TestRoundTripProperty(t *testing.T) {
	for _, ordered := range []bool{true, false} {
		g := &gen{r: rand.New(rand.NewPCG(7, 11)), ordered: ordered}
		for i := 0; i < 3000; i++ {
			v := g.value(1 + i%6)
			enc, err := EncodeGeneric(v)
			if err != nil {
				t.Fatalf("encode %s: %v", mustJSON(v), err)
			}
			back, err := DecodeGeneric(enc)
			if err != nil {
				t.Fatalf("decode: %v\nvalue %s\nwire:\n%s", err, mustJSON(v), enc)
			}
			a, b := mustJSON(v), mustJSON(back)
			if ordered && a != b {
				t.Fatalf("round trip changed the value\n  in %s\n out %s\nwire:\n%s", a, b, enc)
			}
			if !jsonEqual(v, back) {
				t.Fatalf("round trip changed the value\n  in %s\n out %s\nwire:\n%s", a, b, enc)
			}
			// Canonical output is deterministic and a fixed point.
			enc2, err := EncodeGeneric(back)
			if err != nil {
				t.Fatal(err)
			}
			if a == b && !bytes.Equal(enc, enc2) {
				t.Fatalf("re-encoding differs\n%s\n---\n%s", enc, enc2)
			}
		}
	}
}

// TestDeepNesting: nesting far below the decode depth limit round-trips;
// beyond it decoding fails with depth_exceeded instead of recursing.
func TestDeepNesting(t *testing.T) {
	var v any = "leaf"
	for i := 0; i < 100; i++ {
		if i%2 == 0 {
			v = Object{{Key: "k", Value: v}}
		} else {
			v = []any{v, int64(i)}
		}
	}
	enc, err := EncodeGeneric(v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeGeneric(enc)
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(back) != mustJSON(v) {
		t.Fatalf("deep value changed")
	}
	_, err = DecodeGeneric(enc, WithMaxDepth(20))
	if CategoryOf(err) != DepthExceeded {
		t.Fatalf("want depth_exceeded, got %v", err)
	}
}
