// Package fuzz holds the module's native Go fuzz targets (in its test
// files): decoders never panic or hang, and whatever decodes re-encodes to
// the same value. They are seeded from the shared conformance fixtures
// (read in place) and from testdata/.
package fuzz
