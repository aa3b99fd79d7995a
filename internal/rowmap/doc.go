// Package rowmap builds the map[string]any records of a decoded table, a
// small map per row with the same keys in every row, cheaper than make and
// one assignment per key: each map and its one group of slots are carved
// from shared chunks, laid out as the Go 1.26 runtime lays out a small
// map (internal/runtime/maps: a Map header whose directory pointer is a
// single group of eight slots and their control word), with the keys, the
// hash seed and the control word copied from a template map the runtime
// built. The maps are ordinary maps from then on: lookups, assignments,
// deletions, growth, iteration, clear, reflect and encoding/json see no
// difference (TestForgedMaps). A map keeps its chunk (up to a few tens of
// kilobytes) alive while it is in use, as the decoder's other slabs do.
//
// The forged layout is used only with a Go 1.26 toolchain, without the
// purego tag, and when a check at start-up finds a runtime-built map laid
// out as expected (comparing words, never following them); otherwise Map
// makes the map and assigns its members.
package rowmap
