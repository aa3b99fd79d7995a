package stream

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// describeConsts renders a table start event's constants as name=kind:value@at.
func describeConsts(ev Event) string {
	var parts []string
	for _, c := range ev.Consts {
		g := ""
		if c.Group {
			g = " group"
		}
		parts = append(parts, fmt.Sprintf("%s=%s:%s@%d%s", c.Name, c.Value.Kind, c.Value.Bytes, c.At, g))
	}
	return strings.Join(parts, ",")
}

// renderV36 is render with each table start event's Consts, and each
// row's Fields, so that the v3.6.0 contract is visible: the start event
// holds the constants, a row only its own cells.
func renderV36(t *testing.T, in string, expand bool) (string, error) {
	t.Helper()
	d := NewBytesDecoder([]byte(in), Limits{})
	d.SetExpand(expand)
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		ev, err := d.Next()
		if err == io.EOF {
			return sb.String(), nil
		}
		if err != nil {
			return sb.String(), err
		}
		sb.WriteString(describe(ev))
		if len(ev.Consts) > 0 {
			sb.WriteString(" consts=" + describeConsts(ev))
		}
		if ev.Kind == KindRow {
			fmt.Fprintf(&sb, " cols=%s", ev.Fields)
		}
		if ev.Kind == KindGroup {
			fmt.Fprintf(&sb, " value=%s:%s n=%d", ev.Value.Kind, ev.Value.Bytes, ev.Count)
		}
		sb.WriteByte('\n')
	}
	t.Fatal("runaway event stream")
	return "", nil
}

func TestConstantColumnEvents(t *testing.T) {
	tests := []struct {
		name, in, raw, expanded string
	}{
		{"root table", "GCF profile=generic\n## [2]{id,region=us-east,n}\nu1|3\nu2|4\n",
			"header [string:generic]\narray start form=3 count=2 fields=id,region,n consts=region=string:us-east@1\n" +
				"row [string:u1|int:3] cols=[id n]\nrow [string:u2|int:4] cols=[id n]\narray end\nend\n",
			"header [string:generic]\narray start form=3 count=2 fields=id,region,n consts=region=string:us-east@1\n" +
				"row [string:u1|string:us-east|int:3] cols=[id region n]\nrow [string:u2|string:us-east|int:4] cols=[id region n]\narray end\nend\n"},
		{"kinds of constants", "GCF profile=generic\n## [1]{a=-,b=true,c=1.5,\"d e\"=\"x,}\",f=a=b|c,g}\n1\n",
			"header [string:generic]\narray start form=3 count=1 fields=a,b,c,d e,f,g consts=a=null:-@0,b=bool:true@1,c=float:1.5@2,d e=string:x,}@3,f=string:a=b|c@4\n" +
				"row [int:1] cols=[g]\narray end\nend\n",
			"header [string:generic]\narray start form=3 count=1 fields=a,b,c,d e,f,g consts=a=null:-@0,b=bool:true@1,c=float:1.5@2,d e=string:x,}@3,f=string:a=b|c@4\n" +
				"row [null:-|bool:true|float:1.5|string:x,}|string:a=b|c|int:1] cols=[a b c d e f g]\narray end\nend\n"},
		{"attachment of a row after a constant", "GCF profile=generic\n## [1]{k=v,o}\n@0 ^\n.o {}\n    x=1\n",
			"header [string:generic]\narray start form=3 count=1 fields=k,o consts=k=string:v@0\nrow id=0 [attachment:^] cols=[o]\n" +
				"object start key=\"o\" field=0\nscalar key=\"x\" int:\"1\"\nobject end\narray end\nend\n",
			"header [string:generic]\narray start form=3 count=1 fields=k,o consts=k=string:v@0\nrow id=0 [string:v|attachment:^] cols=[k o]\n" +
				"object start key=\"o\" field=1\nscalar key=\"x\" int:\"1\"\nobject end\narray end\nend\n"},
		{"grouped", "GCF profile=generic\n## [3]{@id,r=x,g,n} group=g\ng=a [2]\nu1|1\nu2|2\ng=\"b|c\" [1]\nu3|3\n",
			"header [string:generic]\narray start form=3 count=3 fields=id,r,g,n consts=r=string:x@1,g=invalid:@2 group\n" +
				"group key=\"g\" field=2 value=string:a n=2\nrow [string:u1|int:1] cols=[id n]\nrow [string:u2|int:2] cols=[id n]\n" +
				"group key=\"g\" field=2 value=string:b|c n=1\nrow [string:u3|int:3] cols=[id n]\narray end\nend\n",
			"header [string:generic]\narray start form=3 count=3 fields=id,r,g,n consts=r=string:x@1,g=invalid:@2 group\n" +
				"row [string:u1|string:x|string:a|int:1] cols=[id r g n]\nrow [string:u2|string:x|string:a|int:2] cols=[id r g n]\n" +
				"row [string:u3|string:x|string:b|c|int:3] cols=[id r g n]\narray end\nend\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, expand := range []bool{false, true} {
				want := tt.raw
				if expand {
					want = tt.expanded
				}
				got, err := renderV36(t, tt.in, expand)
				if err != nil {
					t.Fatalf("expand=%v: unexpected error %v after\n%s", expand, err, got)
				}
				if got != want {
					t.Fatalf("expand=%v: events differ\n got:\n%s\nwant:\n%s", expand, got, want)
				}
			}
		})
	}
}

// A start event's Consts stay valid until the table ends, though the
// header line is gone; the group entry follows the subheaders.
func TestConstsOutliveTheHeaderLine(t *testing.T) {
	in := "GCF profile=generic\n## [3]{@id,tag=\"q\\u0041\",g} group=g\ng=\"e\\u0042\" [2]\n1\n2\ng=z [1]\n3\n"
	d := NewBytesDecoder([]byte(in), Limits{})
	var consts []Const
	var seen []string
	for {
		ev, err := d.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindArrayStart {
			consts = ev.Consts
		}
		if ev.Kind == KindRow {
			seen = append(seen, fmt.Sprintf("%s/%s", consts[0].Value.Bytes, consts[1].Value.Bytes))
		}
	}
	if got, want := strings.Join(seen, " "), "qA/eB qA/eB qA/z"; got != want {
		t.Fatalf("constants seen with the rows: %s, want %s", got, want)
	}
}

func TestConstantColumnErrors(t *testing.T) {
	h := "GCF profile=generic\n"
	checkErrors(t, []errorCase{
		{"empty value", h + "## [1]{id,r=}\n1\n", lexer.InvalidConstValue, 2, 13},
		{"absent value", h + "## [1]{id,r=~}\n1\n", lexer.InvalidConstValue, 2, 13},
		{"bare caret", h + "## [1]{X=^,y}\n1\n", lexer.InvalidConstValue, 2, 10},
		{"complete marker", h + "## [1]{X=^{a},y}\n1\n", lexer.InvalidConstValue, 2, 10},
		{"padded value", h + "## [1]{X= a,y}\n1\n", lexer.InvalidConstValue, 2, 10},
		{"quote inside a bare value", h + "## [1]{X=a\"b,y}\n1\n", lexer.InvalidConstValue, 2, 11},
		{"empty name", h + "## [1]{id,=us}\n1\n", lexer.MalformedHeaderField, 2, 11},
		{"every field constant", h + "## [2]{a=1,b=2}\n", lexer.NoBareColumn, 2, 7},
		{"no bare column before the count", h + "## [2]{a=1}\n1\n2\n3\n", lexer.NoBareColumn, 2, 7},
		{"row width counts bare columns", h + "## [2]{id,r=k,x}\nu1|1\nu2|1|2\n", lexer.RowWidthMismatch, 4, 1},
		{"duplicate name with a constant", h + "## [1]{a,a=1}\n1\n", lexer.DuplicateFieldName, 2, 10},
		{"keyed map key constant", h + "## [1:]{k=x,v}\n1\n", lexer.InvalidKeyedMap, 2, 9},
		{"unterminated quoted value", h + "## [1]{a=\"x,b}\n1\n", lexer.UnterminatedQuote, 2, 10},
		{"constant identity", "GCF profile=generic key=id\n## [1]{@id=1,v}\n2\n", lexer.MalformedDelta, 2, 8},
		{"attachment to a constant", h + "## [1]{k=v,o}\n@0 1\n.k {}\n", lexer.OrphanAttachment, 4, 1},
	})
}

func TestValueGroupingErrors(t *testing.T) {
	h := "GCF profile=generic\n"
	checkErrors(t, []errorCase{
		{"no key", h + "## [1]{id,g} group=g\ng=a [1]\nu1\n", lexer.InvalidGroupHeader, 2, 7},
		{"two keys", h + "## [1]{@id,@g,x} group=x\nx=1 [1]\nu1|a\n", lexer.InvalidGroupHeader, 2, 12},
		{"undeclared", h + "## [1]{@id,g} group=zz\ng=a [1]\nu1\n", lexer.InvalidGroupHeader, 2, 21},
		{"key column", h + "## [1]{@id,g} group=id\nid=a [1]\nx\n", lexer.InvalidGroupHeader, 2, 21},
		{"constant column", h + "## [1]{@id,g=1,x} group=g\ng=1 [1]\nu1|2\n", lexer.InvalidGroupHeader, 2, 25},
		{"malformed clause", h + "## [1]{@id,g} group=\ng=a [1]\nu1\n", lexer.InvalidGroupHeader, 2, 15},
		{"keyed map", h + "## [1:]{@id,g} group=g\n", lexer.InvalidGroupHeader, 2, 8},
		{"deferred table", h + "## [?]{@id,g} group=g\n", lexer.InvalidGroupHeader, 2, 7},
		{"@ without group", h + "## [1]{@id,g}\nu1|a\n", lexer.InvalidLine, 2, 8},
		{"subheader column", h + "## [1]{@id,g,x} group=g\nr=a [1]\nu1|1\n", lexer.InvalidGroupHeader, 3, 1},
		{"subheader without count", h + "## [1]{@id,g,x} group=g\ng=a\nu1|1\n", lexer.InvalidGroupHeader, 3, 3},
		{"subheader empty value", h + "## [1]{@id,g,x} group=g\ng= [1]\nu1|1\n", lexer.InvalidGroupHeader, 3, 3},
		{"subheader absent value", h + "## [1]{@id,g,x} group=g\ng=~ [1]\nu1|1\n", lexer.InvalidGroupHeader, 3, 3},
		{"subheader text after count", h + "## [1]{@id,g,x} group=g\ng=a [1] x\nu1|1\n", lexer.InvalidGroupHeader, 3, 5},
		{"row instead of subheader", h + "## [1]{@id,g,x} group=g\nu1|1\n", lexer.InvalidGroupHeader, 3, 1},
		{"zero count", h + "## [1]{@id,g,x} group=g\ng=a [0]\ng=b [1]\nu1|1\n", lexer.InvalidCount, 3, 5},
		{"deferred group count", h + "## [1]{@id,g,x} group=g\ng=a [?]\nu1|1\n", lexer.InvalidCount, 3, 5},
		{"group larger than the table", h + "## [1]{@id,g,x} group=g\ng=a [2]\nu1|1\nu2|2\n", lexer.CountMismatch, 3, 5},
		{"short group", h + "## [2]{@id,g,x} group=g\ng=a [2]\nu1|1\n", lexer.CountMismatch, 4, 1},
		{"sum short", h + "## [3]{@id,g,x} group=g\ng=a [1]\nu1|1\ng=b [1]\nu2|2\n", lexer.CountMismatch, 6, 1},
		{"duplicate group", h + "## [2]{@id,g,x} group=g\ng=a [1]\nu1|1\ng=a [1]\nu2|2\n", lexer.DuplicateGroup, 5, 3},
		{"duplicate group by value", h + "## [2]{@id,g,x} group=g\ng=1 [1]\nu1|1\ng=1.0 [1]\nu2|2\n", lexer.DuplicateGroup, 5, 3},
		{"duplicate key", h + "## [2]{@id,g,x} group=g\ng=a [1]\nu1|1\ng=b [1]\nu1|2\n", lexer.DuplicateKey, 6, 1},
		{"null key", h + "## [1]{@id,g,x} group=g\ng=a [1]\n-|1\n", lexer.InvalidGroupHeader, 4, 1},
		{"constant key", h + "## [2]{@A=0,g,B} group=g\ng=0 [1]\n0\n", lexer.InvalidGroupHeader, 2, 8},
		{"marker in a grouped row", h + "## [1]{@id,g,x} group=g\ng=a [1]\n@0 u1|^\n.x {}\n", lexer.InvalidGroupHeader, 4, 7},
	})
}

// "1" and 1 are different group values; a row that looks like a
// subheader is a row while its group has rows left (counts drive it).
func TestValueGroupingAccepts(t *testing.T) {
	in := "GCF profile=generic\n## [3]{@id,g,note} group=g\ng=1 [2]\nu1|g=2 [1]\nu2|~\ng=\"1\" [1]\nu3|x\n"
	got, err := renderV36(t, in, true)
	if err != nil {
		t.Fatalf("%v after\n%s", err, got)
	}
	if !strings.Contains(got, "row [string:u1|int:1|string:g=2 [1]]") || !strings.Contains(got, "row [string:u3|string:1|string:x]") {
		t.Fatalf("unexpected events:\n%s", got)
	}
}

// Factored tables cost no allocation per row, raw or expanded.
func TestConstantTableAllocs(t *testing.T) {
	gen := func(rows int) []byte {
		var sb strings.Builder
		fmt.Fprintf(&sb, "GCF profile=generic\n## t [%d]{id,region=us-east,name,tier=\"gold, plus\",ok}\n", rows)
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&sb, "%d|name %d|true\n", i, i)
		}
		return []byte(sb.String())
	}
	small, large := gen(100), gen(10000)
	for _, expand := range []bool{false, true} {
		d := NewBytesDecoder(small, Limits{})
		d.SetExpand(expand)
		walk := func(data []byte) {
			d.ResetBytes(data, Limits{})
			for {
				if _, err := d.Read(); err != nil {
					if err != io.EOF {
						t.Fatal(err)
					}
					return
				}
			}
		}
		walk(large) // warm buffers
		a := testing.AllocsPerRun(5, func() { walk(small) })
		b := testing.AllocsPerRun(5, func() { walk(large) })
		if b > a {
			t.Fatalf("expand=%v: allocations grow with rows: %v for 100 rows, %v for 10,000", expand, a, b)
		}
	}
}
