/**
 * The CDK app of the end-to-end test: one TablesStack, its version taken from the context value
 * `tablesVersion` (`cdk deploy -c tablesVersion=2`), its bucket name from `bucketName`;
 * `autoDeleteBucket=true` adds an autoDeleteObjects bucket.
 */
import { App } from 'aws-cdk-lib';
import { TablesStack } from './tables-stack.js';

const app = new App();
const version = String(app.node.tryGetContext('tablesVersion') ?? '1') === '2' ? 2 : 1;
const bucketName = String(app.node.tryGetContext('bucketName') ?? 'overcast-cdk-tables');
const autoDeleteBucket = String(app.node.tryGetContext('autoDeleteBucket') ?? 'false') === 'true';
new TablesStack(app, 'TablesStack', { version, bucketName, autoDeleteBucket });
app.synth();
