package gcfmcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/gcfmcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Go value becomes a tool result whose text is GCF (generic profile);
// _meta["gcf"] holds the accounting.
func ExampleResult() {
	type order struct {
		ID     int     `json:"id"`
		Total  float64 `json:"total"`
		Status string  `json:"status"`
	}
	res, err := gcfmcp.Result(map[string]any{"orders": []order{{1001, 59.98, "shipped"}, {1002, 29.99, "pending"}}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Content[0].(*mcp.TextContent).Text)
	m := res.Meta[gcfmcp.MetaKey].(map[string]any)
	fmt.Println(m["profile"], m["bytes"], "bytes of GCF,", m["json_bytes"], "bytes of JSON")
	// Output:
	// GCF profile=generic
	// ## orders [2]{id,total,status}
	// 1001|59.98|shipped
	// 1002|29.99|pending
	// generic 89 bytes of GCF, 102 bytes of JSON
}

// A typed tool returns a *gcf.Payload; the second call of the same MCP
// session sends the symbols it already declared as bare references, and a
// call echoing the pack_root of a result that has not changed gets
// unchanged=true.
func ExampleAddTool() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "example"}, nil)
	type in struct {
		Symbol string `json:"symbol" jsonschema:"the symbol to look up"`
	}
	g := gcfmcp.New()
	gcfmcp.AddTool(g, server, &mcp.Tool{Name: "callers", Description: "who calls a symbol"},
		func(ctx context.Context, req *mcp.CallToolRequest, in in) (*gcf.Payload, error) {
			return &gcf.Payload{Tool: "callers", Symbols: []gcf.Symbol{
				{QualifiedName: in.Symbol, Kind: "function", Score: 1, Provenance: "types"},
				{QualifiedName: "app.Main", Kind: "function", Score: 0.5, Provenance: "types", Distance: 1},
			}, Edges: []gcf.Edge{{Source: "app.Main", Target: in.Symbol, EdgeType: "calls"}}}, nil
		})

	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	packRoot := ""
	for call := range 3 {
		args := map[string]any{"symbol": "app.Auth"}
		if packRoot != "" {
			args["pack_root"] = packRoot
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "callers", Arguments: args})
		if err != nil {
			log.Fatal(err)
		}
		text, err := gcfmcp.Text(res)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(text)
		if call == 1 { // the third call echoes the pack_root
			packRoot = res.Meta[gcfmcp.MetaKey].(map[string]any)["pack_root"].(string)
		}
	}
	// Output:
	// GCF profile=graph tool=callers symbols=2 edges=1 pack_root=sha256:5749186822e32f4916630b370bdecf9ae0149db69a328c7fbab029d3582ce1f9 session=true
	// ## targets
	// @0 fn app.Auth 1.00 types
	// ## related
	// @1 fn app.Main 0.50 types
	// ## edges [1]
	// @0<@1 calls
	// GCF profile=graph tool=callers symbols=2 edges=1 pack_root=sha256:5749186822e32f4916630b370bdecf9ae0149db69a328c7fbab029d3582ce1f9 session=true
	// ## targets
	// @0  # previously transmitted
	// ## related
	// @1  # previously transmitted
	// ## edges [1]
	// @0<@1 calls
	// GCF profile=graph tool=callers unchanged=true pack_root=sha256:5749186822e32f4916630b370bdecf9ae0149db69a328c7fbab029d3582ce1f9 symbols=2
}
