/**
 * Resource import through the SDK: an IMPORT change set that creates a stack from a table bucket,
 * namespace, table and S3 bucket made with the services' APIs (ids and creation times unchanged,
 * IMPORT_* statuses and events, drift IN_SYNC afterwards); AWS's refusals (no DeletionPolicy, a
 * resource that does not exist or already belongs to a stack, a template that changes anything
 * else, identifiers that are not the primary identifier); an import whose resource vanished
 * before execution rolling back to IMPORT_ROLLBACK_COMPLETE; and ImportExistingResources on a
 * CREATE change set, with AWS's exact reason when the DeletionPolicy does not retain.
 */
import {
  CreateChangeSetCommand,
  DescribeChangeSetCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  DescribeStackDriftDetectionStatusCommand,
  DetectStackDriftCommand,
  ExecuteChangeSetCommand,
  GetTemplateSummaryCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, DeleteBucketCommand, ListBucketsCommand } from '@aws-sdk/client-s3';
import { CreateNamespaceCommand, CreateTableBucketCommand, CreateTableCommand, GetTableBucketCommand, GetTableCommand } from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';
import { allEvents, tpl } from './support.js';

const RETAIN = { DeletionPolicy: 'Retain' };

function importTemplate(bucketArn: { 'Fn::GetAtt': string[] } | string, extra: Record<string, unknown> = {}) {
  return tpl({
    Tables: { Type: 'AWS::S3Tables::TableBucket', ...RETAIN, Properties: { TableBucketName: 'imp-tables' } },
    Ns: { Type: 'AWS::S3Tables::Namespace', ...RETAIN, Properties: { TableBucketARN: bucketArn, Namespace: 'sales' } },
    Orders: {
      Type: 'AWS::S3Tables::Table',
      ...RETAIN,
      DependsOn: 'Ns',
      Properties: { TableBucketARN: bucketArn, Namespace: 'sales', TableName: 'orders', OpenTableFormat: 'ICEBERG', WithoutMetadata: 'Yes' },
    },
    Raw: { Type: 'AWS::S3::Bucket', ...RETAIN, Properties: { BucketName: 'imp-raw' } },
    ...extra,
  });
}

async function changeSet(cfn: CloudFormationClient, stack: string, name: string) {
  return cfn.send(new DescribeChangeSetCommand({ StackName: stack, ChangeSetName: name }));
}

describe('resource import', () => {
  it('creates a stack from existing S3 Tables resources and an S3 bucket, adopting them unchanged', async ({ cloudformation: cfn, s3tables, s3 }) => {
    const { arn } = await s3tables.send(new CreateTableBucketCommand({ name: 'imp-tables' }));
    await s3tables.send(new CreateNamespaceCommand({ tableBucketARN: arn, namespace: ['sales'] }));
    const { tableARN } = await s3tables.send(new CreateTableCommand({ tableBucketARN: arn, namespace: 'sales', name: 'orders', format: 'ICEBERG' }));
    await s3.send(new CreateBucketCommand({ Bucket: 'imp-raw' }));
    const before = await s3tables.send(new GetTableCommand({ tableArn: tableARN }));
    const bucketBefore = await s3tables.send(new GetTableBucketCommand({ tableBucketARN: arn }));

    // GetTemplateSummary names each type's identifier, a composite one comma-joined.
    const summary = await cfn.send(new GetTemplateSummaryCommand({ TemplateBody: importTemplate({ 'Fn::GetAtt': ['Tables', 'TableBucketARN'] }) }));
    expect(summary.ResourceIdentifierSummaries).toContainEqual({ ResourceType: 'AWS::S3Tables::Namespace', LogicalResourceIds: ['Ns'], ResourceIdentifiers: ['TableBucketARN,Namespace'] });

    await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'Imported',
        ChangeSetName: 'adopt',
        ChangeSetType: 'IMPORT',
        TemplateBody: importTemplate({ 'Fn::GetAtt': ['Tables', 'TableBucketARN'] }),
        ResourcesToImport: [
          { ResourceType: 'AWS::S3Tables::TableBucket', LogicalResourceId: 'Tables', ResourceIdentifier: { TableBucketARN: arn! } },
          { ResourceType: 'AWS::S3Tables::Namespace', LogicalResourceId: 'Ns', ResourceIdentifier: { TableBucketARN: arn!, Namespace: 'sales' } },
          { ResourceType: 'AWS::S3Tables::Table', LogicalResourceId: 'Orders', ResourceIdentifier: { TableARN: tableARN! } },
          { ResourceType: 'AWS::S3::Bucket', LogicalResourceId: 'Raw', ResourceIdentifier: { BucketName: 'imp-raw' } },
        ],
      }),
    );
    const cs = await changeSet(cfn, 'Imported', 'adopt');
    expect(cs.Status).toBe('CREATE_COMPLETE');
    expect(Object.fromEntries(cs.Changes!.map((c) => [c.ResourceChange!.LogicalResourceId, c.ResourceChange!.Action]))).toEqual({
      Tables: 'Import',
      Ns: 'Import',
      Orders: 'Import',
      Raw: 'Import',
    });
    expect((await cfn.send(new DescribeStacksCommand({ StackName: 'Imported' }))).Stacks![0]!.StackStatus).toBe('REVIEW_IN_PROGRESS');

    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'Imported', ChangeSetName: 'adopt' }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'Imported' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('IMPORT_COMPLETE');
    const resources = (await cfn.send(new DescribeStackResourcesCommand({ StackName: 'Imported' }))).StackResources!;
    expect(Object.fromEntries(resources.map((r) => [r.LogicalResourceId, [r.ResourceStatus, r.PhysicalResourceId]]))).toEqual({
      Tables: ['IMPORT_COMPLETE', arn],
      Ns: ['IMPORT_COMPLETE', `${arn}|sales`],
      Orders: ['IMPORT_COMPLETE', tableARN],
      Raw: ['IMPORT_COMPLETE', 'imp-raw'],
    });
    const events = (await allEvents(cfn, 'Imported')).map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);
    expect(events).toContain('Orders IMPORT_IN_PROGRESS');
    expect(events.at(-1)).toBe('Imported IMPORT_COMPLETE');
    // Nothing was recreated: same ids, same creation times.
    const after = await s3tables.send(new GetTableCommand({ tableArn: tableARN }));
    expect(after.createdAt).toEqual(before.createdAt);
    expect(after.versionToken).toBe(before.versionToken);
    expect((await s3tables.send(new GetTableBucketCommand({ tableBucketARN: arn }))).createdAt).toEqual(bucketBefore.createdAt);

    const { StackDriftDetectionId } = await cfn.send(new DetectStackDriftCommand({ StackName: 'Imported' }));
    const drift = await cfn.send(new DescribeStackDriftDetectionStatusCommand({ StackDriftDetectionId }));
    expect(drift.StackDriftStatus).toBe('IN_SYNC');
  });

  it('refuses imports AWS refuses, creating nothing', async ({ cloudformation: cfn, s3, s3tables }) => {
    await s3.send(new CreateBucketCommand({ Bucket: 'imp-free' }));
    const bucketOnly = (policy: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      tpl({ Free: { Type: 'AWS::S3::Bucket', ...policy, Properties: { BucketName: 'imp-free' } }, ...extra });
    const importFree = (template: string, identifier: Record<string, string> = { BucketName: 'imp-free' }, stack = 'Refused') =>
      cfn.send(
        new CreateChangeSetCommand({
          StackName: stack,
          ChangeSetName: 'adopt',
          ChangeSetType: 'IMPORT',
          TemplateBody: template,
          ResourcesToImport: [{ ResourceType: 'AWS::S3::Bucket', LogicalResourceId: 'Free', ResourceIdentifier: identifier }],
        }),
      );
    const noPolicy = await failure(importFree(bucketOnly({})));
    expect(noPolicy).toMatchObject({
      name: 'ValidationError',
      message: 'The following resources to import [Free] must have DeletionPolicy attribute specified in the template.',
    });
    const missing = await failure(importFree(bucketOnly(RETAIN), { BucketName: 'imp-nowhere' }));
    expect(missing.message).toBe("Resource of type 'AWS::S3::Bucket' with identifier 'imp-nowhere' was not found.");
    const wrongKey = await failure(importFree(bucketOnly(RETAIN), { Arn: 'arn:aws:s3:::imp-free' }));
    expect(wrongKey.name).toBe('ValidationError');
    const extra = await failure(importFree(bucketOnly(RETAIN, { Other: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'x' } } })));
    expect(extra.message).toBe(
      'You have modified resources [Other] in your template that are not being imported. Update, create or delete operations cannot be executed during import operations.',
    );
    const owned = await failure(importFree(bucketOnly(RETAIN), { BucketName: 'imp-raw' }));
    expect(owned.message).toMatch(/^imp-raw already exists in stack arn:aws:cloudformation:us-east-1:000000000000:stack\/Imported\//);
    const noList = await failure(cfn.send(new CreateChangeSetCommand({ StackName: 'Refused', ChangeSetName: 'x', ChangeSetType: 'IMPORT', TemplateBody: bucketOnly(RETAIN) })));
    expect(noList.name).toBe('ValidationError');
    // None of these left a stack behind.
    const gone = await failure(cfn.send(new DescribeStacksCommand({ StackName: 'Refused' })));
    expect(gone.message).toBe('Stack with id Refused does not exist');
    expect((await s3tables.send(new GetTableBucketCommand({ tableBucketARN: 'arn:aws:s3tables:us-east-1:000000000000:bucket/imp-tables' }))).name).toBe('imp-tables');

    // The resource vanishes between the change set and its execution: the import rolls back.
    await importFree(bucketOnly(RETAIN), { BucketName: 'imp-free' }, 'Vanishing');
    await s3.send(new DeleteBucketCommand({ Bucket: 'imp-free' }));
    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'Vanishing', ChangeSetName: 'adopt' }));
    const rolled = (await cfn.send(new DescribeStacksCommand({ StackName: 'Vanishing' }))).Stacks![0]!;
    expect(rolled.StackStatus).toBe('IMPORT_ROLLBACK_COMPLETE');
    const lines = (await allEvents(cfn, 'Vanishing')).map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);
    expect(lines).toEqual(expect.arrayContaining(['Free IMPORT_FAILED', 'Vanishing IMPORT_ROLLBACK_IN_PROGRESS', 'Vanishing IMPORT_ROLLBACK_COMPLETE']));
    expect((await cfn.send(new DescribeStackResourcesCommand({ StackName: 'Vanishing' }))).StackResources).toEqual([]);
  });

  it('ImportExistingResources imports a named bucket that exists, and fails without a retaining DeletionPolicy', async ({ cloudformation: cfn, s3 }) => {
    await s3.send(new CreateBucketCommand({ Bucket: 'auto-raw' }));
    const created = (await s3.send(new ListBucketsCommand({}))).Buckets!.find((b) => b.Name === 'auto-raw')!.CreationDate;
    const template = (policy: string) =>
      tpl({
        Raw: { Type: 'AWS::S3::Bucket', DeletionPolicy: policy, Properties: { BucketName: 'auto-raw' } },
        Setting: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'new' } },
      });
    await cfn.send(
      new CreateChangeSetCommand({ StackName: 'AutoNo', ChangeSetName: 'cs', ChangeSetType: 'CREATE', ImportExistingResources: true, TemplateBody: template('Delete') }),
    );
    const refused = await changeSet(cfn, 'AutoNo', 'cs');
    expect(refused.Status).toBe('FAILED');
    expect(refused.StatusReason).toBe(
      "CloudFormation is attempting to import some resources because they already exist in your account. The resources must have the DeletionPolicy attribute set to 'Retain' or 'RetainExceptOnCreate' in the template for successful import. The affected resources are Raw ({BucketName=auto-raw})",
    );

    await cfn.send(
      new CreateChangeSetCommand({ StackName: 'Auto', ChangeSetName: 'cs', ChangeSetType: 'CREATE', ImportExistingResources: true, TemplateBody: template('RetainExceptOnCreate') }),
    );
    const cs = await changeSet(cfn, 'Auto', 'cs');
    expect(cs.ImportExistingResources).toBe(true);
    expect(Object.fromEntries(cs.Changes!.map((c) => [c.ResourceChange!.LogicalResourceId, c.ResourceChange!.Action]))).toEqual({ Raw: 'Import', Setting: 'Add' });
    await cfn.send(new ExecuteChangeSetCommand({ StackName: 'Auto', ChangeSetName: 'cs' }));
    expect((await cfn.send(new DescribeStacksCommand({ StackName: 'Auto' }))).Stacks![0]!.StackStatus).toBe('CREATE_COMPLETE');
    const lines = (await allEvents(cfn, 'Auto')).map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);
    expect(lines).toEqual(expect.arrayContaining(['Raw IMPORT_IN_PROGRESS', 'Raw IMPORT_COMPLETE', 'Setting CREATE_COMPLETE']));
    expect((await s3.send(new ListBucketsCommand({}))).Buckets!.find((b) => b.Name === 'auto-raw')!.CreationDate).toEqual(created);
  });
});
