/**
 * The plain CDK CLI against Overcast, end to end, no wrapper: `cdk bootstrap` with the CLI's own
 * template (again at `localhost`: no changes), `cdk deploy` of a TypeScript app with aws-cdk-lib's
 * S3 Tables constructs (template published to the staging bucket and read back through
 * TemplateURL, outputs printed), a no-change deploy, `--tags` reaching the resources in place,
 * `cdk diff` of a changed app, the update (bucket in place, table replaced, the stack tag gone
 * again), `cdk destroy` leaving nothing behind; then shorter runs at
 * `localhost` and with `--method=direct` from the assemblies the first run synthesized, and the
 * bootstrap template deployed by `aws cloudformation deploy`. CLI steps run one after another
 * against one server and one bootstrap.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeStacksCommand, ListChangeSetsCommand } from '@aws-sdk/client-cloudformation';
import { GetBucketEncryptionCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import {
  CreateTableBucketCommand,
  DeleteTableBucketCommand,
  GetNamespaceCommand,
  GetTableBucketEncryptionCommand,
  GetTableBucketMaintenanceConfigurationCommand,
  GetTableBucketPolicyCommand,
  GetTableCommand,
  GetTableMaintenanceConfigurationCommand,
  GetTablePolicyCommand,
  ListTablesCommand,
  ListTagsForResourceCommand,
} from '@aws-sdk/client-s3tables';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aws } from '../cloudformation/support.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import {
  cdk,
  cdkEnv,
  clients,
  compileApp,
  currentFields,
  eventually,
  liveStacks,
  printedOutputs,
  readMetadata,
  tableBucketNames,
  warehouseBuckets,
  type Clients,
} from './support.js';

const ACCOUNT = '000000000000';
const ENV = `aws://${ACCOUNT}/us-east-1`;
const STAGING = `cdk-hnb659fds-assets-${ACCOUNT}-us-east-1`;
const BUCKET = 'overcast-cdk-tables';
const DEPLOY = ['deploy', '--require-approval', 'never'];

let t: TestServer;
let c: Clients;
let tmp: { path: string; cleanup: () => void };
let appDir: string;
/** A directory without cdk.json: bootstrap there does not synthesize the app. */
let plainDir: string;
let at127: NodeJS.ProcessEnv;
let atLocalhost: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await startTestServer();
  c = clients(t);
  tmp = tempDir('overcast-cdk-');
  appDir = join(tmp.path, 'app');
  plainDir = join(tmp.path, 'plain');
  mkdirSync(plainDir);
  compileApp(appDir);
  const home = join(tmp.path, 'cdk-home');
  at127 = cdkEnv(t, t.endpoint, home);
  atLocalhost = cdkEnv(t, t.endpoint.replace('127.0.0.1', 'localhost'), home);
});

afterAll(async () => {
  await t?.stop();
  tmp?.cleanup();
});

function expectOk(r: { code: number; output: string }): void {
  expect(r.code, r.output).toBe(0);
}

async function tableBucketArn(): Promise<string> {
  return `arn:aws:s3tables:us-east-1:${ACCOUNT}:bucket/${BUCKET}`;
}

async function tableNames(arn: string): Promise<string[]> {
  return ((await c.s3t.send(new ListTablesCommand({ tableBucketARN: arn }))).tables ?? []).map((x) => x.name!);
}

/** Nothing of the app is left: no table bucket, no warehouse, no stack but CDKToolkit. */
async function expectNothingLeft(): Promise<void> {
  expect(await tableBucketNames(c)).toEqual([]);
  expect(await eventually(() => warehouseBuckets(c), (b) => b.length === 0)).toEqual([]);
  expect(await liveStacks(c)).toEqual({ CDKToolkit: expect.stringMatching(/^(CREATE|UPDATE)_COMPLETE$/) });
}

describe('the CDK CLI against Overcast', () => {
  it('cdk bootstrap deploys the CLI’s own template; running it again at localhost changes nothing', async () => {
    const first = await cdk(['bootstrap', ENV], { cwd: plainDir, env: at127 });
    expectOk(first);
    expect(first.output).toContain(`Environment ${ENV} bootstrapped.`);
    const toolkit = (await c.cfn.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }))).Stacks![0]!;
    expect(toolkit.StackStatus).toBe('CREATE_COMPLETE');
    const outputs = Object.fromEntries(toolkit.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(outputs).toMatchObject({ BucketName: STAGING, BootstrapVersion: '33', FileAssetKeyArn: 'AWS_MANAGED_KEY' });
    const ssm = new SSMClient({ ...t.clientConfig, maxAttempts: 1 });
    const version = await ssm.send(new GetParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version' }));
    expect(version.Parameter?.Value).toBe('33');
    const enc = await c.s3.send(new GetBucketEncryptionCommand({ Bucket: STAGING }));
    expect(enc.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm).toBe('aws:kms');

    const again = await cdk(['bootstrap', ENV], { cwd: plainDir, env: atLocalhost });
    expectOk(again);
    expect(again.output).toContain(`Environment ${ENV} bootstrapped (no changes).`);
    const after = (await c.cfn.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }))).Stacks![0]!;
    expect(after.LastUpdatedTime).toEqual(toolkit.LastUpdatedTime);
  });

  it('cdk deploy publishes the template, creates the stack through a change set and prints its outputs', async () => {
    const r = await cdk(DEPLOY, { cwd: appDir, env: at127 });
    expectOk(r);
    expect(r.output).toContain('✅  TablesStack');
    expect(r.output).toContain('CREATE_COMPLETE');
    // The CLI polls every 5 s: a deployment it timed below that finished before its first poll.
    expect(Number(/Deployment time: ([\d.]+)s/.exec(r.output)?.[1])).toBeLessThan(5);
    // The template went to the staging bucket under its SHA-256, and is the one deployed.
    const objects = (await c.s3.send(new ListObjectsV2Command({ Bucket: STAGING }))).Contents ?? [];
    expect(objects.map((o) => o.Key)).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.json$/)]);
    const published = await c.s3.send(new GetObjectCommand({ Bucket: STAGING, Key: objects[0]!.Key }));
    expect(JSON.parse(await published.Body!.transformToString()).Resources.Table.Type).toBe('AWS::S3Tables::Table');

    const stack = (await c.cfn.send(new DescribeStacksCommand({ StackName: 'TablesStack' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    // The SSM-typed parameter shows its name, and the value it resolved to.
    expect(stack.Parameters).toEqual([
      { ParameterKey: 'BootstrapVersion', ParameterValue: '/cdk-bootstrap/hnb659fds/version', ResolvedValue: '33' },
    ]);
    const printed = printedOutputs(r.output, 'TablesStack');
    expect(printed).toEqual(Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue])));
    expect(Object.keys(printed).sort()).toEqual(['TableArn', 'TableBucketArn', 'WarehouseLocation']);

    const arn = await tableBucketArn();
    expect(printed.TableBucketArn).toBe(arn);
    expect(await tableBucketNames(c)).toEqual([BUCKET]);
    const enc = await c.s3t.send(new GetTableBucketEncryptionCommand({ tableBucketARN: arn }));
    expect(enc.encryptionConfiguration?.sseAlgorithm).toBe('AES256');
    const maintenance = await c.s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }));
    expect(maintenance.configuration?.icebergUnreferencedFileRemoval).toMatchObject({
      status: 'enabled',
      settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 10, nonCurrentDays: 30 } },
    });
    expect((await c.s3t.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toMatchObject({ team: 'analytics' });
    expect((await c.s3t.send(new GetNamespaceCommand({ tableBucketARN: arn, namespace: 'analytics' }))).namespace).toEqual(['analytics']);

    const table = await c.s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events' }));
    expect(table.tableARN).toBe(printed.TableArn);
    expect(table.format).toBe('ICEBERG');
    expect(table.warehouseLocation).toBe(printed.WarehouseLocation);
    const meta = await readMetadata(c, arn, 'analytics', 'events');
    expect(meta.location).toBe(table.warehouseLocation);
    expect(currentFields(meta)).toEqual({ id: 'long', name: 'string' });
    const tableMaintenance = await c.s3t.send(
      new GetTableMaintenanceConfigurationCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events' }),
    );
    expect(tableMaintenance.configuration?.icebergCompaction).toMatchObject({
      status: 'enabled',
      settings: { icebergCompaction: { targetFileSizeMB: 256 } },
    });
    const bucketPolicy = await c.s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: arn }));
    expect(JSON.parse(bucketPolicy.resourcePolicy!).Statement[0].Resource).toBe(`${arn}/*`);
    const tablePolicy = await c.s3t.send(new GetTablePolicyCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events' }));
    expect(JSON.parse(tablePolicy.resourcePolicy!).Statement[0].Resource).toBe(table.tableARN);
    expect(await warehouseBuckets(c)).toEqual([table.warehouseLocation!.replace('s3://', '')]);

    cpSync(join(appDir, 'cdk.out'), join(tmp.path, 'assembly-v1'), { recursive: true });
  });

  it('a second cdk deploy with no change says so and leaves the stack alone', async () => {
    const before = (await c.cfn.send(new DescribeStacksCommand({ StackName: 'TablesStack' }))).Stacks![0]!;
    const r = await cdk(DEPLOY, { cwd: appDir, env: at127 });
    expectOk(r);
    expect(r.output).toContain('TablesStack (no changes)');
    const after = (await c.cfn.send(new DescribeStacksCommand({ StackName: 'TablesStack' }))).Stacks![0]!;
    expect(after.StackStatus).toBe('CREATE_COMPLETE');
    expect(after.LastUpdatedTime).toEqual(before.LastUpdatedTime);
  });

  it('cdk deploy --tags puts stack tags on the stack and, in place, on its table bucket and table', async () => {
    const arn = await tableBucketArn();
    const old = await c.s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events' }));
    // From the synthesized assembly (no synth): only the stack tags differ from what is deployed.
    const r = await cdk([...DEPLOY, '--tags', 'owner=cdk', '--app', join(tmp.path, 'assembly-v1')], { cwd: plainDir, env: at127 });
    expectOk(r);
    const stack = (await c.cfn.send(new DescribeStacksCommand({ StackName: 'TablesStack' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('UPDATE_COMPLETE');
    expect(stack.Tags).toEqual([{ Key: 'owner', Value: 'cdk' }]);
    expect((await c.s3t.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual({ team: 'analytics', owner: 'cdk' });
    const table = await c.s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events' }));
    expect(table.tableARN).toBe(old.tableARN);
    expect((await c.s3t.send(new ListTagsForResourceCommand({ resourceArn: table.tableARN! }))).tags).toEqual({ dataset: 'events', owner: 'cdk' });
  });

  it('cdk diff of the changed app shows the in-place change and the replacement, and changes nothing', async () => {
    const r = await cdk(['diff', '-c', 'tablesVersion=2'], { cwd: appDir, env: at127 });
    expectOk(r);
    expect(r.output).toContain('[~] AWS::S3Tables::TableBucket TableBucket');
    expect(r.output).toMatch(/\.UnreferencedDays:\s*\n\s*├─ \[-\] 10\s*\n\s*└─ \[\+\] 20/);
    expect(r.output).toMatch(/\[~\] AWS::S3Tables::Table Table Table replace/);
    expect(r.output).toContain('IcebergMetadata (requires replacement)');
    expect(r.output).toContain('"created_at"');
    expect(r.output).toContain('Number of stacks with differences: 1');
    // The diff's change set is gone again, and the stack is untouched.
    expect((await c.cfn.send(new ListChangeSetsCommand({ StackName: 'TablesStack' }))).Summaries).toEqual([]);
    expect(await tableNames(await tableBucketArn())).toEqual(['events']);
  });

  it('cdk deploy of the change updates the bucket in place and replaces the table', async () => {
    const arn = await tableBucketArn();
    const old = await c.s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events' }));
    const r = await cdk([...DEPLOY, '-c', 'tablesVersion=2'], { cwd: appDir, env: at127 });
    expectOk(r);
    expect(r.output).toContain('Requested update requires the creation of a new physical resource');
    expect((await c.cfn.send(new DescribeStacksCommand({ StackName: 'TablesStack' }))).Stacks![0]!.StackStatus).toBe('UPDATE_COMPLETE');
    const printed = printedOutputs(r.output, 'TablesStack');
    expect(printed.TableBucketArn).toBe(arn);
    const maintenance = await c.s3t.send(new GetTableBucketMaintenanceConfigurationCommand({ tableBucketARN: arn }));
    expect(maintenance.configuration?.icebergUnreferencedFileRemoval?.settings?.icebergUnreferencedFileRemoval?.unreferencedDays).toBe(20);
    // Without --tags the CLI sends `Tags=`: the stack tag leaves the resources.
    expect((await c.s3t.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual({ team: 'lakehouse' });
    expect(await tableNames(arn)).toEqual(['events_v2']);
    const table = await c.s3t.send(new GetTableCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events_v2' }));
    expect(table.tableARN).toBe(printed.TableArn);
    expect(table.tableARN).not.toBe(old.tableARN);
    expect(currentFields(await readMetadata(c, arn, 'analytics', 'events_v2'))).toEqual({
      id: 'long',
      name: 'string',
      created_at: 'timestamp',
    });
    const tablePolicy = await c.s3t.send(new GetTablePolicyCommand({ tableBucketARN: arn, namespace: 'analytics', name: 'events_v2' }));
    expect(JSON.parse(tablePolicy.resourcePolicy!).Statement[0].Resource).toBe(table.tableARN);
    // The replaced table's warehouse is purged.
    const warehouse = table.warehouseLocation!.replace('s3://', '');
    expect(await eventually(() => warehouseBuckets(c), (b) => b.length === 1)).toEqual([warehouse]);

    cpSync(join(appDir, 'cdk.out'), join(tmp.path, 'assembly-v2'), { recursive: true });
  });

  it('cdk destroy removes every resource of the stack', async () => {
    const r = await cdk(['destroy', '--force'], { cwd: appDir, env: at127 });
    expectOk(r);
    expect(r.output).toContain('TablesStack: destroyed');
    await expectNothingLeft();
    // The staging bucket is retained, as the bootstrap template says.
    expect((await c.s3.send(new ListObjectsV2Command({ Bucket: STAGING }))).KeyCount).toBeGreaterThan(0);
  });

  it('at localhost: diff of a new stack, deploy and destroy', async () => {
    const app = join(tmp.path, 'assembly-v1');
    // The diff's change set creates a REVIEW_IN_PROGRESS stack, which the CLI deletes again.
    const diff = await cdk(['diff', '--app', app], { cwd: plainDir, env: atLocalhost });
    expectOk(diff);
    expect(diff.output).toContain('[+] AWS::S3Tables::TableBucket TableBucket');
    expect(diff.output).toContain('[+] AWS::S3Tables::TablePolicy TablePolicy');
    expect(await liveStacks(c)).toEqual({ CDKToolkit: expect.any(String) });
    const r = await cdk([...DEPLOY, '--app', app], { cwd: plainDir, env: atLocalhost });
    expectOk(r);
    const printed = printedOutputs(r.output, 'TablesStack');
    expect(printed.TableBucketArn).toBe(await tableBucketArn());
    const table = await c.s3t.send(new GetTableCommand({ tableBucketARN: printed.TableBucketArn, namespace: 'analytics', name: 'events' }));
    expect(table.tableARN).toBe(printed.TableArn);
    const d = await cdk(['destroy', '--force', '--app', app], { cwd: plainDir, env: atLocalhost });
    expectOk(d);
    expect(d.output).toContain('TablesStack: destroyed');
    await expectNothingLeft();
  });

  it('--method=direct: create, update (replacing the table) and no-change, then destroy', async () => {
    const v1 = join(tmp.path, 'assembly-v1');
    const v2 = join(tmp.path, 'assembly-v2');
    const created = await cdk([...DEPLOY, '--method=direct', '--app', v1], { cwd: plainDir, env: at127 });
    expectOk(created);
    expect(printedOutputs(created.output, 'TablesStack').TableArn).toMatch(/\/table\//);
    expect(await tableNames(await tableBucketArn())).toEqual(['events']);
    const updated = await cdk([...DEPLOY, '--method=direct', '--app', v2], { cwd: plainDir, env: at127 });
    expectOk(updated);
    expect((await c.cfn.send(new DescribeStacksCommand({ StackName: 'TablesStack' }))).Stacks![0]!.StackStatus).toBe('UPDATE_COMPLETE');
    expect(await tableNames(await tableBucketArn())).toEqual(['events_v2']);
    const forced = await cdk([...DEPLOY, '--method=direct', '--force', '--app', v2], { cwd: plainDir, env: at127 });
    expectOk(forced);
    expect(forced.output).toContain('TablesStack (no changes)');
    const d = await cdk(['destroy', '--force', '--app', v2], { cwd: plainDir, env: at127 });
    expectOk(d);
    await expectNothingLeft();
  });

  it('a failed deploy rolls back with the reason; the next deploy replaces the failed stack', async () => {
    const app = join(tmp.path, 'assembly-v1');
    await c.s3t.send(new CreateTableBucketCommand({ name: BUCKET }));
    const failed = await cdk([...DEPLOY, '--app', app], { cwd: plainDir, env: at127 });
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/CREATE_FAILED\s+\| AWS::S3Tables::TableBucket\s+\| TableBucket .*already exists/);
    expect(failed.output).toContain('❌  TablesStack failed to deploy');
    expect(await liveStacks(c)).toMatchObject({ TablesStack: 'ROLLBACK_COMPLETE' });

    await c.s3t.send(new DeleteTableBucketCommand({ tableBucketARN: await tableBucketArn() }));
    // The CLI deletes the ROLLBACK_COMPLETE stack first, then creates it again.
    const r = await cdk([...DEPLOY, '--app', app], { cwd: plainDir, env: at127 });
    expectOk(r);
    expect(await liveStacks(c)).toMatchObject({ TablesStack: 'CREATE_COMPLETE' });
    expect(await tableNames(await tableBucketArn())).toEqual(['events']);
    expectOk(await cdk(['destroy', '--force', '--app', app], { cwd: plainDir, env: at127 }));
    await expectNothingLeft();
  });

  it('cdk bootstrap --show-template deployed with aws cloudformation deploy bootstraps too', async () => {
    await t.server.reset();
    const shown = await cdk(['bootstrap', '--show-template'], { cwd: plainDir, env: at127 });
    expectOk(shown);
    const file = join(tmp.path, 'bootstrap.yaml');
    writeFileSync(file, shown.stdout);
    expect(readFileSync(file, 'utf8')).toContain('CdkBootstrapVersion:');
    const deployed = await aws(t, [
      'cloudformation',
      'deploy',
      '--template-file',
      file,
      '--stack-name',
      'CDKToolkit',
      '--capabilities',
      'CAPABILITY_NAMED_IAM',
    ]);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stdout).toContain('Successfully created/updated stack - CDKToolkit');
    const r = await cdk([...DEPLOY, '--app', join(tmp.path, 'assembly-v1')], { cwd: plainDir, env: at127 });
    expectOk(r);
    expect(await tableNames(await tableBucketArn())).toEqual(['events']);
    expectOk(await cdk(['destroy', '--force', '--app', join(tmp.path, 'assembly-v1')], { cwd: plainDir, env: at127 }));
    await expectNothingLeft();
  });
});
