/**
 * Templates read from Overcast's own S3 by TemplateURL in every form clients send (path style on
 * the emulator's host by IP and by `localhost`, virtual-hosted and path-style AWS hosts, `s3://`),
 * and nested stacks (`AWS::CloudFormation::Stack`): parameters passed down, outputs read back with
 * GetAtt, ParentId/RootId, update and delete through the parent, a failing child rolled back.
 */
import {
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from '../helpers/fixture.js';
import { allEvents, queue, stackStatus, tpl } from './support.js';

it.beforeAll(async ({ s3 }) => {
  await s3.send(new CreateBucketCommand({ Bucket: 'templates' }));
});

async function put(s3: S3Client, key: string, body: string): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: 'templates', Key: key, Body: body, ContentType: 'application/json' }));
}

const child = tpl(
  {
    Param: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Name: { 'Fn::Sub': '/nested/${Label}' }, Value: { Ref: 'Label' } } },
    Fragile: { Type: 'AWS::SQS::Queue', Properties: { DelaySeconds: { Ref: 'Delay' } } },
  },
  {
    Parameters: { Label: { Type: 'String' }, Delay: { Type: 'Number', Default: 0 } },
    Outputs: { ParamName: { Value: { Ref: 'Param' } }, Parent: { Value: { Ref: 'AWS::StackName' } } },
  },
);

describe('TemplateURL', () => {
  it('reads the template from Overcast S3 in every URL form', async ({ server: t, cloudformation: cfn, s3 }) => {
    const port = new URL(t.endpoint).port;
    await put(s3, 'dir/simple template.json', tpl({ Q: queue() }));
    const forms = [
      `${t.endpoint}/templates/dir/simple%20template.json`,
      `http://localhost:${port}/templates/dir/simple%20template.json`,
      'https://templates.s3.amazonaws.com/dir/simple%20template.json',
      'https://templates.s3.us-east-1.amazonaws.com/dir/simple%20template.json',
      'https://s3.us-east-1.amazonaws.com/templates/dir/simple%20template.json',
      'https://s3.amazonaws.com/templates/dir/simple%20template.json',
      's3://templates/dir/simple template.json',
    ];
    for (const [i, url] of forms.entries()) {
      await cfn.send(new CreateStackCommand({ StackName: `url-${i}`, TemplateURL: url }));
      expect(await stackStatus(cfn, `url-${i}`), url).toBe('CREATE_COMPLETE');
    }
    await expect(cfn.send(new CreateStackCommand({ StackName: 'url-missing', TemplateURL: `${t.endpoint}/templates/nope.json` }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'TemplateURL must reference a valid S3 object to which you have access.',
    });
    await expect(cfn.send(new CreateStackCommand({ StackName: 'url-bad', TemplateURL: 'https://example.com/x.json' }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'TemplateURL must be a supported URL.',
    });
    await expect(
      cfn.send(new CreateStackCommand({ StackName: 'url-both', TemplateURL: forms[0], TemplateBody: tpl({ Q: queue() }) })),
    ).rejects.toMatchObject({ name: 'ValidationError' });
  });
});

describe('nested stacks', () => {
  it('creates, updates and deletes a child stack through its parent', async ({ server: t, cloudformation: cfn, s3 }) => {
    await put(s3, 'child.json', child);
    const parent = (label: string) =>
      tpl(
        {
          Child: {
            Type: 'AWS::CloudFormation::Stack',
            Properties: { TemplateURL: `${t.endpoint}/templates/child.json`, Parameters: { Label: label }, Tags: [{ Key: 'layer', Value: 'child' }] },
          },
          UsesChild: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { 'Fn::GetAtt': ['Child', 'Outputs.ParamName'] } } },
        },
        { Outputs: { ChildId: { Value: { Ref: 'Child' } }, ChildParent: { Value: { 'Fn::GetAtt': ['Child', 'Outputs.Parent'] } } } },
      );
    const { StackId } = await cfn.send(new CreateStackCommand({ StackName: 'nest', TemplateBody: parent('one'), Tags: [{ Key: 'app', Value: 'demo' }] }));
    const top = (await cfn.send(new DescribeStacksCommand({ StackName: 'nest' }))).Stacks![0]!;
    expect(top.StackStatus).toBe('CREATE_COMPLETE');
    const childId = top.Outputs!.find((o) => o.OutputKey === 'ChildId')!.OutputValue!;
    expect(childId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:stack\/nest-Child-[A-Z0-9]{12}\//);
    const childName = top.Outputs!.find((o) => o.OutputKey === 'ChildParent')!.OutputValue!;
    const nested = (await cfn.send(new DescribeStacksCommand({ StackName: childId }))).Stacks![0]!;
    expect(nested).toMatchObject({ StackName: childName, StackStatus: 'CREATE_COMPLETE', ParentId: StackId, RootId: StackId });
    expect(nested.Tags).toEqual(expect.arrayContaining([{ Key: 'app', Value: 'demo' }, { Key: 'layer', Value: 'child' }]));
    expect(nested.Parameters).toEqual(expect.arrayContaining([{ ParameterKey: 'Label', ParameterValue: 'one' }]));
    const resources = await cfn.send(new ListStackResourcesCommand({ StackName: 'nest' }));
    expect(resources.StackResourceSummaries!.find((r) => r.LogicalResourceId === 'Child')!.PhysicalResourceId).toBe(childId);
    const summaries = (await cfn.send(new ListStacksCommand({ StackStatusFilter: ['CREATE_COMPLETE'] }))).StackSummaries!;
    expect(summaries.find((s) => s.StackId === childId)).toMatchObject({ ParentId: StackId, RootId: StackId });

    await cfn.send(new UpdateStackCommand({ StackName: 'nest', TemplateBody: parent('two') }));
    expect(await stackStatus(cfn, 'nest')).toBe('UPDATE_COMPLETE');
    expect(await stackStatus(cfn, childId)).toBe('UPDATE_COMPLETE');
    const childParams = (await cfn.send(new DescribeStacksCommand({ StackName: childId }))).Stacks![0]!.Parameters!;
    expect(childParams).toEqual(expect.arrayContaining([{ ParameterKey: 'Label', ParameterValue: 'two' }]));
    // The dependent followed the child's new output.
    const events = await allEvents(cfn, 'nest');
    expect(events.some((e) => e.LogicalResourceId === 'UsesChild' && e.ResourceStatus === 'UPDATE_COMPLETE')).toBe(true);

    await cfn.send(new DeleteStackCommand({ StackName: 'nest' }));
    expect(await stackStatus(cfn, StackId!)).toBe('DELETE_COMPLETE');
    expect(await stackStatus(cfn, childId)).toBe('DELETE_COMPLETE');
  });

  it('rolls back a parent whose child fails, removing the child', async ({ server: t, cloudformation: cfn, s3 }) => {
    await put(s3, 'child.json', child);
    const body = tpl({
      Child: {
        Type: 'AWS::CloudFormation::Stack',
        Properties: { TemplateURL: 's3://templates/child.json', Parameters: { Label: 'bad', Delay: 'not-a-number' } },
      },
    });
    await cfn.send(new CreateStackCommand({ StackName: 'nest-bad', TemplateBody: body }));
    expect(await stackStatus(cfn, 'nest-bad')).toBe('ROLLBACK_COMPLETE');
    const failed = (await allEvents(cfn, 'nest-bad')).find((e) => e.ResourceStatus === 'CREATE_FAILED')!;
    expect(failed.LogicalResourceId).toBe('Child');
    expect(failed.ResourceStatusReason).toMatch(/Parameter 'Delay' must be a number|not-a-number/);

    const child2 = tpl({ Q: queue({ Bogus: 1 }) });
    await put(s3, 'child-bad.json', child2);
    await cfn.send(
      new CreateStackCommand({
        StackName: 'nest-bad2',
        TemplateBody: tpl({ Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: `${t.endpoint}/templates/child-bad.json` } } }),
      }),
    );
    expect(await stackStatus(cfn, 'nest-bad2')).toBe('ROLLBACK_COMPLETE');
    const reason = (await allEvents(cfn, 'nest-bad2')).find((e) => e.ResourceStatus === 'CREATE_FAILED')!.ResourceStatusReason!;
    expect(reason).toMatch(
      /^Embedded stack arn:aws:cloudformation:us-east-1:000000000000:stack\/nest-bad2-Child-[A-Z0-9]{12}\/[0-9a-f-]+ was not successfully created: The following resource\(s\) failed to create: \[Q\]\. /,
    );
    const childId = /Embedded stack (\S+) was/.exec(reason)![1]!;
    expect(await stackStatus(cfn, childId)).toBe('DELETE_COMPLETE');
  });

  it('ends UPDATE_ROLLBACK_FAILED when a child cannot be put back, and ContinueUpdateRollback skips it', async ({ cloudformation: cfn, s3 }) => {
    await put(s3, 'v1.json', tpl({ Q: queue({ DelaySeconds: 1 }) }));
    await put(s3, 'v2.json', tpl({ Q: queue({ DelaySeconds: 2 }) }));
    const parent = (version: string, extra: Record<string, unknown> = {}) =>
      tpl({ Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: `s3://templates/${version}.json` } }, ...extra });
    await cfn.send(new CreateStackCommand({ StackName: 'nest-stuck', TemplateBody: parent('v1') }));
    expect(await stackStatus(cfn, 'nest-stuck')).toBe('CREATE_COMPLETE');
    await expect(cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'nest-stuck' }))).rejects.toMatchObject({ name: 'ValidationError' });
    // The child's current template disappears, then an update changes the child and fails later:
    // putting the child back needs the template that is gone.
    await s3.send(new DeleteObjectCommand({ Bucket: 'templates', Key: 'v1.json' }));
    await cfn.send(
      new UpdateStackCommand({ StackName: 'nest-stuck', TemplateBody: parent('v2', { Bad: { ...queue({ Bogus: 1 }), DependsOn: 'Child' } }) }),
    );
    const stuck = (await cfn.send(new DescribeStacksCommand({ StackName: 'nest-stuck' }))).Stacks![0]!;
    expect(stuck.StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    expect(stuck.StackStatusReason).toBe('The following resource(s) failed to update: [Child]. ');
    await cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'nest-stuck', ResourcesToSkip: ['Child'] }));
    expect(await stackStatus(cfn, 'nest-stuck')).toBe('UPDATE_ROLLBACK_COMPLETE');
    const lines = (await allEvents(cfn, 'nest-stuck')).map((e) => `${e.LogicalResourceId} ${e.ResourceStatus}`);
    expect(lines.slice(-5)).toEqual([
      'nest-stuck UPDATE_ROLLBACK_IN_PROGRESS',
      'Child UPDATE_COMPLETE',
      'nest-stuck UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
      'Bad DELETE_COMPLETE',
      'nest-stuck UPDATE_ROLLBACK_COMPLETE',
    ]);
  });
});
