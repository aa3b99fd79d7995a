package stream

// Limits bound the resources a decoder spends on untrusted input (SPEC §12).
// Exceeding one is an error with its own category; nothing is truncated.
// A zero field means the default.
type Limits struct {
	// MaxDepth is the deepest container nesting accepted (default 256; spec minimum 32).
	MaxDepth int
	// MaxLineBytes is the longest line accepted, in bytes (default 1 MiB; spec minimum 65,536).
	MaxLineBytes int
	// MaxElements is the most items, rows or members one container may hold
	// (default 16,777,216; spec minimum 10,000). Declared counts above it are
	// rejected before any row is read.
	MaxElements int
	// MaxFields is the most fields one field declaration may hold (default 4,096; spec minimum 1,000).
	MaxFields int
	// MaxBytes caps the whole payload in bytes; 0 means no limit.
	MaxBytes int64
	// RequireSummary makes a payload with `[?]` sections but no `##!
	// summary` trailer an error (unexpected_eof), so that a stream cut off
	// before its trailer is caught. By default such a payload is accepted,
	// as SPEC §8.6 requires, and the KindEnd event's Count says how many
	// deferred counts went unconfirmed.
	RequireSummary bool
}

// Default limits.
const (
	DefaultMaxDepth     = 256
	DefaultMaxLineBytes = 1 << 20
	DefaultMaxElements  = 1 << 24
	DefaultMaxFields    = 4096
)

// Resolved returns l with every zero (or negative) bound replaced by its
// default: the one place the defaults are filled in, for decoders,
// encoders, validators and the CLI alike. MaxBytes and RequireSummary are
// kept as they are (0 means no size cap).
func (l Limits) Resolved() Limits {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = DefaultMaxLineBytes
	}
	if l.MaxElements <= 0 {
		l.MaxElements = DefaultMaxElements
	}
	if l.MaxFields <= 0 {
		l.MaxFields = DefaultMaxFields
	}
	return l
}
