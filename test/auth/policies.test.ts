/**
 * Strict mode's resource policies between two accounts, through real clients: S3 Tables API calls,
 * the Iceberg REST catalog and reads of a table's warehouse are refused to another account until
 * the table bucket's or the table's policy grants its role (an STS session of it), and refused
 * again by an explicit Deny; conditions on s3tables:tableName and aws:SecureTransport are
 * evaluated; public policies are refused; S3 bucket policies likewise. The warehouse takes only
 * what AWS's table storage takes, in strict mode; the default mode keeps it browsable.
 */
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  CreateTableCommand,
  DeleteTableCommand,
  GetTableCommand,
  PutTableBucketPolicyCommand,
  PutTablePolicyCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../helpers/errors.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sigv4Fetch } from '../helpers/sigv4-fetch.js';

const OTHER = '111111111111';
const ROLE = `arn:aws:iam::${OTHER}:role/Reader`;
let t: TestServer;
let owner: { s3tables: S3TablesClient; s3: S3Client };
let guest: { s3tables: S3TablesClient; s3: S3Client; creds: { accessKeyId: string; secretAccessKey: string; sessionToken: string } };
let bucketArn: string;
let table: { arn: string; warehouse: string; name: string };

const config = (credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) => ({ ...t.clientConfig, credentials, maxAttempts: 1 });

beforeAll(async () => {
  t = await startTestServer({ auth: 'strict', credentials: [{ accessKeyId: 'AKIAOTHERACCOUNT0001', secretAccessKey: 'other-secret', accountId: OTHER }] });
  owner = { s3tables: new S3TablesClient(config(t.credentials)), s3: new S3Client(config(t.credentials)) };
  const sts = new STSClient(config({ accessKeyId: 'AKIAOTHERACCOUNT0001', secretAccessKey: 'other-secret' }));
  const session = (await sts.send(new AssumeRoleCommand({ RoleArn: ROLE, RoleSessionName: 'etl' }))).Credentials!;
  const creds = { accessKeyId: session.AccessKeyId!, secretAccessKey: session.SecretAccessKey!, sessionToken: session.SessionToken! };
  guest = { s3tables: new S3TablesClient(config(creds)), s3: new S3Client(config(creds)), creds };
  bucketArn = (await owner.s3tables.send(new CreateTableBucketCommand({ name: 'shared' }))).arn!;
  await owner.s3tables.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['ns'] }));
  for (const name of ['facts', 'secret']) {
    await owner.s3tables.send(
      new CreateTableCommand({
        tableBucketARN: bucketArn,
        namespace: 'ns',
        name,
        format: 'ICEBERG',
        metadata: { iceberg: { schema: { fields: [{ name: 'id', type: 'int' }] } } },
      }),
    );
  }
  const got = await owner.s3tables.send(new GetTableCommand({ tableBucketARN: bucketArn, namespace: 'ns', name: 'facts' }));
  table = { arn: got.tableARN!, warehouse: new URL(got.warehouseLocation!).hostname, name: 'facts' };
  await owner.s3.send(new PutObjectCommand({ Bucket: table.warehouse, Key: 'data/one.parquet', Body: 'rows' }));
});
afterAll(() => t.stop());

const getTable = (client: S3TablesClient, name = 'facts') => client.send(new GetTableCommand({ tableBucketARN: bucketArn, namespace: 'ns', name }));
const readWarehouse = (client: S3Client) => client.send(new GetObjectCommand({ Bucket: table.warehouse, Key: 'data/one.parquet' }));
const loadTable = (name = 'facts') =>
  sigv4Fetch({ service: 's3tables', region: t.region, credentials: guest.creds })(`${t.endpoint}/iceberg/v1/${encodeURIComponent(bucketArn)}/namespaces/ns/tables/${name}`);

function policy(...statements: object[]): string {
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
}

describe('table bucket and table policies between two accounts', () => {
  it('another account gets nothing without a grant: API, Iceberg REST, warehouse', async () => {
    const api = await failure(getTable(guest.s3tables));
    expect([api.status, api.name]).toEqual([403, 'AccessDeniedException']);
    expect(api.message).toBe(
      `User: arn:aws:sts::${OTHER}:assumed-role/Reader/etl is not authorized to perform: s3tables:GetTable on resource: "${table.arn}" because no resource-based policy allows the s3tables:GetTable action`,
    );
    expect((await loadTable()).status).toBe(403);
    const read = await failure(readWarehouse(guest.s3));
    expect([read.status, read.name]).toEqual([403, 'AccessDenied']);
    expect(read.message).toContain('s3tables:GetTableData');
  });

  it("a bucket policy naming the other account's role lets it read, not delete; a Deny on a table name wins", async () => {
    await owner.s3tables.send(
      new PutTableBucketPolicyCommand({
        tableBucketARN: bucketArn,
        resourcePolicy: policy(
          {
            Effect: 'Allow',
            Principal: { AWS: ROLE },
            Action: ['s3tables:GetTable', 's3tables:GetTableMetadataLocation', 's3tables:GetTableData'],
            Resource: `${bucketArn}/table/*`,
          },
          { Effect: 'Deny', Principal: '*', Action: 's3tables:*', Resource: `${bucketArn}/table/*`, Condition: { StringEquals: { 's3tables:tableName': 'secret' } } },
        ),
      }),
    );
    expect((await getTable(guest.s3tables)).tableARN).toBe(table.arn);
    const load = await loadTable();
    expect(load.status).toBe(200);
    expect(((await load.json()) as { 'metadata-location': string })['metadata-location']).toMatch(/^s3:\/\//);
    expect(await (await readWarehouse(guest.s3)).Body!.transformToString()).toBe('rows');
    const del = await failure(guest.s3tables.send(new DeleteTableCommand({ tableBucketARN: bucketArn, namespace: 'ns', name: 'facts' })));
    expect([del.status, del.name]).toEqual([403, 'AccessDeniedException']);
    const write = await failure(guest.s3.send(new PutObjectCommand({ Bucket: table.warehouse, Key: 'data/evil.parquet', Body: 'x' })));
    expect(write.name).toBe('AccessDenied');
    // The Deny holds for everyone, the owner too.
    expect((await failure(getTable(guest.s3tables, 'secret'))).name).toBe('AccessDeniedException');
    expect((await loadTable('secret')).status).toBe(403);
    const own = await failure(getTable(owner.s3tables, 'secret'));
    expect(own.message).toContain('with an explicit deny in a resource-based policy');
    expect((await getTable(owner.s3tables)).name).toBe('facts');
  });

  it("a table policy's Deny beats the bucket policy's Allow; a public policy is refused", async () => {
    await owner.s3tables.send(
      new PutTablePolicyCommand({
        tableBucketARN: bucketArn,
        namespace: 'ns',
        name: 'facts',
        resourcePolicy: policy({ Effect: 'Deny', Principal: { AWS: `arn:aws:iam::${OTHER}:root` }, Action: 's3tables:GetTableData', Resource: table.arn }),
      }),
    );
    expect((await getTable(guest.s3tables)).name).toBe('facts');
    expect((await failure(readWarehouse(guest.s3))).name).toBe('AccessDenied');
    expect((await loadTable()).status).toBe(403);
    const pub = await failure(
      owner.s3tables.send(
        new PutTableBucketPolicyCommand({ tableBucketARN: bucketArn, resourcePolicy: policy({ Effect: 'Allow', Principal: '*', Action: 's3tables:GetTable', Resource: '*' }) }),
      ),
    );
    expect([pub.status, pub.name]).toEqual([403, 'AccessDeniedException']);
    // Pinned to an account by a condition, a wildcard principal is not public.
    await owner.s3tables.send(
      new PutTableBucketPolicyCommand({
        tableBucketARN: bucketArn,
        resourcePolicy: policy({ Effect: 'Allow', Principal: '*', Action: 's3tables:GetTable', Resource: '*', Condition: { StringEquals: { 'aws:PrincipalAccount': OTHER } } }),
      }),
    );
    expect((await getTable(guest.s3tables)).name).toBe('facts');
  });
});

describe('S3 bucket policies', () => {
  it('another account needs an Allow; aws:SecureTransport is false over http', async () => {
    await owner.s3.send(new CreateBucketCommand({ Bucket: 'owned' }));
    await owner.s3.send(new PutObjectCommand({ Bucket: 'owned', Key: 'k', Body: 'v' }));
    expect((await failure(guest.s3.send(new GetObjectCommand({ Bucket: 'owned', Key: 'k' })))).name).toBe('AccessDenied');
    await owner.s3.send(
      new PutBucketPolicyCommand({
        Bucket: 'owned',
        Policy: policy(
          { Effect: 'Allow', Principal: { AWS: OTHER }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::owned/*' },
          { Effect: 'Deny', Principal: '*', Action: 's3:PutObject', Resource: 'arn:aws:s3:::owned/*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } },
        ),
      }),
    );
    expect(await (await guest.s3.send(new GetObjectCommand({ Bucket: 'owned', Key: 'k' }))).Body!.transformToString()).toBe('v');
    const put = await failure(owner.s3.send(new PutObjectCommand({ Bucket: 'owned', Key: 'k', Body: 'over http' })));
    expect([put.status, put.name]).toEqual([403, 'AccessDenied']);
    expect(await (await owner.s3.send(new GetObjectCommand({ Bucket: 'owned', Key: 'k' }))).Body!.transformToString()).toBe('v');
  });

  it('DeleteObjects answers a key the caller may not delete with AccessDenied in its result and deletes the others', async () => {
    await owner.s3.send(new CreateBucketCommand({ Bucket: 'shared-deletes' }));
    for (const key of ['scratch/a', 'scratch/b', 'kept/c']) await owner.s3.send(new PutObjectCommand({ Bucket: 'shared-deletes', Key: key, Body: key }));
    await owner.s3.send(
      new PutBucketPolicyCommand({
        Bucket: 'shared-deletes',
        Policy: policy({ Effect: 'Allow', Principal: { AWS: OTHER }, Action: 's3:DeleteObject', Resource: 'arn:aws:s3:::shared-deletes/scratch/*' }),
      }),
    );
    const out = await guest.s3.send(
      new DeleteObjectsCommand({ Bucket: 'shared-deletes', Delete: { Objects: [{ Key: 'scratch/a' }, { Key: 'kept/c' }, { Key: 'scratch/b' }] } }),
    );
    expect(out.Deleted?.map((d) => d.Key)).toEqual(['scratch/a', 'scratch/b']);
    expect(out.Errors).toEqual([{ Key: 'kept/c', Code: 'AccessDenied', Message: 'Access Denied' }]);
    expect(await (await owner.s3.send(new GetObjectCommand({ Bucket: 'shared-deletes', Key: 'kept/c' }))).Body!.transformToString()).toBe('kept/c');
    expect((await failure(owner.s3.send(new HeadObjectCommand({ Bucket: 'shared-deletes', Key: 'scratch/a' })))).status).toBe(404);
  });
});

describe("a warehouse in strict mode is AWS's table storage", () => {
  it('no listing, no DeleteObject, no presigned URLs, fixed storage class and ACL', async () => {
    const list = await failure(owner.s3.send(new ListObjectsV2Command({ Bucket: table.warehouse })));
    expect([list.status, list.name]).toEqual([405, 'MethodNotAllowed']);
    const del = await failure(owner.s3.send(new DeleteObjectCommand({ Bucket: table.warehouse, Key: 'data/one.parquet' })));
    expect([del.status, del.name]).toEqual([405, 'MethodNotAllowed']);
    const url = await getSignedUrl(owner.s3, new GetObjectCommand({ Bucket: table.warehouse, Key: 'data/one.parquet' }), { expiresIn: 60 });
    expect((await fetch(url)).status).toBe(403);
    const cold = await failure(owner.s3.send(new PutObjectCommand({ Bucket: table.warehouse, Key: 'data/c', Body: 'x', StorageClass: 'GLACIER' })));
    expect([cold.status, cold.name]).toEqual([400, 'InvalidStorageClass']);
    const acl = await failure(owner.s3.send(new PutObjectCommand({ Bucket: table.warehouse, Key: 'data/a', Body: 'x', ACL: 'public-read' })));
    expect([acl.status, acl.name]).toEqual([400, 'InvalidArgument']);
    await owner.s3.send(new PutObjectCommand({ Bucket: table.warehouse, Key: 'data/ok', Body: 'x', StorageClass: 'STANDARD' }));
    expect(await (await owner.s3.send(new GetObjectCommand({ Bucket: table.warehouse, Key: 'data/one.parquet' }))).Body!.transformToString()).toBe('rows');
  });

  it('the default mode keeps warehouses browsable', async () => {
    const open = await startTestServer();
    try {
      const s3t = new S3TablesClient(open.clientConfig);
      const arn = (await s3t.send(new CreateTableBucketCommand({ name: 'open' }))).arn!;
      await s3t.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['ns'] }));
      await s3t.send(new CreateTableCommand({ tableBucketARN: arn, namespace: 'ns', name: 't', format: 'ICEBERG' }));
      const loc = (await s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: 'ns', name: 't' }))).warehouseLocation!;
      const s3 = new S3Client(open.clientConfig);
      await s3.send(new PutObjectCommand({ Bucket: new URL(loc).hostname, Key: 'x', Body: 'x' }));
      expect((await s3.send(new ListObjectsV2Command({ Bucket: new URL(loc).hostname }))).KeyCount).toBe(1);
      await s3.send(new DeleteObjectCommand({ Bucket: new URL(loc).hostname, Key: 'x' }));
    } finally {
      await open.stop();
    }
  });
});
