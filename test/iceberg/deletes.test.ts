/**
 * Row-level deletes written by the library on a test server and applied by its reader as the
 * spec's "Scan Planning" says: position deletes (same partition, sequence number ≤ the delete's,
 * rows added in the same commit included), equality deletes (strictly older data only, by
 * partition or globally from an unpartitioned spec), the `delete`/`overwrite` snapshots and their
 * summaries, time travel to before the deletes, `liveFiles` for maintenance, and icebird reading
 * the same table.
 */
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { icebergRead } from 'icebird';
import { describe, expect, it } from '../helpers/fixture.js';
import { appendRows } from '../../src/iceberg/append.js';
import { rowDelta } from '../../src/iceberg/deletes.js';
import { liveFiles, readRows } from '../../src/iceberg/scan.js';
import { refSnapshot } from '../../src/iceberg/model.js';
import { commitSnapshot, createIcebergTable, redirectS3Fetch, type IcebergTable } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';
import type { TestServer } from '../helpers/server.js';

let io: CountingFileIO;
let restoreFetch: () => void;
it.beforeAll(async ({ server: t }) => {
  io = s3FileIO(t);
  restoreFetch = redirectS3Fetch(t.endpoint);
});
it.afterAll(() => restoreFetch());

type Row = Record<string, unknown>;
const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);
const fields = [
  { id: 1, name: 'id', type: 'long', required: true },
  { id: 2, name: 'category', type: 'string', required: true },
  { id: 3, name: 'value', type: 'int', required: false },
];
const row = (id: number, category: string): Row => ({ id: BigInt(id), category, value: id * 10 });
const ids = (rows: Row[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);

async function seeded(t: TestServer, s3t: S3TablesClient, partitioned: boolean): Promise<{ table: IcebergTable; rows: Row[] }> {
  let table = await createIcebergTable(io, s3t, {
    schemaV2: { type: 'struct', fields },
    ...(partitioned ? { partitionSpec: { fields: [{ sourceId: 2, transform: 'identity', name: 'category' }] } } : {}),
  });
  const rows = [row(1, 'a'), row(2, 'a'), row(3, 'a'), row(4, 'b'), row(5, 'b')];
  const append = await appendRows(io, table.metadata, rows);
  table = await commitSnapshot(t, table, append.snapshot);
  return { table, rows };
}

describe('position deletes', () => {
  it('remove rows by file and position, in a delete snapshot that time travel can skip', async ({ server: t, s3tables: s3t }) => {
    let { table } = await seeded(t, s3t, true);
    const { data } = await liveFiles(io, table.metadata, refSnapshot(table.metadata)!);
    const fileA = data.find((f) => f.file.partition.category === 'a')!.file.file_path;
    const before = table.metadata['current-snapshot-id']!;

    const delta = await rowDelta(io, table.metadata, { positionDeletes: [{ file_path: fileA, pos: 2 }, { file_path: fileA, pos: 0 }] });
    expect(delta.snapshot.summary).toMatchObject({
      operation: 'delete',
      'added-delete-files': '1',
      'added-position-delete-files': '1',
      'added-position-deletes': '2',
      'changed-partition-count': '1',
      'total-records': '5',
      'total-data-files': '2',
      'total-delete-files': '1',
      'total-position-deletes': '2',
      'total-equality-deletes': '0',
    });
    expect(delta.snapshot.summary).not.toHaveProperty('added-records');
    const [del] = delta.deleteFiles;
    expect(del).toMatchObject({ content: 1, record_count: 2, partition: { category: 'a' }, referenced_data_file: fileA, sort_order_id: null });
    expect(del!.file_path).toMatch(new RegExp(`^${table.metadata.location}/data/category=a/00000-0-[0-9a-f-]{36}-00001-deletes\\.parquet$`));
    // Full metrics on both columns: the bounds are the exact path and positions.
    expect(Buffer.from(del!.lower_bounds!.get(2147483546)!).toString()).toBe(fileA);
    expect(Buffer.from(del!.upper_bounds!.get(2147483545)!).readBigInt64LE()).toBe(2n);
    expect(delta.manifests.map((m) => m.content)).toEqual([1]);
    table = await commitSnapshot(t, table, delta.snapshot);

    expect(ids(await readRows(io, table.metadata))).toEqual([2, 4, 5]);
    expect(ids(await readRows(io, table.metadata, { snapshotId: before }))).toEqual([1, 2, 3, 4, 5]);
    const viaIcebird = (await icebergRead({ tableUrl: table.metadata.location, metadata: table.metadata as never })) as Row[];
    expect(ids(viaIcebird)).toEqual([2, 4, 5]);

    const live = await liveFiles(io, table.metadata, refSnapshot(table.metadata)!);
    expect(live.data.map((f) => [f.file.partition.category, f.sequenceNumber])).toEqual([['a', 1], ['b', 1]]);
    expect(live.deletes.map((f) => [f.file.file_path, f.sequenceNumber, f.entry.snapshot_id])).toEqual([[del!.file_path, 2, delta.snapshot['snapshot-id']]]);
  });

  it('refuses files that are not live in the table, and position delete files on format v3', async ({ server: t, s3tables: s3t }) => {
    const { table } = await seeded(t, s3t, false);
    await expect(rowDelta(io, table.metadata, { positionDeletes: [{ file_path: `${table.metadata.location}/data/nope.parquet`, pos: 0 }] })).rejects.toThrow(/not a live data file/);
    await expect(rowDelta(io, { ...table.metadata, 'format-version': 3 }, { positionDeletes: [{ file_path: 'x', pos: 0 }] })).rejects.toThrow(/deletion vectors/);
  });
});

describe('equality deletes', () => {
  it('apply to older data in their partition only, not to rows added in the same commit', async ({ server: t, s3tables: s3t }) => {
    let { table } = await seeded(t, s3t, true);
    // Delete id 1 and id 4 in partition a: id 4 lives in b, so it survives; the new id 1 row, added alongside, survives too.
    const delta = await rowDelta(io, table.metadata, {
      rows: [{ id: 1n, category: 'a', value: 999 }],
      equalityDeletes: { equalityIds: [1], rows: [{ id: 1n, category: 'a' }, { id: 4n, category: 'a' }] },
    });
    expect(delta.snapshot.summary).toMatchObject({
      operation: 'overwrite',
      'added-data-files': '1',
      'added-records': '1',
      'added-delete-files': '1',
      'added-equality-delete-files': '1',
      'added-equality-deletes': '2',
      'total-records': '6',
      'total-equality-deletes': '2',
    });
    expect(delta.deleteFiles[0]).toMatchObject({ content: 2, equality_ids: [1], partition: { category: 'a' }, record_count: 2 });
    expect(delta.manifests.map((m) => m.content)).toEqual([0, 1]);
    table = await commitSnapshot(t, table, delta.snapshot);

    const rows = (await readRows(io, table.metadata)).sort(byId);
    expect(rows).toEqual([{ id: 1n, category: 'a', value: 999 }, row(2, 'a'), row(3, 'a'), row(4, 'b'), row(5, 'b')]);
  });

  it('apply to every partition from an unpartitioned table, and compose with later appends', async ({ server: t, s3tables: s3t }) => {
    let { table } = await seeded(t, s3t, false);
    const delta = await rowDelta(io, table.metadata, { equalityDeletes: { equalityIds: [2], rows: [{ category: 'b' }] } });
    expect(delta.snapshot.summary.operation).toBe('delete');
    table = await commitSnapshot(t, table, delta.snapshot);
    expect(ids(await readRows(io, table.metadata))).toEqual([1, 2, 3]);
    // A later append of category b is newer than the delete: it stays.
    const append = await appendRows(io, table.metadata, [row(6, 'b')]);
    expect(append.snapshot.summary).toMatchObject({ 'total-records': '6', 'total-delete-files': '1', 'total-equality-deletes': '1' });
    table = await commitSnapshot(t, table, append.snapshot);
    io.reset();
    expect(ids(await readRows(io, table.metadata))).toEqual([1, 2, 3, 6]);
    // The delete file is read once although it applies to two data files.
    const deleteFile = delta.deleteFiles[0]!.file_path;
    expect(io.stats.locationsRead.filter((l) => l === deleteFile)).toHaveLength(1);
    const viaIcebird = (await icebergRead({ tableUrl: table.metadata.location, metadata: table.metadata as never })) as Row[];
    expect(ids(viaIcebird)).toEqual([1, 2, 3, 6]);
  });

  it('needs the partition source columns in the delete rows', async ({ server: t, s3tables: s3t }) => {
    const { table } = await seeded(t, s3t, true);
    await expect(rowDelta(io, table.metadata, { equalityDeletes: { equalityIds: [1], rows: [{ id: 1n }] } })).rejects.toThrow(/partition source column category/);
  });
});
