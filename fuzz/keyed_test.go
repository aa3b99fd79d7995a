package fuzz

import (
	"testing"

	"github.com/gcfkit/gcf/ast/differential"
	"github.com/gcfkit/gcf/stream"
)

// keyedCases are delta-participating payloads and generic deltas (SPEC
// §10a), valid and malformed: the category and line the pull decoder must
// report ("" for valid), on which the AST parser and ast.Check must agree.
var keyedCases = []struct {
	name, in string
	cat      string
	line     int
}{
	{"full", "GCF profile=generic pack_root=sha256:a key=id\n## orders [2]{@id,total}\n1|2.5\n2|3\n", "", 0},
	{"full root array", "GCF profile=generic key=sku\n## [2]{name,@sku}\nA|\"1001\"\nB|1001\n", "", 0},
	{"full empty", "GCF profile=generic key=id\n## orders [0]{@id,total}\n", "", 0},
	{"quoted key field", "GCF profile=generic key=a-b\n## t [1]{@\"a-b\",x}\nk|1\n", "", 0},
	{"delta", "GCF profile=generic delta=true base_root=sha256:a new_root=sha256:b key=id\n## added [1]{@id,total}\n4|75\n## changed [1]{total,@id}\n1|2\n## removed [1]{@id}\n1\n", "", 0},
	{"empty delta", "GCF profile=generic delta=true base_root=sha256:a new_root=sha256:a key=id\n", "", 0},
	{"unchanged", "GCF profile=generic unchanged=true pack_root=sha256:a count=3\n", "", 0},
	{"keyed map", "GCF profile=generic pack_root=sha256:a key=key\n## [2:]{@key,x}\nk1|1\nk2|2\n", "", 0},
	{"keyed map repeated key", "GCF profile=generic key=key\n## [2:]{@key,x}\nk1|1\nk1|2\n", "duplicate_key", 4},
	{"@ without key=", "GCF profile=generic\n## t [1]{@id,x}\n1|2\n", "invalid_line", 2},
	{"no @ under key=", "GCF profile=generic key=id\n## t [1]{id,x}\n1|2\n", "malformed_delta", 2},
	{"@ on another field", "GCF profile=generic key=id\n## t [1]{id,@x}\n1|2\n", "malformed_delta", 2},
	{"key= names no field", "GCF profile=generic key=nope\n## t [1]{@id,x}\n1|2\n", "malformed_delta", 2},
	{"two @", "GCF profile=generic key=id\n## t [1]{@id,@x}\n1|2\n", "malformed_delta", 2},
	{"@ in nested table", "GCF profile=generic key=id\n## t [1]{@id,x}\n1|2\n## u\n  ## v [1]{@id}\n  1\n", "invalid_line", 5},
	{"duplicate identity", "GCF profile=generic key=id\n## t [3]{@id,x}\n1|2\n2|2\n1.0|3\n", "duplicate_key", 5},
	{"string and number identities differ", "GCF profile=generic key=id\n## t [2]{@id,x}\n\"1\"|2\n1|2\n", "", 0},
	{"null identity", "GCF profile=generic key=id\n## t [1]{@id,x}\n-|2\n", "malformed_delta", 3},
	{"missing cell", "GCF profile=generic key=id\n## t [1]{@id,x}\n1|~\n", "malformed_delta", 3},
	{"attachment cell", "GCF profile=generic key=id\n## t [1]{@id,x}\n@0 1|^\n.x {}\n", "malformed_delta", 3},
	{"row width", "GCF profile=generic key=id\n## t [1]{@id,x}\n1\n", "row_width_mismatch", 3},
	{"delta without base_root", "GCF profile=generic delta=true new_root=sha256:b key=id\n", "malformed_delta", 1},
	{"delta without key", "GCF profile=generic delta=true base_root=sha256:a new_root=sha256:b\n", "malformed_delta", 1},
	{"unknown section", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## modified [1]{@id}\n1\n", "malformed_delta", 2},
	{"kv in delta", "GCF profile=generic delta=true base_root=a new_root=b key=id\nx=1\n", "malformed_delta", 2},
	{"root array delta", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## [1]{@id}\n1\n", "malformed_delta", 2},
	{"section without table", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## added\n  x=1\n", "malformed_delta", 2},
	{"expanded section", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## added [1]\n@0 =1\n", "malformed_delta", 2},
	{"keyed-map section", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## added [1:]{@id,x}\nk|1\n", "malformed_delta", 2},
	{"removed with fields", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## removed [1]{@id,x}\n1|2\n", "malformed_delta", 2},
	{"schemas differ", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## added [1]{@id,x}\n1|2\n## changed [1]{@id,y}\n2|2\n", "malformed_delta", 4},
	{"changes the identity column", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## changed [1]{id,@x}\n1|2\n", "malformed_delta", 2},
	{"identity repeated across sections", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## added [1]{@id,x}\n1|2\n## removed [1]{@id}\n1\n", "duplicate_key", 5},
	{"identity repeated in a section", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## changed [2]{@id,x}\n1|2\n1|3\n", "duplicate_key", 4},
	{"duplicate section", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## removed [1]{@id}\n1\n## removed [1]{@id}\n2\n", "duplicate_key", 4},
	{"surplus row", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## added [1]{@id,t}\n4|75\n5|80\n", "count_mismatch", 4},
	{"short section", "GCF profile=generic delta=true base_root=a new_root=b key=id\n## added [2]{@id,t}\n4|75\n", "count_mismatch", 3},
}

func TestKeyedDifferential(t *testing.T) {
	for _, c := range keyedCases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.in)
			pe := differential.Pull(data, stream.Limits{})
			switch {
			case c.cat == "" && pe != nil:
				t.Fatalf("pull decoder rejects: %v", pe)
			case c.cat != "" && pe == nil:
				t.Fatalf("pull decoder accepts; want %s on line %d", c.cat, c.line)
			case c.cat != "" && (string(pe.Category) != c.cat || pe.Line != c.line):
				t.Fatalf("pull decoder: %v; want %s on line %d", pe, c.cat, c.line)
			}
			if err := differential.Compare(data, stream.Limits{}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
