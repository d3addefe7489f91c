/**
 * Namespaces through @aws-sdk/client-s3tables: CreateNamespace (one level, naming rules, conflict),
 * GetNamespace, ListNamespaces (prefix, pages) and DeleteNamespace (refused while tables remain).
 */
import {
  CreateNamespaceCommand,
  CreateTableCommand,
  DeleteNamespaceCommand,
  DeleteTableCommand,
  GetNamespaceCommand,
  GetTableBucketCommand,
  ListNamespacesCommand,
  paginateListNamespaces,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { expectError, makeBucket } from './helpers.js';

let bucketArn: string;
it.beforeAll(async ({ s3tables: s3t }) => {
  bucketArn = await makeBucket(s3t, 'ns-tests');
});

describe('CreateNamespace and GetNamespace', () => {
  it('creates a namespace and reports its id, creator, owner and bucket id', async ({ s3tables: s3t }) => {
    const out = await s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['sales'] }));
    expect(out.$metadata.httpStatusCode).toBe(200);
    expect(out).toMatchObject({ tableBucketARN: bucketArn, namespace: ['sales'] });
    const bucket = await s3t.send(new GetTableBucketCommand({ tableBucketARN: bucketArn }));
    const got = await s3t.send(new GetNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'sales' }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got).toMatchObject({
      namespace: ['sales'],
      createdBy: '000000000000',
      ownerAccountId: '000000000000',
      tableBucketId: bucket.tableBucketId,
    });
    expect(got.namespaceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.createdAt).toBeInstanceOf(Date);
  });

  it('refuses a duplicate with ConflictException', async ({ s3tables: s3t }) => {
    await s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['dup'] }));
    const err = await expectError(
      s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['dup'] })),
      'ConflictException',
      409,
    );
    expect(err.message).toBe('A namespace with an identical name already exists in the bucket.');
  });

  it('applies the model constraints and the naming rules, creating nothing', async ({ s3tables: s3t }) => {
    const pattern = await expectError(
      s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['Sales-2024'] })),
      'BadRequestException',
      400,
    );
    expect(pattern.message).toContain('failed to satisfy constraint: Member must satisfy regular expression pattern: [0-9a-z_]*');
    const two = await expectError(
      s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['a', 'b'] })),
      'BadRequestException',
      400,
    );
    expect(two.message).toContain("at 'namespace' failed to satisfy constraint: Member must have length less than or equal to 1");
    for (const bad of ['_leading', 'trailing_', 'aws_reserved', 'awsns']) {
      const err = await expectError(
        s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: [bad] })),
        'BadRequestException',
        400,
      );
      expect(err.message).toBe('The specified namespace name is not valid.');
      await expectError(s3t.send(new GetNamespaceCommand({ tableBucketARN: bucketArn, namespace: bad })), 'NotFoundException', 404);
    }
  });

  it('answers NotFoundException for an unknown bucket or namespace', async ({ s3tables: s3t }) => {
    await expectError(
      s3t.send(new CreateNamespaceCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/nope', namespace: ['x'] })),
      'NotFoundException',
      404,
    );
    const err = await expectError(
      s3t.send(new GetNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'missing' })),
      'NotFoundException',
      404,
    );
    expect(err.message).toBe('The specified namespace does not exist.');
  });
});

describe('ListNamespaces', () => {
  it('pages through namespaces by name, with a prefix', async ({ s3tables: s3t }) => {
    const arn = await makeBucket(s3t, 'ns-pages');
    const names = Array.from({ length: 7 }, (_, i) => `team_${String.fromCharCode(97 + i)}`);
    for (const n of [...names].reverse()) await s3t.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: [n] }));
    await s3t.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['zzz'] }));

    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const out = await s3t.send(
        new ListNamespacesCommand({ tableBucketARN: arn, prefix: 'team_', maxNamespaces: 3, continuationToken: token }),
      );
      pages.push(out.namespaces!.map((n) => n.namespace![0]!));
      token = out.continuationToken;
    } while (token);
    expect(pages).toEqual([names.slice(0, 3), names.slice(3, 6), names.slice(6)]);

    const all: string[] = [];
    for await (const page of paginateListNamespaces({ client: s3t, pageSize: 2 }, { tableBucketARN: arn })) {
      all.push(...page.namespaces!.map((n) => n.namespace![0]!));
    }
    expect(all).toEqual([...names, 'zzz']);
    const one = (await s3t.send(new ListNamespacesCommand({ tableBucketARN: arn, maxNamespaces: 1 }))).namespaces![0]!;
    expect(one).toMatchObject({ namespace: ['team_a'], createdBy: '000000000000', ownerAccountId: '000000000000' });
    expect(one.namespaceId).toBeTruthy();
    expect(one.tableBucketId).toBeTruthy();
  });

  it('refuses a token from another bucket and answers 404 for an unknown bucket', async ({ s3tables: s3t }) => {
    const a = await makeBucket(s3t, 'ns-tok-a');
    const b = await makeBucket(s3t, 'ns-tok-b');
    for (const n of ['x1', 'x2']) await s3t.send(new CreateNamespaceCommand({ tableBucketARN: a, namespace: [n] }));
    const first = await s3t.send(new ListNamespacesCommand({ tableBucketARN: a, maxNamespaces: 1 }));
    await expectError(
      s3t.send(new ListNamespacesCommand({ tableBucketARN: b, continuationToken: first.continuationToken })),
      'BadRequestException',
      400,
    );
    await expectError(
      s3t.send(new ListNamespacesCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/gone' })),
      'NotFoundException',
      404,
    );
  });
});

describe('DeleteNamespace', () => {
  it('refuses a namespace that holds tables with ConflictException, then deletes it once empty', async ({ s3tables: s3t }) => {
    await s3t.send(new CreateNamespaceCommand({ tableBucketARN: bucketArn, namespace: ['busy'] }));
    await s3t.send(new CreateTableCommand({ tableBucketARN: bucketArn, namespace: 'busy', name: 'orders', format: 'ICEBERG' }));
    const err = await expectError(
      s3t.send(new DeleteNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'busy' })),
      'ConflictException',
      409,
    );
    expect(err.message).toBe('The namespace that you tried to delete is not empty.');
    expect((await s3t.send(new GetNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'busy' }))).namespace).toEqual(['busy']);

    await s3t.send(new DeleteTableCommand({ tableBucketARN: bucketArn, namespace: 'busy', name: 'orders' }));
    const out = await s3t.send(new DeleteNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'busy' }));
    expect(out.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'busy' })), 'NotFoundException', 404);
    await expectError(s3t.send(new DeleteNamespaceCommand({ tableBucketARN: bucketArn, namespace: 'busy' })), 'NotFoundException', 404);
  });
});
