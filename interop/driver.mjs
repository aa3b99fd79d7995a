// driver.mjs: a line-oriented bridge from the Go interop tests to the
// reference TypeScript SDK. It imports the bundle in place (the path is the
// first argument), reads one JSON request per line on stdin and writes one
// JSON response per line on stdout, in order:
//
//   {"op":"ge","in":"<JSON text>"}    encodeGeneric(parseJSONOrdered(in))
//   {"op":"gd","in":"<GCF>"}          decodeGeneric(in, {largeInt:'bigint'}) as JSON text
//   {"op":"e","in":"<payload JSON>"}  encode(payload)
//   {"op":"d","in":"<GCF>"}           decode(in) as payload JSON
//   {"op":"se","in":"[payload,...]"}  encodeWithSession over one new Session, one output per payload
//   {"op":"de","in":"<delta JSON>"}   encodeDelta(delta)
//   {"op":"dd","in":"<GCF>"}          decodeDelta(in) as JSON
//   {"op":"gdd","in":"<GCF>"}         decodeGenericDelta(in) as JSON
//
// A response is {"out": string} or {"outs": [string]} or {"err": message}.
// Decoded generic values are written so that Go's ParseJSON reads them
// back exactly: Map members in order, bigint as its digits, a safe integer
// as digits, any other number in a form with '.' or an exponent (a float).
import { createInterface } from 'node:readline';

const G = await import(process.argv[2]);

function num(n) {
  if (!Number.isFinite(n)) throw new Error('non-finite number ' + String(n));
  if (Number.isSafeInteger(n)) return Object.is(n, -0) ? '0' : String(n);
  const s = String(n);
  if (/[.eE]/.test(s)) return s;
  return n.toExponential(); // an integer-valued double beyond 2^53
}

function toJSON(v) {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean': return v ? 'true' : 'false';
    case 'number': return num(v);
    case 'bigint': return v.toString();
    case 'string': return JSON.stringify(v);
  }
  if (Array.isArray(v)) return '[' + v.map(toJSON).join(',') + ']';
  if (v instanceof Map) {
    const parts = [];
    for (const [k, x] of v) parts.push(JSON.stringify(k) + ':' + toJSON(x));
    return '{' + parts.join(',') + '}';
  }
  const parts = [];
  for (const k of Object.keys(v)) parts.push(JSON.stringify(k) + ':' + toJSON(v[k]));
  return '{' + parts.join(',') + '}';
}

function handle(req) {
  switch (req.op) {
    case 'ge': return { out: G.encodeGeneric(G.parseJSONOrdered(req.in)) };
    case 'gd': return { out: toJSON(G.decodeGeneric(req.in, { largeInt: 'bigint' })) };
    case 'e': return { out: G.encode(JSON.parse(req.in)) };
    case 'd': return { out: JSON.stringify(G.decode(req.in)) };
    case 'se': {
      const s = new G.Session();
      return { outs: JSON.parse(req.in).map((p) => G.encodeWithSession(p, s)) };
    }
    case 'de': return { out: G.encodeDelta(JSON.parse(req.in)) };
    case 'dd': return { out: JSON.stringify(G.decodeDelta(req.in)) };
    case 'gdd': return { out: toJSON(G.decodeGenericDelta(req.in)) };
  }
  throw new Error('unknown op ' + req.op);
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
let pending = 0;
function flush() {
  if (out.length) { process.stdout.write(out.join('')); out.length = 0; pending = 0; }
}
for await (const line of rl) {
  if (line === '') { flush(); continue; }
  let res;
  try {
    res = handle(JSON.parse(line));
  } catch (e) {
    res = { err: String(e && e.message ? e.message : e) };
  }
  out.push(JSON.stringify(res) + '\n');
  if (++pending >= 256) flush();
}
flush();
