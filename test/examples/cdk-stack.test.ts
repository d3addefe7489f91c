/**
 * An IaC unit test as a user of Overcast writes it: a CDK stack synthesized with aws-cdk-lib
 * (`Template.fromStack`), deployed into an in-process Overcast (`import { startOvercast } from
 * 'overcast'`), and the real table bucket, table and Iceberg metadata.json checked through the
 * AWS SDK; then a change deployed as an update, and a broken stack whose rollback reasons come
 * back on the rejection.
 */
import { App, CfnOutput, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CfnNamespace, CfnTable, CfnTableBucket } from 'aws-cdk-lib/aws-s3tables';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableCommand,
  GetTableMetadataLocationCommand,
  ListTableBucketsCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeployStackError, startOvercast, type Overcast } from 'overcast';

/** The stack under test: a table bucket with maintenance, a namespace and an Iceberg table. */
function analyticsStack(opts: { bucketName: string; unreferencedDays?: number; tableName?: string }): Stack {
  const stack = new Stack(new App(), 'Analytics');
  const bucket = new CfnTableBucket(stack, 'Bucket', {
    tableBucketName: opts.bucketName,
    unreferencedFileRemoval: { status: 'Enabled', unreferencedDays: opts.unreferencedDays ?? 7, noncurrentDays: 14 },
  });
  const namespace = new CfnNamespace(stack, 'Namespace', { namespace: 'sales', tableBucketArn: bucket.attrTableBucketArn });
  const table = new CfnTable(stack, 'Orders', {
    tableBucketArn: bucket.attrTableBucketArn,
    namespace: 'sales',
    tableName: opts.tableName ?? 'orders',
    openTableFormat: 'ICEBERG',
    icebergMetadata: {
      icebergSchema: {
        schemaFieldList: [
          { name: 'order_id', type: 'long', required: true },
          { name: 'amount', type: 'decimal(10,2)' },
          { name: 'placed_at', type: 'timestamptz' },
        ],
      },
    },
  });
  table.addResourceDependency(namespace);
  new CfnOutput(stack, 'BucketArn', { value: bucket.attrTableBucketArn });
  new CfnOutput(stack, 'OrdersArn', { value: table.attrTableArn });
  return stack;
}

let overcast: Overcast;
let s3tables: S3TablesClient;
let s3: S3Client;

beforeAll(async () => {
  overcast = await startOvercast();
  s3tables = new S3TablesClient(overcast.clientConfig);
  s3 = new S3Client(overcast.clientConfig);
});

afterAll(async () => {
  await overcast?.stop();
});

describe('the Analytics stack', () => {
  it('creates a real table bucket and an Iceberg table with the schema', async () => {
    const template = Template.fromStack(analyticsStack({ bucketName: 'analytics-unit' })).toJSON();

    const deployed = await overcast.deployStack({ stackName: 'Analytics', template });

    expect(deployed.status).toBe('CREATE_COMPLETE');
    expect(deployed.physicalResourceIds.Bucket).toBe(deployed.outputs.BucketArn);
    const table = await s3tables.send(
      new GetTableCommand({ tableBucketARN: deployed.outputs.BucketArn, namespace: 'sales', name: 'orders' }),
    );
    expect(table.tableARN).toBe(deployed.outputs.OrdersArn);
    expect(table.format).toBe('ICEBERG');
    const maintenance = await s3tables.send(
      new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: deployed.outputs.BucketArn }),
    );
    expect(maintenance.configuration?.icebergUnreferencedFileRemoval?.settings?.icebergUnreferencedFileRemoval?.unreferencedDays).toBe(7);

    // The metadata.json Iceberg engines read, from the table's warehouse.
    const { metadataLocation } = await s3tables.send(
      new GetTableMetadataLocationCommand({ tableBucketARN: deployed.outputs.BucketArn, namespace: 'sales', name: 'orders' }),
    );
    const [, bucket, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(metadataLocation!)!;
    const metadata = JSON.parse(await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body!.transformToString());
    expect(metadata['format-version']).toBe(2);
    expect(metadata.location).toBe(table.warehouseLocation);
    expect(metadata.schemas[0].fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['order_id', 'long'],
      ['amount', 'decimal(10, 2)'],
      ['placed_at', 'timestamptz'],
    ]);
  });

  it('updates the bucket in place when the maintenance changes', async () => {
    const before = await overcast.deployStack({
      stackName: 'Analytics',
      template: Template.fromStack(analyticsStack({ bucketName: 'analytics-unit' })).toJSON(),
    });
    expect(before.changed).toBe(false);

    const after = await overcast.deployStack({
      stackName: 'Analytics',
      template: Template.fromStack(analyticsStack({ bucketName: 'analytics-unit', unreferencedDays: 30 })).toJSON(),
    });

    expect(after.status).toBe('UPDATE_COMPLETE');
    expect(after.physicalResourceIds.Bucket).toBe(before.physicalResourceIds.Bucket);
    const maintenance = await s3tables.send(
      new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: after.outputs.BucketArn }),
    );
    expect(maintenance.configuration?.icebergUnreferencedFileRemoval?.settings?.icebergUnreferencedFileRemoval?.unreferencedDays).toBe(30);
  });

  it('rejects with the rollback reasons when a resource fails', async () => {
    // A second stack claiming the same bucket name fails, and CloudFormation rolls it back.
    const template = Template.fromStack(analyticsStack({ bucketName: 'analytics-unit' })).toJSON();

    const failure = await overcast.deployStack({ stackName: 'Duplicate', template }).catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(DeployStackError);
    const err = failure as DeployStackError;
    expect(err.status).toBe('ROLLBACK_COMPLETE');
    expect(err.failures).toEqual([
      expect.objectContaining({ logicalId: 'Bucket', type: 'AWS::S3Tables::TableBucket', status: 'CREATE_FAILED' }),
    ]);
    expect(err.failures[0]!.reason).toContain('already exists');
    expect(err.message).toContain('Bucket (AWS::S3Tables::TableBucket) CREATE_FAILED');
  });

  it('leaves nothing behind once deleted', async () => {
    await overcast.deleteStack('Analytics');

    expect((await s3tables.send(new ListTableBucketsCommand({}))).tableBuckets).toEqual([]);
  });
});
