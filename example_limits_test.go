package gcf_test

import (
	"errors"
	"fmt"

	"github.com/gcfkit/gcf"
)

// The encoder refuses what the decoder with the same limits would reject,
// with the decoder's error category, before writing anything.
func ExampleEncodeGeneric_limits() {
	var v any = "leaf"
	for i := 0; i < 5; i++ {
		v = []any{v} // five nested arrays
	}
	_, err := gcf.EncodeGeneric(v, gcf.WithMaxDepth(4))
	fmt.Println(gcf.CategoryOf(err), errors.Is(err, gcf.DepthExceeded))
	fmt.Println(err)

	out, err := gcf.EncodeGeneric(v, gcf.WithMaxDepth(5))
	fmt.Println(err == nil)
	_, err = gcf.DecodeGeneric(out, gcf.WithMaxDepth(5))
	fmt.Println(err == nil)
	// Output:
	// depth_exceeded true
	// depth_exceeded: the encoding would nest containers deeper than the depth limit of 4 (raise it with gcf.WithMaxDepth or -max-depth, on the decoder too)
	// true
	// true
}
