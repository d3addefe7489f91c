/**
 * Snapshot management on real tables: appends through the REST catalog, the clock advanced past
 * `maxSnapshotAgeHours`, a maintenance run — the expected snapshots remain (at least
 * `minSnapshotsToKeep` along main; a snapshot written after the advance is young), the snapshot
 * log is cut, the files only expired snapshots referenced are gone from the warehouse while every
 * referenced file stays, icebird reads every row; AWS's documented failures (a tag or branch,
 * `history.expire.*` properties, `gc.enabled=false`) expire nothing; job status reports it all;
 * and a commit racing the job is never lost.
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PutTableMaintenanceConfigurationCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendRows } from '../../src/iceberg/append.js';
import { commitSnapshot, commitUpdates, redirectS3Fetch } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { clients, expectError, makeTable } from '../s3tables/helpers.js';
import {
  advance,
  append,
  byId,
  icebirdRows,
  jobsOf,
  jobStatus,
  reload,
  rowsOf,
  runMaintenance,
  tableWithData,
  warehouseKeys,
} from './helpers.js';

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

const keyOf = (location: string) => location.replace(/^s3:\/\/[^/]+\//, '');

describe('snapshot management', () => {
  it('expires snapshots past the age, keeps the minimum and young ones, and removes what only they referenced', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 5, compaction: false });
    const first = table.metadata.snapshots.map((s) => s['snapshot-id']);
    expect(first).toHaveLength(5);
    expect(await jobStatus(s3t, table)).toEqual({
      icebergCompaction: { status: 'Disabled' },
      icebergSnapshotManagement: { status: 'Not_Yet_Run' },
      icebergUnreferencedFileRemoval: { status: 'Not_Yet_Run' },
    });

    // Nothing is old yet: the run succeeds and changes nothing.
    let report = await runMaintenance(t, table.arn);
    expect(jobsOf(report, table.arn).icebergSnapshotManagement).toMatchObject({ status: 'Successful', expiredSnapshots: 0 });
    table = await reload(io, s3t, table);
    expect(table.metadata.snapshots.map((s) => s['snapshot-id'])).toEqual(first);

    // Past the default 120 hours: only main's head (minSnapshotsToKeep 1) stays.
    const lists = table.metadata.snapshots.map((s) => s['manifest-list']);
    const before = await warehouseKeys(s3, table.metadata.location);
    await advance(t, '121h');
    report = await runMaintenance(t, table.arn);
    expect(jobsOf(report, table.arn).icebergSnapshotManagement).toMatchObject({ status: 'Successful', expiredSnapshots: 4, remainingSnapshots: 1 });
    table = await reload(io, s3t, table);
    expect(table.metadata.snapshots.map((s) => s['snapshot-id'])).toEqual([first[4]]);
    expect(table.metadata['snapshot-log'].map((e) => e['snapshot-id'])).toEqual([first[4]]);
    expect(table.metadata['current-snapshot-id']).toBe(first[4]);
    // The four expired manifest lists left the warehouse (noncurrent: 404, not listed); the rest stayed.
    const after = await warehouseKeys(s3, table.metadata.location);
    const gone = lists.slice(0, 4).map(keyOf);
    expect(before.filter((k) => !after.includes(k)).sort()).toEqual([...gone].sort());
    const bucket = table.metadata.location.replace('s3://', '');
    await expectError(s3.send(new GetObjectCommand({ Bucket: bucket, Key: gone[0]! })), 'NoSuchKey', 404);
    expect((await icebirdRows(table))).toEqual([...rows].sort(byId));

    const status = await jobStatus(s3t, table);
    expect(status.icebergSnapshotManagement.status).toBe('Successful');
    expect(status.icebergSnapshotManagement.lastRunTimestamp).toBeInstanceOf(Date);
    // Overcast's clock: the run is stamped 121 hours ahead of the wall clock.
    expect(status.icebergSnapshotManagement.lastRunTimestamp.getTime()).toBeGreaterThan(Date.now() + 120 * 3_600_000);

    // A snapshot written after the advance is young: it stays, its parent (old) goes.
    const more = rowsOf(100, 104);
    table = await append(t, io, table, more);
    const young = table.metadata['current-snapshot-id'];
    report = await runMaintenance(t, table.arn);
    expect(jobsOf(report, table.arn).icebergSnapshotManagement).toMatchObject({ status: 'Successful', expiredSnapshots: 1 });
    table = await reload(io, s3t, table);
    expect(table.metadata.snapshots.map((s) => s['snapshot-id'])).toEqual([young]);
    expect(await icebirdRows(table)).toEqual([...rows, ...more].sort(byId));
  });

  it('keeps minSnapshotsToKeep along main however old they are', async () => {
    let { table } = await tableWithData(t, io, s3t, { appends: 4, compaction: false });
    await s3t.send(
      new PutTableMaintenanceConfigurationCommand({
        ...table.id,
        type: 'icebergSnapshotManagement',
        value: { status: 'enabled', settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 3, maxSnapshotAgeHours: 1 } } },
      }),
    );
    const ids = table.metadata.snapshots.map((s) => s['snapshot-id']);
    await advance(t, '2h');
    await runMaintenance(t, table.arn);
    table = await reload(io, s3t, table);
    expect(table.metadata.snapshots.map((s) => s['snapshot-id'])).toEqual(ids.slice(1));
    // Disabled: the job does not run and its status says so, keeping nothing of the last run.
    await s3t.send(new PutTableMaintenanceConfigurationCommand({ ...table.id, type: 'icebergSnapshotManagement', value: { status: 'disabled' } }));
    await advance(t, '2h');
    const report = await runMaintenance(t, table.arn);
    expect(jobsOf(report, table.arn).icebergSnapshotManagement).toEqual({ status: 'Disabled' });
    expect((await reload(io, s3t, table)).metadata.snapshots).toHaveLength(3);
    expect((await jobStatus(s3t, table)).icebergSnapshotManagement).toEqual({ status: 'Disabled' });
  });

  it('fails as AWS documents with a tag, a branch, history.expire.* or gc.enabled=false, expiring nothing', async () => {
    const cases: { name: string; setup: (table: any) => Promise<unknown>; message: string; removal?: boolean }[] = [
      {
        name: 'tag',
        setup: (table) =>
          commitUpdates(t, table, [], [{ action: 'set-snapshot-ref', 'ref-name': 'v1', type: 'tag', 'snapshot-id': table.metadata.snapshots[0]['snapshot-id'] }]),
        message: 'Iceberg Snapshot management does not currently support user defined tags or references.',
      },
      {
        name: 'branch',
        setup: (table) =>
          commitUpdates(t, table, [], [{ action: 'set-snapshot-ref', 'ref-name': 'audit', type: 'branch', 'snapshot-id': table.metadata.snapshots[1]['snapshot-id'] }]),
        message: 'Iceberg Snapshot management does not currently support user defined tags or references.',
      },
      {
        name: 'history.expire',
        setup: (table) => commitUpdates(t, table, [], [{ action: 'set-properties', updates: { 'history.expire.min-snapshots-to-keep': '1' } }]),
        message:
          "Iceberg table maintenance configuration is incompatible with 'history.expire.max-snapshot-age-ms' and 'history.expire.min-snapshots-to-keep' table properties.",
      },
      {
        name: 'gc.enabled',
        setup: (table) => commitUpdates(t, table, [], [{ action: 'set-properties', updates: { 'gc.enabled': 'false' } }]),
        message:
          "Iceberg snapshot management and unreferenced file removal is not supported when the 'gc.enabled' table property is false. Ensure that this property is unset or explicitly set to true.",
        removal: true,
      },
    ];
    const tables = [];
    for (const c of cases) {
      let { table } = await tableWithData(t, io, s3t, { appends: 3, compaction: false });
      await c.setup(table);
      table = await reload(io, s3t, table);
      tables.push({ c, table, snapshots: table.metadata.snapshots.length, keys: await warehouseKeys(s3, table.metadata.location) });
    }
    await advance(t, '200h');
    for (const { c, table, snapshots, keys } of tables) {
      const jobs = jobsOf(await runMaintenance(t, table.arn), table.arn);
      expect(jobs.icebergSnapshotManagement, c.name).toMatchObject({ status: 'Failed', failureMessage: c.message });
      const now = await reload(io, s3t, table);
      expect(now.metadata.snapshots, c.name).toHaveLength(snapshots);
      const status = await jobStatus(s3t, table);
      expect(status.icebergSnapshotManagement, c.name).toMatchObject({ status: 'Failed', failureMessage: c.message });
      if (c.removal) {
        expect(jobs.icebergUnreferencedFileRemoval).toMatchObject({ status: 'Failed', failureMessage: c.message });
        expect(await warehouseKeys(s3, table.metadata.location)).toEqual(keys);
      }
    }
  });

  it('never loses a commit that races the job', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 3, compaction: false });
    const all = [...rows];
    for (let round = 0; round < 4; round++) {
      await advance(t, '121h');
      const batch = rowsOf(1000 + round * 10, 1004 + round * 10);
      const written = await appendRows(io, table.metadata, batch);
      const [, committed] = await Promise.all([runMaintenance(t, table.arn), commitSnapshot(t, table, written.snapshot)]);
      all.push(...batch);
      table = await reload(io, s3t, { ...committed, arn: table.arn });
      // The appended snapshot is main's head whichever finished first, and every row reads back.
      expect(table.metadata['current-snapshot-id']).toBe(written.snapshot['snapshot-id']);
      expect(await icebirdRows(table)).toEqual([...all].sort(byId));
    }
    const report = await runMaintenance(t, table.arn);
    expect(jobsOf(report, table.arn).icebergSnapshotManagement.status).toBe('Successful');
  });

  it('leaves a table without metadata alone: every job Not_Yet_Run', async () => {
    const bare = await makeTable(s3t);
    const report = await runMaintenance(t, bare.tableArn);
    expect(jobsOf(report, bare.tableArn).icebergSnapshotManagement.status).toBe('Not_Yet_Run');
    const status = await jobStatus(s3t, { id: { tableBucketARN: bare.bucketArn, namespace: bare.namespace, name: bare.name } } as never);
    expect(Object.values(status).map((s: any) => s.status)).toEqual(['Not_Yet_Run', 'Not_Yet_Run', 'Not_Yet_Run']);
  });
});
