package encoder

import "math"

// IsToken reports whether s is 1*(%x21-7E): non-empty printable
// non-whitespace ASCII, the form of a header value such as a tool name or
// a pack root.
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		// The compiler merges these byte loads into one 8-byte load.
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte below 0x21 borrows into its high bit; one at or above 0x7F
		// has (or carries into) its high bit after adding 1.
		if ((x-0x21*lo)&^x|(x+lo)|x)&hi != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7E {
			return false
		}
	}
	return true
}

// Savings returns the value of a delta header's savings= field (SPEC
// §10.1): the percentage of the full payload's tokens, full, that a delta
// of deltaTokens saves, rounded; full must be positive.
func Savings(deltaTokens, full int) int64 {
	return int64(math.Round(100 * float64(full-deltaTokens) / float64(full)))
}
