/**
 * Round-trips of real templates: stacks synthesized with aws-cdk-lib (S3 Tables constructs,
 * buckets, IAM roles, cross-stack exports and imports, the BootstrapVersion parameter and rule,
 * CDK metadata) and the CDK CLI's bootstrap template (YAML) — each parsed, validated, summarised,
 * prepared, resolved and its outputs evaluated by the template layer.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evaluateOutputs,
  parseTemplate,
  prepareTemplate,
  requiredCapabilities,
  resolveContext,
  resolveValue,
  summary,
  validationSummary,
  type TemplateDoc,
} from '../../../src/services/cloudformation/template/index.js';
import { makeEnv, tableScope } from './helpers.js';

const require = createRequire(import.meta.url);
const env = makeEnv({ ssm: { '/cdk-bootstrap/hnb659fds/version': '30' }, exports: {} });

let outdir: string;
let producer: TemplateDoc;
let consumer: TemplateDoc;
let consumerText: string;

beforeAll(async () => {
  const cdk = await import('aws-cdk-lib');
  const s3tables = await import('aws-cdk-lib/aws-s3tables');
  const iam = await import('aws-cdk-lib/aws-iam');
  const s3 = await import('aws-cdk-lib/aws-s3');
  outdir = mkdtempSync(join(tmpdir(), 'overcast-cdk-'));
  const app = new cdk.App({ outdir, analyticsReporting: true });
  const lake = new cdk.Stack(app, 'Lake');
  const tableBucket = new s3tables.CfnTableBucket(lake, 'TableBucket', {
    tableBucketName: 'lake-tables',
    unreferencedFileRemoval: { status: 'Enabled', noncurrentDays: 10, unreferencedDays: 3 },
  });
  const ns = new s3tables.CfnNamespace(lake, 'Namespace', { namespace: 'sales', tableBucketArn: tableBucket.attrTableBucketArn });
  const table = new s3tables.CfnTable(lake, 'Orders', {
    tableBucketArn: tableBucket.attrTableBucketArn,
    namespace: ns.namespace,
    tableName: 'orders',
    openTableFormat: 'ICEBERG',
    icebergMetadata: { icebergSchema: { schemaFieldList: [{ name: 'id', type: 'long', required: true }, { name: 'amount', type: 'double' }] } },
  });
  table.addDependency(ns);
  new s3tables.CfnTableBucketPolicy(lake, 'BucketPolicy', {
    tableBucketArn: tableBucket.attrTableBucketArn,
    resourcePolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: cdk.Aws.ACCOUNT_ID }, Action: 's3tables:*', Resource: '*' }] },
  });
  const raw = new s3.Bucket(lake, 'Raw', { removalPolicy: cdk.RemovalPolicy.RETAIN, versioned: true });
  const role = new iam.Role(lake, 'Reader', { assumedBy: new iam.ServicePrincipal('glue.amazonaws.com') });
  raw.grantRead(role);
  const app2 = new cdk.Stack(app, 'App');
  new s3.Bucket(app2, 'Out', { bucketName: cdk.Fn.join('-', ['out', raw.bucketName]) });
  new cdk.CfnOutput(app2, 'TableArn', { value: table.attrTableArn });
  const assembly = app.synth();
  producer = assembly.getStackByName('Lake').template;
  consumer = assembly.getStackByName('App').template;
  consumerText = readFileSync(join(outdir, assembly.getStackByName('App').templateFile), 'utf8');
}, 120_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe('CDK-synthesized stacks', () => {
  it('parse from the synthesized text unchanged', () => {
    expect(parseTemplate(JSON.stringify(producer))).toEqual(producer);
    expect(parseTemplate(consumerText)).toEqual(consumer);
  });

  it('summarise with CAPABILITY_IAM for the role and the S3 Tables types', () => {
    const s = summary(producer);
    expect(s.Capabilities).toEqual(['CAPABILITY_IAM']);
    expect(s.CapabilitiesReason).toMatch(/^The following resource\(s\) require capabilities: \[AWS::IAM::(Role|Policy)/);
    expect(s.ResourceTypes).toEqual(expect.arrayContaining(['AWS::S3Tables::TableBucket', 'AWS::S3Tables::Namespace', 'AWS::S3Tables::Table', 'AWS::S3Tables::TableBucketPolicy', 'AWS::S3::Bucket', 'AWS::IAM::Role', 'AWS::CDK::Metadata']));
    expect(s.Parameters).toEqual([
      {
        ParameterKey: 'BootstrapVersion',
        DefaultValue: '/cdk-bootstrap/hnb659fds/version',
        ParameterType: 'AWS::SSM::Parameter::Value<String>',
        NoEcho: false,
        Description: expect.stringContaining('Version of the CDK Bootstrap resources'),
        ParameterConstraints: {},
      },
    ]);
    expect(s.ResourceIdentifierSummaries!.find((r) => r.ResourceType === 'AWS::S3::Bucket')).toMatchObject({ ResourceIdentifiers: ['BucketName'] });
    expect(validationSummary(producer).Parameters![0]).toMatchObject({ ParameterKey: 'BootstrapVersion', NoEcho: false });
    expect(requiredCapabilities(consumer).capabilities).toEqual([]);
  });

  it('prepare: SSM parameter, bootstrap rule, metadata condition, dependency order, outputs and exports', () => {
    const p = prepareTemplate(producer, [], env);
    expect(p.conditions).toEqual({ CDKMetadataAvailable: true });
    expect(Object.values(p.resources).some((r) => r.type === 'AWS::CDK::Metadata')).toBe(true);
    const other = prepareTemplate(producer, [], makeEnv({ region: 'xx-nowhere-1', ssm: { '/cdk-bootstrap/hnb659fds/version': '30' } }));
    expect(other.conditions).toEqual({ CDKMetadataAvailable: false });
    expect(Object.values(other.resources).some((r) => r.type === 'AWS::CDK::Metadata')).toBe(false);
    expect(p.parameters[0]).toMatchObject({ key: 'BootstrapVersion', resolvedValue: '30' });
    const ids = Object.keys(p.resources);
    const tb = ids.find((id) => p.resources[id]!.type === 'AWS::S3Tables::TableBucket')!;
    const nsId = ids.find((id) => p.resources[id]!.type === 'AWS::S3Tables::Namespace')!;
    const tbl = ids.find((id) => p.resources[id]!.type === 'AWS::S3Tables::Table')!;
    expect(p.order.indexOf(tb)).toBeLessThan(p.order.indexOf(nsId));
    expect(p.order.indexOf(nsId)).toBeLessThan(p.order.indexOf(tbl));
    const rawId = ids.find((id) => p.resources[id]!.type === 'AWS::S3::Bucket')!;
    expect(p.resources[rawId]).toMatchObject({ deletionPolicy: 'Retain', updateReplacePolicy: 'Retain' });
    const ctx = resolveContext(p, env);
    const props = resolveValue(p.resources[tbl]!.properties, tableScope(), ctx) as Record<string, unknown>;
    expect(props).toMatchObject({ TableBucketARN: `${tb}.TableBucketARN-value`, Namespace: 'sales', TableName: 'orders' });
    const outputs = evaluateOutputs(p, tableScope(), ctx);
    expect(outputs.length).toBeGreaterThan(0);
    expect(outputs.every((o) => o.exportName?.startsWith('Lake:ExportsOutput'))).toBe(true);
  });

  it('refuses an old bootstrap version through the CDK rule', () => {
    expect(() => prepareTemplate(producer, [], makeEnv({ ssm: { '/cdk-bootstrap/hnb659fds/version': '5' } }))).toThrow(/CDK bootstrap stack version 6 required/);
  });

  it('resolves Fn::ImportValue of the producer’s export in the consumer', () => {
    const p = prepareTemplate(consumer, [], env);
    expect(p.imports).toEqual([expect.stringMatching(/^Lake:ExportsOutputFnGetAttOrdersTableARN/), expect.stringMatching(/^Lake:ExportsOutputRefRaw/)]);
    const exports = { [p.imports[0]!]: 'arn:aws:s3tables:us-east-1:123456789012:bucket/lake-tables/table/t', [p.imports[1]!]: 'raw-bucket-name' };
    const withExport = makeEnv({ ssm: { '/cdk-bootstrap/hnb659fds/version': '30' }, exports });
    const ctx = resolveContext(p, withExport);
    const out = Object.values(p.resources).find((r) => r.type === 'AWS::S3::Bucket')!;
    expect(resolveValue(out.properties, tableScope(), ctx)).toEqual({ BucketName: 'out-raw-bucket-name' });
    expect(() => resolveValue(out.properties, tableScope(), resolveContext(p, env))).toThrow(`No export named ${p.imports[1]} found`);
    expect(evaluateOutputs(p, tableScope(), ctx)).toEqual([{ key: 'TableArn', value: exports[p.imports[0]!] }]);
  });
});

describe('the CDK bootstrap template', () => {
  const path = join(dirname(require.resolve('aws-cdk/package.json')), 'lib/api/bootstrap/bootstrap-template.yaml');
  const text = readFileSync(path, 'utf8');

  it('parses, validates and summarises', () => {
    const doc = parseTemplate(text);
    expect(Object.keys(doc.Resources).length).toBeGreaterThan(10);
    const s = summary(doc);
    expect(s.Capabilities).toEqual(['CAPABILITY_NAMED_IAM']);
    expect(s.Parameters!.map((p) => p.ParameterKey)).toEqual(expect.arrayContaining(['TrustedAccounts', 'Qualifier', 'PublicAccessBlockConfiguration']));
  });

  it('prepares with the CLI’s parameters and evaluates the outputs the CLI reads', () => {
    const doc = parseTemplate(text);
    const p = prepareTemplate(doc, [{ ParameterKey: 'Qualifier', ParameterValue: 'hnb659fds' }], env);
    expect(p.resources.StagingBucket).toBeDefined();
    expect(p.resources.CdkBootstrapVersion).toBeDefined();
    expect(p.order.indexOf('StagingBucket')).toBeLessThan(p.order.indexOf('StagingBucketPolicy'));
    const ctx = resolveContext(p, env);
    const version = resolveValue(p.resources.CdkBootstrapVersion!.properties, tableScope(), ctx) as Record<string, unknown>;
    expect(version.Name).toBe('/cdk-bootstrap/hnb659fds/version');
    const scope = tableScope({ CdkBootstrapVersion: { Value: version.Value }, StagingBucket: { RegionalDomainName: 'b.s3.us-east-1.amazonaws.com' } });
    const outputs = Object.fromEntries(evaluateOutputs(p, { ...scope, ref: (id) => (id === 'CdkBootstrapVersion' ? '/cdk-bootstrap/hnb659fds/version' : `${id}-id`) }, ctx).map((o) => [o.key, o.value]));
    expect(outputs.BucketName).toBe('StagingBucket-id');
    expect(outputs.BucketDomainName).toBe('b.s3.us-east-1.amazonaws.com');
    expect(outputs.ImageRepositoryName).toBe('ContainerAssetsRepository-id');
    expect(Number(outputs.BootstrapVersion)).toBeGreaterThanOrEqual(6);
  });
});
