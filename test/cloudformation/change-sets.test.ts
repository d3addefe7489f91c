/**
 * Change sets with the JS SDK, over S3 Tables resources read back through the S3 Tables API:
 * CREATE (REVIEW_IN_PROGRESS stack) and UPDATE types, Changes as AWS reports them (Action,
 * Replacement True/False/Conditional, Scope, Details with Evaluation, ChangeSource and
 * CausingEntity, property values on request, pages), executed change sets disappearing, the
 * no-change FAILED reason, DeleteChangeSet's tolerance of missing names, and the replacement the
 * change set announced actually happening.
 */
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  GetTemplateCommand,
  ListChangeSetsCommand,
  waitUntilChangeSetCreateComplete,
  waitUntilStackCreateComplete,
  waitUntilStackUpdateComplete,
  type Change,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { GetTableCommand, ListNamespacesCommand, ListTableBucketsCommand} from '@aws-sdk/client-s3tables';
import { describe, expect, it } from '../helpers/fixture.js';
import { allEvents, eventLines, queue, stackStatus, tpl } from './support.js';


function lakeTemplate(opts: { bucket: string; compaction?: number; tags?: Record<string, string>; env?: boolean }): string {
  return tpl(
    {
      Bucket: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: opts.bucket } },
      Ns: { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: { 'Fn::GetAtt': ['Bucket', 'TableBucketARN'] }, Namespace: 'sales' } },
      Orders: {
        Type: 'AWS::S3Tables::Table',
        DependsOn: 'Ns',
        Properties: {
          TableBucketARN: { Ref: 'Bucket' },
          Namespace: 'sales',
          TableName: opts.env ? { 'Fn::Sub': 'orders_${Env}' } : 'orders',
          OpenTableFormat: 'ICEBERG',
          IcebergMetadata: { IcebergSchema: { SchemaFieldList: [{ Name: 'id', Type: 'long', Required: true }] } },
          ...(opts.compaction ? { Compaction: { Status: 'enabled', TargetFileSizeMB: opts.compaction } } : {}),
          ...(opts.tags ? { Tags: Object.entries(opts.tags).map(([Key, Value]) => ({ Key, Value })) } : {}),
        },
      },
    },
    {
      ...(opts.env ? { Parameters: { Env: { Type: 'String', Default: 'dev' } } } : {}),
      Outputs: { TableArn: { Value: { Ref: 'Orders' } }, Warehouse: { Value: { 'Fn::GetAtt': ['Orders', 'WarehouseLocation'] } } },
    },
  );
}

async function changesOf(cfn: CloudFormationClient, stack: string, name: string, includeValues = false): Promise<Change[]> {
  const out: Change[] = [];
  let token: string | undefined;
  do {
    const page = await cfn.send(
      new DescribeChangeSetCommand({ StackName: stack, ChangeSetName: name, NextToken: token, IncludePropertyValues: includeValues }),
    );
    out.push(...(page.Changes ?? []));
    token = page.NextToken;
  } while (token);
  return out;
}

function byId(changes: Change[]) {
  return Object.fromEntries(changes.map((c) => [c.ResourceChange!.LogicalResourceId!, c.ResourceChange!]));
}

describe('CREATE change sets', () => {
  it('creates a REVIEW_IN_PROGRESS stack, lists Add changes, executes and then disappears', async ({ server: t, cloudformation: cfn, s3tables: s3t }) => {
    const body = lakeTemplate({ bucket: 'cs-lake', compaction: 128 });
    const created = await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'cs-lake',
        ChangeSetName: 'first',
        ChangeSetType: 'CREATE',
        TemplateBody: body,
        Description: 'initial',
        IncludeNestedStacks: true,
        Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
      }),
    );
    expect(created.Id).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:changeSet\/first\/[0-9a-f-]{36}$/);
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'cs-lake' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('REVIEW_IN_PROGRESS');
    expect(stack.StackId).toBe(created.StackId);
    expect(eventLines(await allEvents(cfn, 'cs-lake'))).toEqual(['cs-lake REVIEW_IN_PROGRESS']);
    const waited = await waitUntilChangeSetCreateComplete(
      { client: cfn, maxWaitTime: 10, minDelay: 5 },
      { StackName: created.StackId, ChangeSetName: created.Id },
    );
    expect(waited.state).toBe('SUCCESS');
    const cs = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: created.Id }));
    expect(cs).toMatchObject({
      ChangeSetName: 'first',
      StackName: 'cs-lake',
      Status: 'CREATE_COMPLETE',
      ExecutionStatus: 'AVAILABLE',
      Description: 'initial',
      IncludeNestedStacks: true,
    });
    expect(cs.Changes!.map((c) => [c.Type, c.ResourceChange!.Action, c.ResourceChange!.LogicalResourceId, c.ResourceChange!.ResourceType])).toEqual([
      ['Resource', 'Add', 'Bucket', 'AWS::S3Tables::TableBucket'],
      ['Resource', 'Add', 'Ns', 'AWS::S3Tables::Namespace'],
      ['Resource', 'Add', 'Orders', 'AWS::S3Tables::Table'],
    ]);
    const viaCs = await cfn.send(new GetTemplateCommand({ StackName: 'cs-lake', ChangeSetName: 'first' }));
    expect(viaCs.TemplateBody).toBe(body);
    expect((await cfn.send(new ListChangeSetsCommand({ StackName: 'cs-lake' }))).Summaries!.map((s) => s.ChangeSetName)).toEqual(['first']);

    await cfn.send(new ExecuteChangeSetCommand({ StackName: created.StackId, ChangeSetName: created.Id, ClientRequestToken: 'exec-1' }));
    expect((await waitUntilStackCreateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: 'cs-lake' })).state).toBe('SUCCESS');
    const after = (await cfn.send(new DescribeStacksCommand({ StackName: 'cs-lake' }))).Stacks![0]!;
    expect(after.ChangeSetId).toBe(created.Id);
    expect(after.Outputs!.find((o) => o.OutputKey === 'TableArn')!.OutputValue).toMatch(/^arn:aws:s3tables:us-east-1:000000000000:bucket\/cs-lake\/table\//);
    const events = await allEvents(cfn, 'cs-lake');
    expect(events.filter((e) => (e.ResourceStatus as string) !== 'REVIEW_IN_PROGRESS').every((e) => e.ClientRequestToken === 'exec-1')).toBe(true);
    // The executed change set is gone, as the CDK expects before its next deploy.
    await expect(cfn.send(new DescribeChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'first' }))).rejects.toMatchObject({
      name: 'ChangeSetNotFoundException',
      message: 'ChangeSet [first] does not exist',
      $metadata: { httpStatusCode: 404 },
    });
    expect((await cfn.send(new ListChangeSetsCommand({ StackName: 'cs-lake' }))).Summaries).toEqual([]);
    const buckets = await s3t.send(new ListTableBucketsCommand({}));
    expect(buckets.tableBuckets!.map((b) => b.name)).toContain('cs-lake');
  });

  it('refuses a CREATE change set for a live stack and a clashing change-set name', async ({ server: t, cloudformation: cfn, s3tables: s3t }) => {
    await expect(
      cfn.send(new CreateChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'again', ChangeSetType: 'CREATE', TemplateBody: tpl({ Q: queue() }) })),
    ).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'Stack [cs-lake] already exists and cannot be created again with the changeSet [again].',
    });
    const twin = await cfn.send(
      new CreateChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'twin', TemplateBody: lakeTemplate({ bucket: 'cs-lake', compaction: 256 }) }),
    );
    // The same request again is answered with the same change set.
    const again = await cfn.send(
      new CreateChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'twin', TemplateBody: lakeTemplate({ bucket: 'cs-lake', compaction: 256 }) }),
    );
    expect(again.Id).toBe(twin.Id);
    await expect(
      cfn.send(new CreateChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'twin', TemplateBody: lakeTemplate({ bucket: 'cs-lake', compaction: 512 }) })),
    ).rejects.toMatchObject({ name: 'AlreadyExistsException' });
    await cfn.send(new DeleteChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'twin' }));
  });

  it('lets a diff-only CREATE change set and its REVIEW_IN_PROGRESS stack be deleted', async ({ server: t, cloudformation: cfn, s3tables: s3t }) => {
    const cs = await cfn.send(
      new CreateChangeSetCommand({ StackName: 'cs-review', ChangeSetName: 'cdk-diff-change-set-1', ChangeSetType: 'CREATE', TemplateBody: tpl({ Q: queue() }) }),
    );
    await cfn.send(new DeleteChangeSetCommand({ ChangeSetName: cs.Id }));
    expect(await stackStatus(cfn, 'cs-review')).toBe('REVIEW_IN_PROGRESS');
    await cfn.send(new DeleteStackCommand({ StackName: cs.StackId }));
    expect(await stackStatus(cfn, cs.StackId!)).toBe('DELETE_COMPLETE');
    await expect(cfn.send(new DescribeStacksCommand({ StackName: 'cs-review' }))).rejects.toMatchObject({
      message: 'Stack with id cs-review does not exist',
    });
  });
});

describe('UPDATE change sets', () => {
  it('reports an in-place change and a tag change, and an update of exactly that', async ({ server: t, cloudformation: cfn, s3tables: s3t }) => {
    const cs = await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'cs-lake',
        ChangeSetName: 'inplace',
        TemplateBody: lakeTemplate({ bucket: 'cs-lake', compaction: 256, tags: { team: 'data' } }),
      }),
    );
    const changes = byId(await changesOf(cfn, 'cs-lake', 'inplace'));
    expect(Object.keys(changes)).toEqual(['Orders']);
    expect(changes.Orders).toMatchObject({
      Action: 'Modify',
      Replacement: 'False',
      Scope: ['Properties', 'Tags'],
      PhysicalResourceId: expect.stringMatching(/^arn:aws:s3tables:.*\/table\//),
    });
    expect(changes.Orders!.Details).toEqual([
      {
        Target: { Attribute: 'Properties', Name: 'Compaction', RequiresRecreation: 'Never' },
        Evaluation: 'Static',
        ChangeSource: 'DirectModification',
      },
      { Target: { Attribute: 'Tags', RequiresRecreation: 'Never' }, Evaluation: 'Static', ChangeSource: 'DirectModification' },
    ]);
    const withValues = byId(await changesOf(cfn, 'cs-lake', 'inplace', true));
    expect(withValues.Orders!.Details![0]!.Target).toMatchObject({
      Path: '/Properties/Compaction',
      BeforeValue: JSON.stringify({ Status: 'enabled', TargetFileSizeMB: 128 }),
      AfterValue: JSON.stringify({ Status: 'enabled', TargetFileSizeMB: 256 }),
      AttributeChangeType: 'Modify',
    });
    expect(JSON.parse(withValues.Orders!.AfterContext!).Properties.Compaction.TargetFileSizeMB).toBe(256);
    const tableArn = changes.Orders!.PhysicalResourceId!;
    await cfn.send(new ExecuteChangeSetCommand({ ChangeSetName: cs.Id }));
    expect((await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: 'cs-lake' })).state).toBe('SUCCESS');
    const table = await s3t.send(new GetTableCommand({ tableArn }));
    expect(table.name).toBe('orders');
    const lines = eventLines(await allEvents(cfn, 'cs-lake'));
    expect(lines.slice(-5)).toEqual([
      'cs-lake UPDATE_IN_PROGRESS',
      'Orders UPDATE_IN_PROGRESS',
      'Orders UPDATE_COMPLETE',
      'cs-lake UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
      'cs-lake UPDATE_COMPLETE',
    ]);
  });

  it('ends a change set without changes FAILED with AWS reason; it cannot be executed', async ({ server: t, cloudformation: cfn, s3tables: s3t }) => {
    const body = lakeTemplate({ bucket: 'cs-lake', compaction: 256, tags: { team: 'data' } });
    await cfn.send(new CreateChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'nothing', TemplateBody: body }));
    const cs = await cfn.send(new DescribeChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'nothing' }));
    expect(cs).toMatchObject({
      Status: 'FAILED',
      ExecutionStatus: 'UNAVAILABLE',
      StatusReason: "The submitted information didn't contain changes. Submit different information to create a change set.",
      Changes: [],
    });
    await expect(cfn.send(new ExecuteChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'nothing' }))).rejects.toMatchObject({
      name: 'InvalidChangeSetStatusException',
      message: `ChangeSet [${cs.ChangeSetId}] cannot be executed in its current status of [FAILED]`,
    });
    // A FAILED change set gives way to a new one of the same name (the aws CLI names them by the second).
    const redo = await cfn.send(
      new CreateChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'nothing', TemplateBody: lakeTemplate({ bucket: 'cs-lake', compaction: 512, tags: { team: 'data' } }) }),
    );
    expect(redo.Id).not.toBe(cs.ChangeSetId);
    expect((await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: redo.Id }))).Status).toBe('CREATE_COMPLETE');
    await cfn.send(new DeleteChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'nothing' }));
    // Deleting a change set that does not exist, on a stack that does, succeeds (the CDK does it blindly).
    await cfn.send(new DeleteChangeSetCommand({ StackName: 'cs-lake', ChangeSetName: 'cdk-deploy-change-set' }));
    await expect(cfn.send(new DeleteChangeSetCommand({ StackName: 'no-such-stack', ChangeSetName: 'x' }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'Stack [no-such-stack] does not exist',
    });
    await expect(cfn.send(new DescribeChangeSetCommand({ ChangeSetName: 'bare-name' }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'StackName must be specified if ChangeSetName is not specified as an ARN.',
    });
  });

  it('says Replacement True for a renamed table bucket, Conditional for what follows it, and replaces on execute', async ({ server: t, cloudformation: cfn, s3tables: s3t }) => {
    const before = (await s3t.send(new ListTableBucketsCommand({}))).tableBuckets!.find((b) => b.name === 'cs-lake')!;
    const cs = await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'cs-lake',
        ChangeSetName: 'rename-bucket',
        TemplateBody: lakeTemplate({ bucket: 'cs-lake-two', compaction: 256, tags: { team: 'data' } }),
      }),
    );
    const changes = byId(await changesOf(cfn, 'cs-lake', 'rename-bucket'));
    expect(changes.Bucket).toMatchObject({
      Action: 'Modify',
      Replacement: 'True',
      PolicyAction: 'ReplaceAndDelete',
      Scope: ['Properties'],
      Details: [
        {
          Target: { Attribute: 'Properties', Name: 'TableBucketName', RequiresRecreation: 'Always' },
          Evaluation: 'Static',
          ChangeSource: 'DirectModification',
        },
      ],
    });
    expect(changes.Ns).toMatchObject({
      Action: 'Modify',
      Replacement: 'Conditional',
      Details: [
        {
          Target: { Attribute: 'Properties', Name: 'TableBucketARN', RequiresRecreation: 'Always' },
          Evaluation: 'Dynamic',
          ChangeSource: 'ResourceAttribute',
          CausingEntity: 'Bucket.TableBucketARN',
        },
      ],
    });
    expect(changes.Orders).toMatchObject({
      Replacement: 'Conditional',
      Details: [expect.objectContaining({ ChangeSource: 'ResourceReference', CausingEntity: 'Bucket', Evaluation: 'Dynamic' })],
    });
    await cfn.send(new ExecuteChangeSetCommand({ ChangeSetName: cs.Id }));
    expect(await stackStatus(cfn, 'cs-lake')).toBe('UPDATE_COMPLETE');
    const names = (await s3t.send(new ListTableBucketsCommand({}))).tableBuckets!.map((b) => b.name);
    expect(names).toContain('cs-lake-two');
    expect(names).not.toContain('cs-lake');
    const now = (await s3t.send(new ListTableBucketsCommand({}))).tableBuckets!.find((b) => b.name === 'cs-lake-two')!;
    expect(now.arn).not.toBe(before.arn);
    const ns = await s3t.send(new ListNamespacesCommand({ tableBucketARN: now.arn }));
    expect(ns.namespaces!.map((n) => n.namespace![0])).toEqual(['sales']);
    const lines = eventLines(await allEvents(cfn, 'cs-lake'));
    const cleanup = lines.lastIndexOf('cs-lake UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    expect(lines.slice(cleanup)).toEqual([
      'cs-lake UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
      'Orders DELETE_IN_PROGRESS',
      'Orders DELETE_COMPLETE',
      'Ns DELETE_IN_PROGRESS',
      'Ns DELETE_COMPLETE',
      'Bucket DELETE_IN_PROGRESS',
      'Bucket DELETE_COMPLETE',
      'cs-lake UPDATE_COMPLETE',
    ]);
  });

  it('names the parameter behind a change (ParameterReference) and pages long change lists', async ({ server: t, cloudformation: cfn, s3tables: s3t }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'cs-param', TemplateBody: lakeTemplate({ bucket: 'cs-param', env: true }) }));
    expect(await stackStatus(cfn, 'cs-param')).toBe('CREATE_COMPLETE');
    await cfn.send(
      new CreateChangeSetCommand({
        StackName: 'cs-param',
        ChangeSetName: 'prod',
        UsePreviousTemplate: true,
        Parameters: [{ ParameterKey: 'Env', ParameterValue: 'prod' }],
      }),
    );
    const cs = await cfn.send(new DescribeChangeSetCommand({ StackName: 'cs-param', ChangeSetName: 'prod' }));
    expect(cs.Parameters).toEqual([{ ParameterKey: 'Env', ParameterValue: 'prod' }]);
    expect(byId(cs.Changes!).Orders).toMatchObject({
      Action: 'Modify',
      Replacement: 'False',
      Details: [
        {
          Target: { Attribute: 'Properties', Name: 'TableName', RequiresRecreation: 'Never' },
          Evaluation: 'Static',
          ChangeSource: 'ParameterReference',
          CausingEntity: 'Env',
        },
      ],
    });

    const many: Record<string, unknown> = {};
    for (let i = 0; i < 130; i++) many[`Q${i}`] = queue();
    await cfn.send(new CreateChangeSetCommand({ StackName: 'cs-many', ChangeSetName: 'c', ChangeSetType: 'CREATE', TemplateBody: tpl(many) }));
    const first = await cfn.send(new DescribeChangeSetCommand({ StackName: 'cs-many', ChangeSetName: 'c' }));
    expect(first.Changes).toHaveLength(100);
    expect(first.NextToken).toBeDefined();
    expect(await changesOf(cfn, 'cs-many', 'c')).toHaveLength(130);
  });
});
