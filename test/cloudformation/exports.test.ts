/**
 * Exports and imports between stacks: ListExports / ListImports, an export name owned by one
 * stack, Fn::ImportValue of a missing export, and an imported export blocking its stack's
 * deletion, its removal and a change of its value — with AWS's messages.
 */
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListExportsCommand,
  ListImportsCommand,
  UpdateStackCommand
} from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from '../helpers/fixture.js';
import { allEvents, queue, stackStatus, tpl } from './support.js';


function producer(outputs: Record<string, unknown>): string {
  return tpl({ Q: queue() }, { Outputs: outputs });
}

const shared = {
  QueueArn: { Value: { 'Fn::GetAtt': ['Q', 'Arn'] }, Export: { Name: { 'Fn::Sub': '${AWS::StackName}:QueueArn' } } },
  Fixed: { Value: 'one', Export: { Name: 'fixed-value' } },
};

function consumer(exportName: string): string {
  return tpl({ Use: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: { 'Fn::ImportValue': exportName } } } });
}

describe('exports', () => {
  it('lists exports, imports them, and keeps an export name to one stack', async ({ server: t, cloudformation: cfn }) => {
    const { StackId } = await cfn.send(new CreateStackCommand({ StackName: 'exp-producer', TemplateBody: producer(shared) }));
    const exports = (await cfn.send(new ListExportsCommand({}))).Exports!;
    expect(exports.map((e) => [e.Name, e.ExportingStackId])).toEqual([
      ['exp-producer:QueueArn', StackId],
      ['fixed-value', StackId],
    ]);
    expect(exports[0]!.Value).toMatch(/^arn:aws:sqs:us-east-1:000000000000:exp-producer-Q-/);
    await expect(cfn.send(new ListImportsCommand({ ExportName: 'fixed-value' }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: "Export 'fixed-value' is not imported by any stack.",
    });

    await cfn.send(new CreateStackCommand({ StackName: 'exp-consumer', TemplateBody: consumer('fixed-value') }));
    expect(await stackStatus(cfn, 'exp-consumer')).toBe('CREATE_COMPLETE');
    expect((await cfn.send(new ListImportsCommand({ ExportName: 'fixed-value' }))).Imports).toEqual(['exp-consumer']);

    // A second stack may not export the same name.
    await cfn.send(new CreateStackCommand({ StackName: 'exp-thief', TemplateBody: producer({ Fixed: shared.Fixed }) }));
    expect(await stackStatus(cfn, 'exp-thief')).toBe('ROLLBACK_COMPLETE');
    const events = await allEvents(cfn, 'exp-thief');
    expect(events.find((e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS')!.ResourceStatusReason).toBe(
      'Export with name fixed-value is already exported by stack exp-producer',
    );
    await cfn.send(new DeleteStackCommand({ StackName: 'exp-thief' }));
  });

  it('fails a stack importing an export that does not exist', async ({ server: t, cloudformation: cfn }) => {
    await cfn.send(new CreateStackCommand({ StackName: 'exp-orphan', TemplateBody: consumer('no-such-export') }));
    expect(await stackStatus(cfn, 'exp-orphan')).toBe('ROLLBACK_COMPLETE');
    const events = await allEvents(cfn, 'exp-orphan');
    expect(events.map((e) => `${e.LogicalResourceId} ${e.ResourceStatus} ${e.ResourceStatusReason ?? ''}`.trim())).toEqual([
      'exp-orphan CREATE_IN_PROGRESS User Initiated',
      'exp-orphan ROLLBACK_IN_PROGRESS No export named no-such-export found. Rollback requested by user.',
      'exp-orphan ROLLBACK_COMPLETE',
    ]);
  });

  it('refuses to delete, drop or change an export another stack imports', async ({ server: t, cloudformation: cfn }) => {
    await cfn.send(new DeleteStackCommand({ StackName: 'exp-producer' }));
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'exp-producer' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.StackStatusReason).toBe('Export fixed-value cannot be deleted as it is in use by exp-consumer');

    await cfn.send(new UpdateStackCommand({ StackName: 'exp-producer', TemplateBody: producer({ QueueArn: shared.QueueArn }) }));
    expect(await stackStatus(cfn, 'exp-producer')).toBe('UPDATE_ROLLBACK_COMPLETE');
    let events = await allEvents(cfn, 'exp-producer');
    expect(events.filter((e) => e.ResourceStatus === 'UPDATE_ROLLBACK_IN_PROGRESS').at(-1)!.ResourceStatusReason).toBe(
      'Export fixed-value cannot be deleted as it is in use by exp-consumer',
    );

    await cfn.send(
      new UpdateStackCommand({
        StackName: 'exp-producer',
        TemplateBody: producer({ ...shared, Fixed: { Value: 'two', Export: { Name: 'fixed-value' } } }),
      }),
    );
    expect(await stackStatus(cfn, 'exp-producer')).toBe('UPDATE_ROLLBACK_COMPLETE');
    events = await allEvents(cfn, 'exp-producer');
    expect(events.filter((e) => e.ResourceStatus === 'UPDATE_ROLLBACK_IN_PROGRESS').at(-1)!.ResourceStatusReason).toBe(
      'Export fixed-value cannot be updated as it is in use by exp-consumer',
    );
    expect((await cfn.send(new ListExportsCommand({}))).Exports!.find((e) => e.Name === 'fixed-value')!.Value).toBe('one');

    // Once the importer is gone the producer can go too, and its exports with it.
    await cfn.send(new DeleteStackCommand({ StackName: 'exp-consumer' }));
    await cfn.send(new DeleteStackCommand({ StackName: 'exp-producer' }));
    await expect(cfn.send(new DescribeStacksCommand({ StackName: 'exp-producer' }))).rejects.toMatchObject({ name: 'ValidationError' });
    expect((await cfn.send(new ListExportsCommand({}))).Exports).toEqual([]);
  });
});
