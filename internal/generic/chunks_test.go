package generic

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/gcfkit/gcf/internal/box"
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
	if got := cap(b.slab); got > minChunk {
		t.Errorf("member slab chunk holds %d members, want at most %d for %d bytes", got, minChunk, len(data))
	}
	if got := cap(b.anySlab); got > minChunk {
		t.Errorf("[]any slab chunk holds %d, want at most %d", got, minChunk)
	}
	if got := cap(b.arena); got > 4*minChunk {
		t.Errorf("arena chunk has %d bytes, want at most %d", got, 4*minChunk)
	}
	for _, p := range b.plans {
		for j, im := range p.intern {
			if len(im.slots) > minChunk/4 {
				t.Errorf("column %d intern table has %d slots, want at most %d", j, len(im.slots), minChunk/4)
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

// Large inputs and the streaming Decoder keep the sizes they had: 4,096
// items per chunk, 16 KiB arena chunks, 1,024 intern slots.
func TestChunkSizes(t *testing.T) {
	for _, c := range []struct {
		budget, chunk, n, items int
		internBits              uint8
	}{
		{0, 0, 1, minChunk, 4},
		{1, 0, 1, minChunk, 4},
		{513, 0, 5, minChunk, 4},
		{1024, 0, 5, 128, 5},
		{4000, 0, 5, 500, 6},
		{4000, 0, 600, 600, 6},
		{4096, maxChunk, 5, 4096, 10}, // the streaming Decoder
		{1 << 15, 0, 5, 4096, 10},
		{1 << 20, 0, 5, 4096, 10},
		{1 << 20, 0, 5000, 5000, 10},
	} {
		b := &builder{budget: c.budget, chunk: c.chunk}
		if got := b.chunkLen(c.n); got != c.items {
			t.Errorf("budget %d: chunkLen(%d) = %d, want %d", c.budget, c.n, got, c.items)
		}
		if got, want := b.arenaLen(c.n), max(4*b.chunkItems(), c.n); got != want {
			t.Errorf("budget %d: arenaLen(%d) = %d, want %d", c.budget, c.n, got, want)
		}
		if got := internBitsFor(b.chunkItems()); got != c.internBits {
			t.Errorf("budget %d: internBitsFor(%d) = %d, want %d", c.budget, b.chunkItems(), got, c.internBits)
		}
	}
	if got := (&builder{budget: 4096, chunk: maxChunk}).arenaLen(1); got != 16<<10 {
		t.Errorf("streaming Decoder's arena chunk = %d, want 16 KiB", got)
	}
	if got := internBitsFor(15); got != 0 {
		t.Errorf("internBitsFor(15) = %d, want 0 (no interning)", got)
	}
}

// A small decode allocates a few times its input, not the value slabs'
// 256-value chunks (4-6 KiB each) and the builder's large-input chunks.
// The bound leaves room for the stream decoder's own buffers.
func TestSmallDecodeBytes(t *testing.T) {
	if box.Purego {
		t.Skip("with -tags purego every value is its own allocation (no slabs)")
	}
	var sb strings.Builder
	sb.WriteString("GCF profile=generic\n## [12]{dept,id,name,score}\n")
	for i := range 12 {
		fmt.Fprintf(&sb, "%s|%d|n%d|%d.5\n", []string{"a", "b"}[i%2], 1000+i, i, i)
	}
	data := []byte(sb.String())
	var before, after runtime.MemStats
	const runs = 20
	runtime.ReadMemStats(&before)
	for range runs {
		if _, err := DecodeGeneric(data); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / runs
	t.Logf("%d bytes per DecodeGeneric of %d bytes", per, len(data))
	if limit := uint64(48 << 10); per > limit {
		t.Errorf("DecodeGeneric of %d bytes allocates %d bytes, want at most %d", len(data), per, limit)
	}
}
