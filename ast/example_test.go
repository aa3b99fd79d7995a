package ast_test

import (
	"fmt"

	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/stream"
)

// Parse reports every problem of a payload, sorted by position, each with
// its SPEC §16.5 category; the pull decoder would stop at the first.
func ExampleParse() {
	payload := "GCF profile=generic\n" +
		"name=Alice\n" +
		"name=Bob\n" +
		"## rows [3]{id,id}\n" +
		"1|2\n" +
		"tags[2]: a\n"
	_, errs := ast.Parse([]byte(payload), stream.Limits{})
	for _, e := range errs {
		fmt.Println(e)
	}
	fmt.Println(errs.Error())
	// Output:
	// 3:1: duplicate_key: duplicate key "name"
	// 4:16: duplicate_field_name: duplicate field name "id"
	// 6:1: row_width_mismatch: row has 1 values but the header declares 2 fields
	// 6:1: count_mismatch: declared 3 rows but found 2
	// 3:1: duplicate_key: duplicate key "name" (and 3 more errors)
}

// A valid payload has no diagnostics; the file holds the tree.
func ExampleParse_valid() {
	f, errs := ast.Parse([]byte("GCF profile=generic\n## [2]{id,name}\n1|Ada\n2|Grace\n"), stream.Limits{})
	arr := f.Root.(*ast.Array)
	fmt.Println(len(errs), f.Profile, arr.Form == ast.Tabular, len(arr.Rows), arr.Rows[1].Cells[1].Scalar.Text)
	// Output:
	// 0 generic true 2 Grace
}
