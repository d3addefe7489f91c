/**
 * What every stack operation shares: its context (the stack, an internal service context for the
 * stack's account and region, the event log, strict mode, the nested-stack operations) and its
 * writes of resource rows, journal entries, stack statuses and events — through the operation's
 * write-behind buffer (write-buffer.ts).
 */
import type { ResourceRow, StackRow } from '../../../store/cloudformation-repo.js';
import { internalCtx, type Ctx, type Runtime } from '../../../runtime/runtime.js';
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
import { buffered, type BufferedRepo } from './write-buffer.js';
import type { CallTarget } from './resource-calls.js';

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
  return {
    physicalId: v.physicalId ?? '',
    attributes: v.attributes,
    ...(v.ref !== undefined ? { ref: v.ref } : {}),
    ...(v.masked ? { masked: true } : {}),
  };
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

interface ResourceWrite {
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
