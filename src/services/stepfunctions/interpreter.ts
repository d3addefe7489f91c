/**
 * Running an execution: the states of a definition one after another — Task (a Lambda function,
 * by its ARN or through `arn:aws:states:::lambda:invoke`), Pass, Wait, Choice, Succeed and Fail,
 * with InputPath, Parameters, ResultSelector, ResultPath and OutputPath, Retry (interval, backoff,
 * attempts, max delay) and Catch — until it succeeds or fails. Errors are named as Step Functions
 * names them: a function's error by its `errorType` with its error payload as the cause,
 * `States.TaskFailed` matching any task failure, `States.ALL` any error but States.Runtime. Parallel
 * and Map states, other service integrations and intrinsic functions are not run: the execution
 * fails with States.Runtime saying so. Waits are real timers, ended by `signal` (StopExecution,
 * reset, shutdown). A Task's TimeoutSeconds fails it with States.Timeout. At most 25,000
 * transitions, as AWS's history quota.
 */
import type { Ctx } from '../../runtime/runtime.js';
import { runFunction } from '../lambda/provider.js';
import { isAwsError } from '../../wire/errors.js';
import type { Catcher, Definition, Retrier, State } from './definition.js';
import { matches } from './choice.js';
import { applyPath, fillTemplate, placeResult, select, StatesError } from './paths.js';

const MAX_TRANSITIONS = 25_000;
const LAMBDA_INVOKE = /^arn:[a-z-]+:states:::lambda:invoke(\.waitForTaskToken)?$/;
const LAMBDA_ARN = /^arn:[a-z-]+:lambda:[a-z0-9-]+:\d{12}:function:[^:]+(:[^:]+)?$/;

export interface ExecutionContext {
  Execution: { Id: string; Name: string; Input: unknown; StartTime: string; RoleArn: string };
  StateMachine: { Id: string; Name: string };
  State?: { Name: string; EnteredTime: string; RetryCount: number };
}

type ExecutionEnd = { status: 'SUCCEEDED'; output: unknown } | { status: 'FAILED'; error: string; cause: string };

/** The execution was stopped (StopExecution, its TimeoutSeconds, reset, shutdown): nothing more to record. */
export class Aborted extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Aborted());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Aborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether a retrier or catcher names `error`. */
function names(list: string[], error: string): boolean {
  return list.some((e) => e === error || (e === 'States.ALL' && error !== 'States.Runtime') || (e === 'States.TaskFailed' && !error.startsWith('States.')));
}

async function invokeLambda(ctx: Ctx, functionName: string, payload: unknown): Promise<{ result: unknown; version: string }> {
  let run;
  try {
    run = await runFunction(ctx, functionName, undefined, JSON.stringify(payload ?? {}));
  } catch (err) {
    if (isAwsError(err)) throw new StatesError(`Lambda.${err.code}`, err.message);
    throw err;
  }
  const text = run.payload.toString('utf8');
  if (run.functionError) {
    let type = 'Error';
    try {
      type = (JSON.parse(text) as { errorType?: string }).errorType ?? type;
    } catch {
      // not JSON: the error keeps its generic name
    }
    throw new StatesError(type, text);
  }
  return { result: text ? JSON.parse(text) : null, version: run.executedVersion };
}

async function task(ctx: Ctx, state: State, input: unknown): Promise<unknown> {
  const resource = state.Resource!;
  if (LAMBDA_ARN.test(resource)) return (await invokeLambda(ctx, resource, input)).result;
  if (LAMBDA_INVOKE.test(resource) && !resource.endsWith('.waitForTaskToken')) {
    const params = (input ?? {}) as { FunctionName?: string; Payload?: unknown };
    if (typeof params.FunctionName !== 'string') throw new StatesError('States.Runtime', 'lambda:invoke needs a FunctionName parameter');
    const { result, version } = await invokeLambda(ctx, params.FunctionName, params.Payload);
    return { ExecutedVersion: version, Payload: result, StatusCode: 200 };
  }
  throw new StatesError('States.Runtime', `Overcast runs Lambda tasks only (a function ARN or arn:aws:states:::lambda:invoke), not ${resource}`);
}

function retryDelay(r: Retrier, attempt: number): number {
  const seconds = (r.IntervalSeconds ?? 1) * (r.BackoffRate ?? 2) ** attempt;
  return Math.min(seconds, r.MaxDelaySeconds ?? Infinity) * 1000;
}

/** A task's run, failed with States.Timeout after the state's TimeoutSeconds (the function itself runs on). */
function withTimeout(state: State, work: Promise<unknown>): Promise<unknown> {
  if (!state.TimeoutSeconds) return work;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StatesError('States.Timeout', `The task did not finish within ${state.TimeoutSeconds} seconds`)), state.TimeoutSeconds! * 1000);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** One Task state with its retries: the result, or the error that no retrier absorbed. */
async function runTask(ctx: Ctx, state: State, input: unknown, context: ExecutionContext, signal: AbortSignal): Promise<unknown> {
  const attempts = new Map<Retrier, number>();
  for (;;) {
    try {
      return await withTimeout(state, task(ctx, state, input));
    } catch (err) {
      if (!(err instanceof StatesError)) throw err;
      const retrier = (state.Retry ?? []).find((r) => names(r.ErrorEquals, err.error));
      const used = retrier ? (attempts.get(retrier) ?? 0) : 0;
      if (!retrier || used >= (retrier.MaxAttempts ?? 3)) throw err;
      attempts.set(retrier, used + 1);
      if (context.State) context.State.RetryCount++;
      await sleep(retryDelay(retrier, used), signal);
    }
  }
}

async function waitState(state: State, input: unknown, context: ExecutionContext, signal: AbortSignal): Promise<void> {
  let ms = 0;
  if (state.Seconds !== undefined) ms = state.Seconds * 1000;
  else if (state.SecondsPath) ms = Number(select(input, state.SecondsPath, context)) * 1000;
  else {
    const at = state.Timestamp ?? (state.TimestampPath ? String(select(input, state.TimestampPath, context)) : undefined);
    if (at !== undefined) ms = Date.parse(at) - Date.now();
  }
  if (!(ms >= 0)) ms = 0;
  await sleep(ms, signal);
}

/** Runs the definition on `input` to its end. */
export async function execute(ctx: Ctx, definition: Definition, input: unknown, context: ExecutionContext, signal: AbortSignal): Promise<ExecutionEnd> {
  let name = definition.StartAt;
  let data = input;
  for (let transitions = 0; transitions < MAX_TRANSITIONS; transitions++) {
    const state = definition.States[name]!;
    context.State = { Name: name, EnteredTime: new Date().toISOString(), RetryCount: 0 };
    let next: string | undefined;
    try {
      const effective = applyPath(data, state.InputPath, context);
      switch (state.Type) {
        case 'Succeed':
          return { status: 'SUCCEEDED', output: applyPath(effective, state.OutputPath, context) };
        case 'Fail':
          return { status: 'FAILED', error: state.Error ?? '', cause: state.Cause ?? '' };
        case 'Choice': {
          const rule = (state.Choices ?? []).find((c) => matches(c, effective, context));
          next = (rule?.Next as string | undefined) ?? state.Default;
          if (next === undefined) throw new StatesError('States.NoChoiceMatched', `No Choice matched and no Default is specified in state ${name}`);
          data = applyPath(effective, state.OutputPath, context);
          break;
        }
        case 'Pass':
        case 'Wait':
        case 'Task': {
          const params = state.Parameters !== undefined ? fillTemplate(state.Parameters, effective, context) : effective;
          let result: unknown = params;
          if (state.Type === 'Pass' && state.Result !== undefined) result = state.Result;
          if (state.Type === 'Wait') await waitState(state, effective, context, signal);
          if (state.Type === 'Task') {
            result = await runTask(ctx, state, params, context, signal);
            if (state.ResultSelector !== undefined) result = fillTemplate(state.ResultSelector, result, context);
          }
          data = applyPath(state.Type === 'Wait' ? effective : placeResult(data, result, state.ResultPath), state.OutputPath, context);
          next = state.End ? undefined : state.Next;
          break;
        }
        default:
          throw new StatesError('States.Runtime', `Overcast does not run ${state.Type} states (state ${name})`);
      }
    } catch (err) {
      if (err instanceof Aborted) throw err;
      const e = err instanceof StatesError ? err : new StatesError('States.Runtime', err instanceof Error ? err.message : String(err));
      const catcher: Catcher | undefined = (state.Catch ?? []).find((c) => names(c.ErrorEquals, e.error));
      if (!catcher) return { status: 'FAILED', error: e.error, cause: e.cause };
      data = placeResult(data, { Error: e.error, Cause: e.cause }, catcher.ResultPath);
      next = catcher.Next;
    }
    if (next === undefined) return { status: 'SUCCEEDED', output: data };
    name = next;
    // Let other requests in between states (a Pass loop must not hold the event loop).
    await new Promise((r) => setImmediate(r));
  }
  return { status: 'FAILED', error: 'States.Runtime', cause: `The execution reached the limit of ${MAX_TRANSITIONS} state transitions` };
}

