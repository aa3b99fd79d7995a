// Package bench holds benchmarks comparing GCF's generic encoder and decoder
// with encoding/json on deterministic data sets (see docs/benchmarks.md).
package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
)

// Seeds of the generators; fixed so every run measures the same bytes.
const (
	employeesSeed = 1
	ordersSeed    = 2
)

// Employee is one flat record of the Employees data set.
type Employee struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	Department string `json:"department"`
	Salary     int    `json:"salary"`
	Active     bool   `json:"active"`
}

// Employees is the root of the Employees data set.
type Employees struct {
	Employees []Employee `json:"employees"`
}

// Customer is the nested customer object of an Order.
type Customer struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Tier  string `json:"tier"`
}

// Item is one line item of an Order.
type Item struct {
	SKU   string  `json:"sku"`
	Name  string  `json:"name"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

// Order is one record of the Orders data set.
type Order struct {
	ID       string   `json:"id"`
	Customer Customer `json:"customer"`
	Items    []Item   `json:"items"`
	Total    float64  `json:"total"`
	Status   string   `json:"status"`
}

// Orders is the root of the Orders data set.
type Orders struct {
	Orders []Order `json:"orders"`
}

var (
	firstNames  = []string{"Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter", "Zoe"}
	lastNames   = []string{"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "Lopez", "Wilson", "Anderson", "Taylor", "Thomas", "Moore"}
	departments = []string{"Engineering", "Sales", "Marketing", "Finance", "Human Resources", "Operations", "Legal", "Support"}
	tiers       = []string{"bronze", "silver", "gold", "platinum"}
	statuses    = []string{"pending", "paid", "shipped", "delivered", "cancelled"}
	products    = []string{"Widget", "Gadget", "Sprocket", "Gizmo", "Doohickey", "Thingamajig", "Whatsit", "Cog", "Lever", "Bracket", "Flange", "Gasket"}
	adjectives  = []string{"Small", "Large", "Blue", "Red", "Steel", "Brass", "Deluxe", "Basic"}
)

func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// round2 rounds x to two decimals, as a price or total would be.
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// GenEmployees returns n deterministic employee records.
func GenEmployees(n int) Employees {
	r := rand.New(rand.NewPCG(employeesSeed, 0))
	out := make([]Employee, n)
	for i := range out {
		out[i] = Employee{
			ID:         i + 1,
			Name:       pick(r, firstNames) + " " + pick(r, lastNames),
			Department: pick(r, departments),
			Salary:     40000 + r.IntN(160000),
			Active:     r.IntN(10) < 8,
		}
	}
	return Employees{Employees: out}
}

// GenOrders returns n deterministic orders, each with 1 to 5 items.
func GenOrders(n int) Orders {
	r := rand.New(rand.NewPCG(ordersSeed, 0))
	out := make([]Order, n)
	for i := range out {
		first, last := pick(r, firstNames), pick(r, lastNames)
		items := make([]Item, 1+r.IntN(5))
		total := 0.0
		for j := range items {
			it := Item{
				SKU:   fmt.Sprintf("SKU-%05d", r.IntN(100000)),
				Name:  pick(r, adjectives) + " " + pick(r, products),
				Qty:   1 + r.IntN(10),
				Price: float64(100+r.IntN(50000)) / 100,
			}
			total += float64(it.Qty) * it.Price
			items[j] = it
		}
		out[i] = Order{
			ID: fmt.Sprintf("ORD-%05d", i+1),
			Customer: Customer{
				Name:  first + " " + last,
				Email: fmt.Sprintf("%s.%s%d@example.com", lower(first), lower(last), r.IntN(1000)),
				Tier:  pick(r, tiers),
			},
			Items:  items,
			Total:  round2(total),
			Status: pick(r, statuses),
		}
	}
	return Orders{Orders: out}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// MarshalJSON returns v as minified JSON without HTML escaping (the
// baseline every comparison uses; json.Marshal would write <, > and & as
// \u003c, \u003e and \u0026), panicking on error (the generators only
// produce marshalable values).
func MarshalJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
