/**
 * Handlers run as Lambda's Node.js runtime runs them, invoked through the SDK's Lambda client:
 * the context and environment a handler sees, callback and async styles, `.mjs` and nested
 * handlers, warm reuse of one process, the AWS SDK v3 importable without bundling and pointed at
 * Overcast, Event and DryRun, and the failures — a handler that throws, one that hangs past its
 * timeout, one that exits the process, a missing handler or module, a syntax error, a zip that
 * cannot be opened — each answered in Lambda's error shape while the server stays up. Python
 * handlers run on the machine's python3 with boto3.
 */
import { CreateFunctionCommand, InvokeCommand, LambdaClient, type Runtime } from '@aws-sdk/client-lambda';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../helpers/errors.js';
import { hasPythonWithBoto3 } from '../helpers/python.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let lambda: LambdaClient;

async function fn(name: string, files: Record<string, string>, extra: { Handler?: string; Timeout?: number; Runtime?: Runtime; Env?: Record<string, string> } = {}) {
  const zip = zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));
  await lambda.send(
    new CreateFunctionCommand({
      FunctionName: name,
      Role: 'arn:aws:iam::000000000000:role/r',
      Runtime: extra.Runtime ?? 'nodejs20.x',
      Handler: extra.Handler ?? 'index.handler',
      Code: { ZipFile: zip },
      ...(extra.Timeout ? { Timeout: extra.Timeout } : {}),
      ...(extra.Env ? { Environment: { Variables: extra.Env } } : {}),
    }),
  );
}

async function run(name: string, payload: unknown = {}) {
  const out = await lambda.send(new InvokeCommand({ FunctionName: name, Payload: Buffer.from(JSON.stringify(payload)), LogType: 'Tail' }));
  return {
    status: out.StatusCode,
    error: out.FunctionError,
    body: JSON.parse(Buffer.from(out.Payload ?? Buffer.from('null')).toString() || 'null') as any,
    log: Buffer.from(out.LogResult ?? '', 'base64').toString(),
  };
}

beforeAll(async () => {
  t = await startTestServer();
  lambda = new LambdaClient({ ...t.clientConfig, maxAttempts: 1 });
});

afterAll(async () => {
  await t?.stop();
});

describe('handlers', () => {
  it('see Lambda’s context and environment, and log with the request id', async () => {
    await fn(
      'ctx',
      {
        'index.js': `exports.handler = async (event, context) => {
          console.log('got', JSON.stringify(event));
          return { event, requestId: context.awsRequestId, arn: context.invokedFunctionArn, name: context.functionName,
            version: context.functionVersion, memory: context.memoryLimitInMB, left: context.getRemainingTimeInMillis(),
            stream: context.logStreamName, group: context.logGroupName,
            env: { region: process.env.AWS_REGION, fn: process.env.AWS_LAMBDA_FUNCTION_NAME, stage: process.env.STAGE,
              endpoint: process.env.AWS_ENDPOINT_URL, key: process.env.AWS_ACCESS_KEY_ID, handler: process.env._HANDLER,
              root: process.env.LAMBDA_TASK_ROOT, cwd: process.cwd() } };
        };`,
      },
      { Timeout: 5, Env: { STAGE: 'dev' } },
    );
    const r = await run('ctx', { a: 1 });
    expect(r.status).toBe(200);
    expect(r.error).toBeUndefined();
    expect(r.body).toMatchObject({
      event: { a: 1 },
      arn: 'arn:aws:lambda:us-east-1:000000000000:function:ctx',
      name: 'ctx',
      version: '$LATEST',
      memory: '128',
      group: '/aws/lambda/ctx',
      env: { region: 'us-east-1', fn: 'ctx', stage: 'dev', endpoint: t.endpoint, key: '000000000000', handler: 'index.handler' },
    });
    expect(r.body.left).toBeGreaterThan(4000);
    expect(r.body.left).toBeLessThanOrEqual(5000);
    expect(r.body.stream).toMatch(/^\d{4}\/\d\d\/\d\d\/\[\$LATEST\][0-9a-f]{32}$/);
    expect(r.body.env.cwd).toBe(r.body.env.root);
    expect(r.log).toContain(`START RequestId: ${r.body.requestId} Version: $LATEST`);
    expect(r.log).toMatch(new RegExp(`\\t${r.body.requestId}\\tINFO\\tgot {"a":1}`));
    expect(r.log).toMatch(new RegExp(`REPORT RequestId: ${r.body.requestId}\\tDuration: [\\d.]+ ms`));
  });

  it('callback style, .mjs modules, nested paths and export paths resolve as Lambda resolves them', async () => {
    await fn('cb', { 'index.js': `exports.handler = (event, context, callback) => { setTimeout(() => callback(null, { cb: event.n + 1 }), 5); };` });
    expect((await run('cb', { n: 1 })).body).toEqual({ cb: 2 });
    await fn('esm', { 'app.mjs': `export const handler = async () => ({ esm: typeof require });` }, { Handler: 'app.handler' });
    expect((await run('esm')).body).toEqual({ esm: 'undefined' });
    await fn('nested', { 'src/lib/app.js': `exports.lambda = { handler: async () => 'deep' };` }, { Handler: 'src/lib/app.lambda.handler' });
    expect((await run('nested')).body).toBe('deep');
    await fn('nothing', { 'index.js': `exports.handler = () => {};` });
    expect(await run('nothing')).toMatchObject({ error: undefined, body: null });
  });

  it('a warm process is reused: module state survives between invocations', async () => {
    await fn('warm', { 'index.js': `let n = 0; exports.handler = async () => ({ n: ++n, pid: process.pid });` });
    const a = (await run('warm')).body;
    const b = (await run('warm')).body;
    expect(b).toEqual({ n: a.n + 1, pid: a.pid });
  });

  it('import the AWS SDK v3 without bundling it; its calls reach Overcast', async () => {
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    await fn('sdk', {
      'index.mjs': `import { S3Client, CreateBucketCommand } from '@aws-sdk/client-s3';
        import { S3TablesClient, CreateTableBucketCommand } from '@aws-sdk/client-s3tables';
        export const handler = async (e) => {
          await new S3Client({}).send(new CreateBucketCommand({ Bucket: e.bucket }));
          const tb = await new S3TablesClient({}).send(new CreateTableBucketCommand({ name: e.bucket }));
          return { arn: tb.arn };
        };`,
    });
    const r = await run('sdk', { bucket: 'made-by-lambda' });
    expect(r.error, JSON.stringify(r.body)).toBeUndefined();
    expect(r.body.arn).toBe('arn:aws:s3tables:us-east-1:000000000000:bucket/made-by-lambda');
    expect((await s3.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toContain('made-by-lambda');
  });

  it('Event answers 202 and runs the function; DryRun answers 204 and runs nothing', async () => {
    await fn('events', { 'index.js': `const {S3Client, CreateBucketCommand} = require('@aws-sdk/client-s3'); exports.handler = async (e) => { await new S3Client({}).send(new CreateBucketCommand({ Bucket: e.b })); };` });
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    const dry = await lambda.send(new InvokeCommand({ FunctionName: 'events', InvocationType: 'DryRun', Payload: Buffer.from('{"b":"dry-bucket"}') }));
    expect(dry.StatusCode).toBe(204);
    const ev = await lambda.send(new InvokeCommand({ FunctionName: 'events', InvocationType: 'Event', Payload: Buffer.from('{"b":"event-bucket"}') }));
    expect(ev.StatusCode).toBe(202);
    let names: string[] = [];
    for (let i = 0; i < 100 && !names.includes('event-bucket'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      names = ((await s3.send(new ListBucketsCommand({}))).Buckets ?? []).map((b) => b.Name!);
    }
    expect(names).toContain('event-bucket');
    expect(names).not.toContain('dry-bucket');
    const notJson = await failure(lambda.send(new InvokeCommand({ FunctionName: 'events', Payload: Buffer.from('{nope') })));
    expect(notJson).toMatchObject({ name: 'InvalidRequestContentException', status: 400 });
  });
});

describe('failures answer in Lambda’s error shape and the server stays up', () => {
  it('a thrown error: FunctionError Unhandled with errorType, errorMessage and trace', async () => {
    await fn('throws', { 'index.js': `class BadThing extends Error { constructor(m) { super(m); this.name = 'BadThing'; } }
      exports.handler = async () => { throw new BadThing('it broke'); };` });
    const r = await run('throws');
    expect(r.status).toBe(200);
    expect(r.error).toBe('Unhandled');
    expect(r.body).toMatchObject({ errorType: 'BadThing', errorMessage: 'it broke' });
    expect(r.body.trace[0]).toBe('BadThing: it broke');
  });

  it('a handler hanging past its timeout is stopped: Sandbox.Timedout; the next invocation starts afresh', async () => {
    await fn('hangs', { 'index.js': `let calls = 0; exports.handler = async (e) => { calls++; if (e.hang) await new Promise(() => setInterval(() => {}, 1000)); return { calls }; };` }, { Timeout: 1 });
    // Enforced at 1 s, not at Lambda's maximum: the test's own time limit would end it first.
    const r = await run('hangs', { hang: true });
    expect(r.error).toBe('Unhandled');
    expect(r.body).toEqual({ errorType: 'Sandbox.Timedout', errorMessage: expect.stringMatching(/^RequestId: [0-9a-f-]{36} Error: Task timed out after 1\.00 seconds$/) });
    expect((await run('hangs')).body).toEqual({ calls: 1 });
  });

  it('a handler that exits the process fails that invocation; the next one runs in a new process', async () => {
    await fn('exits', { 'index.js': `exports.handler = async (e) => { if (e.exit) process.exit(3); return { pid: process.pid }; };` });
    const first = (await run('exits')).body.pid;
    const r = await run('exits', { exit: true });
    expect(r.error).toBe('Unhandled');
    expect(r.body.errorType).toBe('Runtime.ExitError');
    expect(r.body.errorMessage).toContain('exit status 3');
    const next = (await run('exits')).body.pid;
    expect(next).not.toBe(first);
    expect(() => process.kill(first, 0)).toThrow();
  });

  it('a missing handler, a missing module, a syntax error and a malformed handler name', async () => {
    await fn('no-export', { 'index.js': `exports.other = () => 1;` });
    expect((await run('no-export')).body).toMatchObject({ errorType: 'Runtime.HandlerNotFound', errorMessage: 'index.handler is undefined or not exported' });
    await fn('no-module', { 'index.js': `exports.handler = () => 1;` }, { Handler: 'missing.handler' });
    const missing = await run('no-module');
    expect(missing).toMatchObject({ error: 'Unhandled', body: { errorType: 'Runtime.ImportModuleError' } });
    expect(missing.body.errorMessage).toContain("Cannot find module 'missing'");
    await fn('syntax', { 'index.js': `exports.handler = async () => { return {;` });
    expect((await run('syntax')).body.errorType).toBe('Runtime.UserCodeSyntaxError');
    await fn('dots', { 'index.js': `exports.handler = () => 1;` }, { Handler: '../index.handler' });
    expect((await run('dots')).body.errorType).toBe('Runtime.MalformedHandlerName');
  });

  it('a zip that cannot be opened is refused at CreateFunction', async () => {
    const bad = await failure(
      lambda.send(
        new CreateFunctionCommand({ FunctionName: 'badzip', Role: 'arn:aws:iam::000000000000:role/r', Runtime: 'nodejs20.x', Handler: 'index.handler', Code: { ZipFile: Buffer.from('not a zip at all') } }),
      ),
    );
    expect(bad).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(bad.message).toContain('Could not unzip uploaded file');
  });
});

describe.runIf(hasPythonWithBoto3)('Python handlers (python3 with boto3 on this machine)', () => {
  it('run with the event and context, and boto3 reaches Overcast', async () => {
    await fn(
      'py',
      {
        'app.py': `import boto3, os
def handler(event, context):
    boto3.client('s3').create_bucket(Bucket=event['bucket'])
    return {'fn': context.function_name, 'region': os.environ['AWS_REGION'], 'left': context.get_remaining_time_in_millis() > 0}
`,
      },
      { Runtime: 'python3.12', Handler: 'app.handler', Timeout: 30 },
    );
    const r = await run('py', { bucket: 'made-by-python' });
    expect(r.error, JSON.stringify(r.body)).toBeUndefined();
    expect(r.body).toEqual({ fn: 'py', region: 'us-east-1', left: true });
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    expect((await s3.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toContain('made-by-python');
  });
});
