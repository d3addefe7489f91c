/**
 * Starting stack operations from the API: the synchronous part that must fail the request itself
 * (template parsing, parameters, rules, unknown types, capabilities — all ValidationError or
 * InsufficientCapabilitiesException), then the stack's new `*_IN_PROGRESS` status and its event,
 * then the operation itself in the background right after the response, queued behind any other
 * operation of the same stack. The operations are quick, so the client's first poll normally sees
 * a terminal status.
 */
import { randomUUID } from 'node:crypto';
import type { Ctx } from '../../../server/runtime.js';
import type { StackRow } from '../../../store/cloudformation-repo.js';
import { AwsError } from '../../../wire/errors.js';
import type { ParameterInput, TemplateDoc } from '../template/types.js';
import { pendingOf, stackData, versionOf, type OperationJournal, type StackData, type StoredParameter } from './state.js';
import { runDelete } from './delete-stack.js';
import { runDeploy, type Deployment } from './deploy.js';
import { deleteInOrder, type DeleteItem } from './delete-resources.js';
import { loadSsm, prepareEnvironment, pseudoParameters } from './environment.js';
import { enqueue, guarded, openOp, resourceEvent, setPending, setStackStatus, type Op } from './operation.js';
import { loadRegistry, lookup } from './resource-calls.js';
import { rollbackCreate, rollbackUpdate } from './rollback.js';
import * as T from './template-port.js';

/**
 * Loads what every operation needs (template layer, registry, SSM) once per process, one after
 * the other: concurrent dynamic imports of graphs that share modules break jest's ESM loader
 * ("request for 'node:crypto' is not in cache", jestjs/jest#11434), and in-process tests run there.
 */
export async function loadEngine(): Promise<void> {
  await T.loadTemplateLayer();
  await loadRegistry();
  await loadSsm();
}

export interface DeploymentRequest {
  stackName: string;
  stackId: string;
  template: string;
  doc?: TemplateDoc;
  parameters: ParameterInput[];
  previousParameters?: StoredParameter[];
  capabilities: string[];
  /** Change sets may use transforms without CAPABILITY_AUTO_EXPAND. */
  viaChangeSet?: boolean;
  /** The stack's new settings, parameters and outputs aside. */
  settings: Omit<StackData, 'parameters' | 'outputs'>;
}

/** Parses and prepares a template for an operation; throws the request's error. Call loadEngine() first. */
export function prepareDeployment(ctx: Ctx, req: DeploymentRequest): Deployment {
  const doc = req.doc ?? T.parse(req.template);
  const env = prepareEnvironment(ctx, pseudoParameters(ctx, req.stackName, req.stackId, req.settings.notificationArns));
  const unknownTypes = new Set<string>();
  for (const decl of Object.values(doc.Resources ?? {})) {
    const type = (decl as { Type?: unknown })?.Type;
    if (typeof type === 'string' && lookup(type).unrecognized) unknownTypes.add(type);
  }
  if (unknownTypes.size) {
    throw new AwsError('ValidationError', `Template format error: Unrecognized resource types: [${[...unknownTypes].join(', ')}]`, 400);
  }
  const missing = T.missingCapabilities(doc, req.capabilities, req.viaChangeSet === true);
  if (missing) throw missing;
  const p = T.prepare(doc, req.parameters, env, req.previousParameters);
  const transforms = doc.Transform === undefined ? [] : Array.isArray(doc.Transform) ? doc.Transform : [doc.Transform];
  const data: StackData = {
    ...req.settings,
    parameters: T.storedParameters(p.prepared),
    ...(transforms.length ? { transforms: transforms.map(String), processed: JSON.stringify(p.prepared.processed) } : {}),
  };
  delete (data as { outputs?: unknown }).outputs;
  if (!transforms.length) {
    delete data.transforms;
    delete data.processed;
  }
  return {
    ...p,
    template: req.template,
    description: typeof doc.Description === 'string' ? doc.Description : null,
    data,
  };
}

export function newJournal(type: OperationJournal['type'], extra: Partial<OperationJournal> = {}): OperationJournal {
  return { id: randomUUID(), type, ...extra };
}

function rowOf(ctx: Ctx, stack: Pick<StackRow, 'id' | 'name'>): Pick<StackRow, 'id' | 'name' | 'account' | 'region' | 'op'> {
  return { id: stack.id, name: stack.name, account: ctx.account, region: ctx.region, op: null };
}

/** Runs a create whose stack row (CREATE_IN_PROGRESS) exists. */
export function startCreate(ctx: Ctx, stack: Pick<StackRow, 'id' | 'name'>, d: Deployment, journal: OperationJournal): Promise<void> {
  const op = openOp(ctx.rt, rowOf(ctx, stack), journal);
  return enqueue(ctx.rt, stack.id, `create ${stack.name}`, () => guarded(op, () => runDeploy(op, d, 'CREATE')));
}

/** Moves the stack to UPDATE_IN_PROGRESS (in the request) and runs the update. */
export function startUpdate(ctx: Ctx, stack: StackRow, d: Deployment, journal: OperationJournal): Promise<void> {
  const before = stackData(stack);
  journal.previous = { template: stack.template, description: stack.description, data: before };
  const op = openOp(ctx.rt, rowOf(ctx, stack), journal);
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
  const op = openOp(ctx.rt, rowOf(ctx, stack), journal);
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
  const op = openOp(ctx.rt, rowOf(ctx, stack), journal);
  const create = stack.status === 'CREATE_FAILED' || stack.status === 'ROLLBACK_FAILED';
  return enqueue(ctx.rt, stack.id, `rollback ${stack.name}`, () =>
    guarded(op, () => (create ? rollbackCreate(op, 'User Initiated') : rollbackUpdate(op, 'User Initiated'))),
  );
}

/** ContinueUpdateRollback from UPDATE_ROLLBACK_FAILED. */
export function startContinueRollback(ctx: Ctx, stack: StackRow, skip: readonly string[], token?: string): Promise<void> {
  const journal = { ...(JSON.parse(stack.op ?? 'null') ?? newJournal('ROLLBACK')), ...(token ? { token } : {}) } as OperationJournal;
  const op = openOp(ctx.rt, rowOf(ctx, stack), journal);
  setStackStatus(op, 'UPDATE_ROLLBACK_IN_PROGRESS', 'User Initiated');
  op.repo.flush();
  return enqueue(ctx.rt, stack.id, `continue rollback ${stack.name}`, () =>
    guarded(op, () => rollbackUpdate(op, null, { skip, resume: true })),
  );
}
