/**
 * The IaC unit test of test/examples/cdk-stack.test.ts, written for jest: a CDK stack synthesized
 * with aws-cdk-lib, deployed into an in-process Overcast (`import { startOvercast } from
 * 'overcast'`), the real table bucket, namespace, table and Iceberg metadata.json checked through
 * the AWS SDK, a rollback's reasons on the rejection, and nothing left after deleteStack. Plain
 * ESM JavaScript with `@jest/globals`, run by `jest.config.mjs` beside it (see
 * test/examples/jest-runner.test.ts, which runs it from the vitest suite).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { App, CfnOutput, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CfnNamespace, CfnTable, CfnTableBucket } from 'aws-cdk-lib/aws-s3tables';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  GetTableBucketCommand,
  GetTableCommand,
  GetTableMetadataLocationCommand,
  ListNamespacesCommand,
  ListTableBucketsCommand,
  S3TablesClient,
} from '@aws-sdk/client-s3tables';
import { DeployStackError, startOvercast } from 'overcast';

/** A table bucket, a namespace and an Iceberg table, with the ARNs as outputs. */
function analyticsTemplate(bucketName) {
  const stack = new Stack(new App(), 'Analytics');
  const bucket = new CfnTableBucket(stack, 'Bucket', { tableBucketName: bucketName });
  const namespace = new CfnNamespace(stack, 'Namespace', { namespace: 'sales', tableBucketArn: bucket.attrTableBucketArn });
  const table = new CfnTable(stack, 'Orders', {
    tableBucketArn: bucket.attrTableBucketArn,
    namespace: 'sales',
    tableName: 'orders',
    openTableFormat: 'ICEBERG',
    icebergMetadata: {
      icebergSchema: {
        schemaFieldList: [
          { name: 'order_id', type: 'long', required: true },
          { name: 'placed_at', type: 'timestamptz' },
        ],
      },
    },
  });
  table.addResourceDependency(namespace);
  new CfnOutput(stack, 'BucketArn', { value: bucket.attrTableBucketArn });
  new CfnOutput(stack, 'OrdersArn', { value: table.attrTableArn });
  return Template.fromStack(stack).toJSON();
}

let overcast;
let s3tables;
let s3;

beforeAll(async () => {
  overcast = await startOvercast();
  s3tables = new S3TablesClient(overcast.clientConfig);
  s3 = new S3Client(overcast.clientConfig);
});

afterAll(async () => {
  await overcast?.stop();
});

describe('the Analytics stack, under jest', () => {
  it('creates the table bucket, the namespace and the Iceberg table', async () => {
    const deployed = await overcast.deployStack({ stackName: 'Analytics', template: analyticsTemplate('analytics-jest') });

    expect(deployed.status).toBe('CREATE_COMPLETE');
    const bucketArn = deployed.outputs.BucketArn;
    expect(deployed.physicalResourceIds.Bucket).toBe(bucketArn);
    expect((await s3tables.send(new GetTableBucketCommand({ tableBucketARN: bucketArn }))).name).toBe('analytics-jest');
    const namespaces = await s3tables.send(new ListNamespacesCommand({ tableBucketARN: bucketArn }));
    expect(namespaces.namespaces.map((n) => n.namespace)).toEqual([['sales']]);
    const table = await s3tables.send(new GetTableCommand({ tableBucketARN: bucketArn, namespace: 'sales', name: 'orders' }));
    expect(table.tableARN).toBe(deployed.outputs.OrdersArn);
    expect(table.format).toBe('ICEBERG');

    const { metadataLocation } = await s3tables.send(
      new GetTableMetadataLocationCommand({ tableBucketARN: bucketArn, namespace: 'sales', name: 'orders' }),
    );
    const [, bucket, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(metadataLocation);
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const metadata = JSON.parse(await object.Body.transformToString());
    expect(metadata.location).toBe(table.warehouseLocation);
    expect(metadata.schemas[0].fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['order_id', 'long', true],
      ['placed_at', 'timestamptz', false],
    ]);
  }, 30_000); // synthesizing the CDK app under jest's ESM loader takes seconds on a busy machine

  it('rejects with a DeployStackError carrying the rollback reasons', async () => {
    // The same bucket name again, in another stack: the bucket fails and the stack rolls back.
    const failed = overcast.deployStack({ stackName: 'Duplicate', template: analyticsTemplate('analytics-jest') });

    await expect(failed).rejects.toBeInstanceOf(DeployStackError);
    await expect(failed).rejects.toMatchObject({
      status: 'ROLLBACK_COMPLETE',
      failures: [expect.objectContaining({ logicalId: 'Bucket', status: 'CREATE_FAILED', reason: expect.stringContaining('already exists') })],
    });
  });

  it('leaves nothing behind once deleted', async () => {
    const { outputs } = await overcast.deployStack({ stackName: 'Analytics', template: analyticsTemplate('analytics-jest') });

    await overcast.deleteStack('Analytics');

    await expect(s3tables.send(new GetTableBucketCommand({ tableBucketARN: outputs.BucketArn }))).rejects.toMatchObject({
      name: 'NotFoundException',
      $metadata: { httpStatusCode: 404 },
    });
    expect((await s3tables.send(new ListTableBucketsCommand({}))).tableBuckets).toEqual([]);
  });
});
