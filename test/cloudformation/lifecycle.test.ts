/**
 * The stack lifecycle with real resources (SSM parameters, read back through SSM's own API):
 * rollback of a failing create (everything it made is gone) and of a failing update (the previous
 * values, template and parameters are back), DisableRollback / OnFailure and RollbackStack,
 * replacement (new one first, old one deleted in cleanup), removal, Retain / Snapshot policies, the
 * custom-named replacement refusal, and the order of it all in the events.
 */
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  RollbackStackCommand,
  SetStackPolicyCommand,
  UpdateStackCommand,
  waitUntilStackCreateComplete,
  waitUntilStackUpdateComplete,
  type CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { describe, expect, it } from '../helpers/fixture.js';
import { allEvents, eventLines, queue, stackStatus, tpl } from './support.js';

it.beforeAll(async ({ ssm }) => {
  await ssm.send(new PutParameterCommand({ Name: '/taken', Value: 'outside', Type: 'String' }));
});

async function ssmValue(ssm: SSMClient, name: string): Promise<string | undefined> {
  try {
    return (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
  } catch (err) {
    if ((err as Error).name === 'ParameterNotFound') return undefined;
    throw err;
  }
}

function param(props: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', ...props }, ...extra };
}

async function physicalIds(cfn: CloudFormationClient, stack: string): Promise<Record<string, string | undefined>> {
  const out = await cfn.send(new ListStackResourcesCommand({ StackName: stack }));
  return Object.fromEntries(out.StackResourceSummaries!.map((r) => [r.LogicalResourceId!, r.PhysicalResourceId]));
}

const failingCreate = tpl({
  Good: param({ Name: '/lc/good', Value: 'g' }),
  Other: param({ Value: 'generated name' }),
  Bad: param({ Name: '/taken', Value: 'mine' }, { DependsOn: ['Good', 'Other'] }),
});

describe('rollback', () => {
  it('rolls a failing create back: ROLLBACK_COMPLETE, every created resource gone, the waiter fails at once', async ({ cloudformation: cfn, ssm }) => {
    const { StackId } = await cfn.send(new CreateStackCommand({ StackName: 'lc-fail', TemplateBody: failingCreate }));
    const w = await waitUntilStackCreateComplete({ client: cfn, maxWaitTime: 30, minDelay: 5 }, { StackName: 'lc-fail' }).catch((e) => e);
    expect(String(w)).toMatch(/FAILURE|ROLLBACK_COMPLETE/);
    expect(await stackStatus(cfn, 'lc-fail')).toBe('ROLLBACK_COMPLETE');
    const events = await allEvents(cfn, 'lc-fail');
    const bad = events.find((e) => e.LogicalResourceId === 'Bad' && e.ResourceStatus === 'CREATE_FAILED')!;
    expect(bad.ResourceStatusReason).toMatch(/^Resource handler returned message: "The parameter already exists\./);
    expect(bad.ResourceStatusReason).toMatch(/HandlerErrorCode: AlreadyExists\)$/);
    const rollback = events.find((e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS')!;
    expect(rollback.ResourceStatusReason).toBe('The following resource(s) failed to create: [Bad]. Rollback requested by user.');
    const lines = eventLines(events);
    expect(lines.indexOf('Good DELETE_COMPLETE')).toBeGreaterThan(lines.indexOf('lc-fail ROLLBACK_IN_PROGRESS'));
    expect(lines.at(-1)).toBe('lc-fail ROLLBACK_COMPLETE');
    // Nothing the stack made survives; what it did not make is untouched.
    expect(await ssmValue(ssm, '/lc/good')).toBeUndefined();
    const other = events.find((e) => e.LogicalResourceId === 'Other' && e.ResourceStatus === 'CREATE_COMPLETE')!.PhysicalResourceId!;
    expect(other).toMatch(/^CFN-Other-/);
    expect(await ssmValue(ssm, other)).toBeUndefined();
    expect(await ssmValue(ssm, '/taken')).toBe('outside');
    const resources = await cfn.send(new ListStackResourcesCommand({ StackName: 'lc-fail' }));
    expect(resources.StackResourceSummaries!.every((r) => r.ResourceStatus === 'DELETE_COMPLETE')).toBe(true);

    // ROLLBACK_COMPLETE can only be deleted.
    await expect(cfn.send(new UpdateStackCommand({ StackName: 'lc-fail', TemplateBody: failingCreate }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: `Stack:${StackId} is in ROLLBACK_COMPLETE state and can not be updated.`,
    });
    await expect(cfn.send(new CreateStackCommand({ StackName: 'lc-fail', TemplateBody: failingCreate }))).rejects.toMatchObject({
      name: 'AlreadyExistsException',
    });
    await cfn.send(new DeleteStackCommand({ StackName: 'lc-fail' }));
    expect((await cfn.send(new DescribeStacksCommand({ StackName: StackId }))).Stacks![0]!.StackStatus).toBe('DELETE_COMPLETE');
  });

  it('keeps a failed create with DisableRollback, then RollbackStack removes it all', async ({ cloudformation: cfn, ssm }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'lc-keep', TemplateBody: failingCreate, DisableRollback: true }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'lc-keep' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_FAILED');
    expect(stack.StackStatusReason).toBe('The following resource(s) failed to create: [Bad]. ');
    expect(await ssmValue(ssm, '/lc/good')).toBe('g');
    await cfn.send(new RollbackStackCommand({ StackName: 'lc-keep' }));
    expect(await stackStatus(cfn, 'lc-keep')).toBe('ROLLBACK_COMPLETE');
    expect(await ssmValue(ssm, '/lc/good')).toBeUndefined();
    await cfn.send(new DeleteStackCommand({ StackName: 'lc-keep' }));
  });

  it('deletes the stack after a failed create with OnFailure=DELETE', async ({ cloudformation: cfn, ssm }) => {
    const { StackId } = await cfn.send(new CreateStackCommand({ StackName: 'lc-ondel', TemplateBody: failingCreate, OnFailure: 'DELETE' }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: StackId }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('DELETE_COMPLETE');
    expect(await ssmValue(ssm, '/lc/good')).toBeUndefined();
    await expect(cfn.send(new DescribeStacksCommand({ StackName: 'lc-ondel' }))).rejects.toMatchObject({
      message: 'Stack with id lc-ondel does not exist',
    });
  });

  it('rolls a failing update back: modified resources, template, parameters and outputs as before', async ({ cloudformation: cfn, ssm }) => {
    const v1 = tpl(
      { A: param({ Name: '/lc/a', Value: { Ref: 'V' } }), B: param({ Value: { 'Fn::Sub': '${A}-b' } }) },
      { Parameters: { V: { Type: 'String' } }, Outputs: { AValue: { Value: { 'Fn::GetAtt': ['A', 'Value'] } } } },
    );
    await cfn.send(new CreateStackCommand({ StackName: 'lc-upd', TemplateBody: v1, Parameters: [{ ParameterKey: 'V', ParameterValue: 'one' }] }));
    expect(await stackStatus(cfn, 'lc-upd')).toBe('CREATE_COMPLETE');
    const before = await physicalIds(cfn, 'lc-upd');
    const v2 = tpl(
      {
        A: param({ Name: '/lc/a', Value: { Ref: 'V' } }),
        B: param({ Value: { 'Fn::Sub': '${A}-b' } }),
        Fresh: param({ Name: '/lc/fresh', Value: 'x' }, { DependsOn: 'A' }),
        Clash: param({ Name: '/taken', Value: 'y' }, { DependsOn: 'Fresh' }),
      },
      { Parameters: { V: { Type: 'String' } }, Outputs: { AValue: { Value: { 'Fn::GetAtt': ['A', 'Value'] } } } },
    );
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-upd', TemplateBody: v2, Parameters: [{ ParameterKey: 'V', ParameterValue: 'two' }] }));
    const w = await waitUntilStackUpdateComplete({ client: cfn, maxWaitTime: 30, minDelay: 5 }, { StackName: 'lc-upd' }).catch((e) => e);
    expect(String(w)).toMatch(/UPDATE_ROLLBACK_COMPLETE|FAILURE/);
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'lc-upd' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(stack.Parameters).toEqual([{ ParameterKey: 'V', ParameterValue: 'one' }]);
    expect(stack.Outputs).toEqual([{ OutputKey: 'AValue', OutputValue: 'one' }]);
    expect(await ssmValue(ssm, '/lc/a')).toBe('one');
    expect(await ssmValue(ssm, before.B!)).toBe('/lc/a-b');
    expect(await ssmValue(ssm, '/lc/fresh')).toBeUndefined();
    expect(await ssmValue(ssm, '/taken')).toBe('outside');
    expect((await cfn.send(new GetTemplateCommand({ StackName: 'lc-upd', TemplateStage: 'Original' }))).TemplateBody).toBe(v1);
    expect(await physicalIds(cfn, 'lc-upd')).toEqual(before);
    const lines = eventLines(await allEvents(cfn, 'lc-upd'));
    const from = lines.lastIndexOf('lc-upd UPDATE_IN_PROGRESS');
    expect(lines.slice(from)).toEqual([
      'lc-upd UPDATE_IN_PROGRESS',
      'A UPDATE_IN_PROGRESS',
      'A UPDATE_COMPLETE',
      'Fresh CREATE_IN_PROGRESS',
      'Fresh CREATE_IN_PROGRESS',
      'Fresh CREATE_COMPLETE',
      'Clash CREATE_IN_PROGRESS',
      'Clash CREATE_FAILED',
      'lc-upd UPDATE_ROLLBACK_IN_PROGRESS',
      'A UPDATE_IN_PROGRESS',
      'A UPDATE_COMPLETE',
      'lc-upd UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
      'Clash DELETE_COMPLETE',
      'Fresh DELETE_IN_PROGRESS',
      'Fresh DELETE_COMPLETE',
      'lc-upd UPDATE_ROLLBACK_COMPLETE',
    ]);
    // UPDATE_ROLLBACK_COMPLETE is updatable again.
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-upd', TemplateBody: v1, Parameters: [{ ParameterKey: 'V', ParameterValue: 'three' }] }));
    expect(await stackStatus(cfn, 'lc-upd')).toBe('UPDATE_COMPLETE');
    expect(await ssmValue(ssm, '/lc/a')).toBe('three');
  });

  it('leaves a failed update UPDATE_FAILED with DisableRollback; RollbackStack restores it', async ({ cloudformation: cfn, ssm }) => {
    const v1 = tpl({ A: param({ Name: '/lc/dr', Value: 'one' }) });
    await cfn.send(new CreateStackCommand({ StackName: 'lc-dr', TemplateBody: v1 }));
    const v2 = tpl({ A: param({ Name: '/lc/dr', Value: 'two' }), Clash: param({ Name: '/taken', Value: 'y' }, { DependsOn: 'A' }) });
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-dr', TemplateBody: v2, DisableRollback: true }));
    expect(await stackStatus(cfn, 'lc-dr')).toBe('UPDATE_FAILED');
    expect(await ssmValue(ssm, '/lc/dr')).toBe('two');
    await cfn.send(new RollbackStackCommand({ StackName: 'lc-dr' }));
    expect(await stackStatus(cfn, 'lc-dr')).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await ssmValue(ssm, '/lc/dr')).toBe('one');
  });
});

describe('replacement, removal and policies', () => {
  it('replaces by creating the new resource first and deleting the old one in cleanup; dependents follow', async ({ cloudformation: cfn, ssm }) => {
    const v1 = tpl({ A: param({ Name: '/lc/r1', Value: 'a' }), User: param({ Value: { Ref: 'A' } }) });
    await cfn.send(new CreateStackCommand({ StackName: 'lc-rep', TemplateBody: v1 }));
    const user = (await physicalIds(cfn, 'lc-rep')).User!;
    expect(await ssmValue(ssm, user)).toBe('/lc/r1');
    const v2 = tpl({ A: param({ Name: '/lc/r2', Value: 'a' }), User: param({ Value: { Ref: 'A' } }) });
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-rep', TemplateBody: v2 }));
    expect(await stackStatus(cfn, 'lc-rep')).toBe('UPDATE_COMPLETE');
    expect(await ssmValue(ssm, '/lc/r1')).toBeUndefined();
    expect(await ssmValue(ssm, '/lc/r2')).toBe('a');
    expect(await ssmValue(ssm, user)).toBe('/lc/r2');
    const events = await allEvents(cfn, 'lc-rep');
    const from = events.findIndex((e) => e.ResourceStatus === 'UPDATE_IN_PROGRESS');
    const tail = events.slice(from).map((e) => `${e.LogicalResourceId} ${e.ResourceStatus} ${e.PhysicalResourceId?.startsWith('arn:') ? 'stack' : e.PhysicalResourceId} ${e.ResourceStatusReason ?? ''}`.trim());
    expect(tail).toEqual([
      'lc-rep UPDATE_IN_PROGRESS stack User Initiated',
      'A UPDATE_IN_PROGRESS /lc/r1 Requested update requires the creation of a new physical resource; hence creating one.',
      'A UPDATE_IN_PROGRESS /lc/r2 Resource creation Initiated',
      'A UPDATE_COMPLETE /lc/r2',
      `User UPDATE_IN_PROGRESS ${user}`,
      `User UPDATE_COMPLETE ${user}`,
      'lc-rep UPDATE_COMPLETE_CLEANUP_IN_PROGRESS stack',
      'A DELETE_IN_PROGRESS /lc/r1',
      'A DELETE_COMPLETE /lc/r1',
      'lc-rep UPDATE_COMPLETE stack',
    ]);
  });

  it('deletes a resource removed from the template in cleanup, and honours Retain, Snapshot and UpdateReplacePolicy', async ({ cloudformation: cfn, ssm }) => {
    const v1 = tpl({
      Keep: param({ Name: '/lc/keep', Value: 'k' }, { DeletionPolicy: 'Retain' }),
      Snap: param({ Name: '/lc/snap', Value: 's' }, { DeletionPolicy: 'Snapshot' }),
      Drop: param({ Name: '/lc/drop', Value: 'd' }),
      Swap: param({ Name: '/lc/swap1', Value: 'w' }, { UpdateReplacePolicy: 'Retain' }),
    });
    await cfn.send(new CreateStackCommand({ StackName: 'lc-pol', TemplateBody: v1 }));
    const v2 = tpl({
      Keep: param({ Name: '/lc/keep', Value: 'k' }, { DeletionPolicy: 'Retain' }),
      Snap: param({ Name: '/lc/snap', Value: 's' }, { DeletionPolicy: 'Snapshot' }),
      Swap: param({ Name: '/lc/swap2', Value: 'w' }, { UpdateReplacePolicy: 'Retain' }),
    });
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-pol', TemplateBody: v2 }));
    expect(await stackStatus(cfn, 'lc-pol')).toBe('UPDATE_COMPLETE');
    expect(await ssmValue(ssm, '/lc/drop')).toBeUndefined();
    expect(await ssmValue(ssm, '/lc/swap1')).toBe('w'); // old half kept by UpdateReplacePolicy: Retain
    expect(await ssmValue(ssm, '/lc/swap2')).toBe('w');
    expect(Object.keys(await physicalIds(cfn, 'lc-pol'))).toEqual(['Keep', 'Snap', 'Swap']);
    await cfn.send(new DeleteStackCommand({ StackName: 'lc-pol' }));
    const events = await allEvents(cfn, 'lc-pol').catch(() => []);
    void events;
    expect(await ssmValue(ssm, '/lc/keep')).toBe('k');
    expect(await ssmValue(ssm, '/lc/snap')).toBe('s');
    expect(await ssmValue(ssm, '/lc/swap2')).toBeUndefined();
  });

  it('reports DELETE_SKIPPED for retained resources and says Snapshot was treated as Retain', async ({ cloudformation: cfn, ssm }) => {
    const { StackId } = await cfn.send(
      new CreateStackCommand({
        StackName: 'lc-pol2',
        TemplateBody: tpl({ Keep: param({ Value: 'k' }, { DeletionPolicy: 'Retain' }), Snap: param({ Value: 's' }, { DeletionPolicy: 'Snapshot' }) }),
      }),
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'lc-pol2' }));
    const events = await allEvents(cfn, StackId!);
    const keep = events.find((e) => e.LogicalResourceId === 'Keep' && e.ResourceStatus?.startsWith('DELETE'))!;
    expect(keep.ResourceStatus).toBe('DELETE_SKIPPED');
    const snap = events.find((e) => e.LogicalResourceId === 'Snap' && e.ResourceStatus?.startsWith('DELETE'))!;
    expect(snap.ResourceStatus).toBe('DELETE_SKIPPED');
    expect(snap.ResourceStatusReason).toMatch(/Snapshot is treated as Retain/);
    expect(await ssmValue(ssm, keep.PhysicalResourceId!)).toBe('k');
  });

  it('refuses to replace a custom-named resource whose name stays, and rolls back', async ({ cloudformation: cfn }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'lc-named', TemplateBody: tpl({ Q: queue({ QueueName: 'q1.fifo', FifoQueue: true }) }) }));
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-named', TemplateBody: tpl({ Q: queue({ QueueName: 'q1.fifo', FifoQueue: false }) }) }));
    expect(await stackStatus(cfn, 'lc-named')).toBe('UPDATE_ROLLBACK_COMPLETE');
    const events = await allEvents(cfn, 'lc-named');
    expect(events.find((e) => e.ResourceStatus === 'UPDATE_FAILED')!.ResourceStatusReason).toBe(
      'CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename q1.fifo and update the stack again.',
    );
  });

  it('enforces the stack policy during updates, and StackPolicyDuringUpdateBody for one update', async ({ cloudformation: cfn, ssm }) => {
    const v = (name: string, value: string, withB = true) =>
      tpl({ A: param({ Name: name, Value: value }), ...(withB ? { B: param({ Name: '/lc/pol-b', Value: 'b' }) } : {}) });
    await cfn.send(new CreateStackCommand({ StackName: 'lc-policy', TemplateBody: v('/lc/pol-a', 'one') }));
    await cfn.send(
      new SetStackPolicyCommand({
        StackName: 'lc-policy',
        StackPolicyBody: JSON.stringify({
          Statement: [
            { Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' },
            { Effect: 'Deny', Action: ['Update:Replace', 'Update:Delete'], Principal: '*', Resource: 'LogicalResourceId/*' , Condition: { StringEquals: { ResourceType: ['AWS::SSM::Parameter'] } } },
          ],
        }),
      }),
    );
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-policy', TemplateBody: v('/lc/pol-a', 'two') }));
    expect(await stackStatus(cfn, 'lc-policy')).toBe('UPDATE_COMPLETE');
    expect(await ssmValue(ssm, '/lc/pol-a')).toBe('two');

    await cfn.send(new UpdateStackCommand({ StackName: 'lc-policy', TemplateBody: v('/lc/pol-a2', 'two') }));
    expect(await stackStatus(cfn, 'lc-policy')).toBe('UPDATE_ROLLBACK_COMPLETE');
    const failed = (await allEvents(cfn, 'lc-policy')).filter((e) => e.ResourceStatus === 'UPDATE_FAILED').at(-1)!;
    expect(failed.ResourceStatusReason).toBe(
      'Action denied by stack policy: Statement [#2] does not allow [Update:Replace] for resource [LogicalResourceId/A]',
    );
    await cfn.send(new UpdateStackCommand({ StackName: 'lc-policy', TemplateBody: v('/lc/pol-a', 'two', false) }));
    expect(await stackStatus(cfn, 'lc-policy')).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await ssmValue(ssm, '/lc/pol-b')).toBe('b');

    const allowAll = JSON.stringify({ Statement: [{ Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' }] });
    await cfn.send(
      new UpdateStackCommand({ StackName: 'lc-policy', TemplateBody: v('/lc/pol-a2', 'two', false), StackPolicyDuringUpdateBody: allowAll }),
    );
    expect(await stackStatus(cfn, 'lc-policy')).toBe('UPDATE_COMPLETE');
    expect(await ssmValue(ssm, '/lc/pol-a2')).toBe('two');
    expect(await ssmValue(ssm, '/lc/pol-b')).toBeUndefined();
  });
});
