/**
 * Compaction on real tables: small files rewritten per partition into one file each, committed as
 * a `replace` snapshot with Java's summary; icebird and the library's reader read the same rows
 * before and after; the Parquet written keeps field ids, types and nulls; position and equality
 * deletes are applied (and their files dropped); files of an older schema or partition spec come
 * out in the current ones; `sort` orders rows by the table's sort order and `z-order` along a
 * Z-curve; a commit racing the job is never lost; tables with nothing to do are left alone.
 */
import { PutTableMaintenanceConfigurationCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRows } from '../../src/iceberg/append.js';
import { rowDelta } from '../../src/iceberg/deletes.js';
import { refSnapshot } from '../../src/iceberg/model.js';
import { openFile, readParquet } from '../../src/iceberg/parquet-reader.js';
import { liveFiles, readRows } from '../../src/iceberg/scan.js';
import { commitSnapshot, commitUpdates, redirectS3Fetch } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { clients } from '../s3tables/helpers.js';
import { append, byId, FIELDS, icebirdRows, jobsOf, reload, rowsOf, runMaintenance, tableWithData, type DataTable, type Row } from './helpers.js';

let t: TestServer;
let s3t: S3TablesClient;
let io: CountingFileIO;
let restoreFetch: () => void;
beforeAll(async () => {
  t = await startTestServer();
  ({ s3t } = clients(t));
  io = s3FileIO(t);
  restoreFetch = redirectS3Fetch(t.endpoint);
});
afterAll(async () => {
  restoreFetch();
  await t.stop();
});

async function dataFiles(table: DataTable) {
  return (await liveFiles(io, table.metadata, refSnapshot(table.metadata)!)).data;
}

const noSnapshotJob = (table: DataTable) =>
  s3t.send(new PutTableMaintenanceConfigurationCommand({ ...table.id, type: 'icebergSnapshotManagement', value: { status: 'disabled' } }));

describe('compaction', () => {
  it('rewrites small files per partition into one replace snapshot that reads the same rows', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 5, perAppend: 6, partitioned: true });
    await noSnapshotJob(table);
    expect(await dataFiles(table)).toHaveLength(15);
    const head = table.metadata.snapshots.at(-1)!;

    const jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergCompaction).toMatchObject({ status: 'Successful', strategy: 'binpack', rewrittenFiles: 15, addedFiles: 3, removedDeleteFiles: 0 });
    table = await reload(io, s3t, table);
    const snapshot = refSnapshot(table.metadata)!;
    expect(String(snapshot['snapshot-id'])).toBe(jobs.icebergCompaction.snapshotId);
    expect(snapshot['parent-snapshot-id']).toBe(head['snapshot-id']);
    expect(snapshot.summary).toMatchObject({
      operation: 'replace',
      'added-data-files': '3',
      'deleted-data-files': '15',
      'added-records': '30',
      'deleted-records': '30',
      'changed-partition-count': '3',
      'total-data-files': '3',
      'total-records': '30',
      'total-delete-files': '0',
    });
    expect(Number(snapshot.summary['total-files-size'])).toBe(
      Number(head.summary['total-files-size']) + Number(snapshot.summary['added-files-size']) - Number(snapshot.summary['removed-files-size']),
    );
    const files = await dataFiles(table);
    expect(files.map((f) => f.file.partition.category).sort()).toEqual(['c0', 'c1', 'c2']);
    // New files carry the starting snapshot's data sequence number.
    for (const f of files) expect(f.sequenceNumber).toBe(head['sequence-number']);
    expect(await icebirdRows(table)).toEqual([...rows].sort(byId));
    expect((await readRows(io, table.metadata)).sort(byId)).toEqual([...rows].sort(byId));

    // The Parquet keeps the schema exactly: field ids, types, required/optional, nulls.
    const bytes = await io.read(files[0]!.file.file_path);
    const { parquetMetadata } = await import('hyparquet');
    const footer = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const columns = footer.schema.slice(1).map((s) => [s.name, s.field_id, s.repetition_type, s.type]);
    expect(columns).toEqual([
      ['id', 1, 'REQUIRED', 'INT64'],
      ['category', 2, 'OPTIONAL', 'BYTE_ARRAY'],
      ['amount', 3, 'OPTIONAL', 'DOUBLE'],
    ]);
    const back = await readParquet(await openFile(io, files[0]!.file.file_path), { type: 'struct', fields: FIELDS });
    expect(back.some((r) => r.amount === null)).toBe(true);
    expect(files[0]!.file.null_value_counts?.get(3)).toBe(back.filter((r) => r.amount === null).length);

    // Nothing small is left: the next run changes nothing.
    const again = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(again.icebergCompaction).toMatchObject({ status: 'Successful', rewrittenFiles: 0 });
    expect((await reload(io, s3t, table)).metadata.snapshots).toHaveLength(table.metadata.snapshots.length);
  });

  it('applies position and equality deletes while rewriting and drops their files', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 3, perAppend: 5 });
    await noSnapshotJob(table);
    const files = await dataFiles(table);
    const target = files.find((f) => f.file.record_count === 5)!.file.file_path;
    const positional = await rowDelta(io, table.metadata, { positionDeletes: [{ file_path: target, pos: 1 }, { file_path: target, pos: 3 }] });
    table = { ...(await commitSnapshot(t, table, positional.snapshot)), arn: table.arn };
    const equality = await rowDelta(io, table.metadata, { equalityDeletes: { equalityIds: [2], rows: [{ category: 'c1' }] } });
    table = { ...(await commitSnapshot(t, table, equality.snapshot)), arn: table.arn };
    const expected = (await readRows(io, table.metadata)).sort(byId);
    expect(expected.length).toBeLessThan(rows.length - 2);

    const jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergCompaction).toMatchObject({ status: 'Successful', rewrittenFiles: 3, addedFiles: 1, removedDeleteFiles: 2 });
    table = await reload(io, s3t, table);
    const summary = refSnapshot(table.metadata)!.summary;
    expect(summary).toMatchObject({
      operation: 'replace',
      'deleted-records': '15',
      'added-records': String(expected.length),
      'removed-delete-files': '2',
      'removed-position-delete-files': '1',
      'removed-equality-delete-files': '1',
      'total-records': String(expected.length),
      'total-delete-files': '0',
      'total-position-deletes': '0',
      'total-equality-deletes': '0',
    });
    const live = await liveFiles(io, table.metadata, refSnapshot(table.metadata)!);
    expect(live.deletes).toHaveLength(0);
    expect((await readRows(io, table.metadata)).sort(byId)).toEqual(expected);
    expect(await icebirdRows(table)).toEqual(expected);
  });

  it('writes files of an older schema and partition spec in the current ones', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 2, perAppend: 4 });
    await noSnapshotJob(table);
    // Add a column and partition by category from now on.
    table = {
      ...(await commitUpdates(t, table, [], [
        { action: 'add-schema', schema: { type: 'struct', 'schema-id': 1, fields: [...FIELDS, { id: 4, name: 'note', type: 'string', required: false }] } },
        { action: 'set-current-schema', 'schema-id': -1 },
        { action: 'add-spec', spec: { fields: [{ 'source-id': 2, 'field-id': 1000, name: 'category', transform: 'identity' }] } },
        { action: 'set-default-spec', 'spec-id': -1 },
      ])),
      arn: table.arn,
    };
    const later: Row[] = rowsOf(40, 46).map((r) => ({ ...r, note: `n${r.id}` }));
    table = await append(t, io, table, later);
    table = await append(t, io, table, rowsOf(50, 53).map((r) => ({ ...r, note: null })));
    const expected = (await readRows(io, table.metadata)).sort(byId);
    expect(expected).toHaveLength(rows.length + 9);

    const jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergCompaction.status).toBe('Successful');
    table = await reload(io, s3t, table);
    const files = await dataFiles(table);
    expect(files.every((f) => f.specId === table.metadata['default-spec-id'])).toBe(true);
    expect((await readRows(io, table.metadata)).sort(byId)).toEqual(expected);
    // Older-spec files form a group of their own (as Java plans them); the next run merges each partition.
    await runMaintenance(t, table.arn);
    table = await reload(io, s3t, table);
    const merged = await dataFiles(table);
    expect(merged.map((f) => f.file.partition.category).sort()).toEqual(['c0', 'c1', 'c2']);
    expect((await readRows(io, table.metadata)).sort(byId)).toEqual(expected);
    const oldRows = expected.filter((r) => Number(r.id) < 40);
    expect(oldRows.every((r) => r.note === null)).toBe(true);
  });

  it('orders rows by the sort order for sort, along a Z-curve for z-order, and keeps them all', async () => {
    const writeOrder = { orderId: 1, fields: [{ sourceId: 3, transform: 'identity', direction: 'desc', nullOrder: 'nulls-last' }] };
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 3, perAppend: 7, writeOrder });
    await noSnapshotJob(table);
    await s3t.send(
      new PutTableMaintenanceConfigurationCommand({
        ...table.id,
        type: 'icebergCompaction',
        value: { status: 'enabled', settings: { icebergCompaction: { strategy: 'sort', targetFileSizeMB: 64 } } },
      }),
    );
    const jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergCompaction).toMatchObject({ status: 'Successful', strategy: 'sort', addedFiles: 1 });
    table = await reload(io, s3t, table);
    const [file] = await dataFiles(table);
    expect(file!.file.sort_order_id).toBe(table.metadata['default-sort-order-id']);
    const stored = await readParquet(await openFile(io, file!.file.file_path), { type: 'struct', fields: FIELDS });
    const amounts = stored.map((r) => r.amount as number | null);
    const nonNull = amounts.filter((a) => a !== null) as number[];
    expect(nonNull).toEqual([...nonNull].sort((a, b) => b - a));
    expect(amounts.slice(nonNull.length).every((a) => a === null)).toBe(true);
    expect(await icebirdRows(table)).toEqual([...rows].sort(byId));

    // z-order on a fresh table with a two-column order.
    const zOrder = { orderId: 1, fields: [{ sourceId: 1, transform: 'identity', direction: 'asc', nullOrder: 'nulls-first' }, { sourceId: 3, transform: 'identity', direction: 'asc', nullOrder: 'nulls-first' }] };
    let z = await tableWithData(t, io, s3t, { appends: 3, perAppend: 5, writeOrder: zOrder });
    await noSnapshotJob(z.table);
    await s3t.send(
      new PutTableMaintenanceConfigurationCommand({ ...z.table.id, type: 'icebergCompaction', value: { settings: { icebergCompaction: { strategy: 'z-order' } } } }),
    );
    const zJobs = jobsOf(await runMaintenance(t, z.table.arn), z.table.arn);
    expect(zJobs.icebergCompaction).toMatchObject({ status: 'Successful', strategy: 'z-order', addedFiles: 1 });
    const zTable = await reload(io, s3t, z.table);
    expect(await icebirdRows(zTable)).toEqual([...z.rows].sort(byId));
  });

  it('never loses a commit that races the job, and skips what AWS does not compact', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 4, perAppend: 3 });
    await noSnapshotJob(table);
    const all = [...rows];
    for (let round = 0; round < 3; round++) {
      const batch = rowsOf(500 + round * 10, 503 + round * 10);
      const written = await appendRows(io, table.metadata, batch);
      const [report] = await Promise.all([runMaintenance(t, table.arn), commitSnapshot(t, table, written.snapshot)]);
      all.push(...batch);
      expect(jobsOf(report, table.arn).icebergCompaction.status).toBe('Successful');
      table = await reload(io, s3t, table);
      expect(await icebirdRows(table)).toEqual([...all].sort(byId));
      expect(table.metadata.snapshots.some((s) => s['snapshot-id'] === written.snapshot['snapshot-id'])).toBe(true);
    }

    const fixed = await tableWithData(t, io, s3t, { appends: 0 });
    const withFixed = await commitUpdates(t, fixed.table, [], [
      { action: 'add-schema', schema: { type: 'struct', 'schema-id': 1, fields: [...FIELDS, { id: 4, name: 'digest', type: 'fixed[4]', required: false }] } },
      { action: 'set-current-schema', 'schema-id': -1 },
    ]);
    const skipped = jobsOf(await runMaintenance(t, fixed.table.arn), fixed.table.arn).icebergCompaction;
    expect(skipped).toMatchObject({ status: 'Successful', rewrittenFiles: 0 });
    expect(skipped.skipped).toMatch(/fixed/);
    expect(withFixed.metadata.snapshots).toHaveLength(0);
  });
});
