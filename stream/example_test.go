package stream_test

import (
	"fmt"
	"io"

	"github.com/gcfkit/gcf/stream"
)

// %v of an Event prints it as text: kind, role, form, key, count, fields
// and scalars.
func ExampleEvent_String() {
	d := stream.NewBytesDecoder([]byte("GCF profile=generic\n## users [2]{id,name}\n1|Ann\n2|\"Bo b\"\n"), stream.Limits{})
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Println(ev)
	}
	// Output:
	// header (profile="generic") line 1
	// object start root section line 2
	// array start member tabular key="users" [2] {id,name} line 2
	// row (id=1 name="Ann") line 3
	// row (id=2 name="Bo b") line 4
	// array end
	// object end
	// end line 4
}
