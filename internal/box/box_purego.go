//go:build purego

package box

// Purego reports whether the package was built with the purego tag: no
// unsafe code here, and none in the callers that ask.
const Purego = true

// Slab boxes values of type T. With the purego tag it holds nothing: Box is
// an ordinary conversion to an interface.
type Slab[T any] struct{}

// Box returns v as an interface.
func (s *Slab[T]) Box(v T) any { return v }

// SetChunk does nothing with the purego tag.
func (s *Slab[T]) SetChunk(n int) {}

// Reset does nothing with the purego tag.
func (s *Slab[T]) Reset() {}
