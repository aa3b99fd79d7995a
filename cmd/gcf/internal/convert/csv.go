package convert

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"

	"github.com/gcfkit/gcf"
)

// fromCSV writes the CSV document in data (RFC 4180, as encoding/csv reads
// it) as a JSON array of objects: the first row names the fields, every
// other row is one object with those keys in that order, and every value is
// a string (CSV has no types; "007" stays "007"). A row with another number
// of fields, or a repeated field name, is refused; a leading UTF-8 byte
// order mark is dropped.
func fromCSV(w *writer, data []byte) error {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	r.ReuseRecord = true
	header, err := r.Read()
	if err == io.EOF {
		w.buf.WriteString("[]")
		return nil
	}
	if err != nil {
		return csvError(err)
	}
	header = append([]string(nil), header...)
	seen := make(map[string]bool, len(header))
	for _, h := range header {
		if seen[h] {
			return errAt(1, 1, 0, gcf.DuplicateKey, "CSV: the header row names the field %q twice", h)
		}
		seen[h] = true
	}
	if err := w.open('['); err != nil {
		return err
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return csvError(err)
		}
		if err := w.open('{'); err != nil {
			return err
		}
		for i, f := range rec {
			if err := w.key(header[i]); err != nil {
				return err
			}
			if err := w.scalar(f); err != nil {
				return err
			}
		}
		w.close('}')
	}
	w.close(']')
	return nil
}

// csvError places an error from encoding/csv at its line:column.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = "a row with another number of fields than the header row"
		}
		return errAt(pe.Line, max(pe.Column, 1), 0, "", "CSV: %s", msg)
	}
	return errAt(0, 0, 0, "", "CSV: %v", err)
}
