package generic

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"github.com/gcfkit/gcf/encoder"
)

// cellBufs returns the buffers the cell writers are tried on: "ab" with
// no room to spare, and "ab" with 62 bytes of room holding 0xAA.
func cellBufs() [][]byte {
	roomy := make([]byte, 64)
	for i := range roomy {
		roomy[i] = 0xAA
	}
	return [][]byte{[]byte("ab"), append(roomy[:0], "ab"...)}
}

// checkSpare fails unless, without spill, got left the bytes past it in
// its capacity as cellBufs filled them.
func checkSpare(t *testing.T, got []byte, spill bool, what string) {
	t.Helper()
	if spill {
		return
	}
	for i, c := range got[len(got):cap(got)] {
		if c != 0xAA && cap(got) == 64 {
			t.Fatalf("%s without spill wrote %#x at %d past its result", what, c, i)
		}
	}
}

// TestFsIntCell: fsIntCell writes strconv's digits and the delimiter,
// after what the buffer held, for every magnitude and both signs, with a
// buffer that must grow and one with room to spare; without spill, it
// leaves the room past its result alone.
func TestFsIntCell(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	vals := []int64{0, 1, 9, 10, 99, 100, 9999, 10000, 999999, 1000000, 9999999, 10000000, 10000001,
		99999999, 100000000, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(1); p <= math.MaxInt64/10; p *= 10 {
		vals = append(vals, p-1, p, p+1)
	}
	for v := int64(0); v < 200000; v++ {
		vals = append(vals, v)
	}
	for i := 0; i < 200000; i++ {
		vals = append(vals, r.Int63n(20000000), r.Int63()>>r.Intn(63))
	}
	for _, v := range vals {
		for _, v := range []int64{v, -v} {
			want := "ab" + strconv.FormatInt(v, 10) + "|"
			for _, spill := range []bool{true, false} {
				for _, b := range cellBufs() {
					got := fsIntCell(b, v, spill)
					if string(got) != want {
						t.Fatalf("fsIntCell(%d, %v) = %q, want %q", v, spill, got, want)
					}
					checkSpare(t, got, spill, "fsIntCell")
				}
			}
		}
	}
}

// TestFsFloatCell: fsFloatCell writes encoder.AppendFloat's form and the
// delimiter, after what the buffer held: decimals of 0 to 6 fraction
// digits on both sides of 10^7 and of the 4-digit bound, their ulp
// neighbours, both zeros, huge, tiny and non-finite values; without
// spill, it leaves the room past its result alone.
func TestFsFloatCell(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	vals := []float64{0, math.Copysign(0, -1), 1e-4, 1e-5, 0.5, 1, 9999999.9999, 1e7, 1e7 - 0.5, 1e9, 1e9 - 1e-4,
		1e15, 1e21, 5e-324, math.MaxFloat64, 0.1 + 0.2, 306.56, 1064.64, 100.1, 0.0001, 0.001, 12.3456, 12.34567}
	for i := 0; i < 400000; i++ {
		v := float64(r.Int63n(1e12>>uint(r.Intn(30)))) / math.Pow10(r.Intn(7))
		vals = append(vals, v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, 0), r.NormFloat64()*math.Pow10(r.Intn(12)))
	}
	for _, v := range vals {
		for _, v := range []float64{v, -v} {
			want, err := encoder.AppendFloat([]byte("ab"), v)
			if err != nil {
				t.Fatal(err)
			}
			for _, spill := range []bool{true, false} {
				for _, b := range cellBufs() {
					got, ok := fsFloatCell(b, v, spill)
					if !ok || string(got) != string(want)+"|" {
						t.Fatalf("fsFloatCell(%v, %v) = %q, %v; want %q", v, spill, got, ok, string(want)+"|")
					}
					checkSpare(t, got, spill, "fsFloatCell")
				}
			}
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, ok := fsFloatCell(nil, v, true); ok {
			t.Fatalf("fsFloatCell(%v) reports ok", v)
		}
	}
}

// TestAppendGenericSpareCapacity: AppendGeneric, as append does, leaves
// the bytes of dst past its result alone, also when the typed fast path
// ends the payload with an int or float cell (whose writers store whole
// words only into buffers of the encoder's own); EncodeGeneric gives the
// same bytes.
func TestAppendGenericSpareCapacity(t *testing.T) {
	type row struct {
		S string  `json:"s"`
		F float64 `json:"f"`
		N int     `json:"n"`
	}
	type frow struct {
		N int     `json:"n"`
		F float64 `json:"f"`
	}
	for _, v := range []any{
		[]row{{"a", 1.5, 7}, {"b", 2.25, 12}},
		[]frow{{1, 3.5}, {2, 0.25}},
		struct {
			Rows []row `json:"rows"`
		}{[]row{{"x", 10.75, 3}}},
	} {
		want, err := EncodeGeneric(v)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1024)
		for i := range buf {
			buf[i] = 0xAA
		}
		out, err := AppendGeneric(buf[:3], v)
		if err != nil || string(out[3:]) != string(want) {
			t.Fatalf("AppendGeneric(%T) = %q, %v; want %q", v, out, err, want)
		}
		for i := len(out); i < len(buf); i++ {
			if buf[i] != 0xAA {
				t.Fatalf("AppendGeneric(%T) wrote %#x at %d, past its result (%d bytes)", v, buf[i], i, len(out))
			}
		}
	}
}

// TestFsPlainCell: fsPlainCell gives encoder.AppendPlainCell's result
// (bytes and verdict) for strings of 1 to 40 bytes holding every byte
// value at every position, after what the buffer held.
func TestFsPlainCell(t *testing.T) {
	// Strings of the letters from 'a', then from 't' and 'f' (which
	// NeedsQuote looks at first), with every byte at every position.
	for _, first := range []byte{'a', 't', 'f'} {
		for n := 1; n <= 40; n++ {
			for pos := 0; pos < n; pos++ {
				for c := 0; c < 256; c++ {
					bs := make([]byte, n)
					for i := range bs {
						bs[i] = 'a' + (first-'a'+byte(i))%26
					}
					bs[pos] = byte(c)
					checkFsPlainCell(t, string(bs))
				}
			}
		}
	}
	for _, s := range []string{
		"true", "false", "True", "FALSE", "tru", "fals", "truex", "falsey",
		"true ", "false ", "t ue", "f,lse", "t|ue", "fa\\se", "tr\"u", "t\tx", "t\x00rue",
		"trueeeeeeeeeeeeeeeeeeeeeeeeeeeee", "fffffffffffffffffffffffffffffffff",
		"t\u00e9t\u00e9", "f\u00e9te", "fête", "tête-à-tête", "t[1]", "f{x}", "t~x~",
	} {
		checkFsPlainCell(t, s)
	}
	// Plain strings from 't' or 'f' take the word path, not NeedsQuote.
	for _, s := range []string{"trent.brown519@example.com", "frank", "true1", "falsE", "tree", "fast"} {
		if got, ok := fsPlainCell([]byte("x|"), s); !ok || string(got) != "x|"+s {
			t.Errorf("fsPlainCell(%q) = %q, %v; want %q, true", s, got, ok, "x|"+s)
		}
	}
}

// checkFsPlainCell: fsPlainCell(b, s) is true wherever AppendPlainCell
// is, and then with its bytes; where AppendPlainCell is false, it is
// false with b unchanged, or true with b and s and NeedsQuote(s, Cell)
// false (the bytes the general writer gives an unquoted cell).
func checkFsPlainCell(t *testing.T, s string) {
	t.Helper()
	for _, b := range cellBufs() {
		want, wok := encoder.AppendPlainCell(append([]byte(nil), b...), s)
		orig := string(b)
		got, ok := fsPlainCell(b, s)
		switch {
		case wok && (!ok || string(got) != string(want)):
			t.Fatalf("fsPlainCell(%q) = %q, %v; AppendPlainCell: %q, %v", s, got, ok, want, wok)
		case !wok && !ok && string(got) != orig:
			t.Fatalf("fsPlainCell(%q) = %q, false; want %q unchanged", s, got, orig)
		case !wok && ok && (encoder.NeedsQuote(s, encoder.Cell) || string(got) != orig+s):
			t.Fatalf("fsPlainCell(%q) = %q, true; NeedsQuote %v, want %q", s, got,
				encoder.NeedsQuote(s, encoder.Cell), orig+s)
		}
	}
}

// TestFsDigitsAll: fsDigits gives strconv's digits of every u < 10^7,
// with zero bytes above them.
func TestFsDigitsAll(t *testing.T) {
	var buf [8]byte
	for u := uint64(0); u < 1e7; u++ {
		w, n := fsDigits(u)
		want := strconv.AppendUint(buf[:0], u, 10)
		if n != len(want) || w>>(8*n) != 0 {
			t.Fatalf("fsDigits(%d) = %#x, %d", u, w, n)
		}
		for i, c := range want {
			if byte(w>>(8*i)) != c {
				t.Fatalf("fsDigits(%d) = %#x, %d; want %q", u, w, n, want)
			}
		}
	}
}

// TestFsIndentItemIndex: fsIndent and fsItemIndex write
// encoder.AppendIndent's and AppendItemIndex's bytes (the latter with
// its word separator) after what the buffer held, with and without
// spill, and without spill leave the spare capacity alone.
func TestFsIndentItemIndex(t *testing.T) {
	for level := 0; level <= 12; level++ {
		for _, spill := range []bool{true, false} {
			for _, b := range cellBufs() {
				want := string(encoder.AppendIndent([]byte("ab"), level))
				got := fsIndent(b, level, spill)
				if string(got) != want {
					t.Fatalf("fsIndent(%d, %v) = %q, want %q", level, spill, got, want)
				}
				checkSpare(t, got, spill, "fsIndent")
			}
		}
	}
	r := rand.New(rand.NewSource(5))
	idx := []int{0, 1, 9, 10, 99, 100, 9999, 10000, 999999, 1000000, 9999999, 10000000, 10000001, math.MaxInt32, math.MaxInt}
	for i := 0; i < 100000; i++ {
		idx = append(idx, i, r.Intn(20000000), int(r.Int63()>>r.Intn(63)))
	}
	for _, i := range idx {
		want := "ab@" + strconv.Itoa(i) + " "
		for _, spill := range []bool{true, false} {
			for _, b := range cellBufs() {
				got := fsItemIndex(b, i, spill)
				if string(got) != want {
					t.Fatalf("fsItemIndex(%d, %v) = %q, want %q", i, spill, got, want)
				}
				checkSpare(t, got, spill, "fsItemIndex")
			}
		}
	}
}

// TestFsSpecialLanes: fsSpecial flags, in every lane of a word of plain
// letters, exactly the byte values AppendPlainCell stops at and '{',
// '}', '~' and DEL.
func TestFsSpecialLanes(t *testing.T) {
	for lane := 0; lane < 8; lane++ {
		for c := 0; c < 256; c++ {
			w := uint64(0x6867666564636261) // "abcdefgh"
			w = w&^(0xFF<<(8*lane)) | uint64(c)<<(8*lane)
			_, plain := encoder.AppendPlainCell(nil, string([]byte{'a', byte(c), 'a'}))
			want := !plain || c == '{' || c == '}' || c == '~' || c == 0x7F
			got := fsSpecial(w)
			if got&^(0x80<<(8*lane)) != 0 || (got != 0) != want {
				t.Fatalf("fsSpecial lane %d byte %#x = %#x, want flagged %v", lane, c, got, want)
			}
		}
	}
}
