/**
 * Tables written by the library into S3 Tables warehouses on a test server and read back by the
 * library's own scan, by icebird (an Iceberg reader from npm, fetching over Overcast's S3), and by
 * hyparquet directly (the data files carry Iceberg field ids): a partitioned table (identity,
 * bucket, day) with nested types, two appends and time travel to the first; an unpartitioned
 * table of 1,000 rows; schema evolution read by field id.
 */
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { icebergRead } from 'icebird';
import { describe, expect, it } from '../helpers/fixture.js';
import { appendRows } from '../../src/iceberg/append.js';
import { applyTransform } from '../../src/iceberg/transforms.js';
import { readRows } from '../../src/iceberg/scan.js';
import type { TableMetadata } from '../../src/iceberg/types.js';
import { commitSnapshot, createIcebergTable, evolveSchema, redirectS3Fetch } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';

let io: CountingFileIO;
let restoreFetch: () => void;
it.beforeAll(async ({ server: t }) => {
  io = s3FileIO(t);
  restoreFetch = redirectS3Fetch(t.endpoint);
});
it.afterAll(() => restoreFetch());

type Row = Record<string, unknown>;

const NESTED = {
  schemaV2: {
    type: 'struct' as const,
    fields: [
      { id: 1, name: 'id', type: 'long', required: true },
      { id: 2, name: 'category', type: 'string', required: false },
      { id: 3, name: 'ts', type: 'timestamptz', required: false },
      { id: 4, name: 'price', type: 'decimal(10, 2)', required: false },
      { id: 5, name: 'tags', required: false, type: { type: 'list', 'element-id': 6, element: 'string', 'element-required': false } },
      { id: 7, name: 'attrs', required: false, type: { type: 'map', 'key-id': 8, key: 'string', 'value-id': 9, value: 'int', 'value-required': false } },
      {
        id: 10, name: 'location', required: false,
        type: { type: 'struct', fields: [{ id: 11, name: 'lat', type: 'double', required: true }, { id: 12, name: 'lon', type: 'double', required: false }] },
      },
      { id: 13, name: 'day', type: 'date', required: false },
      { id: 14, name: 'uid', type: 'uuid', required: false },
    ],
  },
  partitionSpec: {
    fields: [
      { sourceId: 2, transform: 'identity', name: 'category' },
      { sourceId: 1, transform: 'bucket[4]', name: 'id_bucket' },
      { sourceId: 3, transform: 'day', name: 'ts_day' },
    ],
  },
};

const BASE_TS = 1_700_000_000_123_456n; // 2023-11-14T22:13:20.123456Z

function nestedRow(i: number): Row {
  return {
    id: BigInt(i),
    category: i % 3 === 0 ? null : `cat${i % 3}`,
    ts: BASE_TS + BigInt(i % 2) * 86_400_000_000n + BigInt(i),
    price: `${i}.${String(i % 100).padStart(2, '0')}`,
    tags: i % 4 === 0 ? null : [`t${i}`, null],
    attrs: new Map<string, number | null>([[`k${i}`, i], ['none', null]]),
    location: i % 5 === 0 ? null : { lat: i / 2, lon: i % 2 ? null : -i },
    day: new Date(Date.UTC(2024, 0, 1 + i)),
    uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  };
}

/** The row as icebird (hyparquet's default conversions) returns it. */
function asIcebird(r: Row): Row {
  return {
    ...r,
    ts: new Date(Number((r.ts as bigint) / 1000n)),
    price: Number(r.price),
    attrs: Object.fromEntries(r.attrs as Map<string, unknown>),
    uid: Uint8Array.from(Buffer.from((r.uid as string).replace(/-/g, ''), 'hex')),
  };
}

const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);
/** icebird leaves nulls of nested columns undefined and decimals as doubles. */
const normalizeIcebird = (r: Row): Row => ({
  ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === undefined ? null : v])),
  price: r.price === null || r.price === undefined ? null : Number((r.price as number).toFixed(2)),
  uid: r.uid === null || r.uid === undefined ? null : Uint8Array.from(r.uid as Uint8Array),
});

describe('a partitioned table with nested types', () => {
  it('appends twice, reads back through the library and icebird, and time-travels to the first snapshot', async ({ server: t, s3tables: s3t }) => {
    let table = await createIcebergTable(io, s3t, NESTED);
    const rowsA = Array.from({ length: 12 }, (_, i) => nestedRow(i));
    const first = await appendRows(io, table.metadata, rowsA);
    expect(first.snapshot['snapshot-id']).toBeTypeOf('bigint');
    expect(first.snapshot['snapshot-id'] > 0n && first.snapshot['snapshot-id'] < 2n ** 63n).toBe(true);
    expect(first.snapshot).not.toHaveProperty('parent-snapshot-id');
    expect(first.snapshot['sequence-number']).toBe(1);
    expect(first.snapshot['schema-id']).toBe(0);
    const files = first.dataFiles.length;
    expect(files).toBeGreaterThan(4);
    const size = first.dataFiles.reduce((n, f) => n + f.file_size_in_bytes, 0);
    expect(first.snapshot.summary).toEqual({
      operation: 'append',
      'added-data-files': String(files),
      'added-records': '12',
      'added-files-size': String(size),
      'changed-partition-count': String(files),
      'total-records': '12',
      'total-files-size': String(size),
      'total-data-files': String(files),
      'total-delete-files': '0',
      'total-position-deletes': '0',
      'total-equality-deletes': '0',
    });
    const location = table.metadata.location;
    for (const f of first.dataFiles) {
      expect(f.file_path).toMatch(
        new RegExp(`^${location}/data/category=(cat1|cat2|null)/id_bucket=[0-3]/ts_day=2023-11-1[45]/00000-0-[0-9a-f-]{36}-000\\d\\d\\.parquet$`),
      );
      expect(Object.keys(f.partition)).toEqual(['category', 'id_bucket', 'ts_day']);
    }
    expect(first.manifestList).toMatch(new RegExp(`^${location}/metadata/snap-${first.snapshot['snapshot-id']}-1-[0-9a-f-]{36}\\.avro$`));
    table = await commitSnapshot(t, table, first.snapshot);

    const rowsB = Array.from({ length: 6 }, (_, i) => nestedRow(100 + i));
    const second = await appendRows(io, table.metadata, rowsB);
    expect(second.snapshot['parent-snapshot-id']).toBe(first.snapshot['snapshot-id']);
    expect(second.snapshot['sequence-number']).toBe(2);
    expect(second.snapshot.summary['total-records']).toBe('18');
    expect(second.snapshot.summary['total-data-files']).toBe(String(files + second.dataFiles.length));
    expect(second.allManifests.map((m) => m.manifest_path)).toEqual([...second.manifests, ...first.manifests].map((m) => m.manifest_path));
    table = await commitSnapshot(t, table, second.snapshot);

    const all = [...rowsA, ...rowsB];
    expect((await readRows(io, table.metadata)).sort(byId)).toEqual(all);
    expect((await readRows(io, table.metadata, { snapshotId: first.snapshot['snapshot-id'] })).sort(byId)).toEqual(rowsA);

    const tableUrl = location;
    const viaIcebird = (await icebergRead({ tableUrl, metadata: table.metadata as never })) as Row[];
    expect(viaIcebird.map(normalizeIcebird).sort(byId)).toEqual(all.map(asIcebird));
    const asOfFirst: TableMetadata = { ...table.metadata, 'current-snapshot-id': first.snapshot['snapshot-id'] };
    const firstViaIcebird = (await icebergRead({ tableUrl, metadata: asOfFirst as never })) as Row[];
    expect(firstViaIcebird.map(normalizeIcebird).sort(byId)).toEqual(rowsA.map(asIcebird));
  });

  it('writes Parquet whose schema carries the Iceberg field ids, readable by hyparquet alone', async ({ s3tables: s3t }) => {
    const table = await createIcebergTable(io, s3t, NESTED);
    // Two ids in the same bucket, so one partition and one file.
    const other = [...Array(100).keys()].find((i) => i > 0 && applyTransform('bucket[4]', 'long', BigInt(i)) === applyTransform('bucket[4]', 'long', 0n))!;
    const rows = [nestedRow(1), nestedRow(4)].map((r, i) => ({ ...r, id: BigInt(i * other), category: 'one', ts: BASE_TS }));
    const { dataFiles } = await appendRows(io, table.metadata, rows);
    expect(dataFiles).toHaveLength(1);
    const bytes = await io.read(dataFiles[0]!.file_path);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const meta = parquetMetadata(buffer);
    const ids = meta.schema.map((e) => [e.name, e.field_id ?? null, e.repetition_type ?? null]);
    expect(ids).toEqual([
      ['table', null, null],
      ['id', 1, 'REQUIRED'],
      ['category', 2, 'OPTIONAL'],
      ['ts', 3, 'OPTIONAL'],
      ['price', 4, 'OPTIONAL'],
      ['tags', 5, 'OPTIONAL'],
      ['list', null, 'REPEATED'],
      ['element', 6, 'OPTIONAL'],
      ['attrs', 7, 'OPTIONAL'],
      ['key_value', null, 'REPEATED'],
      ['key', 8, 'REQUIRED'],
      ['value', 9, 'OPTIONAL'],
      ['location', 10, 'OPTIONAL'],
      ['lat', 11, 'REQUIRED'],
      ['lon', 12, 'OPTIONAL'],
      ['day', 13, 'OPTIONAL'],
      ['uid', 14, 'OPTIONAL'],
    ]);
    const types = Object.fromEntries(meta.schema.map((e) => [e.name, [e.type, e.logical_type?.type ?? e.converted_type]]));
    expect(types.ts).toEqual(['INT64', 'TIMESTAMP']);
    expect(meta.schema.find((e) => e.name === 'ts')!.logical_type).toEqual({ type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' });
    expect(types.price).toEqual(['INT64', 'DECIMAL']);
    expect(types.day).toEqual(['INT32', 'DATE']);
    expect(types.uid).toEqual(['FIXED_LEN_BYTE_ARRAY', 'UUID']);
    expect(types.tags).toEqual([undefined, 'LIST']);
    expect(types.attrs).toEqual([undefined, 'MAP']);
    const kv = Object.fromEntries((meta.key_value_metadata ?? []).map((e) => [e.key, e.value]));
    expect(JSON.parse(kv['iceberg.schema']!)).toMatchObject({ type: 'struct', 'schema-id': 0, fields: NESTED.schemaV2.fields });
    const got = await parquetReadObjects({ file: buffer });
    expect(got.map((r) => [r.id, r.category, r.price, r.tags])).toEqual([
      [0n, 'one', 1.01, ['t1', null]],
      [BigInt(other), 'one', 4.04, null],
    ]);
  });
});

describe('an unpartitioned table', () => {
  const FLAT = {
    schemaV2: {
      type: 'struct' as const,
      fields: [
        { id: 1, name: 'id', type: 'long', required: true },
        { id: 2, name: 'name', type: 'string', required: false },
        { id: 3, name: 'score', type: 'double', required: false },
      ],
    },
  };
  const flatRow = (i: number): Row => ({ id: BigInt(i), name: `name-${i}`, score: i % 10 === 0 ? null : i * 1.5 });

  it('appends 1,000 rows as one file, carries the first manifest into the second snapshot, and reads each file once', async ({ server: t, s3tables: s3t }) => {
    let table = await createIcebergTable(io, s3t, FLAT);
    const rows = Array.from({ length: 1000 }, (_, i) => flatRow(i));
    const first = await appendRows(io, table.metadata, rows);
    expect(first.dataFiles).toHaveLength(1);
    const file = first.dataFiles[0]!;
    expect(file.file_path).toMatch(new RegExp(`^${table.metadata.location}/data/00000-0-[0-9a-f-]{36}-00001\\.parquet$`));
    expect(file.record_count).toBe(1000);
    expect(file.value_counts).toEqual(new Map([[1, 1000], [2, 1000], [3, 1000]]));
    expect(file.null_value_counts).toEqual(new Map([[1, 0], [2, 0], [3, 100]]));
    expect(file.nan_value_counts).toEqual(new Map([[3, 0]]));
    expect([...file.column_sizes!.keys()]).toEqual([1, 2, 3]);
    expect(first.snapshot.summary['changed-partition-count']).toBe('1');
    table = await commitSnapshot(t, table, first.snapshot);
    const second = await appendRows(io, table.metadata, [flatRow(1000)]);
    table = await commitSnapshot(t, table, second.snapshot);

    io.reset();
    const got = await readRows(io, table.metadata);
    expect(got).toHaveLength(1001);
    expect(got.sort(byId)).toEqual([...rows, flatRow(1000)]);
    // One manifest list, two manifests, two data files: each read once, nothing else.
    expect(io.stats.reads + io.stats.rangeReads).toBe(5);
    expect(new Set(io.stats.locationsRead).size).toBe(5);

    const viaIcebird = (await icebergRead({ tableUrl: table.metadata.location, metadata: table.metadata as never })) as Row[];
    expect(viaIcebird.sort(byId)).toEqual([...rows, flatRow(1000)]);
  });

  it('reads a renamed column by field id, an added column as null or its initial-default, and old snapshots with their schema (v3)', async ({ server: t, s3tables: s3t }) => {
    // Format version 3: initial defaults and row lineage.
    let table = await createIcebergTable(io, s3t, { ...FLAT, properties: { 'format-version': '3' } });
    expect(table.metadata['format-version']).toBe(3);
    const first = await appendRows(io, table.metadata, [flatRow(1), flatRow(2)]);
    expect([first.snapshot['first-row-id'], first.snapshot['added-rows']]).toEqual([0, 2]);
    table = await commitSnapshot(t, table, first.snapshot);
    expect(table.metadata['next-row-id']).toBe(2);
    table = await evolveSchema(t, table, {
      type: 'struct',
      fields: [
        { id: 1, name: 'id', type: 'long', required: true },
        { id: 2, name: 'full_name', type: 'string', required: false },
        { id: 3, name: 'score', type: 'double', required: false },
        { id: 4, name: 'level', type: 'int', required: false, 'initial-default': 7 },
        { id: 5, name: 'note', type: 'string', required: false },
      ],
    });
    const second = await appendRows(io, table.metadata, [{ id: 3n, full_name: 'three', score: 1, level: 1, note: 'n' }]);
    expect(second.snapshot['schema-id']).toBe(1);
    expect([second.snapshot['first-row-id'], second.snapshot['added-rows']]).toEqual([2, 1]);
    expect(second.allManifests.map((m) => m.first_row_id)).toEqual([2, 0]);
    table = await commitSnapshot(t, table, second.snapshot);

    expect((await readRows(io, table.metadata)).sort(byId)).toEqual([
      { id: 1n, full_name: 'name-1', score: 1.5, level: 7, note: null },
      { id: 2n, full_name: 'name-2', score: 3, level: 7, note: null },
      { id: 3n, full_name: 'three', score: 1, level: 1, note: 'n' },
    ]);
    expect((await readRows(io, table.metadata, { snapshotId: first.snapshot['snapshot-id'] })).sort(byId)).toEqual([flatRow(1), flatRow(2)]);
  });
});
