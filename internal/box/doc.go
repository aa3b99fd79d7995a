// Package box stores values in interfaces without one heap allocation per
// value. Converting a string, float64, int64 or slice to an interface
// normally allocates a small copy of it; a Slab instead copies the value
// into a shared chunk and returns an interface that points at that copy.
//
// An interface made here is indistinguishable from one made by an ordinary
// conversion: type switches, assertions, reflect and equality behave the
// same. The cost is retention: a chunk stays alive while any value boxed in
// it does. The package relies on the Go runtime's two-word layout of an
// empty interface (type, pointer to data), which every Go release has used;
// TestLayout fails if that ever changes.
//
// Built with the purego tag, Box is an ordinary conversion: no unsafe code,
// one allocation per value, the same results.
package box

// chunk is how many values one slab allocation holds.
const chunk = 256
