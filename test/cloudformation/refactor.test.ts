/**
 * Stack refactoring through the SDK: a logical id renamed within a stack (detected AUTO) and a
 * bucket moved to another stack (a MANUAL mapping) without touching either resource — same
 * physical ids, same parameter version, CloudFormation's system tags rewritten, outputs evaluated
 * anew; the actions listed and paged; and the refusals: a duplicate logical id, a deletion, a
 * creation, a changed configuration (CREATE_FAILED with the reason), an unknown refactor (404),
 * executing a failed or an obsolete refactor.
 */
import {
  CreateStackCommand,
  CreateStackRefactorCommand,
  DescribeStackRefactorCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  ExecuteStackRefactorCommand,
  GetTemplateCommand,
  ListStackRefactorActionsCommand,
  ListStackRefactorsCommand,
  UpdateStackCommand,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { GetBucketTaggingCommand } from '@aws-sdk/client-s3';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../helpers/fixture.js';
import { failure } from '../helpers/errors.js';
import { tpl } from './support.js';

const param = (name: string, value = 'v') => ({ Type: 'AWS::SSM::Parameter', Properties: { Name: name, Type: 'String', Value: value } });

const SOURCE = tpl(
  {
    Old: param('/refactor/one'),
    Keep: param('/refactor/keep'),
    Logs: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'refactor-logs' } },
  },
  { Outputs: { One: { Value: { Ref: 'Old' } } } },
);
const TARGET = tpl({ Other: param('/refactor/other') });

async function resources(cfn: CloudFormationClient, stack: string): Promise<Record<string, string>> {
  const out = await cfn.send(new DescribeStackResourcesCommand({ StackName: stack }));
  return Object.fromEntries(out.StackResources!.map((r) => [r.LogicalResourceId!, r.PhysicalResourceId!]));
}

async function refactor(cfn: CloudFormationClient, input: ConstructorParameters<typeof CreateStackRefactorCommand>[0]) {
  const { StackRefactorId } = await cfn.send(new CreateStackRefactorCommand(input));
  return { id: StackRefactorId!, state: await cfn.send(new DescribeStackRefactorCommand({ StackRefactorId })) };
}

describe('stack refactoring', () => {
  it('renames a logical id and moves a bucket to another stack without touching either', async ({ cloudformation: cfn, ssm, s3 }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'Source', TemplateBody: SOURCE }));
    await cfn.send(new CreateStackCommand({ StackName: 'Target', TemplateBody: TARGET }));
    const before = await ssm.send(new GetParameterCommand({ Name: '/refactor/one' }));

    const source = tpl({ New: param('/refactor/one'), Keep: param('/refactor/keep') }, { Outputs: { One: { Value: { Ref: 'New' } } } });
    const target = tpl({ Other: param('/refactor/other'), Archive: { Type: 'AWS::S3::Bucket', Properties: { BucketName: 'refactor-logs' } } });
    const { id, state } = await refactor(cfn, {
      Description: 'rename and move',
      StackDefinitions: [
        { StackName: 'Source', TemplateBody: source },
        { StackName: 'Target', TemplateBody: target },
      ],
      ResourceMappings: [{ Source: { StackName: 'Source', LogicalResourceId: 'Logs' }, Destination: { StackName: 'Target', LogicalResourceId: 'Archive' } }],
    });
    expect(state).toMatchObject({ StackRefactorId: id, Description: 'rename and move', Status: 'CREATE_COMPLETE', ExecutionStatus: 'AVAILABLE' });
    const stacks = (await cfn.send(new DescribeStacksCommand({}))).Stacks!;
    const arn = (name: string) => stacks.find((s) => s.StackName === name)!.StackId!;
    expect(state.StackIds!.sort()).toEqual([arn('Source'), arn('Target')].sort());

    const actions = (await cfn.send(new ListStackRefactorActionsCommand({ StackRefactorId: id }))).StackRefactorActions!;
    const byDest = Object.fromEntries(actions.map((a) => [a.ResourceMapping!.Destination!.LogicalResourceId!, a]));
    expect(byDest.Archive).toMatchObject({
      Action: 'MOVE',
      Entity: 'RESOURCE',
      Detection: 'MANUAL',
      PhysicalResourceId: 'refactor-logs',
      ResourceIdentifier: 'BucketName=refactor-logs',
      ResourceMapping: { Source: { StackName: arn('Source'), LogicalResourceId: 'Logs' }, Destination: { StackName: arn('Target'), LogicalResourceId: 'Archive' } },
      UntagResources: ['aws:cloudformation:stack-name', 'aws:cloudformation:logical-id', 'aws:cloudformation:stack-id'],
    });
    expect(byDest.New).toMatchObject({ Action: 'MOVE', Detection: 'AUTO', PhysicalResourceId: '/refactor/one' });
    const page = await cfn.send(new ListStackRefactorActionsCommand({ StackRefactorId: id, MaxResults: 1 }));
    expect(page.StackRefactorActions).toHaveLength(1);
    expect(page.NextToken).toBeDefined();

    await cfn.send(new ExecuteStackRefactorCommand({ StackRefactorId: id }));
    expect((await cfn.send(new DescribeStackRefactorCommand({ StackRefactorId: id }))).ExecutionStatus).toBe('EXECUTE_COMPLETE');
    expect(await resources(cfn, 'Source')).toEqual({ New: '/refactor/one', Keep: '/refactor/keep' });
    expect(await resources(cfn, 'Target')).toEqual({ Other: '/refactor/other', Archive: 'refactor-logs' });
    const src = (await cfn.send(new DescribeStacksCommand({ StackName: 'Source' }))).Stacks![0]!;
    expect(src.StackStatus).toBe('UPDATE_COMPLETE');
    expect(src.Outputs).toEqual([{ OutputKey: 'One', OutputValue: '/refactor/one' }]);
    expect((await cfn.send(new GetTemplateCommand({ StackName: 'Target' }))).TemplateBody).toBe(target);
    // The parameter was not written again, and the bucket carries its new stack's system tags.
    expect((await ssm.send(new GetParameterCommand({ Name: '/refactor/one' }))).Parameter!.Version).toBe(before.Parameter!.Version);
    const tags = Object.fromEntries((await s3.send(new GetBucketTaggingCommand({ Bucket: 'refactor-logs' }))).TagSet!.map((t) => [t.Key, t.Value]));
    expect(tags).toMatchObject({ 'aws:cloudformation:stack-name': 'Target', 'aws:cloudformation:logical-id': 'Archive', 'aws:cloudformation:stack-id': arn('Target') });
    const listed = (await cfn.send(new ListStackRefactorsCommand({ ExecutionStatusFilter: ['EXECUTE_COMPLETE'] }))).StackRefactorSummaries!;
    expect(listed.map((r) => r.StackRefactorId)).toEqual([id]);
  });

  it('fails refactors that would duplicate a logical id, delete, create or change resources', async ({ cloudformation: cfn }) => {
    const current = (await cfn.send(new GetTemplateCommand({ StackName: 'Target' }))).TemplateBody!;
    const dup = await refactor(cfn, {
      StackDefinitions: [
        { StackName: 'Source', TemplateBody: tpl({ New: param('/refactor/one') }, { Outputs: { One: { Value: { Ref: 'New' } } } }) },
        { StackName: 'Target', TemplateBody: current },
      ],
      ResourceMappings: [{ Source: { StackName: 'Source', LogicalResourceId: 'Keep' }, Destination: { StackName: 'Target', LogicalResourceId: 'Other' } }],
    });
    expect(dup.state).toMatchObject({ Status: 'CREATE_FAILED', ExecutionStatus: 'UNAVAILABLE' });
    expect(dup.state.StatusReason).toBe('Stack [Target] would contain more than one resource with the logical ID [Other]: a stack refactor cannot duplicate a logical ID.');
    const run = await failure(cfn.send(new ExecuteStackRefactorCommand({ StackRefactorId: dup.id })));
    expect(run.name).toBe('ValidationError');

    const deleting = await refactor(cfn, { StackDefinitions: [{ StackName: 'Source', TemplateBody: tpl({ New: param('/refactor/one') }) }] });
    expect(deleting.state.StatusReason).toBe('A stack refactor cannot delete resources: [Source.Keep] are not in the stack definitions.');
    const creating = await refactor(cfn, {
      StackDefinitions: [{ StackName: 'Source', TemplateBody: tpl({ New: param('/refactor/one'), Keep: param('/refactor/keep'), Fresh: param('/refactor/fresh') }) }],
    });
    expect(creating.state.StatusReason).toBe('A stack refactor cannot create resources: [Source.Fresh] do not exist.');
    const changing = await refactor(cfn, {
      StackDefinitions: [{ StackName: 'Source', TemplateBody: tpl({ New: param('/refactor/one', 'changed'), Keep: param('/refactor/keep') }) }],
    });
    expect(changing.state.StatusReason).toBe('A stack refactor cannot change the configuration of resources: [Source.New].');
    const failed = (await cfn.send(new ListStackRefactorsCommand({ ExecutionStatusFilter: ['UNAVAILABLE'] }))).StackRefactorSummaries!;
    expect(failed.map((r) => r.StackRefactorId).sort()).toEqual([dup.id, deleting.id, creating.id, changing.id].sort());
    // Nothing moved.
    expect(await resources(cfn, 'Target')).toEqual({ Other: '/refactor/other', Archive: 'refactor-logs' });
  });

  it('answers AWS’s errors for unknown refactors, missing stacks and obsolete refactors', async ({ cloudformation: cfn }) => {
    const unknown = await failure(cfn.send(new DescribeStackRefactorCommand({ StackRefactorId: '9c384f70-4e07-4ed7-a65d-fee5eb430841' })));
    expect(unknown).toMatchObject({ name: 'StackRefactorNotFoundException', status: 404, message: "The specified stack refactor can't be found." });
    const noStack = await failure(cfn.send(new CreateStackRefactorCommand({ StackDefinitions: [{ StackName: 'Nowhere', TemplateBody: TARGET }] })));
    expect(noStack).toMatchObject({ name: 'ValidationError', message: 'Stack [Nowhere] does not exist' });
    const none = await failure(cfn.send(new CreateStackRefactorCommand({ StackDefinitions: [] })));
    expect(none.name).toBe('ValidationError');

    const template = (await cfn.send(new GetTemplateCommand({ StackName: 'Source' }))).TemplateBody!;
    const renamed = template.replace(/"Keep"/, '"Kept"');
    const stale = await refactor(cfn, { StackDefinitions: [{ StackName: 'Source', TemplateBody: renamed }] });
    expect(stale.state.Status).toBe('CREATE_COMPLETE');
    await cfn.send(new UpdateStackCommand({ StackName: 'Source', TemplateBody: template.replace('/refactor/keep', '/refactor/kept') }));
    expect((await cfn.send(new DescribeStackRefactorCommand({ StackRefactorId: stale.id }))).ExecutionStatus).toBe('OBSOLETE');
    const obsolete = await failure(cfn.send(new ExecuteStackRefactorCommand({ StackRefactorId: stale.id })));
    expect(obsolete.message).toBe(`StackRefactor [${stale.id}] cannot be executed in its current execution status of [OBSOLETE]`);
    expect(Object.keys(await resources(cfn, 'Source')).sort()).toEqual(['Keep', 'New']);
  });
});
