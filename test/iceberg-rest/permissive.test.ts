/**
 * The catalog's two deliberate departures, each behind a setting: the permissive mode serves what
 * S3 Tables refuses (stage-create followed by an `assert-create` commit, as Spark and Trino CTAS
 * do; multi-table transactions, all or nothing; metrics reports), and the AWS-exact mode answers
 * LoadTable without Overcast's `s3.*` client settings.
 */
import { GetTableCommand, GetTableMetadataLocationCommand, ListTablesCommand } from '@aws-sdk/client-s3tables';
import { describe, expect, fixtureWith } from '../helpers/fixture.js';
import { warehouseBuckets } from '../helpers/server.js';
import { makeBucket, makeNamespace } from '../s3tables/helpers.js';
import { catalog, expectIcebergError, prefixOf, raw, SIMPLE_SCHEMA } from './helpers.js';

const it = fixtureWith({ icebergPermissive: true, icebergS3Config: false });
let arn: string;
let ns: string;

it.beforeAll(async ({ s3tables: s3t }) => {
  arn = await makeBucket(s3t);
  ns = await makeNamespace(s3t, arn);
});

type Json = Record<string, any>;

describe('permissive mode', () => {
  it('stages a create and makes the table on its assert-create commit, in the staged warehouse (CTAS)', async ({ server: t, s3tables: s3t }) => {
    const tables = `${prefixOf(arn)}/namespaces/${ns}/tables`;
    const before = warehouseBuckets(t).length;
    const staged = await raw(t, 'POST', tables, { name: 'ctas', schema: SIMPLE_SCHEMA, 'stage-create': true, properties: { 'format-version': '2' } });
    expect(staged.status).toBe(200);
    expect(staged.json['metadata-location']).toBeNull();
    const m = staged.json.metadata as Json;
    expect(m.location).toMatch(/^s3:\/\/[a-z0-9-]+--table-s3$/);
    expect(warehouseBuckets(t)).toHaveLength(before + 1);
    // Not a table until the commit.
    expect((await s3t.send(new ListTablesCommand({ tableBucketARN: arn, namespace: ns }))).tables).toEqual([]);

    const snapshotId = 77;
    const commit = await raw(t, 'POST', `${tables}/ctas`, {
      requirements: [{ type: 'assert-create' }],
      updates: [
        { action: 'assign-uuid', uuid: m['table-uuid'] },
        { action: 'upgrade-format-version', 'format-version': 2 },
        { action: 'add-schema', schema: m.schemas[0], 'last-column-id': m['last-column-id'] },
        { action: 'set-current-schema', 'schema-id': -1 },
        { action: 'add-spec', spec: m['partition-specs'][0] },
        { action: 'set-default-spec', 'spec-id': -1 },
        { action: 'add-sort-order', 'sort-order': m['sort-orders'][0] },
        { action: 'set-default-sort-order', 'sort-order-id': -1 },
        { action: 'set-location', location: m.location },
        { action: 'set-properties', updates: m.properties },
        {
          action: 'add-snapshot',
          snapshot: { 'snapshot-id': snapshotId, 'sequence-number': 1, 'timestamp-ms': 1_700_000_000_000, 'manifest-list': `${m.location}/metadata/snap-77.avro`, summary: { operation: 'append' }, 'schema-id': 0 },
        },
        { action: 'set-snapshot-ref', 'ref-name': 'main', type: 'branch', 'snapshot-id': snapshotId },
      ],
    });
    expect(commit.status).toBe(200);
    const table = await s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: ns, name: 'ctas' }));
    expect(table.warehouseLocation).toBe(m.location);
    expect(table.metadataLocation).toBe(commit.json['metadata-location']);
    expect(commit.json.metadata).toMatchObject({ 'table-uuid': m['table-uuid'], 'current-snapshot-id': snapshotId, location: m.location });
    expect(warehouseBuckets(t)).toHaveLength(before + 1);

    // A second create commit for the same name finds the table: the requirement fails.
    const again = await raw(t, 'POST', `${tables}/ctas`, { requirements: [{ type: 'assert-create' }], updates: [{ action: 'set-location', location: m.location }] });
    expectIcebergError(again, 409, 'CommitFailedException');
    // A create commit with a location that was never staged is refused.
    const unstaged = await raw(t, 'POST', `${tables}/other`, {
      requirements: [{ type: 'assert-create' }],
      updates: [{ action: 'add-schema', schema: SIMPLE_SCHEMA }, { action: 'set-current-schema', 'schema-id': -1 }, { action: 'set-location', location: 's3://not-staged--table-s3' }],
    });
    expectIcebergError(unstaged, 400, 'BadRequestException');
  });

  it('commits several tables in one transaction, all or nothing', async ({ server: t, s3tables: s3t }) => {
    const c = catalog(t, arn);
    await c.createTable({ namespace: [ns] }, { name: 'left', schema: SIMPLE_SCHEMA as never });
    await c.createTable({ namespace: [ns] }, { name: 'right', schema: SIMPLE_SCHEMA as never });
    const token = async (name: string) => (await s3t.send(new GetTableMetadataLocationCommand({ tableBucketARN: arn, namespace: ns, name }))).versionToken;
    const change = (name: string, schemaId: number) => ({
      identifier: { namespace: [ns], name },
      requirements: [{ type: 'assert-current-schema-id', 'current-schema-id': schemaId }],
      updates: [{ action: 'set-properties', updates: { batch: '1' } }],
    });
    const before = { left: await token('left'), right: await token('right') };
    const failed = await raw(t, 'POST', `${prefixOf(arn)}/transactions/commit`, { 'table-changes': [change('left', 0), change('right', 5)] });
    expectIcebergError(failed, 409, 'CommitFailedException');
    expect({ left: await token('left'), right: await token('right') }).toEqual(before);

    const ok = await raw(t, 'POST', `${prefixOf(arn)}/transactions/commit`, { 'table-changes': [change('left', 0), change('right', 0)] });
    expect(ok.status).toBe(204);
    for (const name of ['left', 'right']) {
      expect(await token(name)).not.toBe(before[name as 'left']);
      expect(((await c.loadTable({ namespace: [ns], name })) as Json).properties).toEqual({ batch: '1' });
    }
  });

  it('accepts metrics reports for existing tables', async ({ server: t }) => {
    const c = catalog(t, arn);
    await c.createTable({ namespace: [ns] }, { name: 'metered', schema: SIMPLE_SCHEMA as never });
    const report = { 'report-type': 'scan-report', 'table-name': `${ns}.metered`, 'snapshot-id': 1, filter: true, 'schema-id': 0, 'projected-field-ids': [1], 'projected-field-names': ['id'], metrics: {} };
    expect((await raw(t, 'POST', `${prefixOf(arn)}/namespaces/${ns}/tables/metered/metrics`, report)).status).toBe(204);
    expectIcebergError(await raw(t, 'POST', `${prefixOf(arn)}/namespaces/${ns}/tables/absent/metrics`, report), 404, 'NoSuchTableException');
  });
});

describe('AWS-exact answers', () => {
  it('leaves Overcast’s s3.* settings out of the table config', async ({ server: t }) => {
    const c = catalog(t, arn);
    await c.createTable({ namespace: [ns] }, { name: 'exact', schema: SIMPLE_SCHEMA as never });
    const loaded = await c.loadTableResult({ namespace: [ns], name: 'exact' });
    expect(loaded!.config).toEqual({});
  });
});
