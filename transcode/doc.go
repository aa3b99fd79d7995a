// Package transcode turns GCF into JSON or NDJSON as a stream, in bounded
// memory: ToJSON prints what `gcf decode` has always printed, byte for
// byte, without reading the whole input first; ToNDJSON prints one JSON
// line per record and never drops one. The other way, EncodeJSON and
// EncodeJSONFrom write the canonical generic encoding of JSON text
// (gcf.EncodeGeneric(gcf.ParseJSON(...))'s bytes) in two passes over the
// text, without building the value, for the shapes docs/transcode-json.md
// lists; other documents go through the buffered encoder.
//
// Both read through gcf.NewDecoder, so the limits of Options.Decoder
// (gcf.WithMaxLineBytes, gcf.WithMaxDepth, ..., gcf.WithRequireSummary)
// apply, and a malformed payload yields the decoder's *gcf.SyntaxError
// unchanged, with its category, line and column. A table's constant
// columns and group values (spec v3.6.0 §7.4.7, §7.4.8) are in every
// record it prints, each key in declaration order.
//
// # Memory
//
// A generic payload costs the longest line, one frame per level of
// nesting, and one table row with ^ attachments while it is assembled.
// A graph payload also costs its symbols' qualified names, kept in one
// byte arena with one offset per symbol so that edges can name their
// endpoints; ToJSON holds back up to 8 MiB of edges when the header has
// no symbols= count (a symbol group may follow them), and buffers a graph
// delta, whose sections come in any order, up to 64 MiB of JSON. Past
// those two bounds ToJSON refuses with an error; ToNDJSON has neither.
//
// # NDJSON
//
// A generic payload whose root is an array (`## [N]{...}` or
// `## [?]{...}`, the output of `gcf encode -stream`) prints its elements,
// one per line: the inverse of `gcf encode -stream`. Any other generic
// payload prints one tagged object per record:
//
//	{"table":"orders","row":{"id":1,"total":9.5}}                   a table row
//	{"table":"warehouses","key":"ams","row":{"city":"Amsterdam"}}    a keyed-map member
//	{"path":"store","value":"north-1"}                               any other value
//
// "table" and "path" name where the record sits: keys joined by ".",
// array indexes as [N], and a key that is empty or holds anything but
// ASCII letters, digits, "_", "-" and non-ASCII characters written as a
// JSON string (so `a."x.y".rows` and `items[1]`). Values outside tables
// are the leaves: scalars, inline arrays, and empty objects, arrays and
// tables. A row carries its attachments, nested tables included, as in
// JSON. The root itself is the path "". Every value of the payload is in
// exactly one line, in document order, so the lines rebuild the value.
//
// A graph payload prints {"type":"header",...}, then {"type":"symbol",...}
// per symbol and {"type":"edge",...} per edge, with the field names of
// the JSON form; a graph delta prints {"type":"delta",...}, then
// "removed", "added", "removedEdge" and "addedEdge" lines as they come.
//
// See docs/ndjson.md for the whole shape and jq recipes.
package transcode
