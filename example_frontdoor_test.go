package gcf_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/gcfkit/gcf"
)

// Writing for a reader that predates spec v3.6.0, such as the reference
// TypeScript SDK 2.6.1: no v3.6-only forms.
func ExampleWithSpec() {
	type host struct {
		Name   string `json:"name"`
		Region string `json:"region"`
		Up     bool   `json:"up"`
	}
	hosts := []host{{"web-1", "eu-west", true}, {"web-2", "eu-west", false}}
	out, err := gcf.EncodeGeneric(hosts, gcf.WithSpec(gcf.Spec353))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// GCF profile=generic
	// ## [2]{name,region,up}
	// web-1|eu-west|true
	// web-2|eu-west|false
}

// An encode error about one value names it by its JSON Pointer in Path.
func ExampleSyntaxError_path() {
	type reading struct {
		Sensor string  `json:"sensor"`
		Value  float64 `json:"value"`
	}
	_, err := gcf.Marshal(map[string]any{"readings": []reading{{"a", 1.5}, {"b", math.NaN()}}})
	var se *gcf.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Path, se.Category)
	}
	fmt.Println(err)
	// Output:
	// /readings/1/value out_of_range
	// "/readings/1/value": out_of_range: non-finite number NaN is outside the JSON data model
}
