package gcf_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gcfkit/gcf"
)

// An MCP tool streams a code-graph result while it walks the graph: each
// symbol is written (and flushed to the client) the moment the breadth-first
// walk reaches it, edges follow, and Close writes the summary trailer.
// Nothing but the current symbol is held in memory by the encoder.
func Example_streamGraphResult() {
	calls := map[string][]string{ // the code base, as the tool sees it
		"api.Handle":   {"auth.Check", "db.Query"},
		"auth.Check":   {"auth.Token"},
		"db.Query":     {"db.Conn"},
		"auth.Token":   nil,
		"db.Conn":      nil,
		"unrelated.Fn": nil,
	}
	e := gcf.NewEncoder(os.Stdout) // an MCP transport's writer in real use
	if err := e.BeginGraph(gcf.GraphHeader{Tool: "context_for_task"}); err != nil {
		panic(err)
	}
	type step struct {
		name string
		dist int
	}
	queue, seen := []step{{"api.Handle", 0}}, map[string]bool{"api.Handle": true}
	var edges []gcf.Edge
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		score := 0.9 / float64(s.dist+1)
		if _, err := e.WriteSymbol(gcf.Symbol{QualifiedName: s.name, Kind: "function", Score: score, Provenance: "lsp", Distance: s.dist}); err != nil {
			panic(err)
		}
		e.Flush() // the client sees the symbol now
		for _, callee := range calls[s.name] {
			edges = append(edges, gcf.Edge{Source: s.name, Target: callee, EdgeType: "calls"})
			if !seen[callee] && s.dist < 2 {
				seen[callee] = true
				queue = append(queue, step{callee, s.dist + 1})
			}
		}
	}
	for _, ed := range edges {
		if err := e.WriteEdge(ed); err != nil {
			panic(err)
		}
	}
	if err := e.Close(); err != nil {
		panic(err)
	}
	// Output:
	// GCF profile=graph tool=context_for_task
	// ## targets
	// @0 fn api.Handle 0.90 lsp
	// ## related
	// @1 fn auth.Check 0.45 lsp
	// @2 fn db.Query 0.45 lsp
	// ## extended
	// @3 fn auth.Token 0.30 lsp
	// @4 fn db.Conn 0.30 lsp
	// ## edges [?]
	// @1<@0 calls
	// @2<@0 calls
	// @3<@1 calls
	// @4<@2 calls
	// ##! summary symbols=5 edges=4 counts=1,2,2,4
}

// user is a row of a database-like table.
type user struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
}

// cursor pages through a result set the way database drivers do.
type cursor struct {
	rows []user
	page int
}

func (c *cursor) NextPage() []user {
	if len(c.rows) == 0 {
		return nil
	}
	n := min(c.page, len(c.rows))
	p := c.rows[:n]
	c.rows = c.rows[n:]
	return p
}

// Paging a cursor into a streaming `[?]` table: the row count is unknown
// until the cursor is exhausted, so the section is deferred and the
// `##! summary` trailer carries the count. Each page is flushed as it is
// written; memory stays at one page.
func Example_cursorToTable() {
	c := &cursor{page: 2, rows: []user{
		{1, "Alice", "alice@example.com"}, {2, "Bob", ""}, {3, "Carol", "carol@example.com"},
	}}
	e := gcf.NewEncoder(os.Stdout)
	if err := e.WriteField("query", "active users"); err != nil {
		panic(err)
	}
	if err := e.BeginTable("users", "id", "name", "email"); err != nil {
		panic(err)
	}
	for page := c.NextPage(); page != nil; page = c.NextPage() {
		for _, u := range page {
			if err := e.WriteRecord(u); err != nil { // struct fields by json tag; an omitted email is ~
				panic(err)
			}
		}
		if err := e.Flush(); err != nil {
			panic(err)
		}
	}
	if err := e.Close(); err != nil {
		panic(err)
	}
	// Output:
	// GCF profile=generic
	// query=active users
	// ## users [?]{id,name,email}
	// 1|Alice|alice@example.com
	// 2|Bob|~
	// 3|Carol|carol@example.com
	// ##! summary counts=3
}

// Reading a huge table row by row: Next finds the section, then More and
// Decode fill one struct per row. Rows of flat tables decode straight into
// the struct; the decoder never holds more than one line.
func ExampleDecoder_Decode() {
	payload := "GCF profile=generic\nquery=active users\n## users [?]{id,name,email}\n" +
		"1|Alice|alice@example.com\n2|Bob|~\n3|Carol|carol@example.com\n##! summary counts=3\n"
	d := gcf.NewDecoder(strings.NewReader(payload)) // a file or network stream in real use
	for {
		ev, err := d.Next()
		if err != nil {
			panic(err)
		}
		if ev.Kind == gcf.KindArrayStart && string(ev.Key) == "users" {
			break
		}
	}
	for d.More() {
		var u user
		if err := d.Decode(&u); err != nil {
			panic(err)
		}
		fmt.Printf("%d %s %q\n", u.ID, u.Name, u.Email)
	}
	// Output:
	// 1 Alice "alice@example.com"
	// 2 Bob ""
	// 3 Carol "carol@example.com"
}

// Skip passes over a section without building anything; the skipped lines
// are still validated.
func ExampleDecoder_Skip() {
	payload := "GCF profile=generic\n## big [3]{a}\n1\n2\n3\n## small\n  x=1\n"
	d := gcf.NewDecoder(bytes.NewReader([]byte(payload)))
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		if ev.Kind == gcf.KindArrayStart || ev.Kind == gcf.KindObjectStart {
			fmt.Printf("%s %q at line %d\n", ev.Kind, ev.Key, ev.Line)
			if string(ev.Key) == "big" {
				if err := d.Skip(); err != nil {
					panic(err)
				}
			}
		}
	}
	// Output:
	// object start "" at line 2
	// array start "big" at line 2
	// object start "small" at line 6
}
