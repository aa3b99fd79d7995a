package gcf_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/gcfkit/gcf"
)

// A payload of the legacy v1.x wire is decoded with WithWire(WireV1); the
// default v3 decoder refuses it and says so.
func ExampleWithWire() {
	v1 := []byte("GCF tool=context_for_task budget=5000 tokens=1847 symbols=2 edges=1\n" +
		"## targets\n@0 fn pkg.Auth 0.78 lsp_resolved\n## related\n@1 fn pkg.Server 0.54 lsp_resolved\n" +
		"## edges [1]\n@0<@1 calls\n")
	_, err := gcf.Decode(v1)
	fmt.Println(gcf.CategoryOf(err))
	p, err := gcf.Decode(v1, gcf.WithWire(gcf.WireV1))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Tool, p.Symbols[1].QualifiedName, p.Symbols[1].Distance, p.Edges[0].Source, p.Edges[0].EdgeType, p.Edges[0].Target)
	out, _ := gcf.Encode(p, gcf.WithWire(gcf.WireV1))
	fmt.Println(bytes.Equal(out, v1))
	// Output:
	// missing_profile
	// context_for_task pkg.Server 1 pkg.Server calls pkg.Auth
	// true
}

// Migrate writes the v3.5.3 payload equivalent to a v1.x one.
func ExampleMigrate() {
	v1 := "GCF tool=test budget=5000 tokens=100 symbols=2\n## targets\n@0 fn pkg.A 0.9 lsp\n## distance_4\n@1 fn pkg.B 0.50 lsp\n"
	if err := gcf.Migrate(strings.NewReader(v1), os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// GCF profile=graph tool=test budget=5000 tokens=100 symbols=2
	// ## targets
	// @0 fn pkg.A 0.90 lsp
	// ## distance_4
	// @1 fn pkg.B 0.50 lsp
}

// What v3 cannot carry is refused, never dropped: v3 scores have two decimals.
func ExampleMigrate_refused() {
	v1 := "GCF tool=test\n## targets\n@0 fn pkg.A 0.125 lsp\n"
	err := gcf.Migrate(strings.NewReader(v1), new(bytes.Buffer))
	fmt.Println(err)
	// Output:
	// 3:13: invalid_score: score "0.125" has more precision than the two decimals of a v3 score
}

// A v1 streaming table: `## name [?]{fields}` rows, then the v1.4
// `## _summary` trailer.
func ExampleNewEncoder_v1() {
	enc := gcf.NewEncoder(os.Stdout, gcf.WithWire(gcf.WireV1))
	enc.WriteField("source", "billing")
	enc.BeginTable("events", "id", "kind")
	enc.WriteRow(1, "login")
	enc.WriteRecord(map[string]any{"id": 2, "kind": "a|b"})
	if err := enc.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// source=billing
	// ## events [?]{id,kind}
	// 1|login
	// 2|"a|b"
	// ## _summary rows=2 sections=events:2
}
