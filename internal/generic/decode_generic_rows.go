package generic

import (
	"encoding/binary"
	"math/bits"

	"github.com/gcfkit/gcf/lexer"
)

// The direct row path of DecodeGeneric's builder: a row of a plain table
// (the stream's AtRow) is read without an event, its cells converted as
// cell converts them while they are found (scanCells) and the row's
// Object built from them: a flat table's cells are written straight into
// the row's members. A row the plain scan does not take is read by
// the stream's ReadRow and built from its cells as an event's would be, so
// a payload decodes and fails the same way on either path.

// DirectRows turns DecodeGeneric's direct rows on (the default) or off (every
// row read as an event), for the tests that hold the two paths equal; it
// is read once per table, and is not for concurrent use with a decode.
var DirectRows = true

// genDirectRow reads the next line as a row of the innermost table when
// the stream reports one (AtRow) and returns its object, without its
// attachments; ok false when the next line is not such a row (nothing is
// read: it is left for Read).
func (b *builder) genDirectRow(p *tablePlan) (row Object, ok bool, err error) {
	body, plain, ok, err := b.d.RawRow()
	if err != nil || !ok {
		return nil, false, err
	}
	if plain && len(p.fieldNames) <= 64 {
		want := len(p.fieldNames)
		if p.flat {
			// The cells go straight into the row's members.
			slab := b.slab
			out := b.members(want)[:want]
			if id, marks, fits := b.scanCells(p, body, out, false); fits && b.d.CommitRow(want, id, marks) {
				for n := range out {
					out[n].Key = p.fieldNames[n]
				}
				if b.genAbsent != 0 {
					k := 0
					for n := range out {
						if b.genAbsent&(1<<n) == 0 {
							out[k] = out[n]
							k++
						}
					}
					out = out[:k]
				}
				return out, true, nil
			}
			b.slab = slab // the room is left for the next row
		} else {
			if cap(b.genCells) < want {
				b.genCells = make([]Member, want)
			}
			out := b.genCells[:want]
			if id, marks, fits := b.scanCells(p, body, out, false); fits && b.d.CommitRow(want, id, marks) {
				row = b.members(len(p.cols))
				for _, c := range p.cols {
					if v, st := b.genEvalVals(c, out); st != cellAbsent {
						row = append(row, Member{Key: c.name, Value: v})
					}
				}
				return row, true, nil
			}
		}
	}
	cells, ok, err := b.d.ReadRow()
	if err != nil || !ok {
		return nil, false, err
	}
	if p.flat {
		row, err = b.flatRow(p, cells, 0)
		return row, err == nil, err
	}
	row = b.members(len(p.cols))
	for _, c := range p.cols {
		v, st, err := b.eval(p, c, cells)
		if err != nil {
			return nil, false, err
		}
		if st != cellAbsent {
			row = append(row, Member{Key: c.name, Value: v})
		}
	}
	return row, true, nil
}

// genEvalVals is eval on the values scanCells converted into out.
func (b *builder) genEvalVals(c *column, out []Member) (any, cellState) {
	if c.col >= 0 {
		switch bit := uint64(1) << c.col; {
		case b.genAbsent&bit != 0:
			return nil, cellAbsent
		case b.genNull&bit != 0:
			return nil, cellNull
		}
		return out[c.col].Value, cellValue
	}
	obj := b.members(len(c.children))
	allAbsent, allNull := true, true
	for _, ch := range c.children {
		v, st := b.genEvalVals(ch, out)
		if st != cellAbsent {
			allAbsent = false
			obj = append(obj, Member{Key: ch.name, Value: v})
		}
		if st != cellNull {
			allNull = false
		}
	}
	switch {
	case allAbsent:
		return nil, cellAbsent
	case allNull:
		return nil, cellNull
	}
	return b.objs.Box(obj), cellValue
}

// scanCells reads the cells of line, a row of the table of plan p, into
// the values of out (one member per column, at most 64) as cell converts
// them (integers as encoding/json's float64 when jsonInts: the map
// builder's), and the absent and null columns into the builder's genAbsent
// and genNull bits; both builders' direct rows read their cells here. The
// line is one the stream's RawRow reported may be plain: scanCells checks
// its bytes as it reads them and finds and classifies each cell as the
// stream's plain row scanner does (fastCells: the same tokens, the same
// kinds). It returns the row's id (-1 without `@N `) and its bare `^`
// marker columns, for the stream's CommitRow; ok false at anything else
// (a token the plain path leaves to the general scanner, a width that is
// not the declaration's): the row is then read by ReadRow.
func (b *builder) scanCells(p *tablePlan, line []byte, out []Member, jsonInts bool) (id int64, marks uint64, ok bool) {
	want := len(out) // at most 64
	var absent, null uint64
	i := 0
	id = -1
	if len(line) > 0 && line[0] == '@' {
		j := 1
		var v int64
		for j < len(line) && line[j] >= '0' && line[j] <= '9' && j <= 18 {
			v = v*10 + int64(line[j]-'0')
			j++
		}
		if j == 1 || j >= len(line) || line[j] != ' ' {
			return 0, 0, false
		}
		id, i = v, j+1
	}
	for n := 0; ; n++ {
		if n == want || i >= len(line) {
			return 0, 0, false
		}
		start := i
		c := line[i]
		if c >= '0' && c <= '9' || c == '-' {
			j := i
			if c == '-' {
				j++
			}
			digits := j
			var u uint64
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				u = u*10 + uint64(line[j]-'0')
				j++
			}
			nd := j - digits
			if nd > 0 && nd <= 18 && (line[digits] != '0' || nd == 1) && (j == len(line) || line[j] == '|') {
				v := int64(u)
				if c == '-' {
					v = -v
				}
				out[n].Value = b.cellInt(v, jsonInts)
				i = j
				goto next
			}
			if nd > 0 && nd <= 300 && (line[digits] != '0' || nd == 1) && j+1 < len(line) && line[j] == '.' {
				k := j + 1
				mant := u
				for k < len(line) && line[k] >= '0' && line[k] <= '9' {
					mant = mant*10 + uint64(line[k]-'0') // meaningful with 15 digits or fewer
					k++
				}
				if k > j+1 && (k == len(line) || line[k] == '|') {
					var f float64
					if fd := k - j - 1; nd+fd <= 15 {
						// mant < 10^15 < 2^53 and 10^fd are exact, and the
						// quotient is correctly rounded: the value
						// lexer.ParseFloat gives.
						f = float64(mant) / pow10[fd]
						if c == '-' {
							f = -f
						}
					} else {
						var err error
						if f, err = lexer.ParseFloat(line[start:k]); err != nil {
							return 0, 0, false
						}
					}
					out[n].Value = b.floats.Box(f)
					i = k
					goto next
				}
			}
		} else if c == '^' {
			if j := i + 1; (j == len(line) || line[j] == '|') && n < 64 {
				marks |= 1 << n
				out[n].Value = nil // the attachment fills it
				i = j
				goto next
			}
			return 0, 0, false
		} else if c == ' ' {
			return 0, 0, false
		}
		// Any other token runs to the next '|' (the line is plain: its
		// bytes are checked here, as RawRow asks; the others are digits,
		// '-', '.', '^', '@', ' ' and '|').
		for i+8 <= len(line) {
			x := binary.LittleEndian.Uint64(line[i:])
			if notPlain(x) {
				return 0, 0, false
			}
			if m := pipeMask(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto end
			}
			i += 8
		}
		for ; i < len(line) && line[i] != '|'; i++ {
			if c := line[i]; c < 0x20 || c >= 0x7f || c == '"' {
				return 0, 0, false
			}
		}
	end:
		if i == start || line[i-1] == ' ' {
			return 0, 0, false
		}
		{
			tok := line[start:i]
			switch {
			case c == 't' && string(tok) == "true":
				out[n].Value = true
			case c == 'f' && string(tok) == "false":
				out[n].Value = false
			case c >= '0' && c <= '9' || c == '-' || c == '~':
				var s lexer.Scalar
				if lexer.ClassifyPlainInto(&s, tok) != nil {
					return 0, 0, false
				}
				switch s.Kind {
				case lexer.KindMissing:
					out[n].Value = nil
					absent |= 1 << n
				case lexer.KindNull:
					out[n].Value = nil
					null |= 1 << n
				case lexer.KindInt:
					out[n].Value = b.cellInt(s.Int, jsonInts)
				case lexer.KindFloat:
					f, err := lexer.ParseFloat(tok)
					if err != nil {
						return 0, 0, false
					}
					out[n].Value = b.floats.Box(f)
				case lexer.KindString:
					out[n].Value = b.internString(p, n, tok)
				default:
					return 0, 0, false
				}
			default:
				out[n].Value = b.internString(p, n, tok)
			}
		}
	next:
		if i == len(line) {
			if n+1 != want {
				return 0, 0, false
			}
			b.genAbsent, b.genNull = absent, null
			return id, marks, true
		}
		i++ // the delimiter
	}
}

// cellInt boxes a row's integer cell as the builder stores it: the map
// builder's float64 (number) when jsonInts, else int64 (int).
func (b *builder) cellInt(v int64, jsonInts bool) any {
	if jsonInts {
		return b.number(v)
	}
	return b.int(v)
}
