/**
 * Step Functions through the SDK's SFN client: state machines (create — idempotent for the same
 * definition — describe, update, list, delete) and executions that run — Pass, Choice, Wait,
 * Succeed and Fail states with their paths, Lambda tasks (by ARN and through lambda:invoke) with
 * Retry and Catch — read back with DescribeExecution; StopExecution of a waiting execution; what
 * a restart does to an execution left running; and AWS's errors for a client's mistakes.
 */
import { CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  CreateStateMachineCommand,
  DeleteStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
  UpdateStateMachineCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { strToU8, zipSync } from 'fflate';
import { aws } from '../cloudformation/support.js';
import { failure } from '../helpers/errors.js';
import { describe, expect, it } from '../helpers/fixture.js';
import { startTestServer, tempDir } from '../helpers/server.js';

const ROLE = 'arn:aws:iam::000000000000:role/sfn';
const MACHINE = 'arn:aws:states:us-east-1:000000000000:stateMachine';
const FN = 'arn:aws:lambda:us-east-1:000000000000:function';

let client: SFNClient | undefined;
function sfnOf(server: { clientConfig: object }): SFNClient {
  client ??= new SFNClient({ ...server.clientConfig, maxAttempts: 1 });
  return client;
}

async function finished(sfn: SFNClient, executionArn: string): Promise<DescribeExecutionCommandOutput> {
  for (let i = 0; i < 300; i++) {
    const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (d.status !== 'RUNNING') return d;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${executionArn} did not finish`);
}

async function run(sfn: SFNClient, name: string, definition: object, input: object): Promise<DescribeExecutionCommandOutput> {
  const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name, roleArn: ROLE, definition: JSON.stringify(definition) }));
  const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }));
  return finished(sfn, executionArn!);
}

const CHOOSER = {
  StartAt: 'Shape',
  States: {
    Shape: { Type: 'Pass', Parameters: { 'size.$': '$.order.size', 'who.$': '$$.Execution.Name', fixed: 1 }, ResultPath: '$.shaped', Next: 'Pick' },
    Pick: {
      Type: 'Choice',
      Choices: [
        { Variable: '$.shaped.size', NumericGreaterThan: 10, Next: 'Big' },
        { And: [{ Variable: '$.order.kind', IsPresent: true }, { Variable: '$.order.kind', StringMatches: 'sm*' }], Next: 'Small' },
      ],
      Default: 'Refuse',
    },
    Big: { Type: 'Pass', Result: { verdict: 'big' }, ResultPath: '$.verdict', OutputPath: '$.verdict', End: true },
    Small: { Type: 'Wait', Seconds: 0, Next: 'Done' },
    Done: { Type: 'Succeed', OutputPath: '$.shaped' },
    Refuse: { Type: 'Fail', Error: 'NoFit', Cause: 'neither big nor small' },
  },
};

describe('state machines', () => {
  it('Create, Describe, Update, List and Delete; Create again with the same definition answers the same machine', async ({ server }) => {
    const sfn = sfnOf(server);
    const definition = JSON.stringify(CHOOSER);
    const created = await sfn.send(new CreateStateMachineCommand({ name: 'crud', roleArn: ROLE, definition }));
    expect(created.stateMachineArn).toBe(`${MACHINE}:crud`);
    expect(created.creationDate).toBeInstanceOf(Date);
    const again = await sfn.send(new CreateStateMachineCommand({ name: 'crud', roleArn: ROLE, definition }));
    expect(again.creationDate).toEqual(created.creationDate);
    const clash = await failure(sfn.send(new CreateStateMachineCommand({ name: 'crud', roleArn: `${ROLE}2`, definition })));
    expect(clash).toMatchObject({ name: 'StateMachineAlreadyExists', status: 400, message: `State Machine Already Exists: '${MACHINE}:crud'` });

    const described = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: created.stateMachineArn }));
    expect(described).toMatchObject({ name: 'crud', status: 'ACTIVE', type: 'STANDARD', roleArn: ROLE, definition });
    const updated = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn: created.stateMachineArn, roleArn: `${ROLE}2` }));
    expect(updated.revisionId).not.toBe(described.revisionId);
    expect((await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: created.stateMachineArn }))).roleArn).toBe(`${ROLE}2`);
    const listed = await sfn.send(new ListStateMachinesCommand({}));
    expect(listed.stateMachines?.map((m) => m.name)).toContain('crud');

    await sfn.send(new DeleteStateMachineCommand({ stateMachineArn: created.stateMachineArn }));
    const gone = await failure(sfn.send(new DescribeStateMachineCommand({ stateMachineArn: created.stateMachineArn })));
    expect(gone).toMatchObject({ name: 'StateMachineDoesNotExist', status: 400, message: `State Machine Does Not Exist: '${MACHINE}:crud'` });
  });

  it('refuses definitions AWS refuses, and bad names and ARNs, creating nothing', async ({ server }) => {
    const sfn = sfnOf(server);
    const cases: [string, string][] = [
      ['{not json', 'INVALID_JSON_DESCRIPTION'],
      [JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'Nowhere' } } }), "MISSING_TRANSITION_TARGET: Missing 'Next' target: Nowhere at /States/A/Next"],
      [JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass' } } }), 'SCHEMA_VALIDATION_FAILED: No transition found out of state at /States/A'],
      [JSON.stringify({ StartAt: 'B', States: { A: { Type: 'Succeed' } } }), "MISSING_TRANSITION_TARGET: Missing 'Next' target: B at /StartAt"],
    ];
    for (const [definition, detail] of cases) {
      const err = await failure(sfn.send(new CreateStateMachineCommand({ name: 'bad', roleArn: ROLE, definition })));
      expect(err).toMatchObject({ name: 'InvalidDefinition', status: 400 });
      expect(err.message).toContain(detail);
    }
    expect(await failure(sfn.send(new CreateStateMachineCommand({ name: 'has space', roleArn: ROLE, definition: JSON.stringify(CHOOSER) })))).toMatchObject({
      name: 'InvalidName',
      message: "Invalid Name: 'has space'",
    });
    expect(await failure(sfn.send(new DescribeStateMachineCommand({ stateMachineArn: 'arn:aws:s3:::nope' })))).toMatchObject({ name: 'InvalidArn' });
    expect((await sfn.send(new ListStateMachinesCommand({}))).stateMachines?.map((m) => m.name)).not.toContain('bad');
  });
});

describe('executions', () => {
  it('runs Pass, Choice, Wait, Succeed and Fail with their paths and the context object', async ({ server }) => {
    const sfn = sfnOf(server);
    const big = await run(sfn, 'chooser', CHOOSER, { order: { size: 12 } });
    expect(big).toMatchObject({ status: 'SUCCEEDED', output: JSON.stringify({ verdict: 'big' }) });
    expect(big.stopDate!.getTime()).toBeGreaterThanOrEqual(big.startDate!.getTime());
    const stateMachineArn = `${MACHINE}:chooser`;
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, name: 'small-one', input: JSON.stringify({ order: { size: 2, kind: 'small' } }) }));
    const small = await finished(sfn, executionArn!);
    expect(small.status).toBe('SUCCEEDED');
    expect(JSON.parse(small.output!)).toEqual({ size: 2, who: 'small-one', fixed: 1 });
    const { executionArn: refusedArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ order: { size: 2 } }) }));
    expect(await finished(sfn, refusedArn!)).toMatchObject({ status: 'FAILED', error: 'NoFit', cause: 'neither big nor small' });

    const listed = await sfn.send(new ListExecutionsCommand({ stateMachineArn, statusFilter: 'SUCCEEDED' }));
    expect(listed.executions?.map((e) => e.name)).toContain('small-one');
    expect(listed.executions?.every((e) => e.status === 'SUCCEEDED')).toBe(true);
    const seen: string[] = [];
    let nextToken: string | undefined;
    for (let page = 0; page < 10; page++) {
      const out = await sfn.send(new ListExecutionsCommand({ stateMachineArn, maxResults: 1, nextToken }));
      seen.push(...(out.executions ?? []).map((e) => e.executionArn!));
      nextToken = out.nextToken;
      if (!nextToken) break;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    expect(await failure(sfn.send(new ListExecutionsCommand({ stateMachineArn, nextToken: 'bm9wZQ==' })))).toMatchObject({ name: 'InvalidToken' });
    const dup = await failure(sfn.send(new StartExecutionCommand({ stateMachineArn, name: 'small-one', input: '{}' })));
    expect(dup).toMatchObject({ name: 'ExecutionAlreadyExists', message: `Execution Already Exists: '${executionArn}'` });
    const badInput = await failure(sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{oops' })));
    expect(badInput).toMatchObject({ name: 'InvalidExecutionInput', status: 400 });
  });

  it('runs Lambda tasks with Retry, Catch and TimeoutSeconds, by ARN and through lambda:invoke', async ({ server }) => {
    const sfn = sfnOf(server);
    const lambda = new LambdaClient({ ...server.clientConfig, maxAttempts: 1 });
    // Fails the first two calls of a warm worker, then answers; "always" fails with a custom error.
    const code = zipSync({
      'index.js': strToU8(`let calls = 0;
class Flaky extends Error { constructor(m) { super(m); this.name = 'Flaky'; } }
exports.handler = async (event) => {
  calls++;
  if (event.always) throw new Flaky('always broken');
  if (calls <= 2) throw new Flaky('call ' + calls);
  return { doubled: event.n * 2, calls };
};`),
    });
    await lambda.send(new CreateFunctionCommand({ FunctionName: 'flaky', Role: ROLE, Runtime: 'nodejs20.x', Handler: 'index.handler', Code: { ZipFile: code } }));
    const sleepy = zipSync({ 'index.js': strToU8('exports.handler = () => new Promise((r) => setTimeout(() => r("woke"), 2500));') });
    await lambda.send(new CreateFunctionCommand({ FunctionName: 'sleepy', Role: ROLE, Runtime: 'nodejs20.x', Handler: 'index.handler', Timeout: 5, Code: { ZipFile: sleepy } }));
    const retry = [{ ErrorEquals: ['Flaky'], IntervalSeconds: 1, BackoffRate: 1, MaxAttempts: 3 }];
    const retried = await run(sfn, 'retrying', { StartAt: 'Call', States: { Call: { Type: 'Task', Resource: `${FN}:flaky`, Retry: retry, End: true } } }, { n: 21 });
    expect(retried).toMatchObject({ status: 'SUCCEEDED' });
    expect(JSON.parse(retried.output!)).toEqual({ doubled: 42, calls: 3 });

    const caught = await run(
      sfn,
      'catching',
      {
        StartAt: 'Call',
        States: {
          Call: {
            Type: 'Task',
            Resource: 'arn:aws:states:::lambda:invoke',
            Parameters: { FunctionName: 'flaky', 'Payload.$': '$' },
            Retry: [{ ErrorEquals: ['States.TaskFailed'], IntervalSeconds: 1, MaxAttempts: 1 }],
            Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: 'Handled' }],
            End: true,
          },
          Handled: { Type: 'Pass', End: true },
        },
      },
      { always: true },
    );
    expect(caught.status).toBe('SUCCEEDED');
    const out = JSON.parse(caught.output!);
    expect(out.always).toBe(true);
    expect(out.failure.Error).toBe('Flaky');
    expect(JSON.parse(out.failure.Cause)).toMatchObject({ errorType: 'Flaky', errorMessage: 'always broken' });

    const uncaught = await run(sfn, 'uncaught', { StartAt: 'Call', States: { Call: { Type: 'Task', Resource: `${FN}:missing`, End: true } } }, {});
    expect(uncaught).toMatchObject({ status: 'FAILED', error: 'Lambda.ResourceNotFoundException' });
    const slow = await run(
      sfn,
      'slow-task',
      { StartAt: 'Call', States: { Call: { Type: 'Task', Resource: `${FN}:sleepy`, TimeoutSeconds: 1, Catch: [{ ErrorEquals: ['States.Timeout'], Next: 'Late' }], End: true }, Late: { Type: 'Pass', Result: 'late', End: true } } },
      {},
    );
    expect(slow).toMatchObject({ status: 'SUCCEEDED', output: '"late"' });
    const other = await run(sfn, 'other-service', { StartAt: 'Call', States: { Call: { Type: 'Task', Resource: 'arn:aws:states:::sqs:sendMessage', End: true } } }, {});
    expect(other).toMatchObject({ status: 'FAILED', error: 'States.Runtime' });
    expect(other.cause).toContain('Overcast runs Lambda tasks only');
  });

  it('the aws CLI creates a machine and reads an execution’s result', async ({ server }) => {
    const definition = JSON.stringify({ StartAt: 'Hello', States: { Hello: { Type: 'Pass', Result: 'hi', End: true } } });
    const created = await aws(server, ['stepfunctions', 'create-state-machine', '--name', 'cli', '--role-arn', ROLE, '--definition', definition]);
    expect(created.code, created.stderr).toBe(0);
    const arn = JSON.parse(created.stdout).stateMachineArn as string;
    const { executionArn } = await sfnOf(server).send(new StartExecutionCommand({ stateMachineArn: arn }));
    const done = await finished(sfnOf(server), executionArn!);
    expect(done).toMatchObject({ status: 'SUCCEEDED', output: '"hi"' });
    const described = await aws(server, ['stepfunctions', 'describe-execution', '--execution-arn', done.executionArn!]);
    expect(JSON.parse(described.stdout)).toMatchObject({ status: 'SUCCEEDED', output: '"hi"' });
  });

  it('a machine’s TimeoutSeconds ends the execution TIMED_OUT', async ({ server }) => {
    const sfn = sfnOf(server);
    const timed = await run(sfn, 'timed', { TimeoutSeconds: 1, StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 60, End: true } } }, {});
    expect(timed).toMatchObject({ status: 'TIMED_OUT', error: 'States.Timeout' });
  });

  it('StopExecution aborts a waiting execution', async ({ server }) => {
    const sfn = sfnOf(server);
    const { stateMachineArn } = await sfn.send(
      new CreateStateMachineCommand({ name: 'sleeper', roleArn: ROLE, definition: JSON.stringify({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 3600, End: true } } }) }),
    );
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn }))).status).toBe('RUNNING');
    await sfn.send(new StopExecutionCommand({ executionArn, error: 'Cancelled', cause: 'by the test' }));
    expect(await sfn.send(new DescribeExecutionCommand({ executionArn }))).toMatchObject({ status: 'ABORTED', error: 'Cancelled', cause: 'by the test' });
    const missing = `arn:aws:states:us-east-1:000000000000:execution:sleeper:nope`;
    expect(await failure(sfn.send(new DescribeExecutionCommand({ executionArn: missing })))).toMatchObject({
      name: 'ExecutionDoesNotExist',
      message: `Execution Does Not Exist: '${missing}'`,
    });
  });
});

describe('a restart', () => {
  it('ends the executions a stopped process left running as FAILED, saying why', async () => {
    const dir = tempDir('overcast-sfn-');
    try {
      let t = await startTestServer({ dataDir: dir.path });
      let sfn = new SFNClient({ ...t.clientConfig, maxAttempts: 1 });
      const { stateMachineArn } = await sfn.send(
        new CreateStateMachineCommand({ name: 'long', roleArn: ROLE, definition: JSON.stringify({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 3600, End: true } } }) }),
      );
      const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
      await t.stop();
      t = await startTestServer({ dataDir: dir.path });
      sfn = new SFNClient({ ...t.clientConfig, maxAttempts: 1 });
      expect(await sfn.send(new DescribeExecutionCommand({ executionArn }))).toMatchObject({
        status: 'FAILED',
        error: 'States.Runtime',
        cause: 'Overcast stopped while the execution ran',
      });
      await t.stop();
    } finally {
      dir.cleanup();
    }
  });
});
