/**
 * The one convention for Iceberg values in JavaScript that every writer and reader here uses
 * (rows, partition tuples, bounds, equality deletes), chosen to be lossless so that maintenance
 * can rewrite data without changing it:
 *
 * | Iceberg type                  | JavaScript value                                          |
 * |-------------------------------|-----------------------------------------------------------|
 * | boolean                       | boolean                                                   |
 * | int, float, double            | number                                                    |
 * | long                          | bigint                                                    |
 * | decimal(P, S)                 | string with exactly S fraction digits (`"14.20"`, `"-3.00"`); writers also take a number |
 * | date                          | Date at UTC midnight (as hyparquet and icebird return it)  |
 * | time                          | bigint microseconds from midnight                         |
 * | timestamp, timestamptz        | bigint microseconds from the epoch (UTC)                  |
 * | timestamp_ns, timestamptz_ns  | bigint nanoseconds from the epoch (UTC)                   |
 * | string                        | string                                                    |
 * | uuid                          | lowercase canonical string (`f79c3e09-677c-…`)            |
 * | fixed(L), binary              | Uint8Array                                                |
 * | struct                        | plain object keyed by field name                          |
 * | list                          | array                                                     |
 * | map                           | Map                                                       |
 * | null                          | null (undefined is accepted on write)                     |
 *
 * Timestamps are bigints rather than Dates because a Date holds milliseconds only. Also here:
 * the decimal, uuid and date codecs, Iceberg's value ordering (for bounds) and a canonical key
 * for a value (for partition and equality-delete matching).
 */
import { primitive, type Primitive } from './model.js';

const DAY_MS = 86_400_000;

export function daysOf(date: Date): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms) || ms % DAY_MS !== 0) throw new TypeError(`not a UTC midnight date: ${String(date)}`);
  return ms / DAY_MS;
}

export const dateOfDays = (days: number): Date => new Date(days * DAY_MS);

/** The unscaled value of a decimal string (or number) at the type's scale; more fraction digits than the scale throw. */
export function unscaled(value: string | number, scale: number): bigint {
  const text = typeof value === 'number' ? numberToDecimal(value, scale) : value.trim();
  const m = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new TypeError(`not a decimal: ${text}`);
  let digits = (m[2] ?? '') + (m[3] ?? '');
  // Bring the exponent to -scale.
  const shift = -(m[3] ?? '').length + Number(m[4] ?? 0) + scale;
  if (shift >= 0) digits += '0'.repeat(shift);
  else {
    const cut = digits.slice(digits.length + shift);
    if (/[1-9]/.test(cut)) throw new RangeError(`decimal ${text} has more than ${scale} fraction digits`);
    digits = digits.slice(0, digits.length + shift);
  }
  const n = BigInt(digits === '' ? '0' : digits);
  return m[1] === '-' ? -n : n;
}

function numberToDecimal(n: number, scale: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`not a decimal: ${n}`);
  return scale >= 0 ? n.toFixed(Math.min(scale, 100)) : String(n);
}

/** A decimal string with exactly `scale` fraction digits (negative scales as `2E+20`, as the spec's JSON form). */
export function decimalString(unscaledValue: bigint, scale: number): string {
  const neg = unscaledValue < 0n;
  const digits = (neg ? -unscaledValue : unscaledValue).toString();
  let out: string;
  if (scale <= 0) out = scale === 0 ? digits : `${digits}E+${-scale}`;
  else {
    const padded = digits.padStart(scale + 1, '0');
    out = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  }
  return neg ? `-${out}` : out;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export function uuidBytes(value: string): Uint8Array {
  if (!UUID.test(value)) throw new TypeError(`not a UUID: ${value}`);
  return Uint8Array.from(Buffer.from(value.replace(/-/g, ''), 'hex'));
}

export function uuidString(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Big-endian two's complement in the fewest bytes (Java `BigInteger.toByteArray`). */
export function minBigEndian(n: bigint): Uint8Array {
  const bytes: number[] = [];
  let v = n;
  for (;;) {
    const byte = Number(v & 0xffn);
    bytes.unshift(byte);
    v >>= 8n;
    if ((v === 0n && (byte & 0x80) === 0) || (v === -1n && (byte & 0x80) !== 0)) break;
  }
  return Uint8Array.from(bytes);
}

/** Big-endian two's complement padded (sign-extended) to `size` bytes. */
export function fixedBigEndian(n: bigint, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let v = n;
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n && v !== -1n) throw new RangeError(`${n} does not fit in ${size} bytes`);
  return out;
}

export function fromBigEndian(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return bytes[0]! & 0x80 ? n - (1n << BigInt(bytes.length * 8)) : n;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Strings by Unicode code point (Iceberg's order, and UTF-8 byte order), not by UTF-16 unit. */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (a code point above U+FFFF) sorts after every BMP unit it is compared with.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Iceberg's order for non-null values of a primitive type (floats: -0 before +0; NaN never reaches here). */
export function compareValues(type: string | Primitive, a: unknown, b: unknown): number {
  const p = typeof type === 'string' ? primitive(type) : type;
  switch (p.kind) {
    case 'boolean':
      return Number(a) - Number(b);
    case 'int':
    case 'float':
    case 'double': {
      const x = a as number;
      const y = b as number;
      if (x === y) return x === 0 ? (Object.is(y, -0) ? 1 : 0) - (Object.is(x, -0) ? 1 : 0) : 0;
      return x < y ? -1 : 1;
    }
    case 'date':
      return (a as Date).getTime() - (b as Date).getTime();
    case 'decimal': {
      const x = unscaled(a as string, p.scale!);
      const y = unscaled(b as string, p.scale!);
      return x === y ? 0 : x < y ? -1 : 1;
    }
    case 'string':
      return compareStrings(a as string, b as string);
    case 'uuid':
      return compareBytes(uuidBytes(a as string), uuidBytes(b as string));
    case 'fixed':
    case 'binary':
      return compareBytes(a as Uint8Array, b as Uint8Array);
    default: {
      const x = a as bigint;
      const y = b as bigint;
      return x === y ? 0 : x < y ? -1 : 1;
    }
  }
}

/**
 * A string that is equal for two values exactly when Iceberg considers them equal (used to group
 * rows by partition and to match equality deletes). Floats compare by bits, so NaN equals NaN and
 * -0 differs from +0, as Java's `Double.compare` treats them.
 */
function valueKey(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  switch (typeof v) {
    case 'string':
      return `s${v}`;
    case 'bigint':
      return `l${v}`;
    case 'number':
      return Object.is(v, -0) ? 'd-0' : `d${v}`;
    case 'boolean':
      return v ? 'T' : 'F';
    default:
      if (v instanceof Date) return `t${v.getTime()}`;
      if (v instanceof Uint8Array) return `b${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
      if (v instanceof Map) return `m{${[...v].map(([k, x]) => `${valueKey(k)}:${valueKey(x)}`).join(',')}}`;
      if (Array.isArray(v)) return `[${v.map(valueKey).join(',')}]`;
      return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}:${valueKey(x)}`).join(',')}}`;
  }
}

/** A partition tuple's key (values in spec order). */
export function tupleKey(values: readonly unknown[]): string {
  let out = '';
  for (const v of values) out += `${valueKey(v)}\u0000`;
  return out;
}
