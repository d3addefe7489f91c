/**
 * Replication that runs: a source table with data (appends and a position delete) replicated to
 * table buckets of another region and of another account — replicas created with the same
 * namespace and name, owned by the destination account, marked as replicas, read by icebird with
 * the same rows as the source, every path of their metadata tree inside their own warehouse;
 * later commits follow; GetTableReplicationStatus moves pending → completed with the last
 * replicated metadata; replicas refuse writes through the S3 Tables API and the REST catalog;
 * a replica keeps snapshots the source expired; deleting the source leaves the replicas; a
 * missing destination fails with a reason; with the schedule on, a commit replicates by itself.
 */
import {
  CreateTableBucketCommand,
  DeleteTableCommand,
  GetTableCommand,
  GetTableReplicationStatusCommand,
  ListTablesCommand,
  PutTableBucketReplicationCommand,
  PutTableMaintenanceConfigurationCommand,
  PutTableReplicationCommand,
  RenameTableCommand,
  S3TablesClient,
  UpdateTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowDelta } from '../../src/iceberg/deletes.js';
import { readManifest, readManifestList } from '../../src/iceberg/manifests.js';
import { refSnapshot } from '../../src/iceberg/model.js';
import { openFile, readParquet } from '../../src/iceberg/parquet-reader.js';
import { liveFiles, POSITION_DELETE_FILE_PATH, POSITION_DELETE_POS, readRows } from '../../src/iceberg/scan.js';
import { commitSnapshot, redirectS3Fetch } from '../helpers/iceberg-table.js';
import { s3FileIO, type CountingFileIO } from '../helpers/s3-file-io.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually, expectError, uniqueName } from '../s3tables/helpers.js';
import { advance, append, byId, icebirdRows, reload, rowsOf, runMaintenance, tableWithData, type DataTable } from './helpers.js';

let t: TestServer;
let s3t: S3TablesClient;
let west: S3TablesClient;
let other: S3TablesClient;
let io: CountingFileIO;
let restoreFetch: () => void;
const ROLE = 'arn:aws:iam::000000000000:role/replication';
beforeAll(async () => {
  t = await startTestServer();
  s3t = new S3TablesClient({ ...t.clientConfig, maxAttempts: 1 });
  west = new S3TablesClient({ ...t.clientConfig, region: 'us-west-2', maxAttempts: 1 });
  other = new S3TablesClient({ ...t.clientConfig, region: 'eu-west-1', credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' }, maxAttempts: 1 });
  io = s3FileIO(t);
  restoreFetch = redirectS3Fetch(t.endpoint);
});
afterAll(async () => {
  restoreFetch();
  await t.stop();
});

const bucketIn = async (client: S3TablesClient) => (await client.send(new CreateTableBucketCommand({ name: uniqueName('replica-') }))).arn!;

/** A replica as a table the tests can read: its metadata and ARN. */
async function replicaOf(client: S3TablesClient, bucketArn: string, source: DataTable): Promise<DataTable> {
  const id = { tableBucketARN: bucketArn, namespace: source.id.namespace, name: source.id.name };
  const got = await client.send(new GetTableCommand(id));
  const replica = { id, arn: got.tableARN!, metadataLocation: got.metadataLocation!, metadata: source.metadata };
  return reload(io, client, replica);
}

/** Every path of the table's metadata tree, data and delete file rows included. */
async function pathsOf(table: DataTable): Promise<string[]> {
  const out = [table.metadataLocation, table.metadata.location];
  for (const s of table.metadata.snapshots) {
    out.push(s['manifest-list']);
    for (const m of await readManifestList(io, s['manifest-list'])) {
      out.push(m.manifest_path);
      for (const e of (await readManifest(io, m)).entries) {
        out.push(e.data_file.file_path);
        if (e.data_file.content === 1 && e.status !== 2) {
          const rows = await readParquet(await openFile(io, e.data_file.file_path), {
            type: 'struct',
            fields: [
              { id: POSITION_DELETE_FILE_PATH, name: 'file_path', required: true, type: 'string' },
              { id: POSITION_DELETE_POS, name: 'pos', required: true, type: 'long' },
            ],
          });
          out.push(...rows.map((r) => r.file_path as string));
        }
      }
    }
  }
  return out;
}

describe('replication', () => {
  it('copies a table with data to other regions and accounts, follows its commits and keeps replicas read-only', async () => {
    let { table, rows } = await tableWithData(t, io, s3t, { appends: 2, perAppend: 6, partitioned: true, compaction: false });
    const { data } = await liveFiles(io, table.metadata, refSnapshot(table.metadata)!);
    const delta = await rowDelta(io, table.metadata, { positionDeletes: [{ file_path: data[0]!.file.file_path, pos: 0 }] });
    table = { ...(await commitSnapshot(t, table, delta.snapshot)), arn: table.arn };
    const expected = (await readRows(io, table.metadata)).sort(byId);
    expect(expected).toHaveLength(rows.length - 1);

    const westBucket = await bucketIn(west);
    const otherBucket = await bucketIn(other);
    await s3t.send(
      new PutTableBucketReplicationCommand({
        tableBucketARN: table.id.tableBucketARN,
        configuration: { role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: westBucket }, { destinationTableBucketARN: otherBucket }] }] },
      }),
    );
    const pending = await s3t.send(new GetTableReplicationStatusCommand({ tableArn: table.arn }));
    expect(pending.destinations!.map((d) => d.replicationStatus)).toEqual(['pending', 'pending']);

    const report = await runMaintenance(t, table.arn);
    const replication = report.tables[0].replication;
    expect(replication.map((r: any) => [r.destinationTableBucketArn, r.status])).toEqual([
      [westBucket, 'completed'],
      [otherBucket, 'completed'],
    ]);
    const status = await s3t.send(new GetTableReplicationStatusCommand({ tableArn: table.arn }));
    for (const d of status.destinations!) {
      expect(d.replicationStatus).toBe('completed');
      expect(d.lastSuccessfulReplicatedUpdate?.metadataLocation).toBe(table.metadataLocation);
      expect(d.lastSuccessfulReplicatedUpdate?.timestamp).toBeInstanceOf(Date);
      expect(d.destinationTableArn).toMatch(/^arn:aws:s3tables:(us-west-2:000000000000|eu-west-1:111122223333):bucket\/.+\/table\//);
    }

    for (const [client, bucketArn, account] of [[west, westBucket, '000000000000'], [other, otherBucket, '111122223333']] as const) {
      const got = await client.send(new GetTableCommand({ tableBucketARN: bucketArn, namespace: table.id.namespace, name: table.id.name }));
      expect(got.ownerAccountId).toBe(account);
      expect(got.managedByService).toBe('replication.s3tables.amazonaws.com');
      expect(got.managedTableInformation?.replicationInformation?.sourceTableARN).toBe(table.arn);
      const listed = await client.send(new ListTablesCommand({ tableBucketARN: bucketArn }));
      expect(listed.tables![0]!.managedByService).toBe('replication.s3tables.amazonaws.com');
      const replica = await replicaOf(client, bucketArn, table);
      expect(replica.metadata.location).toBe(got.warehouseLocation);
      expect(replica.metadata.snapshots.map((s) => s['snapshot-id'])).toEqual(table.metadata.snapshots.map((s) => s['snapshot-id']));
      for (const p of await pathsOf(replica)) expect(p.startsWith(`${got.warehouseLocation}/`) || p === got.warehouseLocation, p).toBe(true);
      expect(await icebirdRows(replica)).toEqual(expected);
      expect((await readRows(io, replica.metadata)).sort(byId)).toEqual(expected);
    }

    // A later commit: pending, then replicated.
    const more = rowsOf(200, 206);
    table = await append(t, io, table, more);
    const later = await s3t.send(new GetTableReplicationStatusCommand({ tableArn: table.arn }));
    expect(later.destinations!.map((d) => d.replicationStatus)).toEqual(['pending', 'pending']);
    await runMaintenance(t, table.arn);
    let replica = await replicaOf(other, otherBucket, table);
    expect(await icebirdRows(replica)).toEqual([...expected, ...more].sort(byId));
    expect(replica.metadata['metadata-log'].length).toBeGreaterThan(0);

    // Replicas are read-only, whichever road.
    const id = replica.id;
    const token = (await other.send(new GetTableCommand(id))).versionToken!;
    const refused = await expectError(
      other.send(new UpdateTableMetadataLocationCommand({ ...id, versionToken: token, metadataLocation: replica.metadataLocation })),
      'ForbiddenException',
      403,
    );
    expect(refused.message).toContain(table.arn);
    await expectError(other.send(new RenameTableCommand({ ...id, newName: 'renamed' })), 'ForbiddenException', 403);
    await expectError(
      other.send(new PutTableMaintenanceConfigurationCommand({ ...id, type: 'icebergCompaction', value: { status: 'enabled' } })),
      'ForbiddenException',
      403,
    );
    const rest = await fetch(
      `${t.endpoint}/_overcast/iceberg/v1/${encodeURIComponent(otherBucket)}/namespaces/${id.namespace}/tables/${id.name}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requirements: [], updates: [{ action: 'set-properties', updates: { a: 'b' } }] }) },
    );
    expect(rest.status).toBe(403);
    expect((await other.send(new GetTableCommand(id))).versionToken).toBe(token);

    // The source expires snapshots; the replica (its own snapshot management off) keeps them.
    await other.send(new PutTableMaintenanceConfigurationCommand({ ...id, type: 'icebergSnapshotManagement', value: { status: 'disabled' } }));
    await advance(t, '121h');
    await runMaintenance(t, table.arn);
    await runMaintenance(t, replica.arn);
    table = await reload(io, s3t, table);
    expect(table.metadata.snapshots).toHaveLength(1);
    replica = await replicaOf(other, otherBucket, table);
    expect(replica.metadata.snapshots).toHaveLength(4);
    expect(await icebirdRows(replica)).toEqual([...expected, ...more].sort(byId));

    // Deleting the source stops replication and leaves the replicas as they are.
    await s3t.send(new DeleteTableCommand(table.id));
    await expectError(s3t.send(new GetTableReplicationStatusCommand({ tableArn: table.arn })), 'NotFoundException', 404);
    const left = await replicaOf(other, otherBucket, table);
    expect(left.metadataLocation).toBe(replica.metadataLocation);
    expect((await other.send(new GetTableCommand(id))).managedByService).toBe('replication.s3tables.amazonaws.com');
    expect(await icebirdRows(left)).toEqual([...expected, ...more].sort(byId));
  });

  it('fails with a reason when a destination is missing or holds a table of that name', async () => {
    const { table } = await tableWithData(t, io, s3t, { appends: 1, compaction: false });
    const missing = 'arn:aws:s3tables:us-west-2:000000000000:bucket/no-such-bucket';
    await s3t.send(new PutTableReplicationCommand({ tableArn: table.arn, configuration: { role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: missing }] }] } }));
    const report = await runMaintenance(t, table.arn);
    expect(report.tables[0].replication[0]).toMatchObject({ status: 'failed' });
    const status = await s3t.send(new GetTableReplicationStatusCommand({ tableArn: table.arn }));
    expect(status.destinations![0]).toMatchObject({ replicationStatus: 'failed', failureMessage: `The destination table bucket ${missing} does not exist.` });
    expect(status.destinations![0]!.lastSuccessfulReplicatedUpdate).toBeUndefined();
  });

  it('replicates each commit by itself when the schedule is on', async () => {
    const s = await startTestServer({ maintenanceIntervalMs: 3_600_000 });
    try {
      const client = new S3TablesClient({ ...s.clientConfig, maxAttempts: 1 });
      const sio = s3FileIO(s);
      const restore = redirectS3Fetch(s.endpoint);
      try {
        let { table, rows } = await tableWithData(s, sio, client, { appends: 1, compaction: false });
        const dest = (await client.send(new CreateTableBucketCommand({ name: uniqueName('auto-') }))).arn!;
        await client.send(new PutTableReplicationCommand({ tableArn: table.arn, configuration: { role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: dest }] }] } }));
        const done = async () =>
          (await client.send(new GetTableReplicationStatusCommand({ tableArn: table.arn }))).destinations![0]!.replicationStatus === 'completed';
        expect(await eventually(done)).toBe(true);
        table = await append(s, sio, table, rowsOf(300, 303));
        expect(await eventually(done)).toBe(true);
        const id = { tableBucketARN: dest, namespace: table.id.namespace, name: table.id.name };
        const got = await client.send(new GetTableCommand(id));
        const replica = await reload(sio, client, { id, arn: got.tableARN!, metadataLocation: got.metadataLocation!, metadata: table.metadata });
        expect(await icebirdRows(replica)).toEqual([...rows, ...rowsOf(300, 303)].sort(byId));
      } finally {
        restore();
      }
    } finally {
      await s.stop();
    }
  });
});
