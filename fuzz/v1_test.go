package fuzz

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/internal/conformance"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// v1Seeds returns the v1 payloads of the legacy suite (../shared/conformance-v1).
func v1Seeds(t testing.TB) [][]byte {
	t.Helper()
	out, err := conformance.V1Payloads()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// streamV1 runs the pull decoder's v1 mode over data: nil or its error.
func streamV1(data []byte, limits stream.Limits) *lexer.SyntaxError {
	d := stream.NewBytesDecoder(data, limits)
	d.SetWire(stream.WireV1)
	for {
		_, err := d.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *lexer.SyntaxError
			if !errors.As(err, &se) {
				return &lexer.SyntaxError{Category: "not a SyntaxError", Msg: err.Error()}
			}
			return se
		}
	}
}

// compareV1 is the differential check of the v1 wire. On a graph payload
// (first line "GCF ...") the pull decoder and the v1 grammar (ast.CheckV1)
// accept and reject the same inputs, and the grammar reports the problem
// the decoder stops at, on the same line with the same category. On a tabular payload, whose nesting the flat v1 grammar does not
// describe, the grammar is never stricter: what it rejects the decoder
// rejects.
func compareV1(data []byte, limits stream.Limits) error {
	se := streamV1(data, limits)
	list := ast.CheckV1(data, limits)
	graph := strings.HasPrefix(string(data), "GCF") && (len(data) == 3 || data[3] == ' ' || data[3] == '\n')
	switch {
	case se == nil && len(list) > 0:
		return errors.New("decoder accepts, grammar rejects: " + list[0].Error())
	case graph && se != nil && len(list) == 0:
		return errors.New("decoder rejects, grammar accepts: " + se.Error())
	case graph && se != nil:
		for _, e := range list {
			if e.Pos.Line == se.Line && e.Category == se.Category {
				return nil
			}
		}
		return errors.New("the grammar does not report the decoder's problem " + se.Error() + "; it reports " + list.Error())
	}
	return nil
}

// FuzzDifferentialV1: compareV1 on arbitrary bytes under the default and
// tight limits; neither parser may panic.
func FuzzDifferentialV1(f *testing.F) {
	for _, s := range v1Seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := compareV1(data, stream.Limits{}); err != nil {
			t.Fatalf("default limits: %v\ninput: %q", err, data)
		}
		if err := compareV1(data, tightLimits); err != nil {
			t.Fatalf("tight limits: %v\ninput: %q", err, data)
		}
	})
}

// TestDifferentialV1Suite runs compareV1 on every legacy suite payload and
// every truncation of it.
func TestDifferentialV1Suite(t *testing.T) {
	conformance.DirV1(t)
	for _, s := range v1Seeds(t) {
		for n := 0; n <= len(s); n++ {
			if err := compareV1(s[:n], stream.Limits{}); err != nil {
				t.Fatalf("%v\ninput: %q", err, s[:n])
			}
		}
	}
}
