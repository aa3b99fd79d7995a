package gcf_test

import (
	"fmt"

	"github.com/gcfkit/gcf"
)

// A tool returns the same orders again with one row changed, one added and
// one removed: the producer sends only those rows, and the consumer
// applies them atomically, both pack roots verified.
func ExampleDiffGeneric() {
	monday, _ := gcf.ParseJSON([]byte(`{"orders":[
		{"id":1001,"total":59.98,"status":"shipped","customer":"Alice"},
		{"id":1002,"total":29.99,"status":"pending","customer":"Bob"},
		{"id":1003,"total":129.50,"status":"shipped","customer":"Carol"}]}`))
	tuesday, _ := gcf.ParseJSON([]byte(`{"orders":[
		{"id":1002,"total":29.99,"status":"shipped","customer":"Bob"},
		{"id":1003,"total":129.50,"status":"shipped","customer":"Carol"},
		{"id":1004,"total":75.00,"status":"pending","customer":"Dave"}]}`))
	base, _ := gcf.NewTable(monday, "id")
	cur, _ := gcf.NewTable(tuesday, "id")

	d, err := gcf.DiffGeneric(base, cur)
	if err != nil {
		fmt.Println(err)
		return
	}
	wire, _ := gcf.EncodeGenericDelta(d)
	fmt.Print(string(wire))

	// The consumer holds monday's table.
	got, err := gcf.DecodeGenericDelta(wire)
	if err == nil {
		_, err = gcf.ApplyGenericDelta(base, got)
	}
	fmt.Println("applied:", err == nil)
	// Output:
	// GCF profile=generic delta=true base_root=sha256:457e7c31e62e070a039b5cde9ea3edff6330e5913874e1165afddbcf6798eb7c new_root=sha256:ebe554601676e61cd522a5dc13d78499fd20e730353eb3e0b18c7fdc088f0f05 key=id
	// ## added [1]{@id,total,status,customer}
	// 1004|75|pending|Dave
	// ## changed [1]{@id,total,status,customer}
	// 1002|29.99|shipped|Bob
	// ## removed [1]{@id}
	// 1001
	// applied: true
}

// A delta that does not apply leaves the held table as it was: here the
// consumer holds a table the delta was not made from.
func ExampleApplyGenericDelta_rootMismatch() {
	held := &gcf.Table{Key: "id", Fields: []string{"id", "v"}, Rows: [][]any{{int64(1), "a"}}}
	d := &gcf.GenericDelta{Key: "id", Fields: []string{"id", "v"}, BaseRoot: "sha256:0123", NewRoot: "sha256:4567",
		Removed: []any{int64(1)}}
	_, err := gcf.ApplyGenericDelta(held, d)
	fmt.Println(gcf.CategoryOf(err), len(held.Rows))
	// Output:
	// root_mismatch 1
}

// A DeltaSession answers each consumer with unchanged, a delta from what it
// last sent that consumer, or a full payload every N answers.
func ExampleDeltaSession() {
	s := gcf.NewDeltaSession(gcf.ReanchorPolicy{Every: 3, MaxFraction: -1}, 100)
	t := &gcf.Table{Tool: "orders_query", Name: "orders", Key: "id", Fields: []string{"id", "status"},
		Rows: [][]any{{int64(1), "pending"}, {int64(2), "pending"}}}
	held := ""
	for turn, status := range []string{"pending", "paid", "shipped", "shipped", "delivered"} {
		t = &gcf.Table{Tool: t.Tool, Name: t.Name, Key: t.Key, Fields: t.Fields,
			Rows: [][]any{{int64(1), status}, {int64(2), "pending"}}}
		_, outcome, err := s.Respond("consumer-1", held, t)
		if err != nil {
			fmt.Println(err)
			return
		}
		held, _ = gcf.GenericPackRoot(t) // what the consumer now holds, and echoes
		fmt.Println(turn, outcome)
	}
	// Output:
	// 0 full
	// 1 delta
	// 2 delta
	// 3 unchanged
	// 4 full
}
