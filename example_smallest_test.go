package gcf_test

import (
	"fmt"

	"github.com/gcfkit/gcf"
)

// Two service blocks with different fields: canonical GCF must write them
// as a keyed table (SPEC §7.2a), where each row pays a `~` for every field
// the other block has; the Smallest size writes sections instead.
func ExampleWithSize() {
	v, _ := gcf.ParseJSON([]byte(`{"payments":{"url":"https://pay.internal","timeout_ms":1000},"search":{"index":"products","replicas":3}}`))
	canon, _ := gcf.EncodeGeneric(v)
	small, _ := gcf.EncodeGeneric(v, gcf.WithSize(gcf.Smallest))
	fmt.Print(string(canon), "---\n", string(small))
	back, _ := gcf.DecodeGeneric(small)
	out, _ := gcf.ToJSON(back)
	fmt.Println(string(out))
	// Output:
	// GCF profile=generic
	// ## [2:]{key,url,timeout_ms,index,replicas}
	// payments|https://pay.internal|1000|~|~
	// search|~|~|products|3
	// ---
	// GCF profile=generic
	// ## payments
	//   url=https://pay.internal
	//   timeout_ms=1000
	// ## search
	//   index=products
	//   replicas=3
	// {"payments":{"url":"https://pay.internal","timeout_ms":1000},"search":{"index":"products","replicas":3}}
}

// EstimateTokens is the default cost model of the Smallest size; pass a
// real tokenizer's count with WithCost where the exact count matters.
func ExampleEstimateTokens() {
	fmt.Println(gcf.EstimateTokens("## [2]{id,name}\n1|Alice\n2|Bob\n"))
	// Output: 16
}
