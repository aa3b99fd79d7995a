package generic

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// An encode error about one value carries the value's JSON Pointer (RFC
// 6901) in SyntaxError.Path, not in the message; Error() shows it first.
func TestEncodeErrorPath(t *testing.T) {
	type row struct {
		ID int     `json:"id"`
		F  float64 `json:"f"`
	}
	type withChan struct {
		C chan int `json:"c"`
	}
	cases := []struct {
		name string
		v    any
		opts []Option
		cat  Category
		path string
	}{
		{"struct field in slice", struct {
			Rows []row `json:"rows"`
		}{[]row{{1, 1}, {2, 2}, {3, math.NaN()}}}, nil, OutOfRange, "/rows/2/f"},
		{"escaped keys", map[string]any{"a/b": map[string]any{"x~y": []any{1, math.Inf(1)}}}, nil, OutOfRange, "/a~1b/x~0y/1"},
		{"[]float64", map[string]any{"v": []float64{1, math.NaN()}}, nil, OutOfRange, "/v/1"},
		{"unsupported type", map[string]any{"k": []withChan{{}}}, nil, UnsupportedValue, "/k/0/c"},
		{"unsupported map value", map[string]complex128{"z": 1}, nil, UnsupportedValue, "/z"},
		{"duplicate key", Object{{Key: "o", Value: []any{Object{{Key: "a", Value: 1}, {Key: "a", Value: 2}}}}}, nil, DuplicateKey, "/o/0"},
		{"json.Number", Object{{Key: "n", Value: []any{int64(1), json.Number("1x")}}}, nil, UnsupportedValue, "/n/1"},
		{"map fast path", map[string]any{"a": []any{"ok", "x\xff"}}, nil, InvalidUTF8, "/a/1"},
		{"struct fast path", struct {
			A []string `json:"a"`
		}{[]string{"ok", "y\xfe"}}, nil, InvalidUTF8, "/a/1"},
		{"too many elements", Object{{Key: "a", Value: int64(1)}, {Key: "b", Value: Object{{Key: "c", Value: []any{1, 2, 3}}}}}, []Option{WithMaxElements(2)}, TooManyElements, "/b/c"},
		{"after a table of wide rows", Object{{Key: "t", Value: []any{Object{{Key: "x", Value: 1}, {Key: "y", Value: 2}, {Key: "z", Value: 3}}, Object{{Key: "x", Value: 1}, {Key: "y", Value: 2}, {Key: "z", Value: 3}}}}, {Key: "u", Value: []any{"a", "b", "c"}}}, []Option{WithMaxElements(2)}, TooManyElements, "/u"},
		{"too many members", []any{"s", Object{{Key: "x", Value: 1}, {Key: "y", Value: 2}, {Key: "z", Value: 3}}}, []Option{WithMaxElements(2)}, TooManyElements, "/1"},
	}
	for _, c := range cases {
		_, err := EncodeGeneric(c.v, c.opts...)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Category != c.cat {
			t.Errorf("%s: %v, want %s", c.name, err, c.cat)
			continue
		}
		if se.Path != c.path || se.Line != 0 {
			t.Errorf("%s: path %q, line %d; want path %q", c.name, se.Path, se.Line, c.path)
		}
		if want := `"` + c.path + `": ` + string(c.cat) + ": "; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: Error() = %q, want prefix %q", c.name, err, want)
		}
		if strings.Contains(se.Msg, c.path) {
			t.Errorf("%s: the message repeats the path: %q", c.name, se.Msg)
		}
		if _, err2 := Marshal(c.v); c.opts == nil && CategoryOf(err2) != c.cat {
			t.Errorf("%s: Marshal: %v", c.name, err2)
		}
	}
}

// Errors about the root value, or about no one value, have no path.
func TestEncodeErrorNoPath(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		opts []Option
	}{
		{"root over the element limit", []any{1, 2, 3}, []Option{WithMaxElements(2)}},
		{"root NaN", math.NaN(), nil},
		{"depth", nest(6, int64(1), depthShapes["object"]), []Option{WithMaxDepth(3)}},
	} {
		_, err := EncodeGeneric(c.v, c.opts...)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v", c.name, err)
		}
		if se.Path != "" || strings.HasPrefix(err.Error(), `"`) {
			t.Errorf("%s: path %q, %v", c.name, se.Path, err)
		}
	}
}

// The streaming Encoder names the field or cell it refuses by its JSON
// Pointer in the decoded payload.
func TestStreamEncoderErrorPath(t *testing.T) {
	type step func(e *Encoder) error
	cases := []struct {
		name  string
		steps []step
		cat   Category
		path  string
	}{
		{"field value", []step{func(e *Encoder) error { return e.WriteField("a/b", "x\xff") }}, InvalidUTF8, "/a~1b"},
		{"field key", []step{func(e *Encoder) error { return e.WriteField("k\xff", 1) }}, InvalidUTF8, "/k\xff"},
		{"row cell", []step{
			func(e *Encoder) error { return e.BeginTable("t", "id", "v") },
			func(e *Encoder) error { return e.WriteRow(1, 2.5) },
			func(e *Encoder) error { return e.WriteRow(2, math.NaN()) },
		}, OutOfRange, "/t/1/v"},
		{"root array record", []step{
			func(e *Encoder) error { return e.BeginTable("", "id", "v") },
			func(e *Encoder) error { return e.WriteRecord(map[string]any{"id": 1, "v": []any{1}}) },
		}, UnsupportedValue, "/0/v"},
		{"keyed cell", []step{
			func(e *Encoder) error { return e.BeginKeyedTable("m", "v") },
			func(e *Encoder) error { return e.WriteKeyedRecord("k~1", map[string]any{"v": "x\xff"}) },
		}, InvalidUTF8, "/m/k~01/v"},
		{"keyed key", []step{
			func(e *Encoder) error { return e.BeginKeyedTable("m", "v") },
			func(e *Encoder) error { return e.WriteKeyedRecord("k\xff", map[string]any{"v": 1}) },
		}, InvalidUTF8, "/m/k\xff"},
	}
	for _, c := range cases {
		e := NewEncoder(new(bytes.Buffer))
		var err error
		for _, s := range c.steps {
			if err = s(e); err != nil {
				break
			}
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Category != c.cat || se.Path != c.path {
			t.Errorf("%s: %v (path %q), want %s at %q", c.name, err, pathOf(se), c.cat, c.path)
			continue
		}
		if c.cat == InvalidUTF8 && !strings.Contains(se.Msg, "invalid byte at offset") {
			t.Errorf("%s: message %q does not say where the bad byte is", c.name, se.Msg)
		}
	}
}

func pathOf(se *SyntaxError) string {
	if se == nil {
		return ""
	}
	return se.Path
}
