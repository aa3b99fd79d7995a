package generic

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Targets whose tables take directRow: plain scalar fields, a path object
// into a struct value, a slice and a map filled by attachments.
type drLeaf struct {
	S string  `json:"s"`
	I int8    `json:"i"`
	U uint16  `json:"u"`
	F float64 `json:"f"`
	B bool    `json:"b"`
}

type drRow struct {
	ID    int            `json:"id"`
	Name  string         `json:"name"`
	C     drLeaf         `json:"c"`
	Items []drLeaf       `json:"items"`
	M     map[string]int `json:"m"`
	Total float64        `json:"total"`
	N     int64
}

// drFull makes drValue return fitting values only, never null or absent
// (rows as a struct encoder writes them: path columns, shared schemas).
var drFull bool

type drRoot struct {
	Rows   []drRow  `json:"rows"`
	Leaves []drLeaf `json:"leaves"`
}

// drValue returns a random JSON value for key k: mostly one that fits the
// field, sometimes null, an absent-making omission (nil ok=false), or a
// value of another type or out of range.
func drValue(r *rand.Rand, k string, depth int, clean bool) (any, bool) {
	pick := r.IntN(12)
	if drFull {
		pick = 3 + r.IntN(9)
	}
	switch pick {
	case 0:
		return nil, true
	case 1:
		return nil, false
	case 2:
		if clean {
			break
		}
		odd := []any{"x|y", "q\"uote", 300, -1, 1.5, 1e300, true, "", []any{1, "a"}, map[string]any{"s": 1}, "12", "-"}
		return odd[r.IntN(len(odd))], true
	}
	switch k {
	case "s", "name":
		return []string{"Ann", "Bob Roe", "a@b.example", "x-1", "true", "1e5", "-3"}[r.IntN(7)], true
	case "i":
		return r.IntN(256) - 128, true
	case "u":
		return r.IntN(70000), true
	case "f", "total":
		switch r.IntN(4) {
		case 0:
			return float64(r.IntN(100000)) / 100, true
		case 1:
			return r.NormFloat64() * 1e6, true
		case 2:
			return r.IntN(1000), true
		}
		return float64(r.Int64()) / 1e9, true
	case "b":
		return r.IntN(2) == 0, true
	case "id", "N":
		return r.Int64N(1<<40) - 1<<39, true
	case "c":
		return drObject(r, []string{"s", "i", "u", "f", "b"}, depth+1, clean), true
	case "items":
		if depth > 1 {
			return []any{}, true
		}
		n := r.IntN(4)
		a := make([]any, n)
		for i := range a {
			a[i] = drObject(r, []string{"s", "i", "u", "f", "b"}, depth+1, clean)
		}
		return a, true
	case "m":
		return map[string]any{"k": r.IntN(10)}, true
	}
	return nil, true
}

func drObject(r *rand.Rand, keys []string, depth int, clean bool) map[string]any {
	o := map[string]any{}
	for _, k := range keys {
		if v, ok := drValue(r, k, depth, clean); ok {
			o[k] = v
		}
	}
	return o
}

// TestDirectRowMatchesTree: Unmarshal into tables that take directRow
// (ReadRow's cells stored at their fields' offsets, the general row on
// any cell that does not fit) gives what the tree path gives: the same
// value, or the same error (class, and line:column).
func TestDirectRowMatchesTree(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 7))
	rowKeys := []string{"id", "name", "c", "items", "m", "total", "N"}
	direct, failed, paths := 0, 0, 0
	for i := 0; i < 1500; i++ {
		n := 1 + r.IntN(6)
		rows := make([]any, n)
		clean := r.IntN(2) == 0 // values that fit their fields (or null, or absent) only
		drFull = r.IntN(4) == 0
		for j := range rows {
			o := map[string]any{}
			for _, k := range rowKeys {
				if v, ok := drValue(r, k, 0, clean || r.IntN(4) != 0); ok {
					o[k] = v
				}
			}
			rows[j] = o
		}
		leaves := make([]any, r.IntN(4))
		for j := range leaves {
			leaves[j] = drObject(r, []string{"s", "i", "u", "f", "b"}, 0, clean)
		}
		data, err := Marshal(map[string]any{"rows": rows, "leaves": leaves})
		if err != nil {
			t.Fatal(err)
		}
		var a, b drRoot
		errA := Unmarshal(data, &a)
		errB := treeUnmarshal(data, &b)
		if errClass(errA) != errClass(errB) || fmt.Sprint(errA) != fmt.Sprint(errB) && !strings.Contains(errClass(errA), "/type:") {
			t.Fatalf("payload %d: typed %v, tree %v\n%s", i, errA, errB, data)
		}
		if errA != nil {
			failed++
			continue
		}
		if !reflect.DeepEqual(a, b) {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			t.Fatalf("payload %d:\ntyped %s\ntree  %s\n%s", i, ja, jb, data)
		}
		if strings.Contains(string(data), "## rows [") {
			direct++
		}
		if strings.Contains(string(data), "\"c>s\"") {
			paths++
		}
	}
	drFull = false
	if direct < 500 || failed < 300 || paths < 100 {
		t.Fatalf("only %d tables decoded, %d failing", direct, failed)
	}
	t.Logf("%d payloads with a rows table decoded (%d with path columns), %d failing", direct, paths, failed)
}

// TestDirectRowErrors: rows that the direct paths must leave to the
// stream's general row (a wrong or missing id, a width mismatch, a marker
// without its attachment, a surplus or missing row, quotes, cells the
// plain scanner does not take) fail, or decode, as the tree path has them:
// the same value or the same error, line and column.
func TestDirectRowErrors(t *testing.T) {
	const head = "GCF profile=generic\n## rows [2]{\"c>i\",\"c>s\",id,items,name}\n"
	rows := []string{
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|^|y\n.items [0]\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@2 2|b|8|^|y\n.items [0]\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n2|b|8|^|y\n.items [0]\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|^\n.items [0]\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|^|y|z\n.items [0]\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|^|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|^|y\n.items [0]\n@2 3|c|9|-|z\n",
		"@0 1|\"a|b\"|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|-|\"y\"\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|\"q\"\n@1 2|b|8|^|y\n.items [1]\n    1|q\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 300|b|8|-|y\n",
		"@0 1|a|7.5|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|5|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|^{b}|y\n.items [1]\n    1|q\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2| b|8|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b |8|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2||8|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|-|\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 -|~|1e3|~|-0\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|8|~|true\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|9223372036854775808|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|0012|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@01 2|b|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|12|-|y\n# a comment\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n\n@1 2|b|12|-|y\n",
		"@0 1|a|7|^|x\n  .items [1]{b,s}\n    true|q\n@1 2|b|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n  @1 2|b|12|-|y\n",
		"@0 1|a|7|^|x\r\n.items [1]{b,s}\r\n    true|q\r\n@1 2|b|12|-|y\r\n",
		// Lines AtRow loads without their class check (the typed scanner
		// checks a row's bytes; anything else is checked before use).
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b\x01c|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|12|-|y\xff\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b\xed\xa0\x80|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b\tc|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b\x7fc|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b\xc2\x85c|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b\xc3\xa9|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n@1 2|b|12|-|y\t \n",
		"@0 1|a|7|^|x\n.items [2]{b,s}\n    true|q\n    false|r\xff\n@1 2|b|12|-|y\n",
		"@0 1|a|7|^|x\n.items [2]{b,s}\n    true|q\n    false|\x01r\n@1 2|b|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\xff\n    true|q\n@1 2|b|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n# a \xff comment\n@1 2|b|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n @1 2|b\xff|12|-|y\n",
		"@0 1|a|7|^|x\n.items [1]{b,s}\n    true|q\n\t@1 2|b\xff|12|-|y\n",
		"@0 1|a|7|^|x\n@1 2|b\xff|12|-|y\n",
		"@0 1|a|7|^|x\n@1 2|b|12|-|y\n",
		"@0 1|a|7|-|x\n@1 2|b|12|-|y\n## \xff\n",
		"@0 1|a|7|-|x\n@1 2|b|12|-|y\xc3\n",
		"@0 1|a|7|-|x\n@1 2|b\x01cdefghijk|12|-|y\n",
		"@0 1|a|7|-|x\n@1 2|bcdefghijk\xff|12|-|y\n",
		"@0 1|a|7|-|x\n@1 2|bcdefghijk\"|12|-|y\n",
		"@0 1|a|7|-|x\n@1 2|bcdefghijk\x7f|12|-|y\n",
		"@0 1|a|7|-|x\n@1 2|b|12|-|yz\x01\n",
		"@0 1|a|7|-|x\n@1 2|b|12|-|\xc3\xa9\n",
		"@0 1|a|7|^|x\n.items [2]{b,s}\n    true|q\n    false|r\x01stuvwxyz\n",
		"@0 1|a|7|^|x\n.items [2]{b,s}\n    true|q\n    false|rstuvwxyz\xed\xa0\x80\n",
	}
	for i, r := range rows {
		data := []byte(head + r)
		var a, b drRoot
		errA := Unmarshal(data, &a)
		errB := treeUnmarshal(data, &b)
		if errClass(errA) != errClass(errB) || fmt.Sprint(errA) != fmt.Sprint(errB) && !strings.Contains(errClass(errA), "/type:") {
			t.Errorf("case %d: typed %v, tree %v\n%s", i, errA, errB, data)
			continue
		}
		if errA == nil && !reflect.DeepEqual(a, b) {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			t.Errorf("case %d:\ntyped %s\ntree  %s", i, ja, jb)
		}
	}
	// The element limit: the direct paths count rows against it as the
	// stream's row does.
	data := []byte(head + rows[0])
	var a drRoot
	err := Unmarshal(data, &a, WithLimits(Limits{MaxElements: 1}))
	if CategoryOf(err) != TooManyElements && CategoryOf(err) != CountMismatch {
		t.Fatalf("MaxElements 1: %v", err)
	}
	t.Log(err)
}

// TestScanRowFloats: the decimals scanRow parses itself (15 digits or
// fewer) and those it hands to lexer.ParseFloat decode to the float64
// strconv.ParseFloat gives, bit for bit, over 2 million values of every
// length and scale, negative zero and the edges of the fast path included.
func TestScanRowFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 15))
	texts := []string{"0.0", "-0.0", "0.5", "-0.5", "999999999999999.9", "99999999999999.9", "0.000000000000001",
		"0.0000000000000001", "123456789012345.6", "9007199254740993.0", "1.7976931348623157", "4.9406564584124654",
		"0.30000000000000004", "2.5", "1.015", "100.10", "-7.000000000000001"}
	const n = 2_000_000
	for len(texts) < n {
		ip := r.IntN(17)
		fp := 1 + r.IntN(17)
		var b []byte
		if r.IntN(4) == 0 {
			b = append(b, '-')
		}
		if ip == 0 {
			b = append(b, '0')
		} else {
			b = append(b, byte('1'+r.IntN(9)))
			for range ip - 1 {
				b = append(b, byte('0'+r.IntN(10)))
			}
		}
		b = append(b, '.')
		for range fp {
			b = append(b, byte('0'+r.IntN(10)))
		}
		texts = append(texts, string(b))
	}
	type f struct {
		F float64 `json:"f"`
		S string  `json:"s"`
	}
	var sb strings.Builder
	sb.WriteString("GCF profile=generic\n## v [" + fmt.Sprint(len(texts)) + "]{f,s}\n")
	for _, x := range texts {
		sb.WriteString(x + "|a\n")
	}
	var v struct {
		V []f `json:"v"`
	}
	if err := Unmarshal([]byte(sb.String()), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.V) != len(texts) {
		t.Fatalf("%d values, want %d", len(v.V), len(texts))
	}
	for i, x := range texts {
		want, err := strconv.ParseFloat(x, 64)
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(v.V[i].F) != math.Float64bits(want) {
			t.Fatalf("%s: got %v (%x), want %v (%x)", x, v.V[i].F, math.Float64bits(v.V[i].F), want, math.Float64bits(want))
		}
	}
}
