// The user's jest test (run with ts-jest and with @swc/jest, both CommonJS): the stack deployed into
// an in-process Overcast loaded with require('overcast'), checked through the AWS SDK.
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { GetTableCommand, ListNamespacesCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { DeployStackError, startOvercast, type Overcast } from 'overcast';
import { AnalyticsStack } from '../lib/analytics-stack';

// The first Template.fromStack of a run loads aws-cdk-lib, which takes jest seconds on a busy machine.
jest.setTimeout(60_000);

let overcast: Overcast;
beforeAll(async () => {
  overcast = await startOvercast();
});
afterAll(() => overcast?.stop());

function template(id: string, tableBucketName: string) {
  return Template.fromStack(new AnalyticsStack(new App(), id, { tableBucketName })).toJSON();
}

test('overcast is loaded through its CommonJS entry', () => {
  expect(require.resolve('overcast')).toMatch(/node_modules[\\/]overcast[\\/]dist[\\/]cjs[\\/]index\.js$/);
});

test('the stack deploys its table bucket, namespace and Iceberg table', async () => {
  const { status, outputs } = await overcast.deployStack({ stackName: 'Analytics', template: template('Analytics', 'analytics') });

  expect(status).toBe('CREATE_COMPLETE');
  const s3tables = new S3TablesClient(overcast.clientConfig);
  const namespaces = await s3tables.send(new ListNamespacesCommand({ tableBucketARN: outputs.BucketArn }));
  expect(namespaces.namespaces?.map((n) => n.namespace)).toEqual([['sales']]);
  const table = await s3tables.send(new GetTableCommand({ tableArn: outputs.OrdersArn }));
  expect([table.name, table.format, table.metadataLocation?.endsWith('.metadata.json')]).toEqual(['orders', 'ICEBERG', true]);
});

test('a stack that rolls back rejects with a DeployStackError', async () => {
  const failed = overcast.deployStack({ stackName: 'Again', template: template('Again', 'analytics') });

  await expect(failed).rejects.toBeInstanceOf(DeployStackError);
  await expect(failed).rejects.toMatchObject({ status: 'ROLLBACK_COMPLETE', failures: [expect.objectContaining({ logicalId: 'Bucket' })] });
});
