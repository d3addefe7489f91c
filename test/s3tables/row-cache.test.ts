/**
 * Table rows are cached by id for GetTable, commits and listings, and table buckets by name for
 * every operation: every change to a table is seen by the next GetTable by ARN and the next
 * ListTables at once — a commit, a rename, a delete, a new table, a reset of the server — and a
 * commit refused midway leaves the table as it was; a bucket's new encryption reaches the tables
 * created after it, and a bucket deleted and created again under its name is the new one.
 */
import {
  CreateTableBucketCommand,
  DeleteNamespaceCommand,
  DeleteTableBucketCommand,
  DeleteTableCommand,
  GetTableBucketCommand,
  GetTableBucketEncryptionCommand,
  GetTableCommand,
  GetTableEncryptionCommand,
  PutTableBucketEncryptionCommand,
  ListTablesCommand,
  NotFoundException,
  RenameTableCommand,
  UpdateTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { makeNamespace, makeTable } from './helpers.js';

describe('GetTable after changes', () => {
  it('sees commits, renames, deletes and resets at once', async ({ server: t, s3tables: s3t }) => {
    const made = await makeTable(s3t);
    const get = () => s3t.send(new GetTableCommand({ tableArn: made.tableArn }));
    const first = await get();
    const location = `${first.warehouseLocation}/metadata/00001-a.metadata.json`;
    const committed = await s3t.send(
      new UpdateTableMetadataLocationCommand({ tableBucketARN: made.bucketArn, namespace: made.namespace, name: made.name, versionToken: first.versionToken, metadataLocation: location }),
    );
    expect(await get()).toMatchObject({ versionToken: committed.versionToken, metadataLocation: location });

    // A stale token is refused and changes nothing.
    await expect(
      s3t.send(new UpdateTableMetadataLocationCommand({ tableBucketARN: made.bucketArn, namespace: made.namespace, name: made.name, versionToken: first.versionToken, metadataLocation: location.replace("00001-a", "00002-b") })),
    ).rejects.toMatchObject({ name: 'ConflictException' });
    expect(await get()).toMatchObject({ versionToken: committed.versionToken, metadataLocation: location });

    await s3t.send(new RenameTableCommand({ tableBucketARN: made.bucketArn, namespace: made.namespace, name: made.name, newName: 'renamed', versionToken: committed.versionToken }));
    expect((await get()).name).toBe('renamed');

    await s3t.send(new DeleteTableCommand({ tableBucketARN: made.bucketArn, namespace: made.namespace, name: 'renamed' }));
    await expect(get()).rejects.toBeInstanceOf(NotFoundException);

    const again = await makeTable(s3t);
    await s3t.send(new GetTableCommand({ tableArn: again.tableArn }));
    const reset = await fetch(`${t.endpoint}/_overcast/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reset.status).toBe(200);
    await expect(s3t.send(new GetTableCommand({ tableArn: again.tableArn }))).rejects.toBeInstanceOf(NotFoundException);
  });
});

describe('ListTables after changes', () => {
  it('sees commits, renames, deletes, new tables and resets at once', async ({ server: t, s3tables: s3t }) => {
    const made = await makeTable(s3t, { name: 'a_table' });
    const other = await makeTable(s3t, { tableBucketARN: made.bucketArn, namespace: made.namespace, name: 'b_table' });
    const list = async () => (await s3t.send(new ListTablesCommand({ tableBucketARN: made.bucketArn }))).tables ?? [];
    const summary = async (arn: string) => (await list()).find((x) => x.tableARN === arn);
    // Listed twice: the second page comes from the cache.
    await list();
    expect((await list()).map((x) => x.name)).toEqual(['a_table', 'b_table']);

    const before = (await summary(made.tableArn))!.modifiedAt!;
    await new Promise((r) => setTimeout(r, 5));
    const got = await s3t.send(new GetTableCommand({ tableArn: made.tableArn }));
    await s3t.send(
      new UpdateTableMetadataLocationCommand({
        tableBucketARN: made.bucketArn,
        namespace: made.namespace,
        name: made.name,
        versionToken: got.versionToken,
        metadataLocation: `${got.warehouseLocation}/metadata/00001-a.metadata.json`,
      }),
    );
    const committed = await s3t.send(new GetTableCommand({ tableArn: made.tableArn }));
    expect(committed.modifiedAt!.getTime()).toBeGreaterThan(before.getTime());
    expect((await summary(made.tableArn))!.modifiedAt).toEqual(committed.modifiedAt);

    const moved = await makeNamespace(s3t, made.bucketArn, 'z_namespace');
    await s3t.send(
      new RenameTableCommand({ tableBucketARN: made.bucketArn, namespace: made.namespace, name: made.name, newNamespaceName: moved, newName: 'renamed' }),
    );
    expect(await summary(made.tableArn)).toMatchObject({ name: 'renamed', namespace: [moved] });
    expect((await list()).map((x) => x.name)).toEqual(['b_table', 'renamed']);

    await s3t.send(new DeleteTableCommand({ tableBucketARN: made.bucketArn, namespace: made.namespace, name: 'b_table' }));
    expect((await list()).map((x) => x.name)).toEqual(['renamed']);
    const added = await makeTable(s3t, { tableBucketARN: made.bucketArn, namespace: made.namespace, name: 'c_table' });
    expect((await list()).map((x) => x.tableARN)).toEqual([added.tableArn, made.tableArn]);
    expect(await summary(other.tableArn)).toBeUndefined();

    const reset = await fetch(`${t.endpoint}/_overcast/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reset.status).toBe(200);
    await expect(list()).rejects.toBeInstanceOf(NotFoundException);
  });
});

describe('table buckets after changes', () => {
  it('see encryption changes, deletion and a new bucket of the same name at once', async ({ server: t, s3tables: s3t }) => {
    const name = `cache-bucket-${Date.now()}`;
    const first = await s3t.send(new CreateTableBucketCommand({ name }));
    const get = () => s3t.send(new GetTableBucketCommand({ tableBucketARN: first.arn }));
    const firstId = (await get()).tableBucketId;
    await get();

    const kms = 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    await s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: first.arn, encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: kms } }));
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: first.arn }))).encryptionConfiguration?.kmsKeyArn).toBe(kms);
    const table = await makeTable(s3t, { tableBucketARN: first.arn });
    const inherited = await s3t.send(new GetTableEncryptionCommand({ tableBucketARN: first.arn, namespace: table.namespace, name: table.name }));
    expect(inherited.encryptionConfiguration?.kmsKeyArn).toBe(kms);

    await s3t.send(new DeleteTableCommand({ tableBucketARN: first.arn, namespace: table.namespace, name: table.name }));
    await s3t.send(new DeleteNamespaceCommand({ tableBucketARN: first.arn, namespace: table.namespace }));
    await s3t.send(new DeleteTableBucketCommand({ tableBucketARN: first.arn }));
    await expect(get()).rejects.toBeInstanceOf(NotFoundException);
    await s3t.send(new CreateTableBucketCommand({ name }));
    const second = await get();
    expect(second.tableBucketId).not.toBe(firstId);
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: first.arn }))).encryptionConfiguration?.sseAlgorithm).toBe('AES256');

    const reset = await fetch(`${t.endpoint}/_overcast/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reset.status).toBe(200);
    await expect(get()).rejects.toBeInstanceOf(NotFoundException);
  });
});
