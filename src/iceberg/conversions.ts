/**
 * Iceberg's binary single-value serialization (spec, Appendix D) for every primitive type, to and
 * from bytes, over the value convention of `values.ts`: the form of `lower_bounds` and
 * `upper_bounds` in manifests and of the partition summaries in manifest lists. Like Java's
 * `Conversions.fromByteBuffer`, reading a long (or a long-based type) from 4 bytes and a double
 * from 4 bytes accepts values written before a type promotion.
 */
import type { IcebergType } from './types.js';
import { isList, isMap, isStruct, primitive, type Primitive } from './model.js';
import { dateOfDays, daysOf, decimalString, fromBigEndian, minBigEndian, unscaled, uuidBytes, uuidString } from './values.js';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export function toBytes(type: string | Primitive, value: unknown): Uint8Array {
  const p = typeof type === 'string' ? primitive(type) : type;
  switch (p.kind) {
    case 'boolean':
      return Uint8Array.of(value ? 1 : 0);
    case 'int':
    case 'date': {
      const out = new Uint8Array(4);
      new DataView(out.buffer).setInt32(0, p.kind === 'date' ? daysOf(value as Date) : (value as number), true);
      return out;
    }
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns': {
      const out = new Uint8Array(8);
      new DataView(out.buffer).setBigInt64(0, BigInt(value as bigint), true);
      return out;
    }
    case 'float': {
      const out = new Uint8Array(4);
      new DataView(out.buffer).setFloat32(0, value as number, true);
      return out;
    }
    case 'double': {
      const out = new Uint8Array(8);
      new DataView(out.buffer).setFloat64(0, value as number, true);
      return out;
    }
    case 'string':
      return utf8.encode(value as string);
    case 'uuid':
      return uuidBytes(value as string);
    case 'fixed':
    case 'binary':
    case 'geometry':
    case 'geography':
      return value as Uint8Array;
    case 'decimal':
      return minBigEndian(unscaled(value as string | number, p.scale!));
    default:
      throw new Error(`no single-value serialization for ${p.kind}`);
  }
}

export function fromBytes(type: string | Primitive, bytes: Uint8Array): unknown {
  const p = typeof type === 'string' ? primitive(type) : type;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (p.kind) {
    case 'boolean':
      return bytes[0] !== 0;
    case 'int':
      return view.getInt32(0, true);
    case 'date':
      return dateOfDays(view.getInt32(0, true));
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return bytes.length < 8 ? BigInt(view.getInt32(0, true)) : view.getBigInt64(0, true);
    case 'float':
      return view.getFloat32(0, true);
    case 'double':
      return bytes.length < 8 ? view.getFloat32(0, true) : view.getFloat64(0, true);
    case 'string':
      return utf8Decoder.decode(bytes);
    case 'uuid':
      return uuidString(bytes);
    case 'fixed':
    case 'binary':
    case 'geometry':
    case 'geography':
      return Uint8Array.from(bytes);
    case 'decimal':
      return decimalString(fromBigEndian(bytes), p.scale!);
    default:
      throw new Error(`no single-value serialization for ${p.kind}`);
  }
}

/**
 * A value in Iceberg's JSON single-value serialization (Appendix D; `initial-default` and
 * `write-default` use it) in the value convention.
 */
export function fromJsonValue(type: IcebergType, json: unknown): unknown {
  if (json === null || json === undefined) return null;
  if (isStruct(type)) {
    const o = json as Record<string, unknown>;
    return Object.fromEntries(type.fields.map((f) => [f.name, fromJsonValue(f.type, o[String(f.id)])]));
  }
  if (isList(type)) return (json as unknown[]).map((e) => fromJsonValue(type.element, e));
  if (isMap(type)) {
    const { keys, values } = json as { keys: unknown[]; values: unknown[] };
    return new Map(keys.map((k, i) => [fromJsonValue(type.key, k), fromJsonValue(type.value, values[i])]));
  }
  const p = primitive(type as string);
  const text = String(json);
  switch (p.kind) {
    case 'long':
      return BigInt(json as number);
    case 'decimal':
      return decimalString(unscaled(text, p.scale!), p.scale!);
    case 'date':
      return new Date(`${text}T00:00:00Z`);
    case 'time': {
      const [h, m, s = '0'] = text.split(':');
      const [whole, frac = ''] = s.split('.');
      return (BigInt(Number(h) * 3600 + Number(m) * 60 + Number(whole)) * 1_000_000n) + BigInt(frac.padEnd(6, '0').slice(0, 6));
    }
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns': {
      const m = /^(\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?/.exec(text);
      if (!m) throw new TypeError(`not a timestamp: ${text}`);
      const seconds = BigInt(Date.parse(`${m[1]}Z`) / 1000);
      const nanos = BigInt((m[2] ?? '').padEnd(9, '0').slice(0, 9));
      const total = seconds * 1_000_000_000n + nanos;
      return p.kind.endsWith('_ns') ? total : total / 1000n;
    }
    case 'uuid':
      return text.toLowerCase();
    case 'fixed':
    case 'binary':
      return Uint8Array.from(Buffer.from(text, 'hex'));
    default:
      return json;
  }
}
