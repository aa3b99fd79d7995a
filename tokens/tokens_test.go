package tokens_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gcfkit/gcf/tokens"
)

// The counts below are the lengths of the token-ID lists in the tokenizer
// library's own tests (tiktoken-go/tokenizer v0.10.0, TestO200kBase and
// TestCl100kBase), which match OpenAI's tiktoken.
func TestKnownCounts(t *testing.T) {
	cases := []struct {
		text         string
		o200k, cl100 int
	}{
		{"'RE", 2, 1},
		{"hello world", 2, 2},
		{"hello  world", 3, 3},
		{"hello   world", 3, 3},
		{"supercalifragilistic", 6, 7},
		{"We know what we are, but know not what we may be.", 14, 14},
		{"", 0, 0},
	}
	o := tokens.MustNew(tokens.O200kBase)
	c := tokens.MustNew(tokens.Cl100kBase)
	for _, tc := range cases {
		if got := o.Count(tc.text); got != tc.o200k {
			t.Errorf("o200k_base Count(%q) = %d, want %d", tc.text, got, tc.o200k)
		}
		if got := c.Count(tc.text); got != tc.cl100 {
			t.Errorf("cl100k_base Count(%q) = %d, want %d", tc.text, got, tc.cl100)
		}
		if got := tokens.Count(tc.text); got != tc.o200k {
			t.Errorf("Count(%q) = %d, want the o200k count %d", tc.text, got, tc.o200k)
		}
	}
}

func TestParseEncoding(t *testing.T) {
	for in, want := range map[string]tokens.Encoding{
		"": tokens.O200kBase, "o200k": tokens.O200kBase, "O200K_BASE": tokens.O200kBase,
		"cl100k": tokens.Cl100kBase, "cl100k_base": tokens.Cl100kBase,
	} {
		got, err := tokens.ParseEncoding(in)
		if err != nil || got != want {
			t.Errorf("ParseEncoding(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := tokens.ParseEncoding("p50k"); err == nil {
		t.Error("ParseEncoding(p50k): no error")
	}
	if _, err := tokens.New("gpt2"); err == nil {
		t.Error(`New("gpt2"): no error`)
	}
}

func TestConcurrent(t *testing.T) {
	c := tokens.MustNew(tokens.O200kBase)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if n := c.Count("We know what we are, but know not what we may be."); n != 14 {
					t.Errorf("concurrent Count = %d, want 14", n)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func ExampleCounter_Count() {
	c, err := tokens.New(tokens.O200kBase)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Count(`{"id":1,"name":"Alice"}`), c.Count("id=1\nname=Alice"))
	// Output: 9 7
}

func BenchmarkCount(b *testing.B) {
	text := `GCF profile=generic
## employees [3]{id,name,dept,salary}
1|Alice Chen|eng|125000
2|Bob Diaz|ops|98000
3|Carol Wu|eng|131000
`
	c := tokens.MustNew(tokens.O200kBase)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		c.Count(text)
	}
}
