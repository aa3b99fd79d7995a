package transcode_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/gcfkit/gcf/transcode"
)

func ExampleToJSON() {
	in := "GCF profile=generic\nstore=north-1\n## orders [2]{id,total}\n1|9.5\n2|-\n"
	res, err := transcode.ToJSON(os.Stdout, strings.NewReader(in), transcode.Options{Indent: "  "})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Profile, res.Records, "rows")
	// Output:
	// {
	//   "store": "north-1",
	//   "orders": [
	//     {
	//       "id": 1,
	//       "total": 9.5
	//     },
	//     {
	//       "id": 2,
	//       "total": null
	//     }
	//   ]
	// }
	// generic 2 rows
}

func ExampleToNDJSON() {
	in := "GCF profile=generic\nstore=north-1\n" +
		"## orders [2]{id,total}\n1|9.5\n2|-\n" +
		"## warehouses [?:]{key,city}\nams|Amsterdam\n\"a.b\"|Berlin\n"
	res, err := transcode.ToNDJSON(os.Stdout, strings.NewReader(in), transcode.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Records, "lines,", res.Unconfirmed, "[?] section without a trailer")
	// Output:
	// {"path":"store","value":"north-1"}
	// {"table":"orders","row":{"id":1,"total":9.5}}
	// {"table":"orders","row":{"id":2,"total":null}}
	// {"table":"warehouses","key":"ams","row":{"city":"Amsterdam"}}
	// {"table":"warehouses","key":"a.b","row":{"city":"Berlin"}}
	// 5 lines, 1 [?] section without a trailer
}

// A payload written by `gcf encode -stream` (a root [?] table) prints
// plain records, one per line.
func ExampleToNDJSON_stream() {
	in := "GCF profile=generic\n## [?]{id,name}\n1|Ada\n2|Grace\n##! summary counts=2\n"
	if _, err := transcode.ToNDJSON(os.Stdout, strings.NewReader(in), transcode.Options{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"id":1,"name":"Ada"}
	// {"id":2,"name":"Grace"}
}

func ExampleToNDJSON_graph() {
	in := "GCF profile=graph tool=context_for_task symbols=2 edges=1\n" +
		"## targets\n@0 fn pkg.Auth 0.78 lsp_resolved\n## related\n@1 fn pkg.Server 0.54 lsp_resolved\n## edges [1]\n@0<@1 calls\n"
	if _, err := transcode.ToNDJSON(os.Stdout, strings.NewReader(in), transcode.Options{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"type":"header","tool":"context_for_task","tokensUsed":0,"tokenBudget":0,"packRoot":""}
	// {"type":"symbol","qualifiedName":"pkg.Auth","kind":"function","score":0.78,"provenance":"lsp_resolved","distance":0}
	// {"type":"symbol","qualifiedName":"pkg.Server","kind":"function","score":0.54,"provenance":"lsp_resolved","distance":1}
	// {"type":"edge","source":"pkg.Server","target":"pkg.Auth","edgeType":"calls","status":""}
}

func ExampleEncodeJSON() {
	in := `[{"id":1,"name":"Ada","team":"core","tags":["go","ml"]},
	        {"id":2,"name":"Bo","team":"core","tags":[]}]`
	if err := transcode.EncodeJSON(os.Stdout, []byte(in)); err != nil {
		fmt.Println(err)
	}
	// Output:
	// GCF profile=generic
	// ## [2]{id,name,team=core,tags}
	// @0 1|Ada|^
	// .tags [2]: go,ml
	// @1 2|Bo|^
	// .tags [0]
}
