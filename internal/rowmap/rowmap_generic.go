//go:build purego || !go1.26 || go1.27

package rowmap

// Keys is the key set of a kind of record (a table's columns).
type Keys struct{ keys []string }

// NewKeys returns the key set of records whose members are keys, in that
// order. The keys must not be changed afterwards.
func NewKeys(keys []string) *Keys { return &Keys{keys: keys} }

// Len is the number of keys.
func (k *Keys) Len() int { return len(k.keys) }

// Slab makes maps; without the forged layout it holds nothing.
type Slab struct{}

// SetChunk does nothing without the forged layout.
func (s *Slab) SetChunk(n int) {}

// Map returns a new map holding keys k with the values vals, in order
// (len(vals) == k.Len()).
func (s *Slab) Map(k *Keys, vals []any) map[string]any {
	m := make(map[string]any, len(k.keys))
	for j, key := range k.keys {
		m[key] = vals[j]
	}
	return m
}

// forge reports whether maps are forged: never here.
const forge = false
