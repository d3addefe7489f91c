/**
 * Replication configuration through @aws-sdk/client-s3tables, at bucket and table level: 404 while
 * none exists, creation without a token, replacement only with the current token (400 when
 * missing, 409 when stale), deletion, the status shape (`pending`: nothing has been replicated),
 * and the query-addressed operations' validation errors.
 */
import {
  DeleteTableBucketReplicationCommand,
  DeleteTableReplicationCommand,
  GetTableBucketReplicationCommand,
  GetTableReplicationCommand,
  GetTableReplicationStatusCommand,
  PutTableBucketReplicationCommand,
  PutTableReplicationCommand
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import {  expectError, makeBucket, makeTable } from './helpers.js';


const ROLE = 'arn:aws:iam::000000000000:role/s3tables-replication';
const config = (...destinations: string[]) => ({
  role: ROLE,
  rules: [{ destinations: destinations.map((d) => ({ destinationTableBucketARN: d })) }],
});

describe('table bucket replication', () => {
  it('creates, reads, replaces with the current token and deletes a configuration', async ({ server: t, s3tables: s3t }) => {
    const source = await makeBucket(s3t);
    const dest1 = 'arn:aws:s3tables:us-west-2:000000000000:bucket/replica-one';
    const dest2 = 'arn:aws:s3tables:eu-west-1:111122223333:bucket/replica-two';
    const none = await expectError(s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: source })), 'NotFoundException', 404);
    expect(none.message).toBe('The specified replication configuration does not exist.');

    const put = await s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, configuration: config(dest1) }));
    expect(put.$metadata.httpStatusCode).toBe(200);
    expect(put.versionToken).toBeTruthy();
    expect(put.status).toBeTruthy();
    const got = await s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: source }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got.versionToken).toBe(put.versionToken);
    expect(got.configuration).toEqual(config(dest1));

    const missing = await expectError(
      s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, configuration: config(dest2) })),
      'BadRequestException',
      400,
    );
    expect(missing.message).toBe('A version token is not specified');
    await expectError(
      s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, versionToken: 'stale', configuration: config(dest2) })),
      'ConflictException',
      409,
    );
    expect((await s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: source }))).configuration).toEqual(config(dest1));

    const replaced = await s3t.send(
      new PutTableBucketReplicationCommand({ tableBucketARN: source, versionToken: got.versionToken, configuration: config(dest1, dest2) }),
    );
    expect(replaced.versionToken).not.toBe(got.versionToken);
    expect((await s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: source }))).configuration).toEqual(config(dest1, dest2));

    await expectError(
      s3t.send(new DeleteTableBucketReplicationCommand({ tableBucketARN: source, versionToken: got.versionToken })),
      'ConflictException',
      409,
    );
    const del = await s3t.send(new DeleteTableBucketReplicationCommand({ tableBucketARN: source, versionToken: replaced.versionToken }));
    expect(del.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: source })), 'NotFoundException', 404);
    await expectError(s3t.send(new DeleteTableBucketReplicationCommand({ tableBucketARN: source })), 'NotFoundException', 404);
  });

  it('refuses invalid configurations: bad role, no or too many destinations, itself, duplicates', async ({ server: t, s3tables: s3t }) => {
    const source = await makeBucket(s3t);
    const d = (i: number) => `arn:aws:s3tables:us-west-2:000000000000:bucket/replica-${i}`;
    const role = await expectError(
      s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, configuration: { ...config(d(1)), role: 'arn:aws:iam::000000000000:user/me' } })),
      'BadRequestException',
      400,
    );
    expect(role.message).toContain("at 'configuration.role' failed to satisfy constraint");
    await expectError(s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, configuration: config() })), 'BadRequestException', 400);
    await expectError(
      s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, configuration: config(d(1), d(2), d(3), d(4), d(5), d(6)) })),
      'BadRequestException',
      400,
    );
    await expectError(s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, configuration: config(source) })), 'BadRequestException', 400);
    await expectError(s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: source, configuration: config(d(1), d(1)) })), 'BadRequestException', 400);
    await expectError(s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: source })), 'NotFoundException', 404);
    await expectError(
      s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/absent', configuration: config(d(1)) })),
      'NotFoundException',
      404,
    );
  });
});

describe('table replication', () => {
  it('creates, reads, replaces and deletes a table configuration with version tokens', async ({ server: t, s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    const dest = 'arn:aws:s3tables:us-west-2:000000000000:bucket/table-replica';
    await expectError(s3t.send(new GetTableReplicationCommand({ tableArn: tb.tableArn })), 'NotFoundException', 404);
    const put = await s3t.send(new PutTableReplicationCommand({ tableArn: tb.tableArn, configuration: config(dest) }));
    expect(put.$metadata.httpStatusCode).toBe(200);
    const got = await s3t.send(new GetTableReplicationCommand({ tableArn: tb.tableArn }));
    expect(got).toMatchObject({ versionToken: put.versionToken, configuration: config(dest) });
    const missing = await expectError(s3t.send(new PutTableReplicationCommand({ tableArn: tb.tableArn, configuration: config(dest) })), 'BadRequestException', 400);
    expect(missing.message).toBe('A version token is not specified');
    const next = await s3t.send(new PutTableReplicationCommand({ tableArn: tb.tableArn, versionToken: put.versionToken, configuration: config(dest) }));
    await expectError(s3t.send(new DeleteTableReplicationCommand({ tableArn: tb.tableArn, versionToken: put.versionToken })), 'ConflictException', 409);
    const del = await s3t.send(new DeleteTableReplicationCommand({ tableArn: tb.tableArn, versionToken: next.versionToken }));
    expect(del.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetTableReplicationCommand({ tableArn: tb.tableArn })), 'NotFoundException', 404);
    // The table's own version token is a different thing and did not change.
    expect(put.versionToken).not.toBe(tb.versionToken);
  });

  it('answers DeleteTableReplication without its required versionToken with a validation error', async ({ server: t, s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    const res = await fetch(`${t.endpoint}/table-replication?tableArn=${encodeURIComponent(tb.tableArn)}`, {
      method: 'DELETE',
      headers: { authorization: 'AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/s3tables/aws4_request, SignedHeaders=host, Signature=x' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('BadRequestException');
    expect(((await res.json()) as { message: string }).message).toBe(
      "1 validation error detected: Value null at 'versionToken' failed to satisfy constraint: Member must not be null",
    );
    await expectError(
      s3t.send(new PutTableReplicationCommand({ tableArn: `${tb.bucketArn}/table/00000000-0000-4000-8000-000000000000`, configuration: config(tb.bucketArn) })),
      'NotFoundException',
      404,
    );
  });
});

describe('GetTableReplicationStatus', () => {
  it('reports every destination pending — from the table’s configuration, else its bucket’s — and 404 without any', async ({ server: t, s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    await expectError(s3t.send(new GetTableReplicationStatusCommand({ tableArn: tb.tableArn })), 'NotFoundException', 404);
    const bucketDest = 'arn:aws:s3tables:us-west-2:000000000000:bucket/bucket-level';
    await s3t.send(new PutTableBucketReplicationCommand({ tableBucketARN: tb.bucketArn, configuration: config(bucketDest) }));
    const fromBucket = await s3t.send(new GetTableReplicationStatusCommand({ tableArn: tb.tableArn }));
    expect(fromBucket.$metadata.httpStatusCode).toBe(200);
    expect(fromBucket.sourceTableArn).toBe(tb.tableArn);
    expect(fromBucket.destinations).toEqual([{ replicationStatus: 'pending', destinationTableBucketArn: bucketDest }]);
    const tableDest = 'arn:aws:s3tables:eu-west-1:000000000000:bucket/table-level';
    await s3t.send(new PutTableReplicationCommand({ tableArn: tb.tableArn, configuration: config(tableDest, bucketDest) }));
    const fromTable = await s3t.send(new GetTableReplicationStatusCommand({ tableArn: tb.tableArn }));
    expect(fromTable.destinations).toEqual([
      { replicationStatus: 'pending', destinationTableBucketArn: tableDest },
      { replicationStatus: 'pending', destinationTableBucketArn: bucketDest },
    ]);
  });
});
