/**
 * The ready-to-copy templates in `templates/`, deployed as users would: the quick start with
 * `aws cloudformation deploy`, the lakehouse with the SDK for each environment. Everything the
 * templates declare is checked through the S3 Tables API (encryption, maintenance, metrics,
 * policies, tags, the Iceberg schema in the table's metadata.json) and removed by deleting them.
 */
import { readFileSync } from 'node:fs';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListExportsCommand,
  UpdateStackCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  GetTableBucketEncryptionCommand,
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableBucketMetricsConfigurationCommand,
  GetTableBucketPolicyCommand,
  GetTableCommand,
  GetTableMaintenanceConfigurationCommand,
  GetTableMetadataLocationCommand,
  GetTablePolicyCommand,
  ListTableBucketsCommand,
  ListTagsForResourceCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { aws, stackStatus } from './support.js';

const QUICK_START = new URL('../../templates/quick-start.yaml', import.meta.url);
const LAKEHOUSE = new URL('../../templates/lakehouse.yaml', import.meta.url);


async function outputs(cfn: CloudFormationClient, stack: string): Promise<Record<string, string>> {
  const s = (await cfn.send(new DescribeStacksCommand({ StackName: stack }))).Stacks![0]!;
  return Object.fromEntries((s.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
}

/** The table's current metadata.json, read from its warehouse through S3. */
async function metadataOf(s3t: S3TablesClient, s3: S3Client, tableArn: string): Promise<{ schemas: { fields: { name: string; type: unknown; required: boolean }[] }[] }> {
  const bucketArn = tableArn.slice(0, tableArn.indexOf('/table/'));
  const t0 = await s3t.send(new GetTableCommand({ tableArn }));
  const loc = await s3t.send(new GetTableMetadataLocationCommand({ tableBucketARN: bucketArn, namespace: t0.namespace![0], name: t0.name }));
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(loc.metadataLocation!)!;
  const obj = await s3.send(new GetObjectCommand({ Bucket: m[1], Key: m[2] }));
  return JSON.parse(await obj.Body!.transformToString());
}

describe('templates/quick-start.yaml', () => {
  it('deploys with aws cloudformation deploy and gives a table with the schema', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3 }) => {
    const out = await aws(t, ['cloudformation', 'deploy', '--template-file', QUICK_START.pathname, '--stack-name', 'quick-start']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const o = await outputs(cfn, 'quick-start');
    expect(o.TableBucketArn).toBe('arn:aws:s3tables:us-east-1:000000000000:bucket/quick-start-tables');
    expect(o.TableArn).toMatch(/^arn:aws:s3tables:us-east-1:000000000000:bucket\/quick-start-tables\/table\/[0-9a-f-]+$/);
    expect(o.WarehouseLocation).toMatch(/^s3:\/\/.+--table-s3$/);
    const table = await s3t.send(new GetTableCommand({ tableArn: o.TableArn }));
    expect(table).toMatchObject({ name: 'events', namespace: ['analytics'], format: 'ICEBERG' });
    const meta = await metadataOf(s3t, s3, o.TableArn!);
    expect(meta.schemas.at(-1)!.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['event_id', 'string', true],
      ['occurred_at', 'timestamptz', true],
      ['user_id', 'long', false],
      ['kind', 'string', false],
      ['amount', 'decimal(12, 2)', false], // Iceberg's canonical spelling
    ]);
    await cfn.send(new DeleteStackCommand({ StackName: 'quick-start' }));
    const buckets = (await s3t.send(new ListTableBucketsCommand({}))).tableBuckets ?? [];
    expect(buckets.map((b) => b.name)).not.toContain('quick-start-tables');
  });
});

describe('templates/lakehouse.yaml', () => {
  const body = readFileSync(LAKEHOUSE, 'utf8');

  it('deploys for prod with KMS, maintenance, metrics, both policies, tags and exports', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3 }) => {
    const kms = 'arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    await cfn.send(
      new CreateStackCommand({
        StackName: 'lake-prod',
        TemplateBody: body,
        Parameters: [
          { ParameterKey: 'Environment', ParameterValue: 'prod' },
          { ParameterKey: 'KmsKeyArn', ParameterValue: kms },
        ],
      }),
    );
    expect(await stackStatus(cfn, 'lake-prod')).toBe('CREATE_COMPLETE');
    const o = await outputs(cfn, 'lake-prod');
    expect(o.Encryption).toBe('aws:kms');
    const bucketArn = o.TableBucketArn!;
    expect(bucketArn).toBe('arn:aws:s3tables:us-east-1:000000000000:bucket/lakehouse-prod-000000000000');
    expect((await s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: bucketArn }))).encryptionConfiguration).toEqual({
      sseAlgorithm: 'aws:kms',
      kmsKeyArn: kms,
    });
    const maintenance = await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: bucketArn }));
    expect(maintenance.configuration!.icebergUnreferencedFileRemoval).toEqual({
      status: 'enabled',
      settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 10, nonCurrentDays: 10 } },
    });
    await s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }));
    const bucketPolicy = JSON.parse((await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: bucketArn }))).resourcePolicy!);
    expect(bucketPolicy.Statement[0].Principal).toEqual({ AWS: 'arn:aws:iam::111122223333:root' });
    expect(bucketPolicy.Statement[0].Resource).toEqual([bucketArn, `${bucketArn}/table/*`]);

    const orders = o.OrdersTableArn!;
    const ordersTable = await s3t.send(new GetTableCommand({ tableArn: orders }));
    const compaction = await s3t.send(
      new GetTableMaintenanceConfigurationCommand({ tableBucketARN: bucketArn, namespace: 'sales', name: ordersTable.name }),
    );
    expect(compaction.configuration!.icebergCompaction!.settings!.icebergCompaction!.targetFileSizeMB).toBe(512);
    expect(compaction.configuration!.icebergSnapshotManagement!.settings!.icebergSnapshotManagement).toEqual({
      minSnapshotsToKeep: 5,
      maxSnapshotAgeHours: 168,
    });
    const tablePolicy = JSON.parse((await s3t.send(new GetTablePolicyCommand({ tableBucketARN: bucketArn, namespace: 'sales', name: 'orders' }))).resourcePolicy!);
    expect(tablePolicy.Statement[0].Resource).toBe(orders);
    const tags = await s3t.send(new ListTagsForResourceCommand({ resourceArn: bucketArn }));
    expect(tags.tags).toEqual({ project: 'lakehouse', environment: 'prod' });
    expect((await metadataOf(s3t, s3, orders)).schemas.at(-1)!.fields.map((f) => f.name)).toEqual(['order_id', 'customer_id', 'ordered_at', 'status', 'total']);

    const exports = (await cfn.send(new ListExportsCommand({}))).Exports!.map((e) => [e.Name, e.Value]);
    expect(exports).toEqual(
      expect.arrayContaining([
        ['lake-prod-TableBucketArn', bucketArn],
        ['lake-prod-OrdersTableArn', orders],
      ]),
    );
  });

  it('deploys a dev environment beside it (SSE-S3, no metrics) and updates its maintenance in place', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3 }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'lake-dev', TemplateBody: body }));
    expect(await stackStatus(cfn, 'lake-dev')).toBe('CREATE_COMPLETE');
    const o = await outputs(cfn, 'lake-dev');
    expect(o.Encryption).toBe('AES256');
    const bucketArn = o.TableBucketArn!;
    await expect(s3t.send(new GetTableBucketMetricsConfigurationCommand({ tableBucketARN: bucketArn }))).rejects.toMatchObject({
      name: 'NotFoundException',
    });
    // Maintenance settings update in place: same bucket ARN afterwards.
    const tweaked = body.replace('Default: lakehouse\n', 'Default: lakehouse\n    Description: project\n').replace('UnreferencedDays: 3', 'UnreferencedDays: 4');
    await cfn.send(new UpdateStackCommand({ StackName: 'lake-dev', TemplateBody: tweaked }));
    expect(await stackStatus(cfn, 'lake-dev')).toBe('UPDATE_COMPLETE');
    expect((await outputs(cfn, 'lake-dev')).TableBucketArn).toBe(bucketArn);
    const maintenance = await s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: bucketArn }));
    expect(maintenance.configuration!.icebergUnreferencedFileRemoval!.settings!.icebergUnreferencedFileRemoval!.unreferencedDays).toBe(4);
  });

  it('deletes both stacks and every table bucket they made', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3 }) => {
    await cfn.send(new DeleteStackCommand({ StackName: 'lake-dev' }));
    await cfn.send(new DeleteStackCommand({ StackName: 'lake-prod' }));
    const names = ((await s3t.send(new ListTableBucketsCommand({}))).tableBuckets ?? []).map((b) => b.name);
    expect(names.filter((n) => n?.startsWith('lakehouse-'))).toEqual([]);
    expect((await cfn.send(new ListExportsCommand({}))).Exports).toEqual([]);
  });
});
