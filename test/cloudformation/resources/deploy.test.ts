/**
 * End-to-end deploys per resource type through @aws-sdk/client-cloudformation, checked with each
 * service's own SDK client: an S3 Tables stack (bucket, namespace, table with schema, both
 * policies, outputs from Ref and GetAtt) created, renamed in place and deleted; the CDK CLI's own
 * bootstrap template; SSM parameters; wait conditions; a stored type's event reason and its
 * validation failure; a non-empty bucket refusing deletion; and strict mode.
 */
import { readFileSync } from 'node:fs';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
  waitUntilStackCreateComplete,
  waitUntilStackDeleteComplete,
  waitUntilStackUpdateComplete,
  type CloudFormationClient,
  type Output,
} from '@aws-sdk/client-cloudformation';
import { GetBucketEncryptionCommand, HeadBucketCommand, PutObjectCommand} from '@aws-sdk/client-s3';
import { GetNamespaceCommand, GetTableBucketPolicyCommand, GetTableCommand, GetTablePolicyCommand} from '@aws-sdk/client-s3tables';
import { GetParameterCommand} from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../../helpers/fixture.js';
import { startTestServer} from '../../helpers/server.js';
import { allEvents, cfnClient, stackStatus, tpl } from '../support.js';


const wait = { maxWaitTime: 30, minDelay: 1 };

async function outputs(cfn: CloudFormationClient, stack: string): Promise<Record<string, string>> {
  const out = await cfn.send(new DescribeStacksCommand({ StackName: stack }));
  return Object.fromEntries((out.Stacks![0]!.Outputs ?? []).map((o: Output) => [o.OutputKey!, o.OutputValue!]));
}

function lakehouse(tableName: string, namespace: string): string {
  return tpl(
    {
      Bucket: {
        Type: 'AWS::S3Tables::TableBucket',
        Properties: {
          TableBucketName: 'e2e-lakehouse',
          EncryptionConfiguration: { SSEAlgorithm: 'AES256' },
          UnreferencedFileRemoval: { Status: 'Enabled', UnreferencedDays: 4, NoncurrentDays: 12 },
        },
      },
      Sales: { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: { Ref: 'Bucket' }, Namespace: 'sales' } },
      Archive: { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: { Ref: 'Bucket' }, Namespace: 'archive' } },
      Orders: {
        Type: 'AWS::S3Tables::Table',
        DependsOn: ['Sales', 'Archive'],
        Properties: {
          TableBucketARN: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] },
          Namespace: namespace,
          TableName: tableName,
          OpenTableFormat: 'ICEBERG',
          IcebergMetadata: {
            IcebergSchema: {
              SchemaFieldList: [
                { Name: 'id', Type: 'long', Required: true },
                { Name: 'amount', Type: 'double' },
              ],
            },
          },
          Compaction: { Status: 'enabled', TargetFileSizeMB: 256 },
          Tags: [{ Key: 'owner', Value: 'sales' }],
        },
      },
      BucketPolicy: {
        Type: 'AWS::S3Tables::TableBucketPolicy',
        Properties: {
          TableBucketARN: { Ref: 'Bucket' },
          ResourcePolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: { 'Fn::Sub': 'arn:aws:iam::${AWS::AccountId}:root' } }, Action: 's3tables:GetTable', Resource: '*' }] },
        },
      },
      TablePolicy: {
        Type: 'AWS::S3Tables::TablePolicy',
        Properties: {
          TableARN: { Ref: 'Orders' },
          ResourcePolicy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3tables:GetTableData', Resource: '*' }] },
        },
      },
    },
    {
      Outputs: {
        BucketArn: { Value: { Ref: 'Bucket' } },
        NamespaceRef: { Value: { Ref: 'Sales' } },
        TableArn: { Value: { 'Fn::GetAtt': ['Orders', 'TableARN'] } },
        Warehouse: { Value: { 'Fn::GetAtt': ['Orders', 'WarehouseLocation'] } },
        Token: { Value: { 'Fn::GetAtt': ['Orders', 'VersionToken'] } },
        PolicyTable: { Value: { 'Fn::GetAtt': ['TablePolicy', 'TableName'] } },
      },
    },
  );
}

describe('S3 Tables stack', () => {
  it('creates every S3 Tables type, renames the table in place and deletes everything', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3, ssm }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'e2e-lake', TemplateBody: lakehouse('orders', 'sales') }));
    await waitUntilStackCreateComplete({ client: cfn, ...wait }, { StackName: 'e2e-lake' });
    const out = await outputs(cfn, 'e2e-lake');
    expect(out.BucketArn).toBe('arn:aws:s3tables:us-east-1:000000000000:bucket/e2e-lakehouse');
    expect(out.NamespaceRef).toBe(`${out.BucketArn}|sales`);
    const table = await s3t.send(new GetTableCommand({ tableArn: out.TableArn }));
    expect(table).toMatchObject({ name: 'orders', namespace: ['sales'], warehouseLocation: out.Warehouse, versionToken: out.Token });
    expect(table.metadataLocation).toMatch(/\.metadata\.json$/);
    expect(out.PolicyTable).toBe('orders');
    await s3t.send(new GetTableBucketPolicyCommand({ tableBucketARN: out.BucketArn }));
    await s3t.send(new GetTablePolicyCommand({ tableBucketARN: out.BucketArn, namespace: 'sales', name: 'orders' }));

    await cfn.send(new UpdateStackCommand({ StackName: 'e2e-lake', TemplateBody: lakehouse('orders_v2', 'archive') }));
    await waitUntilStackUpdateComplete({ client: cfn, ...wait }, { StackName: 'e2e-lake' });
    const after = await outputs(cfn, 'e2e-lake');
    expect(after.TableArn).toBe(out.TableArn);
    expect(await s3t.send(new GetTableCommand({ tableArn: out.TableArn }))).toMatchObject({ name: 'orders_v2', namespace: ['archive'] });

    await cfn.send(new DeleteStackCommand({ StackName: 'e2e-lake' }));
    await waitUntilStackDeleteComplete({ client: cfn, ...wait }, { StackName: 'e2e-lake' });
    const gone = await s3t.send(new GetNamespaceCommand({ tableBucketARN: out.BucketArn, namespace: 'sales' })).catch((e: Error) => e);
    expect((gone as Error).name).toBe('NotFoundException');
  });
});

describe('the CDK bootstrap template', () => {
  it('deploys as the CDK CLI sends it and keeps the retained staging bucket on delete', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3, ssm }) => {
    const body = readFileSync('node_modules/aws-cdk/lib/api/bootstrap/bootstrap-template.yaml', 'utf8');
    await cfn.send(
      new CreateStackCommand({
        StackName: 'CDKToolkit',
        TemplateBody: body,
        Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
        Parameters: [
          { ParameterKey: 'TrustedAccounts', ParameterValue: '' },
          { ParameterKey: 'TrustedAccountsForLookup', ParameterValue: '' },
          { ParameterKey: 'CloudFormationExecutionPolicies', ParameterValue: '' },
          { ParameterKey: 'FileAssetsBucketKmsKeyId', ParameterValue: 'AWS_MANAGED_KEY' },
          { ParameterKey: 'PublicAccessBlockConfiguration', ParameterValue: 'true' },
        ],
      }),
    );
    await waitUntilStackCreateComplete({ client: cfn, ...wait }, { StackName: 'CDKToolkit' });
    const out = await outputs(cfn, 'CDKToolkit');
    expect(out).toMatchObject({
      BucketName: 'cdk-hnb659fds-assets-000000000000-us-east-1',
      BucketDomainName: 'cdk-hnb659fds-assets-000000000000-us-east-1.s3.us-east-1.amazonaws.com',
      ImageRepositoryName: 'cdk-hnb659fds-container-assets-000000000000-us-east-1',
      FileAssetKeyArn: 'AWS_MANAGED_KEY',
    });
    expect(Number(out.BootstrapVersion)).toBeGreaterThanOrEqual(21);
    const version = await ssm.send(new GetParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version' }));
    expect(version.Parameter?.Value).toBe(out.BootstrapVersion);
    const enc = await s3.send(new GetBucketEncryptionCommand({ Bucket: out.BucketName }));
    expect(enc.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm).toBe('aws:kms');

    const events = await allEvents(cfn, 'CDKToolkit');
    const role = events.find((e) => e.LogicalResourceId === 'DeploymentActionRole' && e.ResourceStatus === 'CREATE_COMPLETE')!;
    expect(role.PhysicalResourceId).toBe('cdk-hnb659fds-deploy-role-000000000000-us-east-1');
    expect(role.ResourceStatusReason).toBeTruthy();
    expect(events.some((e) => e.LogicalResourceId === 'FileAssetsBucketEncryptionKey')).toBe(false);

    await cfn.send(new DeleteStackCommand({ StackName: 'CDKToolkit' }));
    await waitUntilStackDeleteComplete({ client: cfn, ...wait }, { StackName: 'CDKToolkit' });
    await s3.send(new HeadBucketCommand({ Bucket: out.BucketName }));
    const param = await ssm.send(new GetParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version' })).catch((e: Error) => e);
    expect((param as Error).name).toBe('ParameterNotFound');
  });
});

describe('SSM parameters, wait conditions and stored types', () => {
  it('deploys parameters and wait conditions and reads their Ref and GetAtt values', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3, ssm }) => {
    const template = (value: string) =>
      tpl(
        {
          Named: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/e2e/named', Type: 'String', Value: value } },
          Generated: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'StringList', Value: 'a,b' } },
          Handle: { Type: 'AWS::CloudFormation::WaitConditionHandle' },
          Wait: { Type: 'AWS::CloudFormation::WaitCondition', Properties: { Handle: { Ref: 'Handle' }, Count: 1, Timeout: '60' } },
          Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: 'e2e-jobs' } },
        },
        {
          Outputs: {
            Name: { Value: { Ref: 'Generated' } },
            Value: { Value: { 'Fn::GetAtt': ['Named', 'Value'] } },
            HandleUrl: { Value: { Ref: 'Handle' } },
            Data: { Value: { 'Fn::GetAtt': ['Wait', 'Data'] } },
            QueueUrl: { Value: { Ref: 'Queue' } },
            QueueArn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } },
          },
        },
      );
    await cfn.send(new CreateStackCommand({ StackName: 'e2e-misc', TemplateBody: template('one') }));
    await waitUntilStackCreateComplete({ client: cfn, ...wait }, { StackName: 'e2e-misc' });
    const out = await outputs(cfn, 'e2e-misc');
    expect(out.Name).toMatch(/^CFN-Generated-[A-Za-z0-9]{12}$/);
    expect((await ssm.send(new GetParameterCommand({ Name: out.Name }))).Parameter?.Value).toBe('a,b');
    expect(out.Value).toBe('one');
    expect(out.HandleUrl).toMatch(/^https:\/\/cloudformation-waitcondition-us-east-1\.s3\.amazonaws\.com\//);
    expect(out.Data).toBe('{}');
    expect(out.QueueUrl).toBe('https://sqs.us-east-1.amazonaws.com/000000000000/e2e-jobs');
    expect(out.QueueArn).toBe('arn:aws:sqs:us-east-1:000000000000:e2e-jobs');
    const queueEvent = (await allEvents(cfn, 'e2e-misc')).find((e) => e.LogicalResourceId === 'Queue' && e.ResourceStatus === 'CREATE_COMPLETE');
    expect(queueEvent?.ResourceStatusReason).toMatch(/AWS::SQS::Queue/);

    await cfn.send(new UpdateStackCommand({ StackName: 'e2e-misc', TemplateBody: template('two') }));
    await waitUntilStackUpdateComplete({ client: cfn, ...wait }, { StackName: 'e2e-misc' });
    const named = await ssm.send(new GetParameterCommand({ Name: '/e2e/named' }));
    expect(named.Parameter).toMatchObject({ Value: 'two', Version: 2 });
    await cfn.send(new DeleteStackCommand({ StackName: 'e2e-misc' }));
    await waitUntilStackDeleteComplete({ client: cfn, ...wait }, { StackName: 'e2e-misc' });
    expect(((await ssm.send(new GetParameterCommand({ Name: '/e2e/named' })).catch((e: Error) => e)) as Error).name).toBe('ParameterNotFound');
  });

  it('fails a stored type with CloudFormation validation wording and rolls back', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3, ssm }) => {
    const body = tpl({
      Role: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'no-trust' } },
      Param: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/e2e/rolled-back', Type: 'String', Value: 'x' } },
    });
    await cfn.send(new CreateStackCommand({ StackName: 'e2e-invalid', TemplateBody: body, Capabilities: ['CAPABILITY_NAMED_IAM'] }));
    await waitUntilStackCreateComplete({ client: cfn, ...wait }, { StackName: 'e2e-invalid' }).catch(() => undefined);
    expect(await stackStatus(cfn, 'e2e-invalid')).toBe('ROLLBACK_COMPLETE');
    const failed = (await allEvents(cfn, 'e2e-invalid')).find((e) => e.ResourceStatus === 'CREATE_FAILED')!;
    expect(failed.LogicalResourceId).toBe('Role');
    expect(failed.ResourceStatusReason).toBe(
      'Properties validation failed for resource Role with message: #: required key [AssumeRolePolicyDocument] not found',
    );
    expect(((await ssm.send(new GetParameterCommand({ Name: '/e2e/rolled-back' })).catch((e: Error) => e)) as Error).name).toBe(
      'ParameterNotFound',
    );
  });

  it('refuses to delete a bucket that still holds objects', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3, ssm }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'e2e-bucket', TemplateBody: tpl({ Data: { Type: 'AWS::S3::Bucket' } }, { Outputs: { Name: { Value: { Ref: 'Data' } } } }) }));
    await waitUntilStackCreateComplete({ client: cfn, ...wait }, { StackName: 'e2e-bucket' });
    const { Name } = await outputs(cfn, 'e2e-bucket');
    expect(Name).toMatch(/^e2e-bucket-data-[a-z0-9]{12}$/);
    await s3.send(new PutObjectCommand({ Bucket: Name, Key: 'keep.txt', Body: 'x' }));
    await cfn.send(new DeleteStackCommand({ StackName: 'e2e-bucket' }));
    await waitUntilStackDeleteComplete({ client: cfn, ...wait }, { StackName: 'e2e-bucket' }).catch(() => undefined);
    expect(await stackStatus(cfn, 'e2e-bucket')).toBe('DELETE_FAILED');
    const failed = (await allEvents(cfn, 'e2e-bucket')).find((e) => e.ResourceStatus === 'DELETE_FAILED' && e.LogicalResourceId === 'Data')!;
    expect(failed.ResourceStatusReason).toContain('The bucket you tried to delete is not empty');
    await s3.send(new HeadBucketCommand({ Bucket: Name }));
  });
});

describe('strict resources', () => {
  it('fails stored types with a clear reason while real ones deploy', async ({ server: t, cloudformation: cfn, s3tables: s3t, s3, ssm }) => {
    const strict = await startTestServer({ strictResources: true });
    try {
      const client = cfnClient(strict);
      const body = tpl({
        Param: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'ok' } },
        Topic: { Type: 'AWS::SNS::Topic', DependsOn: 'Param' },
      });
      await client.send(new CreateStackCommand({ StackName: 'strict', TemplateBody: body }));
      await waitUntilStackCreateComplete({ client, ...wait }, { StackName: 'strict' }).catch(() => undefined);
      expect(await stackStatus(client, 'strict')).toBe('ROLLBACK_COMPLETE');
      const failed = (await allEvents(client, 'strict')).find((e) => e.ResourceStatus === 'CREATE_FAILED')!;
      expect(failed.LogicalResourceId).toBe('Topic');
      expect(failed.ResourceStatusReason).toMatch(/AWS::SNS::Topic .*strict/);
    } finally {
      await strict.stop();
    }
  });
});
