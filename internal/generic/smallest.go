package generic

import (
	"github.com/gcfkit/gcf/encoder"
	"github.com/gcfkit/gcf/internal/options"
)

// Size selects how EncodeGeneric lays out a value: in the one canonical
// form every conformant encoder writes byte for byte, or in the form that
// costs the fewest tokens.
type Size = options.Size

const (
	// Canonical is the layout of SPEC §7.11 (the default): byte-identical
	// with every conformant encoder.
	Canonical Size = iota
	// Smallest chooses, per container, among the forms every conformant
	// decoder reads to the same value, the one the cost model (WithCost)
	// prices lowest: keyed table or `##` sections for an object whose
	// values are objects (SPEC §7.2, §7.2a, also for a single member),
	// tabular or expanded form for an array of objects (§7.3, §7.6),
	// `>` path columns or attachments for a nested object in a table
	// (§7.4.4, §7.4.6), and `name[0]:` or `## name [0]` for an empty array
	// member (§4 inline-array, §4.2); an inline object schema or `.f {}`
	// attachments (§7.4.5.1); and a shared array schema from row 0 for the
	// later arrays that fit it, each other one with its own declaration
	// (§7.4.5.3). The whole result is never priced above the canonical layout:
	// when it would be, that layout is returned. The output is not
	// byte-identical across implementations; see docs/smallest.md.
	Smallest
)

// WithSize selects the layout of EncodeGeneric and AppendGeneric
// (default Canonical). Decoders and the graph profile ignore it.
func WithSize(s Size) Option { return func(c *options.Config) { c.Size = s } }

// WithCost sets the cost model of WithSize(Smallest): cost returns the
// price of a piece of GCF text, normally its token count under the model's
// tokenizer (for o200k_base: tokens.MustNew(tokens.O200kBase).Count). The
// default, nil, is EstimateTokens. Two alternatives whose estimates differ
// by a quarter or more are ranked by EstimateTokens without calling cost.
// Other sizes ignore it.
func WithCost(cost func(string) int) Option { return func(c *options.Config) { c.Cost = cost } }

// sizeTrialRows is the most rows (members of a keyed map, elements of an
// array) a table may have for the Smallest size to price its alternative
// forms by encoding them; larger tables keep the table form and their
// flattened columns, which are then cheaper by construction (a header is
// written once, what it saves is saved on every row) unless most cells
// would be `~` (see sizer.tabular). sizer.full lifts this bound, and a
// test checks that it changes no choice on the corpus.
const sizeTrialRows = 16

// sizer makes the layout decisions of the Smallest size: it is the
// encoder's layoutPolicy, asked through keyedOK, tabularOK, newPlan,
// factor, members and attach; it prices
// the alternatives by encoding each into a scratch buffer with a nested
// encoder that asks the same sizer, and remembers every decision, keyed by
// the container's identity, so that a container is decided once however
// often it is encoded.
type sizer struct {
	cost     func(string) int
	lim      Limits
	v353     bool // WithSpec(Spec353): no constant columns
	full     bool // price every alternative, whatever the table size (tests)
	screen   bool // rank clearly different texts by the estimate (see cheaper)
	tab      map[sizeKey]bool
	keyedMap map[sizeKey]bool
	flat     map[sizeKey]bool
	inl      map[sizeKey]bool
	fac      map[sizeKey]bool
	empty    map[string]bool
	deviated bool         // some decision differs from the canonical one
	root     sizeKey      // the root container: its alternatives are priced unindented
	budget   int          // bytes of alternatives still to be priced (see trialBudget)
	active   []*geEncoder // the pricing encoders at work, outermost first
}

// trialBudget bounds the bytes of alternatives one encode prices. Each
// container's alternatives include its whole subtree, so a deep chain of
// containers above a large one would price that one once per level; past
// the budget the remaining decisions are the canonical ones. 16 MiB is a
// few seconds of o200k counting.
const trialBudget = 16 << 20

// sizeKey identifies a container of the value being encoded (its first
// element and length) and, for flattening, one field of it.
type sizeKey struct {
	a *any
	o *Member
	n int
	f string
}

func newSizer(lim Limits, cost func(string) int) *sizer {
	screen := cost != nil
	if cost == nil {
		cost = EstimateTokens
	}
	lim.MaxBytes = 0 // checked on the result, not on the alternatives
	return &sizer{cost: cost, lim: lim, tab: map[sizeKey]bool{}, keyedMap: map[sizeKey]bool{},
		flat: map[sizeKey]bool{}, inl: map[sizeKey]bool{}, fac: map[sizeKey]bool{}, empty: map[string]bool{}, budget: trialBudget, screen: screen}
}

// setRoot records the root container of the value being encoded.
func (s *sizer) setRoot(v any) {
	switch x := v.(type) {
	case Object:
		if len(x) > 0 {
			s.root = sizeKey{o: &x[0], n: len(x)}
		}
	case []any:
		if len(x) > 0 {
			s.root = sizeKey{a: &x[0], n: len(x)}
		}
	}
}

// indent is the indentation at which the alternatives of container k are
// priced: 0 at the root, 1 elsewhere. An indentation costs about one token
// a line whatever its depth, so one level stands for all.
func (s *sizer) indent(k sizeKey) int {
	if k.a == s.root.a && k.o == s.root.o && k.n == s.root.n {
		return 0
	}
	return 1
}

// minKeyed: one member may make a keyed table (SPEC §7.2a; only `[0:]` is
// an error), which keyed prices.
func (s *sizer) minKeyed() int { return 1 }

// shared decides whether field f of a table writes its later array
// attachments under the shared array schema row 0 establishes (SPEC
// §7.4.5.3). The canonical encoder shares only when every later array fits
// the schema, as the reference SDK does; the Smallest size shares whenever
// row 0 writes a tabular array of flat records for f, and writes a later
// array that does not fit with its own declaration (sharedFits), which
// every decoder reads as that array's alone. rowZeroSafe has already kept
// a later non-empty array from taking expanded form under the schema.
func (s *sizer) shared(e *geEncoder, src geRows, f string, fi int) bool {
	v, ok, _ := geLookup(src.at(0), f, fi)
	if !ok {
		return false
	}
	first, ok := v.([]any)
	return ok && geFlatRecords(first) && e.tabularOK(first)
}

// sharedFits reports whether array x, a later row's attachment for field
// fi of a table whose field shares row 0's schema, is written without its
// declaration: flat records with row 0's field union.
func (s *sizer) sharedFits(src geRows, f string, fi int, x []any) bool {
	v, _, _ := geLookup(src.at(0), f, fi)
	first, _ := v.([]any)
	return geFlatRecords(x) && geSameUnion(first, x)
}

// appendSmallest is AppendGeneric for the Smallest size.
func appendSmallest(dst []byte, v any, lim Limits, cost func(string) int, v353 bool) ([]byte, error) {
	s := newSizer(lim, cost)
	s.v353 = v353
	return s.append(dst, v, lim)
}

func (s *sizer) append(dst []byte, v any, lim Limits) ([]byte, error) {
	start := len(dst)
	out, err := appendLayout(dst, v, lim, s, s.v353)
	if err != nil {
		// A limit the chosen layout breaks and the canonical one may not
		// (a deeper nesting of sections, say): the canonical encoding, or
		// its error.
		return appendGeneric(out[:start], v, lim, s.v353, false)
	}
	if !s.deviated {
		return out, nil // every decision was the canonical one
	}
	canon, err := appendGeneric(nil, v, lim, s.v353, true)
	if err == nil && s.cheaper(string(canon), string(out[start:]), false) {
		return append(out[:start], canon...), nil
	}
	return out, nil
}

// render encodes with write into a scratch buffer and returns the text,
// or ok false if that fails (a limit, invalid UTF-8, the budget).
func (s *sizer) render(write func(e *geEncoder) error) (text string, ok bool) {
	e := getGE()
	e.pol, e.lim, e.v353 = s, encoder.NewLimiter(s.lim), s.v353
	bb := encoder.GetBuffer()
	e.buf = bb.B[:0]
	e.lim.BeginBudget(0, max(s.budget, 0))
	s.active = append(s.active, e)
	if err := write(e); err == nil && !e.invalid {
		text, ok = string(e.buf), true
	}
	s.active = s.active[:len(s.active)-1]
	s.budget -= len(e.buf)
	// The encoders still at work wrote their bytes before this one ran:
	// they may go on only as far as the budget left.
	for _, a := range s.active {
		a.lim.SetEnd(len(a.buf) + max(s.budget, 0))
	}
	bb.B = e.buf
	putGE(e)
	encoder.PutBuffer(bb)
	return text, ok
}

// cheaper reports whether text a costs less than b (tie: on equal cost).
// With a cost model other than the estimate, two texts whose estimates
// differ by a quarter or more are ranked by the estimate alone: a real
// tokenizer is slow on them (o200k_base spends time quadratic in the
// length of a run of punctuation such as a row of `~` cells), and the
// tests show the estimate ranks them as the tokenizer does.
func (s *sizer) cheaper(a, b string, tie bool) bool {
	if s.screen {
		ea, eb := EstimateTokens(a), EstimateTokens(b)
		if 4*ea <= 3*eb {
			return true
		}
		if 4*eb <= 3*ea {
			return false
		}
	}
	ca, cb := s.cost(a), s.cost(b)
	return ca < cb || ca == cb && tie
}

// decide prices the two forms of a container, memo[k] set to true then to
// false while each is encoded, and records the cheaper, canonical winning
// ties.
func (s *sizer) decide(memo map[sizeKey]bool, k sizeKey, canonical bool, write func(e *geEncoder) error) bool {
	if s.budget <= 0 {
		memo[k] = canonical
		return canonical
	}
	memo[k] = true
	yes, yok := s.render(write)
	memo[k] = false
	no, nok := s.render(write)
	var choice bool
	switch {
	case !yok && !nok || s.budget < 0:
		choice = canonical // neither priced, or the budget ran out on the way
	case !yok || !nok:
		choice = yok
	default:
		choice = s.cheaper(yes, no, canonical)
	}
	memo[k] = choice
	if choice != canonical {
		s.deviated = true
	}
	return choice
}

// tabular decides whether an array that may be tabular (SPEC §7.3 rule 3)
// is written tabular or expanded (SPEC §7.6), which every decoder reads
// alike: a block header without a field declaration has an expanded body.
func (s *sizer) tabular(a []any) bool {
	// Settled tables are not remembered: checking again is cheaper than a
	// map for the many small tables of a large document.
	if !s.full && tableSettled(geRows{arr: a}) {
		return true
	}
	k := sizeKey{a: &a[0], n: len(a)}
	if c, ok := s.tab[k]; ok {
		return c
	}
	d := s.indent(k)
	return s.decide(s.tab, k, true, func(e *geEncoder) error {
		e.buf = encoder.AppendIndent(e.buf, d)
		e.buf = encoder.AppendSectionMark(e.buf)
		if s.tab[k] {
			return e.table(geRows{arr: a}, d, tabOwn)
		}
		if err := e.count(len(a), false); err != nil {
			return err
		}
		if err := e.nl(); err != nil {
			return err
		}
		return e.items(a, d)
	})
}

// keyed decides whether an object whose values are objects is written as
// a keyed table (SPEC §7.2a; also with one member, which decoders accept:
// only `[0:]` is an error) or in section form (SPEC §7.2).
func (s *sizer) keyed(o Object) bool {
	canonical := len(o) >= 2
	if !s.full && canonical && tableSettled(geRows{obj: o, keyed: true}) {
		return true
	}
	k := sizeKey{o: &o[0], n: len(o)}
	if c, ok := s.keyedMap[k]; ok {
		return c
	}
	d := s.indent(k)
	return s.decide(s.keyedMap, k, canonical, func(e *geEncoder) error {
		e.buf = encoder.AppendIndent(e.buf, d)
		if s.keyedMap[k] {
			e.buf = encoder.AppendSectionMark(e.buf)
			return e.table(geRows{obj: o, keyed: true}, d, tabOwn)
		}
		if d == 0 {
			return e.members(o, 0) // the root object: no section line
		}
		e.buf = append(encoder.AppendSectionMark(e.buf), 'k')
		if err := e.nl(); err != nil {
			return err
		}
		return e.members(o, d+1)
	})
}

// flatten decides whether field f of a table, which SPEC §7.4.6 allows to
// flatten, becomes `>` path columns or stays one column of attachments.
func (s *sizer) flatten(src geRows, f string) bool {
	k := sizeKey{n: src.len(), f: f}
	if src.keyed {
		k.o = &src.obj[0]
	} else {
		k.a = &src.arr[0]
	}
	if c, ok := s.flat[k]; ok {
		return c
	}
	if !s.full && flatSettled(src, f) {
		s.flat[k] = true
		return true
	}
	d := s.indent(sizeKey{a: k.a, o: k.o, n: k.n})
	return s.decide(s.flat, k, true, func(e *geEncoder) error {
		e.buf = encoder.AppendIndent(e.buf, d)
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.table(src, d, tabOwn)
	})
}

// inline decides whether field f of a table, which may take inline object
// schemas (SPEC §7.4.5.1: `^{fields}` in row 0, one positional body line a
// row), does, or keeps `.f {}` attachments.
func (s *sizer) inline(src geRows, f string) bool {
	k := sizeKey{n: src.len(), f: f}
	if src.keyed {
		k.o = &src.obj[0]
	} else {
		k.a = &src.arr[0]
	}
	if c, ok := s.inl[k]; ok {
		return c
	}
	if !s.full && src.len() > sizeTrialRows {
		s.inl[k] = true // a body line a row against a section a row
		return true
	}
	d := s.indent(sizeKey{a: k.a, o: k.o, n: k.n})
	return s.decide(s.inl, k, true, func(e *geEncoder) error {
		e.buf = encoder.AppendIndent(e.buf, d)
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.table(src, d, tabOwn)
	})
}

// factor decides whether a table whose constant columns canonical output
// factors (spec v3.6.0 §7.4.7) does, or keeps them in its rows, which
// every v3.6 decoder reads alike. Above sizeTrialRows rows factoring is
// settled: a value written once against a cell a row.
func (s *sizer) factor(src geRows) bool {
	k := sizeKey{n: src.len()}
	if src.keyed {
		k.o = &src.obj[0]
	} else {
		k.a = &src.arr[0]
	}
	if c, ok := s.fac[k]; ok {
		return c
	}
	if !s.full && src.len() > sizeTrialRows {
		s.fac[k] = true
		return true
	}
	d := s.indent(k)
	return s.decide(s.fac, k, true, func(e *geEncoder) error {
		e.buf = encoder.AppendIndent(e.buf, d)
		e.buf = encoder.AppendSectionMark(e.buf)
		return e.table(src, d, tabOwn)
	})
}

// emptyInline decides whether an empty array member named key is written
// `key[0]:` (the SPEC §4 inline-array production with no values, which
// SPEC §4.2 spells out) rather than `## key [0]`.
func (s *sizer) emptyInline(key string) bool {
	if c, ok := s.empty[key]; ok {
		return c
	}
	k := encoder.AppendKey(nil, key)
	inline := s.cost(string(k)+"[0]:\n") < s.cost(string(encoder.AppendSection(nil, key))+"[0]\n")
	s.empty[key] = inline
	if inline {
		s.deviated = true
	}
	return inline
}

// flatSettled reports whether flattening field f of a table is known to
// cost less than attachments without pricing both: the table has more than
// sizeTrialRows rows and the field is absent from at most as many rows as
// it is present in. A present object saves, flattened, its attachment
// line, the `@i` row prefix and each member's indentation, key and line
// end; an absent one costs a `~` cell per leaf instead of one.
func flatSettled(src geRows, f string) bool {
	n := src.len()
	if n <= sizeTrialRows {
		return false
	}
	absent := 0
	for i := 0; i < n; i++ {
		if _, ok := src.at(i).Get(f); !ok {
			absent++
		}
	}
	return 2*absent <= n
}

// tableSettled reports whether a table is large enough and dense enough
// that its table form is known to cost less than the alternatives without
// pricing them: more than sizeTrialRows rows, of which fewer than a quarter
// of the cells would be `~`; or every row with the same keys in the same
// order and only scalar values, where the table writes each key once and
// the alternatives once per row.
func tableSettled(src geRows) bool {
	n := src.len()
	first := src.at(0)
	uniform, scalar := true, true
	present := 0
	for i := 0; i < n; i++ {
		row := src.at(i)
		present += len(row)
		if uniform && len(row) != len(first) {
			uniform = false
		}
		for j := range row {
			if uniform && row[j].Key != first[j].Key {
				uniform = false
			}
			if scalar && geIsContainer(row[j].Value) {
				scalar = false
			}
		}
	}
	if uniform && scalar {
		return true
	}
	if n <= sizeTrialRows {
		return false
	}
	if uniform {
		return true
	}
	seen := make(map[string]struct{}, len(first))
	for i := 0; i < n; i++ {
		for _, m := range src.at(i) {
			seen[m.Key] = struct{}{}
		}
	}
	absent := n*len(seen) - present
	return absent*3 < present
}

// EstimateTokens estimates the number of tokens a byte-pair tokenizer of
// the o200k_base family splits s into, from its bytes alone: it cuts s
// where such a tokenizer's pre-tokenizer does (letter runs split before an
// upper-case letter that follows a lower-case one, digits by threes,
// punctuation runs, white space) and prices long pieces by length. It is
// the default cost model of the Smallest size: fast (one pass, no
// allocation) and close enough to pick the forms real token counts pick
// on the documents the tests try; pass a real counter with WithCost where
// the exact count matters.
func EstimateTokens(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case estLetter(c):
			j := i
			for j < len(s) && estUpper(s[j]) {
				j++
			}
			for j < len(s) && estLetter(s[j]) && !estUpper(s[j]) {
				j++
			}
			if j == i { // cannot happen: c is a letter
				j++
			}
			n += 1 + (j-i-1)/7
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n++
			i = j
		case c == '\n' || c == '\r':
			j := i + 1
			for j < len(s) && (s[j] == '\n' || s[j] == '\r') {
				j++
			}
			n++
			i = j
		case c == ' ' || c == '\t':
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			// The last blank of a run joins the piece after it, if any.
			if j-i > 1 || j == len(s) || s[j] == '\n' || s[j] == '\r' {
				n++
			}
			i = j
		default:
			j := i + 1
			for j < len(s) && estPunct(s[j]) {
				j++
			}
			if j-i == 1 && j < len(s) && estLetter(s[j]) && c != '"' {
				// one mark before a word: its own token, mostly
				n++
				i = j
				continue
			}
			// A punctuation run is one piece, with the line ends after it;
			// the vocabulary merges most short runs (`","`, `]:`, `}`
			// plus LF) but not the GCF cell markers `~` and `^`, which
			// stay single tokens and split the run.
			k := i
			for p := i; p <= j; p++ {
				if p == j || s[p] == '~' || s[p] == '^' {
					if p > k {
						n += 1 + (p-k-1)/3
					}
					if p < j {
						n++
					}
					k = p + 1
				}
			}
			for j < len(s) && (s[j] == '\n' || s[j] == '\r') {
				j++
			}
			i = j
		}
	}
	return n
}

func estLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' || c == '_' || c >= 0x80 }
func estUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func estPunct(c byte) bool {
	return c > ' ' && c < 0x80 && !estLetter(c) && !(c >= '0' && c <= '9')
}
