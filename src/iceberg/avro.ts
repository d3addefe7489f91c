/**
 * Avro object container files (Avro 1.11 spec, "Object Container Files") over avsc's binary
 * codecs: the header (magic, key-value metadata, sync marker) and data blocks, written with the
 * deflate or null codec and read with either. The schema text written to `avro.schema` is the
 * caller's JSON exactly (so Iceberg's `field-id`, `element-id` and `logicalType: map` attributes
 * reach other readers as the Java library writes them). Longs decode as numbers, except the fields
 * whose `field-id` the caller names (Iceberg snapshot ids, 63 random bits): those are `bigint` on
 * both sides. A long beyond 2^53 in any other field still decodes, as a `bigint`, never rounded.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import avsc from 'avsc';

type AvroCodec = 'null' | 'deflate';

interface AvroWriteOptions {
  /** File metadata (`avro.schema` and `avro.codec` are set here). */
  metadata?: Record<string, string>;
  codec?: AvroCodec;
  /** Field ids whose longs are bigints. */
  bigintFieldIds?: ReadonlySet<number>;
}

interface AvroReadOptions {
  bigintFieldIds?: ReadonlySet<number>;
}

interface AvroHeader {
  /** The writer schema, parsed. */
  schema: AvroSchemaJson;
  /** Every key-value pair, `avro.schema` and `avro.codec` included, as UTF-8 text. */
  metadata: Record<string, string>;
  codec: AvroCodec;
  sync: Uint8Array;
  /** Where the first block starts. */
  offset: number;
}

/** An Avro schema as JSON (record, array, map, fixed, union, primitive name, or a named reference). */
export type AvroSchemaJson = string | AvroSchemaJson[] | { [key: string]: unknown };

const MAGIC = Buffer.from([0x4f, 0x62, 0x6a, 0x01]);
const HEADER_META = avsc.Type.forSchema({ type: 'map', values: 'bytes' });
/** Blocks are cut near this many bytes of encoded records (Avro's default sync interval). */
const BLOCK_BYTES = 64 * 1024;

function longType(toValue: (n: bigint) => number | bigint): avsc.Type {
  const LongType = (avsc.types.LongType as unknown as {
    __with(methods: Record<string, unknown>): avsc.Type;
  });
  return LongType.__with({
    fromBuffer: (buf: Buffer) => toValue(buf.readBigInt64LE(0)),
    toBuffer: (v: number | bigint) => {
      const buf = Buffer.alloc(8);
      buf.writeBigInt64LE(BigInt(v));
      return buf;
    },
    fromJSON: (v: unknown) => toValue(BigInt(v as number)),
    toJSON: (v: number | bigint) => Number(v),
    isValid: (v: unknown) => typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v)),
    compare: (a: number | bigint, b: number | bigint) => (a === b ? 0 : a < b ? -1 : 1),
  });
}

const BIGINT_LONG = longType((n) => n);
const NUMBER_LONG = longType((n) => (n >= -9007199254740991n && n <= 9007199254740991n ? Number(n) : n));

/** avsc types by schema text and bigint ids: manifests of one table share a handful of schemas. */
const typeCache = new Map<string, avsc.Type>();

/** The avsc type for a schema, with bigint longs at the named field ids. */
function avroType(schema: AvroSchemaJson, bigintFieldIds: ReadonlySet<number> = new Set()): avsc.Type {
  const text = JSON.stringify(schema);
  const key = `${[...bigintFieldIds].sort().join(',')}|${text}`;
  let type = typeCache.get(key);
  if (type) return type;
  const marked = new WeakSet<object>();
  const copy = JSON.parse(text) as AvroSchemaJson;
  markBigints(copy, bigintFieldIds, marked);
  type = avsc.Type.forSchema(copy as avsc.Schema, {
    wrapUnions: 'never',
    typeHook: (s) => {
      if (typeof s === 'object' && s !== null && marked.has(s)) return BIGINT_LONG;
      if (s === 'long' || (typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'long')) return NUMBER_LONG;
      return undefined;
    },
  });
  if (typeCache.size > 256) typeCache.clear();
  typeCache.set(key, type);
  return type;
}

function markBigints(schema: AvroSchemaJson, ids: ReadonlySet<number>, marked: WeakSet<object>): void {
  if (Array.isArray(schema)) {
    for (const s of schema) markBigints(s, ids, marked);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as Record<string, unknown>;
  if (s.type === 'record' && Array.isArray(s.fields)) {
    for (const f of s.fields as Record<string, unknown>[]) {
      if (ids.has(f['field-id'] as number)) f.type = markLong(f.type as AvroSchemaJson, marked);
      markBigints(f.type as AvroSchemaJson, ids, marked);
    }
  } else if (s.type === 'array') markBigints(s.items as AvroSchemaJson, ids, marked);
  else if (s.type === 'map') markBigints(s.values as AvroSchemaJson, ids, marked);
}

function markLong(type: AvroSchemaJson, marked: WeakSet<object>): AvroSchemaJson {
  if (Array.isArray(type)) return type.map((t) => markLong(t, marked));
  if (type === 'long' || (typeof type === 'object' && (type as { type?: unknown }).type === 'long')) {
    const obj = typeof type === 'object' ? type : { type: 'long' };
    marked.add(obj as object);
    return obj;
  }
  return type;
}

/** Encodes records into an object container file. */
export function writeAvro(schema: AvroSchemaJson, records: Iterable<unknown>, options: AvroWriteOptions = {}): Uint8Array {
  const codec = options.codec ?? 'deflate';
  const type = avroType(schema, options.bigintFieldIds);
  const meta: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(options.metadata ?? {})) meta[k] = Buffer.from(v, 'utf8');
  meta['avro.schema'] = Buffer.from(JSON.stringify(schema), 'utf8');
  meta['avro.codec'] = Buffer.from(codec, 'utf8');
  const sync = randomBytes(16);
  const parts: Buffer[] = [MAGIC, HEADER_META.toBuffer(meta), sync];

  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const raw = Buffer.concat(pending, pendingBytes);
    const data = codec === 'deflate' ? deflateRawSync(raw) : raw;
    parts.push(zigzag(pending.length), zigzag(data.length), data, sync);
    pending = [];
    pendingBytes = 0;
  };
  for (const record of records) {
    const buf = type.toBuffer(record);
    pending.push(buf);
    pendingBytes += buf.length;
    if (pendingBytes >= BLOCK_BYTES) flush();
  }
  flush();
  return Buffer.concat(parts);
}

function zigzag(n: number): Buffer {
  const bytes: number[] = [];
  let v = BigInt(n);
  v = (v << 1n) ^ (v >> 63n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    bytes.push(b);
  } while (v !== 0n);
  return Buffer.from(bytes);
}

function readZigzag(buf: Buffer, pos: number): [number, number] {
  let shift = 0;
  let n = 0;
  let b: number;
  do {
    if (pos >= buf.length) throw new Error('truncated Avro file');
    b = buf[pos++]!;
    n += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [n % 2 === 0 ? n / 2 : -(n + 1) / 2, pos];
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Reads the header only (schema, metadata, codec, sync marker). */
export function readAvroHeader(bytes: Uint8Array): AvroHeader {
  const buf = asBuffer(bytes);
  if (buf.length < 4 || !buf.subarray(0, 4).equals(MAGIC)) throw new Error('not an Avro object container file');
  const { value, offset } = HEADER_META.decode(buf, 4);
  if (offset < 0 || offset + 16 > buf.length) throw new Error('truncated Avro header');
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, Buffer>)) metadata[k] = v.toString('utf8');
  const codec = (metadata['avro.codec'] ?? 'null') as AvroCodec;
  if (codec !== 'null' && codec !== 'deflate') throw new Error(`unsupported Avro codec ${codec}`);
  const schemaText = metadata['avro.schema'];
  if (!schemaText) throw new Error('Avro file without a schema');
  return { schema: JSON.parse(schemaText) as AvroSchemaJson, metadata, codec, sync: buf.subarray(offset, offset + 16), offset: offset + 16 };
}

/** Reads a whole container file: header and every record (decoded with the writer's schema). */
export function readAvro(bytes: Uint8Array, options: AvroReadOptions = {}): AvroHeader & { records: unknown[] } {
  const buf = asBuffer(bytes);
  const header = readAvroHeader(buf);
  const type = avroType(header.schema, options.bigintFieldIds);
  const records: unknown[] = [];
  let pos = header.offset;
  while (pos < buf.length) {
    let count: number;
    let size: number;
    [count, pos] = readZigzag(buf, pos);
    [size, pos] = readZigzag(buf, pos);
    if (size < 0 || pos + size + 16 > buf.length) throw new Error('truncated Avro block');
    const raw = buf.subarray(pos, pos + size);
    pos += size;
    if (!buf.subarray(pos, pos + 16).equals(header.sync)) throw new Error('Avro sync marker mismatch');
    pos += 16;
    const data = header.codec === 'deflate' ? inflateRawSync(raw) : raw;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const { value, offset } = type.decode(data, at);
      if (offset < 0) throw new Error('truncated Avro record');
      records.push(value);
      at = offset;
    }
  }
  return { ...header, records };
}
