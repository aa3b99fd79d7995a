package layout

import (
	"fmt"
	"testing"
)

func TestFactor(t *testing.T) {
	c := func(e, k bool) Column { return Column{Eligible: e, Constant: k} }
	for _, tc := range []struct {
		n    int
		cols []Column
		want string
	}{
		{2, []Column{c(true, false), c(true, true), c(true, false)}, "[false true false] true"},
		{1, []Column{c(true, true), c(true, false)}, "[false false] false"},                   // one record: never (009)
		{2, []Column{c(true, true), c(true, true)}, "[true false] true"},                      // all constant: last bare (005)
		{3, []Column{c(true, true)}, "[false] false"},                                         // a lone column stays bare
		{2, []Column{c(false, true), c(true, true)}, "[false true] true"},                     // ineligible stays bare
		{4, []Column{c(true, true), c(true, true), c(false, true)}, "[true true false] true"}, // last is ineligible
		{0, nil, "[] false"},
	} {
		got, any := Factor(tc.n, tc.cols, nil)
		if s := fmt.Sprint(got, any); s != tc.want {
			t.Errorf("Factor(%d, %v) = %s, want %s", tc.n, tc.cols, s, tc.want)
		}
	}
}
