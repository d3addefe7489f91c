/**
 * Unreferenced file removal on real warehouses: objects no metadata references become noncurrent
 * once `unreferencedDays` old on Overcast's clock (hidden from GetObject, HeadObject and listings),
 * and are deleted `nonCurrentDays` later — bytes and all; an object written after a clock advance
 * is young; files of an uncommitted (in-flight) append survive until committed; nothing referenced
 * is ever touched; the restore endpoint (AWS Support's) brings a noncurrent object back; a table's
 * deletion takes its noncurrent objects with it.
 */
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DeleteTableCommand,
  PutTableBucketMaintenanceConfigurationCommand,
  PutTableMaintenanceConfigurationCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRows } from '../../src/iceberg/append.js';
import { commitSnapshot, redirectS3Fetch } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { clients, eventually, expectError } from '../s3tables/helpers.js';
import { admin, advance, byId, icebirdRows, jobsOf, jobStatus, reload, rowsOf, runMaintenance, tableWithData, warehouseKeys } from './helpers.js';

let t: TestServer;
let s3t: S3TablesClient;
let s3: S3Client;
let io: CountingFileIO;
let restoreFetch: () => void;
beforeAll(async () => {
  t = await startTestServer();
  ({ s3t, s3 } = clients(t));
  io = s3FileIO(t);
  restoreFetch = redirectS3Fetch(t.endpoint);
});
afterAll(async () => {
  restoreFetch();
  await t.stop();
});

/** Keys of the noncurrent objects of a warehouse, read from the store (no API shows them). */
const hiddenKeys = (bucket: string) =>
  (t.server.runtime.meta.db.prepare('SELECT key FROM s3_objects WHERE bucket = ? ORDER BY key').all(`${bucket}/noncurrent`) as { key: string }[]).map(
    (r) => r.key,
  );
const orphans = (bucket: string) => hiddenKeys(bucket).filter((k) => k.startsWith('data/orphan'));

describe('unreferenced file removal', () => {
  it('marks old unreferenced objects noncurrent, deletes them nonCurrentDays later, and never touches a referenced one', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 2, compaction: false });
    // Snapshots stay, so the set of referenced files stays what it is now.
    await s3t.send(new PutTableMaintenanceConfigurationCommand({ ...table.id, type: 'icebergSnapshotManagement', value: { status: 'disabled' } }));
    const bucket = table.metadata.location.replace('s3://', '');
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'data/orphan-1.parquet', Body: 'left by a failed job' }));
    const referenced = await warehouseKeys(s3, table.metadata.location);

    // Young: nothing happens.
    let jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergUnreferencedFileRemoval).toMatchObject({ status: 'Successful', noncurrentFiles: 0, deletedFiles: 0 });

    // Past unreferencedDays (3): the orphan is noncurrent; one written after the advance is young.
    await advance(t, '3d1h');
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'data/orphan-2.parquet', Body: 'in flight' }));
    jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergUnreferencedFileRemoval).toMatchObject({ status: 'Successful', noncurrentFiles: 1, noncurrentBytes: 20 });
    await expectError(s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'data/orphan-1.parquet' })), 'NoSuchKey', 404);
    await expectError(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'data/orphan-1.parquet' })), 'NotFound', 404);
    let keys = await warehouseKeys(s3, table.metadata.location);
    expect(keys).not.toContain('data/orphan-1.parquet');
    expect(keys).toContain('data/orphan-2.parquet');
    for (const k of referenced.filter((k) => k !== 'data/orphan-1.parquet')) expect(keys).toContain(k);
    expect(orphans(bucket)).toEqual(['data/orphan-1.parquet']);
    expect(await icebirdRows(table)).toEqual([...rows].sort(byId));

    // AWS Support's restore brings it back; the next run hides it again (still old, still unreferenced).
    const restore = await admin(t, 'maintenance/restore', { tableArn: table.arn, key: 'data/orphan-1.parquet' });
    expect(restore.status).toBe(200);
    expect((await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'data/orphan-1.parquet' }))).$metadata.httpStatusCode).toBe(200);
    expect((await admin(t, 'maintenance/restore', { tableArn: table.arn, key: 'data/nothing' })).status).toBe(404);
    jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergUnreferencedFileRemoval).toMatchObject({ noncurrentFiles: 1 });

    // Noncurrent for less than nonCurrentDays (10): kept; past it: deleted with its bytes.
    await advance(t, '9d');
    jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    // orphan-2 is now old enough to become noncurrent; orphan-1 waits one more day.
    expect(jobs.icebergUnreferencedFileRemoval).toMatchObject({ deletedFiles: 0, noncurrentFiles: 1 });
    expect(orphans(bucket)).toEqual(['data/orphan-1.parquet', 'data/orphan-2.parquet']);
    await advance(t, '1d1h');
    jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergUnreferencedFileRemoval).toMatchObject({ deletedFiles: 1, deletedBytes: 20, noncurrentFiles: 0 });
    expect(orphans(bucket)).toEqual(['data/orphan-2.parquet']);
    expect((await admin(t, 'maintenance/restore', { tableArn: table.arn, key: 'data/orphan-1.parquet' })).status).toBe(404);

    // Everything referenced is still there and reads.
    table = await reload(io, s3t, table);
    keys = await warehouseKeys(s3, table.metadata.location);
    for (const k of referenced.filter((k) => !k.startsWith('data/orphan'))) expect(keys).toContain(k);
    expect(await icebirdRows(table)).toEqual([...rows].sort(byId));
    const status = await jobStatus(s3t, table);
    expect(status.icebergUnreferencedFileRemoval.status).toBe('Successful');

    // Deleting the table takes its noncurrent objects along.
    await s3t.send(new DeleteTableCommand(table.id));
    expect(hiddenKeys(bucket).length).toBeGreaterThan(0);
    expect(await eventually(async () => hiddenKeys(bucket).length === 0)).toBe(true);
  });

  it('protects the files of a commit in flight and follows the bucket settings', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 1, compaction: false });
    await s3t.send(
      new PutTableBucketMaintenanceConfigurationCommand({
        tableBucketARN: table.id.tableBucketARN,
        type: 'icebergUnreferencedFileRemoval',
        value: { status: 'enabled', settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 1, nonCurrentDays: 1 } } },
      }),
    );
    // An append whose files are written but not committed yet.
    const batch = rowsOf(50, 60);
    const pending = await appendRows(io, table.metadata, batch);
    await advance(t, '20h');
    const jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
    expect(jobs.icebergUnreferencedFileRemoval).toMatchObject({ status: 'Successful', noncurrentFiles: 0 });
    // The commit lands; its files (now older than unreferencedDays) are referenced and stay.
    table = { ...(await commitSnapshot(t, table, pending.snapshot)), arn: table.arn };
    await advance(t, '2d');
    await runMaintenance(t, table.arn);
    await runMaintenance(t, table.arn);
    table = await reload(io, s3t, table);
    expect(await icebirdRows(table)).toEqual([...rows, ...batch].sort(byId));

    // An uncommitted append past unreferencedDays, then nonCurrentDays: noncurrent, then gone.
    const abandoned = await appendRows(io, table.metadata, rowsOf(90, 95));
    await advance(t, '1d1h');
    let report = jobsOf(await runMaintenance(t, table.arn), table.arn).icebergUnreferencedFileRemoval;
    expect(report.noncurrentFiles).toBe(abandoned.written.length);
    await advance(t, '1d1h');
    report = jobsOf(await runMaintenance(t, table.arn), table.arn).icebergUnreferencedFileRemoval;
    expect(report.deletedFiles).toBe(abandoned.written.length);
    expect(await icebirdRows(await reload(io, s3t, table))).toEqual([...rows, ...batch].sort(byId));
  });

  it('answers bad clock and run requests with 400 and changes nothing', async () => {
    const before = (await (await fetch(`${t.endpoint}/_overcast/clock`)).json()) as { offsetMs: number };
    for (const body of [{ advance: '-3h' }, { advance: 'soon' }, { advance: 0 }, {}, [1]]) {
      const res = await admin(t, 'clock', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.json.message).toBe('string');
    }
    const raw = await fetch(`${t.endpoint}/_overcast/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(raw.status).toBe(400);
    expect((await admin(t, 'maintenance/run', { tableArn: 'nope' })).status).toBe(400);
    expect((await admin(t, 'maintenance/run', { tableArn: 7 })).status).toBe(400);
    const after = (await (await fetch(`${t.endpoint}/_overcast/clock`)).json()) as { offsetMs: number };
    expect(after.offsetMs).toBe(before.offsetMs);
    const advanced = await admin(t, 'clock', { advance: '1d12h' });
    expect(advanced.json.offsetMs).toBe(before.offsetMs + 36 * 3_600_000);
  });
});
