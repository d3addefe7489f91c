/**
 * S3 Tables state on disk: table buckets, namespaces, tables, every configuration and the
 * warehouse objects survive a restart of an on-disk server; a warehouse whose table was deleted is
 * purged across a restart too — including after the server is killed (`kill -9`) in the middle of
 * the purge, when the next start resumes it and leaves no orphan bucket.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import {
  CreateTableBucketCommand,
  DeleteTableCommand,
  GetNamespaceCommand,
  GetTableBucketEncryptionCommand,
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableBucketMetricsConfigurationCommand,
  GetTableBucketPolicyCommand,
  GetTableBucketReplicationCommand,
  GetTableBucketStorageClassCommand,
  GetTableCommand,
  GetTableMaintenanceConfigurationCommand,
  GetTablePolicyCommand,
  GetTableReplicationCommand,
  ListTablesCommand,
  ListTagsForResourceCommand,
  PutTableBucketMaintenanceConfigurationCommand,
  PutTableBucketMetricsConfigurationCommand,
  PutTableBucketPolicyCommand,
  PutTableBucketReplicationCommand,
  PutTableMaintenanceConfigurationCommand,
  PutTablePolicyCommand,
  PutTableReplicationCommand,
  RenameTableCommand,
  S3TablesClient,
  UpdateTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/config.js';
import { createRuntime } from '../../src/server/server.js';
import { internalCtx } from '../../src/runtime/runtime.js';
import { putObject } from '../../src/services/s3/provider.js';
import { createNamespace, createTable, createTableBucket, getTable } from '../../src/services/s3tables/provider.js';
import { startCliServer, type CliServer } from '../helpers/cli-server.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import { bucketExists, clients, eventually, makeNamespace, makeTable } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const POLICY = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: '111122223333' }, Action: 's3tables:*', Resource: '*' }] });
const ROLE = 'arn:aws:iam::000000000000:role/replication';
const DEST = 'arn:aws:s3tables:us-west-2:000000000000:bucket/replica';



/** Runs the built `overcast start` on `dataDir`, killed after the test if it is still running. */
async function startChild(dataDir: string): Promise<CliServer> {
  const server = await startCliServer(['--port', '0', '--data-dir', dataDir, '--log-level', 'error']);
  cleanups.push(() => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
  return server;
}

describe('persistence of S3 Tables', () => {
  it('keeps buckets, namespaces, tables, configurations and warehouse objects across a restart', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    let t: TestServer = await startTestServer({ dataDir: dir.path });
    let { s3t, s3 } = clients(t);

    const bucketArn = (await s3t.send(new CreateTableBucketCommand({
      name: 'durable',
      encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: 'arn:aws:kms:us-east-1:000000000000:key/k1' },
      storageClassConfiguration: { storageClass: 'INTELLIGENT_TIERING' },
      tags: { team: 'data' },
    }))).arn!;
    await s3t.send(new PutTableBucketMaintenanceConfigurationCommand({
      tableBucketARN: bucketArn, type: 'icebergUnreferencedFileRemoval',
      value: { status: 'enabled', settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 5, nonCurrentDays: 20 } } },
    }));
    await s3t.send(new PutTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }));
    await s3t.send(new PutTableBucketPolicyCommand({ tableBucketARN: bucketArn, resourcePolicy: POLICY }));
    const bucketReplication = await s3t.send(new PutTableBucketReplicationCommand({
      tableBucketARN: bucketArn, configuration: { role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: DEST }] }] },
    }));
    const metricsId = (await s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }))).id;
    const namespace = await makeNamespace(s3t, bucketArn, 'sales');
    await makeNamespace(s3t, bucketArn, 'archive');
    const tb = await makeTable(s3t, {
      tableBucketARN: bucketArn, namespace, name: 'orders', tags: { pii: 'no' },
      metadata: { iceberg: { schema: { fields: [{ name: 'id', type: 'long', required: true }] } } },
    });
    await makeTable(s3t, { tableBucketARN: bucketArn, namespace, name: 'bare' });
    const key = { tableBucketARN: bucketArn, namespace, name: 'orders' };
    await s3t.send(new PutTableMaintenanceConfigurationCommand({ ...key, type: 'icebergCompaction', value: { status: 'disabled', settings: { icebergCompaction: { targetFileSizeMB: 256 } } } }));
    await s3t.send(new PutTablePolicyCommand({ ...key, resourcePolicy: POLICY }));
    const tableReplication = await s3t.send(new PutTableReplicationCommand({
      tableArn: tb.tableArn, configuration: { role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: DEST }] }] },
    }));
    const before = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    const warehouse = before.warehouseLocation!.replace('s3://', '');
    const committed = `${before.warehouseLocation}/metadata/00001-commit.metadata.json`;
    await s3.send(new PutObjectCommand({ Bucket: warehouse, Key: 'metadata/00001-commit.metadata.json', Body: '{"format-version":2}' }));
    await s3.send(new PutObjectCommand({ Bucket: warehouse, Key: 'data/00000-0.parquet', Body: 'PAR1 data PAR1' }));
    const commit = await s3t.send(new UpdateTableMetadataLocationCommand({ ...key, versionToken: before.versionToken, metadataLocation: committed }));
    await s3t.send(new RenameTableCommand({ ...key, newNamespaceName: 'archive', newName: 'orders_2024' }));
    await t.stop();

    t = await startTestServer({ dataDir: dir.path });
    cleanups.push(() => t.stop());
    ({ s3t, s3 } = clients(t));
    const after = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    expect(after).toMatchObject({
      name: 'orders_2024', namespace: ['archive'], metadataLocation: committed, versionToken: commit.versionToken,
      warehouseLocation: before.warehouseLocation, createdAt: before.createdAt,
    });
    expect((await s3t.send(new ListTablesCommand({ tableBucketARN: bucketArn }))).tables!.map((x) => `${x.namespace![0]}.${x.name}`))
      .toEqual(['archive.orders_2024', 'sales.bare']);
    expect((await s3t.send(new GetNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'sales' }))).namespace).toEqual(['sales']);
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: bucketArn }))).encryptionConfiguration)
      .toEqual({ sseAlgorithm: 'aws:kms', kmsKeyArn: 'arn:aws:kms:us-east-1:000000000000:key/k1' });
    expect((await s3t.send(new GetTableBucketStorageClassCommand({ tableBucketARN: bucketArn }))).storageClassConfiguration!.storageClass).toBe('INTELLIGENT_TIERING');
    expect((await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: bucketArn }))).configuration!.icebergUnreferencedFileRemoval!.settings)
      .toEqual({ icebergUnreferencedFileRemoval: { unreferencedDays: 5, nonCurrentDays: 20 } });
    expect((await s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }))).id).toBe(metricsId);
    expect((await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: bucketArn }))).resourcePolicy).toBe(POLICY);
    expect((await s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: bucketArn }))).versionToken).toBe(bucketReplication.versionToken);
    expect((await s3t.send(new ListTagsForResourceCommand({ resourceArn: bucketArn }))).tags).toEqual({ team: 'data' });
    const renamed = { tableBucketARN: bucketArn, namespace: 'archive', name: 'orders_2024' };
    expect((await s3t.send(new GetTableMaintenanceConfigurationCommand(renamed))).configuration!.icebergCompaction)
      .toEqual({ status: 'disabled', settings: { icebergCompaction: { targetFileSizeMB: 256, strategy: 'auto' } } });
    expect((await s3t.send(new GetTablePolicyCommand(renamed))).resourcePolicy).toBe(POLICY);
    expect((await s3t.send(new GetTableReplicationCommand({ tableArn: tb.tableArn }))).versionToken).toBe(tableReplication.versionToken);
    expect((await s3t.send(new ListTagsForResourceCommand({ resourceArn: tb.tableArn }))).tags).toEqual({ pii: 'no' });
    const initial = before.metadataLocation!.slice(`s3://${warehouse}/`.length);
    const meta = JSON.parse(await (await s3.send(new GetObjectCommand({ Bucket: warehouse, Key: initial }))).Body!.transformToString());
    expect(meta.location).toBe(before.warehouseLocation);
    expect(await (await s3.send(new GetObjectCommand({ Bucket: warehouse, Key: 'data/00000-0.parquet' }))).Body!.transformToString()).toBe('PAR1 data PAR1');

    // Deleting after the restart still purges the warehouse, and nothing comes back on the next start.
    await s3t.send(new DeleteTableCommand(renamed));
    expect(await eventually(async () => !(await bucketExists(s3, warehouse)))).toBe(true);
    await t.stop();
    t = await startTestServer({ dataDir: dir.path });
    expect(await bucketExists(clients(t).s3, warehouse)).toBe(false);
  });

  it('resumes a warehouse purge interrupted by kill -9, leaving no orphan', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    // A table whose warehouse holds enough objects that its background purge takes a while:
    // filled in-process through the real providers, which is much faster than 10,000 PUTs.
    const rt = createRuntime({ ...configFromEnv({}), dataDir: dir.path, logLevel: 'error' });
    const ctx = internalCtx(rt, '000000000000', 'us-east-1', 'test-setup');
    const bucketArn = createTableBucket(ctx, { name: 'crash' }).arn!;
    createNamespace(ctx, { tableBucketARN: bucketArn, namespace: ['ns'] });
    const { tableARN } = await createTable(ctx, { tableBucketARN: bucketArn, namespace: 'ns', name: 'doomed', format: 'ICEBERG' });
    const warehouse = getTable(ctx, { tableArn: tableARN }).warehouseLocation!.replace('s3://', '');
    rt.meta.db.exec('BEGIN');
    for (let i = 0; i < 10_000; i++) {
      await putObject(ctx, { Bucket: warehouse, Key: `data/part-${String(i).padStart(5, '0')}.parquet`, Body: (async function* () { yield Buffer.from('x'); })() });
    }
    rt.meta.db.exec('COMMIT');
    await new Promise((r) => setImmediate(r)); // let the blob store's scheduled sweep run before closing
    rt.blobs.close();
    rt.meta.close();

    const { child, endpoint } = await startChild(dir.path);
    const s3t = new S3TablesClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });
    await s3t.send(new DeleteTableCommand({ tableBucketARN: bucketArn, namespace: 'ns', name: 'doomed' }));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    // The crash left the warehouse half purged, and its purge recorded.
    const db = new Database(join(dir.path, 'overcast.db'), { readonly: true });
    const pending = db.prepare('SELECT bucket FROM s3t_purges').all() as { bucket: string }[];
    const remaining = (db.prepare('SELECT count(*) AS n FROM s3_objects WHERE bucket = ?').get(warehouse) as { n: number }).n;
    db.close();
    expect(pending.map((p) => p.bucket)).toEqual([warehouse]);
    expect(remaining).toBeGreaterThan(0);

    const t = await startTestServer({ dataDir: dir.path });
    cleanups.push(() => t.stop());
    const s3again = clients(t).s3;
    expect(await eventually(async () => !(await bucketExists(s3again, warehouse)))).toBe(true);
    await t.stop();
    const check = new Database(join(dir.path, 'overcast.db'), { readonly: true });
    expect(check.prepare('SELECT count(*) AS n FROM s3t_purges').get()).toEqual({ n: 0 });
    expect(check.prepare('SELECT count(*) AS n FROM s3_objects WHERE bucket = ?').get(warehouse)).toEqual({ n: 0 });
    check.close();
  });
});
