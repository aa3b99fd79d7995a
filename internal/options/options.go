// Package options resolves the options of every gcf encoder and decoder
// into one Config, once per call: the one place option values are applied
// and the limits' zero fields replaced by their defaults.
//
// The public option constructors (gcf.WithMaxDepth, gcf.WithWire, ...) and
// their documentation live in package gcf, which names Option as an alias;
// this package is below every package that takes options (the root, graph,
// v1), so that each of them resolves the same Config.
package options

import "github.com/gcfkit/gcf/stream"

// Option configures a decoder or encoder (gcf.Option is an alias).
type Option func(*Config)

// Size is gcf.Size: the layout EncodeGeneric writes (Canonical, Smallest).
type Size int

// Spec is gcf.Spec: the version of the GCF specification an encoder writes.
type Spec string

// GroupBy is the value-grouping gcf.GroupBy asks for (spec v3.6.0 §7.4.8):
// Key the identity column, Column the column whose values group the
// records; the zero value asks for none.
type GroupBy struct {
	Key, Column string
	On          bool // GroupBy was given (Key and Column may be "")
}

// Config is the resolved set of options of one call.
type Config struct {
	Limits stream.Limits    // every limit, defaults filled in
	Size   Size             // layout of EncodeGeneric
	Cost   func(string) int // cost model of the Smallest size (nil: EstimateTokens)
	Wire   stream.Wire      // text wire version (v3 or legacy v1)
	Spec   Spec             // spec version the encoders write
	Group  GroupBy          // value-grouping of EncodeGeneric
	Form   uint8            // what Unmarshal stores in interfaces (the root's anyForm bits)
}

// DefaultLimits are the limits in effect when no option sets one.
var DefaultLimits = stream.Limits{}.Resolved()

// Resolve applies opts, in order, to a zero Config and fills in the
// limits' defaults (Limits.Resolved); nil options are skipped.
func Resolve(opts []Option) Config {
	if len(opts) == 0 {
		return Config{Limits: DefaultLimits} // no options: c below would escape to the heap (o(&c))
	}
	var c Config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	c.Limits = c.Limits.Resolved()
	return c
}
