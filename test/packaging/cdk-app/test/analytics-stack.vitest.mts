// The same test under vitest, which loads overcast's ES module build.
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { GetTableCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { startOvercast, type Overcast } from 'overcast';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AnalyticsStack } from '../lib/analytics-stack.js';

let overcast: Overcast;
beforeAll(async () => {
  overcast = await startOvercast();
});
afterAll(() => overcast?.stop());

it('loads overcast through its ES module entry', () => {
  expect(import.meta.resolve('overcast')).toMatch(/node_modules\/overcast\/dist\/index\.js$/);
});

it('deploys the stack and finds its table', async () => {
  const stack = new AnalyticsStack(new App(), 'Analytics');

  const { status, outputs } = await overcast.deployStack({ stackName: 'Analytics', template: Template.fromStack(stack).toJSON() });

  expect(status).toBe('CREATE_COMPLETE');
  const table = await new S3TablesClient(overcast.clientConfig).send(new GetTableCommand({ tableArn: outputs.OrdersArn }));
  expect(table.name).toBe('orders');
});
