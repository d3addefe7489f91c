/**
 * JSON for Iceberg documents without losing 64-bit ids. Snapshot ids come from 63 random bits
 * (pyiceberg and the Java library XOR the two halves of a UUID), so `JSON.parse` would round
 * most of them; here every integer beyond 2^53 parses as a `bigint`, every snapshot id (by its
 * key, wherever it appears) becomes a `bigint`, and `bigint`s are written back digit for digit.
 */
import { requireOnDemand } from '../on-demand.js';

type LosslessJson = typeof import('lossless-json');
let lossless: LosslessJson | undefined;

// Required (its one-file CommonJS build) by the first document with a long number only: most
// processes never read one, and its ES module build is ten modules to load.
function losslessJson(): LosslessJson {
  return (lossless ??= requireOnDemand<LosslessJson>('lossless-json'));
}

/** Keys whose values are snapshot ids in table metadata, REST requests and responses. */
const ID_KEYS = new Set(['snapshot-id', 'parent-snapshot-id', 'current-snapshot-id']);
const ID_LIST_KEYS = new Set(['snapshot-ids']);

function parseNumber(text: string): number | bigint {
  const { isInteger, isSafeNumber } = losslessJson();
  if (isInteger(text) && !isSafeNumber(text)) return BigInt(text);
  return Number(text);
}

function toId(v: unknown): unknown {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return v;
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) normalize(item);
    return value;
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      const v = o[key];
      if (ID_KEYS.has(key)) o[key] = toId(v);
      else if (ID_LIST_KEYS.has(key) && Array.isArray(v)) o[key] = v.map(toId);
      else if (v && typeof v === 'object') normalize(v);
    }
  }
  return value;
}

/**
 * Parses Iceberg JSON; throws SyntaxError for text that is not JSON. A `__proto__` key stays a
 * plain own property (both parsers define members, never assign them).
 */
export function parseIcebergJson(text: string): unknown {
  // Only a run of 16 or more digits can be an integer beyond 2^53; without one the native parser
  // (several times faster) reads every number exactly.
  if (!LONG_DIGITS.test(text)) return normalize(JSON.parse(text));
  return normalize(losslessJson().parse(text, null, parseNumber));
}

const LONG_DIGITS = /\d{16}/;

/**
 * JSON text to be embedded as is by `stringifyIcebergJson` (a metadata document already written,
 * answered inside a REST response without being serialized again).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * Serializes as JSON.stringify does (members in `Object.keys` order, `undefined`, functions and
 * symbols left out of objects and written as null in arrays, `toJSON` honoured, non-finite numbers
 * as null), except that `bigint`s are written digit for digit and RawJson fragments verbatim.
 * Strings and keys go through the native serializer for their escaping.
 */
export function stringifyIcebergJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError('value cannot be serialized as JSON');
  return text;
}

function write(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object':
      return v === null ? 'null' : writeObject(v);
    default:
      return undefined;
  }
}

function writeObject(v: object): string | undefined {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) s += ',';
      s += write(v[i]) ?? 'null';
    }
    return `${s}]`;
  }
  const withJson = v as { toJSON?: unknown };
  if (typeof withJson.toJSON === 'function') return write((withJson.toJSON as () => unknown).call(v));
  let s = '{';
  const o = v as Record<string, unknown>;
  for (const key in o) {
    if (!Object.hasOwn(o, key)) continue;
    const member = write(o[key]);
    if (member === undefined) continue;
    if (s.length > 1) s += ',';
    s += quotedKey(key) + member;
  }
  return `${s}}`;
}

// A document's keys come from a small vocabulary ("format-version", "snapshot-id", …): each is
// quoted once. Property maps bring keys of their own, so the cache is bounded.
const quotedKeys = new Map<string, string>();

function quotedKey(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    q = `${JSON.stringify(key)}:`;
    if (quotedKeys.size < 1024) quotedKeys.set(key, q);
  }
  return q;
}
