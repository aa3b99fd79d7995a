// Package interop is the interoperability gate between this module and the
// reference TypeScript SDK (gcf-typescript v2.6.1, read in place from
// ../shared/peers; see docs/interop.md). It has no API: its tests generate
// documents from a fixed seed, encode each with both SDKs (ours with
// gcf.WithSpec(gcf.Spec353): the bundle reads spec v3.5.3 only), decode each
// encoding with the other SDK, and require equal values (objects compared
// unordered, SPEC §1.2) and, where the spec leaves a choice, the same bytes.
// Every remaining difference must fall into a class documented in
// docs/interop.md, matched by the document's shape. TestStrictness runs
// both decoders over the module's parser corpora and requires every input
// that one accepts and the other rejects to be in a documented class.
//
// The tests run node (v20) once per test and batch all documents through
// driver.mjs as JSON lines. Without node, or without the bundle, they skip
// with the reason; .ci/run requires node, so CI never skips them.
//
//	go test ./interop/                        # 10,000 random documents plus targeted shapes
//	GCF_INTEROP_DOCS=1000000 go test -timeout 2h ./interop/   # the long local run
package interop
