package stream

import (
	"fmt"
	"strings"
	"testing"
)

// %v of an Event shows its kind, role, form, key, id, count, fields,
// constants and scalars as text, not byte slices.
func TestEventString(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"generic",
			"GCF profile=generic\nname=\"gcf\"\nn=-\nin[3]: 1,x,-\n## users [2]{id,name,tags}\n@0 1|Ann|^\n.tags [2]: a,b\n@1 2|\"Bo b\"|~\n## m [2:]{k,v}\nx|1.5\ny|true\n## e [0]\n## s [1]{c}\n@0 ^{a,b}\n1|2\n",
			`header (profile="generic") line 1
object start root section line 2
scalar member key="name" value="gcf" line 2
scalar member key="n" value=- line 3
array start member inline key="in" [3] (1 "x" -) line 4
array end
array start member tabular key="users" [2] {id,name,tags} line 5
row @0 (id=1 name="Ann" tags=^) line 6
array start attachment inline key="tags" field=2 [2] ("a" "b") line 7
array end
row @1 (id=2 name="Bo b" tags=~) line 8
array end
object start member keyed key="m" [2] {k,v} line 9
row (k="x" v=1.5) line 10
row (k="y" v=true) line 11
object end
array start member empty key="e" [0] line 12
array end
array start member tabular key="s" [1] {c} line 13
row @0 (c=^{a,b}) line 14
inline body key="c" field=0 (a=1 b=2) line 15
array end
object end
end line 15`},
		{"grouped",
			"GCF profile=generic\n## [2]{@id,r=x,g,n} group=g\ng=\"b|c\" [2]\nu1|1\nu2|2\n",
			`header (profile="generic") line 1
array start root tabular [2] {id,r,g,n} r="x" group=g line 2
group key="g" field=2 [2] value="b|c" line 3
row (id="u1" n=1) line 4
row (id="u2" n=2) line 5
array end
end line 5`},
		{"graph",
			"GCF profile=graph tool=t\n## targets\n@0 fn pkg.A 0.78 lsp\n## edges [1]\n@0<@0 calls\n",
			`header (profile="graph" tool="t") line 1
group key="targets" distance=0 [?] line 2
symbol @0 ("fn" "pkg.A" 0.78 "lsp") line 3
group key="edges" [1] line 4
edge (0 0 "calls") line 5
end line 5`},
	} {
		d := NewBytesDecoder([]byte(tc.in), Limits{})
		var got []string
		for {
			ev, err := d.Next()
			if err != nil {
				break
			}
			s := fmt.Sprintf("%v", ev)
			if p := fmt.Sprint(&ev); p != s {
				t.Fatalf("%s: %%v of *Event %q, of Event %q", tc.name, p, s)
			}
			got = append(got, s)
		}
		if g := strings.Join(got, "\n"); g != tc.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", tc.name, g, tc.want)
		}
	}
	if s := fmt.Sprint(RoleItem, FormKeyed); s != "item keyed" {
		t.Errorf("Role, Form: %q", s)
	}
}
