package proxy

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"strings"

	"github.com/gcfkit/gcf"
	"github.com/gcfkit/gcf/cmd/gcf/internal/convert"
)

// GCFMediaType is the media type of SPEC §18, which a converted resource
// block declares in place of the one it had.
const GCFMediaType = "application/vnd.gcf+text"

// FormConverted prefixes the form of a block converted from another format
// ("gcf-from-yaml").
const FormConverted = "gcf-from-"

// FormatOfMediaType returns the input format (yaml, toml, csv, msgpack)
// that a resource's declared media type names, or "" for any other type:
// the proxy never guesses a format from the text itself.
func FormatOfMediaType(mt string) string {
	base, _, err := mime.ParseMediaType(mt)
	if err != nil {
		return ""
	}
	switch base {
	case "application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml":
		return "yaml"
	case "application/toml", "text/toml":
		return "toml"
	case "text/csv":
		return "csv"
	case "application/msgpack", "application/x-msgpack", "application/vnd.msgpack":
		return "msgpack"
	}
	return ""
}

// ParseConvert parses a -convert value, TOOL=FORMAT, where FORMAT is yaml,
// toml, csv or msgpack.
func ParseConvert(s string) (tool, format string, ok bool) {
	tool, format, ok = strings.Cut(s, "=")
	format = strings.ToLower(format)
	if !ok || tool == "" || format == "json" || !convert.Known(format) {
		return "", "", false
	}
	return tool, format, true
}

// Convert returns GCF (generic profile) for data, a document in format
// (yaml, toml, csv, msgpack) that went out as sent, when it costs fewer
// tokens than sent; ok is false when the block is left alone: the format
// is JSON (relay only), data does not convert, or GCF is not cheaper. The
// choice's Form is "" when data does not convert.
func (r *Rewriter) Convert(data []byte, format, sent string) (out string, c Choice, ok bool) {
	if r.Format == JSON {
		return "", Choice{}, false
	}
	js, err := convert.ToJSON(format, data, convert.Limits{MaxBytes: r.MaxBytes})
	if err != nil {
		return "", Choice{}, false
	}
	var opts []gcf.Option
	if r.MaxBytes > 0 {
		opts = append(opts, gcf.WithMaxBytes(r.MaxBytes))
	}
	v, err := gcf.ParseJSON(js, opts...)
	if err != nil {
		return "", Choice{}, false
	}
	cnt := r.counter()
	opts = r.genericOptions(opts, cnt)
	before := cnt.Count(sent)
	enc, err := gcf.EncodeGeneric(v, opts...)
	if err != nil {
		return "", Choice{}, false
	}
	if n := cnt.CountBytes(enc); n < before {
		return string(enc), Choice{Form: FormConverted + format, Before: before, After: n}, true
	}
	return "", Choice{Form: FormText, Before: before, After: before}, false
}

// convertResource converts an embedded resource block (bm, its members)
// whose mimeType declares a format of package convert, text or blob, into
// a text resource of type GCFMediaType, when GCF is cheaper.
func (p *Proxy) convertResource(bm []member) (Choice, bool) {
	rm, err := members(get(bm, "resource"))
	if err != nil {
		return Choice{}, false
	}
	var mt string
	if json.Unmarshal(get(rm, "mimeType"), &mt) != nil {
		return Choice{}, false
	}
	format := FormatOfMediaType(mt)
	if format == "" {
		return Choice{}, false
	}
	var text, blob string
	var data []byte
	switch {
	case json.Unmarshal(get(rm, "text"), &text) == nil && get(rm, "text") != nil:
		data = []byte(text)
	case json.Unmarshal(get(rm, "blob"), &blob) == nil && get(rm, "blob") != nil:
		if data, err = base64.StdEncoding.DecodeString(blob); err != nil {
			return Choice{}, false
		}
		text = blob // what went out: the base64 text
	default:
		return Choice{}, false
	}
	out, c, ok := p.opts.Convert(data, format, text)
	if !ok {
		return c, false
	}
	var kept []member
	for _, m := range rm {
		switch m.key {
		case "blob", "text":
			continue
		case "mimeType":
			m.value = quoteJSON(GCFMediaType)
		}
		kept = append(kept, m)
	}
	kept = append(kept, member{key: "text", value: quoteJSON(out)})
	set(bm, "resource", object(kept))
	return c, true
}
