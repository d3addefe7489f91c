/**
 * What every stack operation shares: its context (the stack, an internal service context for the
 * stack's account and region, the event log, strict mode), reading and writing resource rows
 * together with their events in one transaction, the per-stack queue that keeps two operations
 * of one stack from interleaving, and the guard that no operation ever leaves a stack
 * `*_IN_PROGRESS` — whatever throws, the stack ends in a terminal status.
 */
import type { ResourceRow, StackRow } from '../../../store/cloudformation-repo.js';
import type { CloudFormationRepo } from '../../../store/cloudformation-repo.js';
import { internalCtx, type Ctx, type Runtime } from '../../../server/runtime.js';
import type { ResourceState } from '../resources/types.js';
import {
  cfnRepo,
  journalOf,
  pendingOf,
  versionOf,
  type OperationJournal,
  type PendingChange,
  type ResourceVersion,
} from '../state.js';
import { EventLog, type EventInput } from './events.js';
import type { CallTarget } from './resource-calls.js';

export interface Op {
  rt: Runtime;
  ctx: Ctx;
  repo: CloudFormationRepo;
  stackId: string;
  stackName: string;
  events: EventLog;
  journal: OperationJournal;
  strict: boolean;
}

export function openOp(rt: Runtime, stack: Pick<StackRow, 'id' | 'name' | 'account' | 'region' | 'op'>, journal?: OperationJournal): Op {
  const ctx = internalCtx(rt, stack.account, stack.region, journal?.id ?? 'cloudformation');
  const repo = cfnRepo(ctx);
  const j = journal ?? journalOf(stack) ?? { id: 'recovery', type: 'ROLLBACK' };
  return {
    rt,
    ctx,
    repo,
    stackId: stack.id,
    stackName: stack.name,
    events: new EventLog(repo, stack.id, stack.name, j.token, j.id),
    journal: j,
    strict: rt.config.strictResources,
  };
}

export function target(op: Op, logicalId: string, type: string): CallTarget {
  return { ctx: op.ctx, stackName: op.stackName, stackId: op.stackId, logicalId, type, strict: op.strict };
}

export function stateOf(v: ResourceVersion): ResourceState {
  return { physicalId: v.physicalId ?? '', attributes: v.attributes, ...(v.ref !== undefined ? { ref: v.ref } : {}) };
}

export interface LoadedResource {
  row: ResourceRow;
  version: ResourceVersion;
  pending?: PendingChange;
}

export function loadResources(op: Op): Map<string, LoadedResource> {
  const out = new Map<string, LoadedResource>();
  for (const row of op.repo.listResources(op.stackId)) {
    out.set(row.logical_id, { row, version: versionOf(row), pending: pendingOf(row) });
  }
  return out;
}

/** Sets a stack's status (and its event) in one transaction. */
export function setStackStatus(op: Op, status: string, reason?: string | null, extra: Partial<StackRow> = {}): void {
  op.repo.tx(() => {
    op.events.stack(status, reason ?? null);
    op.repo.updateStack(op.stackId, { status, status_reason: reason ?? null, ...extra });
  });
}

export interface ResourceWrite {
  logicalId: string;
  type: string;
  status: string;
  reason?: string | null;
  version?: ResourceVersion;
  /** `null` clears the journal entry; undefined leaves it. */
  pending?: PendingChange | null;
  /** The physical id the event names (defaults to the version's). */
  eventPhysicalId?: string | null;
  eventProperties?: unknown;
  /** Record the row without an event. */
  silent?: boolean;
}

/** Writes a resource row and records its event, in one transaction. */
export function writeResource(op: Op, w: ResourceWrite): void {
  op.repo.tx(() => {
    const now = Date.now();
    const existing = op.repo.getResource(op.stackId, w.logicalId);
    const version = w.version ?? (existing ? versionOf(existing) : undefined);
    const physicalId = w.eventPhysicalId !== undefined ? w.eventPhysicalId : (version?.physicalId ?? null);
    if (!w.silent) {
      const e: EventInput = {
        logicalId: w.logicalId,
        physicalId,
        type: w.type,
        status: w.status,
        reason: w.reason ?? null,
      };
      if (w.eventProperties !== undefined) e.properties = w.eventProperties;
      op.events.record(e);
    }
    const pending = w.pending === undefined ? (existing?.pending ?? null) : w.pending === null ? null : JSON.stringify(w.pending);
    op.repo.putResource({
      stack_id: op.stackId,
      logical_id: w.logicalId,
      seq: existing?.seq ?? op.repo.nextResourceSeq(op.stackId),
      type: version?.type ?? w.type,
      physical_id: version?.physicalId ?? null,
      status: w.status,
      status_reason: w.reason ?? null,
      updated_at: now,
      data: JSON.stringify(version ?? { type: w.type, props: {}, attributes: {}, deletionPolicy: 'Delete', updateReplacePolicy: 'Delete', dependsOn: [] }),
      pending,
    });
  });
}

/** A resource event without touching the row (e.g. the old physical resource of a replacement). */
export function resourceEvent(op: Op, e: EventInput): void {
  op.events.record(e);
}

// ---- per-stack queue

const queues = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `task` after every operation already queued on the stack, in the background (after the
 * current request has been answered). Returns when the task has finished.
 */
export function enqueue(rt: Runtime, stackId: string, name: string, task: () => Promise<void>): Promise<void> {
  let perRt = queues.get(rt);
  if (!perRt) {
    perRt = new Map();
    queues.set(rt, perRt);
  }
  const before = perRt.get(stackId) ?? Promise.resolve();
  const run = before.then(() => rt.background.spawn(name, task));
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
 * the stack moves to the matching failed (or, for cleanups, complete) status.
 */
export async function guarded(op: Op, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    op.rt.log.error(`cloudformation operation on ${op.stackName} failed`, err);
  }
  const row = op.repo.getStack(op.stackId);
  if (!row) return;
  const terminal = FAILED_STATE[row.status];
  if (terminal) {
    setStackStatus(op, terminal, 'Internal failure: the operation stopped unexpectedly', { op: null });
  }
}
