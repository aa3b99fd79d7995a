package gcf_test

import (
	"fmt"

	"github.com/gcfkit/gcf"
)

func ExampleMarshal() {
	type employee struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	out, err := gcf.Marshal(struct {
		Employees []employee `json:"employees"`
	}{[]employee{{1, "Alice"}, {2, "Bob"}}})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// GCF profile=generic
	// ## employees [2]{id,name}
	// 1|Alice
	// 2|Bob
}

func ExampleUnmarshal() {
	type employee struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	var v struct {
		Employees []employee `json:"employees"`
	}
	err := gcf.Unmarshal([]byte("GCF profile=generic\n## employees [2]{id,name}\n1|Alice\n2|Bob\n"), &v)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", v.Employees)
	// Output:
	// [{ID:1 Name:Alice} {ID:2 Name:Bob}]
}

func ExampleUnmarshal_any() {
	data := []byte("GCF profile=generic\nname=gcf\nstars=42\n")

	// As encoding/json: map[string]any and float64.
	var v any
	if err := gcf.Unmarshal(data, &v); err != nil {
		panic(err)
	}
	m := v.(map[string]any)
	fmt.Printf("%v (%T), %v (%T)\n", m["name"], m["name"], m["stars"], m["stars"])

	// DecodeGeneric's ordered model: gcf.Object and int64.
	var o any
	if err := gcf.Unmarshal(data, &o, gcf.WithOrderedObjects(), gcf.WithExactNumbers()); err != nil {
		panic(err)
	}
	for _, m := range o.(gcf.Object) {
		fmt.Printf("%s=%v (%T)\n", m.Key, m.Value, m.Value)
	}
	// Output:
	// gcf (string), 42 (float64)
	// name=gcf (string)
	// stars=42 (int64)
}

func ExampleUnmarshal_error() {
	var v any
	err := gcf.Unmarshal([]byte("GCF profile=generic\n## rows [2]{id}\n1\n"), &v)
	fmt.Println(gcf.CategoryOf(err), err)
	// Output:
	// count_mismatch 3:1: count_mismatch: declared 2 rows but found 1 (section opened on line 2)
}
