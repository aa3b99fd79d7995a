package lexer

import (
	"fmt"
	"strings"
	"testing"
)

func TestIsBareKey(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"a", true}, {"_", true}, {"_x", true}, {"a1", true}, {"A_Z9", true},
		{"true", true}, {"null", true},
		{"", false}, {"1a", false}, {"9", false}, {"a-b", false}, {"a b", false},
		{"a.b", false}, {"a=b", false}, {"a,b", false}, {"a|b", false},
		{"a{b", false}, {"a[0]", false}, {`a"b`, false}, {`a\b`, false},
		{"café", false}, {"é", false}, {"a\n", false}, {" a", false}, {"a ", false},
	}
	for _, tc := range tests {
		if got := IsBareKey(tc.s); got != tc.want {
			t.Errorf("IsBareKey(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestScanKey(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		pos    int
		key    string
		end    int
		err    Category
		errCol int
	}{
		{name: "bare", line: "abc", key: "abc", end: 3},
		{name: "bare before equals", line: "abc=1", key: "abc", end: 3},
		{name: "bare underscore digits", line: "_x9 rest", key: "_x9", end: 3},
		{name: "bare single", line: "A", key: "A", end: 1},
		{name: "bare stops at dash", line: "a-b", key: "a", end: 1},
		{name: "bare stops at bracket", line: "tags[3]: a", key: "tags", end: 4},
		{name: "bare at offset", line: "## key", pos: 3, key: "key", end: 6},
		{name: "quoted with space", line: `"a b"=1`, key: "a b", end: 5},
		{name: "quoted with equals", line: `"a=b"=v`, key: "a=b", end: 5},
		{name: "quoted empty", line: `""=x`, key: "", end: 2},
		{name: "quoted escapes", line: `"a\"b\\c\n\u00e9\uD83D\uDE00"=1`, key: "a\"b\\c\né😀", end: 29},
		{name: "quoted brackets", line: `"[0]: y"[2]: a,b`, key: "[0]: y", end: 8},
		{name: "quoted at offset", line: `.  "x y" {}`, pos: 3, key: "x y", end: 8},

		{name: "digit start", line: "1a", err: InvalidLine, errCol: 1},
		{name: "dash start", line: "-x", err: InvalidLine, errCol: 1},
		{name: "empty line", line: "", err: InvalidLine, errCol: 1},
		{name: "equals start", line: "=v", err: InvalidLine, errCol: 1},
		{name: "space start", line: " key", err: InvalidLine, errCol: 1},
		{name: "non-ASCII start", line: "é", err: InvalidLine, errCol: 1},
		{name: "invalid at offset", line: "## 9x", pos: 3, err: InvalidLine, errCol: 4},
		{name: "past end", line: "ab", pos: 2, err: InvalidLine, errCol: 3},
		{name: "quoted unterminated", line: `"abc`, err: UnterminatedQuote, errCol: 1},
		{name: "quoted bad escape", line: `"a\x"`, err: InvalidEscape, errCol: 3},
		{name: "quoted isolated surrogate", line: `"\uDC00"`, err: InvalidSurrogate, errCol: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var scratch []byte
			key, end, err := ScanKey([]byte(tc.line), tc.pos, &scratch)
			if tc.err != "" {
				wantErr(t, err, tc.err, tc.errCol)
				return
			}
			if err != nil {
				t.Fatalf("ScanKey(%q, %d): %v", tc.line, tc.pos, err)
			}
			if string(key) != tc.key || end != tc.end {
				t.Errorf("ScanKey(%q, %d) = %q, %d; want %q, %d", tc.line, tc.pos, key, end, tc.key, tc.end)
			}
		})
	}
}

func TestScanFieldDecl(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		pos    int
		names  []string
		end    int // -1: len(line)
		err    Category
		errCol int
	}{
		{name: "single", line: "{a}", names: []string{"a"}, end: -1},
		{name: "two", line: "{id,name}", names: []string{"id", "name"}, end: -1},
		{name: "spec example", line: `{id,"display name","a,b",score}`, names: []string{"id", "display name", "a,b", "score"}, end: -1},
		{name: "quoted brace", line: `{"}"}`, names: []string{"}"}, end: -1},
		{name: "quoted braces and comma", line: `{"{a}","b,c"}`, names: []string{"{a}", "b,c"}, end: -1},
		{name: "quoted escapes", line: `{"a\"b",c,"\u00e9\n"}`, names: []string{`a"b`, "c", "é\n"}, end: -1},
		{name: "quoted pipe", line: `{a,"b|c"}`, names: []string{"a", "b|c"}, end: -1},
		{name: "quoted empty name", line: `{""}`, names: []string{""}, end: -1},
		{name: "quoted path", line: `{id,"customer>name"}`, names: []string{"id", "customer>name"}, end: -1},
		{name: "underscore and digits", line: "{_,A1,b_2}", names: []string{"_", "A1", "b_2"}, end: -1},
		{name: "stops after brace", line: "{a}rest", names: []string{"a"}, end: 3},
		{name: "at offset", line: "## rows [2]{id,name}", pos: 11, names: []string{"id", "name"}, end: -1},

		{name: "empty decl", line: "{}", err: InvalidLine, errCol: 0},
		{name: "missing close", line: "{a", err: InvalidLine, errCol: 0},
		{name: "missing close after comma", line: "{a,", err: InvalidLine, errCol: 0},
		{name: "missing close after quoted", line: `{"a"`, err: InvalidLine, errCol: 0},
		{name: "trailing comma", line: "{a,}", err: InvalidLine, errCol: 0},
		{name: "leading comma", line: "{,a}", err: InvalidLine, errCol: 0},
		{name: "double comma", line: "{a,,b}", err: InvalidLine, errCol: 0},
		{name: "space in bare name", line: "{a b}", err: InvalidLine, errCol: 0},
		{name: "space after comma", line: "{a, b}", err: InvalidLine, errCol: 0},
		{name: "semicolon", line: "{a;b}", err: InvalidLine, errCol: 0},
		{name: "digit start", line: "{1a}", err: InvalidLine, errCol: 0},
		{name: "dash in bare name", line: "{a-b}", err: InvalidLine, errCol: 0},
		{name: "no open brace", line: "a}", err: InvalidLine, errCol: 1},
		{name: "empty line", line: "", err: InvalidLine, errCol: 1},
		{name: "quoted unterminated", line: `{"a}`, err: UnterminatedQuote, errCol: 2},
		{name: "quoted bad escape", line: `{"a\q"}`, err: InvalidEscape, errCol: 4},
		{name: "quoted isolated surrogate", line: `{"\uD800"}`, err: InvalidSurrogate, errCol: 3},
		{name: "text after quoted name", line: `{"a"b}`, err: InvalidLine, errCol: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line := []byte(tc.line)
			var scratch []byte
			end, names, err := ScanFieldDecl(line, tc.pos, &scratch, [][]byte{})
			if tc.err != "" {
				wantErr(t, err, tc.err, tc.errCol)
				return
			}
			if err != nil {
				t.Fatalf("ScanFieldDecl(%q): %v", tc.line, err)
			}
			wantEnd := tc.end
			if wantEnd < 0 {
				wantEnd = len(line)
			}
			if end != wantEnd {
				t.Errorf("end = %d, want %d", end, wantEnd)
			}
			got := make([]string, len(names))
			for i, n := range names {
				got[i] = string(n)
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.names) {
				t.Errorf("names = %q, want %q", got, tc.names)
			}

			// Shape-only mode (dst nil) agrees on the end and returns no names.
			var scratch2 []byte
			end2, names2, err2 := ScanFieldDecl(line, tc.pos, &scratch2, nil)
			if err2 != nil || end2 != end || names2 != nil {
				t.Errorf("shape-only: end %d names %q err %v; want end %d, nil, nil", end2, names2, err2, end)
			}
		})
	}
}

func TestScanFieldDeclErrorColumns(t *testing.T) {
	// Columns the implementation reports; they must point inside the line
	// (or one past its end) at or after the opening brace.
	for _, line := range []string{"{}", "{a", "{a,", "{a,}", "{,a}", "{a b}", "{1a}", `{"a"b}`} {
		var scratch []byte
		_, _, err := ScanFieldDecl([]byte(line), 0, &scratch, nil)
		if err == nil {
			t.Errorf("ScanFieldDecl(%q): no error", line)
			continue
		}
		if err.Column < 2 || err.Column > len(line)+1 {
			t.Errorf("ScanFieldDecl(%q): column %d outside [2, %d]", line, err.Column, len(line)+1)
		}
	}
}

func TestScanCount(t *testing.T) {
	const max = 1 << 24
	tests := []struct {
		name   string
		line   string
		pos    int
		max    int64
		count  int64
		keyed  bool
		end    int
		err    Category
		errCol int
	}{
		{name: "zero", line: "[0]", max: max, count: 0, end: 3},
		{name: "twelve", line: "[12]", max: max, count: 12, end: 4},
		{name: "deferred", line: "[?]", max: max, count: Deferred, end: 3},
		{name: "keyed", line: "[3:]", max: max, count: 3, keyed: true, end: 4},
		{name: "keyed deferred", line: "[?:]", max: max, count: Deferred, keyed: true, end: 4},
		{name: "keyed zero", line: "[0:]", max: max, count: 0, keyed: true, end: 4},
		{name: "followed by decl", line: "[2]{id,name}", max: max, count: 2, end: 3},
		{name: "followed by colon", line: "[3]: a,b,c", max: max, count: 3, end: 3},
		{name: "at offset", line: "rows [2]{a}", pos: 5, max: max, count: 2, end: 8},
		{name: "at limit", line: "[16777216]", max: max, count: max, end: 10},
		{name: "no limit", line: "[2000000000]", max: 0, count: 2000000000, end: 12},
		{name: "18 digits no limit", line: "[999999999999999999]", max: 0, count: 999999999999999999, end: 20},

		{name: "leading zero", line: "[03]", max: max, err: InvalidCount, errCol: 1},
		{name: "double zero", line: "[00]", max: max, err: InvalidCount, errCol: 1},
		{name: "empty", line: "[]", max: max, err: InvalidCount, errCol: 1},
		{name: "negative", line: "[-1]", max: max, err: InvalidCount, errCol: 1},
		{name: "plus", line: "[+3]", max: max, err: InvalidCount, errCol: 1},
		{name: "blank inside", line: "[ 3]", max: max, err: InvalidCount, errCol: 1},
		{name: "blank before close", line: "[3 ]", max: max, err: InvalidCount, errCol: 1},
		{name: "letter", line: "[3x]", max: max, err: InvalidCount, errCol: 1},
		{name: "double deferred", line: "[??]", max: max, err: InvalidCount, errCol: 1},
		{name: "deferred digit", line: "[?3]", max: max, err: InvalidCount, errCol: 1},
		{name: "colon only", line: "[:]", max: max, err: InvalidCount, errCol: 1},
		{name: "double colon", line: "[3::]", max: max, err: InvalidCount, errCol: 1},
		{name: "colon before count", line: "[:3]", max: max, err: InvalidCount, errCol: 1},
		{name: "fraction", line: "[1.5]", max: max, err: InvalidCount, errCol: 1},
		{name: "arabic-indic digit", line: "[١]", max: max, err: InvalidCount, errCol: 1},
		{name: "no closing bracket", line: "[3", max: max, err: InvalidCount, errCol: 1},
		{name: "deferred no closing bracket", line: "[?", max: max, err: InvalidCount, errCol: 1},
		{name: "keyed no closing bracket", line: "[3:", max: max, err: InvalidCount, errCol: 1},
		{name: "open only", line: "[", max: max, err: InvalidCount, errCol: 1},
		{name: "error at offset", line: "rows [03]", pos: 5, max: max, err: InvalidCount, errCol: 6},
		{name: "over limit", line: "[2000000000]", max: max, err: TooManyElements, errCol: 1},
		{name: "one over limit", line: "[16777217]", max: max, err: TooManyElements, errCol: 1},
		{name: "keyed over limit", line: "[2000000000:]", max: max, err: TooManyElements, errCol: 1},
		{name: "30 digits", line: "[" + strings.Repeat("9", 30) + "]", max: max, err: TooManyElements, errCol: 1},
		{name: "30 digits no limit", line: "[" + strings.Repeat("9", 30) + "]", max: 0, err: TooManyElements, errCol: 1},
		{name: "beyond uint64", line: "[184467440737095516160]", max: max, err: TooManyElements, errCol: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			count, keyed, end, err := ScanCount([]byte(tc.line), tc.pos, tc.max)
			if tc.err != "" {
				wantErr(t, err, tc.err, tc.errCol)
				return
			}
			if err != nil {
				t.Fatalf("ScanCount(%q): %v", tc.line, err)
			}
			if count != tc.count || keyed != tc.keyed || end != tc.end {
				t.Errorf("ScanCount(%q) = %d, %v, %d; want %d, %v, %d", tc.line, count, keyed, end, tc.count, tc.keyed, tc.end)
			}
		})
	}
}

func TestKeysZeroAllocs(t *testing.T) {
	decl := []byte(`{id,"display name","a,b\n",score}`)
	scratch := make([]byte, 0, len(decl))
	dst := make([][]byte, 0, 8)
	allocs := testing.AllocsPerRun(200, func() {
		scratch = scratch[:0]
		_, names, err := ScanFieldDecl(decl, 0, &scratch, dst[:0])
		if err != nil || len(names) != 4 {
			panic(fmt.Sprint(names, err))
		}
	})
	if allocs != 0 {
		t.Errorf("ScanFieldDecl: %v allocs per run, want 0", allocs)
	}

	count := []byte("## rows [12:]{a,b}")
	allocs = testing.AllocsPerRun(200, func() {
		if n, _, _, err := ScanCount(count, 8, 1<<24); err != nil || n != 12 {
			panic(err)
		}
	})
	if allocs != 0 {
		t.Errorf("ScanCount: %v allocs per run, want 0", allocs)
	}
}
