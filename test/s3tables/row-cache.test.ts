/**
 * Table rows are cached by id for GetTable and commits: every change to a table is seen by the
 * next GetTable by ARN at once — a commit, a rename, a delete, a reset of the server — and a
 * commit refused midway leaves the table as it was.
 */
import {
  DeleteTableCommand,
  GetTableCommand,
  NotFoundException,
  RenameTableCommand,
  UpdateTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { makeTable } from './helpers.js';

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
