/**
 * The Lambda API through the SDK's Lambda client and the aws CLI v1, with zips made in the test:
 * create (zip bytes and an S3 object), get, list with paging, configuration and code updates,
 * versions, aliases, permissions, tags and delete — the shapes and defaults AWS answers with, and
 * AWS's errors (status, code, message) for a client's mistakes, which change nothing.
 */
import {
  AddPermissionCommand,
  CreateAliasCommand,
  CreateFunctionCommand,
  DeleteAliasCommand,
  DeleteFunctionCommand,
  GetAliasCommand,
  GetFunctionCommand,
  GetFunctionConfigurationCommand,
  GetPolicyCommand,
  InvokeCommand,
  LambdaClient,
  ListAliasesCommand,
  ListFunctionsCommand,
  ListTagsCommand,
  ListVersionsByFunctionCommand,
  PublishVersionCommand,
  RemovePermissionCommand,
  UpdateAliasCommand,
  UpdateFunctionCodeCommand,
  UpdateFunctionConfigurationCommand,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { strToU8, zipSync } from 'fflate';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aws } from '../cloudformation/support.js';
import { failure } from '../helpers/errors.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';

const ROLE = 'arn:aws:iam::000000000000:role/fn-role';
const ARN = 'arn:aws:lambda:us-east-1:000000000000:function';

let t: TestServer;
let lambda: LambdaClient;

function zipOf(source: string, file = 'index.js'): Uint8Array {
  return zipSync({ [file]: strToU8(source) });
}

const zips = new Map<number, Uint8Array>();
/** The package of a function answering `{v: n}` (made once: a zip's bytes carry the time it was made). */
function v(n: number): Uint8Array {
  if (!zips.has(n)) zips.set(n, zipOf(`exports.handler = async () => ({ v: ${n} });`));
  return zips.get(n)!;
}

async function call(name: string, qualifier?: string): Promise<unknown> {
  const out = await lambda.send(new InvokeCommand({ FunctionName: name, Qualifier: qualifier }));
  return JSON.parse(Buffer.from(out.Payload!).toString());
}

beforeAll(async () => {
  t = await startTestServer();
  lambda = new LambdaClient({ ...t.clientConfig, maxAttempts: 1 });
});

afterAll(async () => {
  await t?.stop();
});

describe('functions', () => {
  it('CreateFunction answers 201 with the configuration and Lambda’s defaults; GetFunction adds Code and Tags', async () => {
    const created = await lambda.send(
      new CreateFunctionCommand({
        FunctionName: 'basic',
        Role: ROLE,
        Runtime: 'nodejs20.x',
        Handler: 'index.handler',
        Code: { ZipFile: v(1) },
        Environment: { Variables: { STAGE: 'dev' } },
        Tags: { team: 'data' },
      }),
    );
    expect(created.$metadata.httpStatusCode).toBe(201);
    expect(created).toMatchObject({
      FunctionName: 'basic',
      FunctionArn: `${ARN}:basic`,
      Timeout: 3,
      MemorySize: 128,
      Version: '$LATEST',
      State: 'Active',
      LastUpdateStatus: 'Successful',
      PackageType: 'Zip',
      Architectures: ['x86_64'],
      Environment: { Variables: { STAGE: 'dev' } },
    });
    expect(created.CodeSha256).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(created.LastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);

    const got = await lambda.send(new GetFunctionCommand({ FunctionName: 'basic' }));
    const { $metadata: _, ...configuration } = created;
    expect(got.Configuration).toEqual(configuration);
    expect(got.Tags).toEqual({ team: 'data' });
    // Code.Location is a URL the caller can download the package from.
    const zip = Buffer.from(await (await fetch(got.Code!.Location!)).arrayBuffer());
    expect(zip.equals(Buffer.from(v(1)))).toBe(true);
    // Any form of the name finds the function.
    for (const name of [`${ARN}:basic`, '000000000000:function:basic']) {
      expect((await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name }))).FunctionName).toBe('basic');
    }
  });

  it('code from an S3 object; a missing object or bucket is InvalidParameterValueException', async () => {
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    await s3.send(new CreateBucketCommand({ Bucket: 'code-bucket' }));
    await s3.send(new PutObjectCommand({ Bucket: 'code-bucket', Key: 'fn.zip', Body: v(7) }));
    const base = { Role: ROLE, Runtime: 'nodejs22.x' as const, Handler: 'index.handler' };
    await lambda.send(new CreateFunctionCommand({ ...base, FunctionName: 'from-s3', Code: { S3Bucket: 'code-bucket', S3Key: 'fn.zip' } }));
    expect(await call('from-s3')).toEqual({ v: 7 });
    const missing = await failure(
      lambda.send(new CreateFunctionCommand({ ...base, FunctionName: 'nope', Code: { S3Bucket: 'code-bucket', S3Key: 'missing.zip' } })),
    );
    expect(missing).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(missing.message).toContain('S3 Error Code: NoSuchKey');
    await expect(lambda.send(new GetFunctionCommand({ FunctionName: 'nope' }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('errors: a duplicate name, an unknown function, a retired runtime, a bad name, a stale RevisionId', async () => {
    const dup = await failure(
      lambda.send(new CreateFunctionCommand({ FunctionName: 'basic', Role: ROLE, Runtime: 'nodejs20.x', Handler: 'index.handler', Code: { ZipFile: v(1) } })),
    );
    expect(dup).toMatchObject({ name: 'ResourceConflictException', status: 409, message: `Function already exist: basic` });
    const missing = await failure(lambda.send(new GetFunctionCommand({ FunctionName: 'ghost' })));
    expect(missing).toMatchObject({ name: 'ResourceNotFoundException', status: 404, message: `Function not found: ${ARN}:ghost` });
    const old = await failure(
      lambda.send(new CreateFunctionCommand({ FunctionName: 'old', Role: ROLE, Runtime: 'nodejs10.x', Handler: 'index.handler', Code: { ZipFile: v(1) } })),
    );
    expect(old).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
    expect(old.message).toContain('The runtime parameter of nodejs10.x is no longer supported');
    const badName = await failure(lambda.send(new GetFunctionCommand({ FunctionName: 'bad name!' })));
    expect(badName.status).toBe(400);
    const stale = await failure(
      lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'basic', Timeout: 9, RevisionId: '00000000-0000-0000-0000-000000000000' })),
    );
    expect(stale).toMatchObject({ name: 'PreconditionFailedException', status: 412 });
    expect((await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'basic' }))).Timeout).toBe(3);
    expect((await lambda.send(new ListFunctionsCommand({}))).Functions?.map((f) => f.FunctionName).sort()).toEqual(['basic', 'from-s3']);
  });

  it('UpdateFunctionConfiguration replaces the environment; UpdateFunctionCode makes the next invocation run the new code', async () => {
    const before = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'basic' }));
    const conf = await lambda.send(
      new UpdateFunctionConfigurationCommand({ FunctionName: 'basic', Timeout: 10, Environment: { Variables: { OTHER: 'x' } }, Description: 'd' }),
    );
    expect(conf).toMatchObject({ Timeout: 10, Environment: { Variables: { OTHER: 'x' } }, Description: 'd', LastUpdateStatus: 'Successful' });
    expect(conf.RevisionId).not.toBe(before.RevisionId);
    expect(await call('basic')).toEqual({ v: 1 });
    const code = await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'basic', ZipFile: v(2) }));
    expect(code.CodeSha256).not.toBe(before.CodeSha256);
    expect(await call('basic')).toEqual({ v: 2 });
  });

  it('ListFunctions pages with MaxItems and Marker', async () => {
    const first = await lambda.send(new ListFunctionsCommand({ MaxItems: 1 }));
    expect(first.Functions).toHaveLength(1);
    expect(first.NextMarker).toBeTruthy();
    const second = await lambda.send(new ListFunctionsCommand({ MaxItems: 1, Marker: first.NextMarker }));
    expect(second.Functions).toHaveLength(1);
    expect(second.Functions![0]!.FunctionName).not.toBe(first.Functions![0]!.FunctionName);
    expect(second.NextMarker).toBeUndefined();
  });
});

describe('versions, aliases, permissions, tags', () => {
  it('PublishVersion snapshots $LATEST; an alias routes to a version and follows UpdateAlias', async () => {
    const v1 = await lambda.send(new PublishVersionCommand({ FunctionName: 'basic', Description: 'first' }));
    expect(v1.$metadata.httpStatusCode).toBe(201);
    expect(v1).toMatchObject({ Version: '1', FunctionArn: `${ARN}:basic:1`, Description: 'first' });
    // Nothing changed since: the same version again.
    expect((await lambda.send(new PublishVersionCommand({ FunctionName: 'basic' }))).Version).toBe('1');
    await lambda.send(new UpdateFunctionCodeCommand({ FunctionName: 'basic', ZipFile: v(3) }));
    const v2 = await lambda.send(new PublishVersionCommand({ FunctionName: 'basic' }));
    expect(v2.Version).toBe('2');
    const versions = await lambda.send(new ListVersionsByFunctionCommand({ FunctionName: 'basic' }));
    expect(versions.Versions?.map((x) => x.Version)).toEqual(['$LATEST', '1', '2']);

    const alias = await lambda.send(new CreateAliasCommand({ FunctionName: 'basic', Name: 'live', FunctionVersion: '1' }));
    expect(alias).toMatchObject({ AliasArn: `${ARN}:basic:live`, Name: 'live', FunctionVersion: '1' });
    expect(await call('basic', 'live')).toEqual({ v: 2 });
    expect(await call('basic', '2')).toEqual({ v: 3 });
    const out = await lambda.send(new InvokeCommand({ FunctionName: 'basic:live' }));
    expect(out.ExecutedVersion).toBe('1');
    await lambda.send(new UpdateAliasCommand({ FunctionName: 'basic', Name: 'live', FunctionVersion: '2' }));
    expect((await lambda.send(new GetAliasCommand({ FunctionName: 'basic', Name: 'live' }))).FunctionVersion).toBe('2');
    expect(await call('basic', 'live')).toEqual({ v: 3 });
    const bad = await failure(lambda.send(new CreateAliasCommand({ FunctionName: 'basic', Name: 'x', FunctionVersion: '9' })));
    expect(bad).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });

    // ListAliases for one version pages over that version's aliases only: full pages, no alias lost.
    for (const [name, version] of [['a1', '1'], ['a2', '2'], ['a3', '1'], ['a4', '1']]) {
      await lambda.send(new CreateAliasCommand({ FunctionName: 'basic', Name: name, FunctionVersion: version }));
    }
    const first = await lambda.send(new ListAliasesCommand({ FunctionName: 'basic', FunctionVersion: '1', MaxItems: 2 }));
    expect(first.Aliases?.map((a) => a.Name)).toEqual(['a1', 'a3']);
    const second = await lambda.send(new ListAliasesCommand({ FunctionName: 'basic', FunctionVersion: '1', MaxItems: 2, Marker: first.NextMarker }));
    expect(second.Aliases?.map((a) => a.Name)).toEqual(['a4']);
    expect(second.NextMarker).toBeUndefined();
    for (const name of ['a1', 'a2', 'a3', 'a4']) await lambda.send(new DeleteAliasCommand({ FunctionName: 'basic', Name: name }));
  });

  it('AddPermission, GetPolicy and RemovePermission keep the resource policy', async () => {
    const noPolicy = await failure(lambda.send(new GetPolicyCommand({ FunctionName: 'from-s3' })));
    expect(noPolicy).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    const added = await lambda.send(
      new AddPermissionCommand({ FunctionName: 'from-s3', StatementId: 's1', Action: 'lambda:InvokeFunction', Principal: 's3.amazonaws.com' }),
    );
    expect(added.$metadata.httpStatusCode).toBe(201);
    expect(JSON.parse(added.Statement!)).toMatchObject({ Sid: 's1', Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: `${ARN}:from-s3` });
    const dup = await failure(
      lambda.send(new AddPermissionCommand({ FunctionName: 'from-s3', StatementId: 's1', Action: 'lambda:InvokeFunction', Principal: '*' })),
    );
    expect(dup).toMatchObject({ name: 'ResourceConflictException', status: 409 });
    const policy = JSON.parse((await lambda.send(new GetPolicyCommand({ FunctionName: 'from-s3' }))).Policy!);
    expect(policy.Statement.map((s: { Sid: string }) => s.Sid)).toEqual(['s1']);
    await lambda.send(new RemovePermissionCommand({ FunctionName: 'from-s3', StatementId: 's1' }));
    const gone = await failure(lambda.send(new RemovePermissionCommand({ FunctionName: 'from-s3', StatementId: 's1' })));
    expect(gone).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });

  it('ListTags by function ARN', async () => {
    expect((await lambda.send(new ListTagsCommand({ Resource: `${ARN}:basic` }))).Tags).toEqual({ team: 'data' });
  });

  it('DeleteFunction with a qualifier removes that version; without, the function, its versions and aliases', async () => {
    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'basic', Qualifier: '1' }));
    const versions = await lambda.send(new ListVersionsByFunctionCommand({ FunctionName: 'basic' }));
    expect(versions.Versions?.map((x) => x.Version)).toEqual(['$LATEST', '2']);
    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'basic' }));
    await expect(lambda.send(new GetAliasCommand({ FunctionName: 'basic', Name: 'live' }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    const again = await failure(lambda.send(new DeleteFunctionCommand({ FunctionName: 'basic' })));
    expect(again).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
  });
});

describe('the aws CLI v1', () => {
  it('create-function from a zip file, invoke with a payload and a log tail, an error', async () => {
    const dir = tempDir();
    try {
      const zip = join(dir.path, 'fn.zip');
      writeFileSync(zip, zipOf('exports.handler = async (e) => ({ doubled: e.n * 2 });'));
      const created = await aws(t, [
        'lambda', 'create-function', '--function-name', 'cli-fn', '--runtime', 'nodejs20.x', '--handler', 'index.handler',
        '--role', ROLE, '--zip-file', `fileb://${zip}`,
      ]);
      expect(created.code, created.stderr).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ FunctionName: 'cli-fn', State: 'Active' });
      const out = join(dir.path, 'out.json');
      const invoked = await aws(t, ['lambda', 'invoke', '--function-name', 'cli-fn', '--payload', '{"n":21}', '--log-type', 'Tail', out]);
      expect(invoked.code, invoked.stderr).toBe(0);
      const meta = JSON.parse(invoked.stdout) as { StatusCode: number; LogResult: string; ExecutedVersion: string };
      expect(meta).toMatchObject({ StatusCode: 200, ExecutedVersion: '$LATEST' });
      expect(Buffer.from(meta.LogResult, 'base64').toString()).toMatch(/^START RequestId: [0-9a-f-]{36} Version: \$LATEST/);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ doubled: 42 });
      const missing = await aws(t, ['lambda', 'get-function', '--function-name', 'nope']);
      expect(missing.code).toBe(255);
      expect(missing.stderr).toContain('An error occurred (ResourceNotFoundException) when calling the GetFunction operation: Function not found');
    } finally {
      dir.cleanup();
    }
  });
});
