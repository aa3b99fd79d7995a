package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"

	"github.com/gcfkit/gcf"
)

var diffCommand = &command{
	name:    "diff",
	args:    "[flags] OLD.json NEW.json",
	summary: "print the GCF delta that turns one JSON result into another",
	doc: `Diff reads two JSON results and writes the delta payload that turns the first
into the second. Its header carries base_root and new_root, the pack roots
(content hashes) of the two results, which apply checks (SPEC §10, graph
deltas; §10a, generic deltas).

With -profile generic (the default) each file holds a keyed table: an array
of flat objects, or an object whose only member is one; -key names the
identity field, which every row must hold, non-null and unique. The delta
lists added, changed (whole rows) and removed rows. Tables of different
fields have no delta (invalid_schema: send the full payload).

With -profile graph each file holds a graph payload (the JSON of gcf encode
-profile graph); scores are taken as the wire carries them (two decimals).`,
	example: "gcf diff -key id -o delta.gcf orders-monday.json orders-tuesday.json",
}

var applyCommand = &command{
	name:    "apply",
	args:    "[flags] BASE.json DELTA.gcf",
	summary: "apply a GCF delta to a JSON result and print the new JSON",
	doc: `Apply reads a JSON result and a delta payload, applies the delta
atomically (all of it or nothing: SPEC §10.4 and §10a.5, applying a delta)
and writes the new result as JSON. The base must have the delta's base_root
and the result must have its new_root
(root_mismatch otherwise); a changed or removed row that the base lacks, or
an added one it has, is malformed_delta. Nothing is written on error.

The profile is the delta's; -profile, if given, must agree. A generic
delta names its identity field in key=, so apply needs no -key.`,
	example: "gcf apply -o orders-tuesday.json orders-monday.json delta.gcf",
}

func init() {
	diffCommand.setup = setupDiff
	applyCommand.setup = setupApply
}

// readInput reads one whole input.
func (e *env) readInput(arg string, lim *limitFlags) (*input, []byte, error) {
	in, err := openInput(e, arg, lim.bytes)
	if err != nil {
		return nil, nil, err
	}
	data, err := readAll(in)
	in.close()
	if err != nil {
		return in, nil, err
	}
	in.src = bytes.NewReader(data)
	if err := checkUTF8(data, origin); err != nil {
		return in, nil, err
	}
	return in, data, nil
}

// graphJSON reads a graph payload from JSON, as the wire carries it (a
// round trip through Encode and Decode rounds its scores to two decimals),
// so that its pack root is what a consumer of the wire computes.
func graphJSON(data []byte, opts []gcf.Option) (*gcf.Payload, error) {
	var p gcf.Payload
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, graphJSONError(err, data)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errorAt(origin.after(data[:dec.InputOffset()]), "", "not a graph payload: data after the JSON object")
	}
	p.PackRoot = ""
	enc, err := gcf.Encode(&p, opts...)
	if err != nil {
		return nil, err
	}
	return gcf.Decode(enc, opts...)
}

func setupDiff(fs *flag.FlagSet) func(*env, []string) int {
	out := fs.String("o", "", "write the output to `file` (through a temporary file, renamed on success); \"-\" is stdout")
	profile := fs.String("profile", "generic", "`profile` of the inputs: generic (keyed tables) or graph (graph payloads)")
	key := fs.String("key", "", "generic: the identity `field` of the rows (required)")
	tool := fs.String("tool", "", "the tool= `name` in the delta's header (default: none for generic, the new payload's for graph)")
	var lim limitFlags
	lim.register(fs, false)
	return func(e *env, args []string) int {
		switch *profile {
		case "generic":
			if *key == "" {
				return e.usageError(diffCommand, "-key names the identity field of the rows (-profile generic)")
			}
		case "graph":
			if *key != "" {
				return e.usageError(diffCommand, "-key applies only to -profile generic")
			}
		default:
			return e.usageError(diffCommand, "unknown profile %q (generic or graph)", *profile)
		}
		if len(args) != 2 {
			return e.usageError(diffCommand, "two input files, OLD.json and NEW.json (got %d)", len(args))
		}
		if err := lim.check(); err != nil {
			return e.usageError(diffCommand, "%v", err)
		}
		opts := lim.options()
		var ins [2]*input
		var datas [2][]byte
		for i, arg := range args {
			in, data, err := e.readInput(arg, &lim)
			if err != nil {
				return e.report(in, err, nil)
			}
			ins[i], datas[i] = in, data
		}
		var enc []byte
		if *profile == "generic" {
			var tabs [2]*gcf.Table
			for i := range tabs {
				v, err := gcf.ParseJSON(datas[i], opts...)
				if err != nil {
					return e.report(ins[i], jsonError(err, datas[i], origin, ""), nil)
				}
				if tabs[i], err = gcf.NewTable(v, *key); err != nil {
					return e.report(ins[i], err, nil)
				}
			}
			d, err := gcf.DiffGeneric(tabs[0], tabs[1])
			if err != nil {
				return e.report(ins[1], err, nil)
			}
			d.Tool = *tool
			if enc, err = gcf.EncodeGenericDelta(d, opts...); err != nil {
				return e.report(ins[1], err, nil)
			}
		} else {
			var ps [2]*gcf.Payload
			for i := range ps {
				p, err := graphJSON(datas[i], opts)
				if err != nil {
					return e.report(ins[i], err, nil)
				}
				ps[i] = p
			}
			d, err := gcf.Diff(ps[0], ps[1])
			if err == nil {
				d.Tool = ps[1].Tool
				if *tool != "" {
					d.Tool = *tool
				}
				if d.BaseRoot, err = gcf.PackRoot(ps[0]); err == nil {
					d.NewRoot, err = gcf.PackRoot(ps[1])
				}
			}
			if err == nil {
				enc, err = gcf.EncodeDelta(d, opts...)
			}
			if err != nil {
				return e.report(ins[1], err, nil)
			}
		}
		o, err := createOutput(e, *out)
		if err != nil {
			return e.report(nil, err, nil)
		}
		o.Write(enc)
		if err := o.commit(); err != nil {
			return e.report(nil, err, o)
		}
		return exitOK
	}
}

func setupApply(fs *flag.FlagSet) func(*env, []string) int {
	out := fs.String("o", "", "write the output to `file` (through a temporary file, renamed on success); \"-\" is stdout")
	profile := fs.String("profile", "", "`profile` the delta must have: generic or graph (default: the delta's)")
	var lim limitFlags
	lim.register(fs, false)
	return func(e *env, args []string) int {
		switch *profile {
		case "", "generic", "graph":
		default:
			return e.usageError(applyCommand, "unknown profile %q (generic or graph)", *profile)
		}
		if len(args) != 2 {
			return e.usageError(applyCommand, "two input files, BASE.json and DELTA.gcf (got %d)", len(args))
		}
		if err := lim.check(); err != nil {
			return e.usageError(applyCommand, "%v", err)
		}
		opts := lim.options()
		baseIn, baseData, err := e.readInput(args[0], &lim)
		if err != nil {
			return e.report(baseIn, err, nil)
		}
		deltaIn, deltaData, err := e.readInput(args[1], &lim)
		if err != nil {
			return e.report(deltaIn, err, nil)
		}
		header, _, _ := bytes.Cut(deltaData, []byte("\n"))
		got := "generic"
		for _, f := range bytes.Fields(header) {
			if string(f) == "profile=graph" {
				got = "graph"
			}
		}
		if *profile != "" && *profile != got {
			return e.usageError(applyCommand, "-profile %s, but %s is a %s payload", *profile, deltaIn.name, got)
		}
		var res []byte
		if got == "generic" {
			d, err := gcf.DecodeGenericDelta(deltaData, opts...)
			if err != nil {
				return e.report(deltaIn, err, nil)
			}
			v, err := gcf.ParseJSON(baseData, opts...)
			if err != nil {
				return e.report(baseIn, jsonError(err, baseData, origin, ""), nil)
			}
			base, err := gcf.NewTable(v, d.Key)
			if err != nil {
				return e.report(baseIn, err, nil)
			}
			t, err := gcf.ApplyGenericDelta(base, d)
			if err != nil {
				return e.report(deltaIn, err, nil)
			}
			if res, err = gcf.ToJSON(gcf.TableValue(t)); err != nil {
				return e.report(deltaIn, err, nil)
			}
		} else {
			d, err := gcf.DecodeDelta(deltaData, opts...)
			if err != nil {
				return e.report(deltaIn, err, nil)
			}
			base, err := graphJSON(baseData, opts)
			if err != nil {
				return e.report(baseIn, err, nil)
			}
			p, err := gcf.ApplyDelta(base, d)
			if err != nil {
				return e.report(deltaIn, err, nil)
			}
			if res, err = jsonText(p, ""); err != nil {
				return e.report(deltaIn, err, nil)
			}
		}
		o, err := createOutput(e, *out)
		if err != nil {
			return e.report(nil, err, nil)
		}
		o.Write(res)
		o.Write([]byte("\n"))
		if err := o.commit(); err != nil {
			return e.report(nil, err, o)
		}
		return exitOK
	}
}
