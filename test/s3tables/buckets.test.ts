/**
 * Table buckets through @aws-sdk/client-s3tables: CreateTableBucket with AWS's naming rules and
 * errors, uniqueness per account and region, GetTableBucket, ListTableBuckets (prefix, type,
 * pages, tokens) and DeleteTableBucket (refused while namespaces remain).
 */
import {
  CreateNamespaceCommand,
  CreateTableBucketCommand,
  DeleteNamespaceCommand,
  DeleteTableBucketCommand,
  GetTableBucketCommand,
  GetTableBucketEncryptionCommand,
  ListTableBucketsCommand,
  ListTagsForResourceCommand,
  paginateListTableBuckets,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import {  expectError, makeBucket, uniqueName } from './helpers.js';


describe('CreateTableBucket', () => {
  it('creates a bucket whose ARN, id, owner, type and creation time GetTableBucket reports', async ({ server: t, s3tables: s3t }) => {
    const before = Date.now();
    const out = await s3t.send(new CreateTableBucketCommand({ name: 'analytics-1' }));
    expect(out.$metadata.httpStatusCode).toBe(200);
    expect(out.arn).toBe('arn:aws:s3tables:us-east-1:000000000000:bucket/analytics-1');
    const got = await s3t.send(new GetTableBucketCommand({ tableBucketARN: out.arn }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got).toMatchObject({ arn: out.arn, name: 'analytics-1', ownerAccountId: '000000000000', type: 'customer' });
    expect(got.tableBucketId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(got.createdAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(got.createdAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('answers the model constraint with Coral text and creates nothing', async ({ server: t, s3tables: s3t }) => {
    const err = await expectError(s3t.send(new CreateTableBucketCommand({ name: 'My-Bucket' })), 'BadRequestException', 400);
    expect(err.message).toBe(
      "1 validation error detected: Value 'My-Bucket' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [0-9a-z-]*",
    );
    const short = await expectError(s3t.send(new CreateTableBucketCommand({ name: 'ab' })), 'BadRequestException', 400);
    expect(short.message).toContain('Member must have length greater than or equal to 3');
    const listed = await s3t.send(new ListTableBucketsCommand({ prefix: 'my' }));
    expect(listed.tableBuckets).toEqual([]);
  });

  it.for([
    ['-leading-hyphen'],
    ['trailing-hyphen-'],
    ['aws-reserved'],
    ['awsbucket'],
    ['xn--punycode'],
    ['sthree-bucket'],
    ['amzn-s3-demo-bucket'],
    ['name-s3alias'],
    ['name--ol-s3'],
    ['name--x-s3'],
    ['name--table-s3'],
  ])('refuses %s by the naming rules', async ([name], { s3tables: s3t }) => {
    const err = await expectError(s3t.send(new CreateTableBucketCommand({ name })), 'BadRequestException', 400);
    expect(err.message).toBe('The specified bucket name is not valid.');
    await expectError(
      s3t.send(new GetTableBucketCommand({ tableBucketARN: `arn:aws:s3tables:us-east-1:000000000000:bucket/${name}` })),
      'NotFoundException',
      404,
    );
  });

  it('refuses a second bucket of the same name in the same account and region with ConflictException', async ({ server: t, s3tables: s3t }) => {
    await makeBucket(s3t, 'twice');
    const err = await expectError(s3t.send(new CreateTableBucketCommand({ name: 'twice' })), 'ConflictException', 409);
    expect(err.message).toBe('The bucket that you tried to create already exists, and you own it.');
    const listed = await s3t.send(new ListTableBucketsCommand({ prefix: 'twice' }));
    expect(listed.tableBuckets!.map((b) => b.name)).toEqual(['twice']);
  });

  it('scopes names by account and region', async ({ server: t, s3tables: s3t }) => {
    await makeBucket(s3t, 'shared-name');
    const west = new S3TablesClient({ ...t.clientConfig, region: 'eu-west-1', maxAttempts: 1 });
    const other = new S3TablesClient({
      ...t.clientConfig,
      credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' },
      maxAttempts: 1,
    });
    const w = await west.send(new CreateTableBucketCommand({ name: 'shared-name' }));
    expect(w.arn).toBe('arn:aws:s3tables:eu-west-1:000000000000:bucket/shared-name');
    const o = await other.send(new CreateTableBucketCommand({ name: 'shared-name' }));
    expect(o.arn).toBe('arn:aws:s3tables:us-east-1:111122223333:bucket/shared-name');
    // Each sees only its own: the ARN of another account or region is not found.
    await expectError(other.send(new GetTableBucketCommand({ tableBucketARN: w.arn })), 'NotFoundException', 404);
    expect((await west.send(new ListTableBucketsCommand({}))).tableBuckets!.map((b) => b.name)).toEqual(['shared-name']);
  });

  it('applies encryption and tags given at creation, and validates them first', async ({ server: t, s3tables: s3t }) => {
    const kms = 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const arn = (
      await s3t.send(
        new CreateTableBucketCommand({
          name: 'with-options',
          encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: kms },
          tags: { team: 'data', 'cost-center': '42' },
        }),
      )
    ).arn!;
    const enc = await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }));
    expect(enc.encryptionConfiguration).toEqual({ sseAlgorithm: 'aws:kms', kmsKeyArn: kms });
    const tags = await s3t.send(new ListTagsForResourceCommand({ resourceArn: arn }));
    expect(tags.tags).toEqual({ team: 'data', 'cost-center': '42' });

    await expectError(
      s3t.send(new CreateTableBucketCommand({ name: 'kms-without-key', encryptionConfiguration: { sseAlgorithm: 'aws:kms' } })),
      'BadRequestException',
      400,
    );
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    await expectError(s3t.send(new CreateTableBucketCommand({ name: 'too-many-tags', tags: many })), 'BadRequestException', 400);
    const listed = await s3t.send(new ListTableBucketsCommand({ prefix: 'kms-without' }));
    expect(listed.tableBuckets).toEqual([]);
    expect((await s3t.send(new ListTableBucketsCommand({ prefix: 'too-many' }))).tableBuckets).toEqual([]);
  });
});

describe('GetTableBucket', () => {
  it('answers NotFoundException for an unknown bucket and a validation error for a malformed ARN', async ({ server: t, s3tables: s3t }) => {
    const missing = await expectError(
      s3t.send(new GetTableBucketCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/nope' })),
      'NotFoundException',
      404,
    );
    expect(missing.message).toBe('The specified bucket does not exist.');
    const bad = await expectError(s3t.send(new GetTableBucketCommand({ tableBucketARN: 'not-an-arn' })), 'BadRequestException', 400);
    expect(bad.message).toContain("at 'tableBucketARN' failed to satisfy constraint: Member must satisfy regular expression pattern");
  });
});

describe('ListTableBuckets', () => {
  it('pages through buckets by name with opaque tokens, and filters by prefix and type', async ({ server: t, s3tables: s3t }) => {
    const names = ['page-a', 'page-b', 'page-c', 'page-d', 'page-e'];
    for (const n of [...names].reverse()) await makeBucket(s3t, n);
    await makeBucket(s3t, 'other-prefix');

    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const out = await s3t.send(new ListTableBucketsCommand({ prefix: 'page-', maxBuckets: 2, continuationToken: token }));
      expect(out.$metadata.httpStatusCode).toBe(200);
      pages.push(out.tableBuckets!.map((b) => b.name!));
      token = out.continuationToken;
    } while (token);
    expect(pages).toEqual([['page-a', 'page-b'], ['page-c', 'page-d'], ['page-e']]);

    const viaPaginator: string[] = [];
    for await (const page of paginateListTableBuckets({ client: s3t, pageSize: 3 }, { prefix: 'page-' })) {
      viaPaginator.push(...page.tableBuckets!.map((b) => b.name!));
    }
    expect(viaPaginator).toEqual(names);

    const first = (await s3t.send(new ListTableBucketsCommand({ prefix: 'page-', maxBuckets: 1 }))).tableBuckets![0]!;
    expect(first).toMatchObject({ name: 'page-a', arn: 'arn:aws:s3tables:us-east-1:000000000000:bucket/page-a', type: 'customer', ownerAccountId: '000000000000' });
    expect(first.createdAt).toBeInstanceOf(Date);
    expect(first.tableBucketId).toBeTruthy();

    expect((await s3t.send(new ListTableBucketsCommand({ prefix: 'page-', type: 'aws' }))).tableBuckets).toEqual([]);
    expect((await s3t.send(new ListTableBucketsCommand({ prefix: 'page-', type: 'customer' }))).tableBuckets).toHaveLength(5);
  });

  it('refuses a token it did not issue, a token used with other filters, and an out-of-range page size', async ({ server: t, s3tables: s3t }) => {
    const err = await expectError(s3t.send(new ListTableBucketsCommand({ continuationToken: 'garbage' })), 'BadRequestException', 400);
    expect(err.message).toBe('The continuation token is not valid.');
    for (let i = 0; i < 3; i++) await makeBucket(s3t, `tok-${i}`);
    const first = await s3t.send(new ListTableBucketsCommand({ prefix: 'tok-', maxBuckets: 1 }));
    expect(first.continuationToken).toBeTruthy();
    await expectError(
      s3t.send(new ListTableBucketsCommand({ prefix: 'page-', continuationToken: first.continuationToken })),
      'BadRequestException',
      400,
    );
    const zero = await expectError(s3t.send(new ListTableBucketsCommand({ maxBuckets: 0 })), 'BadRequestException', 400);
    expect(zero.message).toContain("at 'maxBuckets' failed to satisfy constraint: Member must have value greater than or equal to 1");
    await expectError(s3t.send(new ListTableBucketsCommand({ maxBuckets: 1001 })), 'BadRequestException', 400);
  });
});

describe('DeleteTableBucket', () => {
  it('refuses a bucket that still has namespaces (400, as AWS), then deletes it once empty', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t, 'to-delete');
    await s3t.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['ns'] }));
    const err = await expectError(s3t.send(new DeleteTableBucketCommand({ tableBucketARN: arn })), 'BadRequestException', 400);
    expect(err.message).toBe('The bucket that you tried to delete is not empty.');
    expect((await s3t.send(new GetTableBucketCommand({ tableBucketARN: arn }))).name).toBe('to-delete');

    await s3t.send(new DeleteNamespaceCommand({ tableBucketARN: arn, namespace: 'ns' }));
    const out = await s3t.send(new DeleteTableBucketCommand({ tableBucketARN: arn }));
    expect(out.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetTableBucketCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
    await expectError(s3t.send(new DeleteTableBucketCommand({ tableBucketARN: arn })), 'NotFoundException', 404);
    // The name is free again.
    expect((await s3t.send(new CreateTableBucketCommand({ name: 'to-delete' }))).arn).toBe(arn);
  });

  it('answers NotFoundException for a bucket that never existed', async ({ server: t, s3tables: s3t }) => {
    await expectError(
      s3t.send(new DeleteTableBucketCommand({ tableBucketARN: `arn:aws:s3tables:us-east-1:000000000000:bucket/${uniqueName('never-')}` })),
      'NotFoundException',
      404,
    );
  });
});
