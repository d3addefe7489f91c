/**
 * Starting stack operations from the API, once the request's own checks passed (a create's or an
 * update's template is prepared first, deployment.ts): the stack's new `*_IN_PROGRESS` status and
 * its event, then the operation itself in the background right after the response, queued behind
 * any other operation of the same stack; an import change set runs through the same deploy. The
 * operations are quick, so the client's first poll normally sees a terminal status.
 */
import type { Ctx } from '../../../runtime/runtime.js';
import type { StackRow } from '../../../store/cloudformation-repo.js';
import { pendingOf, stackData, versionOf, type OperationJournal } from './state.js';
import { runDelete } from './delete-stack.js';
import { runDeploy } from './deploy.js';
import { newJournal, type Deployment } from './deployment.js';
import { deleteInOrder, type DeleteItem } from './delete-resources.js';
import { openOp, resourceEvent, setPending, setStackStatus, type Op } from './operation.js';
import { enqueue, guarded } from './stack-queue.js';
import { nestedStacks } from './nested.js';
import { rollbackCreate, rollbackUpdate } from './rollback.js';
import { loadProviders } from '../resources/registry.js';
import { cfnRepo } from './state.js';

/**
 * Imports the resource providers an operation on the stack will call (the types it is given and
 * those of the stack's current resources) while the request is still being answered: the operation
 * then never waits on a module load, so the first stack to use a type completes as quickly as any.
 */
export function providersLoaded(ctx: Ctx, stackId: string, types: Iterable<string> = []): Promise<unknown> | undefined {
  const all = cfnRepo(ctx)
    .listResources(stackId)
    .map((r) => r.type);
  return loadProviders([...all, ...types]);
}

/** The resource types of a deployment's template. */
export function deploymentTypes(d: Deployment): string[] {
  return Object.values(d.prepared.resources).map((r) => r.type);
}

function rowOf(ctx: Ctx, stack: Pick<StackRow, 'id' | 'name'>): Pick<StackRow, 'id' | 'name' | 'account' | 'region' | 'op'> {
  return { id: stack.id, name: stack.name, account: ctx.account, region: ctx.region, op: null };
}

/** Runs a create whose stack row (CREATE_IN_PROGRESS) exists. */
export function startCreate(ctx: Ctx, stack: Pick<StackRow, 'id' | 'name'>, d: Deployment, journal: OperationJournal): Promise<void> {
  const op = openOp(ctx.rt, rowOf(ctx, stack), nestedStacks, journal);
  return enqueue(ctx.rt, stack.id, `create ${stack.name}`, () => guarded(op, () => runDeploy(op, d, 'CREATE')));
}

/** Moves the stack to UPDATE_IN_PROGRESS (in the request) and runs the update. */
export function startUpdate(ctx: Ctx, stack: StackRow, d: Deployment, journal: OperationJournal): Promise<void> {
  const before = stackData(stack);
  journal.previous = { template: stack.template, description: stack.description, data: before };
  const op = openOp(ctx.rt, rowOf(ctx, stack), nestedStacks, journal);
  op.repo.tx(() => {
    op.repo.updateStack(stack.id, { op: JSON.stringify(journal) });
    setStackStatus(op, 'UPDATE_IN_PROGRESS', 'User Initiated');
  });
  op.repo.flush(); // acknowledged before the response
  return enqueue(ctx.rt, stack.id, `update ${stack.name}`, () =>
    guarded(op, async () => {
      await settleLeftovers(op);
      await runDeploy(op, d, 'UPDATE', before.parameters);
    }),
  );
}

/** Moves the stack to IMPORT_IN_PROGRESS (in the request) and runs the import. */
export function startImport(ctx: Ctx, stack: StackRow, d: Deployment, journal: OperationJournal): Promise<void> {
  const fresh = stack.status === 'REVIEW_IN_PROGRESS';
  journal.previous = { template: stack.template, description: stack.description, data: stackData(stack) };
  const op = openOp(ctx.rt, rowOf(ctx, stack), nestedStacks, journal);
  op.repo.tx(() => {
    op.repo.updateStack(stack.id, { op: JSON.stringify(journal) });
    setStackStatus(op, 'IMPORT_IN_PROGRESS', 'User Initiated');
  });
  op.repo.flush(); // acknowledged before the response
  const previous = fresh ? [] : stackData(stack).parameters;
  return enqueue(ctx.rt, stack.id, `import ${stack.name}`, () => guarded(op, () => runDeploy(op, d, 'IMPORT', previous)));
}

/**
 * A stack left UPDATE_FAILED / CREATE_FAILED (rollback disabled) may still hold the old halves of
 * replacements: a new operation starts from what exists, so they are cleaned up first.
 */
async function settleLeftovers(op: Op): Promise<void> {
  const items: DeleteItem[] = [];
  for (const r of op.repo.listResources(op.stackId)) {
    const p = pendingOf(r);
    if (!p) continue;
    const cur = versionOf(r);
    const olds = [...(p.action === 'replaced' && p.prior && p.prior.physicalId !== cur.physicalId ? [p.prior] : []), ...(p.discard ?? [])];
    setPending(op, r.logical_id, null);
    olds.forEach((old, i) =>
      items.push({
        key: `${r.logical_id}#${i}`,
        logicalId: r.logical_id,
        version: old,
        policy: 'Delete',
        settle: (status, reason) =>
          resourceEvent(op, { logicalId: r.logical_id, physicalId: old.physicalId, type: old.type, status, reason }),
      }),
    );
  }
  if (items.length) await deleteInOrder(op, items);
}

/** Moves the stack to DELETE_IN_PROGRESS (in the request) and deletes it. */
export function startDelete(ctx: Ctx, stack: StackRow, journal: OperationJournal, retain?: readonly string[]): Promise<void> {
  const op = openOp(ctx.rt, rowOf(ctx, stack), nestedStacks, journal);
  const previousStatus = stack.status;
  const previousReason = stack.status_reason;
  op.repo.tx(() => {
    op.repo.updateStack(stack.id, { op: JSON.stringify(journal) });
    setStackStatus(op, 'DELETE_IN_PROGRESS', 'User Initiated');
  });
  op.repo.flush(); // acknowledged before the response
  return enqueue(ctx.rt, stack.id, `delete ${stack.name}`, () =>
    guarded(op, () => runDelete(op, { ...(retain ? { retain } : {}), previousStatus, previousReason })),
  );
}

/** RollbackStack: a CREATE_FAILED stack back to nothing, an UPDATE_FAILED one to its last good state. */
export function startRollback(ctx: Ctx, stack: StackRow, token?: string): Promise<void> {
  const journal = { ...(JSON.parse(stack.op ?? 'null') ?? newJournal('ROLLBACK')), ...(token ? { token } : {}) } as OperationJournal;
  const op = openOp(ctx.rt, rowOf(ctx, stack), nestedStacks, journal);
  const create = stack.status === 'CREATE_FAILED' || stack.status === 'ROLLBACK_FAILED';
  return enqueue(ctx.rt, stack.id, `rollback ${stack.name}`, () =>
    guarded(op, () => (create ? rollbackCreate(op, 'User Initiated') : rollbackUpdate(op, 'User Initiated'))),
  );
}

/** ContinueUpdateRollback from UPDATE_ROLLBACK_FAILED. */
export function startContinueRollback(ctx: Ctx, stack: StackRow, skip: readonly string[], token?: string): Promise<void> {
  const journal = { ...(JSON.parse(stack.op ?? 'null') ?? newJournal('ROLLBACK')), ...(token ? { token } : {}) } as OperationJournal;
  const op = openOp(ctx.rt, rowOf(ctx, stack), nestedStacks, journal);
  setStackStatus(op, 'UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
  op.repo.flush();
  return enqueue(ctx.rt, stack.id, `continue rollback ${stack.name}`, () =>
    guarded(op, () => rollbackUpdate(op, null, { skip, resume: true })),
  );
}
