/**
 * Stack-level tags reaching the resources, read back through each service's own API: CreateStack
 * Tags land on every taggable resource (S3 Tables table bucket and table, S3 bucket, SSM parameter
 * with its map-shaped Tags), a tag the resource declares wins over the stack's, S3 buckets and SSM
 * parameters also carry CloudFormation's aws:cloudformation:* system tags (S3 Tables resources do
 * not), the template and events keep the template's own properties; an UpdateStack that changes
 * only the stack's tags updates the resources in place (same ARNs, UPDATE_COMPLETE), `Tags=`
 * removes them, the same tags again are "No updates are to be performed."; a change set for a
 * tags-only update shows Modify / Scope Tags; a failed update puts the old tags back; nested stacks
 * and their resources follow the parent's tags; and a requester's PutBucketTagging on such a
 * bucket must carry the system tags unchanged.
 */
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeChangeSetCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
  waitUntilChangeSetCreateComplete,
  waitUntilStackCreateComplete,
  waitUntilStackUpdateComplete,
  type CloudFormationClient,
  type Tag,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, GetBucketTaggingCommand, PutBucketTaggingCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateTableBucketCommand, ListTagsForResourceCommand, S3TablesClient } from '@aws-sdk/client-s3tables';
import { ListTagsForResourceCommand as ListParameterTagsCommand, SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../helpers/fixture.js';
import { allEvents, stackStatus, tpl } from './support.js';

const STACK = 'tagged';
const BUCKET_NAME = 'tagged-lake';

function lake(extra: Record<string, unknown> = {}): string {
  return tpl({
    Lake: {
      Type: 'AWS::S3Tables::TableBucket',
      Properties: { TableBucketName: BUCKET_NAME, Tags: [{ Key: 'team', Value: 'lake' }] },
    },
    Ns: { Type: 'AWS::S3Tables::Namespace', Properties: { TableBucketARN: { Ref: 'Lake' }, Namespace: 'sales' } },
    Orders: {
      Type: 'AWS::S3Tables::Table',
      DependsOn: 'Ns',
      Properties: { TableBucketARN: { Ref: 'Lake' }, Namespace: 'sales', TableName: 'orders', OpenTableFormat: 'ICEBERG', WithoutMetadata: 'Yes' },
    },
    Raw: { Type: 'AWS::S3::Bucket' },
    Setting: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'on', Tags: { team: 'params' } } },
    ...extra,
  });
}

const TEMPLATE = lake();

interface Ids {
  stackId: string;
  lake: string;
  orders: string;
  raw: string;
  setting: string;
}

async function ids(cfn: CloudFormationClient): Promise<Ids> {
  const stack = (await cfn.send(new DescribeStacksCommand({ StackName: STACK }))).Stacks![0]!;
  const rows = (await cfn.send(new ListStackResourcesCommand({ StackName: STACK }))).StackResourceSummaries!;
  const physical = (id: string) => rows.find((r) => r.LogicalResourceId === id)!.PhysicalResourceId!;
  return { stackId: stack.StackId!, lake: physical('Lake'), orders: physical('Orders'), raw: physical('Raw'), setting: physical('Setting') };
}

async function tableTags(s3t: S3TablesClient, arn: string): Promise<Record<string, string>> {
  return (await s3t.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags ?? {};
}

async function bucketTags(s3: S3Client, name: string): Promise<Record<string, string>> {
  const set = (await s3.send(new GetBucketTaggingCommand({ Bucket: name }))).TagSet ?? [];
  return Object.fromEntries(set.map((x) => [x.Key!, x.Value!]));
}

async function parameterTags(ssm: SSMClient, name: string): Promise<Record<string, string>> {
  const list = (await ssm.send(new ListParameterTagsCommand({ ResourceType: 'Parameter', ResourceId: name }))).TagList ?? [];
  return Object.fromEntries(list.map((x) => [x.Key!, x.Value!]));
}

function systemTags(i: Ids, logicalId: string): Record<string, string> {
  return {
    'aws:cloudformation:stack-name': STACK,
    'aws:cloudformation:stack-id': i.stackId,
    'aws:cloudformation:logical-id': logicalId,
  };
}

const tags = (m: Record<string, string>): Tag[] => Object.entries(m).map(([Key, Value]) => ({ Key, Value }));

async function updated(cfn: CloudFormationClient, input: { Tags?: Tag[]; TemplateBody?: string }): Promise<void> {
  await cfn.send(
    new UpdateStackCommand({
      StackName: STACK,
      ...(input.TemplateBody ? { TemplateBody: input.TemplateBody } : { UsePreviousTemplate: true }),
      ...(input.Tags ? { Tags: input.Tags } : {}),
    }),
  );
  await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: STACK }).catch(() => undefined);
}

describe('stack-level tags on resources', () => {
  it('CreateStack Tags reach every taggable resource; declared tags win; system tags where AWS adds them', async ({ cloudformation: cfn, s3, s3tables: s3t, ssm }) => {
    await cfn.send(new CreateStackCommand({ StackName: STACK, TemplateBody: TEMPLATE, Tags: tags({ team: 'stack', env: 'dev', cost: '42' }) }));
    expect((await waitUntilStackCreateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: STACK })).state).toBe('SUCCESS');
    const i = await ids(cfn);
    // The table bucket's own team=lake wins; S3 Tables resources get no aws:cloudformation:* tags.
    expect(await tableTags(s3t, i.lake)).toEqual({ team: 'lake', env: 'dev', cost: '42' });
    expect(await tableTags(s3t, i.orders)).toEqual({ team: 'stack', env: 'dev', cost: '42' });
    expect(await bucketTags(s3, i.raw)).toEqual({ team: 'stack', env: 'dev', cost: '42', ...systemTags(i, 'Raw') });
    // A map-shaped tag property (AWS::SSM::Parameter) takes them too, its own key winning.
    expect(await parameterTags(ssm, i.setting)).toEqual({ team: 'params', env: 'dev', cost: '42', ...systemTags(i, 'Setting') });

    // The template and the events keep the template's own properties.
    expect((await cfn.send(new GetTemplateCommand({ StackName: STACK, TemplateStage: 'Original' }))).TemplateBody).toBe(TEMPLATE);
    const lakeEvent = (await allEvents(cfn, STACK)).find((e) => e.LogicalResourceId === 'Lake' && e.ResourceProperties);
    expect(JSON.parse(lakeEvent!.ResourceProperties!).Tags).toEqual([{ Key: 'team', Value: 'lake' }]);
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: STACK }))).Stacks![0]!;
    expect(stack.Tags).toEqual(tags({ team: 'stack', env: 'dev', cost: '42' }));
  });

  it('an update that changes only the stack tags updates the resources in place', async ({ cloudformation: cfn, s3, s3tables: s3t, ssm }) => {
    const before = await ids(cfn);
    const eventsBefore = (await allEvents(cfn, STACK)).length;
    await updated(cfn, { Tags: tags({ team: 'stack', env: 'prod', owner: 'ops' }) });
    expect(await stackStatus(cfn, STACK)).toBe('UPDATE_COMPLETE');
    const after = await ids(cfn);
    expect(after).toEqual(before);
    expect(await tableTags(s3t, after.lake)).toEqual({ team: 'lake', env: 'prod', owner: 'ops' });
    expect(await tableTags(s3t, after.orders)).toEqual({ team: 'stack', env: 'prod', owner: 'ops' });
    expect(await bucketTags(s3, after.raw)).toEqual({ team: 'stack', env: 'prod', owner: 'ops', ...systemTags(after, 'Raw') });
    expect(await parameterTags(ssm, after.setting)).toEqual({ team: 'params', env: 'prod', owner: 'ops', ...systemTags(after, 'Setting') });

    const events = (await allEvents(cfn, STACK)).slice(eventsBefore);
    const updatedIds = new Set(events.filter((e) => e.ResourceStatus === 'UPDATE_COMPLETE' && e.LogicalResourceId !== STACK).map((e) => e.LogicalResourceId));
    // Every taggable resource, in place; the namespace has no tags and is left alone.
    expect([...updatedIds].sort()).toEqual(['Lake', 'Orders', 'Raw', 'Setting']);
    expect(events.some((e) => e.ResourceStatusReason?.includes('creation of a new physical resource'))).toBe(false);
  });

  it('the same stack tags again, in another order, are no update', async ({ cloudformation: cfn }) => {
    const err = await cfn
      .send(new UpdateStackCommand({ StackName: STACK, UsePreviousTemplate: true, Tags: tags({ owner: 'ops', env: 'prod', team: 'stack' }) }))
      .catch((e: Error) => e);
    expect(err).toMatchObject({ name: 'ValidationError', message: 'No updates are to be performed.' });
  });

  it('a change set for a tags-only update shows Modify with Scope Tags, and executing it applies them', async ({ cloudformation: cfn, s3, s3tables: s3t }) => {
    const created = await cfn.send(
      new CreateChangeSetCommand({ StackName: STACK, ChangeSetName: 'retag', UsePreviousTemplate: true, Tags: tags({ team: 'stack', env: 'staging' }) }),
    );
    await waitUntilChangeSetCreateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { ChangeSetName: created.Id });
    const cs = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: created.Id }));
    expect(cs.Status).toBe('CREATE_COMPLETE');
    expect(cs.Tags).toEqual(tags({ team: 'stack', env: 'staging' }));
    const i = await ids(cfn);
    const physical: Record<string, string> = { Lake: i.lake, Orders: i.orders, Raw: i.raw, Setting: i.setting };
    expect(cs.Changes!.map((c) => c.ResourceChange!.LogicalResourceId).sort()).toEqual(['Lake', 'Orders', 'Raw', 'Setting']);
    for (const c of cs.Changes!) {
      const rc = c.ResourceChange!;
      expect(rc).toMatchObject({
        Action: 'Modify',
        PhysicalResourceId: physical[rc.LogicalResourceId!],
        Replacement: 'False',
        Scope: ['Tags'],
        Details: [{ Target: { Attribute: 'Tags', RequiresRecreation: 'Never' }, Evaluation: 'Static', ChangeSource: 'DirectModification' }],
      });
    }

    const valued = await cfn.send(new DescribeChangeSetCommand({ ChangeSetName: created.Id, IncludePropertyValues: true }));
    const orders = valued.Changes!.find((c) => c.ResourceChange!.LogicalResourceId === 'Orders')!.ResourceChange!;
    const target = orders.Details![0]!.Target!;
    expect(JSON.parse(target.BeforeValue!)).toEqual(tags({ env: 'prod', owner: 'ops', team: 'stack' }));
    expect(JSON.parse(target.AfterValue!)).toEqual(tags({ env: 'staging', team: 'stack' }));
    // The contexts are the template's properties, which hold no stack tags.
    expect(JSON.parse(orders.AfterContext!).Properties.Tags).toBeUndefined();

    await cfn.send(new ExecuteChangeSetCommand({ ChangeSetName: created.Id }));
    await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: STACK });
    expect(await stackStatus(cfn, STACK)).toBe('UPDATE_COMPLETE');
    expect(await tableTags(s3t, i.orders)).toEqual({ team: 'stack', env: 'staging' });
    expect(await tableTags(s3t, i.lake)).toEqual({ team: 'lake', env: 'staging' });
    expect(await bucketTags(s3, i.raw)).toEqual({ team: 'stack', env: 'staging', ...systemTags(i, 'Raw') });
  });

  it('a failed update puts the resources’ previous tags back', async ({ cloudformation: cfn, s3tables: s3t, ssm }) => {
    const i = await ids(cfn);
    // The new table bucket's name is taken, so it fails — after the tags were changed everywhere.
    await s3t.send(new CreateTableBucketCommand({ name: 'tagged-taken' }));
    const failing = lake({
      Taken: { Type: 'AWS::S3Tables::TableBucket', DependsOn: ['Lake', 'Orders', 'Raw', 'Setting'], Properties: { TableBucketName: 'tagged-taken' } },
    });
    await cfn.send(new UpdateStackCommand({ StackName: STACK, TemplateBody: failing, Tags: tags({ env: 'broken' }) }));
    await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: STACK }).catch(() => undefined);
    expect(await stackStatus(cfn, STACK)).toBe('UPDATE_ROLLBACK_COMPLETE');
    const events = await allEvents(cfn, STACK);
    expect(events.some((e) => e.LogicalResourceId === 'Orders' && e.ResourceStatus === 'UPDATE_COMPLETE')).toBe(true);
    expect(await tableTags(s3t, i.orders)).toEqual({ team: 'stack', env: 'staging' });
    expect(await parameterTags(ssm, i.setting)).toEqual({ team: 'params', env: 'staging', ...systemTags(i, 'Setting') });
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: STACK }))).Stacks![0]!;
    expect(stack.Tags).toEqual(tags({ team: 'stack', env: 'staging' }));
  });

  it('Tags= (empty) on update removes the stack tags from the resources; their own and system tags stay', async ({ cloudformation: cfn, s3, s3tables: s3t, ssm }) => {
    const i = await ids(cfn);
    await updated(cfn, { Tags: [] });
    expect(await stackStatus(cfn, STACK)).toBe('UPDATE_COMPLETE');
    expect((await cfn.send(new DescribeStacksCommand({ StackName: STACK }))).Stacks![0]!.Tags ?? []).toEqual([]);
    expect(await tableTags(s3t, i.orders)).toEqual({});
    expect(await tableTags(s3t, i.lake)).toEqual({ team: 'lake' });
    expect(await bucketTags(s3, i.raw)).toEqual(systemTags(i, 'Raw'));
    expect(await parameterTags(ssm, i.setting)).toEqual({ team: 'params', ...systemTags(i, 'Setting') });
  });

  it('a requester’s PutBucketTagging must send the system tags back unchanged', async ({ cloudformation: cfn, s3 }) => {
    const i = await ids(cfn);
    const system = tags(systemTags(i, 'Raw'));
    const put = (set: Tag[]) =>
      s3
        .send(new PutBucketTaggingCommand({ Bucket: i.raw, Tagging: { TagSet: set } }))
        .then((r) => r.$metadata.httpStatusCode)
        .catch((e: Error) => e);
    expect(await put([{ Key: 'mine', Value: '1' }])).toMatchObject({ name: 'InvalidTag', message: 'System Tags cannot be removed by requester' });
    expect(await put([...system, { Key: 'aws:mine', Value: '1' }])).toMatchObject({
      name: 'InvalidTag',
      message: 'System tags cannot be added/updated by requester',
    });
    const changed = system.map((x) => (x.Key === 'aws:cloudformation:logical-id' ? { ...x, Value: 'Other' } : x));
    expect(await put(changed)).toMatchObject({ name: 'InvalidTag', message: 'System tags cannot be added/updated by requester' });
    expect(await bucketTags(s3, i.raw)).toEqual(systemTags(i, 'Raw'));
    expect(await put([...system, { Key: 'mine', Value: '1' }])).toBe(200);
    expect(await bucketTags(s3, i.raw)).toEqual({ ...systemTags(i, 'Raw'), mine: '1' });
  });

  it('a nested stack and its resources follow the parent’s stack tags, removal included', async ({ server: t, cloudformation: cfn, s3, s3tables: s3t }) => {
    await s3.send(new CreateBucketCommand({ Bucket: 'tag-templates' }));
    const child = tpl({ Inner: { Type: 'AWS::S3Tables::TableBucket', Properties: { TableBucketName: 'tagged-inner' } } });
    await s3.send(new PutObjectCommand({ Bucket: 'tag-templates', Key: 'child.json', Body: child }));
    const parent = tpl({ Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: `${t.endpoint}/tag-templates/child.json` } } });
    await cfn.send(new CreateStackCommand({ StackName: 'tag-parent', TemplateBody: parent, Tags: tags({ app: 'demo' }) }));
    await waitUntilStackCreateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: 'tag-parent' });
    const childId = (await cfn.send(new ListStackResourcesCommand({ StackName: 'tag-parent' }))).StackResourceSummaries![0]!.PhysicalResourceId!;
    const inner = 'arn:aws:s3tables:us-east-1:000000000000:bucket/tagged-inner';
    expect((await cfn.send(new DescribeStacksCommand({ StackName: childId }))).Stacks![0]!.Tags).toEqual(tags({ app: 'demo' }));
    expect(await tableTags(s3t, inner)).toEqual({ app: 'demo' });

    await cfn.send(new UpdateStackCommand({ StackName: 'tag-parent', UsePreviousTemplate: true, Tags: tags({ app: 'demo2', tier: 'gold' }) }));
    await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: 'tag-parent' });
    expect(await tableTags(s3t, inner)).toEqual({ app: 'demo2', tier: 'gold' });
    await cfn.send(new UpdateStackCommand({ StackName: 'tag-parent', UsePreviousTemplate: true, Tags: tags({ tier: 'gold' }) }));
    await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: 'tag-parent' });
    expect(await stackStatus(cfn, 'tag-parent')).toBe('UPDATE_COMPLETE');
    expect((await cfn.send(new DescribeStacksCommand({ StackName: childId }))).Stacks![0]!.Tags).toEqual(tags({ tier: 'gold' }));
    expect(await tableTags(s3t, inner)).toEqual({ tier: 'gold' });
  });
});
