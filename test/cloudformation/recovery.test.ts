/**
 * A restart never leaves a stack stuck `*_IN_PROGRESS`. Each case deploys a real stack on a disk
 * store, stops the server, rewrites the rows to what a kill in the middle of an operation leaves
 * behind (status, journal, a resource caught mid-flight), starts a new server on the same data
 * directory and checks that the operation was rolled back or finished — resources included.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  CreateStackCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import { allEvents, cfnClient, eventLines, stackStatus, tpl } from './support.js';

let dir: { path: string; cleanup: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

const start = () => startTestServer({ dataDir: dir.path });

/** Edits the stopped server's database. */
function edit(fn: (db: Database.Database) => void): void {
  const db = new Database(join(dir.path, 'overcast.db'));
  try {
    fn(db);
  } finally {
    db.close();
  }
}

async function ssmValue(t: TestServer, name: string): Promise<string | undefined> {
  try {
    return (await new SSMClient(t.clientConfig).send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
  } catch {
    return undefined;
  }
}

/** Waits (bounded) for the background recovery to settle the stack. */
async function settledStatus(t: TestServer, name: string): Promise<string | undefined> {
  const cfn = cfnClient(t);
  let status: string | undefined;
  for (let i = 0; i < 200; i++) {
    status = await stackStatus(cfn, name);
    if (!status?.endsWith('_IN_PROGRESS')) return status;
    await new Promise((r) => setTimeout(r, 10));
  }
  return status;
}

const twoParams = (value: string) =>
  tpl({
    A: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/rec/a', Type: 'String', Value: value } },
    B: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
  });

describe('recovery at start-up', () => {
  it('rolls back a create that a restart interrupted', async () => {
    let t = await start();
    await cfnClient(t).send(new CreateStackCommand({ StackName: 'rec-create', TemplateBody: twoParams('one') }));
    expect(await stackStatus(cfnClient(t), 'rec-create')).toBe('CREATE_COMPLETE');
    await t.stop();
    edit((db) => {
      const id = (db.prepare("SELECT id FROM cfn_stacks WHERE name = 'rec-create'").get() as { id: string }).id;
      db.prepare("UPDATE cfn_stacks SET status = 'CREATE_IN_PROGRESS', op = ? WHERE id = ?").run(JSON.stringify({ id: 'op', type: 'CREATE' }), id);
      db.prepare("UPDATE cfn_resources SET pending = '{\"action\":\"created\"}' WHERE stack_id = ?").run(id);
      db.prepare("UPDATE cfn_resources SET status = 'CREATE_IN_PROGRESS', physical_id = NULL WHERE stack_id = ? AND logical_id = 'B'").run(id);
      const row = db.prepare("SELECT data FROM cfn_resources WHERE stack_id = ? AND logical_id = 'B'").get(id) as { data: string };
      const v = JSON.parse(row.data);
      delete v.physicalId;
      db.prepare("UPDATE cfn_resources SET data = ? WHERE stack_id = ? AND logical_id = 'B'").run(JSON.stringify(v), id);
    });
    t = await start();
    try {
      expect(await settledStatus(t, 'rec-create')).toBe('ROLLBACK_COMPLETE');
      expect(await ssmValue(t, '/rec/a')).toBeUndefined();
      const lines = eventLines(await allEvents(cfnClient(t), 'rec-create'));
      expect(lines.slice(lines.indexOf('rec-create ROLLBACK_IN_PROGRESS'))).toEqual([
        'rec-create ROLLBACK_IN_PROGRESS',
        'B DELETE_COMPLETE',
        'A DELETE_IN_PROGRESS',
        'A DELETE_COMPLETE',
        'rec-create ROLLBACK_COMPLETE',
      ]);
      const resources = await cfnClient(t).send(new ListStackResourcesCommand({ StackName: 'rec-create' }));
      expect(resources.StackResourceSummaries!.every((r) => r.ResourceStatus === 'DELETE_COMPLETE')).toBe(true);
    } finally {
      await t.stop();
    }
  });

  it('rolls back an update that a restart interrupted, values included', async () => {
    let t = await start();
    const cfn = cfnClient(t);
    await cfn.send(new CreateStackCommand({ StackName: 'rec-update', TemplateBody: twoParams('one') }));
    const before = (await cfn.send(new DescribeStacksCommand({ StackName: 'rec-update' }))).Stacks![0]!;
    await cfn.send(new UpdateStackCommand({ StackName: 'rec-update', TemplateBody: twoParams('two') }));
    expect(await ssmValue(t, '/rec/a')).toBe('two');
    await t.stop();
    // Make it look as if the server died right after A was updated: journal with the previous
    // stack, A marked as updated from its prior version.
    edit((db) => {
      const stack = db.prepare("SELECT * FROM cfn_stacks WHERE name = 'rec-update'").get() as { id: string; data: string };
      const data = JSON.parse(stack.data);
      const journal = {
        id: 'op',
        type: 'UPDATE',
        previous: { template: twoParams('one'), description: null, data: { ...data, outputs: [] } },
      };
      db.prepare("UPDATE cfn_stacks SET status = 'UPDATE_IN_PROGRESS', op = ? WHERE id = ?").run(JSON.stringify(journal), stack.id);
      const a = db.prepare("SELECT data FROM cfn_resources WHERE stack_id = ? AND logical_id = 'A'").get(stack.id) as { data: string };
      const current = JSON.parse(a.data);
      const prior = { ...current, props: { ...current.props, Value: 'one' } };
      db.prepare("UPDATE cfn_resources SET pending = ? WHERE stack_id = ? AND logical_id = 'A'").run(
        JSON.stringify({ action: 'updated', prior }),
        stack.id,
      );
    });
    t = await start();
    try {
      expect(await settledStatus(t, 'rec-update')).toBe('UPDATE_ROLLBACK_COMPLETE');
      expect(await ssmValue(t, '/rec/a')).toBe('one');
      const after = (await cfnClient(t).send(new DescribeStacksCommand({ StackName: 'rec-update' }))).Stacks![0]!;
      expect(after.StackId).toBe(before.StackId);
      const events = await allEvents(cfnClient(t), 'rec-update');
      expect(events.find((e) => e.ResourceStatus === 'UPDATE_ROLLBACK_IN_PROGRESS')!.ResourceStatusReason).toBe(
        'Overcast restarted while this operation was in progress',
      );
    } finally {
      await t.stop();
    }
  });

  it('finishes a delete that a restart interrupted', async () => {
    let t = await start();
    const { StackId } = await cfnClient(t).send(new CreateStackCommand({ StackName: 'rec-delete', TemplateBody: twoParams('one') }));
    await t.stop();
    edit((db) => {
      db.prepare("UPDATE cfn_stacks SET status = 'DELETE_IN_PROGRESS', op = ? WHERE id = ?").run(JSON.stringify({ id: 'op', type: 'DELETE' }), StackId);
      db.prepare("UPDATE cfn_resources SET status = 'DELETE_COMPLETE' WHERE stack_id = ? AND logical_id = 'B'").run(StackId);
    });
    t = await start();
    try {
      expect(await settledStatus(t, StackId!)).toBe('DELETE_COMPLETE');
      expect(await ssmValue(t, '/rec/a')).toBeUndefined();
      await expect(cfnClient(t).send(new DescribeStacksCommand({ StackName: 'rec-delete' }))).rejects.toMatchObject({ name: 'ValidationError' });
    } finally {
      await t.stop();
    }
  });
});
