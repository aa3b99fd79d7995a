package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
)

// member is one member of a JSON object, its value as the original bytes.
type member struct {
	key   string
	value json.RawMessage
}

var errNotObject = errors.New("not a JSON object")

// members splits a JSON object into its members, in order, keeping each
// value's bytes as they are.
func members(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	var ms []member
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{key: k.(string), value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return ms, nil
}

// get returns the value of the member key, or nil.
func get(ms []member, key string) json.RawMessage {
	for _, m := range ms {
		if m.key == key {
			return m.value
		}
	}
	return nil
}

// set replaces the value of the member key (which must exist).
func set(ms []member, key string, v json.RawMessage) {
	for i := range ms {
		if ms[i].key == key {
			ms[i].value = v
			return
		}
	}
}

// object writes members back as a JSON object.
func object(ms []member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(quoteJSON(m.key))
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// isArray reports whether raw (without leading white space) is a JSON array.
func isArray(raw []byte) bool {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	return len(raw) > 0 && raw[0] == '['
}

// envelope is what the relay reads of a JSON-RPC message to route it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// idKey is the key of a request id in the table of calls in flight: its
// bytes less surrounding white space (1 and "1" are different ids).
func idKey(id json.RawMessage) string {
	return string(bytes.TrimSpace(id))
}

// hasID reports whether id is present and not null.
func hasID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	return len(id) > 0 && !bytes.Equal(id, []byte("null"))
}
