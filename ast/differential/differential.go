// Package differential compares the two GCF parsers of this module: the
// hand-written pull decoder (package stream) and the spec-mirroring
// grammar (packages grammar and ast). Tests and fuzz targets use it.
package differential

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Pull runs the pull decoder over data to the end and returns its first
// error (nil when the payload is valid).
func Pull(data []byte, limits stream.Limits) *lexer.SyntaxError {
	d := stream.NewBytesDecoder(data, limits)
	for {
		_, err := d.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *lexer.SyntaxError
			if errors.As(err, &se) {
				return se
			}
			return &lexer.SyntaxError{Category: "untyped", Msg: err.Error()}
		}
	}
}

// Compare parses data with the pull decoder, the AST parser (ast.Parse)
// and the streaming checker (ast.Check), and reports how the last two
// disagree with the first, or nil. The contract: all accept, or all
// reject; and on reject, the first diagnostic of each is on the pull
// decoder's error line and one of its diagnostics on that line carries the
// pull decoder's category. (A line can hold several problems; the spec does
// not order them, and the pull decoder reports whichever it meets first.)
func Compare(data []byte, limits stream.Limits) error {
	pe := Pull(data, limits)
	_, errs := ast.Parse(data, limits)
	if err := agree("AST", pe, errs); err != nil {
		return err
	}
	return agree("Check", pe, ast.Check(bytes.NewReader(data), limits))
}

// agree compares one parser's diagnostics with the pull decoder's first error.
func agree(name string, pe *lexer.SyntaxError, errs ast.ErrorList) error {
	switch {
	case pe == nil && len(errs) == 0:
		return nil
	case pe == nil:
		return fmt.Errorf("pull decoder accepts, %s rejects:\n%s", name, list(errs))
	case len(errs) == 0:
		return fmt.Errorf("pull decoder rejects (%v), %s accepts", pe, name)
	}
	first := errs[0].Pos.Line
	if first != pe.Line {
		return fmt.Errorf("first error lines differ: pull %v; %s:\n%s", pe, name, list(errs))
	}
	for _, e := range errs {
		if e.Pos.Line == first && e.Category == pe.Category {
			return nil
		}
	}
	return fmt.Errorf("categories differ on line %d: pull %v; %s:\n%s", first, pe, name, list(errs))
}

func list(errs ast.ErrorList) string {
	var sb strings.Builder
	for i, e := range errs {
		if i == 8 {
			fmt.Fprintf(&sb, "  ... (%d more)\n", len(errs)-i)
			break
		}
		fmt.Fprintf(&sb, "  %v\n", e)
	}
	return sb.String()
}
