package interop

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// bundlePath is the reference SDK bundle, read in place; GCF_REFERENCE_SDK
// overrides it.
func bundlePath() string {
	if p := os.Getenv("GCF_REFERENCE_SDK"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "shared", "peers", "gcf-typescript-2.6.1", "gcf.mjs")
}

// request and response are the driver's line protocol (driver.mjs).
type request struct {
	Op string `json:"op"`
	In string `json:"in"`
}

type response struct {
	Out  string   `json:"out"`
	Outs []string `json:"outs"`
	Err  string   `json:"err"`
}

// refRunner returns a function that runs a batch of requests through one
// node process, or skips the test (visibly, with the reason) when node or
// the bundle is missing.
func refRunner(t testing.TB) func([]request) []response {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("interop: node is not on PATH; the reference SDK cannot run (CI requires node: .ci/run)")
	}
	bundle, err := filepath.Abs(bundlePath())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bundle); err != nil {
		t.Skipf("interop: the reference SDK bundle is missing (%v); set GCF_REFERENCE_SDK", err)
	}
	return func(reqs []request) []response {
		t.Helper()
		res, err := runBatch(node, bundle, reqs)
		if err != nil {
			t.Fatalf("interop: reference driver: %v", err)
		}
		return res
	}
}

// runBatch starts node on driver.mjs, writes every request as one JSON line
// and reads one response line per request.
func runBatch(node, bundle string, reqs []request) ([]response, error) {
	cmd := exec.Command(node, "driver.mjs", "file://"+filepath.ToSlash(bundle))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	werr := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(stdin, 1<<16)
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		for _, r := range reqs {
			if err := enc.Encode(r); err != nil {
				werr <- err
				stdin.Close()
				return
			}
		}
		err := bw.Flush()
		stdin.Close()
		werr <- err
	}()
	out := make([]response, 0, len(reqs))
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var r response
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("bad response line %d: %v", len(out)+1, err)
		}
		out = append(out, r)
	}
	serr := sc.Err()
	io.Copy(io.Discard, stdout)
	waitErr := cmd.Wait()
	if err := <-werr; err != nil {
		return nil, fmt.Errorf("writing requests: %v (stderr: %s)", err, stderr.String())
	}
	if serr != nil {
		return nil, serr
	}
	if waitErr != nil {
		return nil, fmt.Errorf("node: %v (stderr: %s)", waitErr, stderr.String())
	}
	if len(out) != len(reqs) {
		return nil, fmt.Errorf("%d responses to %d requests (stderr: %s)", len(out), len(reqs), stderr.String())
	}
	return out, nil
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) < 1<<16 {
		b.buf = append(b.buf, p...)
	}
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
