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
	maxArchiveSize = 512 << 20        // bytes of one revision's git archive
	gitTimeout     = 60 * time.Second // for one git command
)

// revisions extracts git revisions of the repository at root into
// temporary directories; the graph cache owns them once extracted.
type revisions struct {
	root     string
	maxBytes int64 // of one revision's archive
	mu       sync.Mutex
	tmp      string // parent of the extracted trees
}

func newRevisions(root string) *revisions {
	return &revisions{root: root, maxBytes: maxArchiveSize}
}

// close removes every extracted tree.
func (r *revisions) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tmp != "" {
		os.RemoveAll(r.tmp)
	}
	r.tmp = ""
}

// revPattern is what a revision argument may look like: no leading '-', no
// white space, no path traversal; git checks the rest.
var revPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./~^@{}-]*$`)

func (r *revisions) git(ctx context.Context, stdout io.Writer, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.root}, args...)...)
	stderr := &clipWriter{max: 4096}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return gitError(args[0], stderr, err)
	}
	return nil
}

func gitError(command string, stderr *clipWriter, err error) error {
	msg := strings.TrimSpace(stderr.b.String())
	if msg == "" {
		msg = err.Error()
	}
	return fmt.Errorf("git %s: %s", command, msg)
}

// clipWriter keeps the first max bytes written to it.
type clipWriter struct {
	b   bytes.Buffer
	max int
}

func (w *clipWriter) Write(p []byte) (int, error) {
	w.b.Write(p[:min(len(p), max(0, w.max-w.b.Len()))])
	return len(p), nil
}

// tree resolves the revision rev to a commit and returns the directory
// that holds the module at root as of that commit once extract has
// written it there.
func (r *revisions) tree(ctx context.Context, rev string) (dir string, extract func(dir string) error, err error) {
	if !revPattern.MatchString(rev) || strings.Contains(rev, "..") {
		return "", nil, fmt.Errorf("%q is neither a directory inside the root nor a git revision name", clip(rev))
	}
	var out bytes.Buffer
	if err := r.git(ctx, &out, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}"); err != nil {
		return "", nil, fmt.Errorf("%q is neither a directory inside the root nor a commit of its git repository", clip(rev))
	}
	commit := strings.TrimSpace(out.String())
	r.mu.Lock()
	if r.tmp == "" {
		tmp, err := os.MkdirTemp("", "codegraph-rev-")
		if err != nil {
			r.mu.Unlock()
			return "", nil, err
		}
		r.tmp = tmp
	}
	dir = filepath.Join(r.tmp, commit)
	r.mu.Unlock()
	return dir, func(dir string) error {
		if err := r.extract(ctx, commit, dir); err != nil {
			return fmt.Errorf("extracting %s: %v", clip(rev), err)
		}
		return nil
	}, nil
}

// extract writes the module at root as of commit into dir, streaming
// `git archive`; past r.maxBytes of archive it stops git and fails.
func (r *revisions) extract(ctx context.Context, commit, dir string) error {
	var out bytes.Buffer
	if err := r.git(ctx, &out, "rev-parse", "--show-prefix"); err != nil {
		return err
	}
	prefix := strings.TrimSpace(out.String())
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", r.root, "archive", "--format=tar", commit+":"+prefix)
	stderr := &clipWriter{max: 4096}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	archive := &boundedReader{r: stdout, max: r.maxBytes}
	err = untar(archive, dir, r.maxBytes)
	if err == nil {
		_, err = io.Copy(io.Discard, archive) // the end-of-archive padding
	}
	if err != nil {
		cancel() // stops git: killed, its pipe closed by Wait
		cmd.Wait()
		return err
	}
	if err := cmd.Wait(); err != nil {
		return gitError("archive", stderr, err)
	}
	return nil
}

// errTooLarge is the error of a revision whose archive is over the bound.
func errTooLarge(max int64) error {
	return fmt.Errorf("the revision is larger than %d bytes (its git archive)", max)
}

// boundedReader reads r and fails once more than max bytes come from it.
type boundedReader struct {
	r      io.Reader
	n, max int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if rest := b.max - b.n + 1; int64(len(p)) > rest {
		p = p[:rest] // one byte past the bound tells that there is more
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.max {
		return n - int(b.n-b.max), errTooLarge(b.max)
	}
	return n, err
}

// untar writes the regular files and directories of a tar stream under dir,
// refusing names that would leave it and files larger than max in all.
func untar(r io.Reader, dir string, max int64) error {
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
			if h.Size < 0 || total > max {
				return errTooLarge(max)
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

// side is what one semantic_diff argument names: a directory inside the
// root, or a git revision's tree, written by extract on first use.
type side struct {
	what    string // "base" or "head"
	dir     string
	extract func(dir string) error // nil for a directory
}

// side checks one semantic_diff argument and resolves it, a revision to
// its commit; nothing is loaded or extracted yet.
func (t *tools) side(ctx context.Context, what, arg string) (side, error) {
	if arg == "" {
		return side{}, fmt.Errorf("%s is empty: give a git revision or a directory inside the root", what)
	}
	looksLikePath := filepath.IsAbs(arg) || strings.HasPrefix(arg, ".") || strings.Contains(arg, string(filepath.Separator)+"..")
	dir, exists, err := t.inRoot(arg)
	if err != nil && (exists || looksLikePath || !revPattern.MatchString(arg)) {
		return side{}, fmt.Errorf("%s: %v", what, err)
	}
	if exists && err == nil {
		return side{what: what, dir: dir}, nil
	}
	if looksLikePath {
		return side{}, fmt.Errorf("%s: %q is not a directory inside the root", what, clip(arg))
	}
	dir, extract, err := t.revs.tree(ctx, arg)
	if err != nil {
		return side{}, fmt.Errorf("%s: %v", what, err)
	}
	return side{what: what, dir: dir, extract: extract}, nil
}

// sideGraph loads the graph of s through the cache.
func (t *tools) sideGraph(s side) (*graph, error) {
	var g *graph
	var err error
	if s.extract != nil {
		g, err = t.graphs.tree(s.dir, s.extract)
	} else {
		g, err = t.graphs.get(s.dir)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", s.what, err)
	}
	return g, nil
}

func (t *tools) semanticDiff(ctx context.Context, req *mcp.CallToolRequest, in diffArgs) (*gcf.DeltaPayload, error) {
	bs, err := t.side(ctx, "base", in.Base)
	if err != nil {
		return nil, err
	}
	hs, err := t.side(ctx, "head", in.Head)
	if err != nil {
		return nil, err
	}
	base, err := t.sideGraph(bs)
	if err != nil {
		return nil, err
	}
	head, err := t.sideGraph(hs)
	if err != nil {
		return nil, err
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
