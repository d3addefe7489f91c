/**
 * The per-stack queue that keeps two operations of one stack from interleaving (each runs in the
 * background, after the request that started it), reads that wait for a stack to settle, and the
 * guard that no operation ever leaves a stack `*_IN_PROGRESS` — whatever throws, the stack ends in
 * a terminal status.
 */
import type { Runtime } from '../../../runtime/runtime.js';
import type { StackRow } from '../../../store/cloudformation-repo.js';
import { setStackStatus, type Op } from './operation.js';
import { cfnRepo } from './state.js';

const queues = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `task` after every operation already queued on the stack, in the background (after the
 * current request has been answered). Returns when the task has finished.
 */
export function enqueue(rt: Runtime, stackId: string, name: string, task: () => Promise<unknown>): Promise<void> {
  let perRt = queues.get(rt);
  if (!perRt) {
    perRt = new Map();
    queues.set(rt, perRt);
  }
  const before = perRt.get(stackId) ?? Promise.resolve();
  const run = before.then(() => rt.background.spawn(`cloudformation ${name}`, task));
  perRt.set(stackId, run);
  void run.finally(() => {
    if (perRt!.get(stackId) === run) perRt!.delete(stackId);
  });
  return run;
}

/**
 * Resolves when the operations queued on the stack have finished, or after `timeoutMs`. Reads that
 * follow a write (a waiter's first DescribeStacks) use it so they see the operation's outcome.
 */
export async function settled(rt: Runtime, stackId: string, timeoutMs = 10_000): Promise<void> {
  const pending = queues.get(rt)?.get(stackId);
  if (!pending) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    pending,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    }),
  ]);
  if (timer) clearTimeout(timer);
}

/** Whether an operation is queued or running on the stack in this process. */
export function isBusy(rt: Runtime, stackId: string): boolean {
  return queues.get(rt)?.has(stackId) ?? false;
}

const FAILED_STATE: Record<string, string> = {
  CREATE_IN_PROGRESS: 'CREATE_FAILED',
  ROLLBACK_IN_PROGRESS: 'ROLLBACK_FAILED',
  DELETE_IN_PROGRESS: 'DELETE_FAILED',
  UPDATE_IN_PROGRESS: 'UPDATE_FAILED',
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_COMPLETE',
  UPDATE_ROLLBACK_IN_PROGRESS: 'UPDATE_ROLLBACK_FAILED',
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: 'UPDATE_ROLLBACK_COMPLETE',
  IMPORT_IN_PROGRESS: 'IMPORT_ROLLBACK_FAILED',
  IMPORT_ROLLBACK_IN_PROGRESS: 'IMPORT_ROLLBACK_FAILED',
};

/**
 * The last line of defence: if `body` throws, or returns with the stack still `*_IN_PROGRESS`,
 * the stack moves to the matching failed (or, for cleanups, complete) status. Resolves with the
 * status the stack ended in (the log's outcome of the operation).
 */
export async function guarded(op: Op, body: () => Promise<void>): Promise<string | undefined> {
  try {
    await body();
  } catch (err) {
    op.rt.log.error(`cloudformation operation on ${op.stackName} failed`, err);
  }
  let row: StackRow | undefined;
  try {
    row = op.repo.getStack(op.stackId); // commits what the operation queued
  } catch (err) {
    op.rt.log.error(`cloudformation operation on ${op.stackName}: state not written`, err);
    row = cfnRepo(op.ctx).getStack(op.stackId);
  }
  if (!row) return undefined;
  const terminal = FAILED_STATE[row.status];
  if (terminal) {
    setStackStatus(op, terminal, 'Internal failure: the operation stopped unexpectedly', { op: null });
    op.repo.flush();
    return terminal;
  }
  return row.status;
}
