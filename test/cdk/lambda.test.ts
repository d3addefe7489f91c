/**
 * The CDK CLI against a stack of Lambda-backed constructs (lambda-app/): `cdk deploy` runs the
 * custom resources for real — the AwsCustomResource's s3tables call answers with the table
 * bucket's id, the cr.Provider's inline function its Data (masked in the outputs when it answers
 * NoEcho), BucketDeployment's Python handler copies a site with the AWS CLI of its layer — and
 * the asset function, invoked with the SDK, lists buckets through the SDK inside the handler;
 * `cdk deploy --hotswap` swaps its code through UpdateFunctionCode (CloudFormation's template
 * stays as it was) and re-runs the BucketDeployment with the new page, and so does `cdk watch` on
 * start and on a change of the source; a full deploy of the same change leaves the
 * autoDeleteObjects bucket's objects alone; `cdk destroy` empties and removes that bucket, the
 * site's bucket and the layer. A second stack's cr.Provider with isComplete completes through the
 * framework's Step Functions state machine. Both assemblies are synthesized once, after
 * `cdk bootstrap`, and every deploy but the watch's runs from them.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeStacksCommand, GetTemplateCommand } from '@aws-sdk/client-cloudformation';
import { GetFunctionCommand, InvokeCommand, LambdaClient, ListFunctionsCommand, ListLayersCommand } from '@aws-sdk/client-lambda';
import { GetBucketTaggingCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetTableBucketCommand } from '@aws-sdk/client-s3tables';
import { ListExecutionsCommand, ListStateMachinesCommand, SFNClient } from '@aws-sdk/client-sfn';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import { CDK_BIN, cdk, cdkEnv, clients, compileApp, liveStacks, printedOutputs, tableBucketNames, type Clients } from './support.js';

const ENV = 'aws://000000000000/us-east-1';
const DEPLOY = ['deploy', '--require-approval', 'never'];
const STACK = 'FunctionsStack';
const WAITER = 'WaiterStack';
/** Each step runs the CDK CLI, which on a loaded 2-core machine takes well over vitest's default. */
const CLI_TEST_MS = 240_000;

let t: TestServer;
let c: Clients;
let lambda: LambdaClient;
let ssm: SSMClient;
let sfn: SFNClient;
let tmp: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let plainDir: string;
let v1: string;
let v2: string;
let outputs: Record<string, string> = {};

/** Runs the app (`node app.js`) as the CLI would, into `outdir`, with `context`. */
function synth(appDir: string, workDir: string, outdir: string, context: Record<string, string>): Promise<void> {
  mkdirSync(workDir, { recursive: true });
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [join(appDir, 'app.js')],
      { cwd: workDir, env: { ...env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify(context) }, timeout: 240_000 },
      (err, _stdout, stderr) => (err ? fail(new Error(`synth failed: ${stderr}`)) : done()),
    );
  });
}

async function invokeLister(): Promise<Record<string, any>> {
  const out = await lambda.send(new InvokeCommand({ FunctionName: outputs.ListerName, Payload: Buffer.from('{"probe":true}') }));
  expect(out.FunctionError, Buffer.from(out.Payload ?? []).toString()).toBeUndefined();
  return JSON.parse(Buffer.from(out.Payload!).toString()) as Record<string, any>;
}

/** The site bucket's objects and their text. */
async function siteFiles(): Promise<Record<string, string>> {
  const listed = await c.s3.send(new ListObjectsV2Command({ Bucket: outputs.SiteBucket }));
  const files: Record<string, string> = {};
  for (const o of listed.Contents ?? []) {
    files[o.Key!] = await (await c.s3.send(new GetObjectCommand({ Bucket: outputs.SiteBucket, Key: o.Key! }))).Body!.transformToString();
  }
  return files;
}

function expectOk(r: { code: number; output: string }): void {
  expect(r.code, r.output).toBe(0);
}

beforeAll(async () => {
  t = await startTestServer();
  c = clients(t);
  lambda = new LambdaClient({ ...t.clientConfig, maxAttempts: 1 });
  ssm = new SSMClient({ ...t.clientConfig, maxAttempts: 1 });
  sfn = new SFNClient({ ...t.clientConfig, maxAttempts: 1 });
  tmp = tempDir('overcast-cdk-lambda-');
  const appDir = join(tmp.path, 'app');
  plainDir = join(tmp.path, 'plain');
  mkdirSync(plainDir);
  compileApp(appDir, 'lambda-app');
  env = cdkEnv(t, t.endpoint, join(tmp.path, 'cdk-home'));
  v1 = join(tmp.path, 'assembly-v1');
  v2 = join(tmp.path, 'assembly-v2');
  // Bootstrap first: on a loaded machine the synths beside it starve the CLI's requests.
  expectOk(await cdk(['bootstrap', ENV], { cwd: plainDir, env, timeoutMs: 240_000 }));
  await Promise.all([
    synth(appDir, join(tmp.path, 'work-v1'), v1, { codeVersion: '1' }),
    synth(appDir, join(tmp.path, 'work-v2'), v2, { codeVersion: '2' }),
  ]);
}, 480_000);

afterAll(async () => {
  await t?.stop();
  tmp?.cleanup();
});

describe('Lambda-backed CDK constructs through the CDK CLI', () => {
  it('cdk deploy runs the custom resources: AwsCustomResource, cr.Provider and autoDeleteObjects', async () => {
    const r = await cdk([...DEPLOY, STACK, '--app', v1], { cwd: plainDir, env });
    expectOk(r);
    outputs = printedOutputs(r.output, STACK);
    // AwsCustomResource called s3tables GetTableBucket inside its function: the real answer.
    const tb = await c.s3t.send(new GetTableBucketCommand({ tableBucketARN: `arn:aws:s3tables:us-east-1:000000000000:bucket/functionsstack-tables` }));
    expect(outputs.LookedUpId).toBe(tb.tableBucketId);
    expect(outputs.LookedUpName).toBe('functionsstack-tables');
    // The Provider framework invoked the inline onEvent function and passed its Data on.
    expect(outputs.GreetingText).toBe('hello overcast');
    expect(outputs.GreetingId).toBe('greeting-overcast');
    // Its NoEcho answer masks the Data in the outputs, not for the SSM parameter that uses it.
    expect(outputs.SecretText).toBe('*****');
    const copy = await ssm.send(new GetParameterCommand({ Name: `/${STACK}/secret-copy` }));
    expect(copy.Parameter?.Value).toBe('hello hidden');
    // The bucket carries the tag the auto-delete handler checks before emptying it.
    const tags = await c.s3.send(new GetBucketTaggingCommand({ Bucket: outputs.UploadsBucket }));
    expect(tags.TagSet).toContainEqual({ Key: 'aws-cdk:auto-delete-objects', Value: 'true' });
    const fns = (await lambda.send(new ListFunctionsCommand({}))).Functions ?? [];
    expect(fns.map((f) => f.Runtime).sort()).toEqual(['nodejs20.x', 'nodejs20.x', 'nodejs24.x', 'nodejs24.x', 'nodejs24.x', 'python3.13']);
    // BucketDeployment's Python handler ran the AWS CLI from its layer: the site is in its bucket.
    expect(await siteFiles()).toEqual({ 'web/index.html': '<p>version 1</p>\n', 'web/robots.txt': 'User-agent: *' });
    const layers = (await lambda.send(new ListLayersCommand({}))).Layers ?? [];
    expect(layers.map((l) => l.LatestMatchingVersion?.Description)).toEqual(['/opt/awscli/aws']);

    // The asset function runs its code and reaches Overcast's S3 through the SDK the runtime provides.
    const got = await invokeLister();
    expect(got).toMatchObject({ codeVersion: '1', event: { probe: true }, functionName: outputs.ListerName });
    expect(got.buckets).toContain(outputs.UploadsBucket);
    for (const key of ['a.txt', 'nested/b.txt']) await c.s3.send(new PutObjectCommand({ Bucket: outputs.UploadsBucket, Key: key, Body: key }));
  }, CLI_TEST_MS);

  it('a cr.Provider with an isCompleteHandler completes through its Step Functions waiter; destroy removes it all', async () => {
    const r = await cdk([...DEPLOY, WAITER, '--app', v1], { cwd: plainDir, env });
    expectOk(r);
    const stack = (await c.cfn.send(new DescribeStacksCommand({ StackName: WAITER }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    // The Data comes from the isComplete handler, run by the framework's state machine.
    expect(printedOutputs(r.output, WAITER).WaitedDone).toBe('yes');
    const machines = (await sfn.send(new ListStateMachinesCommand({}))).stateMachines ?? [];
    expect(machines).toHaveLength(1);
    const runs = (await sfn.send(new ListExecutionsCommand({ stateMachineArn: machines[0]!.stateMachineArn }))).executions ?? [];
    expect(runs.map((e) => e.status)).toEqual(['SUCCEEDED']);
    expectOk(await cdk(['destroy', WAITER, '--force', '--app', v1], { cwd: plainDir, env }));
    expect(WAITER in (await liveStacks(c))).toBe(false);
    expect((await sfn.send(new ListStateMachinesCommand({}))).stateMachines).toEqual([]);
    const fns = (await lambda.send(new ListFunctionsCommand({}))).Functions ?? [];
    expect(fns.map((f) => f.FunctionName).filter((n) => n?.startsWith(WAITER))).toEqual([]);
  }, CLI_TEST_MS);

  it('cdk deploy --hotswap swaps the function code in place; the next invocation runs it', async () => {
    const before = await lambda.send(new GetFunctionCommand({ FunctionName: outputs.ListerName }));
    const templateBefore = await c.cfn.send(new GetTemplateCommand({ StackName: STACK }));
    const r = await cdk([...DEPLOY, STACK, '--hotswap', '--app', v2], { cwd: plainDir, env });
    expectOk(r);
    expect(r.output).toContain(`✨ AWS::Lambda::Function '${outputs.ListerName}' hotswapped!`);
    // The BucketDeployment is hotswapped too: the CLI invokes its function with the new sources.
    expect(r.output).toContain(`✨ Contents of AWS::S3::Bucket '${outputs.SiteBucket}' hotswapped!`);
    expect((await siteFiles())['web/index.html']).toBe('<p>version 2</p>\n');
    const after = await lambda.send(new GetFunctionCommand({ FunctionName: outputs.ListerName }));
    expect(after.Configuration!.CodeSha256).not.toBe(before.Configuration!.CodeSha256);
    expect(after.Configuration!.LastUpdateStatus).toBe('Successful');
    expect((await invokeLister()).codeVersion).toBe('2');
    // Hotswap goes around CloudFormation: the stored template is the one deployed before.
    expect((await c.cfn.send(new GetTemplateCommand({ StackName: STACK }))).TemplateBody).toBe(templateBefore.TemplateBody);
  }, CLI_TEST_MS);

  it('cdk watch hotswaps the function on start and again when its source changes', async () => {
    const dir = join(tmp.path, 'watch');
    compileApp(dir, 'lambda-app');
    writeFileSync(join(dir, 'cdk.json'), JSON.stringify({ app: 'node app.js', notices: false, watch: { include: ['version.txt'] } }));
    writeFileSync(join(dir, 'version.txt'), '3');
    const child = spawn(process.execPath, [CDK_BIN, 'watch', STACK, '--no-notices'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let exited = false;
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', () => (exited = true));
    const line = `✨ AWS::Lambda::Function '${outputs.ListerName}' hotswapped!`;
    const swapped = async (times: number): Promise<void> => {
      for (let i = 0; i < 2400 && !exited; i++) {
        if (output.split(line).length > times) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`cdk watch did not hotswap ${times} time(s):\n${output}`);
    };
    try {
      await swapped(1);
      expect((await invokeLister()).codeVersion).toBe('3');
      writeFileSync(join(dir, 'version.txt'), '4');
      await swapped(2);
      expect((await invokeLister()).codeVersion).toBe('4');
    } finally {
      child.kill();
    }
  }, CLI_TEST_MS);

  it('a full deploy of the change updates the stack and leaves the autoDeleteObjects bucket’s objects alone', async () => {
    const r = await cdk([...DEPLOY, STACK, '--app', v2], { cwd: plainDir, env });
    expectOk(r);
    const stack = (await c.cfn.send(new DescribeStacksCommand({ StackName: STACK }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    expect((await invokeLister()).codeVersion).toBe('2');
    const listed = await c.s3.send(new ListObjectsV2Command({ Bucket: outputs.UploadsBucket }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['a.txt', 'nested/b.txt']);
  }, CLI_TEST_MS);

  it('cdk destroy empties the autoDeleteObjects bucket and removes everything', async () => {
    const r = await cdk(['destroy', STACK, '--force', '--app', v2], { cwd: plainDir, env });
    expectOk(r);
    expect(r.output).toContain(`${STACK}: destroyed`);
    await expect(c.s3.send(new HeadBucketCommand({ Bucket: outputs.UploadsBucket }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
    expect((await lambda.send(new ListFunctionsCommand({}))).Functions).toEqual([]);
    expect((await lambda.send(new ListLayersCommand({}))).Layers).toEqual([]);
    await expect(c.s3.send(new HeadBucketCommand({ Bucket: outputs.SiteBucket }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    expect(await tableBucketNames(c)).toEqual([]);
    expect(await liveStacks(c)).toEqual({ CDKToolkit: 'CREATE_COMPLETE' });
  }, CLI_TEST_MS);
});
