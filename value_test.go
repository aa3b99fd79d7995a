package gcf

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestObjectJSON: Object marshals through encoding/json in member order with
// exact integers, and unmarshals keeping both.
func TestObjectJSON(t *testing.T) {
	o := Object{{"z", int64(9223372036854775807)}, {"a", []any{1.5, "x", nil, true}}, {"m", Object{{"k", int64(-1)}}}}
	b, err := json.Marshal(map[string]any{"o": o})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"o":{"z":9223372036854775807,"a":[1.5,"x",null,true],"m":{"k":-1}}}`
	if string(b) != want {
		t.Fatalf("got %s", b)
	}
	var back Object
	if err := json.Unmarshal([]byte(`{"z":9223372036854775807,"a":[1.5],"b":2}`), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 3 || back[0].Key != "z" || back[0].Value != int64(9223372036854775807) || back[2].Key != "b" {
		t.Fatalf("unmarshalled %#v", back)
	}
}

func TestParseJSONErrors(t *testing.T) {
	for in, cat := range map[string]Category{
		`{"a":1,"a":2}`:         DuplicateKey,
		`[9223372036854775808]`: OutOfRange,
		`-9223372036854775809`:  OutOfRange,
		`{"x":1e400}`:           OutOfRange,
	} {
		_, err := ParseJSON([]byte(in))
		if !errors.Is(err, cat) {
			t.Errorf("ParseJSON(%s): want %s, got %v", in, cat, err)
		}
	}
	if v, err := ParseJSON([]byte(`-9223372036854775808`)); err != nil || v != int64(-9223372036854775808) {
		t.Errorf("int64 min: %v %v", v, err)
	}
	if _, err := ParseJSON([]byte(`{} {}`)); err == nil {
		t.Error("trailing data accepted")
	}
}
