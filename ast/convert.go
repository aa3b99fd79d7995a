package ast

import (
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/gcfkit/gcf/grammar"
	"github.com/gcfkit/gcf/stream"
)

// Parse parses data with the grammar of package grammar, converts the
// concrete syntax tree into a File and validates it. It returns the file
// (never nil, possibly partial) and every diagnostic, sorted by position;
// the list is empty exactly when the payload is valid. Limits take the
// defaults of package stream for zero fields, and bound the same things.
func Parse(data []byte, limits stream.Limits) (*File, ErrorList) {
	tree, diags := grammar.Parse(data, limits)
	f := convert(tree)
	var errs ErrorList
	for _, d := range diags {
		errs = append(errs, &Error{Pos: pos(d.Pos), Category: d.Category, Msg: d.Msg})
	}
	errs = append(errs, ValidateLimits(f, limits)...)
	errs.Sort()
	return f, errs
}

func pos(p plexer.Position) Pos { return Pos{Offset: p.Offset, Line: p.Line, Column: p.Column} }

func convert(t *grammar.Payload) *File {
	f := &File{End: pos(t.EndPos)}
	if t.Header != nil {
		h := &Header{Pos: pos(t.Header.Pos)}
		for _, p := range t.Header.Pairs {
			h.Fields = append(h.Fields, &Field{Pos: pos(p.Pos), Key: p.Key, Value: p.Value})
		}
		f.Header = h
		for _, fl := range h.Fields {
			if fl.Key == "profile" {
				if fl.Value == "generic" || fl.Value == "graph" {
					f.Profile = fl.Value
				}
				break
			}
		}
	}
	summary := func(s *grammar.MetadataSummary) *Summary {
		if s == nil {
			return nil
		}
		out := &Summary{Pos: pos(s.Pos), Rejected: s.Bad != nil}
		for _, p := range s.Pairs {
			out.Fields = append(out.Fields, &Field{Pos: pos(p.Pos), Key: p.Key, Value: p.Value})
		}
		return out
	}
	switch {
	case t.Generic != nil:
		g := t.Generic
		f.Summary = summary(g.Summary)
		switch {
		case g.Scalar != nil:
			f.Root = scalar(g.Scalar.Value)
		case g.Keyed != nil:
			k := g.Keyed
			f.Root = keyedArray(pos(k.Pos), k.Count, k.Fields, k.Body, pos(k.EndPos))
		case g.Array != nil && g.Array.Inline != nil:
			a := g.Array.Inline
			f.Root = inlineArray(pos(a.Pos), a.Count, a.Values)
		case g.Array != nil && g.Array.Block != nil:
			a := g.Array.Block
			f.Root = blockArray(pos(a.Pos), a.Count, a.Fields, a.Group, a.Body, pos(a.EndPos))
		case g.Object != nil:
			f.Root = object(pos(g.Object.Pos), g.Object.Members)
		default:
			f.Root = &Object{Pos: pos(g.Pos)}
		}
	case t.Graph != nil:
		f.Graph, f.Summary = graph(t.Graph), summary(t.Graph.Summary)
	}
	return f
}

func name(k *grammar.Key) *Name {
	if k == nil {
		return nil
	}
	return &Name{Pos: pos(k.Pos), Text: k.Text()}
}

func scalar(s *grammar.Scalar) *Scalar {
	out := &Scalar{Pos: pos(s.Pos), Kind: String}
	switch {
	case s.Quoted != nil:
		out.Quoted, out.Text = true, *s.Quoted
	case s.Null:
		out.Kind, out.Text = Null, "-"
	case s.Bool != nil:
		out.Kind, out.Text = Bool, *s.Bool
	case s.Number != nil:
		out.Kind, out.Text = Number, *s.Number
	case s.Bare != nil:
		out.Text = *s.Bare
	}
	return out
}

func scalars(l *grammar.ScalarList) []*Scalar {
	if l == nil {
		return nil
	}
	out := make([]*Scalar, 0, len(l.Values))
	for _, s := range l.Values {
		out = append(out, scalar(s))
	}
	return out
}

func names(d *grammar.FieldDecl) []*Name {
	if d == nil {
		return nil
	}
	out := make([]*Name, 0, len(d.Names))
	for _, k := range d.Names {
		n := name(k.Key)
		n.ID = k.ID
		out = append(out, n)
	}
	return out
}

// tableNames is names for a table's declaration, with its constants.
func tableNames(d *grammar.TableDecl) []*Name {
	if d == nil {
		return nil
	}
	out := make([]*Name, 0, len(d.Names))
	for _, k := range d.Names {
		n := name(k.Key)
		n.ID = k.ID
		if k.Const != nil {
			n.Const = scalar(k.Const)
		}
		out = append(out, n)
	}
	return out
}

func object(p Pos, members []*grammar.ObjectMember) *Object {
	o := &Object{Pos: p}
	for _, m := range members {
		o.Members = append(o.Members, member(m))
	}
	return o
}

func member(m *grammar.ObjectMember) *Member {
	out := &Member{Pos: pos(m.Pos)}
	switch {
	case m.Kv != nil:
		out.Key, out.Value = name(m.Kv.Key), scalar(m.Kv.Value)
	case m.Inline != nil:
		out.Key, out.Value = name(m.Inline.Key), inlineArray(pos(m.Inline.Pos), m.Inline.Count, m.Inline.Values)
	case m.Keyed != nil:
		k := m.Keyed
		out.Key, out.Value = name(k.Key), keyedArray(pos(k.Pos), k.Count, k.Fields, k.Body, pos(k.EndPos))
	case m.Array != nil:
		a := m.Array
		out.Key, out.Value = name(a.Key), blockArray(pos(a.Pos), a.Count, a.Fields, a.Group, a.Body, pos(a.EndPos))
	case m.Section != nil:
		out.Key, out.Value = name(m.Section.Key), object(pos(m.Section.Pos), m.Section.Body.Members)
	case m.Bad != nil:
		out.Key = name(m.Bad.Key)
	}
	return out
}

func inlineArray(p Pos, count *grammar.CountBracket, values *grammar.ScalarList) *Array {
	return &Array{Pos: p, Form: Inline, Count: grammar.BracketCount(count.Text), CountPos: pos(count.Pos), Values: scalars(values)}
}

func keyedArray(p Pos, count *grammar.KeyedBracket, decl *grammar.TableDecl, body *grammar.TabularBody, end Pos) *Array {
	a := &Array{Pos: p, Form: Keyed, Count: grammar.BracketCount(count.Text), CountPos: pos(count.Pos), Fields: tableNames(decl), End: end}
	if decl != nil {
		a.DeclPos = pos(decl.Pos)
	}
	a.Rows = rows(body)
	return a
}

func blockArray(p Pos, count *grammar.CountBracket, decl *grammar.TableDecl, group *grammar.GroupClause, body *grammar.ArrayBody, end Pos) *Array {
	a := &Array{Pos: p, Count: grammar.BracketCount(count.Text), CountPos: pos(count.Pos), Fields: tableNames(decl), End: end}
	if group != nil {
		a.Group = name(group.Column)
	}
	if decl != nil {
		a.DeclPos = pos(decl.Pos)
	}
	switch {
	case a.Count == 0:
		a.Form = Empty
	case decl != nil:
		a.Form = Tabular
	default:
		a.Form = Expanded
	}
	if body != nil {
		switch {
		case body.Tabular != nil:
			a.Rows = rows(body.Tabular)
			if decl == nil {
				a.Form, a.Shared = Tabular, true
			}
		case body.Expanded != nil:
			a.Items = items(body.Expanded)
		}
	}
	return a
}

func rows(b *grammar.TabularBody) []*Row {
	if b == nil {
		return nil
	}
	out := make([]*Row, 0, len(b.Rows))
	for _, r := range b.Rows {
		if r.Subheader != nil {
			continue // a group's value (v3.6.0 §7.4.8.3), checked by the scanner
		}
		row := &Row{Pos: pos(r.Pos), End: pos(r.EndPos)}
		if r.Bad != nil {
			row.Rejected = true
			out = append(out, row)
			continue
		}
		if r.ID != nil {
			row.ID = id(*r.ID, r.Pos)
		}
		for _, c := range r.Cells {
			cell := &Cell{Pos: pos(c.Pos)}
			switch {
			case c.Missing:
				cell.Kind = CellMissing
			case c.Attach != nil:
				cell.Kind = CellAttach
				if c.Attach.Schema != nil {
					cell.Schema = names(c.Attach.Schema)
				}
			default:
				cell.Kind, cell.Scalar = CellScalar, scalar(c.Scalar)
			}
			row.Cells = append(row.Cells, cell)
		}
		for _, at := range r.Attachments {
			row.Attachments = append(row.Attachments, attachment(at))
		}
		out = append(out, row)
	}
	return out
}

func id(text string, p plexer.Position) *ID {
	v, _ := grammar.ParseID(text)
	return &ID{Pos: pos(p), Value: v}
}

func attachment(at *grammar.RowAttachment) *Attachment {
	out := &Attachment{Pos: pos(at.Pos)}
	switch {
	case at.Inline != nil:
		for _, s := range at.Inline.Values {
			out.Inline = append(out.Inline, scalar(s))
		}
		if out.Inline == nil {
			out.Inline = []*Scalar{}
		}
	case at.Bad != nil:
		out.Rejected, out.Name = true, name(at.Bad.Name)
	case at.Traditional != nil:
		t := at.Traditional
		switch {
		case t.Object != nil:
			out.Name = name(t.Object.Key)
			out.Value = object(pos(t.Object.Pos), t.Object.Members)
		case t.Keyed != nil:
			k := t.Keyed
			out.Name = name(k.Key)
			out.Value = keyedArray(pos(k.Pos), k.Count, k.Fields, k.Body, pos(t.EndPos))
		case t.Array != nil:
			a := t.Array
			out.Name = name(a.Key)
			if a.Colon {
				out.Value = inlineArray(pos(a.Pos), a.Count, a.Values)
			} else {
				out.Value = blockArray(pos(a.Pos), a.Count, a.Fields, a.Group, a.Body, pos(t.EndPos))
			}
		case t.Scalar != nil:
			out.Name = name(t.Scalar.Key)
			out.Value = scalar(t.Scalar.Value)
		}
	}
	return out
}

func items(b *grammar.ExpandedBody) []*Item {
	out := make([]*Item, 0, len(b.Items))
	for _, it := range b.Items {
		item := &Item{Pos: pos(it.Pos)}
		switch {
		case it.Bad != nil:
			if it.Bad.ID != nil {
				item.ID = id(*it.Bad.ID, it.Pos)
			}
		case it.Primitive != nil:
			item.ID = id(it.Primitive.ID, it.Pos)
			item.Value = scalar(it.Primitive.Value)
		case it.Object != nil:
			item.ID = id(it.Object.ID, it.Pos)
			item.Value = object(pos(it.Object.Pos), it.Object.Members)
		case it.Keyed != nil:
			k := it.Keyed
			item.ID = id(k.ID, it.Pos)
			item.Value = keyedArray(pos(k.Pos), k.Count, k.Fields, k.Body, pos(it.EndPos))
		case it.Array != nil:
			a := it.Array
			item.ID = id(a.ID, it.Pos)
			if a.Colon {
				item.Value = inlineArray(pos(a.Pos), a.Count, a.Values)
			} else {
				item.Value = blockArray(pos(a.Pos), a.Count, a.Fields, a.Group, a.Body, pos(it.EndPos))
			}
		}
		out = append(out, item)
	}
	return out
}

func graph(g *grammar.GraphBody) *Graph {
	out := &Graph{End: pos(g.EndPos)}
	if g.Summary != nil {
		out.End = pos(g.Summary.Pos)
	}
	for _, sec := range g.Sections {
		grp := &Group{Pos: pos(sec.Pos), Count: NoCount, End: pos(sec.EndPos)}
		h := sec.Header
		if h.Bad != nil {
			grp.Rejected = true
		} else {
			grp.Name = h.Name
			if h.Count != nil {
				grp.Count = grammar.BracketCount(*h.Count)
			}
		}
		for _, l := range sec.Lines {
			p := pos(l.Pos)
			switch {
			case l.Ref != nil:
				grp.Lines = append(grp.Lines, &Symbol{Pos: p, ID: id(l.Ref.ID, l.Pos), Ref: true})
			case l.Node != nil:
				n := l.Node
				grp.Lines = append(grp.Lines, &Symbol{Pos: p, ID: id(n.ID, l.Pos), Kind: n.Kind, QName: n.QName, Score: n.Score, Provenance: n.Provenance})
			case l.Added != nil:
				n := l.Added
				d, _ := grammar.ParseID(n.Distance)
				grp.Lines = append(grp.Lines, &Symbol{Pos: p, ID: id(n.ID, l.Pos), Kind: n.Kind, QName: n.QName, Score: n.Score, Provenance: n.Provenance, Distance: &d})
			case l.Edge != nil:
				e := l.Edge
				src := id(e.Source, l.Pos)
				src.Pos.Column += len(e.Target) + 1
				src.Pos.Offset += len(e.Target) + 1
				st := ""
				if e.Status != nil {
					st = *e.Status
				}
				grp.Lines = append(grp.Lines, &Edge{Pos: p, Target: id(e.Target, l.Pos), Source: src, Type: e.Type, Status: st})
			case l.DeltaSymbol != nil:
				grp.Lines = append(grp.Lines, &DeltaSymbol{Pos: p, Kind: l.DeltaSymbol.Kind, QName: l.DeltaSymbol.QName})
			case l.DeltaEdge != nil:
				d := l.DeltaEdge
				grp.Lines = append(grp.Lines, &DeltaEdge{Pos: p, Source: d.Source, Target: d.Target, Type: d.Type})
			case l.Bad != nil:
				grp.Lines = append(grp.Lines, &RejectedLine{Pos: p, Text: l.Bad.Text})
			}
		}
		out.Groups = append(out.Groups, grp)
	}
	return out
}
