/**
 * JSON for Iceberg documents without losing 64-bit ids. Snapshot ids come from 63 random bits
 * (pyiceberg and the Java library XOR the two halves of a UUID), so `JSON.parse` would round
 * most of them; here every integer beyond 2^53 parses as a `bigint`, every snapshot id (by its
 * key, wherever it appears) becomes a `bigint`, and `bigint`s are written back digit for digit.
 */
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

/**
 * Serializes with `bigint`s as plain JSON integers (as JSON.stringify would, but for them: no
 * `undefined` members, non-finite numbers as null, `toJSON` honoured). Strings and plain numbers
 * go through the native writer; only the structure is walked here.
 */
export function stringifyIcebergJson(value: unknown): string {
  const text = write(value, '');
  if (text === undefined) throw new TypeError('value cannot be serialized as JSON');
  return text;
}

function write(value: unknown, key: string): string | undefined {
  if (value && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += write(value[i], String(i)) ?? 'null';
        }
        return `${out}]`;
      }
      let out = '{';
      let first = true;
      for (const k of Object.keys(value)) {
        const item = write((value as Record<string, unknown>)[k], k);
        if (item === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(k)}:${item}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}
