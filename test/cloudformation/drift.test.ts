/**
 * Drift detection through the SDK: a stack of S3 Tables resources, an S3 bucket, an SSM parameter
 * and a type Overcast only stores; IN_SYNC before anything changes, then out-of-band changes made
 * with the services' own APIs — a table's compaction and tags, a bucket's versioning, a parameter
 * deleted — found as MODIFIED (with AWS's property paths and values) and DELETED; the drift fields
 * of every listing; filters and paging; DetectStackResourceDrift; and AWS's refusals.
 */
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeStackDriftDetectionStatusCommand,
  DescribeStackResourceDriftsCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  DetectStackDriftCommand,
  DetectStackResourceDriftCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  type StackResourceDrift,
} from '@aws-sdk/client-cloudformation';
import { PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { GetTableCommand, PutTableMaintenanceConfigurationCommand, TagResourceCommand } from '@aws-sdk/client-s3tables';
import { DeleteParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';
import { tpl } from './support.js';

const BUCKET_ARN = 'arn:aws:s3tables:us-east-1:000000000000:bucket/drift-tables';

const TEMPLATE = tpl({
  Tables: {
    Type: 'AWS::S3Tables::TableBucket',
    Properties: {
      TableBucketName: 'drift-tables',
      UnreferencedFileRemoval: { Status: 'Enabled', UnreferencedDays: 4, NoncurrentDays: 12 },
      Tags: [
        { Key: 'team', Value: 'data' },
        { Key: 'env', Value: 'test' },
      ],
    },
  },
  Ns: { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: { 'Fn::GetAtt': ['Tables', 'TableBucketARN'] }, Namespace: 'sales' } },
  Orders: {
    Type: 'AWS::S3Tables::Table',
    DependsOn: 'Ns',
    Properties: {
      TableBucketARN: { 'Fn::GetAtt': ['Tables', 'TableBucketARN'] },
      Namespace: 'sales',
      TableName: 'orders',
      OpenTableFormat: 'ICEBERG',
      IcebergMetadata: { IcebergSchema: { SchemaFieldList: [{ Name: 'id', Type: 'long', Required: true }] } },
      Compaction: { Status: 'enabled', TargetFileSizeMB: 256 },
      Tags: [{ Key: 'dataset', Value: 'orders' }],
    },
  },
  Raw: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'drift-raw', VersioningConfiguration: { Status: 'Enabled' } } },
  Setting: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/drift/setting', Type: 'String', Value: 'on' } },
  Topic: { Type: 'AWS::SNS::Topic', Properties: { TopicName: 'drift-topic' } },
});

async function detect(cfn: import('@aws-sdk/client-cloudformation').CloudFormationClient, stack: string) {
  const { StackDriftDetectionId } = await cfn.send(new DetectStackDriftCommand({ StackName: stack }));
  const status = await cfn.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }));
  const drifts = (await cfn.send(new DescribeStackResourceDriftsCommand({ StackName: stack }))).StackResourceDrifts ?? [];
  return { id: StackDriftDetectionId!, status, drifts: Object.fromEntries(drifts.map((d) => [d.LogicalResourceId!, d])) as Record<string, StackResourceDrift> };
}

describe('drift detection', () => {
  it('reports IN_SYNC, then the out-of-band changes as MODIFIED and DELETED, with every drift field', async ({ cloudformation: cfn, s3tables, s3, ssm }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'Drifty', TemplateBody: TEMPLATE }));
    const fresh = (await cfn.send(new DescribeStacksCommand({ StackName: 'Drifty' }))).Stacks![0]!;
    expect(fresh.StackStatus).toBe('CREATE_COMPLETE');
    expect(fresh.DriftInformation).toEqual({ StackDriftStatus: 'NOT_CHECKED' });

    const first = await detect(cfn, 'Drifty');
    expect(first.status).toMatchObject({ StackId: fresh.StackId, DetectionStatus: 'DETECTION_COMPLETE', StackDriftStatus: 'IN_SYNC', DriftedStackResourceCount: 0 });
    expect(first.status.Timestamp).toBeInstanceOf(Date);
    // The stored type is not checked, so not listed; every type Overcast runs is.
    expect(Object.keys(first.drifts).sort()).toEqual(['Ns', 'Orders', 'Raw', 'Setting', 'Tables']);
    for (const d of Object.values(first.drifts)) expect(d.StackResourceDriftStatus, d.LogicalResourceId).toBe('IN_SYNC');
    const orders = first.drifts.Orders!;
    // Write-only IcebergMetadata is not compared; what is compared is the template's, as JSON text.
    expect(JSON.parse(orders.ExpectedProperties!)).not.toHaveProperty('IcebergMetadata');
    expect(JSON.parse(orders.ActualProperties!)).toMatchObject({ Compaction: { Status: 'enabled', TargetFileSizeMB: 256 }, TableName: 'orders' });

    const table = await s3tables.send(new GetTableCommand({ tableBucketARN: BUCKET_ARN, namespace: 'sales', name: 'orders' }));
    await s3tables.send(
      new PutTableMaintenanceConfigurationCommand({
        tableBucketARN: BUCKET_ARN,
        namespace: 'sales',
        name: 'orders',
        type: 'icebergCompaction',
        value: { status: 'enabled', settings: { icebergCompaction: { targetFileSizeMB: 512 } } },
      }),
    );
    await s3tables.send(new TagResourceCommand({ resourceArn: table.tableARN, tags: { dataset: 'orders-v2' } }));
    await s3.send(new PutBucketVersioningCommand({ Bucket: 'drift-raw', VersioningConfiguration: { Status: 'Suspended' } }));
    await ssm.send(new DeleteParameterCommand({ Name: '/drift/setting' }));

    const second = await detect(cfn, 'Drifty');
    expect(second.id).not.toBe(first.id);
    expect(second.status).toMatchObject({ DetectionStatus: 'DETECTION_COMPLETE', StackDriftStatus: 'DRIFTED', DriftedStackResourceCount: 3 });
    expect(second.drifts.Orders).toMatchObject({ StackResourceDriftStatus: 'MODIFIED', PhysicalResourceId: table.tableARN, ResourceType: 'AWS::S3Tables::Table' });
    expect(second.drifts.Orders!.PropertyDifferences).toEqual([
      { PropertyPath: '/Compaction/TargetFileSizeMB', ExpectedValue: '256', ActualValue: '512', DifferenceType: 'NOT_EQUAL' },
      { PropertyPath: '/Tags/0/Value', ExpectedValue: 'orders', ActualValue: 'orders-v2', DifferenceType: 'NOT_EQUAL' },
    ]);
    expect(second.drifts.Raw!.PropertyDifferences).toEqual([
      { PropertyPath: '/VersioningConfiguration/Status', ExpectedValue: 'Enabled', ActualValue: 'Suspended', DifferenceType: 'NOT_EQUAL' },
    ]);
    // A resource that is gone is DELETED, with no properties.
    expect(second.drifts.Setting).toMatchObject({ StackResourceDriftStatus: 'DELETED' });
    expect(second.drifts.Setting).not.toHaveProperty('ExpectedProperties');
    expect(second.drifts.Tables!.StackResourceDriftStatus).toBe('IN_SYNC');

    // The drift fields of the stack and resource listings.
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'Drifty' }))).Stacks![0]!;
    expect(stack.DriftInformation?.StackDriftStatus).toBe('DRIFTED');
    expect(stack.DriftInformation?.LastCheckTimestamp).toBeInstanceOf(Date);
    const summary = (await cfn.send(new ListStacksCommand({}))).StackSummaries!.find((s) => s.StackName === 'Drifty')!;
    expect(summary.DriftInformation?.StackDriftStatus).toBe('DRIFTED');
    const resources = (await cfn.send(new DescribeStackResourcesCommand({ StackName: 'Drifty' }))).StackResources!;
    const info = Object.fromEntries(resources.map((r) => [r.LogicalResourceId, r.DriftInformation]));
    expect(info.Orders).toMatchObject({ StackResourceDriftStatus: 'MODIFIED', LastCheckTimestamp: expect.any(Date) });
    expect(info.Topic).toEqual({ StackResourceDriftStatus: 'NOT_CHECKED' });
    const listed = (await cfn.send(new ListStackResourcesCommand({ StackName: 'Drifty' }))).StackResourceSummaries!;
    expect(listed.find((r) => r.LogicalResourceId === 'Setting')?.DriftInformation?.StackResourceDriftStatus).toBe('DELETED');
  });

  it('filters and pages DescribeStackResourceDrifts, and checks one resource with DetectStackResourceDrift', async ({ cloudformation: cfn }) => {
    const modified = await cfn.send(new DescribeStackResourceDriftsCommand({ StackName: 'Drifty', StackResourceDriftStatusFilters: ['MODIFIED'] }));
    expect(modified.StackResourceDrifts!.map((d) => d.LogicalResourceId).sort()).toEqual(['Orders', 'Raw']);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await cfn.send(new DescribeStackResourceDriftsCommand({ StackName: 'Drifty', MaxResults: 2, NextToken: token }));
      expect(page.StackResourceDrifts!.length).toBeLessThanOrEqual(2);
      seen.push(...page.StackResourceDrifts!.map((d) => d.LogicalResourceId!));
      token = page.NextToken;
      pages++;
    } while (token && pages < 10);
    expect(seen.sort()).toEqual(['Ns', 'Orders', 'Raw', 'Setting', 'Tables']);
    expect(pages).toBe(3);

    const one = await cfn.send(new DetectStackResourceDriftCommand({ StackName: 'Drifty', LogicalResourceId: 'Ns' }));
    expect(one.StackResourceDrift).toMatchObject({ LogicalResourceId: 'Ns', StackResourceDriftStatus: 'IN_SYNC' });
    const stored = await failure(cfn.send(new DetectStackResourceDriftCommand({ StackName: 'Drifty', LogicalResourceId: 'Topic' })));
    expect(stored.name).toBe('ValidationError');
    const missing = await failure(cfn.send(new DetectStackResourceDriftCommand({ StackName: 'Drifty', LogicalResourceId: 'Nope' })));
    expect(missing.message).toBe('Resource Nope does not exist for stack Drifty');
  });

  it('refuses bad input with AWS’s errors and records nothing', async ({ cloudformation: cfn }) => {
    const gone = await failure(cfn.send(new DetectStackDriftCommand({ StackName: 'NoSuchStack' })));
    expect(gone).toMatchObject({ name: 'ValidationError', message: 'Stack with id NoSuchStack does not exist', status: 400 });
    // A stack whose creation waits on a change set (REVIEW_IN_PROGRESS) cannot be checked.
    await cfn.send(new CreateChangeSetCommand({ StackName: 'Waiting', ChangeSetName: 'first', ChangeSetType: 'CREATE', TemplateBody: TEMPLATE }));
    const busy = await failure(cfn.send(new DetectStackDriftCommand({ StackName: 'Waiting' })));
    expect(busy.name).toBe('ValidationError');
    expect(busy.message).toContain('REVIEW_IN_PROGRESS');
    const unknownId = await failure(cfn.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId: 'b0d3a0e2-0000-4000-8000-000000000000' })));
    expect(unknownId.name).toBe('ValidationError');
    const badPage = await failure(cfn.send(new DescribeStackResourceDriftsCommand({ StackName: 'Drifty', MaxResults: 0 })));
    expect(badPage.message).toMatch(/^1 validation error detected: Value '0' at 'maxResults'/);
    const badFilter = await failure(
      cfn.send(new DescribeStackResourceDriftsCommand({ StackName: 'Drifty', StackResourceDriftStatusFilters: ['SIDEWAYS' as never] })),
    );
    expect(badFilter.name).toBe('ValidationError');
    const unknownResource = await failure(cfn.send(new DetectStackDriftCommand({ StackName: 'Drifty', LogicalResourceIds: ['Nope'] })));
    expect(unknownResource.name).toBe('ValidationError');
    const waiting = (await cfn.send(new DescribeStacksCommand({ StackName: 'Waiting' }))).Stacks![0]!;
    expect(waiting.DriftInformation).toEqual({ StackDriftStatus: 'NOT_CHECKED' });
  });
});
