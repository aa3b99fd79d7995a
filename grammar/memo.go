package grammar

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"
)

// Participle's verdict on one line is a function of the production and of
// what the parser can see of the line's tokens. The productions match a
// token by its type (Key, Bare, Count, ...) or by its text against a
// literal ('##', '=', '|', 'summary', ...); the text of the other tokens is
// only captured into strings, never converted or compared, and branches
// are chosen by token index, never by position. So two lines whose tokens
// have the same types, and the same literal (or none) at every index, get
// the same verdict from the same production: both accepted, or both
// rejected at the same token index with the same expectation. That is a
// line's shape, and the memo keeps the verdict of each shape it has seen.
// A hit gives exactly what participle would say: an acceptance, or the
// error rebuilt from this line's own token at the recorded index (its text
// and position, the way participle.UnexpectedTokenError formats them). An
// error of another kind is not memoized; its line is parsed every time.
//
// The memo is bounded: it holds at most memoMaxShapes shapes and
// memoMaxBytes bytes of shapes (a shape is about two bytes per token), and
// is emptied when full, so input in which every line has a new shape costs
// what parsing every line costs, in bounded memory.

// literals are the token texts the productions match by value; a test
// checks that every literal in a parser tag of the package is listed.
var literals = [...]string{"", "##!", "##", ",", "->", ".", ":", "<", "=", "summary", "{", "{}", "|", "}", "@", "group="}

// literalIndex returns the index of v in literals, or 0.
func literalIndex(v string) byte {
	switch len(v) {
	case 1:
		switch v[0] {
		case ',':
			return 3
		case '.':
			return 5
		case ':':
			return 6
		case '<':
			return 7
		case '=':
			return 8
		case '{':
			return 10
		case '|':
			return 12
		case '}':
			return 13
		case '@':
			return 14
		}
	case 2:
		switch v {
		case "##":
			return 2
		case "->":
			return 4
		case "{}":
			return 11
		}
	case 3:
		if v == "##!" {
			return 1
		}
	case 6:
		if v == "group=" {
			return 15
		}
	case 7:
		if v == "summary" {
			return 9
		}
	}
	return 0
}

// The memo's bounds (variables so that a test can shrink them).
var (
	memoMaxShapes = 4096
	memoMaxBytes  = 8 << 20  // all shapes together
	memoMaxKey    = 64 << 10 // one shape; a line with a longer one is parsed every time
)

// verdict is participle's verdict on a shape: accepted, or rejected at
// the token of index at (len(line) for the EOF after the line) with the
// message "unexpected token %q" + suffix.
type verdict struct {
	ok     bool
	at     int
	suffix string
}

// memo maps shapes to verdicts.
type memo struct {
	shapes map[string]verdict
	bytes  int    // the shapes' length
	key    []byte // the current line's shape, reused

	hits, resets int // for the tests
}

func newMemo() *memo { return &memo{shapes: make(map[string]verdict)} }

// shape encodes the production's id and the line's shape into m.key: one
// byte per token type, with the high bit set and the literal's index in a
// second byte when the token's text is a literal. It reports false when
// the shape is too long to keep.
func (m *memo) shape(prod *production, line []plexer.Token) bool {
	if 2*len(line) >= memoMaxKey {
		return false
	}
	k := append(m.key[:0], prod.id)
	for i := range line {
		t := &line[i]
		if t.Type <= 0 || t.Type >= 0x80 {
			return false
		}
		if lit := literalIndex(t.Value); lit != 0 {
			k = append(k, byte(t.Type)|0x80, lit)
		} else {
			k = append(k, byte(t.Type))
		}
	}
	m.key = k
	return true
}

// store records the verdict err (from parsing line) for the current shape,
// if it can be replayed exactly.
func (m *memo) store(line []plexer.Token, err error) {
	v := verdict{ok: err == nil}
	if err != nil {
		ute, ok := err.(*participle.UnexpectedTokenError)
		if !ok {
			return
		}
		v.at = -1
		for i := 0; i <= len(line); i++ {
			if tokenAt(line, i) == ute.Unexpected {
				v.at = i
				break
			}
		}
		head := fmt.Sprintf("unexpected token %q", ute.Unexpected)
		msg := ute.Message()
		if v.at < 0 || !strings.HasPrefix(msg, head) {
			return
		}
		v.suffix = msg[len(head):]
	}
	if len(m.shapes) >= memoMaxShapes || m.bytes+len(m.key) > memoMaxBytes {
		clear(m.shapes)
		m.bytes = 0
		m.resets++
	}
	m.shapes[string(m.key)] = v
	m.bytes += len(m.key)
}

// tokenAt returns line[i], or the EOF token the parser sees after the line.
func tokenAt(line []plexer.Token, i int) plexer.Token {
	if i == len(line) {
		return plexer.EOFToken(line[len(line)-1].Pos)
	}
	return line[i]
}

// replay returns the error that participle gives line, whose shape has
// the verdict v.
func (v verdict) replay(line []plexer.Token) error {
	if v.ok {
		return nil
	}
	t := tokenAt(line, v.at)
	return &participle.ParseError{Msg: fmt.Sprintf("unexpected token %q", t) + v.suffix, Pos: t.Pos}
}
