package jsonnum

import (
	"math"
	"testing"
)

func TestAppendFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {2, "2"}, {-3, "-3"}, {1 << 52, "4503599627370496"},
		{1 << 53, "9.007199254740992e+15"}, {0.5, "0.5"}, {1e-7, "1e-07"}, {1.5e300, "1.5e+300"},
	} {
		if got := string(AppendFloat(nil, c.f)); got != c.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", c.f, got, c.want)
		}
	}
}
