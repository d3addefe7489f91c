/**
 * The CDK app of the lifecycle journey (lifecycle.test.ts): one JourneyStack, shaped by context —
 * `importBucket` adds a table bucket of that name to be adopted by `cdk import`, `rawBucket` an S3
 * bucket adopted by `cdk deploy --import-existing-resources`, `tableId` renames the table's
 * construct (so `cdk refactor` has a move to make).
 */
import { App } from 'aws-cdk-lib';
import { JourneyStack } from './journey-stack.js';

const app = new App();
const context = (key: string): string | undefined => {
  const v = app.node.tryGetContext(key) as unknown;
  return v === undefined ? undefined : String(v);
};
new JourneyStack(app, 'JourneyStack', {
  importBucket: context('importBucket'),
  rawBucket: context('rawBucket'),
  tableId: context('tableId') ?? 'Events',
});
app.synth();
