package graph

import "github.com/gcfkit/gcf/lexer"

// Graph-side error categories that have no lexer counterpart.
const (
	// RootMismatch reports a pack root that does not identify the snapshot
	// it is checked against: a delta's base_root differs from the root of
	// the base it is applied to, or its new_root differs from the root
	// recomputed after applying it (SPEC §10.4 steps 1 and 6).
	RootMismatch lexer.Category = "root_mismatch"
)
