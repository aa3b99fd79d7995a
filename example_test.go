package gcf_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gcfkit/gcf"
)

func ExampleEncodeGeneric() {
	type employee struct {
		ID     int    `json:"id"`
		Name   string `json:"name"`
		Dept   string `json:"department"`
		Active bool   `json:"active"`
	}
	out, err := gcf.EncodeGeneric(map[string]any{
		"employees": []employee{
			{1, "Alice Smith", "Engineering", true},
			{2, "Bob Jones", "Sales", false},
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// GCF profile=generic
	// ## employees [2]{id,name,department,active}
	// 1|Alice Smith|Engineering|true
	// 2|Bob Jones|Sales|false
}

func ExampleDecodeGeneric() {
	v, err := gcf.DecodeGeneric([]byte("GCF profile=generic\n## rows [2]{id,note}\n1|-\n2|~\n"))
	if err != nil {
		panic(err)
	}
	js, _ := gcf.ToJSON(v)
	fmt.Println(string(js))
	// Output:
	// {"rows":[{"id":1,"note":null},{"id":2}]}
}

func ExampleDecodeGeneric_error() {
	_, err := gcf.DecodeGeneric([]byte("GCF profile=generic\n## rows [3]{id}\n1\n2\n"))
	fmt.Println(errors.Is(err, gcf.CountMismatch))
	var se *gcf.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Line, se.Column, se.Category)
	}
	// Output:
	// true
	// 4 1 count_mismatch
}

// Reading a table row by row: the decoder holds one line at a time.
func ExampleNewDecoder() {
	in := strings.NewReader("GCF profile=generic\n## employees [?]{id,name,salary}\n1|Alice|95000\n2|Bob|72000\n##! summary counts=2\n")
	d := gcf.NewDecoder(in)
	var total int64
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		if ev.Kind == gcf.KindRow {
			total += ev.Cells[2].Int
		}
	}
	fmt.Println("total salary:", total)
	// Output:
	// total salary: 167000
}

// Streaming a table whose size is not known up front (SPEC §8).
func ExampleNewEncoder() {
	e := gcf.NewEncoder(os.Stdout)
	e.WriteField("source", "cursor")
	e.BeginTable("users", "id", "name", "email")
	e.WriteRow(1, "Alice", "alice@example.com")
	e.WriteRecord(map[string]any{"id": 2, "name": "Bob"}) // email absent: ~
	if err := e.Close(); err != nil {
		panic(err)
	}
	// Output:
	// GCF profile=generic
	// source=cursor
	// ## users [?]{id,name,email}
	// 1|Alice|alice@example.com
	// 2|Bob|~
	// ##! summary counts=2
}

func ExampleEncode() {
	p := &gcf.Payload{
		Tool: "context_for_task",
		Symbols: []gcf.Symbol{
			{QualifiedName: "pkg.Server", Kind: "function", Score: 0.54, Provenance: "lsp_resolved", Distance: 1},
			{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.78, Provenance: "lsp_resolved", Distance: 0},
		},
		Edges: []gcf.Edge{{Source: "pkg.Server", Target: "pkg.Auth", EdgeType: "calls"}},
	}
	out, err := gcf.Encode(p)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// GCF profile=graph tool=context_for_task symbols=2 edges=1
	// ## targets
	// @0 fn pkg.Auth 0.78 lsp_resolved
	// ## related
	// @1 fn pkg.Server 0.54 lsp_resolved
	// ## edges [1]
	// @0<@1 calls
}

// A session sends each symbol once; later payloads refer to it by id.
func ExampleEncodeWithSession() {
	s := gcf.NewSession()
	auth := gcf.Symbol{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.9, Provenance: "lsp"}
	first, _ := gcf.EncodeWithSession(&gcf.Payload{Symbols: []gcf.Symbol{auth}}, s)
	handler := gcf.Symbol{QualifiedName: "pkg.Handler", Kind: "method", Score: 0.6, Provenance: "ast"}
	second, _ := gcf.EncodeWithSession(&gcf.Payload{Symbols: []gcf.Symbol{auth, handler}}, s)
	fmt.Print(string(first), string(second))
	// Output:
	// GCF profile=graph symbols=1 session=true
	// ## targets
	// @0 fn pkg.Auth 0.90 lsp
	// GCF profile=graph symbols=2 session=true
	// ## targets
	// @0  # previously transmitted
	// @1 method pkg.Handler 0.60 ast
}

// Streaming a graph result as it is discovered: symbols group by group,
// then edges; Close writes the summary trailer.
func ExampleEncoder_BeginGraph() {
	e := gcf.NewEncoder(os.Stdout)
	e.BeginGraph(gcf.GraphHeader{Tool: "context_for_task"})
	e.WriteSymbol(gcf.Symbol{QualifiedName: "pkg.Auth", Kind: "function", Score: 0.95, Provenance: "lsp", Distance: 0})
	e.WriteSymbol(gcf.Symbol{QualifiedName: "pkg.Config", Kind: "type", Score: 0.72, Provenance: "ast", Distance: 1})
	e.WriteEdge(gcf.Edge{Source: "pkg.Auth", Target: "pkg.Config", EdgeType: "references"})
	if err := e.Close(); err != nil {
		panic(err)
	}
	// Output:
	// GCF profile=graph tool=context_for_task
	// ## targets
	// @0 fn pkg.Auth 0.95 lsp
	// ## related
	// @1 type pkg.Config 0.72 ast
	// ## edges [?]
	// @1<@0 references
	// ##! summary symbols=2 edges=1 counts=1,1,1
}

// The three-outcome protocol: the consumer sends the root it holds, the
// producer answers unchanged, with a delta, or in full.
func ExampleRespond() {
	v1 := &gcf.Payload{Symbols: []gcf.Symbol{{QualifiedName: "pkg.A", Kind: "function", Score: 0.5, Provenance: "lsp"}}}
	answer, outcome, _ := gcf.Respond(v1, "", nil) // the consumer holds nothing yet
	held, _, _ := gcf.Receive(nil, answer)
	root, _ := gcf.PackRoot(held)
	fmt.Println(outcome)
	_, outcome, _ = gcf.Respond(v1, root, nil) // same result again
	fmt.Println(outcome)
	// Output:
	// full
	// unchanged
}
