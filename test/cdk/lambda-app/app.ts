/**
 * The CDK app of the Lambda end-to-end test: a FunctionsStack (functions-stack.ts) and a
 * WaiterStack (waiter-stack.ts, a Provider with isComplete), deployed one at a time. Context
 * `codeVersion` (or the file version.txt, for `cdk watch`) is written into the asset function's
 * source and into the page the site's BucketDeployment copies before synthesis, so a deploy with
 * `-c codeVersion=2` changes only that function's code and that page (what `cdk deploy --hotswap`
 * swaps);
 * `withAutoDelete=false` leaves out the autoDeleteObjects bucket (the speed comparison).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { FunctionsStack } from './functions-stack.js';
import { WaiterStack } from './waiter-stack.js';

const app = new App();
// `cdk watch` (which re-synthesizes on a change of version.txt) takes the version from that file.
const codeVersion = existsSync('version.txt') ? readFileSync('version.txt', 'utf8').trim() : String(app.node.tryGetContext('codeVersion') ?? '1');
const autoDelete = String(app.node.tryGetContext('withAutoDelete') ?? 'true') !== 'false';
const stackName = String(app.node.tryGetContext('stackName') ?? 'FunctionsStack');
mkdirSync('fn-src', { recursive: true });
writeFileSync(
  'fn-src/index.js',
  `const { S3Client, ListBucketsCommand } = require('@aws-sdk/client-s3');\n` +
    `exports.handler = async (event, context) => {\n` +
    `  const buckets = await new S3Client({}).send(new ListBucketsCommand({}));\n` +
    `  return { codeVersion: '${codeVersion}', event, functionName: context.functionName, buckets: (buckets.Buckets || []).map((b) => b.Name) };\n` +
    `};\n`,
);
// The site BucketDeployment copies: its page carries the same version, so the hotswap changes it too.
mkdirSync('site-src', { recursive: true });
writeFileSync('site-src/index.html', `<p>version ${codeVersion}</p>\n`);
new FunctionsStack(app, stackName, { autoDelete });
new WaiterStack(app, 'WaiterStack');
app.synth();
