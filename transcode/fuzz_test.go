package transcode

import (
	"bytes"
	"io"
	"testing"

	"github.com/gcfkit/gcf"
)

// FuzzToJSON: on any input, ToJSON prints what the buffered path prints,
// or fails with the same error; ToNDJSON succeeds exactly when
// DecodeGeneric (or, for graph input, ToJSON) does.
func FuzzToJSON(f *testing.F) {
	for _, p := range mixedPayloads {
		f.Add([]byte(p))
	}
	f.Add([]byte("GCF profile=graph tool=t\n## targets\n@0 fn a 0.50 x\n## edges [1]\n@0<@0 calls\n## related\n@1 fn b 0.25 y\n"))
	f.Add([]byte("GCF profile=graph tool=t delta=true base_root=a new_root=b\n## edges_added\nx -> y calls\n## added\n@0 fn n 1.00 p 3\n## removed\nfn o\n"))
	f.Add([]byte("GCF profile=generic\n## t [2]{a,b>c,b>d}\n^|1|~\n.a [1]{x}\n  y\n2|-|-\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := buffered(data, "")
		var got bytes.Buffer
		_, gerr := ToJSON(&got, bytes.NewReader(data), Options{})
		switch {
		case werr != nil && gerr != nil:
			if !sameError(werr, gerr) {
				t.Fatalf("errors differ: buffered %v, ToJSON %v", werr, gerr)
			}
		case werr != nil || gerr != nil:
			t.Fatalf("buffered %v, ToJSON %v", werr, gerr)
		case !bytes.Equal(got.Bytes(), want):
			t.Fatalf("got %s\nwant %s", got.Bytes(), want)
		}
		_, nerr := ToNDJSON(io.Discard, bytes.NewReader(data), Options{})
		if bytes.Contains(bytes.SplitN(data, []byte("\n"), 2)[0], []byte("profile=graph")) {
			return // graph NDJSON never buffers, so its only failures are the decoder's
		}
		_, derr := gcf.DecodeGeneric(data)
		if (derr == nil) != (nerr == nil) || derr != nil && !sameError(derr, nerr) {
			t.Fatalf("ToNDJSON %v, DecodeGeneric %v", nerr, derr)
		}
	})
}
