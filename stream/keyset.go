package stream

// keySet detects duplicate keys in one object scope. Small scopes are
// scanned linearly in a reusable arena, so steady-state use does not
// allocate; scopes with many keys switch to a map.
type keySet struct {
	data []byte
	ends []int
	big  map[string]struct{}
}

const keySetLinear = 32

func (s *keySet) reset() {
	s.data = s.data[:0]
	s.ends = s.ends[:0]
	if s.big != nil {
		clear(s.big)
	}
}

// add records k and reports false if it was already present.
func (s *keySet) add(k []byte) bool {
	if len(s.ends) >= keySetLinear {
		if s.big == nil {
			s.big = make(map[string]struct{}, 2*keySetLinear)
		}
		if len(s.big) == 0 {
			start := 0
			for _, e := range s.ends {
				s.big[string(s.data[start:e])] = struct{}{}
				start = e
			}
		}
		if _, dup := s.big[string(k)]; dup {
			return false
		}
		s.big[string(k)] = struct{}{}
		s.ends = append(s.ends, 0) // count only
		return true
	}
	start := 0
	for _, e := range s.ends {
		if string(s.data[start:e]) == string(k) {
			return false
		}
		start = e
	}
	s.data = append(s.data, k...)
	s.ends = append(s.ends, len(s.data))
	return true
}
