/**
 * Parquet files read through hyparquet and projected onto an Iceberg schema by field id (spec,
 * "Column Projection"): a column is found by its field id whatever its name in the file (a renamed
 * column still reads), a field the file lacks reads as its `initial-default` or null, int reads as
 * long and float as double after promotion, and nested structs, lists and maps are matched the same
 * way. Values come out in the convention of `values.ts` (hyparquet's own conversions of dates,
 * timestamps and decimals are bypassed, they lose precision). Only the projected top-level columns
 * are decoded; with a ranged `FileIO`, only the footer and those column chunks are fetched.
 *
 * Known limit: hyparquet assembles a map into a plain object, so a string map key `__proto__`
 * does not survive a read.
 */
import { cachedAsyncBuffer, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { AsyncBuffer, Compressors, FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import type { IcebergType, StructType } from './types.js';
import type { FileIO } from './file-io.js';
import { fromJsonValue } from './conversions.js';
import { isList, isMap, isStruct, primitive } from './model.js';
import { dateOfDays, decimalString, fromBigEndian, uuidString } from './values.js';

/** Files up to this size are fetched whole; larger ones by ranges when the FileIO can. */
const WHOLE_FILE_BYTES = 1 << 20;

/** A hyparquet buffer over a file of a FileIO (ranged reads when the IO has them and the file is large). */
export async function openFile(io: FileIO, location: string, byteLength?: number): Promise<AsyncBuffer> {
  if (io.readRange && byteLength !== undefined && byteLength > WHOLE_FILE_BYTES) {
    const readRange = io.readRange.bind(io);
    return cachedAsyncBuffer({
      byteLength,
      slice: async (start: number, end?: number) => {
        const b = await readRange(location, start, end ?? byteLength);
        return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
      },
    });
  }
  const bytes = await io.read(location);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { byteLength: buffer.byteLength, slice: (start: number, end?: number) => buffer.slice(start, end) };
}

let compressors: Promise<Compressors | undefined> | undefined;
/** Decompressors beyond snappy (zstd, gzip, brotli, lz4: Java and pyiceberg write zstd by default), when installed. */
function loadCompressors(): Promise<Compressors | undefined> {
  compressors ??= import('hyparquet-compressors').then((m) => m.compressors as Compressors).catch(() => undefined);
  return compressors;
}

/** hyparquet's conversions that lose precision (dates, timestamps) are replaced by raw values. */
const RAW_PARSERS = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (v: number) => v,
  geometryFromBytes: (v: Uint8Array) => v,
  geographyFromBytes: (v: Uint8Array) => v,
};

interface ParquetReadOptions {
  rowStart?: number;
  rowEnd?: number;
  /** Parsed footer, when the caller has it. */
  metadata?: FileMetaData;
}

type Convert = (raw: unknown) => unknown;

/** Reads rows of a Parquet file projected onto `schema` by field id. */
export async function readParquet(file: AsyncBuffer, schema: StructType, options: ParquetReadOptions = {}): Promise<Record<string, unknown>[]> {
  const metadata = options.metadata ?? (await parquetMetadataAsync(file));
  const root = parquetSchema(metadata);
  const plan = schema.fields.map((f) => {
    const node = root.children.find((c) => c.element.field_id === f.id);
    return { name: f.name, node, convert: node ? converter(f.type, node) : undefined, missing: f['initial-default'] === undefined ? null : fromJsonValue(f.type, f['initial-default']) };
  });
  const columns = plan.flatMap((p) => (p.node ? [p.node.element.name] : []));
  const total = Number(metadata.num_rows);
  const rowStart = options.rowStart ?? 0;
  const rowEnd = Math.min(options.rowEnd ?? total, total);
  let raw: Record<string, unknown>[];
  if (columns.length === 0) raw = Array.from({ length: Math.max(0, rowEnd - rowStart) }, () => ({}));
  else {
    raw = await parquetReadObjects({
      file,
      metadata: { ...metadata, schema: metadata.schema.map(rawElement) },
      columns,
      rowStart,
      rowEnd,
      utf8: false,
      parsers: RAW_PARSERS,
      compressors: await loadCompressors(),
    });
  }
  return raw.map((r) => {
    const out: Record<string, unknown> = {};
    for (const p of plan) out[p.name] = p.node ? p.convert!(r[p.node.element.name]) : p.missing;
    return out;
  });
}

/** Decimal annotations make hyparquet return doubles; without them it returns the unscaled integer or bytes. */
function rawElement(e: SchemaElement): SchemaElement {
  if (e.converted_type !== 'DECIMAL' && e.logical_type?.type !== 'DECIMAL') return e;
  const { converted_type: _c, logical_type: _l, ...rest } = e;
  return rest;
}

function converter(type: IcebergType, node: SchemaTree): Convert {
  if (isStruct(type)) {
    const children = type.fields.map((f) => {
      const child = node.children.find((c) => c.element.field_id === f.id);
      const missing = f['initial-default'] === undefined ? null : fromJsonValue(f.type, f['initial-default']);
      return { name: f.name, pname: child?.element.name, convert: child ? converter(f.type, child) : () => missing };
    });
    return (raw) => {
      if (raw === null || raw === undefined) return null;
      const o = raw as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const c of children) out[c.name] = c.convert(c.pname === undefined ? null : o[c.pname]);
      return out;
    };
  }
  if (isList(type)) {
    // 3-level lists (`list.element`); a 2-level list's repeated child is the element itself.
    // (hyparquet assembles them the same way).
    let element = node.children[0]!;
    if (element.children.length === 1) element = element.children[0]!;
    const convert = converter(type.element, element);
    return (raw) => (raw === null || raw === undefined ? null : (raw as unknown[]).map(convert));
  }
  if (isMap(type)) {
    const kv = node.children[0]!;
    const keyNode = kv.children.find((c) => c.element.name === 'key') ?? kv.children[0]!;
    const valueNode = kv.children.find((c) => c.element.name === 'value') ?? kv.children[1]!;
    const key = keyFromString(type.key as string, keyNode.element);
    const value = converter(type.value, valueNode);
    return (raw) => {
      if (raw === null || raw === undefined) return null;
      const out = new Map<unknown, unknown>();
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out.set(key(k), value(v));
      return out;
    };
  }
  const convert = primitiveConverter(type as string, node.element);
  return (raw) => (raw === null || raw === undefined ? null : convert(raw));
}

const utf8 = new TextDecoder();

/** How many of the file's units make one of the table type's (timestamps written in millis or nanos). */
function timeUnitOf(e: SchemaElement): 'MILLIS' | 'MICROS' | 'NANOS' {
  if (e.type === 'INT96') return 'NANOS';
  if (e.converted_type === 'TIMESTAMP_MILLIS' || e.converted_type === 'TIME_MILLIS') return 'MILLIS';
  const lt = e.logical_type;
  if (lt && (lt.type === 'TIMESTAMP' || lt.type === 'TIME')) return lt.unit;
  return 'MICROS';
}

function primitiveConverter(type: string, e: SchemaElement): Convert {
  const p = primitive(type);
  switch (p.kind) {
    case 'int':
      return (v) => Number(v);
    case 'long':
      return (v) => (typeof v === 'bigint' ? v : BigInt(v as number));
    case 'float':
    case 'double':
      return (v) => Number(v);
    case 'decimal': {
      const scale = p.scale!;
      return (v) => decimalString(v instanceof Uint8Array ? fromBigEndian(v) : BigInt(v as number | bigint), scale);
    }
    case 'date':
      return (v) => dateOfDays(Number(v));
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns': {
      const wantNanos = p.kind.endsWith('_ns');
      const unit = timeUnitOf(e);
      const factor = { MILLIS: 1_000_000n, MICROS: 1000n, NANOS: 1n }[unit];
      return (v) => {
        const nanos = BigInt(v as number | bigint) * factor;
        return wantNanos ? nanos : unit === 'NANOS' ? floorDiv(nanos, 1000n) : nanos / 1000n;
      };
    }
    case 'string':
      return (v) => (typeof v === 'string' ? v : utf8.decode(v as Uint8Array));
    case 'uuid':
      return (v) => (typeof v === 'string' ? v : uuidString(v as Uint8Array));
    case 'fixed':
    case 'binary':
    case 'geometry':
    case 'geography':
      return (v) => (typeof v === 'string' ? new TextEncoder().encode(v) : (v as Uint8Array));
    default:
      return (v) => v;
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** hyparquet keys maps by `String(key)`: parse that back into the key type. */
function keyFromString(type: string, e: SchemaElement): (k: string) => unknown {
  const p = primitive(type);
  const bytes = (k: string): Uint8Array => (k === '' ? new Uint8Array(0) : Uint8Array.from(k.split(','), Number));
  switch (p.kind) {
    case 'int':
    case 'float':
    case 'double':
      return Number;
    case 'boolean':
      return (k) => k === 'true';
    case 'date':
      return (k) => dateOfDays(Number(k));
    case 'decimal':
      return (k) => decimalString(e.type === 'FIXED_LEN_BYTE_ARRAY' || e.type === 'BYTE_ARRAY' ? fromBigEndian(bytes(k)) : BigInt(k), p.scale!);
    case 'fixed':
    case 'binary':
      return bytes;
    case 'string':
    case 'uuid':
      return (k) => k;
    default: {
      const convert = primitiveConverter(type, e);
      return (k) => convert(BigInt(k));
    }
  }
}
