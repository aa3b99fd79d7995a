package ast

import (
	"strconv"
	"strings"

	"github.com/gcfkit/gcf/grammar"
	"github.com/gcfkit/gcf/lexer"
	"github.com/gcfkit/gcf/stream"
)

// Validate checks the context-sensitive rules of f and returns every
// problem it finds, sorted by position. It does not repeat what the parser
// reported: a rejected line is skipped, but its key or id still takes part
// in the scope checks.
func Validate(f *File) ErrorList {
	return ValidateLimits(f, stream.Limits{})
}

// ValidateLimits is Validate with explicit limits (zero fields take the
// defaults of package stream); they bound field declarations (§12).
func ValidateLimits(f *File, limits stream.Limits) ErrorList {
	v := &validator{maxFields: limits.Resolved().MaxFields, requireSummary: limits.RequireSummary, end: f.End}
	if !v.header(f) {
		v.errs.Sort()
		return v.errs
	}
	switch {
	case f.Root != nil:
		v.value(f.Root)
		if f.Summary == nil || !f.Summary.Rejected {
			v.genericSummary(f.Summary)
		}
	case f.Graph != nil:
		v.graph(f)
	}
	v.errs.Sort()
	return v.errs
}

type validator struct {
	errs           ErrorList
	maxFields      int
	requireSummary bool // stream.Limits.RequireSummary: `[?]` counts must be confirmed
	end            Pos
	deferred       []*Array // `[?]` containers in document order (§8.4)
}

func (v *validator) add(p Pos, c lexer.Category, msg string) {
	v.errs = append(v.errs, &Error{Pos: p, Category: c, Msg: msg})
}

func right(p Pos, n int) Pos { return Pos{Offset: p.Offset + n, Line: p.Line, Column: p.Column + n} }

// header checks §3: unique fields, and a first field profile=generic|graph.
// It reports false when the body cannot be checked.
func (v *validator) header(f *File) bool {
	h := f.Header
	if h == nil {
		return false // missing_header was reported by the parser
	}
	seen := map[string]bool{}
	for _, fl := range h.Fields {
		if seen[fl.Key] {
			v.add(fl.Pos, lexer.DuplicateHeaderField, "duplicate header field "+fl.Key)
		}
		seen[fl.Key] = true
	}
	var profile *Field
	for _, fl := range h.Fields {
		if fl.Key == "profile" {
			profile = fl
			break
		}
	}
	if profile == nil {
		v.add(h.Pos, lexer.MissingProfile, "the header has no profile= field: "+stream.V1Hint)
		return false
	}
	if profile != h.Fields[0] {
		// §3.1, §16.3-16.4: the header begins with GCF profile=...
		v.add(h.Pos, lexer.MissingProfile, "profile= must be the first header field")
	}
	if profile.Value != "generic" && profile.Value != "graph" {
		v.add(right(profile.Pos, len("profile=")), lexer.UnknownProfile, "unknown profile "+grammar.Excerpt(profile.Value))
		return false
	}
	return true
}

func (v *validator) value(val Value) {
	switch x := val.(type) {
	case *Object:
		v.object(x)
	case *Array:
		v.array(x)
	}
}

// object checks §2a.2: keys are unique within an object.
func (v *validator) object(o *Object) {
	keys := make(map[string]bool, len(o.Members))
	for _, m := range o.Members {
		if m.Key != nil {
			if keys[m.Key.Text] {
				v.add(m.Key.Pos, lexer.DuplicateKey, "duplicate key "+grammar.Excerpt(m.Key.Text))
			}
			keys[m.Key.Text] = true
		}
		if m.Value != nil {
			v.value(m.Value)
		}
	}
}

// fieldDecl checks a field declaration (§2a.2, §7.2a.2, §7.4.6.2, §12).
func (v *validator) fieldDecl(a *Array) {
	if a.Shared || a.Fields == nil {
		return
	}
	names := make([]string, len(a.Fields))
	for i, n := range a.Fields {
		names[i] = n.Text
	}
	if cat, msg, at := grammar.DeclProblem(names, a.Form == Keyed, v.maxFields); cat != "" {
		p := a.DeclPos
		if at >= 0 {
			p = a.Fields[at].Pos
		}
		v.add(p, cat, msg)
		return
	}
	if a.Form == Keyed && len(a.Fields) < 2 {
		v.add(a.DeclPos, lexer.InvalidKeyedMap, "a keyed map header must declare at least two fields (the key column and a value field)")
	}
}

// array checks a counted container: its declaration, its items and its
// count (§13).
func (v *validator) array(a *Array) {
	if a.Count == Deferred && (a.Form == Tabular || a.Form == Keyed || a.Form == Expanded) {
		v.deferred = append(v.deferred, a)
	}
	if a.Form == Inline {
		if int64(len(a.Values)) != a.Count {
			v.add(a.CountPos, lexer.CountMismatch, "inline array declares "+strconv.FormatInt(a.Count, 10)+
				" values but has "+strconv.Itoa(len(a.Values)))
		}
		return
	}
	v.fieldDecl(a)
	n := 0
	switch a.Form {
	case Tabular, Keyed:
		v.table(a)
		n = len(a.Rows)
	case Expanded:
		for i, it := range a.Items {
			if it.ID != nil && it.ID.Value != int64(i) {
				v.add(right(it.ID.Pos, 1), lexer.InvalidItemID, "item id @"+strconv.FormatInt(it.ID.Value, 10)+
					" does not equal its index "+strconv.Itoa(i))
			}
			if it.Value != nil {
				v.value(it.Value)
			}
		}
		n = len(a.Items)
	}
	if a.Count >= 0 && a.Form != Empty && int64(n) != a.Count {
		what := "items"
		if a.Form != Expanded {
			what = "rows"
		}
		v.add(a.End, lexer.CountMismatch, "declared "+strconv.FormatInt(a.Count, 10)+" "+what+" but found "+strconv.Itoa(n))
	}
}

const (
	markNone = iota
	markBare
	markSchema
)

// table checks the rows of a tabular array or keyed map: ids, widths,
// member keys and attachments (§7.2a.4, §7.4.4, §7.4.5).
func (v *validator) table(a *Array) {
	fields := a.RowFields()
	n := len(fields)
	inline := make([][]*Name, n)       // per column: the inline object schema (§7.4.5.1)
	sharedCol := make([][]*Name, n)    // per column: the shared array schema (§7.4.5.3)
	sharedName := map[string][]*Name{} // the same for `>`-named fields without a column
	memberKeys := map[string]bool{}
	for i, r := range a.Rows {
		if r.Rejected {
			continue
		}
		if r.ID != nil && r.ID.Value != int64(i) {
			v.add(right(r.ID.Pos, 1), lexer.InvalidItemID, "row id @"+strconv.FormatInt(r.ID.Value, 10)+
				" does not equal its index "+strconv.Itoa(i))
		}
		if len(r.Cells) != n {
			v.add(r.Pos, lexer.RowWidthMismatch, "row has "+strconv.Itoa(len(r.Cells))+
				" values but the header declares "+strconv.Itoa(n)+" fields")
		}
		markers := make([]int, n)
		any := false
		for j, c := range r.Cells {
			if j >= n || c.Kind != CellAttach {
				continue
			}
			any = true
			markers[j] = markBare
			if c.Schema != nil {
				markers[j] = markSchema
				if msg, at := dupName(c.Schema); msg != "" {
					v.add(c.Schema[at].Pos, lexer.DuplicateFieldName, msg+" in inline schema")
				} else if len(c.Schema) > v.maxFields {
					v.add(c.Pos, lexer.TooManyFields, "inline schema exceeds the field limit")
				}
				inline[j] = c.Schema
			}
		}
		if a.Form == Keyed && len(r.Cells) > 0 {
			switch k := r.Cells[0]; {
			case k.Kind == CellMissing:
				v.add(k.Pos, lexer.InvalidMissing, "a keyed-map member key cannot be ~")
			case k.Kind == CellAttach:
				v.add(k.Pos, lexer.InvalidAttachmentMarker, "a keyed-map member key cannot be an attachment marker")
			case k.Scalar.Kind == Null:
				v.add(k.Pos, lexer.InvalidLine, "a keyed-map member key cannot be null")
			default:
				if memberKeys[k.Scalar.Text] {
					v.add(k.Pos, lexer.DuplicateKey, "duplicate member key "+grammar.Excerpt(k.Scalar.Text))
				}
				memberKeys[k.Scalar.Text] = true
			}
		}
		if any && r.ID == nil {
			v.add(r.Pos, lexer.InvalidItemID, "a row with attachment markers must start with its @N id")
		}
		matched := make([]bool, n)
		extra := map[string]bool{}
		for _, at := range r.Attachments {
			if at.Inline != nil {
				// §7.4.5.2: a positional body fills the next unmatched
				// marker that has an inline schema, in field order.
				j := -1
				for k, m := range markers {
					if !matched[k] && (m == markSchema || (m == markBare && inline[k] != nil)) {
						j = k
						break
					}
				}
				if j < 0 {
					v.add(at.Pos, lexer.OrphanInlineAttachment, "positional inline body has no eligible attachment-marker cell")
					continue
				}
				matched[j] = true
				if len(at.Inline) != len(inline[j]) {
					v.add(at.Pos, lexer.InlineWidthMismatch, "inline body for field "+grammar.Excerpt(fields[j].Text)+" has "+
						strconv.Itoa(len(at.Inline))+" values but its schema declares "+strconv.Itoa(len(inline[j])))
				}
				continue
			}
			if at.Name == nil {
				continue // a rejected line without a name
			}
			name := at.Name.Text
			col := -1
			for k, fn := range fields {
				if fn.Text == name {
					col = k
					break
				}
			}
			if col >= 0 && markers[col] != markBare && !matched[col] && strings.Contains(name, ">") {
				// The attachment of a '>'-named field (§7.4.6.1 rule 4) that
				// shares its name with a path column flattened from another
				// field: a column without a ^ marker takes no attachment.
				col = -1
			}
			switch {
			case col >= 0 && matched[col]:
				v.add(at.Pos, lexer.DuplicateAttachment, "field "+grammar.Excerpt(name)+" already has an attachment in this row")
			case col >= 0 && markers[col] != markBare:
				v.add(at.Pos, lexer.OrphanAttachment, "attachment ."+grammar.Excerpt(name)+" has no matching bare ^ cell in its row")
			case col >= 0:
				matched[col] = true
			case !strings.Contains(name, ">"):
				// §16.5 orphan attachment: neither a ^ column nor a `>` name.
				v.add(at.Pos, lexer.OrphanAttachment, "attachment ."+grammar.Excerpt(name)+" names no column of the row")
			case extra[name]:
				v.add(at.Pos, lexer.DuplicateAttachment, "field "+grammar.Excerpt(name)+" already has an attachment in this row")
			default:
				extra[name] = true
			}
			if at.Value == nil {
				continue
			}
			if arr, ok := at.Value.(*Array); ok {
				var est []*Name
				if col >= 0 {
					est = sharedCol[col]
				} else {
					est = sharedName[name]
				}
				switch {
				case arr.Shared:
					arr.Fields = est
				case est == nil && arr.Form == Tabular && i == 0:
					// An explicit tabular declaration in the first row
					// establishes the field's shared array schema; one in a
					// later row applies to itself alone (§7.4.5.3).
					// It is the declared names: the constants and the
					// group of the first table are its own.
					if col >= 0 {
						sharedCol[col] = plainNames(arr.Fields)
					} else {
						sharedName[name] = plainNames(arr.Fields)
					}
				}
			}
			v.value(at.Value)
		}
		for j, m := range markers {
			if m != markNone && !matched[j] {
				v.add(r.End, lexer.MissingAttachment, "field "+grammar.Excerpt(fields[j].Text)+" of the row on line "+
					strconv.Itoa(r.Pos.Line)+" is marked ^ but has no attachment")
				break
			}
		}
	}
}

// plainNames returns the names without their constant values.
func plainNames(names []*Name) []*Name {
	out := make([]*Name, len(names))
	for i, n := range names {
		c := *n
		c.Const = nil
		out[i] = &c
	}
	return out
}

// dupName finds the second occurrence of a name, and its index.
func dupName(names []*Name) (string, int) {
	seen := make(map[string]bool, len(names))
	for i, n := range names {
		if seen[n.Text] {
			return "duplicate field name " + grammar.Excerpt(n.Text), i
		}
		seen[n.Text] = true
	}
	return "", -1
}

// summaryFields checks that summary fields are unique and returns the last
// value of each key.
func (v *validator) summaryFields(s *Summary) map[string]string {
	out := map[string]string{}
	for _, fl := range s.Fields {
		if _, dup := out[fl.Key]; dup {
			v.add(fl.Pos, lexer.InvalidSummary, "duplicate summary field "+fl.Key)
		}
		out[fl.Key] = fl.Value
	}
	return out
}

// genericSummary matches `counts` to the `[?]` sections in document order
// (§8.4, §13.2). Without a summary the actual counts stand (§8.6).
func (v *validator) genericSummary(s *Summary) {
	var fields map[string]string
	if s != nil {
		fields = v.summaryFields(s)
	}
	counts, ok := fields["counts"]
	if !ok {
		v.unconfirmed(len(v.deferred))
		return
	}
	if strings.Contains(counts, ":") {
		v.add(s.Pos, lexer.InvalidSummary, "generic-profile counts are positional; labeled entries are malformed")
		return
	}
	n := 0
	if counts != "" {
		for _, part := range strings.Split(counts, ",") {
			c, ok := grammar.ParseCount(part)
			if grammar.OutOfInt64(part) {
				return // the scanner reported out_of_range
			}
			if !ok || c < 0 {
				v.add(s.Pos, lexer.InvalidSummary, "summary count "+grammar.Excerpt(part)+" is not a count")
				return
			}
			if n < len(v.deferred) {
				if actual := v.actual(v.deferred[n]); actual != c {
					v.add(s.Pos, lexer.CountMismatch, "deferred section "+strconv.Itoa(n+1)+" has "+strconv.FormatInt(actual, 10)+
						" items but the summary says "+strconv.FormatInt(c, 10))
					return
				}
			}
			n++
		}
	}
	if n != len(v.deferred) {
		v.add(s.Pos, lexer.CountMismatch, "summary lists "+strconv.Itoa(n)+" counts but the payload has "+
			strconv.Itoa(len(v.deferred))+" deferred [?] sections")
	}
}

// unconfirmed reports n `[?]` counts no summary confirmed, when the
// limits require the trailer (a stream cut off before its end).
func (v *validator) unconfirmed(n int) {
	if n > 0 && v.requireSummary {
		v.add(v.end, lexer.UnexpectedEOF, "the payload ends without the ##! summary trailer that its "+
			strconv.Itoa(n)+" [?] section(s) need: truncated?")
	}
}

func (v *validator) actual(a *Array) int64 {
	if a.Form == Expanded {
		return int64(len(a.Items))
	}
	return int64(len(a.Rows))
}

// graph checks the graph body: symbol ids (§5, §9), edge references (§6),
// `## added` ids (§10.1), group counts (§13), the header's symbols= and
// edges= (§3.2) and the summary's edges= (§13.2).
func (v *validator) graph(f *File) {
	var session, delta, unchanged bool
	hdrSymbols, hdrEdges := int64(-1), int64(-1)
	for _, fl := range f.Header.Fields {
		switch fl.Key {
		case "session":
			session = fl.Value == "true"
		case "delta":
			delta = fl.Value == "true"
		case "unchanged":
			unchanged = fl.Value == "true"
		case "symbols":
			if c, ok := grammar.ParseCount(fl.Value); ok && c >= 0 {
				hdrSymbols = c
			}
		case "edges":
			if c, ok := grammar.ParseCount(fl.Value); ok && c >= 0 {
				hdrEdges = c
			}
		}
	}
	var symbols, edges, added int64
	deferredEdges := int64(-1)
	ids := map[int64]bool{}
	declared := func(id int64) bool {
		if session {
			return ids[id]
		}
		return id < symbols
	}
	deferredGroups := 0
	for _, g := range f.Graph.Groups {
		if g.Rejected {
			continue
		}
		if g.Count == Deferred {
			deferredGroups++
		}
		for _, l := range g.Lines {
			switch x := l.(type) {
			case *Symbol:
				id := x.ID.Value
				switch {
				case x.Distance != nil:
					if id != added {
						v.add(right(x.ID.Pos, 1), lexer.InvalidSymbolID, "## added ids are sequential from 0")
					}
					added++
					continue
				case !session && id != symbols:
					v.add(right(x.ID.Pos, 1), lexer.InvalidSymbolID, "symbol id @"+strconv.FormatInt(id, 10)+
						" is not the next sequential id @"+strconv.FormatInt(symbols, 10))
				case session && ids[id]:
					v.add(right(x.ID.Pos, 1), lexer.InvalidSymbolID, "symbol id @"+strconv.FormatInt(id, 10)+" is declared twice")
				}
				ids[id] = true
				symbols++
			case *Edge:
				switch {
				case !declared(x.Target.Value):
					v.add(right(x.Target.Pos, 1), lexer.UnknownEdgeReference, "edge target @"+strconv.FormatInt(x.Target.Value, 10)+" is not a declared symbol")
				case !declared(x.Source.Value):
					v.add(right(x.Source.Pos, 1), lexer.UnknownEdgeReference, "edge source @"+strconv.FormatInt(x.Source.Value, 10)+" is not a declared symbol")
				}
				edges++
			}
		}
		seen := int64(len(g.Lines))
		if g.Count >= 0 && seen != g.Count {
			at := g.End
			if seen > g.Count {
				// Too many lines: the first surplus line, as the pull
				// decoder reports it (docs/spec-notes.md "Where errors point").
				at = g.Lines[g.Count].Position()
			}
			v.add(at, lexer.CountMismatch, "group on line "+strconv.Itoa(g.Pos.Line)+" declares "+
				strconv.FormatInt(g.Count, 10)+" lines but has "+strconv.FormatInt(seen, 10))
		}
		if g.Count == Deferred && g.Name == "edges" && !delta {
			if deferredEdges < 0 {
				deferredEdges = 0
			}
			deferredEdges += seen
		}
	}
	if !delta && !unchanged {
		if hdrSymbols >= 0 && hdrSymbols != symbols {
			v.add(f.Graph.End, lexer.CountMismatch, "header declares symbols="+strconv.FormatInt(hdrSymbols, 10)+
				" but the payload has "+strconv.FormatInt(symbols, 10))
		}
		if hdrEdges >= 0 && hdrEdges != edges {
			v.add(f.Graph.End, lexer.CountMismatch, "header declares edges="+strconv.FormatInt(hdrEdges, 10)+
				" but the payload has "+strconv.FormatInt(edges, 10))
		}
	}
	if f.Summary == nil {
		v.unconfirmed(deferredGroups)
	}
	if s := f.Summary; s != nil && !s.Rejected {
		v.summaryFields(s)
		for _, fl := range s.Fields {
			c, ok := grammar.ParseCount(fl.Value)
			if !ok || c < 0 {
				continue
			}
			switch fl.Key {
			case "edges":
				if deferredEdges >= 0 && c != deferredEdges {
					v.add(s.Pos, lexer.CountMismatch, "summary edges="+fl.Value+" but the [?] edges section has "+strconv.FormatInt(deferredEdges, 10))
				}
			case "symbols":
				if hdrSymbols < 0 && c != symbols {
					v.add(s.Pos, lexer.CountMismatch, "summary symbols="+fl.Value+" but the payload has "+strconv.FormatInt(symbols, 10))
				}
			}
		}
	}
}
