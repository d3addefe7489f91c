/**
 * The CloudFormation API with the JS SDK: stack lifecycle reads and writes, AWS's exact errors
 * (not-found wordings, AlreadyExists, name rule, capabilities, termination protection, "No updates
 * are to be performed."), stacks by name or ARN, deleted stacks by ARN only, events, resources,
 * templates (original text and processed), pagination, unknown members ignored, stack policy.
 */
import {
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStackResourceCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  GetStackPolicyCommand,
  GetTemplateCommand,
  GetTemplateSummaryCommand,
  ListStackResourcesCommand,
  ListStacksCommand,
  RollbackStackCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
  UpdateTerminationProtectionCommand,
  ValidateTemplateCommand,
  waitUntilStackCreateComplete,
  waitUntilStackDeleteComplete,
  waitUntilStackUpdateComplete
} from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from '../helpers/fixture.js';
import { allEvents, eventLines, queue, rawQuery, stackStatus, tpl } from './support.js';


async function fails(p: Promise<unknown>): Promise<{ name: string; message: string; status?: number }> {
  try {
    await p;
  } catch (err) {
    const e = err as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode };
  }
  throw new Error('expected a failure');
}


describe('CreateStack and the reads', () => {
  it('creates a stack that is complete at the first poll, with events, resources, outputs and template', async ({ server: t, cloudformation: cfn }) => {
    const body = tpl(
      { Queue: queue({ VisibilityTimeout: 30 }), Meta: { Type: 'AWS::CDK::Metadata', Metadata: { 'aws:cdk:path': 'x/Meta' } } },
      { Description: 'first & <stack>', Outputs: { QueueArn: { Value: { 'Fn::GetAtt': ['Queue', 'Arn'] }, Description: 'the arn' } } },
    );
    const { StackId } = await cfn.send(new CreateStackCommand({ StackName: 'api-one', TemplateBody: body, Tags: [{ Key: 'k', Value: 'v' }] }));
    expect(StackId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:stack\/api-one\/[0-9a-f-]{36}$/);
    const started = Date.now();
    const w = await waitUntilStackCreateComplete({ client: cfn, maxWaitTime: 30, minDelay: 5 }, { StackName: 'api-one' });
    expect(w.state).toBe('SUCCESS');
    expect(Date.now() - started).toBeLessThan(2000); // the first poll succeeded: no 5 s sleep

    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: StackId }))).Stacks![0]!;
    expect(stack).toMatchObject({
      StackName: 'api-one',
      StackStatus: 'CREATE_COMPLETE',
      Description: 'first & <stack>',
      Tags: [{ Key: 'k', Value: 'v' }],
      EnableTerminationProtection: false,
      DisableRollback: false,
    });
    expect(stack.Outputs).toEqual([
      { OutputKey: 'QueueArn', OutputValue: expect.stringMatching(/^arn:aws:sqs:us-east-1:000000000000:api-one-Queue-/), Description: 'the arn' },
    ]);

    const events = await allEvents(cfn, 'api-one');
    expect(eventLines(events)[0]).toBe('api-one CREATE_IN_PROGRESS');
    expect(eventLines(events).at(-1)).toBe('api-one CREATE_COMPLETE');
    expect(events[0]).toMatchObject({ ResourceType: 'AWS::CloudFormation::Stack', PhysicalResourceId: StackId, ResourceStatusReason: 'User Initiated' });
    const ids = new Set(events.map((e) => e.EventId));
    expect(ids.size).toBe(events.length);
    for (let i = 1; i < events.length; i++) expect(events[i]!.Timestamp!.getTime()).toBeGreaterThan(events[i - 1]!.Timestamp!.getTime());
    const q = events.filter((e) => e.LogicalResourceId === 'Queue').map((e) => [e.ResourceStatus, e.ResourceStatusReason]);
    expect(q[0]).toEqual(['CREATE_IN_PROGRESS', undefined]);
    expect(q[1]).toEqual(['CREATE_IN_PROGRESS', 'Resource creation Initiated']);
    expect(q[2]![0]).toBe('CREATE_COMPLETE');
    expect(q[2]![1]).toMatch(/stored, not run/);
    const queueEvent = events.find((e) => e.LogicalResourceId === 'Queue' && e.ResourceStatus === 'CREATE_IN_PROGRESS')!;
    expect(JSON.parse(queueEvent.ResourceProperties!)).toEqual({ VisibilityTimeout: 30 });
    expect(events.find((e) => e.LogicalResourceId === 'Queue' && e.ResourceStatus === 'CREATE_COMPLETE')!.EventId).toMatch(
      /^Queue-CREATE_COMPLETE-\d{4}-\d\d-\d\dT/,
    );

    const list = await cfn.send(new ListStackResourcesCommand({ StackName: 'api-one' }));
    expect(list.StackResourceSummaries!.map((r) => [r.LogicalResourceId, r.ResourceType, r.ResourceStatus])).toEqual([
      ['Queue', 'AWS::SQS::Queue', 'CREATE_COMPLETE'],
      ['Meta', 'AWS::CDK::Metadata', 'CREATE_COMPLETE'],
    ]);
    const detail = await cfn.send(new DescribeStackResourceCommand({ StackName: 'api-one', LogicalResourceId: 'Meta' }));
    expect(JSON.parse(detail.StackResourceDetail!.Metadata!)).toEqual({ 'aws:cdk:path': 'x/Meta' });
    const queuePhysical = list.StackResourceSummaries![0]!.PhysicalResourceId!;
    const byPhysical = await cfn.send(new DescribeStackResourcesCommand({ PhysicalResourceId: queuePhysical }));
    expect(byPhysical.StackResources!.map((r) => r.LogicalResourceId)).toEqual(['Queue', 'Meta']);
    const filtered = await cfn.send(new DescribeStackResourcesCommand({ StackName: 'api-one', LogicalResourceId: 'Meta' }));
    expect(filtered.StackResources!.map((r) => r.LogicalResourceId)).toEqual(['Meta']);

    const original = await cfn.send(new GetTemplateCommand({ StackName: 'api-one', TemplateStage: 'Original' }));
    expect(original.TemplateBody).toBe(body);
    expect(original.StagesAvailable).toEqual(['Original', 'Processed']);
  });

  it('answers missing stacks with the wordings clients match on', async ({ server: t, cloudformation: cfn }) => {
    expect(await fails(cfn.send(new DescribeStacksCommand({ StackName: 'nope' })))).toMatchObject({
      name: 'ValidationError',
      message: 'Stack with id nope does not exist',
      status: 400,
    });
    expect(await fails(cfn.send(new DescribeStackEventsCommand({ StackName: 'nope' })))).toMatchObject({
      name: 'ValidationError',
      message: 'Stack [nope] does not exist',
    });
    expect(await fails(cfn.send(new UpdateStackCommand({ StackName: 'nope', UsePreviousTemplate: true })))).toMatchObject({
      message: 'Stack [nope] does not exist',
    });
    expect(await fails(cfn.send(new ListStackResourcesCommand({ StackName: 'nope' })))).toMatchObject({
      message: 'Stack with id nope does not exist',
    });
    expect(await fails(cfn.send(new DescribeStackResourceCommand({ StackName: 'api-one', LogicalResourceId: 'Nope' })))).toMatchObject({
      message: 'Resource Nope does not exist for stack api-one',
    });
    // DeleteStack of a stack that does not exist succeeds.
    await cfn.send(new DeleteStackCommand({ StackName: 'nope' }));
  });

  it('answers a retried CreateStack (same ClientRequestToken) with the same stack', async ({ server: t, cloudformation: cfn }) => {
    const input = { StackName: 'api-token', TemplateBody: tpl({ Q: queue() }), ClientRequestToken: 'token-1' };
    const first = await cfn.send(new CreateStackCommand(input));
    const retry = await cfn.send(new CreateStackCommand(input));
    expect(retry.StackId).toBe(first.StackId);
    expect(await fails(cfn.send(new CreateStackCommand({ ...input, ClientRequestToken: 'token-2' })))).toMatchObject({
      name: 'AlreadyExistsException',
    });
    const events = await allEvents(cfn, 'api-token');
    expect(events.every((e) => e.ClientRequestToken === 'token-1')).toBe(true);
  });

  it('refuses a second stack of the same name, a bad name, unknown types and missing capabilities', async ({ server: t, cloudformation: cfn }) => {
    const body = tpl({ Q: queue() });
    expect(await fails(cfn.send(new CreateStackCommand({ StackName: 'api-one', TemplateBody: body })))).toMatchObject({
      name: 'AlreadyExistsException',
      message: 'Stack [api-one] already exists',
    });
    expect(await fails(cfn.send(new CreateStackCommand({ StackName: 'a_b', TemplateBody: body })))).toMatchObject({
      name: 'ValidationError',
      message:
        "1 validation error detected: Value 'a_b' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*",
    });
    expect(
      await fails(cfn.send(new CreateStackCommand({ StackName: 'api-bad-type', TemplateBody: tpl({ X: { Type: 'AWS::Foo::Bar' } }) }))),
    ).toMatchObject({ name: 'ValidationError', message: 'Template format error: Unrecognized resource types: [AWS::Foo::Bar]' });
    const iam = tpl({ Role: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [] } } } });
    expect(await fails(cfn.send(new CreateStackCommand({ StackName: 'api-iam', TemplateBody: iam })))).toMatchObject({
      name: 'InsufficientCapabilitiesException',
      message: 'Requires capabilities : [CAPABILITY_IAM]',
    });
    const named = tpl({
      Role: { Type: 'AWS::IAM::Role', Properties: { RoleName: 'r', AssumeRolePolicyDocument: { Version: '2012-10-17', Statement: [] } } },
    });
    expect(
      await fails(cfn.send(new CreateStackCommand({ StackName: 'api-iam', TemplateBody: named, Capabilities: ['CAPABILITY_IAM'] }))),
    ).toMatchObject({ name: 'InsufficientCapabilitiesException', message: 'Requires capabilities : [CAPABILITY_NAMED_IAM]' });
    await cfn.send(new CreateStackCommand({ StackName: 'api-iam', TemplateBody: named, Capabilities: ['CAPABILITY_NAMED_IAM'] }));
    expect(await stackStatus(cfn, 'api-iam')).toBe('CREATE_COMPLETE');
    // Nothing was left behind by the refused calls.
    expect(await fails(cfn.send(new DescribeStacksCommand({ StackName: 'api-bad-type' })))).toMatchObject({ name: 'ValidationError' });
  });

  it('updates, says "No updates are to be performed." exactly, and keeps the previous template for UsePreviousTemplate', async ({ server: t, cloudformation: cfn }) => {
    const v1 = tpl({ Q: queue({ DelaySeconds: 1 }) }, { Parameters: { P: { Type: 'String', Default: 'a' } } });
    await cfn.send(new CreateStackCommand({ StackName: 'api-upd', TemplateBody: v1 }));
    expect(await fails(cfn.send(new UpdateStackCommand({ StackName: 'api-upd', TemplateBody: v1 })))).toMatchObject({
      name: 'ValidationError',
      message: 'No updates are to be performed.',
    });
    await cfn.send(
      new UpdateStackCommand({ StackName: 'api-upd', UsePreviousTemplate: true, Parameters: [{ ParameterKey: 'P', ParameterValue: 'b' }] }),
    );
    expect((await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: 'api-upd' })).state).toBe('SUCCESS');
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'api-upd' }))).Stacks![0]!;
    expect(stack.Parameters).toEqual([{ ParameterKey: 'P', ParameterValue: 'b' }]);
    expect(stack.LastUpdatedTime).toBeInstanceOf(Date);
    const v2 = tpl({ Q: queue({ DelaySeconds: 2 }) }, { Parameters: { P: { Type: 'String', Default: 'a' } } });
    await cfn.send(new UpdateStackCommand({ StackName: 'api-upd', TemplateBody: v2, Parameters: [{ ParameterKey: 'P', UsePreviousValue: true }] }));
    const after = (await cfn.send(new DescribeStacksCommand({ StackName: 'api-upd' }))).Stacks![0]!;
    expect(after.StackStatus).toBe('UPDATE_COMPLETE');
    expect(after.Parameters).toEqual([{ ParameterKey: 'P', ParameterValue: 'b' }]);
    const lines = eventLines(await allEvents(cfn, 'api-upd'));
    expect(lines.slice(-5)).toEqual([
      'api-upd UPDATE_IN_PROGRESS',
      'Q UPDATE_IN_PROGRESS',
      'Q UPDATE_COMPLETE',
      'api-upd UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
      'api-upd UPDATE_COMPLETE',
    ]);
    expect((await cfn.send(new GetTemplateCommand({ StackName: 'api-upd' }))).TemplateBody).toBe(v2);
  });

  it('deletes: DELETE_COMPLETE by ARN, does not exist by name; termination protection refuses', async ({ server: t, cloudformation: cfn }) => {
    const { StackId } = await cfn.send(
      new CreateStackCommand({ StackName: 'api-del', TemplateBody: tpl({ Q: queue() }), EnableTerminationProtection: true }),
    );
    expect(await fails(cfn.send(new DeleteStackCommand({ StackName: 'api-del' })))).toMatchObject({
      name: 'ValidationError',
      message: 'Stack [api-del] cannot be deleted while TerminationProtection is enabled',
    });
    await cfn.send(new UpdateTerminationProtectionCommand({ StackName: StackId, EnableTerminationProtection: false }));
    await cfn.send(new DeleteStackCommand({ StackName: StackId }));
    expect((await waitUntilStackDeleteComplete({ client: cfn, maxWaitTime: 10, minDelay: 5 }, { StackName: 'api-del' })).state).toBe(
      'SUCCESS',
    );
    const gone = (await cfn.send(new DescribeStacksCommand({ StackName: StackId }))).Stacks![0]!;
    expect(gone.StackStatus).toBe('DELETE_COMPLETE');
    expect(gone.DeletionTime).toBeInstanceOf(Date);
    expect(await fails(cfn.send(new DescribeStacksCommand({ StackName: 'api-del' })))).toMatchObject({
      message: 'Stack with id api-del does not exist',
    });
    expect(eventLines(await allEvents(cfn, StackId!)).slice(-4)).toEqual([
      'api-del DELETE_IN_PROGRESS',
      'Q DELETE_IN_PROGRESS',
      'Q DELETE_COMPLETE',
      'api-del DELETE_COMPLETE',
    ]);
    const resources = await cfn.send(new ListStackResourcesCommand({ StackName: StackId }));
    expect(resources.StackResourceSummaries!.map((r) => r.ResourceStatus)).toEqual(['DELETE_COMPLETE']);
    // The name is free again, for a new stack with a new id.
    const again = await cfn.send(new CreateStackCommand({ StackName: 'api-del', TemplateBody: tpl({ Q: queue() }) }));
    expect(again.StackId).not.toBe(StackId);
    // A deleted stack is hidden from DescribeStacks without a name but listed by ListStacks.
    const all = await cfn.send(new DescribeStacksCommand({}));
    expect(all.Stacks!.map((s) => s.StackId)).not.toContain(StackId);
    const listed = await cfn.send(new ListStacksCommand({ StackStatusFilter: ['DELETE_COMPLETE'] }));
    expect(listed.StackSummaries!.map((s) => s.StackId)).toContain(StackId);
    expect(listed.StackSummaries!.every((s) => s.StackStatus === 'DELETE_COMPLETE')).toBe(true);
  });

  it('pages DescribeStacks, ListStacks and DescribeStackEvents with NextToken', async ({ server: t, cloudformation: cfn }) => {
    const resources: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) resources[`Q${i}`] = queue();
    await cfn.send(new CreateStackCommand({ StackName: 'api-big', TemplateBody: tpl(resources) }));
    expect(await stackStatus(cfn, 'api-big')).toBe('CREATE_COMPLETE');
    const first = await cfn.send(new DescribeStackEventsCommand({ StackName: 'api-big' }));
    expect(first.StackEvents).toHaveLength(100);
    expect(first.NextToken).toBeDefined();
    const events = await allEvents(cfn, 'api-big');
    expect(events).toHaveLength(2 + 60 * 3);
    const page1 = await cfn.send(new ListStackResourcesCommand({ StackName: 'api-big' }));
    expect(page1.StackResourceSummaries).toHaveLength(60);
    for (let i = 0; i < 105; i++) {
      await cfn.send(new CreateStackCommand({ StackName: `api-many-${i}`, TemplateBody: tpl({ W: { Type: 'AWS::CloudFormation::WaitConditionHandle' } }) }));
    }
    const d1 = await cfn.send(new DescribeStacksCommand({}));
    expect(d1.Stacks).toHaveLength(100);
    const d2 = await cfn.send(new DescribeStacksCommand({ NextToken: d1.NextToken }));
    const names = [...d1.Stacks!, ...d2.Stacks!].map((s) => s.StackName);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('api-many-0');
    expect(names[0]).toBe('api-many-104'); // newest first
    const l1 = await cfn.send(new ListStacksCommand({}));
    const l2 = await cfn.send(new ListStacksCommand({ NextToken: l1.NextToken }));
    expect(l1.StackSummaries!.length + (l2.StackSummaries?.length ?? 0)).toBeGreaterThan(105);
  });

  it('ignores request members it does not know and answers with the request id in header and body', async ({ server: t, cloudformation: cfn }) => {
    const res = await rawQuery(t, {
      Action: 'CreateStack',
      StackName: 'api-raw',
      TemplateBody: tpl({ Q: queue() }),
      'DeploymentConfig.Mode': 'STANDARD',
      DisableValidation: 'true',
      SomethingNew: 'x',
      Tags: '',
      Capabilities: '',
    });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-amzn-requestid');
    expect(res.body).toContain(`<RequestId>${id}</RequestId>`);
    expect(res.body).toMatch(/<CreateStackResponse xmlns="http:\/\/cloudformation.amazonaws.com\/doc\/2010-05-15\/"><CreateStackResult><StackId>arn:/);
    const err = await rawQuery(t, { Action: 'DescribeStacks', StackName: 'nope' });
    expect(err.status).toBe(400);
    expect(err.body).toContain('<Code>ValidationError</Code><Message>Stack with id nope does not exist</Message>');
    expect(err.body).toContain('<Type>Sender</Type>');
  });

  it('validates templates and summarises them', async ({ server: t, cloudformation: cfn }) => {
    const body = tpl(
      { Q: queue(), Role: { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: {} } } },
      { Description: 'd', Parameters: { Env: { Type: 'String', Default: 'dev', AllowedValues: ['dev', 'prod'], Description: 'env' } } },
    );
    const v = await cfn.send(new ValidateTemplateCommand({ TemplateBody: body }));
    expect(v).toMatchObject({
      Description: 'd',
      Capabilities: ['CAPABILITY_IAM'],
      CapabilitiesReason: 'The following resource(s) require capabilities: [AWS::IAM::Role]',
      Parameters: [{ ParameterKey: 'Env', DefaultValue: 'dev', NoEcho: false, Description: 'env' }],
    });
    const s = await cfn.send(new GetTemplateSummaryCommand({ TemplateBody: body }));
    expect(s.ResourceTypes).toEqual(['AWS::SQS::Queue', 'AWS::IAM::Role']);
    expect(s.Parameters![0]).toMatchObject({ ParameterKey: 'Env', ParameterType: 'String', ParameterConstraints: { AllowedValues: ['dev', 'prod'] } });
    const fromStack = await cfn.send(new GetTemplateSummaryCommand({ StackName: 'api-upd' }));
    expect(fromStack.Parameters!.map((p) => p.ParameterKey)).toEqual(['P']);
    const huge = JSON.stringify({ Resources: { Q: { Type: 'AWS::SQS::Queue', Metadata: { pad: 'x'.repeat(52_000) } } } });
    expect(await fails(cfn.send(new CreateStackCommand({ StackName: 'api-huge', TemplateBody: huge })))).toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/^1 validation error detected: Value '.*' at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200$/s),
    });
    expect(await fails(cfn.send(new ValidateTemplateCommand({ TemplateBody: '{"Resources": ' })))).toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/^Template format error: JSON not well-formed\. \(line \d+, column \d+\)$/),
    });
  });

  it('keeps a stack policy and refuses CancelUpdateStack outside an update', async ({ server: t, cloudformation: cfn }) => {
    const policy = JSON.stringify({ Statement: [{ Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' }] });
    expect(await cfn.send(new GetStackPolicyCommand({ StackName: 'api-upd' }))).not.toHaveProperty('StackPolicyBody');
    await cfn.send(new SetStackPolicyCommand({ StackName: 'api-upd', StackPolicyBody: policy }));
    expect((await cfn.send(new GetStackPolicyCommand({ StackName: 'api-upd' }))).StackPolicyBody).toBe(policy);
    expect(await fails(cfn.send(new CancelUpdateStackCommand({ StackName: 'api-upd' })))).toMatchObject({
      name: 'ValidationError',
      message: 'CancelUpdateStack cannot be called from current stack status UPDATE_COMPLETE.',
    });
    expect(await fails(cfn.send(new RollbackStackCommand({ StackName: 'api-upd' })))).toMatchObject({
      name: 'ValidationError',
      message: expect.stringMatching(/is in UPDATE_COMPLETE state and can not be rolled back\.$/),
    });
    expect(await fails(cfn.send(new ContinueUpdateRollbackCommand({ StackName: 'api-upd' })))).toMatchObject({ name: 'ValidationError' });
    expect(
      await fails(cfn.send(new DescribeStackResourcesCommand({ StackName: 'api-upd', PhysicalResourceId: 'x' }))),
    ).toMatchObject({ name: 'ValidationError', message: 'Cannot specify both StackName and PhysicalResourceId' });
  });
});

