/**
 * Commits that land in the middle of a maintenance job, made to land at the worst moment: each
 * job runs against the test server's own runtime with a FileIO that, at a chosen read or write,
 * first commits through the REST catalog (a real concurrent commit, not a stand-in). Compaction
 * re-validates and commits on top of an append, and gives up — removing what it wrote — when
 * position deletes reach the files it rewrote; snapshot expiry plans again on top of an append;
 * unreferenced file removal sees the files a commit has just made referenced and leaves them.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRows } from '../../src/iceberg/append.js';
import { rowDelta } from '../../src/iceberg/deletes.js';
import { refSnapshot } from '../../src/iceberg/model.js';
import { liveFiles, readRows } from '../../src/iceberg/scan.js';
import { internalCtx } from '../../src/runtime/runtime.js';
import { clockOf } from '../../src/services/s3tables/maintenance/clock.js';
import { compactTable } from '../../src/services/s3tables/maintenance/compaction.js';
import { expireSnapshots } from '../../src/services/s3tables/maintenance/expire-snapshots.js';
import type { JobEnv } from '../../src/services/s3tables/maintenance/job-env.js';
import { ManifestCache } from '../../src/services/s3tables/maintenance/reachable.js';
import { storeFileIO } from '../../src/services/s3tables/maintenance/store-io.js';
import { removeUnreferencedFiles } from '../../src/services/s3tables/maintenance/unreferenced-files.js';
import { commitSnapshot, redirectS3Fetch } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { clients } from '../s3tables/helpers.js';
import { advance, append, byId, icebirdRows, reload, rowsOf, tableWithData, warehouseKeys, type DataTable } from './helpers.js';

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

/** A job environment on the server's runtime whose FileIO runs `hook` once, at the first matching read or write. */
function envWithHook(table: DataTable, on: 'read' | 'write', match: RegExp, hook: () => Promise<unknown>): JobEnv {
  const rt = t.server.runtime;
  const ctx = internalCtx(rt, '000000000000', 'us-east-1', 'race-test');
  const base = storeFileIO(ctx);
  let fired = false;
  const maybe = async (location: string) => {
    if (!fired && match.test(location)) {
      fired = true;
      await hook();
    }
  };
  const io = {
    ...base,
    read: async (l: string) => (on === 'read' && (await maybe(l)), base.read(l)),
    write: async (l: string, b: Uint8Array) => (on === 'write' && (await maybe(l)), base.write(l, b)),
  };
  return { ctx, io, clock: clockOf(rt), cache: new ManifestCache(io), tableId: table.arn.split('/table/')[1]!, stopping: () => false };
}

const SETTINGS = { targetFileSizeMB: 512, strategy: 'binpack' as const };

describe('commits racing maintenance jobs', () => {
  it('compaction commits on top of an append that lands before its commit', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 3 });
    const extra = rowsOf(900, 905);
    let appended: DataTable | undefined;
    const env = envWithHook(table, 'write', /\/metadata\/snap-.*\.avro$/, async () => (appended = await append(t, io, table, extra)));
    const report = await compactTable(env, SETTINGS);
    expect(report).toMatchObject({ rewrittenFiles: 3, addedFiles: 1, commitAttempts: 2 });
    table = await reload(io, s3t, table);
    const head = refSnapshot(table.metadata)!;
    expect(head.summary.operation).toBe('replace');
    expect(head['parent-snapshot-id']).toBe(appended!.metadata['current-snapshot-id']);
    expect(head.summary['total-records']).toBe(String(rows.length + extra.length));
    expect(await icebirdRows(table)).toEqual([...rows, ...extra].sort(byId));
  });

  it('compaction gives up, leaving nothing behind, when position deletes reach the files it rewrote', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 3 });
    const before = await warehouseKeys(s3, table.metadata.location);
    const victim = (await liveFiles(io, table.metadata, refSnapshot(table.metadata)!)).data[0]!.file.file_path;
    let deleteFiles: string[] = [];
    const env = envWithHook(table, 'write', /\/metadata\/snap-.*\.avro$/, async () => {
      const delta = await rowDelta(io, table.metadata, { positionDeletes: [{ file_path: victim, pos: 0 }] });
      deleteFiles = delta.written;
      await commitSnapshot(t, table, delta.snapshot);
    });
    await expect(compactTable(env, SETTINGS)).rejects.toThrow(
      'Failed to commit because of out of date metadata. Maintenance will be retried at the next available opportunity.',
    );
    table = await reload(io, s3t, table);
    expect(refSnapshot(table.metadata)!.summary.operation).toBe('delete');
    const after = await warehouseKeys(s3, table.metadata.location);
    const prefix = `${table.metadata.location}/`;
    const added = after.filter((k) => !before.includes(k));
    // Only the delete commit's files and its metadata.json: compaction's files were removed.
    expect(added.filter((k) => !k.endsWith('.metadata.json')).sort()).toEqual(deleteFiles.map((f) => f.slice(prefix.length)).sort());
    expect((await readRows(io, table.metadata)).length).toBe(rows.length - 1);
  });

  it('snapshot expiry plans again on top of an append that lands during the job', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 3, compaction: false });
    await advance(t, '121h');
    const extra = rowsOf(950, 953);
    let appended: DataTable | undefined;
    const env = envWithHook(table, 'read', /\/metadata\/snap-.*\.avro$/, async () => (appended = await append(t, io, table, extra)));
    const report = await expireSnapshots(env, { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 });
    expect(report).toMatchObject({ commitAttempts: 2, expiredSnapshots: 3, remainingSnapshots: 1 });
    table = await reload(io, s3t, table);
    expect(table.metadata.snapshots.map((s) => s['snapshot-id'])).toEqual([appended!.metadata['current-snapshot-id']]);
    expect(await icebirdRows(table)).toEqual([...rows, ...extra].sort(byId));
  });

  it('unreferenced file removal leaves the files a commit landing during the job references', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 1, compaction: false });
    const bucket = table.metadata.location.replace('s3://', '');
    const pending = await appendRows(io, table.metadata, rowsOf(700, 710));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'data/orphan.parquet', Body: 'orphan' }));
    await advance(t, '2d');
    const env = envWithHook(table, 'read', /\/metadata\/snap-.*\.avro$/, async () => commitSnapshot(t, table, pending.snapshot));
    const report = await removeUnreferencedFiles(env, { unreferencedDays: 1, nonCurrentDays: 10 });
    expect(report).toMatchObject({ replans: 1, noncurrentFiles: 1 });
    table = await reload(io, s3t, table);
    const keys = await warehouseKeys(s3, table.metadata.location);
    expect(keys).not.toContain('data/orphan.parquet');
    for (const f of pending.written) expect(keys).toContain(f.slice(`${table.metadata.location}/`.length));
    expect(await icebirdRows(table)).toEqual([...rows, ...rowsOf(700, 710)].sort(byId));
  });
});
