/**
 * The Iceberg REST catalog as S3 Tables serves it, through iceberg-js signed for `s3tables` at
 * `/iceberg` (and unsigned at `/_overcast/iceberg`), with raw signed requests where iceberg-js
 * cannot reach and the S3 Tables SDK cross-checking that both views are one catalog: config and
 * prefix, namespaces, tables (create with nested types, load, HEAD, list pages, rename, purge
 * drop), routing next to the S3 bucket named `iceberg`.
 */
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import {
  CreateTableCommand,
  GetNamespaceCommand,
  GetTableCommand,
  GetTableMetadataLocationCommand,
  ListTablesCommand,
  type S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { warehouseBuckets } from '../helpers/server.js';
import { eventually, makeBucket, makeNamespace, uniqueName } from '../s3tables/helpers.js';
import {
  catalog,
  expectIcebergError,
  icebergFailure,
  NESTED_SCHEMA,
  prefixOf,
  raw,
  SIMPLE_SCHEMA,
} from './helpers.js';

describe('config', () => {
  it('answers the percent-encoded ARN as the prefix and no endpoints list, signed and unsigned', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    for (const unsigned of [false, true]) {
      const res = await raw(t, 'GET', `config?warehouse=${encodeURIComponent(arn)}`, undefined, { unsigned });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ defaults: {}, overrides: { prefix: encodeURIComponent(arn) } });
      expect(res.json.overrides.prefix).toMatch(/^arn%3Aaws%3As3tables%3Aus-east-1%3A000000000000%3Abucket%2F/);
    }
    expect((await catalog(t, arn).loadConfig()).overrides).toEqual({ prefix: prefixOf(arn) });
  });

  it('refuses an unknown, a malformed or a missing warehouse', async ({ server: t }) => {
    const unknown = 'arn:aws:s3tables:us-east-1:000000000000:bucket/no-such-bucket';
    expectIcebergError(await raw(t, 'GET', `config?warehouse=${encodeURIComponent(unknown)}`), 404, 'NoSuchWarehouseException');
    expectIcebergError(await raw(t, 'GET', 'config?warehouse=my-warehouse'), 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'GET', 'config'), 400, 'BadRequestException');
    const other = 'arn:aws:s3tables:us-east-1:111122223333:bucket/theirs';
    const denied = await raw(t, 'GET', `config?warehouse=${encodeURIComponent(other)}`);
    expectIcebergError(denied, 403, 'ForbiddenException');
    expect(denied.json.error.message).toContain('is not authorized to perform: s3tables:GetTableBucket');
  });
});

describe('namespaces', () => {
  it('creates, lists in pages, loads with empty properties, checks and drops', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const c = catalog(t, arn);
    const names = ['ns_a', 'ns_b', 'ns_c'];
    for (const n of names) await c.createNamespace({ namespace: [n] });
    expect(await c.listNamespaces()).toEqual({ namespaces: names.map((n) => ({ namespace: [n] })), nextPageToken: undefined });
    const first = await c.listNamespaces({ pageSize: 2 });
    expect(first.namespaces).toEqual([{ namespace: ['ns_a'] }, { namespace: ['ns_b'] }]);
    expect(first.nextPageToken).toBeTruthy();
    const second = await c.listNamespaces({ pageSize: 2, pageToken: first.nextPageToken });
    expect(second).toEqual({ namespaces: [{ namespace: ['ns_c'] }], nextPageToken: undefined });

    const loaded = await raw(t, 'GET', `${prefixOf(arn)}/namespaces/ns_a`);
    expect(loaded.status).toBe(200);
    expect(loaded.json).toEqual({ namespace: ['ns_a'], properties: {} });
    // The namespace is the S3 Tables namespace.
    expect((await s3t.send(new GetNamespaceCommand({ tableBucketARN: arn, namespace: 'ns_b' }))).namespace).toEqual(['ns_b']);

    expect((await raw(t, 'HEAD', `${prefixOf(arn)}/namespaces/ns_a`)).status).toBe(204);
    const missing = await raw(t, 'HEAD', `${prefixOf(arn)}/namespaces/nope`);
    expect(missing.status).toBe(404);
    expect(await c.namespaceExists({ namespace: ['nope'] })).toBe(false);

    await c.dropNamespace({ namespace: ['ns_c'] });
    expect((await c.listNamespaces()).namespaces).toHaveLength(2);
    expect(await icebergFailure(c.dropNamespace({ namespace: ['ns_c'] }))).toMatchObject({ status: 404, type: 'NoSuchNamespaceException' });
  });

  it('answers AlreadyExists, NamespaceNotEmpty, and refuses multi-level namespaces and properties S3 Tables does not keep', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const c = catalog(t, arn);
    await c.createNamespace({ namespace: ['sales'] }, { properties: { owner: 'analyst' } });
    expect(await icebergFailure(c.createNamespace({ namespace: ['sales'] }))).toMatchObject({
      status: 409,
      type: 'AlreadyExistsException',
      message: 'Namespace already exists: sales',
    });
    await c.createTable({ namespace: ['sales'] }, { name: 'orders', schema: SIMPLE_SCHEMA as never });
    expect(await icebergFailure(c.dropNamespace({ namespace: ['sales'] }))).toMatchObject({
      status: 409,
      type: 'NamespaceNotEmptyException',
    });

    const multi = await raw(t, 'POST', `${prefixOf(arn)}/namespaces`, { namespace: ['a', 'b'], properties: {} });
    expectIcebergError(multi, 400, 'BadRequestException');
    expect(multi.json.error.message).toBe('Multipart namespaces are not supported');
    expectIcebergError(await raw(t, 'GET', `${prefixOf(arn)}/namespaces?parent=sales`), 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'GET', `${prefixOf(arn)}/namespaces/a%1Fb`), 400, 'BadRequestException');
    const props = await raw(t, 'POST', `${prefixOf(arn)}/namespaces`, { namespace: ['other'], properties: { location: 's3://x' } });
    expectIcebergError(props, 400, 'BadRequestException');
    // Names follow S3 Tables' rules.
    expectIcebergError(await raw(t, 'POST', `${prefixOf(arn)}/namespaces`, { namespace: ['Bad-Name'] }), 400, 'BadRequestException');
    expect((await c.listNamespaces()).namespaces).toEqual([{ namespace: ['sales'] }]);
  });
});

describe('tables', () => {
  it('creates a table with nested types, writing the same metadata.json CreateTable writes, located in its warehouse', async ({ server: t, s3tables: s3t, s3 }) => {
    const arn = await makeBucket(s3t);
    const ns = await makeNamespace(s3t, arn);
    const c = catalog(t, arn);
    const request = {
      name: 'events',
      schema: NESTED_SCHEMA,
      'partition-spec': { 'spec-id': 0, fields: [{ 'source-id': 3, transform: 'day', name: 'ts_day', 'field-id': 1000 }] },
      'write-order': { 'order-id': 1, fields: [{ 'source-id': 1, transform: 'identity', direction: 'asc', 'null-order': 'nulls-first' }] },
      'stage-create': false,
      properties: { 'write.format.default': 'parquet' },
    };
    const result = await c.createTableResult({ namespace: [ns] }, request as never);
    const table = await s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: ns, name: 'events' }));
    expect(result['metadata-location']).toBe(table.metadataLocation);
    expect(result['metadata-location']).toMatch(new RegExp(`^${table.warehouseLocation}/metadata/00000-[0-9a-f-]{36}\\.metadata\\.json$`));
    const m = result.metadata as Record<string, any>;
    expect(m.location).toBe(table.warehouseLocation);
    expect(m['last-column-id']).toBe(11);
    expect(m['last-partition-id']).toBe(1000);
    expect(m.schemas[0]).toEqual(NESTED_SCHEMA);
    expect(m['partition-specs']).toEqual([request['partition-spec']]);
    expect(m['sort-orders']).toEqual([request['write-order']]);
    expect(m.properties).toEqual({ 'write.format.default': 'parquet' });
    expect(m['current-snapshot-id']).toBe(-1);
    expect(result.config).toMatchObject({ 's3.endpoint': t.endpoint, 's3.path-style-access': 'true', 's3.region': 'us-east-1' });

    // The file in the warehouse is the document the catalog answered.
    const where = /^s3:\/\/([^/]+)\/(.+)$/.exec(table.metadataLocation!)!;
    const file = await s3.send(new GetObjectCommand({ Bucket: where[1], Key: where[2] }));
    expect(JSON.parse(await file.Body!.transformToString())).toEqual(m);

    // Same layout as CreateTable of the S3 Tables API with the same schema.
    await s3t.send(
      new CreateTableCommand({
        tableBucketARN: arn,
        namespace: ns,
        name: 'events_api',
        format: 'ICEBERG',
        metadata: {
          iceberg: {
            schemaV2: { type: 'struct', schemaId: 0, identifierFieldIds: [1], fields: NESTED_SCHEMA.fields as never },
            partitionSpec: { specId: 0, fields: [{ sourceId: 3, transform: 'day', name: 'ts_day', fieldId: 1000 }] },
            writeOrder: { orderId: 1, fields: [{ sourceId: 1, transform: 'identity', direction: 'asc', nullOrder: 'nulls-first' }] },
            properties: { 'write.format.default': 'parquet' },
          },
        },
      }),
    );
    const api = (await c.loadTableResult({ namespace: [ns], name: 'events_api' }))!.metadata as Record<string, any>;
    const strip = (doc: Record<string, any>) => ({ ...doc, 'table-uuid': '', location: '', 'last-updated-ms': 0 });
    expect(strip(api)).toEqual(strip(m));
    expect(Object.keys(api)).toEqual(Object.keys(m));
  });

  it('loads with an ETag, 304 on If-None-Match, refs-only snapshots, and HEAD/exists', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const ns = await makeNamespace(s3t, arn);
    const c = catalog(t, arn);
    await c.createTable({ namespace: [ns] }, { name: 't1', schema: SIMPLE_SCHEMA as never });
    const path = `${prefixOf(arn)}/namespaces/${ns}/tables/t1`;
    const loaded = await raw(t, 'GET', path);
    expect(loaded.status).toBe(200);
    const etag = loaded.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect((await raw(t, 'GET', path, undefined, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // A commit answers the ETag its new metadata loads with; the old one no longer matches.
    const committed = await raw(t, 'POST', path, { requirements: [], updates: [{ action: 'set-properties', updates: { v: '2' } }] });
    const newEtag = committed.headers.get('etag')!;
    expect(newEtag).not.toBe(etag);
    expect((await raw(t, 'GET', path, undefined, { headers: { 'if-none-match': etag } })).status).toBe(200);
    expect((await raw(t, 'GET', path, undefined, { headers: { 'if-none-match': newEtag } })).status).toBe(304);
    expect((await raw(t, 'GET', `${path}?snapshots=refs`)).json.metadata.snapshots).toEqual([]);
    expectIcebergError(await raw(t, 'GET', `${path}?snapshots=some`), 400, 'BadRequestException');
    expect((await raw(t, 'HEAD', path)).status).toBe(204);
    expect((await raw(t, 'HEAD', `${prefixOf(arn)}/namespaces/${ns}/tables/nope`)).status).toBe(404);
    expect(await c.tableExists({ namespace: [ns], name: 't1' })).toBe(true);
    expect(await c.tableExists({ namespace: [ns], name: 'nope' })).toBe(false);
    const missing = await icebergFailure(c.loadTable({ namespace: [ns], name: 'nope' }));
    expect(missing).toMatchObject({ status: 404, type: 'NoSuchTableException', message: `Table does not exist: ${ns}.nope` });
    const noNs = await icebergFailure(c.loadTable({ namespace: ['nope'], name: 't1' }));
    expect(noNs).toMatchObject({ status: 404, type: 'NoSuchNamespaceException' });
    // A table made through the S3 Tables API without metadata is not an Iceberg table yet.
    await s3t.send(new CreateTableCommand({ tableBucketARN: arn, namespace: ns, name: 'bare', format: 'ICEBERG' }));
    expect(await icebergFailure(c.loadTable({ namespace: [ns], name: 'bare' }))).toMatchObject({ status: 404, type: 'NoSuchTableException' });
  });

  it('lists tables in pages, created through either road', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const ns = await makeNamespace(s3t, arn);
    const c = catalog(t, arn);
    for (const name of ['t_a', 't_c']) await c.createTable({ namespace: [ns] }, { name, schema: SIMPLE_SCHEMA as never });
    await s3t.send(new CreateTableCommand({ tableBucketARN: arn, namespace: ns, name: 't_b', format: 'ICEBERG' }));
    const all = await c.listTables({ namespace: [ns] });
    expect(all).toEqual({ identifiers: ['t_a', 't_b', 't_c'].map((name) => ({ namespace: [ns], name })), nextPageToken: undefined });
    const page = await c.listTables({ namespace: [ns] }, { pageSize: 2 });
    expect(page.identifiers.map((i) => i.name)).toEqual(['t_a', 't_b']);
    const rest = await c.listTables({ namespace: [ns] }, { pageSize: 2, pageToken: page.nextPageToken });
    expect(rest).toEqual({ identifiers: [{ namespace: [ns], name: 't_c' }], nextPageToken: undefined });
    expectIcebergError(await raw(t, 'GET', `${prefixOf(arn)}/namespaces/${ns}/tables?pageSize=0`), 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'GET', `${prefixOf(arn)}/namespaces/${ns}/tables?pageToken=garbage`), 400, 'BadRequestException');
    expect(await icebergFailure(c.listTables({ namespace: ['nope'] }))).toMatchObject({ status: 404, type: 'NoSuchNamespaceException' });
  });

  it('renames across namespaces keeping the table, and answers the errors a client expects', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const src = await makeNamespace(s3t, arn);
    const dst = await makeNamespace(s3t, arn);
    const c = catalog(t, arn);
    await c.createTable({ namespace: [src] }, { name: 'orders', schema: SIMPLE_SCHEMA as never });
    await c.createTable({ namespace: [dst] }, { name: 'taken', schema: SIMPLE_SCHEMA as never });
    const before = await s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: src, name: 'orders' }));
    await c.renameTable({ source: { namespace: [src], name: 'orders' }, destination: { namespace: [dst], name: 'orders_2026' } });
    const after = await s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: dst, name: 'orders_2026' }));
    expect(after.tableARN).toBe(before.tableARN);
    expect(after.metadataLocation).toBe(before.metadataLocation);
    expect(await c.tableExists({ namespace: [src], name: 'orders' })).toBe(false);

    const exists = await icebergFailure(
      c.renameTable({ source: { namespace: [dst], name: 'orders_2026' }, destination: { namespace: [dst], name: 'taken' } }),
    );
    expect(exists).toMatchObject({ status: 409, type: 'AlreadyExistsException', message: `Table already exists: ${dst}.taken` });
    const noSource = await icebergFailure(
      c.renameTable({ source: { namespace: [src], name: 'orders' }, destination: { namespace: [dst], name: 'x' } }),
    );
    expect(noSource).toMatchObject({ status: 404, type: 'NoSuchTableException' });
    const noDest = await icebergFailure(
      c.renameTable({ source: { namespace: [dst], name: 'taken' }, destination: { namespace: ['nowhere'], name: 'x' } }),
    );
    expect(noDest).toMatchObject({ status: 404, type: 'NoSuchNamespaceException', message: 'Namespace does not exist: nowhere' });
  });

  it('drops only with purge, as S3 Tables, and purges the warehouse', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const ns = await makeNamespace(s3t, arn);
    const c = catalog(t, arn);
    await c.createTable({ namespace: [ns] }, { name: 'gone', schema: SIMPLE_SCHEMA as never });
    const table = await s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: ns, name: 'gone' }));
    const warehouse = table.warehouseLocation!.replace('s3://', '');
    const path = `${prefixOf(arn)}/namespaces/${ns}/tables/gone`;
    for (const query of ['', '?purgeRequested=false', '?purgeRequested=False']) {
      const res = await raw(t, 'DELETE', `${path}${query}`);
      expectIcebergError(res, 400, 'BadRequestException');
      expect(res.json.error.message).toBe('S3 Tables only supports dropping tables with purge enabled');
    }
    expect(await c.tableExists({ namespace: [ns], name: 'gone' })).toBe(true);
    // pyiceberg spells it `True`.
    expect((await raw(t, 'DELETE', `${path}?purgeRequested=True`)).status).toBe(204);
    expect(await c.tableExists({ namespace: [ns], name: 'gone' })).toBe(false);
    expect((await s3t.send(new ListTablesCommand({ tableBucketARN: arn, namespace: ns }))).tables).toEqual([]);
    expect(await eventually(async () => !warehouseBuckets(t).includes(warehouse))).toBe(true);
    expectIcebergError(await raw(t, 'DELETE', `${path}?purgeRequested=true`), 404, 'NoSuchTableException');
  });

  it('refuses stage-create, a location of its own, and a table name S3 Tables refuses — creating nothing', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const ns = await makeNamespace(s3t, arn);
    const path = `${prefixOf(arn)}/namespaces/${ns}/tables`;
    const staged = await raw(t, 'POST', path, { name: 'ctas', schema: SIMPLE_SCHEMA, 'stage-create': true });
    expectIcebergError(staged, 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'POST', path, { name: 'loc', schema: SIMPLE_SCHEMA, location: 's3://elsewhere/t' }), 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'POST', path, { name: 'Bad-Name', schema: SIMPLE_SCHEMA }), 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'POST', path, { name: 'noschema' }), 400, 'BadRequestException');
    const badType = await raw(t, 'POST', path, { name: 'badtype', schema: { type: 'struct', fields: [{ id: 1, name: 'x', type: 'varchar', required: true }] } });
    expectIcebergError(badType, 400, 'BadRequestException');
    expect(badType.json.error.message).toContain("unknown type 'varchar'");
    const dupIds = await raw(t, 'POST', path, {
      name: 'dup',
      schema: { type: 'struct', fields: [{ id: 1, name: 'a', type: 'int', required: true }, { id: 1, name: 'b', type: 'int', required: true }] },
    });
    expectIcebergError(dupIds, 400, 'BadRequestException');
    expect((await s3t.send(new ListTablesCommand({ tableBucketARN: arn, namespace: ns }))).tables).toEqual([]);
    const c = catalog(t, arn);
    await c.createTable({ namespace: [ns] }, { name: 'once', schema: SIMPLE_SCHEMA as never });
    expect(await icebergFailure(c.createTable({ namespace: [ns] }, { name: 'once', schema: SIMPLE_SCHEMA as never }))).toMatchObject({
      status: 409,
      type: 'AlreadyExistsException',
    });
    expect(await icebergFailure(c.createTable({ namespace: ['nope'] }, { name: 'x', schema: SIMPLE_SCHEMA as never }))).toMatchObject({
      status: 404,
      type: 'NoSuchNamespaceException',
    });
  });
});

describe('routing', () => {
  it('serves the catalog only to requests signed for s3tables; others reach the S3 bucket named iceberg', async ({ server: t, s3tables: s3t, s3 }) => {
    const arn = await makeBucket(s3t);
    await s3.send(new CreateBucketCommand({ Bucket: 'iceberg' }));
    await s3.send(new PutObjectCommand({ Bucket: 'iceberg', Key: 'v1/config', Body: 'an object' }));
    const object = await s3.send(new GetObjectCommand({ Bucket: 'iceberg', Key: 'v1/config' }));
    expect(await object.Body!.transformToString()).toBe('an object');
    const unsigned = await fetch(`${t.endpoint}/iceberg/v1/config?warehouse=${encodeURIComponent(arn)}`);
    expect(unsigned.status).toBe(200);
    expect(await unsigned.text()).toBe('an object');
    const signed = await raw(t, 'GET', `config?warehouse=${encodeURIComponent(arn)}`);
    expect(signed.json.overrides.prefix).toBe(prefixOf(arn));
  });

  it('acts as the warehouse account for unsigned requests and keeps accounts apart for signed ones', async ({ server: t }) => {
    const { S3TablesClient: Client, CreateTableBucketCommand } = await import('@aws-sdk/client-s3tables');
    const other = new Client({ ...t.clientConfig, credentials: { accessKeyId: '111122223333', secretAccessKey: 'x' } });
    const name = uniqueName('acct-');
    const { arn } = await other.send(new CreateTableBucketCommand({ name }));
    expect(arn).toContain(':111122223333:');
    await catalog(t, arn!, { unsigned: true }).createNamespace({ namespace: ['shared'] });
    await catalog(t, arn!, { accessKeyId: '111122223333' }).createTable({ namespace: ['shared'] }, { name: 't', schema: SIMPLE_SCHEMA as never });
    const mine = await raw(t, 'GET', `${prefixOf(arn!)}/namespaces`);
    expectIcebergError(mine, 403, 'ForbiddenException');
    expect(mine.json.error.message).toContain('s3tables:ListNamespaces');
    const location = await other.send(new GetTableMetadataLocationCommand({ tableBucketARN: arn, namespace: 'shared', name: 't' }));
    expect(location.metadataLocation).toMatch(/\.metadata\.json$/);
    // Another region's bucket does not exist here.
    const west = arn!.replace('us-east-1', 'us-west-2');
    expectIcebergError(await raw(t, 'GET', `${prefixOf(west)}/namespaces`, undefined, { accessKeyId: '111122223333' }), 404, 'NoSuchWarehouseException');
  });

  it('answers what S3 Tables does not serve with 404 UnknownOperationException, and a path without prefix with 400', async ({ server: t, s3tables: s3t }) => {
    const arn = await makeBucket(s3t);
    const ns = await makeNamespace(s3t, arn);
    const p = prefixOf(arn);
    const unsupported: [string, string, unknown?][] = [
      ['GET', `${p}/namespaces/${ns}/views`],
      ['POST', `${p}/namespaces/${ns}/views`, {}],
      ['GET', `${p}/namespaces/${ns}/views/v`],
      ['POST', `${p}/views/rename`, {}],
      ['POST', `${p}/transactions/commit`, { 'table-changes': [] }],
      ['POST', `${p}/namespaces/${ns}/register`, { name: 'x', 'metadata-location': 's3://a/b.metadata.json' }],
      ['POST', `${p}/namespaces/${ns}/properties`, { updates: {} }],
      ['POST', `${p}/namespaces/${ns}/tables/t/metrics`, {}],
      ['GET', `${p}/namespaces/${ns}/tables/t/credentials`],
      ['POST', 'oauth/tokens', 'grant_type=client_credentials'],
      ['PUT', `${p}/namespaces`, {}],
      ['GET', `${p}/nothing/here`],
    ];
    for (const [method, path, body] of unsupported) {
      const res = await raw(t, method, path, body);
      expectIcebergError(res, 404, 'UnknownOperationException');
    }
    expectIcebergError(await raw(t, 'GET', 'namespaces'), 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'GET', 'not-an-arn/namespaces'), 400, 'BadRequestException');
    expectIcebergError(await raw(t, 'GET', `${p}/namespaces/%ZZ`), 400, 'BadRequestException');
  });
});
