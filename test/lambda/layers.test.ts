/**
 * Lambda layers through the SDK's Lambda client, with zips made in the test: PublishLayerVersion
 * (inline and from S3) and its numbering, the reads and listings with their filters and pages,
 * deletes, layer permissions, and functions that use layers — Node.js finding a layer's
 * `nodejs/node_modules`, Python its `python` folder and `/opt/...` programs, later layers winning,
 * and a deleted layer version still serving the functions that use it — plus AWS's errors.
 */
import {
  AddLayerVersionPermissionCommand,
  CreateFunctionCommand,
  DeleteFunctionCommand,
  DeleteLayerVersionCommand,
  GetFunctionConfigurationCommand,
  GetLayerVersionByArnCommand,
  GetLayerVersionCommand,
  GetLayerVersionPolicyCommand,
  InvokeCommand,
  LambdaClient,
  ListLayersCommand,
  ListLayerVersionsCommand,
  PublishLayerVersionCommand,
  RemoveLayerVersionPermissionCommand,
  UpdateFunctionConfigurationCommand,
} from '@aws-sdk/client-lambda';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { strToU8, zipSync } from 'fflate';
import { failure } from '../helpers/errors.js';
import { hasPythonWithBoto3 } from '../helpers/python.js';
import { describe, expect, it } from '../helpers/fixture.js';

const ROLE = 'arn:aws:iam::000000000000:role/fn-role';
const LAYER = 'arn:aws:lambda:us-east-1:000000000000:layer';

let client: LambdaClient | undefined;
function lambdaOf(server: { clientConfig: object }): LambdaClient {
  client ??= new LambdaClient({ ...server.clientConfig, maxAttempts: 1 });
  return client;
}

function zip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));
}

async function invoke(lambda: LambdaClient, name: string): Promise<{ body: unknown; error?: string }> {
  const out = await lambda.send(new InvokeCommand({ FunctionName: name }));
  return { body: JSON.parse(Buffer.from(out.Payload!).toString()), ...(out.FunctionError ? { error: out.FunctionError } : {}) };
}

describe('layer versions', () => {
  it('PublishLayerVersion numbers versions from 1, never reusing one, and answers Lambda’s shape', async ({ server, s3 }) => {
    const lambda = lambdaOf(server);
    const first = await lambda.send(
      new PublishLayerVersionCommand({
        LayerName: 'shared',
        Description: 'first',
        Content: { ZipFile: zip({ 'nodejs/node_modules/shared-lib/index.js': 'module.exports = "v1";' }) },
        CompatibleRuntimes: ['nodejs20.x', 'nodejs22.x'],
        CompatibleArchitectures: ['x86_64'],
        LicenseInfo: 'MIT',
      }),
    );
    expect(first.$metadata.httpStatusCode).toBe(201);
    expect(first).toMatchObject({
      LayerArn: `${LAYER}:shared`,
      LayerVersionArn: `${LAYER}:shared:1`,
      Version: 1,
      Description: 'first',
      CompatibleRuntimes: ['nodejs20.x', 'nodejs22.x'],
      CompatibleArchitectures: ['x86_64'],
      LicenseInfo: 'MIT',
    });
    expect(first.CreatedDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
    expect(first.Content?.CodeSha256).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(first.Content?.CodeSize).toBeGreaterThan(0);
    const location = await fetch(first.Content!.Location!);
    expect(Buffer.from(await location.arrayBuffer()).length).toBe(first.Content!.CodeSize);

    await s3.send(new CreateBucketCommand({ Bucket: 'layer-assets' }));
    await s3.send(new PutObjectCommand({ Bucket: 'layer-assets', Key: 'v2.zip', Body: zip({ 'nodejs/node_modules/shared-lib/index.js': 'module.exports = "v2";' }) }));
    const second = await lambda.send(new PublishLayerVersionCommand({ LayerName: `${LAYER}:shared`, Content: { S3Bucket: 'layer-assets', S3Key: 'v2.zip' }, CompatibleRuntimes: ['python3.12'] }));
    expect(second.Version).toBe(2);
    await lambda.send(new DeleteLayerVersionCommand({ LayerName: 'shared', VersionNumber: 2 }));
    await lambda.send(new DeleteLayerVersionCommand({ LayerName: 'shared', VersionNumber: 2 })); // idempotent, as AWS's
    const third = await lambda.send(new PublishLayerVersionCommand({ LayerName: 'shared', Content: { ZipFile: zip({ 'nodejs/node_modules/shared-lib/index.js': 'module.exports = "v3";' }) } }));
    expect(third.Version).toBe(3);

    const got = await lambda.send(new GetLayerVersionCommand({ LayerName: 'shared', VersionNumber: 1 }));
    expect(got).toMatchObject({ LayerVersionArn: `${LAYER}:shared:1`, Version: 1, Content: { CodeSha256: first.Content!.CodeSha256, CodeSize: first.Content!.CodeSize } });
    const byArn = await lambda.send(new GetLayerVersionByArnCommand({ Arn: `${LAYER}:shared:3` }));
    expect(byArn.Version).toBe(3);
    for (const missing of [
      () => lambda.send(new GetLayerVersionCommand({ LayerName: 'shared', VersionNumber: 2 })),
      () => lambda.send(new GetLayerVersionByArnCommand({ Arn: `${LAYER}:nope:1` })),
    ]) {
      expect(await failure(missing())).toMatchObject({ name: 'ResourceNotFoundException', status: 404, message: 'The resource you requested does not exist.' });
    }
  });

  it('ListLayerVersions answers newest first in pages; ListLayers each layer’s newest matching version', async ({ server }) => {
    const lambda = lambdaOf(server);
    const all = await lambda.send(new ListLayerVersionsCommand({ LayerName: 'shared' }));
    expect(all.LayerVersions?.map((v) => v.Version)).toEqual([3, 1]);
    const page1 = await lambda.send(new ListLayerVersionsCommand({ LayerName: 'shared', MaxItems: 1 }));
    expect(page1.LayerVersions?.map((v) => v.Version)).toEqual([3]);
    const page2 = await lambda.send(new ListLayerVersionsCommand({ LayerName: 'shared', MaxItems: 1, Marker: page1.NextMarker }));
    expect(page2.LayerVersions?.map((v) => v.Version)).toEqual([1]);
    expect(page2.NextMarker).toBeUndefined();
    const node22 = await lambda.send(new ListLayerVersionsCommand({ LayerName: 'shared', CompatibleRuntime: 'nodejs22.x' }));
    expect(node22.LayerVersions?.map((v) => v.Version)).toEqual([1]);
    expect((await lambda.send(new ListLayerVersionsCommand({ LayerName: 'never-published' }))).LayerVersions).toEqual([]);

    await lambda.send(new PublishLayerVersionCommand({ LayerName: 'another', Content: { ZipFile: zip({ 'bin/x': 'x' }) } }));
    const layers = await lambda.send(new ListLayersCommand({}));
    expect(layers.Layers?.map((l) => [l.LayerName, l.LatestMatchingVersion?.Version])).toEqual([
      ['another', 1],
      ['shared', 3],
    ]);
    expect(layers.Layers?.[1]).toMatchObject({ LayerArn: `${LAYER}:shared`, LatestMatchingVersion: { LayerVersionArn: `${LAYER}:shared:3` } });
    const filtered = await lambda.send(new ListLayersCommand({ CompatibleRuntime: 'nodejs20.x' }));
    expect(filtered.Layers?.map((l) => [l.LayerName, l.LatestMatchingVersion?.Version])).toEqual([['shared', 1]]);
    const first = await lambda.send(new ListLayersCommand({ MaxItems: 1 }));
    const rest = await lambda.send(new ListLayersCommand({ MaxItems: 1, Marker: first.NextMarker }));
    expect([...first.Layers!, ...rest.Layers!].map((l) => l.LayerName)).toEqual(['another', 'shared']);
  });

  it('keeps a resource policy per version: Add, Get and RemoveLayerVersionPermission', async ({ server }) => {
    const lambda = lambdaOf(server);
    const none = await failure(lambda.send(new GetLayerVersionPolicyCommand({ LayerName: 'shared', VersionNumber: 1 })));
    expect(none).toMatchObject({ name: 'ResourceNotFoundException', status: 404 });
    const added = await lambda.send(
      new AddLayerVersionPermissionCommand({ LayerName: 'shared', VersionNumber: 1, StatementId: 'xaccount', Action: 'lambda:GetLayerVersion', Principal: '111122223333' }),
    );
    expect(JSON.parse(added.Statement!)).toEqual({
      Sid: 'xaccount',
      Effect: 'Allow',
      Principal: { AWS: 'arn:aws:iam::111122223333:root' },
      Action: 'lambda:GetLayerVersion',
      Resource: `${LAYER}:shared:1`,
    });
    const again = await failure(
      lambda.send(new AddLayerVersionPermissionCommand({ LayerName: 'shared', VersionNumber: 1, StatementId: 'xaccount', Action: 'lambda:GetLayerVersion', Principal: '*' })),
    );
    expect(again).toMatchObject({ name: 'ResourceConflictException', status: 409 });
    const policy = await lambda.send(new GetLayerVersionPolicyCommand({ LayerName: 'shared', VersionNumber: 1 }));
    expect(JSON.parse(policy.Policy!)).toMatchObject({ Version: '2012-10-17', Statement: [{ Sid: 'xaccount' }] });
    expect(policy.RevisionId).toBe(added.RevisionId);
    await lambda.send(new RemoveLayerVersionPermissionCommand({ LayerName: 'shared', VersionNumber: 1, StatementId: 'xaccount' }));
    const gone = await failure(lambda.send(new RemoveLayerVersionPermissionCommand({ LayerName: 'shared', VersionNumber: 1, StatementId: 'xaccount' })));
    expect(gone).toMatchObject({ name: 'ResourceNotFoundException', status: 404, message: 'Statement xaccount is not found in resource policy.' });
  });
});

describe('functions with layers', () => {
  it('a Node.js handler requires a package from its layer; the configuration lists the layer with its size', async ({ server }) => {
    const lambda = lambdaOf(server);
    const created = await lambda.send(
      new CreateFunctionCommand({
        FunctionName: 'uses-layer',
        Role: ROLE,
        Runtime: 'nodejs20.x',
        Handler: 'index.handler',
        Code: { ZipFile: zip({ 'index.js': 'exports.handler = async () => require("shared-lib");' }) },
        Layers: [`${LAYER}:shared:1`],
      }),
    );
    const v1 = await lambda.send(new GetLayerVersionCommand({ LayerName: 'shared', VersionNumber: 1 }));
    expect(created.Layers).toEqual([{ Arn: `${LAYER}:shared:1`, CodeSize: v1.Content!.CodeSize }]);
    expect(await invoke(lambda, 'uses-layer')).toEqual({ body: 'v1' });

    // A later layer's files win; the next invocation runs with the new layers.
    await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'uses-layer', Layers: [`${LAYER}:shared:1`, `${LAYER}:shared:3`] }));
    expect(await invoke(lambda, 'uses-layer')).toEqual({ body: 'v3' });
    await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'uses-layer', Layers: [`${LAYER}:shared:3`, `${LAYER}:shared:1`] }));
    expect(await invoke(lambda, 'uses-layer')).toEqual({ body: 'v1' });

    // A deleted version keeps serving the functions that use it, and is gone for everyone else.
    await lambda.send(new DeleteLayerVersionCommand({ LayerName: 'shared', VersionNumber: 1 }));
    expect(await failure(lambda.send(new GetLayerVersionCommand({ LayerName: 'shared', VersionNumber: 1 })))).toMatchObject({ name: 'ResourceNotFoundException' });
    expect((await lambda.send(new ListLayerVersionsCommand({ LayerName: 'shared' }))).LayerVersions?.map((v) => v.Version)).toEqual([3]);
    await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'uses-layer', Description: 'restart the worker' }));
    expect(await invoke(lambda, 'uses-layer')).toEqual({ body: 'v1' });
    const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'uses-layer' }));
    expect(config.Layers?.map((l) => l.Arn)).toEqual([`${LAYER}:shared:3`, `${LAYER}:shared:1`]);
    const refused = await failure(lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'uses-layer', Layers: [`${LAYER}:shared:1`] })));
    expect(refused).toMatchObject({ name: 'InvalidParameterValueException', status: 400, message: `Layer version ${LAYER}:shared:1 does not exist.` });
  });

  it('a version deleted while in use goes, with its code, once no function version names it', async ({ server }) => {
    const lambda = lambdaOf(server);
    const stored = (name: string) =>
      server.server.runtime.meta.db.prepare('SELECT count(*) AS n FROM lambda_layer_versions WHERE name = ?').get(name) as { n: number };
    const fn = { Role: ROLE, Runtime: 'nodejs20.x' as const, Handler: 'index.handler', Code: { ZipFile: zip({ 'index.js': 'exports.handler = async () => 1;' }) } };
    for (const layer of ['transient-a', 'transient-b']) {
      await lambda.send(new PublishLayerVersionCommand({ LayerName: layer, Content: { ZipFile: zip({ [`${layer}.txt`]: layer }) } }));
      await lambda.send(new CreateFunctionCommand({ ...fn, FunctionName: `${layer}-user`, Layers: [`${LAYER}:${layer}:1`] }));
      await lambda.send(new DeleteLayerVersionCommand({ LayerName: layer, VersionNumber: 1 }));
      expect(stored(layer).n, layer).toBe(1); // hidden, still serving its function
    }
    // A function that stops naming it, and a function deleted.
    await lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: 'transient-a-user', Layers: [] }));
    expect(stored('transient-a').n).toBe(0);
    expect(stored('transient-b').n).toBe(1);
    await lambda.send(new DeleteFunctionCommand({ FunctionName: 'transient-b-user' }));
    expect(stored('transient-b').n).toBe(0);
  });

  it('refuses a layer version that does not exist and more than five layers, creating nothing', async ({ server }) => {
    const lambda = lambdaOf(server);
    const base = { Role: ROLE, Runtime: 'nodejs20.x' as const, Handler: 'index.handler', Code: { ZipFile: zip({ 'index.js': 'exports.handler = async () => 1;' }) } };
    const missing = await failure(lambda.send(new CreateFunctionCommand({ ...base, FunctionName: 'no-layer', Layers: [`${LAYER}:shared:9`] })));
    expect(missing).toMatchObject({ name: 'InvalidParameterValueException', status: 400, message: `Layer version ${LAYER}:shared:9 does not exist.` });
    const six = Array.from({ length: 6 }, () => `${LAYER}:shared:3`);
    const many = await failure(lambda.send(new CreateFunctionCommand({ ...base, FunctionName: 'no-layer', Layers: six })));
    expect(many).toMatchObject({ name: 'InvalidParameterValueException', message: 'Cannot reference more than 5 layers.' });
    expect(await failure(lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'no-layer' })))).toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it.runIf(hasPythonWithBoto3)('a Python handler imports from its layer and runs the layer’s /opt programs, as BucketDeployment runs /opt/awscli/aws', async ({ server }) => {
    const lambda = lambdaOf(server);
    await lambda.send(
      new PublishLayerVersionCommand({
        LayerName: 'pytools',
        Content: {
          ZipFile: zip({
            'python/greeting.py': 'WORD = "hello"\n',
            // The shebang names Lambda's interpreter, which this machine does not have.
            'tools/shout': '#!/var/lang/bin/python\nimport sys\nprint(sys.argv[1].upper())\n',
          }),
        },
      }),
    );
    await lambda.send(
      new CreateFunctionCommand({
        FunctionName: 'py-layer',
        Role: ROLE,
        Runtime: 'python3.12',
        Handler: 'app.handler',
        Timeout: 30,
        Code: {
          ZipFile: zip({
            'app.py': `import subprocess, tempfile, os, greeting
def handler(event, context):
    out = subprocess.check_output(['/opt/tools/shout', greeting.WORD]).decode().strip()
    return {'out': out, 'tmp': os.path.dirname(tempfile.mkdtemp()) == os.environ['TMPDIR']}
`,
          }),
        },
        Layers: [`${LAYER}:pytools:1`],
      }),
    );
    expect(await invoke(lambda, 'py-layer')).toEqual({ body: { out: 'HELLO', tmp: true } });
  });
});
