package convert

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gcfkit/gcf"
	"github.com/goccy/go-yaml"
)

// fromYAML writes the one YAML document in data as JSON: mappings keep
// their key order, aliases and merge keys are resolved by the parser,
// scalar keys other than strings become their JSON text, timestamps
// (!!timestamp) RFC 3339 strings and !!binary its base64 text; a key that
// is a mapping or a sequence is refused.
func fromYAML(w *writer, data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data), yaml.UseOrderedMap())
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return errAt(0, 0, 0, "", "the input holds no YAML document")
		}
		return yamlError(err)
	}
	var more any
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		if err != nil {
			return yamlError(err)
		}
		return errAt(0, 0, 0, gcf.TrailingCharacters, "a second YAML document: -from yaml reads one document")
	}
	return yamlValue(w, v, "$")
}

// yamlError places an error from the YAML parser at its token.
func yamlError(err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) {
		c := gcf.Category("")
		var dk *yaml.DuplicateKeyError
		if errors.As(err, &dk) || strings.Contains(ye.GetMessage(), "already defined") {
			c = gcf.DuplicateKey
		}
		if t := ye.GetToken(); t != nil && t.Position != nil {
			return errAt(t.Position.Line, t.Position.Column, int64(t.Position.Offset), c, "YAML: %s", ye.GetMessage())
		}
		return errAt(0, 0, 0, c, "YAML: %s", ye.GetMessage())
	}
	if errors.Is(err, yaml.ErrExceededMaxDepth) {
		return errAt(0, 0, 0, gcf.DepthExceeded, "YAML: %v", err)
	}
	return errAt(0, 0, 0, "", "YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
}

// yamlValue writes v, a value decoded from YAML at path.
func yamlValue(w *writer, v any, path string) error {
	var err error
	switch v := v.(type) {
	case yaml.MapSlice:
		if err := w.open('{'); err != nil {
			return err
		}
		seen := make(map[string]bool, len(v))
		for _, it := range v {
			k, ok := yamlKey(it.Key)
			if !ok {
				return errAt(0, 0, 0, gcf.UnsupportedValue, "YAML: at %s, a key that is a %s: JSON keys are strings", path, kindOf(it.Key))
			}
			if seen[k] {
				return errAt(0, 0, 0, gcf.DuplicateKey, "YAML: at %s, two keys read as %q", path, k)
			}
			seen[k] = true
			if err := w.key(k); err != nil {
				return err
			}
			if err := yamlValue(w, it.Value, path+"."+k); err != nil {
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
			if err := yamlValue(w, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		w.close(']')
		return nil
	case int:
		err = w.scalar(int64(v))
	case int64, uint64, float64, string, bool, nil:
		err = w.scalar(v)
	case uint:
		err = w.scalar(uint64(v))
	case float32:
		err = w.scalar(float64(v))
	case time.Time:
		err = w.scalar(v.Format(time.RFC3339Nano))
	case []byte:
		err = w.scalar(base64.StdEncoding.EncodeToString(v))
	default:
		err = errAt(0, 0, 0, gcf.UnsupportedValue, "a %T has no JSON form", v)
	}
	var se *gcf.SyntaxError
	if errors.As(err, &se) && se.Line == 0 && !strings.HasPrefix(se.Msg, "YAML: ") {
		se.Msg = "YAML: at " + path + ", " + se.Msg
	}
	return err
}

// yamlKey is a mapping key as a JSON key: a string, or the JSON text of
// another scalar (200 -> "200", true -> "true", null -> "null").
func yamlKey(k any) (string, bool) {
	switch k := k.(type) {
	case string:
		return k, true
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(k), true
	case int:
		return strconv.Itoa(k), true
	case int64:
		return strconv.FormatInt(k, 10), true
	case uint64:
		return strconv.FormatUint(k, 10), true
	case float64:
		if math.IsInf(k, 0) || math.IsNaN(k) {
			return "", false
		}
		return strconv.FormatFloat(k, 'g', -1, 64), true
	case time.Time:
		return k.Format(time.RFC3339Nano), true
	}
	return "", false
}

// kindOf names the kind of a refused key.
func kindOf(v any) string {
	switch v.(type) {
	case yaml.MapSlice, map[string]any, map[any]any:
		return "mapping"
	case []any:
		return "sequence"
	}
	return fmt.Sprintf("%T", v)
}
