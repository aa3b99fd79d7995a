package generic

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// smallBuilder decodes data as DecodeGeneric does and returns its builder,
// to look at the chunks the decode made.
func smallBuilder(t *testing.T, data []byte) *builder {
	t.Helper()
	cfg := newConfig(nil)
	b := &builder{d: cfg.bytesDecoder(data), budget: len(data)/2 + 1}
	if _, err := b.document(); err != nil {
		t.Fatal(err)
	}
	return b
}

// A payload of a few hundred bytes gets slab chunks, arena chunks and
// intern tables sized by what it can hold, not the 4,096-item chunks and
// 1,024-slot tables made for large inputs (which cost a small Unmarshal
// several times its decoding).
func TestChunksBoundedBySmallInput(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("GCF profile=generic\n## [12]{dept,id,name}\n")
	for i := range 12 {
		fmt.Fprintf(&sb, "%s|%d|n%d\n", []string{"a", "b"}[i%2], i, i)
	}
	data := []byte(sb.String())
	b := smallBuilder(t, data)
	if got, limit := cap(b.slab), max(b.budget, minChunk); got > limit {
		t.Errorf("member slab chunk holds %d members, want at most %d for %d bytes", got, limit, len(data))
	}
	if got, limit := cap(b.anySlab), max(b.budget, minChunk); got > limit {
		t.Errorf("[]any slab chunk holds %d, want at most %d", got, limit)
	}
	if got, limit := cap(b.arena), max(4*b.budget, 4*minChunk); got > limit {
		t.Errorf("arena chunk has %d bytes, want at most %d", got, limit)
	}
	for _, p := range b.plans {
		for j, im := range p.intern {
			if len(im.slots) > b.budget/4 {
				t.Errorf("column %d intern table has %d slots, want at most %d", j, len(im.slots), b.budget/4)
			}
		}
	}
	// The values are what the large-input sizes give.
	want := []any{}
	for i := range 12 {
		want = append(want, Object{{Key: "dept", Value: []string{"a", "b"}[i%2]}, {Key: "id", Value: int64(i)}, {Key: "name", Value: fmt.Sprintf("n%d", i)}})
	}
	got, err := DecodeGeneric(data)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeGeneric = %#v, %v; want %#v", got, err, want)
	}
}

// Large inputs (and the streaming Decoder, whose budget is 4,096) keep
// the sizes they had.
func TestChunkSizes(t *testing.T) {
	for _, c := range []struct {
		budget, n, members, arena int
		internBits                uint8
	}{
		{0, 1, minChunk, 4 * minChunk, 0},
		{1, 1, minChunk, 4 * minChunk, 0},
		{63, 3, minChunk, 4 * minChunk, 0},
		{64, 3, 64, 256, 4},
		{100, 3, 100, 400, 4},
		{513, 5, 513, 2052, 7},
		{4096, 5, 4096, arenaChunk, 10},
		{4096, 5000, 5000, arenaChunk, 10},
		{1 << 20, 5, 4096, arenaChunk, 10},
	} {
		b := &builder{budget: c.budget}
		if got := b.chunkLen(4096, c.n); got != c.members {
			t.Errorf("budget %d: chunkLen(4096, %d) = %d, want %d", c.budget, c.n, got, c.members)
		}
		if got := b.arenaLen(c.n); got != max(c.arena, c.n) {
			t.Errorf("budget %d: arenaLen(%d) = %d, want %d", c.budget, c.n, got, max(c.arena, c.n))
		}
		if got := internBitsFor(c.budget); got != c.internBits {
			t.Errorf("internBitsFor(%d) = %d, want %d", c.budget, got, c.internBits)
		}
	}
}
