package gcf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// rowCells are cell texts for the direct row path of Unmarshal into *any:
// what its plain scan takes (integers, short and long decimal fractions,
// null, absent, booleans, strings) and what it leaves to the stream's
// general scanner (leading zeros, exponents, 19-digit integers, quotes,
// edges with blanks, inline schemas, non-ASCII), each of which must give
// the event path's value or error.
var rowCells = []string{
	"0", "1", "-1", "-0", "7", "255", "256", "-256", "42", "007", "-01",
	"123456789012345678", "-123456789012345678", "1234567890123456789",
	"9223372036854775807", "-9223372036854775808", "9223372036854775808",
	"1.5", "-0.25", "0.1", "00.5", "1.", ".5", "1.2.3", "0.000001",
	"123456789.123456", "123456789.1234567", "9007199254740993.5",
	"3.141592653589793238", "1e5", "1E-3", "-2.5e+10", "1e999", "1.5e-400",
	"-", "~", "--", "~~", "-x", "~x", "1-2", "+1", "0x10", "NaN",
	"true", "false", "True", "truex", "f",
	"x", "hello world", "Steel Widget", "SKU-00001", "a@b.c", "ORD-00001",
	" x", "x ", "\"q\"", "\"a|b\"", "a\"b", "\"\"", "é", "x\ty",
	"^", "^{a,b}", "^x", "",
}

// directRowsPayload writes a table of rows drawn from rowCells: flat or
// with path columns, with `@N ` ids or not, each `^` cell followed by its
// attachment.
func directRowsPayload(r *rand.Rand) string {
	var sb strings.Builder
	sb.WriteString("GCF profile=generic\n")
	cols := []string{"a", "b", "c", "\"p>x\"", "\"p>y\"", "d"}[:2+r.IntN(5)]
	if r.IntN(2) == 0 {
		cols = []string{"a", "b", "c", "d", "e"}[:1+r.IntN(5)]
	}
	n := 1 + r.IntN(6)
	indent := ""
	if r.IntN(3) == 0 {
		// A nested table: the rows of an attachment (.items under a row).
		sb.WriteString(fmt.Sprintf("## [1]{id,items}\n@0 1|^\n.items [%d]{%s}\n", n, strings.Join(cols, ",")))
		indent = "    "
	} else {
		sb.WriteString(fmt.Sprintf("## t [%d]{%s}\n", n, strings.Join(cols, ",")))
	}
	for i := 0; i < n; i++ {
		cells := make([]string, len(cols))
		var marked []int
		for j := range cells {
			cells[j] = rowCells[r.IntN(len(rowCells))]
			if r.IntN(3) == 0 {
				cells[j] = rowCells[r.IntN(30)] // numbers more often
			}
			if cells[j] == "^" {
				marked = append(marked, j)
			}
		}
		sb.WriteString(indent)
		if len(marked) > 0 || r.IntN(4) == 0 {
			fmt.Fprintf(&sb, "@%d ", i)
		}
		sb.WriteString(strings.Join(cells, "|"))
		sb.WriteByte('\n')
		for _, j := range marked {
			if r.IntN(8) == 0 {
				continue // a marker without its attachment
			}
			name := strings.Trim(cols[j], "\"")
			if strings.Contains(name, ">") {
				name = `"` + name + `"`
			}
			switch r.IntN(3) {
			case 0:
				fmt.Fprintf(&sb, "%s.%s =5\n", indent, name)
			case 1:
				fmt.Fprintf(&sb, "%s.%s [2]: 1,x\n", indent, name)
			default:
				fmt.Fprintf(&sb, "%s.%s [1]{k}\n%s  y\n", indent, name, indent)
			}
		}
	}
	return sb.String()
}

// damageRow damages one byte of a row line of a payload: a byte the plain
// scan must refuse (control, quote, non-ASCII, blank, tab), a delimiter,
// or a marker.
func damageRow(r *rand.Rand, s string) string {
	lines := strings.Split(s, "\n")
	k := 2 + r.IntN(max(1, len(lines)-3))
	if k >= len(lines) || lines[k] == "" {
		return s
	}
	bad := []string{"\x01", "\"", "\x80", "\xff", " ", "\t", "|", "^", "@", "\x7f", "-", "~", "#", "\r"}
	line := lines[k]
	at := r.IntN(len(line) + 1)
	switch r.IntN(3) {
	case 0:
		line = line[:at] + bad[r.IntN(len(bad))] + line[at:]
	case 1:
		if at < len(line) {
			line = line[:at] + bad[r.IntN(len(bad))] + line[at+1:]
		}
	default:
		line = line[:at]
	}
	lines[k] = line
	return strings.Join(lines, "\n")
}

// Rows built by the direct path (a plain table's rows read without an
// event) equal the event path's (the post-pass of checkAnyAgrees goes
// through DecodeGeneric's tables), on valid rows of edge cells and on
// damaged ones, whose error keeps its message, line:column and category.
func TestUnmarshalAnyDirectRows(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 17))
	valid, failed := 0, 0
	for i := 0; i < 3000; i++ {
		s := directRowsPayload(r)
		if i%2 == 1 {
			s = damageRow(r, s)
		}
		var v any
		if Unmarshal([]byte(s), &v) == nil {
			valid++
		} else {
			failed++
		}
		checkAnyAgrees(t, fmt.Sprintf("payload %d %q", i, s), []byte(s))
	}
	if valid < 300 || failed < 300 {
		t.Fatalf("%d valid and %d failing payloads: the generator needs both", valid, failed)
	}
}

// Random JSON documents encoded in each layout, every table row of which
// the direct path reads, decode as json.Unmarshal decodes the JSON.
func TestUnmarshalAnyDirectRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 18))
	for i := 0; i < 500; i++ {
		js, _ := json.Marshal([]any{randomJSON(r, 4), randomJSON(r, 4), randomJSON(r, 3)})
		x, err := ParseJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range [][]Option{nil, {WithSize(Smallest)}} {
			data, err := EncodeGeneric(x, opts...)
			if err != nil {
				t.Fatal(err)
			}
			var got any
			if err := Unmarshal(data, &got); err != nil {
				t.Fatalf("%s: %v", data, err)
			}
			if want := jsonAny(t, string(js)); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s:\n got %#v\nwant %#v", data, got, want)
			}
			checkAnyAgrees(t, string(data), data)
		}
	}
}

// Every prefix of a row-heavy encoding (tables cut inside a row, before
// an attachment, between rows): the direct rows fail where the event
// path fails, with the same message, line:column and category.
func TestUnmarshalAnyDirectTruncated(t *testing.T) {
	js, err := os.ReadFile(filepath.Join("testdata", "corpus", "orders.json"))
	if err != nil {
		t.Fatal(err)
	}
	x, err := ParseJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	data, err := EncodeGeneric(x)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("\n.items [")) {
		t.Fatalf("the encoding has no attachment tables:\n%s", data)
	}
	for n := 0; n < len(data); n += 1 + n/64 {
		checkAnyAgrees(t, fmt.Sprint("prefix ", n), data[:n])
	}
}
