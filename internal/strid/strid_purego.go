//go:build purego

package strid

// Enabled reports whether Of can give identities (false with purego).
const Enabled = false

// Of reports no identity with the purego tag.
func Of(s string) (id uint64, ok bool) { return 0, false }
