//go:build !purego

package box

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Purego reports whether the package was built with the purego tag: no
// unsafe code here, and none in the callers that ask.
const Purego = false

// eface is the runtime's layout of an empty interface.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// Slab boxes values of type T, chunk by chunk. T must be a type whose
// interface form holds a pointer to the value (a string, number or slice),
// not the value itself; Box panics for pointer-shaped types such as
// pointers and maps. The zero value is ready for use. A Slab is not safe for
// concurrent use.
type Slab[T any] struct {
	typ unsafe.Pointer
	buf []T
	n   int // values per chunk; 0: chunk
}

// SetChunk makes the chunks the slab allocates from now on hold n values
// (the default for n <= 0), for a caller that knows it boxes few.
func (s *Slab[T]) SetChunk(n int) { s.n = n }

// Box returns v as an interface whose data is a copy of v in the slab. The
// copy is never written again.
func (s *Slab[T]) Box(v T) any {
	if len(s.buf) == cap(s.buf) {
		s.refill()
	}
	s.buf = append(s.buf, v)
	e := eface{typ: s.typ, data: unsafe.Pointer(&s.buf[len(s.buf)-1])}
	return *(*any)(unsafe.Pointer(&e))
}

func (s *Slab[T]) refill() {
	if s.typ == nil {
		t := reflect.TypeFor[T]()
		switch t.Kind() {
		case reflect.String, reflect.Float64, reflect.Float32, reflect.Int64, reflect.Int32, reflect.Uint64,
			reflect.Uint32, reflect.Int, reflect.Uint, reflect.Slice, reflect.Complex128:
		default:
			panic(fmt.Sprintf("box: %v is not a boxable kind", t))
		}
		var zero T
		v := any(zero)
		s.typ = (*eface)(unsafe.Pointer(&v)).typ
	}
	n := chunk
	if s.n > 0 {
		n = s.n
	}
	s.buf = make([]T, 0, n)
}

// Reset makes the slab box into its current chunk again from the start.
// Only a caller that knows no value boxed since that chunk was allocated is
// still in use may call it: those values would be overwritten.
func (s *Slab[T]) Reset() { s.buf = s.buf[:0] }
