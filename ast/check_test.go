package ast_test

import (
	"strings"
	"testing"

	"github.com/gcfkit/gcf/ast"
	"github.com/gcfkit/gcf/stream"
)

func TestCheckSmoke(t *testing.T) {
	for _, in := range []string{
		"GCF profile=generic\na=1\n## t [2]{x,y}\n1|2\n3|4\n",
		"GCF profile=generic\na=1\na=2\n",
		"GCF profile=graph symbols=1\n## symbols\n@0 fn pkg.a 0.90 lsp\n",
		"GCF profile=generic\n## t [3]{x,y}\n1|2\n3|4\n",
	} {
		errs := ast.Check(strings.NewReader(in), stream.Limits{})
		t.Logf("%q: %v", in, errs)
	}
}
