package main

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	maxRevisions   = 8                // extracted revisions kept on disk
	maxArchiveSize = 512 << 20        // bytes extracted from one revision
	gitTimeout     = 60 * time.Second // for one git command
)

// revisions extracts git revisions of the repository at root into
// temporary directories, at most maxRevisions at a time.
type revisions struct {
	root  string
	mu    sync.Mutex
	dirs  map[string]string // commit -> directory
	order []string
	tmp   string // parent of the extracted trees
}

func newRevisions(root string) *revisions {
	return &revisions{root: root, dirs: map[string]string{}}
}

// close removes every extracted tree.
func (r *revisions) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tmp != "" {
		os.RemoveAll(r.tmp)
	}
	r.dirs, r.order, r.tmp = map[string]string{}, nil, ""
}

// revPattern is what a revision argument may look like: no leading '-', no
// white space, no path traversal; git checks the rest.
var revPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./~^@{}-]*$`)

func (r *revisions) git(ctx context.Context, stdout io.Writer, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.root}, args...)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("git %s: %s", args[0], msg)
	}
	return nil
}

// dir returns a directory holding the module at root as of revision rev.
func (r *revisions) dir(ctx context.Context, rev string) (string, error) {
	if !revPattern.MatchString(rev) || strings.Contains(rev, "..") {
		return "", fmt.Errorf("%q is neither a directory inside the root nor a git revision name", clip(rev))
	}
	var out bytes.Buffer
	if err := r.git(ctx, &out, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}"); err != nil {
		return "", fmt.Errorf("%q is neither a directory inside the root nor a commit of its git repository", clip(rev))
	}
	commit := strings.TrimSpace(out.String())
	r.mu.Lock()
	defer r.mu.Unlock()
	if d, ok := r.dirs[commit]; ok {
		return d, nil
	}
	out.Reset()
	if err := r.git(ctx, &out, "rev-parse", "--show-prefix"); err != nil {
		return "", err
	}
	prefix := strings.TrimSpace(out.String())
	if r.tmp == "" {
		tmp, err := os.MkdirTemp("", "codegraph-rev-")
		if err != nil {
			return "", err
		}
		r.tmp = tmp
	}
	d := filepath.Join(r.tmp, commit)
	var archive bytes.Buffer
	if err := r.git(ctx, &archive, "archive", "--format=tar", commit+":"+prefix); err != nil {
		return "", err
	}
	if err := untar(&archive, d); err != nil {
		os.RemoveAll(d)
		return "", fmt.Errorf("extracting %s: %v", rev, err)
	}
	r.dirs[commit] = d
	r.order = append(r.order, commit)
	for len(r.order) > maxRevisions {
		os.RemoveAll(r.dirs[r.order[0]])
		delete(r.dirs, r.order[0])
		r.order = r.order[1:]
	}
	return d, nil
}

// untar writes the regular files and directories of a tar stream under dir,
// refusing names that would leave it.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("archive entry %q leaves the directory", h.Name)
		}
		path := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			total += h.Size
			if total > maxArchiveSize {
				return fmt.Errorf("the revision is larger than %d bytes", maxArchiveSize)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, io.LimitReader(tr, h.Size))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		}
	}
}

// inRoot resolves a directory argument against the root and reports whether
// it names an existing path inside it; an error means it names a path
// outside the root, or (with exists) a file that is not a directory.
func (t *tools) inRoot(arg string) (string, bool, error) {
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(t.root, p)
	}
	p = filepath.Clean(p)
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if within(t.root, p) {
			return "", false, nil // not a directory: maybe a revision
		}
		return "", false, fmt.Errorf("path %q is outside the root %s", clip(arg), t.root)
	}
	if !within(t.root, real) {
		return "", false, fmt.Errorf("path %q is outside the root %s", clip(arg), t.root)
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return "", true, fmt.Errorf("path %q is not a directory", clip(arg))
	}
	return real, true, nil
}

// within reports whether path is root or below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// side returns the directory one semantic_diff argument names.
func (t *tools) side(ctx context.Context, what, arg string) (string, error) {
	if arg == "" {
		return "", fmt.Errorf("%s is empty: give a git revision or a directory inside the root", what)
	}
	looksLikePath := filepath.IsAbs(arg) || strings.HasPrefix(arg, ".") || strings.Contains(arg, string(filepath.Separator)+"..")
	dir, exists, err := t.inRoot(arg)
	if err != nil && (exists || looksLikePath || !revPattern.MatchString(arg)) {
		return "", fmt.Errorf("%s: %v", what, err)
	}
	ok := exists && err == nil
	if ok {
		return dir, nil
	}
	if looksLikePath {
		return "", fmt.Errorf("%s: %q is not a directory inside the root", what, clip(arg))
	}
	d, err := t.revs.dir(ctx, arg)
	if err != nil {
		return "", fmt.Errorf("%s: %v", what, err)
	}
	return d, nil
}

func (t *tools) semanticDiff(ctx context.Context, req *mcp.CallToolRequest, in diffArgs) (*gcf.DeltaPayload, error) {
	baseDir, err := t.side(ctx, "base", in.Base)
	if err != nil {
		return nil, err
	}
	headDir, err := t.side(ctx, "head", in.Head)
	if err != nil {
		return nil, err
	}
	base, err := t.graphs.get(baseDir)
	if err != nil {
		return nil, fmt.Errorf("base: %v", err)
	}
	head, err := t.graphs.get(headDir)
	if err != nil {
		return nil, fmt.Errorf("head: %v", err)
	}
	bp, hp := base.snapshot("semantic_diff"), head.snapshot("semantic_diff")
	d, err := gcf.Diff(bp, hp)
	if err != nil {
		return nil, err
	}
	d.Tool = "semantic_diff"
	if d.BaseRoot, err = gcf.PackRoot(bp); err != nil {
		return nil, err
	}
	if d.NewRoot, err = gcf.PackRoot(hp); err != nil {
		return nil, err
	}
	return d, nil
}

// snapshot is the whole graph as a payload: every symbol at distance 0
// with score 1, every edge.
func (g *graph) snapshot(tool string) *gcf.Payload {
	p := &gcf.Payload{Tool: tool, Symbols: make([]gcf.Symbol, len(g.Nodes))}
	for i, n := range g.Nodes {
		p.Symbols[i] = gcf.Symbol{QualifiedName: n.QName, Kind: n.Kind, Score: 1, Provenance: provenance}
	}
	all := make(map[int]bool, len(g.Nodes))
	for i := range g.Nodes {
		all[i] = true
	}
	p.Edges = g.edgesAmong(all, func(edge) bool { return true })
	return p
}
