/**
 * JSON for Iceberg documents without losing 64-bit ids. Snapshot ids come from 63 random bits
 * (pyiceberg and the Java library XOR the two halves of a UUID), so `JSON.parse` would round
 * most of them; here every integer beyond 2^53 parses as a `bigint`, every snapshot id (by its
 * key, wherever it appears) becomes a `bigint`, and `bigint`s are written back digit for digit.
 */
import { randomBytes } from 'node:crypto';
import { isInteger, isSafeNumber, parse } from 'lossless-json';

/** Keys whose values are snapshot ids in table metadata, REST requests and responses. */
const ID_KEYS = new Set(['snapshot-id', 'parent-snapshot-id', 'current-snapshot-id']);
const ID_LIST_KEYS = new Set(['snapshot-ids']);

function parseNumber(text: string): number | bigint {
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
  return normalize(parse(text, null, parseNumber));
}

const LONG_DIGITS = /\d{16}/;

// Bigints and raw fragments leave JSON.stringify as strings carrying this marker and are spliced
// back afterwards. The marker is 128 random bits after a NUL (which JSON.stringify escapes as
// \u0000), so no string a client sends can pass for one.
const MARK = `\u0000${randomBytes(16).toString('hex')}`;
const MARKED = new RegExp(`"\\\\u0000${MARK.slice(1)}([bR])(-?\\d+)"`, 'g');
let raws: string[] = [];

/**
 * JSON text to be embedded as is by `stringifyIcebergJson` (a metadata document already written,
 * answered inside a REST response without being serialized again).
 */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON(): string {
    raws.push(this.text);
    return `${MARK}R${raws.length - 1}`;
  }
}

type BigIntWithJson = { toJSON?: (this: bigint) => string };

/**
 * Serializes with `bigint`s as plain JSON integers and RawJson fragments verbatim; otherwise
 * exactly JSON.stringify. Both ride on `toJSON` (bigint's installed for the duration of the call,
 * synchronously), so the walk and the escaping stay in V8's native serializer — a replacer
 * function would make it three times slower.
 */
export function stringifyIcebergJson(value: unknown): string {
  const proto = BigInt.prototype as unknown as BigIntWithJson;
  const previous = proto.toJSON;
  proto.toJSON = function (this: bigint) {
    return `${MARK}b${this.toString()}`;
  };
  raws = [];
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } finally {
    if (previous === undefined) delete proto.toJSON;
    else proto.toJSON = previous;
  }
  if (text === undefined) throw new TypeError('value cannot be serialized as JSON');
  if (!text.includes(MARK.slice(1))) return text;
  const fragments = raws;
  raws = [];
  return text.replace(MARKED, (_m, kind: string, payload: string) => (kind === 'b' ? payload : fragments[Number(payload)]!));
}
