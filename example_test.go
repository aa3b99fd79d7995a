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
	// 5 1 count_mismatch
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
