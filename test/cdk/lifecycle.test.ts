/**
 * The CDK CLI through CloudFormation's whole lifecycle against Overcast, one server and one app
 * (journey-app/) for every step, in order: bootstrap and deploy; `cdk drift` IN_SYNC, then (after
 * a table's compaction is changed with the SDK) `cdk drift --fail` reporting the property and
 * exiting 1; `cdk import --resource-mapping` of a table bucket created with the SDK;
 * `cdk deploy --import-existing-resources` adopting an S3 bucket created with the SDK;
 * `cdk refactor --unstable=refactor --force` moving the table to a new construct id; `cdk gc` of
 * both types, deleting the unused image and asset and keeping those a template names; and
 * `cdk destroy`, which leaves the retained resources. Adopted and moved resources keep their ids
 * and creation times.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeStackResourcesCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, HeadBucketCommand, ListBucketsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { CreateTableBucketCommand, GetTableBucketCommand, GetTableCommand, PutTableMaintenanceConfigurationCommand } from '@aws-sdk/client-s3tables';
import { ECRClient, ListImagesCommand, PutImageCommand } from '@aws-sdk/client-ecr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import { cdk, cdkEnv, clients, compileApp, type Clients } from './support.js';

const ENV = 'aws://000000000000/us-east-1';
const LAKE = 'arn:aws:s3tables:us-east-1:000000000000:bucket/journey-lake';
const IMPORTED = 'journey-imported';
const RAW = 'journey-raw';
const REPOSITORY = 'cdk-hnb659fds-container-assets-000000000000-us-east-1';
const ASSETS = 'cdk-hnb659fds-assets-000000000000-us-east-1';

let t: TestServer;
let c: Clients;
let tmp: { path: string; cleanup: () => void };
let appDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await startTestServer();
  c = clients(t);
  tmp = tempDir('overcast-journey-');
  appDir = join(tmp.path, 'app');
  compileApp(appDir, 'journey-app');
  env = cdkEnv(t, t.endpoint, join(tmp.path, 'cdk-home'));
});

afterAll(async () => {
  await t?.stop();
  tmp?.cleanup();
});

function run(args: string[]) {
  return cdk(args, { cwd: appDir, env });
}

function expectOk(r: { code: number; output: string }): void {
  expect(r.code, r.output).toBe(0);
}

async function resources(): Promise<Record<string, string>> {
  const out = await c.cfn.send(new DescribeStackResourcesCommand({ StackName: 'JourneyStack' }));
  return Object.fromEntries(out.StackResources!.map((r) => [r.LogicalResourceId!, r.PhysicalResourceId!]));
}

const withImport = ['-c', `importBucket=${IMPORTED}`];
const withRaw = [...withImport, '-c', `rawBucket=${RAW}`];

// Each step runs the CDK CLI (synthesis included) once or twice: slow on a busy machine.
describe('the CDK CLI through the whole lifecycle', { timeout: 180_000 }, () => {
  it('bootstraps and deploys', async () => {
    expectOk(await run(['bootstrap', ENV]));
    expectOk(await run(['deploy', '--require-approval', 'never']));
    expect((await resources()).Events).toMatch(/^arn:aws:s3tables:us-east-1:000000000000:bucket\/journey-lake\/table\//);
  });

  it('cdk drift: in sync, then the table’s changed compaction, and --fail exits 1', async () => {
    const clean = await run(['drift', '--fail']);
    expectOk(clean);
    expect(clean.output).toContain('No drift detected');
    await c.s3t.send(
      new PutTableMaintenanceConfigurationCommand({
        tableBucketARN: LAKE,
        namespace: 'sales',
        name: 'events',
        type: 'icebergCompaction',
        value: { status: 'enabled', settings: { icebergCompaction: { targetFileSizeMB: 512 } } },
      }),
    );
    const drifted = await run(['drift', '--fail']);
    expect(drifted.code, drifted.output).toBe(1);
    expect(drifted.output).toContain('/Compaction/TargetFileSizeMB');
    expect(drifted.output).toMatch(/Number of resources with drift: 1/);
    // Put back, so the refactor below moves a table in its declared state.
    await c.s3t.send(
      new PutTableMaintenanceConfigurationCommand({
        tableBucketARN: LAKE,
        namespace: 'sales',
        name: 'events',
        type: 'icebergCompaction',
        value: { status: 'enabled', settings: { icebergCompaction: { targetFileSizeMB: 256 } } },
      }),
    );
  });

  it('cdk import adopts a table bucket created with the SDK, keeping its id and creation time', async () => {
    const { arn } = await c.s3t.send(new CreateTableBucketCommand({ name: IMPORTED }));
    const before = await c.s3t.send(new GetTableBucketCommand({ tableBucketARN: arn }));
    const mapping = join(tmp.path, 'mapping.json');
    writeFileSync(mapping, JSON.stringify({ Imported: { TableBucketARN: arn } }));
    const r = await run(['import', 'JourneyStack', '--resource-mapping', mapping, ...withImport]);
    expectOk(r);
    expect(r.output).toContain('Imported: importing using TableBucketARN=');
    const stack = (await c.cfn.send(new DescribeStacksCommand({ StackName: 'JourneyStack' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('IMPORT_COMPLETE');
    expect((await resources()).Imported).toBe(arn);
    expect((await c.s3t.send(new GetTableBucketCommand({ tableBucketARN: arn }))).createdAt).toEqual(before.createdAt);
  });

  it('cdk deploy --import-existing-resources adopts an S3 bucket created with the SDK', async () => {
    await c.s3.send(new CreateBucketCommand({ Bucket: RAW }));
    const created = (await c.s3.send(new ListBucketsCommand({}))).Buckets!.find((b) => b.Name === RAW)!.CreationDate;
    const r = await run(['deploy', '--require-approval', 'never', '--import-existing-resources', ...withRaw]);
    expectOk(r);
    expect((await resources()).Raw).toBe(RAW);
    expect((await c.s3.send(new ListBucketsCommand({}))).Buckets!.find((b) => b.Name === RAW)!.CreationDate).toEqual(created);
  });

  it('cdk refactor moves the table to its new construct id; its ARN and creation time stay', async () => {
    const arn = (await resources()).Events!;
    const before = await c.s3t.send(new GetTableCommand({ tableArn: arn }));
    const r = await run(['refactor', '--unstable=refactor', '--force', ...withRaw, '-c', 'tableId=Renamed']);
    expectOk(r);
    expect(r.output).toContain('Stack refactor complete');
    const after = await resources();
    expect(after.Renamed).toBe(arn);
    expect(after).not.toHaveProperty('Events');
    expect((await c.s3t.send(new GetTableCommand({ tableArn: arn }))).createdAt).toEqual(before.createdAt);
  });

  it('cdk gc of both types deletes the unused image and asset, keeping those a stack’s template names', async () => {
    const ecr = new ECRClient({ ...t.clientConfig, maxAttempts: 1 });
    const manifest = (layer: string) =>
      JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.docker.distribution.manifest.v2+json', layers: [{ digest: `sha256:${layer.repeat(64)}` }] });
    // gc counts an image in use when a deployed template contains one of its tags, an asset when
    // it contains the object key up to its first dot: 'journey-lake' is the table bucket's name.
    await ecr.send(new PutImageCommand({ repositoryName: REPOSITORY, imageManifest: manifest('a'), imageTag: '0123456789abcdef' }));
    const kept = await ecr.send(new PutImageCommand({ repositoryName: REPOSITORY, imageManifest: manifest('b'), imageTag: 'journey-lake' }));
    await c.s3.send(new PutObjectCommand({ Bucket: ASSETS, Key: `${'d'.repeat(64)}.zip`, Body: 'unused' }));
    await c.s3.send(new PutObjectCommand({ Bucket: ASSETS, Key: 'journey-lake.zip', Body: 'in use' }));
    const r = await run(['gc', ENV, '--unstable=gc', '--confirm=false', '--created-buffer-days=0']);
    expectOk(r);
    expect((await ecr.send(new ListImagesCommand({ repositoryName: REPOSITORY }))).imageIds).toEqual([kept.image!.imageId]);
    const keys = (await c.s3.send(new ListObjectsV2Command({ Bucket: ASSETS }))).Contents?.map((o) => o.Key) ?? [];
    expect(keys).toContain('journey-lake.zip');
    expect(keys).not.toContain(`${'d'.repeat(64)}.zip`);
  });

  it('cdk destroy removes the stack and leaves the retained, adopted resources', async () => {
    expectOk(await run(['destroy', '--force', 'JourneyStack', ...withRaw, '-c', 'tableId=Renamed']));
    const gone = await c.cfn.send(new DescribeStacksCommand({})).then((o) => o.Stacks!.map((s) => s.StackName));
    expect(gone).not.toContain('JourneyStack');
    await c.s3.send(new HeadBucketCommand({ Bucket: RAW }));
    expect((await c.s3t.send(new GetTableBucketCommand({ tableBucketARN: `arn:aws:s3tables:us-east-1:000000000000:bucket/${IMPORTED}` }))).name).toBe(IMPORTED);
  });
});
