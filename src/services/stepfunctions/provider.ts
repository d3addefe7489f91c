/**
 * The Step Functions provider: state machines (Create — idempotent for the same definition and
 * role, as AWS's — Describe, Update, Delete, List) and executions (Start, Describe, Stop, List).
 * An execution runs in this process (interpreter.ts) from StartExecution on, its end written to
 * the store; DescribeExecution reads it there. What the CDK's Provider framework needs for
 * `isComplete` — a state machine polling a Lambda function with Retry and Catch — runs as on AWS.
 */
import { randomUUID } from 'node:crypto';
import type * as S from '@aws-sdk/client-sfn';
import { perStore, type Ctx, type Runtime } from '../../runtime/runtime.js';
import { StepFunctionsRepo, type ExecutionRow, type StateMachineRow } from '../../store/stepfunctions-repo.js';
import { parseDefinition } from './definition.js';
import { check, sfnErrors } from './errors.js';
import { Aborted, execute, type ExecutionContext } from './interpreter.js';
import { checkName, executionArn, parseArn, stateMachineArn } from './naming.js';

export const sfnRepo = perStore((meta) => new StepFunctionsRepo(meta));

/** The executions running in each server, by ARN, so StopExecution, reset and close can end them. */
const running = new WeakMap<Runtime, Map<string, AbortController>>();

function runningOf(rt: Runtime): Map<string, AbortController> {
  let map = running.get(rt);
  if (!map) {
    const made = new Map<string, AbortController>();
    map = made;
    running.set(rt, made);
    const stopAll = async () => {
      for (const c of made.values()) c.abort();
      made.clear();
    };
    rt.closeHooks.push(stopAll);
    rt.resetHooks.push(stopAll);
  }
  return map;
}

function requireMachine(ctx: Ctx, arn: string): StateMachineRow {
  parseArn(ctx, arn, 'stateMachine');
  const row = sfnRepo(ctx).getStateMachine(arn);
  if (!row) throw sfnErrors.stateMachineNotFound(arn);
  return row;
}

function requireExecution(ctx: Ctx, arn: string): ExecutionRow {
  parseArn(ctx, arn, 'execution');
  const row = sfnRepo(ctx).getExecution(arn);
  if (!row) throw sfnErrors.executionNotFound(arn);
  return row;
}

export function createStateMachine(ctx: Ctx, input: S.CreateStateMachineInput): S.CreateStateMachineOutput {
  check('CreateStateMachine', input);
  checkName(input.name!);
  parseDefinition(input.definition!);
  const arn = stateMachineArn(ctx, input.name!);
  const repo = sfnRepo(ctx);
  const type = input.type ?? 'STANDARD';
  const existing = repo.getStateMachine(arn);
  if (existing) {
    if (existing.definition === input.definition && existing.role_arn === input.roleArn && existing.type === type) {
      return { stateMachineArn: arn, creationDate: new Date(existing.created_at) };
    }
    throw sfnErrors.stateMachineExists(arn);
  }
  const now = Date.now();
  repo.putStateMachine({
    arn,
    account: ctx.account,
    region: ctx.region,
    name: input.name!,
    definition: input.definition!,
    role_arn: input.roleArn!,
    type,
    tags: JSON.stringify(input.tags ?? []),
    revision_id: randomUUID(),
    created_at: now,
  });
  return { stateMachineArn: arn, creationDate: new Date(now) };
}

export function describeStateMachine(ctx: Ctx, input: S.DescribeStateMachineInput): S.DescribeStateMachineOutput {
  check('DescribeStateMachine', input);
  const row = requireMachine(ctx, input.stateMachineArn!);
  return {
    stateMachineArn: row.arn,
    name: row.name,
    status: 'ACTIVE',
    definition: row.definition,
    roleArn: row.role_arn,
    type: row.type as S.StateMachineType,
    creationDate: new Date(row.created_at),
    loggingConfiguration: { level: 'OFF', includeExecutionData: false },
    tracingConfiguration: { enabled: false },
    revisionId: row.revision_id,
  };
}

export function updateStateMachine(ctx: Ctx, input: S.UpdateStateMachineInput): S.UpdateStateMachineOutput {
  check('UpdateStateMachine', input);
  const row = requireMachine(ctx, input.stateMachineArn!);
  if (input.definition === undefined && input.roleArn === undefined && input.loggingConfiguration === undefined && input.tracingConfiguration === undefined) {
    throw sfnErrors.missingParameter('Either the definition, the role ARN, the LoggingConfiguration, or the TracingConfiguration must be specified');
  }
  if (input.definition !== undefined) parseDefinition(input.definition);
  const revision = randomUUID();
  sfnRepo(ctx).putStateMachine({ ...row, definition: input.definition ?? row.definition, role_arn: input.roleArn ?? row.role_arn, revision_id: revision });
  return { updateDate: new Date(), revisionId: revision };
}

export function deleteStateMachine(ctx: Ctx, input: S.DeleteStateMachineInput): S.DeleteStateMachineOutput {
  check('DeleteStateMachine', input);
  parseArn(ctx, input.stateMachineArn!, 'stateMachine');
  sfnRepo(ctx).deleteStateMachine(input.stateMachineArn!);
  return {};
}

function pageToken(token: string | undefined): string {
  if (token === undefined) return '';
  const text = Buffer.from(token, 'base64').toString('utf8');
  if (!text) throw sfnErrors.invalidToken();
  return text;
}

export function listStateMachines(ctx: Ctx, input: S.ListStateMachinesInput): S.ListStateMachinesOutput {
  check('ListStateMachines', input);
  const max = input.maxResults || 100;
  const rows = sfnRepo(ctx).listStateMachines(ctx.account, ctx.region, pageToken(input.nextToken), max + 1);
  const page = rows.slice(0, max);
  return {
    stateMachines: page.map((r) => ({ stateMachineArn: r.arn, name: r.name, type: r.type as S.StateMachineType, creationDate: new Date(r.created_at) })),
    ...(rows.length > max ? { nextToken: Buffer.from(page[page.length - 1]!.arn).toString('base64') } : {}),
  };
}

/**
 * Runs an execution in the background to its end and records it; StopExecution, reset and
 * shutdown abort it through the server's map of running executions, and the machine's
 * TimeoutSeconds ends it TIMED_OUT, as on AWS.
 */
function run(ctx: Ctx, machine: StateMachineRow, arn: string, context: ExecutionContext): void {
  const repo = sfnRepo(ctx);
  const definition = parseDefinition(machine.definition);
  const controller = new AbortController();
  const live = runningOf(ctx.rt);
  live.set(arn, controller);
  const seconds = definition.TimeoutSeconds;
  const deadline = seconds
    ? setTimeout(() => {
        repo.finishExecution(arn, 'TIMED_OUT', { error: 'States.Timeout', cause: `The execution did not finish within ${seconds} seconds` });
        controller.abort();
      }, seconds * 1000)
    : undefined;
  void (async () => {
    try {
      const end = await execute(ctx, definition, context.Execution.Input, context, controller.signal);
      if (end.status === 'SUCCEEDED') repo.finishExecution(arn, end.status, { output: JSON.stringify(end.output ?? null) });
      else repo.finishExecution(arn, end.status, { error: end.error, cause: end.cause });
    } catch (err) {
      if (!(err instanceof Aborted)) {
        ctx.rt.log.error(`step functions execution ${arn} failed`, err);
        repo.finishExecution(arn, 'FAILED', { error: 'States.Runtime', cause: String(err) });
      }
    } finally {
      clearTimeout(deadline);
      live.delete(arn);
    }
  })();
}

export function startExecution(ctx: Ctx, input: S.StartExecutionInput): S.StartExecutionOutput {
  check('StartExecution', input);
  const machine = requireMachine(ctx, input.stateMachineArn!);
  const name = input.name ?? randomUUID();
  checkName(name);
  const text = input.input ?? '{}';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw sfnErrors.invalidInput(`Invalid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const arn = executionArn(ctx, machine.name, name);
  const repo = sfnRepo(ctx);
  const existing = repo.getExecution(arn);
  if (existing) {
    // The same name and input of a running execution is the same request again (AWS's idempotency).
    if (existing.status === 'RUNNING' && existing.input === text) return { executionArn: arn, startDate: new Date(existing.started_at) };
    throw sfnErrors.executionExists(arn);
  }
  const started = Date.now();
  repo.putExecution({ arn, state_machine_arn: machine.arn, name, status: 'RUNNING', input: text, output: null, error: null, cause: null, started_at: started, stopped_at: null });
  run(ctx, machine, arn, {
    Execution: { Id: arn, Name: name, Input: parsed, StartTime: new Date(started).toISOString(), RoleArn: machine.role_arn },
    StateMachine: { Id: machine.arn, Name: machine.name },
  });
  return { executionArn: arn, startDate: new Date(started) };
}

export function describeExecution(ctx: Ctx, input: S.DescribeExecutionInput): S.DescribeExecutionOutput {
  check('DescribeExecution', input);
  const row = requireExecution(ctx, input.executionArn!);
  return {
    executionArn: row.arn,
    stateMachineArn: row.state_machine_arn,
    name: row.name,
    status: row.status as S.ExecutionStatus,
    startDate: new Date(row.started_at),
    ...(row.stopped_at !== null ? { stopDate: new Date(row.stopped_at) } : {}),
    input: row.input,
    inputDetails: { included: true },
    ...(row.output !== null ? { output: row.output, outputDetails: { included: true } } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    ...(row.cause !== null ? { cause: row.cause } : {}),
  };
}

export function stopExecution(ctx: Ctx, input: S.StopExecutionInput): S.StopExecutionOutput {
  check('StopExecution', input);
  const row = requireExecution(ctx, input.executionArn!);
  const stopped_at = Date.now();
  if (row.status === 'RUNNING') {
    sfnRepo(ctx).finishExecution(row.arn, 'ABORTED', { error: input.error, cause: input.cause }, stopped_at);
    runningOf(ctx.rt).get(row.arn)?.abort();
  }
  return { stopDate: new Date(row.stopped_at ?? stopped_at) };
}

export function listExecutions(ctx: Ctx, input: S.ListExecutionsInput): S.ListExecutionsOutput {
  check('ListExecutions', input);
  if (!input.stateMachineArn) throw sfnErrors.validation('Must provide a StateMachine ARN or MapRun ARN');
  requireMachine(ctx, input.stateMachineArn);
  const max = input.maxResults || 100;
  // The token holds the last execution returned: its start time and ARN.
  const token = pageToken(input.nextToken);
  const m = /^(\d+) (.+)$/.exec(token);
  if (token && !m) throw sfnErrors.invalidToken();
  const before = m ? { at: Number(m[1]), arn: m[2]! } : { at: Number.MAX_SAFE_INTEGER, arn: '' };
  const rows = sfnRepo(ctx).listExecutions(input.stateMachineArn, input.statusFilter, before, max + 1);
  const page = rows.slice(0, max);
  const last = page[page.length - 1];
  return {
    executions: page.map((r) => ({
      executionArn: r.arn,
      stateMachineArn: r.state_machine_arn,
      name: r.name,
      status: r.status as S.ExecutionStatus,
      startDate: new Date(r.started_at),
      ...(r.stopped_at !== null ? { stopDate: new Date(r.stopped_at) } : {}),
    })),
    ...(rows.length > max && last ? { nextToken: Buffer.from(`${last.started_at} ${last.arn}`).toString('base64') } : {}),
  };
}
