package encoder

import (
	"math"
	"strconv"
	"testing"
)

// TestAppendScoreMatchesStrconv: the score writer formats as %.2f (round
// half to even on the exact double), with no minus sign on zero, and
// ScoreLen/CentsLen size what it writes, on both sides of the cents path.
func TestAppendScoreMatchesStrconv(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), -0.004, 0.005, 0.015, 0.125, 1.005, 2.675, 9.995, 99.99, 100, -100.5,
		1234567.891, -98765432.125, 1<<44 - 0.5, 1 << 44, -(1 << 50), 1e300}
	for _, v := range vals {
		want := strconv.FormatFloat(v, 'f', 2, 64)
		if want == "-0.00" {
			want = "0.00"
		}
		got := AppendScore([]byte("x"), v)
		if string(got) != "x"+want {
			t.Errorf("AppendScore(%v) = %q, want %q", v, got[1:], want)
		}
		if n := ScoreLen(v); n != len(want) {
			t.Errorf("ScoreLen(%v) = %d, want %d", v, n, len(want))
		}
		if n, neg, ok := ScoreCents(v); ok && CentsLen(n, neg) != len(want) {
			t.Errorf("CentsLen for %v = %d, want %d", v, CentsLen(n, neg), len(want))
		}
	}
}

// TestGraphSyntax pins each graph piece against the line stream reads.
func TestGraphSyntax(t *testing.T) {
	for d, want := range map[int]string{0: "targets", 1: "related", 2: "extended", 3: "distance_3", 12: "distance_12"} {
		if got := string(AppendGroupName(nil, d)); got != want || GroupNameLen(d) != len(want) {
			t.Errorf("group %d: %q (len %d), want %q", d, got, GroupNameLen(d), want)
		}
	}
	for _, c := range []struct{ got, want string }{
		{string(AppendHeaderPercent(nil, "savings", 42)), " savings=42%"},
		{string(AppendRemovedLine(nil, "fn", "a.B")), "fn a.B"},
		{string(AppendRemovedLine(nil, []byte("fn"), []byte("a.B"))), "fn a.B"},
		{string(AppendDeltaEdge(nil, "a.A", "a.B", "calls")), "a.A -> a.B calls"},
		{string(AppendDistance(nil, 2)), " 2"},
		{string(AppendEdgesLabel(nil)), "edges"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestDigitsLen: the digit count of every number below 2^20, of each power
// of ten and its neighbours, and of the largest int.
func TestDigitsLen(t *testing.T) {
	check := func(n int) {
		if got, want := DigitsLen(n), len(strconv.Itoa(n)); got != want {
			t.Fatalf("DigitsLen(%d) = %d, want %d", n, got, want)
		}
	}
	for n := 0; n < 1<<20; n++ {
		check(n)
	}
	for p := 1; p <= math.MaxInt/10; p *= 10 {
		check(p - 1)
		check(p)
		check(p + 1)
		check(10*p - 1)
	}
	check(math.MaxInt)
	check(math.MaxInt - 1)
	for i := 0; i < 63; i++ {
		check(1<<i - 1)
		check(1 << i)
	}
}
