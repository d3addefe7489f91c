/**
 * The AWS::S3Tables::* providers called directly with a real runtime, checked through
 * @aws-sdk/client-s3tables and the warehouse over S3: table buckets (encryption, storage class,
 * maintenance, metrics, replication, tags — created, changed in place, removed), namespaces,
 * tables (Iceberg metadata from the template producing the same metadata.json as the API,
 * rename of name and namespace in place, maintenance, tags), both policies, deletes, and the
 * failures: validation, AlreadyExists, a non-empty bucket, and cleanup when a later step fails.
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateTableCommand,
  GetNamespaceCommand,
  GetTableBucketCommand,
  GetTableBucketEncryptionCommand,
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableBucketMetricsConfigurationCommand,
  GetTableBucketPolicyCommand,
  GetTableBucketReplicationCommand,
  GetTableBucketStorageClassCommand,
  GetTableCommand,
  GetTableMaintenanceConfigurationCommand,
  GetTablePolicyCommand,
  ListTablesCommand,
  ListTagsForResourceCommand,
  S3TablesClient,
  type IcebergMetadata,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../../helpers/fixture.js';
import { loadedProvider, loadProviders, realResourceTypes } from '../../../src/services/cloudformation/resources/registry.js';
import type { ResolvedProperties, ResourceState } from '../../../src/services/cloudformation/resources/types.js';
import type { TestServer } from '../../helpers/server.js';
import { rejection, resourceContext } from './context.js';


await loadProviders(realResourceTypes());

function p(type: string) {
  const found = loadedProvider(`AWS::S3Tables::${type}`)!;
  expect(found.stored).toBe(false);
  return found.provider!;
}

const rc = (t: TestServer, type: string, id: string) => resourceContext(t, `AWS::S3Tables::${type}`, id);

async function status(promise: Promise<unknown>): Promise<string> {
  return (await rejection(promise)).name;
}

const KMS = 'arn:aws:kms:us-east-1:000000000000:key/11111111-2222-3333-4444-555555555555';

async function bucket(t: TestServer, name: string, extra: ResolvedProperties = {}): Promise<ResourceState> {
  return p('TableBucket').create(rc(t, 'TableBucket', 'Bucket'), { TableBucketName: name, ...extra });
}

describe('AWS::S3Tables::TableBucket', () => {
  it('creates with every configuration, updates each in place and deletes', async ({ server: t, s3tables: s3t, s3 }) => {
    const props: ResolvedProperties = {
      TableBucketName: 'cfn-lakehouse',
      EncryptionConfiguration: { SSEAlgorithm: 'aws:kms', KMSKeyArn: KMS },
      StorageClassConfiguration: { StorageClass: 'INTELLIGENT_TIERING' },
      UnreferencedFileRemoval: { Status: 'Enabled', UnreferencedDays: '5', NoncurrentDays: 7 },
      MetricsConfiguration: { Status: 'Enabled' },
      Tags: [{ Key: 'team', Value: 'data' }],
    };
    const context = rc(t, 'TableBucket', 'Lakehouse');
    const state = await p('TableBucket').create(context, props);
    const arn = 'arn:aws:s3tables:us-east-1:000000000000:bucket/cfn-lakehouse';
    expect(state).toEqual({ physicalId: arn, attributes: { TableBucketARN: arn } });
    expect((await s3t.send(new GetTableBucketCommand({ tableBucketARN: arn }))).name).toBe('cfn-lakehouse');
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }))).encryptionConfiguration).toEqual({
      sseAlgorithm: 'aws:kms',
      kmsKeyArn: KMS,
    });
    expect((await s3t.send(new GetTableBucketStorageClassCommand({ tableBucketARN: arn }))).storageClassConfiguration).toEqual({
      storageClass: 'INTELLIGENT_TIERING',
    });
    const maintenance = await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }));
    expect(maintenance.configuration?.icebergUnreferencedFileRemoval).toEqual({
      status: 'enabled',
      settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 5, nonCurrentDays: 7 } },
    });
    await s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: arn }));
    expect((await s3t.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual({ team: 'data' });

    const dest = await bucket(t, 'cfn-replica');
    const next: ResolvedProperties = {
      TableBucketName: 'cfn-lakehouse',
      StorageClassConfiguration: { StorageClass: 'STANDARD' },
      UnreferencedFileRemoval: { Status: 'Disabled' },
      ReplicationConfiguration: {
        Role: 'arn:aws:iam::000000000000:role/replication',
        Rules: [{ Destinations: [{ DestinationTableBucketARN: dest.physicalId }] }],
      },
      Tags: [{ Key: 'env', Value: 'prod' }],
    };
    const updated = await p('TableBucket').update(context, next, { props, state });
    expect(updated).toEqual(state);
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }))).encryptionConfiguration).toEqual({
      sseAlgorithm: 'AES256',
    });
    expect((await s3t.send(new GetTableBucketStorageClassCommand({ tableBucketARN: arn }))).storageClassConfiguration?.storageClass).toBe(
      'STANDARD',
    );
    const after = await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }));
    expect(after.configuration?.icebergUnreferencedFileRemoval?.status).toBe('disabled');
    expect(await status(s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: arn })))).toBe('NotFoundException');
    const replication = await s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: arn }));
    expect(replication.configuration?.rules?.[0]?.destinations?.[0]?.destinationTableBucketARN).toBe(dest.physicalId);
    expect((await s3t.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual({ env: 'prod' });

    // Removing replication and maintenance from the template: replication goes, maintenance is back to the defaults.
    const last = { TableBucketName: 'cfn-lakehouse' };
    await p('TableBucket').update(context, last, { props: next, state });
    expect(await status(s3t.send(new GetTableBucketReplicationCommand({ tableBucketARN: arn })))).toBe('NotFoundException');
    const defaults = await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }));
    expect(defaults.configuration?.icebergUnreferencedFileRemoval).toEqual({
      status: 'enabled',
      settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 3, nonCurrentDays: 10 } },
    });

    await p('TableBucket').delete(context, last, state);
    expect(await status(s3t.send(new GetTableBucketCommand({ tableBucketARN: arn })))).toBe('NotFoundException');
    await expect(p('TableBucket').delete(context, last, state)).resolves.toBeUndefined();
  });

  it('fails with the service error on a bad name or a taken one, and validates properties first', async ({ server: t, s3tables: s3t, s3 }) => {
    const bad = await rejection(bucket(t, 'Bad_Name'));
    expect(bad.code).toBe('BadRequestException');
    await bucket(t, 'cfn-taken');
    expect((await rejection(bucket(t, 'cfn-taken'))).code).toBe('ConflictException');
    const extra = await rejection(bucket(t, 'cfn-extra', { Encryption: {} }));
    expect(extra.message).toBe('Properties validation failed for resource Bucket with message: #: extraneous key [Encryption] is not permitted');
    expect(await status(s3t.send(new GetTableBucketCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/cfn-extra' })))).toBe(
      'NotFoundException',
    );
  });

  it('deletes the new bucket again when a later step fails', async ({ server: t, s3tables: s3t, s3 }) => {
    const err = await rejection(
      bucket(t, 'cfn-rollback', { ReplicationConfiguration: { Role: 'r', Rules: [{ Destinations: [{ DestinationTableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/cfn-rollback' }] }] } }),
    );
    expect(err.code).toBe('BadRequestException');
    expect(
      await status(s3t.send(new GetTableBucketCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/cfn-rollback' }))),
    ).toBe('NotFoundException');
  });
});

const ICEBERG_TEMPLATE = {
  IcebergSchema: {
    SchemaFieldList: [
      { Name: 'id', Type: 'long', Required: 'true' },
      { Name: 'ts', Type: 'timestamptz', Required: true },
      { Name: 'amount', Type: 'decimal(10,2)' },
      { Name: 'region', Type: 'string', Required: 'false' },
    ],
  },
  IcebergPartitionSpec: { Fields: [{ SourceId: '4', Transform: 'identity', Name: 'region' }] },
  IcebergSortOrder: { OrderId: '1', Fields: [{ SourceId: 2, Transform: 'day', Direction: 'desc', NullOrder: 'nulls-last' }] },
  TableProperties: { 'write.format.default': 'parquet' },
};

const ICEBERG_API: IcebergMetadata = {
  schema: {
    fields: [
      { name: 'id', type: 'long', required: true },
      { name: 'ts', type: 'timestamptz', required: true },
      { name: 'amount', type: 'decimal(10,2)' },
      { name: 'region', type: 'string', required: false },
    ],
  },
  partitionSpec: { fields: [{ sourceId: 4, transform: 'identity', name: 'region' }] },
  writeOrder: { orderId: 1, fields: [{ sourceId: 2, transform: 'day', direction: 'desc', nullOrder: 'nulls-last' }] },
  properties: { 'write.format.default': 'parquet' },
};

async function metadataJson(s3t: S3TablesClient, s3: S3Client, tableArn: string): Promise<Record<string, unknown>> {
  const got = await s3t.send(new GetTableCommand({ tableArn }));
  const [, bucketName, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(got.metadataLocation!)!;
  const obj = await s3.send(new GetObjectCommand({ Bucket: bucketName, Key: key }));
  return JSON.parse(await obj.Body!.transformToString()) as Record<string, unknown>;
}

function comparable(meta: Record<string, unknown>): Record<string, unknown> {
  const { 'table-uuid': _u, location: _l, 'last-updated-ms': _t, ...rest } = meta;
  return rest;
}

describe('AWS::S3Tables::Namespace and Table', () => {
  it('creates a table whose metadata.json is the one the API writes, renames it in place and deletes it', async ({ server: t, s3tables: s3t, s3 }) => {
    const b = await bucket(t, 'cfn-tables');
    const nsContext = rc(t, 'Namespace', 'Sales');
    const ns = await p('Namespace').create(nsContext, { TableBucketARN: b.physicalId, Namespace: 'sales' });
    expect(ns).toEqual({ physicalId: `${b.physicalId}|sales`, attributes: {} });
    expect((await s3t.send(new GetNamespaceCommand({ tableBucketARN: b.physicalId, namespace: 'sales' }))).namespace).toEqual(['sales']);
    await p('Namespace').create(rc(t, 'Namespace', 'Archive'), { TableBucketARN: b.physicalId, Namespace: 'archive' });

    const props: ResolvedProperties = {
      TableBucketARN: b.physicalId,
      Namespace: 'sales',
      TableName: 'orders',
      OpenTableFormat: 'ICEBERG',
      IcebergMetadata: ICEBERG_TEMPLATE,
      Compaction: { Status: 'enabled', TargetFileSizeMB: '128' },
      SnapshotManagement: { Status: 'enabled', MinSnapshotsToKeep: 2, MaxSnapshotAgeHours: '48' },
      Tags: [{ Key: 'owner', Value: 'sales' }],
    };
    const context = rc(t, 'Table', 'Orders');
    const state = await p('Table').create(context, props);
    const got = await s3t.send(new GetTableCommand({ tableArn: state.physicalId }));
    expect(state.attributes).toEqual({ TableARN: got.tableARN, WarehouseLocation: got.warehouseLocation, VersionToken: got.versionToken });
    expect(got).toMatchObject({ name: 'orders', namespace: ['sales'], format: 'ICEBERG' });

    const viaApi = await s3t.send(
      new CreateTableCommand({ tableBucketARN: b.physicalId, namespace: 'archive', name: 'orders_api', format: 'ICEBERG', metadata: { iceberg: ICEBERG_API } }),
    );
    const fromTemplate = await metadataJson(s3t, s3, state.physicalId);
    expect(comparable(fromTemplate)).toEqual(comparable(await metadataJson(s3t, s3, viaApi.tableARN!)));
    expect((fromTemplate.schemas as { fields: unknown[] }[])[0]!.fields).toHaveLength(4);

    const maintenance = await s3t.send(new GetTableMaintenanceConfigurationCommand({ tableBucketARN: b.physicalId, namespace: 'sales', name: 'orders' }));
    expect(maintenance.configuration?.icebergCompaction?.settings?.icebergCompaction?.targetFileSizeMB).toBe(128);
    expect(maintenance.configuration?.icebergSnapshotManagement?.settings?.icebergSnapshotManagement).toMatchObject({
      minSnapshotsToKeep: 2,
      maxSnapshotAgeHours: 48,
    });

    const next = { ...props, Namespace: 'archive', TableName: 'orders_2024', Compaction: { Status: 'disabled' }, Tags: [] };
    const updated = await p('Table').update(context, next, { props, state });
    expect(updated.physicalId).toBe(state.physicalId);
    const renamed = await s3t.send(new GetTableCommand({ tableArn: state.physicalId }));
    expect(renamed).toMatchObject({ name: 'orders_2024', namespace: ['archive'], warehouseLocation: got.warehouseLocation });
    expect(updated.attributes.WarehouseLocation).toBe(got.warehouseLocation);
    const after = await s3t.send(
      new GetTableMaintenanceConfigurationCommand({ tableBucketARN: b.physicalId, namespace: 'archive', name: 'orders_2024' }),
    );
    expect(after.configuration?.icebergCompaction?.status).toBe('disabled');
    expect((await s3t.send(new ListTagsForResourceCommand({ resourceArn: state.physicalId }))).tags).toEqual({});

    // A bucket with namespaces left cannot be deleted: the service's error, as the real handler reports.
    expect((await rejection(p('TableBucket').delete(rc(t, 'TableBucket', 'B'), {}, b))).code).toBe('BadRequestException');

    await p('Table').delete(context, next, updated);
    expect(await status(s3t.send(new GetTableCommand({ tableArn: state.physicalId })))).toBe('NotFoundException');
    await p('Namespace').delete(nsContext, {}, ns);
    expect(await status(s3t.send(new GetNamespaceCommand({ tableBucketARN: b.physicalId, namespace: 'sales' })))).toBe('NotFoundException');
  });

  it('maps IcebergSchemaV2 (nested types, identifier fields, format version 3) onto the API input', async ({ server: t, s3tables: s3t, s3 }) => {
    const b = await bucket(t, 'cfn-v2');
    await p('Namespace').create(rc(t, 'Namespace', 'N'), { TableBucketARN: b.physicalId, Namespace: 'v2' });
    const address = { type: 'struct', fields: [{ id: 3, name: 'city', type: 'string', required: false }] };
    const state = await p('Table').create(rc(t, 'Table', 'Customers'), {
      TableBucketARN: b.physicalId,
      Namespace: 'v2',
      TableName: 'customers',
      OpenTableFormat: 'ICEBERG',
      IcebergMetadata: {
        IcebergSchemaV2: {
          SchemaV2FieldType: 'struct',
          SchemaId: '0',
          IdentifierFieldIds: ['1'],
          SchemaV2FieldList: [
            { Id: '1', Name: 'id', Type: 'long', Required: 'true', Doc: 'customer id' },
            { Id: 2, Name: 'address', Type: address, Required: false },
          ],
        },
        TableProperties: { 'format-version': 3 },
      },
    });
    const viaApi = await s3t.send(
      new CreateTableCommand({
        tableBucketARN: b.physicalId,
        namespace: 'v2',
        name: 'customers_api',
        format: 'ICEBERG',
        metadata: {
          iceberg: {
            schemaV2: {
              type: 'struct',
              schemaId: 0,
              identifierFieldIds: [1],
              fields: [
                { id: 1, name: 'id', type: 'long', required: true, doc: 'customer id' },
                { id: 2, name: 'address', type: address, required: false },
              ],
            },
            properties: { 'format-version': '3' },
          },
        },
      }),
    );
    const fromTemplate = await metadataJson(s3t, s3, state.physicalId);
    expect(fromTemplate['format-version']).toBe(3);
    expect(comparable(fromTemplate)).toEqual(comparable(await metadataJson(s3t, s3, viaApi.tableARN!)));
  });

  it('creates tables without metadata, refuses both metadata forms, and cleans up when maintenance fails', async ({ server: t, s3tables: s3t, s3 }) => {
    const b = await bucket(t, 'cfn-more');
    await p('Namespace').create(rc(t, 'Namespace', 'N'), { TableBucketARN: b.physicalId, Namespace: 'raw' });
    const base = { TableBucketARN: b.physicalId, Namespace: 'raw', OpenTableFormat: 'ICEBERG' };
    const plain = await p('Table').create(rc(t, 'Table', 'Plain'), { ...base, TableName: 'events', WithoutMetadata: 'Yes' });
    expect((await s3t.send(new GetTableCommand({ tableArn: plain.physicalId }))).metadataLocation).toBeUndefined();

    const both = await rejection(
      p('Table').create(rc(t, 'Table', 'Both'), { ...base, TableName: 'both', WithoutMetadata: 'Yes', IcebergMetadata: ICEBERG_TEMPLATE }),
    );
    expect(both.message).toMatch(/^Properties validation failed for resource Both with message: .*mutually exclusive/);
    const missing = await rejection(p('Table').create(rc(t, 'Table', 'Missing'), { ...base, TableName: 'x', OpenTableFormat: 'DELTA' }));
    expect(missing.message).toBe('Properties validation failed for resource Missing with message: #/OpenTableFormat: DELTA is not a valid enum value');

    const small = await rejection(
      p('Table').create(rc(t, 'Table', 'Small'), { ...base, TableName: 'small', Compaction: { TargetFileSizeMB: 10 } }),
    );
    expect(small.code).toBe('BadRequestException');
    const tables = await s3t.send(new ListTablesCommand({ tableBucketARN: b.physicalId, namespace: 'raw' }));
    expect(tables.tables?.map((x) => x.name)).toEqual(['events']);
  });
});

describe('AWS::S3Tables::TableBucketPolicy and TablePolicy', () => {
  const doc = (action: string) => ({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::000000000000:root' }, Action: action, Resource: '*' }],
  });

  it('puts, replaces and deletes both policies; refuses a second one', async ({ server: t, s3tables: s3t, s3 }) => {
    const b = await bucket(t, 'cfn-policies');
    await p('Namespace').create(rc(t, 'Namespace', 'N'), { TableBucketARN: b.physicalId, Namespace: 'ns' });
    const tbl = await p('Table').create(rc(t, 'Table', 'T'), {
      TableBucketARN: b.physicalId,
      Namespace: 'ns',
      TableName: 'tbl',
      OpenTableFormat: 'ICEBERG',
    });

    const bpContext = rc(t, 'TableBucketPolicy', 'BucketPolicy');
    const bp = await p('TableBucketPolicy').create(bpContext, { TableBucketARN: b.physicalId, ResourcePolicy: doc('s3tables:GetTable') });
    expect(bp).toEqual({ physicalId: b.physicalId, attributes: {} });
    const stored = await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: b.physicalId }));
    expect(JSON.parse(stored.resourcePolicy!)).toEqual(doc('s3tables:GetTable'));
    const second = await rejection(p('TableBucketPolicy').create(bpContext, { TableBucketARN: b.physicalId, ResourcePolicy: '{}' }));
    expect(second.code).toBe('AlreadyExistsException');
    expect(second.message).toBe(`Resource of type 'AWS::S3Tables::TableBucketPolicy' with identifier '${b.physicalId}' already exists.`);
    await p('TableBucketPolicy').update(bpContext, { TableBucketARN: b.physicalId, ResourcePolicy: JSON.stringify(doc('s3tables:*')) }, {
      props: {},
      state: bp,
    });
    expect(JSON.parse((await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: b.physicalId }))).resourcePolicy!)).toEqual(doc('s3tables:*'));

    const tpContext = rc(t, 'TablePolicy', 'TablePolicy');
    const tp = await p('TablePolicy').create(tpContext, { TableARN: tbl.physicalId, ResourcePolicy: doc('s3tables:GetTableData') });
    expect(tp).toEqual({
      physicalId: tbl.physicalId,
      attributes: { TableBucketARN: b.physicalId, Namespace: 'ns', TableName: 'tbl' },
    });
    const tablePolicy = await s3t.send(new GetTablePolicyCommand({ tableBucketARN: b.physicalId, namespace: 'ns', name: 'tbl' }));
    expect(JSON.parse(tablePolicy.resourcePolicy!)).toEqual(doc('s3tables:GetTableData'));

    await p('TablePolicy').delete(tpContext, {}, tp);
    await p('TableBucketPolicy').delete(bpContext, {}, bp);
    expect(await status(s3t.send(new GetTablePolicyCommand({ tableBucketARN: b.physicalId, namespace: 'ns', name: 'tbl' })))).toBe(
      'NotFoundException',
    );
    expect(await status(s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: b.physicalId })))).toBe('NotFoundException');
    await expect(p('TablePolicy').delete(tpContext, {}, tp)).resolves.toBeUndefined();
  });
});
