package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gcfkit/gcf"
)

// Exit statuses, the same for every command.
const (
	exitOK      = 0 // success
	exitInvalid = 1 // the input is invalid (validate: a problem was found)
	exitUsage   = 2 // bad command line
	exitIO      = 3 // unreadable input, unwritable output, or the output file could not be put in place
)

// ioError is a failure to read an input or write an output, as opposed to
// a problem in the input's content; it makes the exit status 3.
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// input is one opened input: a file, or stdin for "-".
type input struct {
	name  string      // the file name, or "<stdin>"
	r     *inReader   // the bytes, capped by -max-bytes
	src   io.ReaderAt // reads back a window of the input for a diagnostic
	file  *os.File    // a regular file, which can be read again; else nil
	close func()
}

// openInput opens arg ("-" or "" for stdin). With maxBytes > 0 it reads at
// most maxBytes+1 bytes, so that a decoder with the same limit sees that the
// payload is too large without the rest of it ever being read.
func openInput(e *env, arg string, maxBytes int64) (*input, error) {
	if arg == "" || arg == "-" {
		t := newTail(64 << 10)
		return &input{name: "<stdin>", r: &inReader{r: e.stdin, name: "<stdin>", limit: maxBytes, tail: t}, src: t, close: func() {}}, nil
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, &ioError{err}
	}
	st, err := f.Stat()
	if err == nil && st.IsDir() {
		f.Close()
		return nil, &ioError{fmt.Errorf("%s is a directory", arg)}
	}
	in := &input{name: arg, r: &inReader{r: f, name: arg, limit: maxBytes}, src: f, close: func() { f.Close() }}
	if err != nil || !st.Mode().IsRegular() { // a pipe or a device cannot be read again
		t := newTail(64 << 10)
		in.r.tail, in.src = t, t
	} else {
		in.file = f
	}
	return in, nil
}

// inReader reads an input, stopping after limit+1 bytes when limit > 0,
// and remembers the first read error.
type inReader struct {
	r     io.Reader
	name  string
	n     int64
	limit int64
	err   error // the first read error other than io.EOF
	tail  *tail // keeps the last bytes read, for diagnostics; nil for files
	last  lastLine
}

func (r *inReader) Read(p []byte) (int, error) {
	if r.limit > 0 {
		left := r.limit + 1 - r.n
		if left <= 0 {
			return 0, io.EOF
		}
		if int64(len(p)) > left {
			p = p[:left]
		}
	}
	n, err := r.r.Read(p)
	r.n += int64(n)
	r.last.write(p[:n])
	if r.tail != nil {
		r.tail.write(p[:n])
	}
	if err != nil && err != io.EOF {
		if r.err == nil {
			r.err = err
		}
		err = &ioError{fmt.Errorf("reading %s: %w", r.name, err)}
	}
	return n, err
}

// lastLine follows the last significant line of an input (not blank, not a
// comment), keeping only its first bytes, to tell whether the input ends
// with a ##! summary trailer; and counts the lines.
type lastLine struct {
	cur   []byte // the first bytes of the line being read, after its indentation
	sig   []byte // the first bytes of the last significant complete line
	lines int    // complete lines
}

const lastLinePrefix = 16

func (l *lastLine) write(p []byte) {
	k := bytes.LastIndexByte(p, '\n')
	if k < 0 {
		l.cur = appendPrefix(l.cur, p)
		return
	}
	l.lines += bytes.Count(p[:k+1], []byte{'\n'})
	// The complete lines in cur+p[:k], from the last one back, until a
	// significant one.
	for end := k; ; {
		s := bytes.LastIndexByte(p[:end], '\n')
		line := p[s+1 : end]
		if s < 0 {
			line = appendPrefix(l.cur, p[:end])
		}
		if significant(line) {
			l.sig = append(l.sig[:0], line[:min(len(line), lastLinePrefix)]...)
			break
		}
		if s < 0 {
			break
		}
		end = s
	}
	l.cur = appendPrefix(l.cur[:0], p[k+1:])
}

// appendPrefix appends to dst, the first bytes of a line after its
// indentation, the bytes of p that fit.
func appendPrefix(dst, p []byte) []byte {
	if len(dst) == 0 {
		p = bytes.TrimLeft(p, " \t")
	}
	if n := lastLinePrefix - len(dst); n > 0 {
		dst = append(dst, p[:min(n, len(p))]...)
	}
	return dst
}

// significant reports whether a line (its first bytes) is neither blank
// nor a comment (SPEC §11: "# " after the indentation).
func significant(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	t = bytes.TrimRight(t, "\r")
	return len(t) > 0 && !bytes.HasPrefix(t, []byte("# ")) && !bytes.Equal(t, []byte("#"))
}

// endsWithSummary reports whether the input read so far ends with a
// ##! summary trailer: its last significant line, complete or not.
func (r *inReader) endsWithSummary() bool {
	last := r.last.sig
	if significant(r.last.cur) {
		last = r.last.cur
	}
	t := bytes.TrimRight(bytes.TrimLeft(last, " \t"), "\r")
	return bytes.HasPrefix(t, []byte("##! summary")) && (len(t) == len("##! summary") || t[len("##! summary")] == ' ')
}

// missingSummary is the error of -require-summary for a payload that does
// not end with a ##! summary trailer, placed after its last line.
func (r *inReader) missingSummary() *gcf.SyntaxError {
	return &gcf.SyntaxError{Line: r.last.lines + 1, Column: 1, Offset: r.n, Category: gcf.UnexpectedEOF,
		Msg: "the payload does not end with a ##! summary trailer (-require-summary): it may have been cut short; gcf encode -summary writes one"}
}

// overLimit reports whether more than the -max-bytes limit was read.
func (r *inReader) overLimit() bool { return r.limit > 0 && r.n > r.limit }

// readAll reads the whole input for the commands that hold it in memory,
// never more than -max-bytes (+1 to see that it is too large).
func readAll(in *input) ([]byte, error) {
	data, err := io.ReadAll(in.r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", in.name, err)
	}
	if in.r.overLimit() {
		return nil, &gcf.SyntaxError{Category: gcf.PayloadTooLarge,
			Msg: fmt.Sprintf("the input is larger than -max-bytes %d", in.r.limit)}
	}
	return data, nil
}

// tail keeps the last bytes read from a stream that cannot be read again
// (stdin), so that a diagnostic near the point of failure can quote them.
type tail struct {
	buf   []byte
	total int64 // bytes seen
}

func newTail(size int) *tail { return &tail{buf: make([]byte, size)} }

func (t *tail) write(p []byte) {
	c := int64(len(t.buf))
	if int64(len(p)) > c {
		t.total += int64(len(p)) - c
		p = p[int64(len(p))-c:]
	}
	for len(p) > 0 {
		k := copy(t.buf[t.total%c:], p)
		t.total += int64(k)
		p = p[k:]
	}
}

var errGone = errors.New("no longer held")

// ReadAt reads the held bytes at absolute offset off.
func (t *tail) ReadAt(p []byte, off int64) (int, error) {
	c := int64(len(t.buf))
	if off < 0 || off < t.total-c || off > t.total {
		return 0, errGone
	}
	n := 0
	for n < len(p) && off < t.total {
		k := copy(p[n:], t.buf[off%c:min(c, off%c+t.total-off)])
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// output is where a command writes its result: stdout; or with -o FILE,
// when FILE is (or a symbolic link leads to) a regular file or nothing, a
// temporary file next to it that is renamed onto it only when the command
// succeeds, so that a failure never leaves a partial file there; or, when
// FILE is anything else (a FIFO, a device, /proc/self/fd/1), FILE itself,
// written directly as a shell redirection would.
type output struct {
	dest   string   // the path the user gave; "" for stdout
	target string   // the file renamed onto: dest with its symbolic links resolved
	tmp    *os.File // the temporary file, until commit or abort
	direct *os.File // the destination itself, when it is not a regular file
	bw     *bufio.Writer
	n      int64 // bytes written through Write
	err    error // the first write error
}

// createOutput opens the output named by -o ("" or "-" for stdout). Its
// errors name path, never the temporary file.
func createOutput(e *env, path string) (*output, error) {
	o := &output{}
	var w io.Writer = e.stdout
	if path != "" && path != "-" {
		o.dest = path
		st, err := os.Stat(path) // through symbolic links, as open(2) goes
		switch {
		case err == nil && st.IsDir():
			return nil, &ioError{fmt.Errorf("-o %s: is a directory", path)}
		case err == nil && !st.Mode().IsRegular():
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return nil, o.fail("opening", err)
			}
			o.direct, w = f, f
		default:
			if o.target, err = linkTarget(path); err != nil {
				return nil, o.fail("opening", err)
			}
			tmp, err := createTemp(o.target)
			if err != nil {
				return nil, o.fail("creating", err)
			}
			o.tmp, w = tmp, tmp
		}
	}
	o.bw = bufio.NewWriterSize(sink{o, w}, 64<<10)
	return o, nil
}

// linkTarget follows path's symbolic links to the file they lead to, which
// may not exist yet (a dangling link is written through, as a shell
// redirection does); a path that is not a link is itself.
func linkTarget(path string) (string, error) {
	for range 255 {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", errors.New("too many levels of symbolic links")
}

// fail is an I/O error about the output that names the path the user gave:
// the error of the system call, without the temporary file's name.
func (o *output) fail(doing string, err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &ioError{fmt.Errorf("%s %s: %w", doing, o.label(), err)}
}

// sink records the first error of the underlying writer.
type sink struct {
	o *output
	w io.Writer
}

func (s sink) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		if s.o.err == nil {
			s.o.err = err
		}
		return n, s.o.fail("writing", err)
	}
	return n, nil
}

func (o *output) Write(p []byte) (int, error) {
	n, err := o.bw.Write(p)
	o.n += int64(n)
	return n, err
}

// toStdout reports whether the output is stdout.
func (o *output) toStdout() bool { return o.dest == "" }

// commit flushes the output and, for -o, puts the file in place.
func (o *output) commit() error {
	if err := o.bw.Flush(); err != nil {
		o.abort()
		var ie *ioError
		if errors.As(err, &ie) {
			return ie
		}
		return o.fail("writing", err)
	}
	if o.direct != nil {
		err := o.direct.Close()
		o.direct = nil
		if err != nil {
			o.err = err
			return o.fail("writing", err)
		}
		return nil
	}
	if o.tmp == nil {
		return nil
	}
	tmp := o.tmp.Name()
	mode := os.FileMode(0o644)
	if st, err := os.Stat(o.target); err == nil {
		mode = st.Mode().Perm()
	}
	err := o.tmp.Chmod(mode)
	if err == nil {
		err = o.tmp.Sync()
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, o.target)
	}
	o.tmp = nil
	if err != nil {
		os.Remove(tmp)
	}
	forgetTemp(tmp)
	if err != nil {
		o.err = err
		return o.fail("writing", err)
	}
	return nil
}

// abort gives up: for -o the temporary file is removed and the destination
// is left as it was; stdout, and a destination that is not a regular file,
// get what was written so far.
func (o *output) abort() {
	if o.tmp == nil {
		o.bw.Flush()
		if o.direct != nil {
			o.direct.Close()
			o.direct = nil
		}
		return
	}
	tmp := o.tmp.Name()
	o.tmp.Close()
	os.Remove(tmp)
	forgetTemp(tmp)
	o.tmp = nil
}

func (o *output) label() string {
	if o.dest == "" {
		return "stdout"
	}
	return o.dest
}

// exitStatus classifies a failure: 3 when an input could not be read or the
// output could not be written, else 1 (the input is invalid).
func exitStatus(err error, in *input, out *output) int {
	var ie *ioError
	switch {
	case errors.As(err, &ie), gcf.CategoryOf(err) == gcf.ReadError,
		in != nil && in.r.err != nil, out != nil && out.err != nil:
		return exitIO
	}
	return exitInvalid
}

// isTerminal reports whether w is a character device (a terminal), where
// binary output must not go.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	// /dev/null is a character device too, and a fine place for binary.
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}
