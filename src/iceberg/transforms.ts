/**
 * Partition transforms (spec, "Partition Transforms"): identity, bucket[N] over the 32-bit
 * Murmur3 hash of Appendix B, truncate[W], year/month/day/hour and void, applied to values in the
 * convention of `values.ts`; a partitioner that turns a row into its partition tuple for a spec;
 * and the `name=value/…` partition path the Java library writes under `data/` (its human strings
 * per type and `URLEncoder` escaping).
 */
import type { PartitionSpec, StructType } from './types.js';
import { accessor, partitionType, primitive, type PartitionTypeField } from './model.js';
import { dateOfDays, daysOf, decimalString, minBigEndian, unscaled, uuidBytes } from './values.js';

export interface Transform {
  kind: 'identity' | 'bucket' | 'truncate' | 'year' | 'month' | 'day' | 'hour' | 'void' | 'unknown';
  /** N of bucket[N], W of truncate[W]. */
  param?: number;
}

const PARAM = /^(bucket|truncate)\[\s*(\d+)\s*\]$/;

function parseTransform(text: string): Transform {
  const t = text.trim().toLowerCase();
  const m = PARAM.exec(t);
  if (m) return { kind: m[1] as 'bucket' | 'truncate', param: Number(m[2]) };
  if (['identity', 'year', 'month', 'day', 'hour', 'void'].includes(t)) return { kind: t as Transform['kind'] };
  return { kind: 'unknown' };
}

// ---- Murmur3 x86 32-bit, seed 0 (Appendix B) ----

export function murmur3(bytes: Uint8Array): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = 0;
  const n = bytes.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = n & 3;
  if (tail > 0) {
    let k = 0;
    if (tail === 3) k ^= bytes[blocks + 2]! << 16;
    if (tail >= 2) k ^= bytes[blocks + 1]! << 8;
    k ^= bytes[blocks]!;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

const longBytes = (v: bigint): Uint8Array => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, BigInt.asIntN(64, v), true);
  return out;
};
const utf8 = new TextEncoder();

/** The Appendix B hash of a non-null value of a primitive type (signed 32-bit). */
export function hashValue(type: string, value: unknown): number {
  const p = primitive(type);
  switch (p.kind) {
    case 'int':
      return murmur3(longBytes(BigInt(value as number)));
    case 'date':
      return murmur3(longBytes(BigInt(daysOf(value as Date))));
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
      return murmur3(longBytes(value as bigint));
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return murmur3(longBytes(floorDiv(value as bigint, 1000n)));
    case 'decimal':
      return murmur3(minBigEndian(unscaled(value as string | number, p.scale!)));
    case 'string':
      return murmur3(utf8.encode(value as string));
    case 'uuid':
      return murmur3(uuidBytes(value as string));
    case 'fixed':
    case 'binary':
      return murmur3(value as Uint8Array);
    case 'boolean':
      return murmur3(longBytes(value ? 1n : 0n));
    case 'float':
    case 'double': {
      // Canonical NaN and +0 (Appendix B note 5); floats hash as doubles.
      const d = Number.isNaN(value) ? NaN : (value as number) === 0 ? 0 : (value as number);
      const buf = new DataView(new ArrayBuffer(8));
      if (Number.isNaN(d)) buf.setBigInt64(0, 0x7ff8000000000000n, true);
      else buf.setFloat64(0, d, true);
      return murmur3(new Uint8Array(buf.buffer));
    }
    default:
      throw new Error(`cannot hash ${type}`);
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

const MICROS_PER_HOUR = 3_600_000_000n;
const MICROS_PER_DAY = 86_400_000_000n;

/** Days from the epoch of a date or timestamp value (floor for instants before 1970). */
function epochDays(kind: string, value: unknown): number {
  if (kind === 'date') return daysOf(value as Date);
  const micros = kind.endsWith('_ns') ? floorDiv(value as bigint, 1000n) : (value as bigint);
  return Number(floorDiv(micros, MICROS_PER_DAY));
}

/** The first `width` code points of `s` (a surrogate pair is one). */
export function truncateString(s: string, width: number): string {
  let units = 0;
  for (let points = 0; points < width && units < s.length; points++) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, units);
}

/** Applies a transform to a value of `sourceType`; null in, null out. */
export function applyTransform(transform: string | Transform, sourceType: string, value: unknown): unknown {
  const t = typeof transform === 'string' ? parseTransform(transform) : transform;
  if (value === null || value === undefined || t.kind === 'void') return null;
  const p = primitive(sourceType);
  switch (t.kind) {
    case 'identity':
      return value;
    case 'bucket':
      return (hashValue(sourceType, value) & 0x7fffffff) % t.param!;
    case 'truncate': {
      const w = t.param!;
      switch (p.kind) {
        case 'int': {
          const v = value as number;
          return v - (((v % w) + w) % w);
        }
        case 'long': {
          const v = value as bigint;
          const bw = BigInt(w);
          return v - (((v % bw) + bw) % bw);
        }
        case 'decimal': {
          const u = unscaled(value as string | number, p.scale!);
          const bw = BigInt(w);
          return decimalString(u - (((u % bw) + bw) % bw), p.scale!);
        }
        case 'string':
          return truncateString(value as string, w);
        case 'binary':
          return (value as Uint8Array).slice(0, w);
        default:
          throw new Error(`truncate does not apply to ${sourceType}`);
      }
    }
    case 'year':
    case 'month':
    case 'day': {
      if (!['date', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(p.kind)) {
        throw new Error(`${t.kind} does not apply to ${sourceType}`);
      }
      const days = epochDays(p.kind, value);
      if (t.kind === 'day') return dateOfDays(days);
      const d = dateOfDays(days);
      const years = d.getUTCFullYear() - 1970;
      return t.kind === 'year' ? years : years * 12 + d.getUTCMonth();
    }
    case 'hour': {
      if (!['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(p.kind)) {
        throw new Error(`hour does not apply to ${sourceType}`);
      }
      const micros = p.kind.endsWith('_ns') ? floorDiv(value as bigint, 1000n) : (value as bigint);
      return Number(floorDiv(micros, MICROS_PER_HOUR));
    }
    default:
      throw new Error('cannot write with an unknown partition transform');
  }
}

// ---- Partition paths (Java `PartitionSpec.partitionToPath`) ----

const pad = (n: number, width: number): string => {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
};

function isoDate(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

/** `HH:mm:ss` plus the fraction without trailing zeros (`DateTimeFormatter.ISO_LOCAL_TIME`). */
function isoTime(nanosOfDay: bigint, javaLocalTimeToString: boolean): string {
  const secs = Number(nanosOfDay / 1_000_000_000n);
  const nanos = Number(nanosOfDay % 1_000_000_000n);
  const hm = `${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}`;
  if (javaLocalTimeToString) {
    // LocalTime.toString: seconds only when non-zero, fraction in groups of three digits.
    if (secs % 60 === 0 && nanos === 0) return hm;
    let out = `${hm}:${pad(secs % 60, 2)}`;
    if (nanos > 0) {
      if (nanos % 1_000_000 === 0) out += `.${pad(nanos / 1_000_000, 3)}`;
      else if (nanos % 1000 === 0) out += `.${pad(nanos / 1000, 6)}`;
      else out += `.${pad(nanos, 9)}`;
    }
    return out;
  }
  let out = `${hm}:${pad(secs % 60, 2)}`;
  if (nanos > 0) out += `.${pad(nanos, 9).replace(/0+$/, '')}`;
  return out;
}

function isoTimestamp(nanos: bigint, withZone: boolean): string {
  const NANOS_PER_DAY = 86_400_000_000_000n;
  const days = floorDiv(nanos, NANOS_PER_DAY);
  const ofDay = nanos - days * NANOS_PER_DAY;
  return `${isoDate(dateOfDays(Number(days)))}T${isoTime(ofDay, false)}${withZone ? '+00:00' : ''}`;
}

/** Java's `Double.toString` / `Float.toString` (shortest round-trip digits, Java's layout). */
export function javaFloatString(v: number, isFloat: boolean): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  let digits = String(v);
  if (isFloat) {
    for (let p = 1; p <= 9; p++) {
      const s = v.toPrecision(p);
      if (Math.fround(Number(s)) === v) {
        digits = String(Number(s));
        break;
      }
    }
  }
  const abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e7) {
    const plain = Number(digits).toString().includes('e') ? Number(digits).toFixed(20).replace(/0+$/, '') : Number(digits).toString();
    return plain.includes('.') ? plain : `${plain}.0`;
  }
  const [mant, exp] = Number(digits).toExponential().split('e') as [string, string];
  return `${mant.includes('.') ? mant : `${mant}.0`}E${Number(exp)}`;
}

/** The human string of a partition value (Java `Transform.toHumanString` for the field's transform and type). */
export function humanString(field: { transform: string; type: unknown }, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  const t = parseTransform(field.transform);
  if (t.kind === 'year') return pad(1970 + (value as number), 4);
  if (t.kind === 'month') {
    const m = value as number;
    return `${pad(1970 + Math.floor(m / 12), 4)}-${pad((((m % 12) + 12) % 12) + 1, 2)}`;
  }
  if (t.kind === 'hour') {
    const h = value as number;
    const d = new Date(h * 3_600_000);
    return `${isoDate(d)}-${pad(d.getUTCHours(), 2)}`;
  }
  const p = primitive(String(field.type));
  switch (p.kind) {
    case 'date':
      return isoDate(value as Date);
    case 'time':
      return isoTime((value as bigint) * 1000n, true);
    case 'timestamp':
    case 'timestamptz':
      return isoTimestamp((value as bigint) * 1000n, p.kind === 'timestamptz');
    case 'timestamp_ns':
    case 'timestamptz_ns':
      return isoTimestamp(value as bigint, p.kind === 'timestamptz_ns');
    case 'fixed':
    case 'binary':
      return Buffer.from(value as Uint8Array).toString('base64');
    case 'float':
    case 'double':
      return javaFloatString(value as number, p.kind === 'float');
    default:
      return String(value);
  }
}

/** `java.net.URLEncoder.encode(s, UTF_8)`: letters, digits and `.-*_` kept, space as `+`. */
export function urlEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2A/g, '*')
    .replace(/%20/g, '+');
}

/** A spec's partitioner over a schema: the partition tuple of a row and its path. */
interface Partitioner {
  fields: PartitionTypeField[];
  unpartitioned: boolean;
  values(row: Record<string, unknown>): unknown[];
  path(values: readonly unknown[]): string;
}

export function partitioner(spec: PartitionSpec, schema: StructType): Partitioner {
  const fields = partitionType(spec, schema);
  const steps = fields.map((f) => {
    const t = parseTransform(f.transform);
    if (t.kind === 'unknown') throw new Error(`cannot write with unknown partition transform ${f.transform}`);
    const get = t.kind === 'void' ? () => null : accessor(schema, f.partitionField['source-id']);
    return (row: Record<string, unknown>) => applyTransform(t, f.source, get(row));
  });
  return {
    fields,
    unpartitioned: fields.length === 0,
    values: (row) => steps.map((step) => step(row)),
    path: (values) => fields.map((f, i) => `${urlEncode(f.name)}=${urlEncode(humanString(f, values[i]))}`).join('/'),
  };
}
