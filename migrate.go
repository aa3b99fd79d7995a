package gcf

import (
	"bufio"
	"io"

	"github.com/gcfkit/gcf/legacy"
	"github.com/gcfkit/gcf/lexer"
)

// Migrate reads a GCF v1.x payload from r (SPEC-v1.1 as amended by
// SPEC-v1.4) and writes the equivalent v3.5.3 payload to w: decoding the
// output with the v3 decoder gives the value that decoding the input with
// WithWire(WireV1) gives.
//
// A graph payload (first line `GCF ...`), a session payload or a delta is
// translated line by line as the v1 decoder validates it, in memory bounded
// by the longest line (plus the symbol ids the decoder keeps for edge
// checks). Its header gains `profile=graph` and keeps its fields (budget=0,
// tokens=0 and edges=0 are dropped, as a canonical v3 header omits them);
// scores are written with the two decimals v3 requires; a `## _summary`
// trailer becomes `##! summary`, and an edges section or a header whose
// counts v1 left out is written in the v3 streaming form (`## edges [?]`
// and a `##! summary` trailer). A delta `## added` line gains the distance
// v3 requires, 0, the distance the v1 decoder reports for it.
//
// A generic (headerless) payload is decoded whole and re-encoded with
// EncodeGeneric, so its memory grows with the payload: bound it with
// WithMaxBytes.
//
// What v1 carries that v3 cannot express is an error, never dropped: a
// score with more than two significant decimals (invalid_score), a kind
// that is not a v3 bare key (invalid_node_line). Every error is a
// *SyntaxError with the input's line and column; on error w may hold a
// partial payload (the CLI writes to a temporary file and renames it only
// on success). opts are the decoder's limits.
func Migrate(r io.Reader, w io.Writer, opts ...Option) error {
	cfg := newConfig(opts)
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(5)
	if !legacy.IsGraphHead(head) {
		return migrateGeneric(br, w, cfg.Limits.MaxBytes, opts)
	}
	return legacy.MigrateGraph(br, w, cfg.Limits)
}

// migrateGeneric moves a headerless v1 generic payload to v3 through the
// value model.
func migrateGeneric(r io.Reader, w io.Writer, maxBytes int64, opts []Option) error {
	src := r
	if maxBytes > 0 {
		src = io.LimitReader(r, maxBytes+1)
	}
	data, err := io.ReadAll(src)
	if err != nil {
		return &SyntaxError{Category: lexer.ReadFailure, Msg: "reading the v1 payload: " + err.Error(), Err: err}
	}
	v1 := append(append([]Option(nil), opts...), WithWire(WireV1))
	v, err := DecodeGeneric(data, v1...)
	if err != nil {
		return err
	}
	v3 := append(append([]Option(nil), opts...), WithWire(WireV3))
	out, err := EncodeGeneric(v, v3...)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
