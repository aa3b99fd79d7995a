package stream

import "testing"

// Resolved fills every zero or negative bound with its default and keeps
// the rest, MaxBytes and RequireSummary included.
func TestLimitsResolved(t *testing.T) {
	got := Limits{MaxDepth: -1, MaxElements: 7, MaxFields: -4096, MaxBytes: 9, RequireSummary: true}.Resolved()
	want := Limits{MaxDepth: DefaultMaxDepth, MaxLineBytes: DefaultMaxLineBytes, MaxElements: 7,
		MaxFields: DefaultMaxFields, MaxBytes: 9, RequireSummary: true}
	if got != want {
		t.Fatalf("Resolved = %+v, want %+v", got, want)
	}
	if again := got.Resolved(); again != got {
		t.Fatalf("Resolved is not idempotent: %+v, then %+v", got, again)
	}
	if got := (Limits{}).Resolved(); got.MaxBytes != 0 || got.MaxDepth != DefaultMaxDepth {
		t.Fatalf("zero Limits resolve to %+v", got)
	}
}
