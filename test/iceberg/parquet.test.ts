/**
 * The Parquet layer on its own (bytes in memory, no server): every primitive type through the
 * writer and back through the reader unchanged, maps with non-string keys, type promotion on read
 * (int as long, float as double), nulls in required fields refused, and the manifest metrics as
 * Java computes them — counts, NaN handling, truncate(16) bounds with the incremented upper bound,
 * and the modes table properties choose.
 */
import { describe, expect, it } from 'vitest';
import { fromBytes } from '../../src/iceberg/conversions.js';
import { metricsModes } from '../../src/iceberg/metrics.js';
import { readParquet } from '../../src/iceberg/parquet-reader.js';
import { writeParquet } from '../../src/iceberg/parquet-writer.js';
import type { NestedField, StructType } from '../../src/iceberg/types.js';

const struct = (fields: NestedField[]): StructType => ({ type: 'struct', fields });
const opt = (id: number, name: string, type: NestedField['type']): NestedField => ({ id, name, required: false, type });
const buffer = (bytes: Uint8Array) => {
  const b = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { byteLength: b.byteLength, slice: (s: number, e?: number) => b.slice(s, e) };
};
const roundTrip = async (schema: StructType, rows: Record<string, unknown>[], readSchema = schema) =>
  readParquet(buffer(writeParquet(schema, rows).bytes), readSchema);

describe('values through Parquet', () => {
  it('keeps every primitive type exactly', async () => {
    const schema = struct([
      opt(1, 'b', 'boolean'), opt(2, 'i', 'int'), opt(3, 'l', 'long'), opt(4, 'f', 'float'), opt(5, 'd', 'double'),
      opt(6, 'dec9', 'decimal(9, 2)'), opt(7, 'dec38', 'decimal(38, 10)'), opt(8, 'date', 'date'), opt(9, 'time', 'time'),
      opt(10, 'ts', 'timestamp'), opt(11, 'tstz', 'timestamptz'), opt(12, 'tsns', 'timestamp_ns'), opt(13, 's', 'string'),
      opt(14, 'u', 'uuid'), opt(15, 'fx', 'fixed[4]'), opt(16, 'bin', 'binary'), opt(17, 'weird name!', 'string'),
    ]);
    const rows = [
      {
        b: true, i: -2147483648, l: -(2n ** 63n), f: Math.fround(1.1), d: -0, dec9: '-9999999.99', dec38: '-1234567890123456789012345678.0123456789',
        date: new Date('1969-12-31T00:00:00Z'), time: 86_399_999_999n, ts: -1n, tstz: 1_700_000_000_123_456n, tsns: 1_700_000_000_123_456_789n,
        s: 'héllo 😀', u: 'f79c3e09-677c-4bbd-a479-3f349cb785e7', fx: Uint8Array.of(0, 255, 1, 2), bin: new Uint8Array(0), 'weird name!': 'w',
      },
      Object.fromEntries(schema.fields.map((f) => [f.name, null])),
    ];
    expect(await roundTrip(schema, rows)).toEqual(rows);
  });

  it('reads maps keyed by longs, dates, decimals and binary as Maps with typed keys', async () => {
    const map = (id: number, key: string, value = 'int'): NestedField['type'] => ({ type: 'map', 'key-id': id, key, 'value-id': id + 1, value, 'value-required': false });
    const schema = struct([
      opt(1, 'byLong', map(10, 'long')), opt(2, 'byDate', map(12, 'date')), opt(3, 'byDec', map(14, 'decimal(20, 2)')),
      opt(4, 'byBin', map(16, 'binary')), opt(5, 'nested', map(18, 'string', 'string')),
    ]);
    const rows = [{
      byLong: new Map([[2n ** 62n, 1], [-5n, null]]),
      byDate: new Map([[new Date('2024-02-29T00:00:00Z'), 2]]),
      byDec: new Map([['-0.05', 3]]),
      byBin: new Map([[Uint8Array.of(1, 2, 3), 4], [new Uint8Array(0), 5]]),
      nested: new Map([['k', 'v']]),
    }];
    expect(await roundTrip(schema, rows)).toEqual(rows);
  });

  it('reads columns by field id: renamed, promoted, missing', async () => {
    const written = struct([opt(1, 'a', 'int'), opt(2, 'b', 'float'), opt(3, 's', struct([opt(4, 'x', 'int')]))]);
    const read = struct([
      opt(2, 'bee', 'double'), opt(1, 'a', 'long'), opt(3, 's', struct([opt(5, 'y', 'string'), opt(4, 'ex', 'long')])),
      { id: 6, name: 'added', required: false, type: 'decimal(5, 1)', 'initial-default': '2.5' },
    ]);
    expect(await roundTrip(written, [{ a: 7, b: 0.5, s: { x: 1 } }], read)).toEqual([{ bee: 0.5, a: 7n, s: { y: null, ex: 1n }, added: '2.5' }]);
  });

  it('refuses a null in a required field and values of the wrong type', () => {
    const schema = struct([{ id: 1, name: 'id', required: true, type: 'long' }, opt(2, 'd', 'decimal(3, 1)')]);
    expect(() => writeParquet(schema, [{ id: null }])).toThrow(/required field id is null/);
    expect(() => writeParquet(schema, [{ id: 'x' }])).toThrow(/field id \(long\) cannot take "x"/);
    expect(() => writeParquet(schema, [{ id: 1n, d: '123.4' }])).toThrow(/decimal\(3, 1\)/);
    // A required field inside a null struct is fine.
    const nested = struct([opt(1, 's', struct([{ id: 2, name: 'r', required: true, type: 'int' }]))]);
    expect(writeParquet(nested, [{ s: null }]).recordCount).toBe(1);
  });
});

describe('metrics', () => {
  const schema = struct([
    opt(1, 'f', 'double'), opt(2, 's', 'string'), opt(3, 'bin', 'binary'),
    opt(4, 'list', { type: 'list', 'element-id': 5, element: 'int', 'element-required': true }), opt(6, 'st', struct([opt(7, 'n', 'int')])),
  ]);
  const long = 'abcdefghijklmnopqrstuvwxyz';
  const rows = [
    { f: NaN, s: long, bin: new Uint8Array(20).fill(0xff), list: [1, 2], st: { n: 3 } },
    { f: -0, s: 'abcdefghijklmnop\u{10FFFF}', bin: Uint8Array.of(1, 0xff, ...new Array(18).fill(0xff)), list: null, st: null },
    { f: 0, s: null, bin: null, list: [], st: { n: null } },
  ];

  it('counts values, nulls and NaNs, bounds without NaN, truncates strings and binary to 16 with the upper bound incremented', () => {
    const m = writeParquet(schema, rows).metrics;
    expect(m.value_counts).toEqual(new Map([[1, 3], [2, 3], [3, 3], [7, 3]]));
    expect(m.null_value_counts).toEqual(new Map([[1, 0], [2, 1], [3, 1], [7, 2]]));
    expect(m.nan_value_counts).toEqual(new Map([[1, 1]]));
    expect(Object.is(fromBytes('double', m.lower_bounds.get(1)!), -0)).toBe(true);
    expect(Object.is(fromBytes('double', m.upper_bounds.get(1)!), 0)).toBe(true);
    expect(fromBytes('string', m.lower_bounds.get(2)!)).toBe('abcdefghijklmnop');
    // The max string's 17th code point is cut; 'p' (the 16th) is incremented.
    expect(fromBytes('string', m.upper_bounds.get(2)!)).toBe('abcdefghijklmnoq');
    expect(Buffer.from(m.lower_bounds.get(3)!).toString('hex')).toBe('01' + 'ff'.repeat(15));
    // All sixteen bytes of the max are 0xff: no upper bound exists.
    expect(m.upper_bounds.has(3)).toBe(false);
    expect([...m.column_sizes.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 5, 7]);
  });

  it('follows the modes in table properties', () => {
    const modes = metricsModes(schema, { 'write.metadata.metrics.default': 'counts', 'write.metadata.metrics.column.s': 'full', 'write.metadata.metrics.column.st.n': 'none' });
    const m = writeParquet(schema, rows, { metricsMode: modes }).metrics;
    expect([...m.lower_bounds.keys()]).toEqual([2]);
    expect(fromBytes('string', m.upper_bounds.get(2)!)).toBe('abcdefghijklmnop\u{10FFFF}');
    expect(fromBytes('string', m.lower_bounds.get(2)!)).toBe(long);
    expect(m.value_counts.has(7)).toBe(false);
    expect(m.column_sizes.has(7)).toBe(false);
    expect(m.value_counts.get(1)).toBe(3);
    // Wide tables: only the first 100 columns get metrics unless configured.
    const wide = struct(Array.from({ length: 101 }, (_, i) => opt(i + 1, `c${i}`, 'int')));
    const wideModes = metricsModes(wide, {});
    expect([wideModes(100).kind, wideModes(101).kind]).toEqual(['truncate', 'none']);
  });
});
