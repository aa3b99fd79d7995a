package convert

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/pelletier/go-toml/v2"
)

// fromTOML writes the TOML document in data as JSON: tables are objects
// with their keys in byte order (the parser returns Go maps, which keep no
// order), offset date-times RFC 3339 strings, and local dates, times and
// date-times their RFC 3339 text (2006-01-02, 15:04:05, 2006-01-02T15:04:05);
// inf and nan are refused.
func fromTOML(w *writer, data []byte) error {
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			c := gcf.Category("")
			if strings.Contains(de.Error(), "already") {
				c = gcf.DuplicateKey
			}
			return errAt(line, col, 0, c, "TOML: %s", strings.TrimPrefix(de.Error(), "toml: "))
		}
		return errAt(0, 0, 0, "", "TOML: %s", strings.TrimPrefix(err.Error(), "toml: "))
	}
	return tomlValue(w, m, "$")
}

// tomlValue writes v, a value decoded from TOML at path.
func tomlValue(w *writer, v any, path string) error {
	var err error
	switch v := v.(type) {
	case map[string]any:
		if err := w.open('{'); err != nil {
			return err
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := w.key(k); err != nil {
				return err
			}
			if err := tomlValue(w, v[k], path+"."+k); err != nil {
				return err
			}
		}
		w.close('}')
		return nil
	case []any:
		if err := w.open('['); err != nil {
			return err
		}
		for i, e := range v {
			if err := tomlValue(w, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		w.close(']')
		return nil
	case []map[string]any:
		if err := w.open('['); err != nil {
			return err
		}
		for i, e := range v {
			if err := tomlValue(w, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		w.close(']')
		return nil
	case int64, float64, string, bool:
		err = w.scalar(v)
	case time.Time:
		err = w.scalar(v.Format(time.RFC3339Nano))
	case toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		err = w.scalar(fmt.Sprint(v))
	default:
		err = errAt(0, 0, 0, gcf.UnsupportedValue, "a %T has no JSON form", v)
	}
	var se *gcf.SyntaxError
	if errors.As(err, &se) && se.Line == 0 {
		se.Msg = "TOML: at " + path + ", " + se.Msg
	}
	return err
}
