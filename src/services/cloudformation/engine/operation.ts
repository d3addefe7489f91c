/**
 * What every stack operation shares: its context (the stack, an internal service context for the
 * stack's account and region, the event log, strict mode), its writes of resource rows and
 * events, the per-stack queue that keeps two operations of one stack from interleaving, and the
 * guard that no operation ever leaves a stack `*_IN_PROGRESS` — whatever throws, the stack ends
 * in a terminal status.
 *
 * An operation's writes go through a write-behind buffer: they are queued in order and committed
 * together in one transaction at the end of the current turn of the event loop (or before any
 * read, or when the operation ends). A hundred resources created by in-process providers thus cost
 * a handful of commits instead of several hundred, while a provider that really waits (a nested
 * stack) still lets the events recorded so far reach the store at once.
 */
import type { ResourceRow, StackRow } from '../../../store/cloudformation-repo.js';
import type { CloudFormationRepo } from '../../../store/cloudformation-repo.js';
import { internalCtx, type Ctx, type Runtime } from '../../../server/runtime.js';
import type { NestedStacks, ResourceState } from '../resources/types.js';
import {
  cfnRepo,
  journalOf,
  pendingOf,
  versionOf,
  type OperationJournal,
  type PendingChange,
  type ResourceVersion,
} from './state.js';
import { EventLog, type EventInput } from './events.js';
import type { CallTarget } from './resource-calls.js';

export type BufferedRepo = CloudFormationRepo & { flush(): void };

export interface Op {
  rt: Runtime;
  ctx: Ctx;
  /** The repository behind the write-behind buffer: reads see every write queued before them. */
  repo: BufferedRepo;
  stackId: string;
  stackName: string;
  events: EventLog;
  journal: OperationJournal;
  strict: boolean;
  /** The engine's nested-stack operations, handed to `AWS::CloudFormation::Stack` resources. */
  nestedStacks: NestedStacks;
  /** The rows as last written by this operation (undefined: not read yet). */
  rows: Map<string, ResourceRow | null>;
  /** True once `rows` holds every row of the stack (a missing id then means no row). */
  rowsComplete?: boolean;
  nextSeq?: number;
}

const READS = /^(get|list|find|next|last|exportsOf|importersOf|importsOf|stacksIn)/;

/** Wraps a repository: writes are queued and committed together; a read commits the queue first. */
export function buffered(base: CloudFormationRepo, rt: Runtime): BufferedRepo {
  const queue: (() => void)[] = [];
  let scheduled = false;
  const flush = () => {
    if (queue.length === 0) return;
    const writes = queue.splice(0);
    lastPut.clear();
    base.tx(() => {
      for (const w of writes) w();
    });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      try {
        flush();
      } catch (err) {
        rt.log.error('cloudformation: writing operation state failed', err);
      }
    });
  };
  // The queue slot of the last putResource of each row, while no other write to the row follows:
  // a later putResource of the same row makes it redundant (IN_PROGRESS then COMPLETE → one write).
  const lastPut = new Map<string, number>();
  const rowKey = (stackId: unknown, logicalId: unknown) => `${String(stackId)}\u0000${String(logicalId)}`;
  const noop = () => {};
  return new Proxy(base, {
    get(target, prop) {
      if (prop === 'flush') return flush;
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      const fn = value as (...args: unknown[]) => unknown;
      // Queued writes keep their order, so a "transaction" is simply its writes in a row.
      if (prop === 'tx') return (body: () => unknown) => body();
      if (READS.test(prop)) {
        return (...args: unknown[]) => {
          flush();
          return fn.apply(target, args);
        };
      }
      return (...args: unknown[]) => {
        if (prop === 'putResource') {
          const row = args[0] as ResourceRow;
          const key = rowKey(row.stack_id, row.logical_id);
          const earlier = lastPut.get(key);
          if (earlier !== undefined && earlier < queue.length) queue[earlier] = noop;
          lastPut.set(key, queue.length);
        } else if (prop === 'updateResource' || prop === 'deleteResource') {
          lastPut.delete(rowKey(args[0], args[1]));
        }
        queue.push(() => fn.apply(target, args));
        schedule();
      };
    },
  }) as BufferedRepo;
}

export function openOp(
  rt: Runtime,
  stack: Pick<StackRow, 'id' | 'name' | 'account' | 'region' | 'op'>,
  nestedStacks: NestedStacks,
  journal?: OperationJournal,
): Op {
  const ctx = internalCtx(rt, stack.account, stack.region, journal?.id ?? 'cloudformation');
  const repo = buffered(cfnRepo(ctx), rt);
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
    nestedStacks,
    rows: new Map(),
  };
}

export function target(op: Op, logicalId: string, type: string): CallTarget {
  return { ctx: op.ctx, stackName: op.stackName, stackId: op.stackId, logicalId, type, strict: op.strict, nestedStacks: op.nestedStacks };
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
  op.rows.clear();
  let maxSeq = -1;
  for (const row of op.repo.listResources(op.stackId)) {
    op.rows.set(row.logical_id, row);
    maxSeq = Math.max(maxSeq, row.seq);
    out.set(row.logical_id, { row, version: versionOf(row), pending: pendingOf(row) });
  }
  op.rowsComplete = true;
  op.nextSeq = Math.max(op.nextSeq ?? 0, maxSeq + 1);
  return out;
}

function currentRow(op: Op, logicalId: string): ResourceRow | undefined {
  if (!op.rows.has(logicalId)) {
    op.rows.set(logicalId, op.rowsComplete ? null : (op.repo.getResource(op.stackId, logicalId) ?? null));
  }
  return op.rows.get(logicalId) ?? undefined;
}

/** Sets or clears a resource's journal entry. */
export function setPending(op: Op, logicalId: string, pending: PendingChange | null): void {
  const row = currentRow(op, logicalId);
  const text = pending === null ? null : JSON.stringify(pending);
  if (row) op.rows.set(logicalId, { ...row, pending: text });
  op.repo.updateResource(op.stackId, logicalId, { pending: text });
}

/** Forgets a resource row (removed from the template, or never created). */
export function dropResource(op: Op, logicalId: string): void {
  op.rows.set(logicalId, null);
  op.repo.deleteResource(op.stackId, logicalId);
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
    const existing = currentRow(op, w.logicalId);
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
    let seq = existing?.seq;
    if (seq === undefined) {
      op.nextSeq ??= op.repo.nextResourceSeq(op.stackId);
      seq = op.nextSeq++;
    }
    const row: ResourceRow = {
      stack_id: op.stackId,
      logical_id: w.logicalId,
      seq,
      type: version?.type ?? w.type,
      physical_id: version?.physicalId ?? null,
      status: w.status,
      status_reason: w.reason ?? null,
      updated_at: now,
      data:
        w.version === undefined && existing
          ? existing.data
          : JSON.stringify(version ?? { type: w.type, props: {}, attributes: {}, deletionPolicy: 'Delete', updateReplacePolicy: 'Delete', dependsOn: [] }),
      pending,
    };
    op.rows.set(w.logicalId, row);
    op.repo.putResource(row);
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
  let row: StackRow | undefined;
  try {
    row = op.repo.getStack(op.stackId); // commits what the operation queued
  } catch (err) {
    op.rt.log.error(`cloudformation operation on ${op.stackName}: state not written`, err);
    row = cfnRepo(op.ctx).getStack(op.stackId);
  }
  if (!row) return;
  const terminal = FAILED_STATE[row.status];
  if (terminal) {
    setStackStatus(op, terminal, 'Internal failure: the operation stopped unexpectedly', { op: null });
    op.repo.flush();
  }
}
