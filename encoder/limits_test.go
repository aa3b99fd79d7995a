package encoder

import (
	"math"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/lexer"
)

// The encode limits name the line, its length and the limit, with the
// decoder's categories.
func TestEncodeLimitErrors(t *testing.T) {
	err := CheckLines([]byte("ab\nabcdef\nx"), 4)
	if lexer.CategoryOf(err) != lexer.LineTooLong || !strings.Contains(err.Error(), "line 2 of the encoding would be 6 bytes") {
		t.Fatalf("CheckLines: %v", err)
	}
	if err := CheckLines([]byte("abcd\nabcd"), 4); err != nil {
		t.Fatalf("CheckLines at the limit: %v", err)
	}
	if err := CheckSize(11, 10); lexer.CategoryOf(err) != lexer.PayloadTooLarge {
		t.Fatalf("CheckSize: %v", err)
	}
	if err := CheckSize(math.MaxInt, 0); err != nil {
		t.Fatalf("CheckSize without a cap: %v", err)
	}
	for _, c := range []struct {
		err  error
		want lexer.Category
	}{
		{DepthError(3), lexer.DepthExceeded},
		{ElementsError(5, "array", 4), lexer.TooManyElements},
		{FieldsError(5, 4), lexer.TooManyFields},
	} {
		if lexer.CategoryOf(c.err) != c.want {
			t.Errorf("%v: want %s", c.err, c.want)
		}
	}
	if got := quoteStart([]byte(strings.Repeat("é", 30))); !strings.HasSuffix(got, "...") {
		t.Errorf("quoteStart cut: %s", got)
	}
}
