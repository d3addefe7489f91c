/**
 * Tables through @aws-sdk/client-s3tables: CreateTable (warehouse bucket per table, inherited
 * settings, errors), GetTable by ARN or by name, ListTables (namespace and prefix filters, pages),
 * RenameTable (ARN, id and warehouse survive), DeleteTable (version token, warehouse purged),
 * GetTableMetadataLocation and the UpdateTableMetadataLocation compare-and-swap, including 32
 * concurrent committers racing on one token.
 */
import { ListBucketsCommand, PutObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import {
  CreateTableCommand,
  DeleteTableCommand,
  GetTableCommand,
  GetTableEncryptionCommand,
  GetTableMetadataLocationCommand,
  GetTableStorageClassCommand,
  ListTablesCommand,
  paginateListTables,
  PutTableBucketEncryptionCommand,
  PutTableBucketStorageClassCommand,
  RenameTableCommand,
  UpdateTableMetadataLocationCommand,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { warehouseBuckets } from '../helpers/server.js';
import { bucketExists, eventually, expectError, makeBucket, makeNamespace, makeTable } from './helpers.js';

const SCHEMA = { iceberg: { schema: { fields: [{ name: 'id', type: 'long', required: true }] } } };

function bucketOf(location: string): string {
  return location.replace(/^s3:\/\//, '').split('/')[0]!;
}

describe('CreateTable', () => {
  it('creates a table with its own warehouse bucket in S3, named like AWS, and no metadata yet', async ({ s3tables: s3t, s3 }) => {
    const tb = await makeTable(s3t);
    expect(tb.tableArn).toMatch(new RegExp(`^${tb.bucketArn}/table/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`));
    expect(tb.versionToken).toMatch(/^[0-9a-f]{20}$/);
    const got = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    expect(got.$metadata.httpStatusCode).toBe(200);
    expect(got.metadataLocation).toBeUndefined();
    const tableId = tb.tableArn.split('/table/')[1]!;
    const warehouse = bucketOf(got.warehouseLocation!);
    expect(got.warehouseLocation).toBe(`s3://${warehouse}`);
    expect(warehouse).toHaveLength(63);
    expect(warehouse.startsWith(tableId.slice(0, 19))).toBe(true);
    expect(warehouse).toMatch(/^[0-9a-f-]{19}[a-z0-9]{29}use1b--table-s3$/);
    expect(await bucketExists(s3, warehouse)).toBe(true);
    expect(got).toMatchObject({ name: tb.name, namespace: [tb.namespace], type: 'customer', format: 'ICEBERG', versionToken: tb.versionToken });
    expect(got).toMatchObject({ createdBy: '000000000000', modifiedBy: '000000000000', ownerAccountId: '000000000000' });
    expect(got.namespaceId).toBeTruthy();
    expect(got.tableBucketId).toBeTruthy();
    expect(got.createdAt!.getTime()).toBe(got.modifiedAt!.getTime());
  });

  it('gives later tables greater ids and warehouse names (the store appends them), in the v4 shape', async ({ s3tables: s3t }) => {
    const first = await makeTable(s3t);
    const tables = [first];
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 2));
      tables.push(await makeTable(s3t, { tableBucketARN: first.bucketArn, namespace: first.namespace }));
    }
    const ids = tables.map((t) => t.tableArn.split('/table/')[1]!);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const warehouses = await Promise.all(
      tables.map(async (t) => bucketOf((await s3t.send(new GetTableCommand({ tableArn: t.tableArn }))).warehouseLocation!)),
    );
    // Six random ids would come out sorted once in 720 runs.
    expect(ids).toEqual([...ids].sort());
    expect(warehouses).toEqual([...warehouses].sort());
  });

  it('lets Iceberg writers use the warehouse over the S3 API', async ({ s3tables: s3t, s3 }) => {
    const tb = await makeTable(s3t, { metadata: SCHEMA });
    const loc = await s3t.send(
      new GetTableMetadataLocationCommand({ tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name }),
    );
    const warehouse = bucketOf(loc.warehouseLocation!);
    await s3.send(new PutObjectCommand({ Bucket: warehouse, Key: 'data/part-0.parquet', Body: 'PAR1' }));
    const meta = await s3.send(new GetObjectCommand({ Bucket: warehouse, Key: loc.metadataLocation!.slice(`s3://${warehouse}/`.length) }));
    expect(JSON.parse(await meta.Body!.transformToString())['format-version']).toBe(2);
  });

  it('inherits encryption and storage class from the bucket at creation time, or takes its own', async ({ s3tables: s3t }) => {
    const bucketArn = await makeBucket(s3t);
    const namespace = await makeNamespace(s3t, bucketArn);
    const kms = 'arn:aws:kms:us-east-1:000000000000:key/abc';
    await s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: bucketArn, encryptionConfiguration: { sseAlgorithm: 'aws:kms', kmsKeyArn: kms } }));
    await s3t.send(new PutTableBucketStorageClassCommand({ tableBucketARN: bucketArn, storageClassConfiguration: { storageClass: 'INTELLIGENT_TIERING' } }));
    const inherited = await makeTable(s3t, { tableBucketARN: bucketArn, namespace });
    const own = await makeTable(s3t, {
      tableBucketARN: bucketArn,
      namespace,
      encryptionConfiguration: { sseAlgorithm: 'AES256' },
      storageClassConfiguration: { storageClass: 'STANDARD' },
    });
    // Later bucket changes do not reach existing tables.
    await s3t.send(new PutTableBucketEncryptionCommand({ tableBucketARN: bucketArn, encryptionConfiguration: { sseAlgorithm: 'AES256' } }));
    const id = (x: { name: string }) => ({ tableBucketARN: bucketArn, namespace, name: x.name });
    expect((await s3t.send(new GetTableEncryptionCommand(id(inherited)))).encryptionConfiguration).toEqual({ sseAlgorithm: 'aws:kms', kmsKeyArn: kms });
    expect((await s3t.send(new GetTableStorageClassCommand(id(inherited)))).storageClassConfiguration).toEqual({ storageClass: 'INTELLIGENT_TIERING' });
    expect((await s3t.send(new GetTableEncryptionCommand(id(own)))).encryptionConfiguration).toEqual({ sseAlgorithm: 'AES256' });
    expect((await s3t.send(new GetTableStorageClassCommand(id(own)))).storageClassConfiguration).toEqual({ storageClass: 'STANDARD' });
  });

  it('answers each invalid request with AWS’s error and leaves no table and no warehouse behind', async ({ server: t, s3tables: s3t, s3 }) => {
    const bucketArn = await makeBucket(s3t);
    const namespace = await makeNamespace(s3t, bucketArn);
    const warehousesBefore = warehouseBuckets(t).length;
    const base = { tableBucketARN: bucketArn, namespace, format: 'ICEBERG' as const };
    const pattern = await expectError(s3t.send(new CreateTableCommand({ ...base, name: 'Orders' })), 'BadRequestException', 400);
    expect(pattern.message).toBe(
      "1 validation error detected: Value 'Orders' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [0-9a-z_]*",
    );
    const semantic = await expectError(s3t.send(new CreateTableCommand({ ...base, name: '_orders' })), 'BadRequestException', 400);
    expect(semantic.message).toBe('The specified table name is not valid.');
    const format = await expectError(
      s3t.send(new CreateTableCommand({ ...base, name: 'orders', format: 'DELTA' as 'ICEBERG' })),
      'BadRequestException',
      400,
    );
    expect(format.message).toContain("at 'format' failed to satisfy constraint: Member must satisfy enum value set: [ICEBERG]");
    await expectError(
      s3t.send(new CreateTableCommand({ ...base, name: 'orders', metadata: { iceberg: { schema: { fields: [{ name: 'x', type: 'varchar', required: true }] } } } })),
      'BadRequestException',
      400,
    );
    const missingNs = await expectError(s3t.send(new CreateTableCommand({ ...base, namespace: 'nope', name: 'orders' })), 'NotFoundException', 404);
    expect(missingNs.message).toBe('The specified namespace does not exist.');
    await expectError(
      s3t.send(new CreateTableCommand({ ...base, tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/nope', name: 'orders' })),
      'NotFoundException',
      404,
    );
    await s3t.send(new CreateTableCommand({ ...base, name: 'orders' }));
    const dup = await expectError(s3t.send(new CreateTableCommand({ ...base, name: 'orders', metadata: SCHEMA })), 'ConflictException', 409);
    expect(dup.message).toBe('A table with an identical name already exists in the namespace.');
    const listed = await s3t.send(new ListTablesCommand({ tableBucketARN: bucketArn }));
    expect(listed.tables!.map((x) => x.name)).toEqual(['orders']);
    // Only the one successful table got a warehouse bucket.
    await new Promise((r) => setTimeout(r, 50));
    expect(warehouseBuckets(t)).toHaveLength(warehousesBefore + 1);
    // As on AWS, where warehouses belong to the service's account, ListBuckets does not show it.
    const names = (await s3.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name) ?? [];
    expect(names.filter((n) => n?.endsWith('--table-s3'))).toEqual([]);
  });
});

describe('GetTable', () => {
  it('finds a table by ARN or by bucket, namespace and name, and refuses ambiguous or incomplete requests', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    const byArn = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    const byName = await s3t.send(new GetTableCommand({ tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name }));
    expect({ ...byArn, $metadata: undefined }).toEqual({ ...byName, $metadata: undefined });
    const both = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn, tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name }));
    expect(both.tableARN).toBe(tb.tableArn);

    await expectError(s3t.send(new GetTableCommand({ tableBucketARN: tb.bucketArn, namespace: tb.namespace })), 'BadRequestException', 400);
    await expectError(s3t.send(new GetTableCommand({})), 'BadRequestException', 400);
    await expectError(s3t.send(new GetTableCommand({ tableArn: tb.tableArn, name: tb.name })), 'BadRequestException', 400);
    const other = await makeTable(s3t, { tableBucketARN: tb.bucketArn, namespace: tb.namespace });
    await expectError(
      s3t.send(new GetTableCommand({ tableArn: tb.tableArn, tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: other.name })),
      'BadRequestException',
      400,
    );
    const missing = await expectError(
      s3t.send(new GetTableCommand({ tableArn: `${tb.bucketArn}/table/00000000-0000-4000-8000-000000000000` })),
      'NotFoundException',
      404,
    );
    expect(missing.message).toBe('The specified table does not exist.');
    await expectError(
      s3t.send(new GetTableCommand({ tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: 'absent' })),
      'NotFoundException',
      404,
    );
  });
});

describe('ListTables', () => {
  it('pages through a whole bucket by (namespace, name), one namespace, and a name prefix', async ({ s3tables: s3t }) => {
    const bucketArn = await makeBucket(s3t);
    for (const ns of ['beta', 'alpha']) await makeNamespace(s3t, bucketArn, ns);
    const made: [string, string][] = [];
    for (const ns of ['beta', 'alpha']) {
      for (const name of ['orders', 'items', 'order_lines', 'customers']) {
        await makeTable(s3t, { tableBucketARN: bucketArn, namespace: ns, name });
        made.push([ns, name]);
      }
    }
    const sorted = [...made].sort((a, b) => (a[0] + '\0' + a[1] < b[0] + '\0' + b[1] ? -1 : 1));

    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const out = await s3t.send(new ListTablesCommand({ tableBucketARN: bucketArn, maxTables: 3, continuationToken: token }));
      expect(out.$metadata.httpStatusCode).toBe(200);
      pages.push(out.tables!.map((x) => `${x.namespace![0]}.${x.name}`));
      token = out.continuationToken;
    } while (token);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    expect(pages.flat()).toEqual(sorted.map(([ns, n]) => `${ns}.${n}`));

    const inAlpha: string[] = [];
    for await (const page of paginateListTables({ client: s3t, pageSize: 1 }, { tableBucketARN: bucketArn, namespace: 'alpha' })) {
      inAlpha.push(...page.tables!.map((x) => x.name!));
    }
    expect(inAlpha).toEqual(['customers', 'items', 'order_lines', 'orders']);

    const prefixed: string[] = [];
    for await (const page of paginateListTables({ client: s3t, pageSize: 1 }, { tableBucketARN: bucketArn, prefix: 'order' })) {
      prefixed.push(...page.tables!.map((x) => `${x.namespace![0]}.${x.name}`));
    }
    expect(prefixed.sort()).toEqual(['alpha.order_lines', 'alpha.orders', 'beta.order_lines', 'beta.orders']);
    const both = await s3t.send(new ListTablesCommand({ tableBucketARN: bucketArn, namespace: 'beta', prefix: 'order' }));
    expect(both.tables!.map((x) => x.name)).toEqual(['order_lines', 'orders']);
    expect(both.continuationToken).toBeUndefined();

    const summary = both.tables![0]!;
    expect(summary).toMatchObject({ namespace: ['beta'], type: 'customer' });
    expect(summary.tableARN).toMatch(/\/table\/[0-9a-f-]{36}$/);
    expect(summary.createdAt).toBeInstanceOf(Date);
    expect(summary.modifiedAt).toBeInstanceOf(Date);
    expect(summary.namespaceId).toBeTruthy();
    expect(summary.tableBucketId).toBeTruthy();
  });

  it('answers 404 for an unknown namespace and 400 for a token used with other filters', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    await makeTable(s3t, { tableBucketARN: tb.bucketArn, namespace: tb.namespace });
    await expectError(s3t.send(new ListTablesCommand({ tableBucketARN: tb.bucketArn, namespace: 'ghost' })), 'NotFoundException', 404);
    const first = await s3t.send(new ListTablesCommand({ tableBucketARN: tb.bucketArn, maxTables: 1 }));
    expect(first.continuationToken).toBeTruthy();
    await expectError(
      s3t.send(new ListTablesCommand({ tableBucketARN: tb.bucketArn, namespace: tb.namespace, continuationToken: first.continuationToken })),
      'BadRequestException',
      400,
    );
  });
});

describe('RenameTable', () => {
  it('renames and moves a table keeping its ARN, id, warehouse, metadata and version token', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t, { metadata: SCHEMA });
    const target = await makeNamespace(s3t, tb.bucketArn, 'archive');
    const before = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    const out = await s3t.send(
      new RenameTableCommand({ tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name, newName: 'renamed', newNamespaceName: target }),
    );
    expect(out.$metadata.httpStatusCode).toBe(204);
    const after = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    expect(after).toMatchObject({
      name: 'renamed',
      namespace: ['archive'],
      tableARN: tb.tableArn,
      warehouseLocation: before.warehouseLocation,
      metadataLocation: before.metadataLocation,
      versionToken: before.versionToken,
    });
    expect(after.namespaceId).not.toBe(before.namespaceId);
    expect(after.createdAt).toEqual(before.createdAt);
    await expectError(
      s3t.send(new GetTableCommand({ tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name })),
      'NotFoundException',
      404,
    );
    // Name only.
    await s3t.send(new RenameTableCommand({ tableBucketARN: tb.bucketArn, namespace: 'archive', name: 'renamed', newName: 'final' }));
    expect((await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }))).name).toBe('final');
  });

  it('refuses a rename with nothing new, a missing destination, a taken name or a stale token, changing nothing', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    const other = await makeTable(s3t, { tableBucketARN: tb.bucketArn, namespace: tb.namespace });
    const key = { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name };
    const neither = await expectError(s3t.send(new RenameTableCommand(key)), 'BadRequestException', 400);
    expect(neither.message).toBe('Neither a new namespace name nor a new table name is specified.');
    const dest = await expectError(s3t.send(new RenameTableCommand({ ...key, newNamespaceName: 'nowhere' })), 'NotFoundException', 404);
    expect(dest.message).toBe('The specified destination namespace does not exist.');
    await expectError(s3t.send(new RenameTableCommand({ ...key, newName: other.name })), 'ConflictException', 409);
    await expectError(s3t.send(new RenameTableCommand({ ...key, newName: 'fresh', versionToken: 'stale' })), 'ConflictException', 409);
    await expectError(s3t.send(new RenameTableCommand({ ...key, newName: 'Bad-Name' })), 'BadRequestException', 400);
    await expectError(s3t.send(new RenameTableCommand({ ...key, name: 'absent', newName: 'fresh' })), 'NotFoundException', 404);
    expect((await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }))).name).toBe(tb.name);
    await s3t.send(new RenameTableCommand({ ...key, newName: 'fresh', versionToken: tb.versionToken }));
    expect((await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }))).name).toBe('fresh');
  });
});

describe('DeleteTable', () => {
  it('refuses a stale version token, then deletes the table and purges its warehouse promptly', async ({ s3tables: s3t, s3 }) => {
    const tb = await makeTable(s3t, { metadata: SCHEMA });
    const { warehouseLocation } = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    const warehouse = bucketOf(warehouseLocation!);
    for (let i = 0; i < 20; i++) await s3.send(new PutObjectCommand({ Bucket: warehouse, Key: `data/${i}.parquet`, Body: 'x' }));
    const key = { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name };
    const err = await expectError(s3t.send(new DeleteTableCommand({ ...key, versionToken: 'aaaaaaaaaaaaaaaaaaaa' })), 'ConflictException', 409);
    expect(err.message).toBe('Provided version token does not match the table version token.');
    expect((await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }))).name).toBe(tb.name);
    expect(await bucketExists(s3, warehouse)).toBe(true);

    const out = await s3t.send(new DeleteTableCommand({ ...key, versionToken: tb.versionToken }));
    expect(out.$metadata.httpStatusCode).toBe(204);
    await expectError(s3t.send(new GetTableCommand({ tableArn: tb.tableArn })), 'NotFoundException', 404);
    expect(await eventually(async () => !(await bucketExists(s3, warehouse)), 2000)).toBe(true);
    await expectError(s3t.send(new DeleteTableCommand(key)), 'NotFoundException', 404);
  });

  it('deletes without a token, and the name can be used again with a new id and warehouse', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    const key = { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name };
    await s3t.send(new DeleteTableCommand(key));
    const again = await s3t.send(new CreateTableCommand({ ...key, format: 'ICEBERG' }));
    expect(again.tableARN).not.toBe(tb.tableArn);
  });
});

describe('GetTableMetadataLocation and UpdateTableMetadataLocation', () => {
  it('reports no metadata location until the first commit, then swaps it with a new token each time', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t);
    const key = { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name };
    const first = await s3t.send(new GetTableMetadataLocationCommand(key));
    expect(first.$metadata.httpStatusCode).toBe(200);
    expect(first.metadataLocation).toBeUndefined();
    expect(first.versionToken).toBe(tb.versionToken);
    const location = `${first.warehouseLocation}/metadata/00000-${crypto.randomUUID()}.metadata.json`;
    const before = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    await new Promise((r) => setTimeout(r, 5));
    const upd = await s3t.send(new UpdateTableMetadataLocationCommand({ ...key, versionToken: first.versionToken, metadataLocation: location }));
    expect(upd.$metadata.httpStatusCode).toBe(200);
    expect(upd).toMatchObject({ name: tb.name, tableARN: tb.tableArn, namespace: [tb.namespace], metadataLocation: location });
    expect(upd.versionToken).toMatch(/^[0-9a-f]{20}$/);
    expect(upd.versionToken).not.toBe(first.versionToken);
    const got = await s3t.send(new GetTableCommand({ tableArn: tb.tableArn }));
    expect(got.metadataLocation).toBe(location);
    expect(got.versionToken).toBe(upd.versionToken);
    expect(got.modifiedAt!.getTime()).toBeGreaterThan(before.modifiedAt!.getTime());

    const gz = `${first.warehouseLocation}/metadata/00001-${crypto.randomUUID()}.metadata.json.gz`;
    const second = await s3t.send(new UpdateTableMetadataLocationCommand({ ...key, versionToken: upd.versionToken, metadataLocation: gz }));
    expect(second.versionToken).not.toBe(upd.versionToken);
    expect((await s3t.send(new GetTableMetadataLocationCommand(key))).metadataLocation).toBe(gz);
    const missing = await expectError(s3t.send(new GetTableMetadataLocationCommand({ ...key, name: 'absent' })), 'NotFoundException', 404);
    expect(missing.message).toBe('The specified table does not exist.');
    await expectError(s3t.send(new GetTableMetadataLocationCommand({ ...key, name: 'Bad' })), 'BadRequestException', 400);
  });

  it('validates input (400) before the compare-and-swap (409), and changes nothing on failure', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t, { metadata: SCHEMA });
    const key = { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name };
    const state = await s3t.send(new GetTableMetadataLocationCommand(key));
    const good = `${state.warehouseLocation}/metadata/00001-x.metadata.json`;
    const missing = await expectError(
      s3t.send(new UpdateTableMetadataLocationCommand({ ...key, metadataLocation: good } as never)),
      'BadRequestException',
      400,
    );
    expect(missing.message).toBe("1 validation error detected: Value null at 'versionToken' failed to satisfy constraint: Member must not be null");
    for (const bad of [
      `${state.warehouseLocation}/metadata/00001-x.json`,
      's3://some-other-bucket/metadata/00001-x.metadata.json',
      `${state.warehouseLocation}-evil/metadata/00001-x.metadata.json`,
    ]) {
      const err = await expectError(
        s3t.send(new UpdateTableMetadataLocationCommand({ ...key, versionToken: 'stale-token', metadataLocation: bad })),
        'BadRequestException',
        400,
      );
      expect(err.message).toBe('The specified metadata location is not valid.');
    }
    const stale = await expectError(
      s3t.send(new UpdateTableMetadataLocationCommand({ ...key, versionToken: 'stale-token', metadataLocation: good })),
      'ConflictException',
      409,
    );
    expect(stale.message).toBe('Provided version token does not match the table version token.');
    await expectError(
      s3t.send(new UpdateTableMetadataLocationCommand({ ...key, name: 'absent', versionToken: state.versionToken, metadataLocation: good })),
      'NotFoundException',
      404,
    );
    const after = await s3t.send(new GetTableMetadataLocationCommand(key));
    expect({ ...after, $metadata: undefined }).toEqual({ ...state, $metadata: undefined });
  });

  it('lets exactly one of 32 concurrent commits on the same token win', async ({ s3tables: s3t }) => {
    const tb = await makeTable(s3t, { metadata: SCHEMA });
    const key = { tableBucketARN: tb.bucketArn, namespace: tb.namespace, name: tb.name };
    const { warehouseLocation, versionToken } = await s3t.send(new GetTableMetadataLocationCommand(key));
    const attempts = Array.from({ length: 32 }, (_, i) => `${warehouseLocation}/metadata/00001-${i}.metadata.json`);
    const results = await Promise.allSettled(
      attempts.map((metadataLocation) =>
        s3t.send(new UpdateTableMetadataLocationCommand({ ...key, versionToken, metadataLocation })),
      ),
    );
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, out: r.value }] : []));
    const lost = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(31);
    for (const l of lost) {
      expect((l.reason as { name: string }).name).toBe('ConflictException');
      expect((l.reason as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode).toBe(409);
    }
    const now = await s3t.send(new GetTableMetadataLocationCommand(key));
    expect(now.metadataLocation).toBe(attempts[won[0]!.i]);
    expect(now.versionToken).toBe(won[0]!.out.versionToken);
  });
});
