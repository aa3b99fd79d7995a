package ast

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/grammar"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// ValidateV1 checks a legacy GCF v1.x payload (SPEC-v1.1, SPEC-v1.4) and
// returns every problem with its position: those of the v1 grammar
// (grammar.ParseV1: each line's form, scalars, the tabular profile's
// widths, counts and ids), those of the graph checks that need the whole
// payload (CheckV1), and, when the pull decoder's v1 mode finds a problem
// neither reports (the nesting of a tabular body, which the flat v1
// grammar does not describe), that one too. The list is sorted by position.
func ValidateV1(data []byte, limits stream.Limits) ErrorList {
	list := CheckV1(data, limits)
	d := stream.NewBytesDecoder(data, limits)
	d.SetWire(stream.WireV1)
	for {
		_, err := d.Read()
		if err == io.EOF {
			break
		}
		if se, ok := err.(*lexer.SyntaxError); ok {
			known := false
			for _, e := range list {
				known = known || e.Pos.Line == se.Line && e.Category == se.Category
			}
			if !known {
				list = append(list, &Error{Pos: Pos{Offset: int(se.Offset), Line: se.Line, Column: se.Column}, Category: se.Category, Msg: se.Msg})
			}
		}
		if err != nil {
			break
		}
	}
	list.Sort()
	return list
}

// CheckV1 is the grammar's verdict alone: the problems grammar.ParseV1
// reports and the graph checks on its tree (sequential or unique symbol
// ids, edge references, declared counts, header and summary counts, delta
// ids). It is what the differential tests compare with the pull decoder.
func CheckV1(data []byte, limits stream.Limits) ErrorList {
	tree, diags := grammar.ParseV1(data, limits)
	var list ErrorList
	for _, d := range diags {
		list = append(list, &Error{Pos: pos(d.Pos), Category: d.Category, Msg: d.Msg})
	}
	if tree.Header != nil {
		list = append(list, v1Graph(tree, limits, !stopped(diags))...)
	}
	list.Sort()
	return list
}

// stopped reports whether the scanner met a problem after which it read
// nothing more (the tree then lacks the rest of the payload).
func stopped(diags []grammar.Diagnostic) bool {
	for _, d := range diags {
		switch d.Category {
		case lexer.MissingProfile, lexer.UnknownProfile, lexer.MalformedHeaderField, lexer.DuplicateHeaderField,
			lexer.OutOfRange, lexer.LineTooLong, lexer.InvalidUTF8, lexer.InvalidSurrogate, lexer.TabIndentation,
			lexer.InvalidIndent, lexer.InvalidLine, lexer.InvalidCount, lexer.TooManyElements, lexer.MalformedDelta,
			lexer.PayloadTooLarge, lexer.DepthExceeded, lexer.TooManyFields:
			return true
		}
	}
	return false
}

// v1Graph checks a v1 graph payload's ids, references and counts; the
// counts checked at the end only when the tree is complete (the scanner did
// not stop early).
func v1Graph(t *grammar.V1Payload, limits stream.Limits, complete bool) ErrorList {
	var list ErrorList
	add := func(p plexer.Position, c lexer.Category, msg string) {
		list = append(list, &Error{Pos: pos(p), Category: c, Msg: msg})
	}
	hdr := map[string]string{}
	for _, p := range t.Header.Pairs {
		hdr[p.Key] = p.Value
	}
	session, delta := hdr["session"] == "true", hdr["delta"] == "true"
	declared := map[int64]bool{}
	var symbols, edges, deferredEdges, added int64 = 0, 0, -1, 0
	id := func(s string) int64 {
		n, _ := strconv.ParseInt(strings1(s), 10, 64)
		return n
	}
	declare := func(p plexer.Position, n int64) {
		if !session && n != symbols {
			add(p, lexer.InvalidSymbolID, "symbol id @"+strconv.FormatInt(n, 10)+" is not the next sequential id @"+strconv.FormatInt(symbols, 10))
		} else if session && declared[n] {
			add(p, lexer.InvalidSymbolID, "symbol id @"+strconv.FormatInt(n, 10)+" is declared twice")
		}
		declared[n] = true
		symbols++
	}
	known := func(n int64) bool {
		if !session {
			return n < symbols
		}
		return declared[n]
	}
	for si, sec := range t.Sections {
		h := sec.Header
		count := int64(-1)
		if h.Count != nil && h.Count.Text != "[?]" {
			count, _ = strconv.ParseInt(h.Count.Text[1:len(h.Count.Text)-1], 10, 64)
		}
		seen := int64(0)
		ended := false // a malformed group header ended the section
		for _, ln := range sec.Lines {
			if ln.Bad != nil && strings.HasPrefix(ln.Bad.Text, "## ") {
				// The scanner keeps a group header it rejects in the
				// section before it; the pull decoder reads it as the start
				// of a new group and checks the declared count there first.
				if count >= 0 && seen < count {
					add(ln.Pos, lexer.CountMismatch, "group on line "+strconv.Itoa(h.Pos.Line)+" declares "+strconv.FormatInt(count, 10)+" lines but has "+strconv.FormatInt(seen, 10))
				}
				ended = true
				break
			}
			seen++
			if count >= 0 && seen == count+1 {
				// A surplus line is one even when it is also malformed, as
				// the pull decoder counts it (it reports the count first).
				add(ln.Pos, lexer.CountMismatch, "group on line "+strconv.Itoa(h.Pos.Line)+" declares "+strconv.FormatInt(count, 10)+" lines; this one is more")
			}
			if ln.Bad != nil {
				// A rejected line still stands for what its section holds,
				// so that the counts after it do not cascade.
				if h.Name == "edges" {
					edges++
				} else if !delta {
					symbols++
				}
				continue
			}
			if seen > int64(limits.Resolved().MaxElements) {
				add(ln.Pos, lexer.TooManyElements, "graph section exceeds the element limit")
			}
			switch {
			case ln.Node != nil && delta:
				if n := id(ln.Node.ID); n != added {
					add(ln.Pos, lexer.InvalidSymbolID, "## added ids are sequential from 0")
				}
				added++
			case ln.Node != nil:
				declare(ln.Pos, id(ln.Node.ID))
			case ln.Ref != nil:
				declare(ln.Pos, id(ln.Ref.ID))
			case ln.Edge != nil:
				e := ln.Edge
				if tg := id(e.Target); !known(tg) {
					add(ln.Pos, lexer.UnknownEdgeReference, "edge target @"+strconv.FormatInt(tg, 10)+" is not a declared symbol")
				} else if src := id(e.Source); !known(src) {
					add(ln.Pos, lexer.UnknownEdgeReference, "edge source @"+strconv.FormatInt(src, 10)+" is not a declared symbol")
				} else if i := badName(e.Type); i >= 0 {
					add(ln.Pos, lexer.InvalidEdgeSyntax, "an edge type may not hold whitespace or control characters")
				} else if e.Status != nil && badName(*e.Status) >= 0 {
					add(ln.Pos, lexer.InvalidEdgeSyntax, "an edge status may not hold whitespace or control characters")
				}
				edges++
			}
		}
		if !ended && count >= 0 && seen < count && (complete || si < len(t.Sections)-1) {
			at := h.Pos
			if len(sec.Lines) > 0 {
				at = sec.Lines[len(sec.Lines)-1].Pos
			}
			if si < len(t.Sections)-1 {
				// The section ends at the next group header (or the summary
				// trailer), where the pull decoder reports the count.
				at = t.Sections[si+1].Header.Pos
			} else if t.Summary != nil {
				at = t.Summary.Pos
			}
			add(at, lexer.CountMismatch, "group on line "+strconv.Itoa(h.Pos.Line)+" declares "+strconv.FormatInt(count, 10)+" lines but has "+strconv.FormatInt(seen, 10))
		}
		if h.Name == "edges" && h.Count != nil && h.Count.Text == "[?]" {
			if deferredEdges < 0 {
				deferredEdges = 0
			}
			deferredEdges += seen
		}
	}
	end := t.EndPos
	if !complete {
		return list
	}
	if !delta && hdr["unchanged"] != "true" {
		for _, c := range []struct {
			key string
			n   int64
		}{{"symbols", symbols}, {"edges", edges}} {
			if v, ok := hdr[c.key]; ok {
				if n, ok := grammar.ParseCount(v); ok && n >= 0 && n != c.n {
					add(end, lexer.CountMismatch, "header declares "+c.key+"="+v+" but the payload has "+strconv.FormatInt(c.n, 10))
				}
			}
		}
	}
	if s := t.Summary; s != nil {
		for _, p := range s.Pairs {
			n, err := strconv.ParseInt(p.Value, 10, 64)
			if err != nil {
				continue
			}
			switch p.Key {
			case "edges":
				if deferredEdges >= 0 && n != deferredEdges {
					add(s.Pos, lexer.CountMismatch, "summary edges="+p.Value+" but the [?] edges section has "+strconv.FormatInt(deferredEdges, 10))
				}
			case "symbols":
				if _, ok := hdr["symbols"]; !ok && n != symbols {
					add(s.Pos, lexer.CountMismatch, "summary symbols="+p.Value+" but the payload has "+strconv.FormatInt(symbols, 10))
				}
			}
		}
	}
	return list
}

func strings1(s string) string { return string(bytes.TrimPrefix([]byte(s), []byte("@"))) }

// badName returns the index of the first rune of t that a graph name may
// not hold (whitespace or a control), or -1.
func badName(t string) int {
	for i, r := range t {
		if r <= ' ' || r == 0x7F || (r >= 0x80 && r <= 0x9F) || unicode.Is(unicode.White_Space, r) {
			return i
		}
	}
	return -1
}
