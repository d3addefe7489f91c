/**
 * The forward pass of a create or an update: every resource of the prepared template in
 * dependency order, independent ones concurrently. Each resource is created, left alone, updated
 * in place or replaced (the new one created first; the old one deleted later, in cleanup), with
 * AWS's events and reasons (reference §3.5). When everything succeeded the outputs are evaluated,
 * exports checked, and the result committed in one transaction; then the update's cleanup phase
 * deletes replaced and removed resources. A failure hands over to rollback unless rollback is
 * disabled.
 *
 * deployOne is one long function on purpose: the four outcomes of a resource (create, keep,
 * update, replace) and their events read best side by side.
 */
import type { Tag } from '@aws-sdk/client-cloudformation';
import type { PreparedResource, ResolveScope } from '../template/types.js';
import { resourceType } from '../spec/resource-types.js';
import type { ResourceVersion, StackData, StoredOutput, StoredParameter } from './state.js';
import { deleteInOrder, type DeleteItem } from './delete-resources.js';
import { dropResource, loadResources, setPending, resourceEvent, setStackStatus, target, stateOf, writeResource, type LoadedResource, type Op } from './operation.js';
import { planResource, sameValue } from './plan.js';
import { loadProviders } from '../resources/registry.js';
import { storedReason } from '../resources/stored.js';
import { ResourceFailure } from '../resources/types.js';
import { createResource, failureReason, updateResource } from './resource-calls.js';
import { runGraph } from './run-graph.js';
import { stackTagsFor } from './stack-tags.js';
import { turnTransaction } from './turn-transaction.js';
import { rollbackCreate, rollbackUpdate } from './rollback.js';
import { checkExports, commitExports } from './exports.js';
import { policyRefusal } from './stack-policy.js';
import { stackOutputs, type Deployment } from './deployment.js';
import { resolveValue } from '../template/index.js';
import { adoptResource, rollbackImport } from './import.js';

export const REPLACEMENT_REASON = 'Requested update requires the creation of a new physical resource; hence creating one.';
const CREATION_INITIATED = 'Resource creation Initiated';

/** Stacks whose running update was asked to stop (CancelUpdateStack). */
const cancelled = new Set<string>();

export function requestCancel(stackId: string): void {
  cancelled.add(stackId);
}

function versionFor(decl: PreparedResource, props: Record<string, unknown>, stackTags?: Tag[]): ResourceVersion {
  return {
    type: decl.type,
    props,
    ...(stackTags ? { stackTags } : {}),
    attributes: {},
    deletionPolicy: decl.deletionPolicy,
    updateReplacePolicy: decl.updateReplacePolicy,
    ...(decl.metadata !== undefined ? { metadata: decl.metadata } : {}),
    declaration: decl.declaration as unknown as Record<string, unknown>,
    dependsOn: decl.dependsOn,
  };
}

/** A replacement that would need two resources with one user-given name at once (AWS refuses it). */
function customNameConflict(type: string, before: Record<string, unknown>, after: Record<string, unknown>): string | undefined {
  const info = resourceType(type);
  if (!info) return undefined;
  for (const [name, p] of Object.entries(info.p)) {
    if (p.c !== 'yes' || !/Name$/.test(name)) continue;
    const v = after[name];
    if (typeof v === 'string' && v !== '' && sameValue(before[name], v)) return v;
  }
  return undefined;
}

interface RunState {
  op: Op;
  d: Deployment;
  existing: Map<string, LoadedResource>;
  live: Map<string, ResourceVersion>;
  scope: ResolveScope;
  oldParameters: StoredParameter[];
  created: Set<string>;
  kind: DeployKind;
}

/** IMPORT: an import change set's run, whose resources are all adopted (engine/import.ts). */
type DeployKind = 'CREATE' | 'UPDATE' | 'IMPORT';

export function liveScope(live: Map<string, ResourceVersion>): ResolveScope {
  return {
    ref(id) {
      const v = live.get(id);
      if (!v || v.physicalId === undefined) throw new ResourceFailure(`Resource ${id} is not available`);
      return v.ref ?? v.physicalId;
    },
    getAtt(id, attr) {
      const v = live.get(id);
      if (!v || v.physicalId === undefined) throw new ResourceFailure(`Resource ${id} is not available`);
      const value = v.attributes[attr];
      if (value === undefined) {
        if (v.type === 'AWS::CloudFormation::CustomResource' || v.type.startsWith('Custom::')) {
          // AWS's wording for a key the provider's Data lacks.
          throw new ResourceFailure(`CustomResource attribute error: Vendor response doesn't contain ${attr} key in object ${id}`);
        }
        throw new ResourceFailure(`Template error: resource ${id} does not support attribute type ${attr} in Fn::GetAtt`);
      }
      return value;
    },
    secret: (id) => live.get(id)?.masked === true,
  };
}

async function createOne(
  s: RunState,
  decl: PreparedResource,
  props: Record<string, unknown>,
  stackTags: Tag[] | undefined,
  replacing?: ResourceVersion,
): Promise<void> {
  const { op } = s;
  const id = decl.logicalId;
  const version = versionFor(decl, props, stackTags);
  // An existing resource the change set imports (IMPORT, or ImportExistingResources) is adopted.
  const identifier = replacing ? undefined : s.d.adopt?.[id];
  const verb = identifier ? 'IMPORT' : 'CREATE';
  if (!replacing) {
    s.created.add(id);
    writeResource(op, {
      logicalId: id,
      type: decl.type,
      status: `${verb}_IN_PROGRESS`,
      version,
      // A create's rollback removes every resource anyway; an update's needs to know which are new;
      // an imported one is forgotten, never deleted.
      pending: identifier ? { action: 'imported' } : s.kind === 'UPDATE' ? { action: 'created' } : null,
      eventPhysicalId: '',
      eventProperties: props,
    });
  }
  const t = target(op, id, decl.type);
  const { state, stored } = identifier ? await adoptResource(t, props, identifier, stackTags) : await createResource(t, props, stackTags);
  const done: ResourceVersion = {
    ...version,
    physicalId: state.physicalId,
    attributes: state.attributes,
    ...(state.ref !== undefined ? { ref: state.ref } : {}),
    ...(state.masked ? { masked: true } : {}),
    ...(stored ? { stored: true } : {}),
  };
  s.live.set(id, done);
  const progress = replacing ? 'UPDATE_IN_PROGRESS' : `${verb}_IN_PROGRESS`;
  const complete = replacing ? 'UPDATE_COMPLETE' : `${verb}_COMPLETE`;
  op.repo.tx(() => {
    resourceEvent(op, {
      logicalId: id,
      physicalId: state.physicalId,
      type: decl.type,
      status: progress,
      reason: identifier ? null : CREATION_INITIATED,
      properties: props,
    });
    writeResource(op, { logicalId: id, type: decl.type, status: complete, reason: stored ? storedReason(decl.type) : null, version: done });
  });
}

async function deployOne(s: RunState, id: string): Promise<void> {
  const { op, d } = s;
  if (cancelled.has(op.stackId)) throw new ResourceFailure('Resource update cancelled');
  const decl = d.prepared.resources[id]!;
  const current = s.existing.get(id);
  const cur = current && current.version.physicalId !== undefined && !current.row.status.startsWith('DELETE_') ? current.version : undefined;
  const props = (resolveValue(decl.properties ?? {}, s.scope, d.rctx) ?? {}) as Record<string, unknown>;
  const stackTags = stackTagsFor(decl.type, d.data.tags);
  if (!cur) return createOne(s, decl, props, stackTags);

  const plan = planResource({
    resource: decl,
    props,
    current: cur,
    stackTags,
    oldParameters: s.oldParameters,
    newParameters: d.data.parameters,
  });
  const next = versionFor(decl, props, stackTags);
  if (plan.action === 'None') {
    // New stack tags the resource overrides with its own change nothing on it; they are recorded.
    const { stackTags: _old, ...rest } = cur;
    const kept: ResourceVersion = {
      ...rest,
      ...(next.stackTags ? { stackTags: next.stackTags } : {}),
      declaration: next.declaration,
      dependsOn: next.dependsOn,
      metadata: next.metadata,
    };
    s.live.set(id, kept);
    if (
      !sameValue(cur.dependsOn, next.dependsOn) ||
      !sameValue(cur.declaration, next.declaration) ||
      !sameValue(cur.stackTags ?? [], next.stackTags ?? [])
    ) {
      writeResource(op, { logicalId: id, type: cur.type, status: current!.row.status, reason: current!.row.status_reason, version: kept, silent: true });
    }
    return;
  }
  const replacing = plan.typeChanged === true || plan.replacement === 'True';
  const refusal = policyRefusal(op.journal.policy, replacing ? 'Update:Replace' : 'Update:Modify', id, cur.type);
  if (refusal) throw new ResourceFailure(refusal);
  if (replacing) {
    const name = plan.typeChanged ? undefined : customNameConflict(decl.type, cur.props, props);
    if (name !== undefined) {
      throw new ResourceFailure(
        `CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${name} and update the stack again.`,
      );
    }
    writeResource(op, {
      logicalId: id,
      type: decl.type,
      status: 'UPDATE_IN_PROGRESS',
      reason: REPLACEMENT_REASON,
      version: cur,
      pending: { action: 'replaced', prior: cur },
      eventProperties: props,
    });
    return createOne(s, decl, props, stackTags, cur);
  }
  writeResource(op, {
    logicalId: id,
    type: decl.type,
    status: 'UPDATE_IN_PROGRESS',
    version: cur,
    pending: { action: 'updated', prior: cur },
    eventProperties: props,
  });
  const propsChanged = plan.changes.some((c) => c.attribute === 'Properties' || c.attribute === 'Tags');
  let state = stateOf(cur);
  if (propsChanged) {
    state = await updateResource(target(op, id, decl.type), props, stackTags, { props: cur.props, state, stackTags: cur.stackTags });
  }
  const done: ResourceVersion = {
    ...next,
    physicalId: state.physicalId,
    attributes: state.attributes,
    ...(state.ref !== undefined ? { ref: state.ref } : {}),
    ...(state.masked ? { masked: true } : {}),
    ...(cur.stored ? { stored: true } : {}),
  };
  s.live.set(id, done);
  writeResource(op, {
    logicalId: id,
    type: decl.type,
    status: 'UPDATE_COMPLETE',
    reason: cur.stored ? storedReason(decl.type) : null,
    version: done,
  });
}

function failedStatus(s: RunState, id: string): string {
  const current = s.existing.get(id);
  const existed = current && current.version.physicalId !== undefined && !current.row.status.startsWith('DELETE_');
  return existed ? 'UPDATE_FAILED' : s.d.adopt?.[id] ? 'IMPORT_FAILED' : 'CREATE_FAILED';
}

/** Runs a create (`kind` CREATE), an update or an import of the stack to `d`. */
export async function runDeploy(op: Op, d: Deployment, kind: DeployKind, oldParameters: StoredParameter[] = []): Promise<void> {
  cancelled.delete(op.stackId);
  const existing = loadResources(op);
  const live = new Map<string, ResourceVersion>();
  for (const [id, r] of existing) {
    if (r.version.physicalId !== undefined && !r.row.status.startsWith('DELETE_')) live.set(id, r.version);
  }
  const s: RunState = { op, d, existing, live, scope: liveScope(live), oldParameters, created: new Set(), kind };
  const ids = d.prepared.order.filter((id) => d.prepared.resources[id] !== undefined);
  const failed: string[] = [];
  if (kind === 'UPDATE' && op.journal.policy !== undefined) {
    for (const [id, r] of existing) {
      if (d.prepared.resources[id] !== undefined || r.version.physicalId === undefined) continue;
      const refusal = policyRefusal(op.journal.policy, 'Update:Delete', id, r.version.type);
      if (!refusal) continue;
      writeResource(op, { logicalId: id, type: r.version.type, status: 'UPDATE_FAILED', reason: refusal });
      return handleFailure(op, kind, `The following resource(s) failed to update: [${id}]. `);
    }
  }
  // Imports are checked before anything is provisioned, as AWS does.
  const missing = d.prepared.imports.find((name) => !op.repo.getExport(op.ctx.account, op.ctx.region, name));
  if (missing !== undefined) return handleFailure(op, kind, `No export named ${missing} found. `);
  // Provider modules load on first use: all this run needs before anything starts, as if always loaded.
  const loading = loadProviders([...ids.map((id) => d.prepared.resources[id]!.type), ...[...existing.values()].map((r) => r.version.type)]);
  if (loading) await loading;
  await runGraph(
    ids,
    (id) => d.prepared.resources[id]!.dependsOn,
    async (id) => {
      try {
        await deployOne(s, id);
        return true;
      } catch (err) {
        const decl = d.prepared.resources[id]!;
        const status = failedStatus(s, id);
        const hasRow = (op.rows.get(id) ?? undefined) !== undefined;
        if (status === 'CREATE_FAILED' || status === 'IMPORT_FAILED') s.created.add(id);
        writeResource(op, {
          logicalId: id,
          type: decl.type,
          status,
          reason: failureReason(err),
          ...(hasRow ? {} : { version: versionFor(decl, {}), pending: { action: 'created' as const } }),
        });
        failed.push(id);
        return false;
      }
    },
    { stopOnFailure: true, batch: (starts) => {
        turnTransaction(op.rt, () => op.repo.flush());
        starts();
      } },
  );
  const wasCancelled = cancelled.delete(op.stackId);

  let stackReason: string | undefined;
  let outputs: StoredOutput[] = [];
  if (failed.length === 0) {
    try {
      outputs = stackOutputs(d, s.scope);
      checkExports(op, outputs);
    } catch (err) {
      stackReason = failureReason(err);
    }
  }
  if (failed.length > 0 || stackReason !== undefined) {
    if (stackReason === undefined) {
      const creates = failed.filter((id) => s.created.has(id) || !existing.has(id));
      const verb = kind === 'IMPORT' ? 'import' : kind === 'CREATE' || creates.length === failed.length ? 'create' : 'update';
      stackReason = wasCancelled ? 'Resource update cancelled' : `The following resource(s) failed to ${verb}: [${failed.join(', ')}]. `;
    }
    return handleFailure(op, kind, stackReason);
  }
  commit(op, d, kind, outputs, existing);
  if (kind === 'UPDATE') await runCleanup(op);
}

function handleFailure(op: Op, kind: DeployKind, reason: string): Promise<void> | void {
  if (kind === 'IMPORT') return rollbackImport(op, reason);
  if (kind === 'CREATE') {
    if (op.journal.deleteOnFailure) return rollbackCreate(op, `${reason.trimEnd()} Delete requested by user.`, { thenDelete: true });
    if (op.journal.disableRollback) {
      setStackStatus(op, 'CREATE_FAILED', reason);
      return;
    }
    return rollbackCreate(op, reason.endsWith('. ') ? `${reason}Rollback requested by user.` : reason);
  }
  if (op.journal.disableRollback) {
    setStackStatus(op, 'UPDATE_FAILED', reason);
    return;
  }
  return rollbackUpdate(op, reason);
}

function commit(op: Op, d: Deployment, kind: DeployKind, outputs: StoredOutput[], existing: Map<string, LoadedResource>): void {
  const now = Date.now();
  op.repo.tx(() => {
    const data: StackData = { ...d.data, outputs, imports: d.prepared.imports };
    commitExports(op, outputs, d.prepared.imports);
    for (const [id, r] of existing) {
      if (d.prepared.resources[id] === undefined && !r.row.status.startsWith('DELETE_')) {
        setPending(op, id, { action: 'remove' });
      } else if (d.prepared.resources[id] === undefined) {
        dropResource(op, id);
      }
    }
    if (kind === 'CREATE' || kind === 'IMPORT') {
      for (const [id, row] of op.rows) {
        if (row?.pending) setPending(op, id, null);
      }
      const status = `${kind}_COMPLETE`;
      op.events.stack(status);
      op.repo.updateStack(op.stackId, {
        status,
        status_reason: null,
        data: JSON.stringify(data),
        template: d.template,
        description: d.description,
        op: null,
        ...(kind === 'IMPORT' ? { updated_at: now } : {}),
      });
    } else {
      op.events.stack('UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
      op.repo.updateStack(op.stackId, {
        status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
        status_reason: null,
        data: JSON.stringify(data),
        template: d.template,
        description: d.description,
        updated_at: now,
      });
    }
  });
}

/** The update's cleanup phase: delete old halves of replacements and removed resources, then UPDATE_COMPLETE. */
export async function runCleanup(op: Op): Promise<void> {
  const items: DeleteItem[] = [];
  for (const [id, r] of loadResources(op)) {
    const p = r.pending;
    // An in-place update that came back with a new physical id (a custom resource's) replaced it too.
    if ((p?.action === 'replaced' || p?.action === 'updated') && p.prior && p.prior.physicalId !== r.version.physicalId) {
      const prior = p.prior;
      items.push({
        key: `${id}#old`,
        logicalId: id,
        version: prior,
        policy: prior.updateReplacePolicy === 'Retain' ? 'Retain' : prior.updateReplacePolicy === 'Snapshot' ? 'Snapshot' : 'Delete',
        settle: (status, reason) =>
          op.repo.tx(() => {
            resourceEvent(op, { logicalId: id, physicalId: prior.physicalId, type: prior.type, status, reason });
            setPending(op, id, null);
          }),
      });
    } else if (p?.action === 'remove') {
      const v = r.version;
      items.push({
        key: id,
        logicalId: id,
        version: v,
        policy: v.deletionPolicy === 'Retain' || v.deletionPolicy === 'RetainExceptOnCreate' ? 'Retain' : v.deletionPolicy === 'Snapshot' ? 'Snapshot' : 'Delete',
        settle: (status, reason) =>
          op.repo.tx(() => {
            resourceEvent(op, { logicalId: id, physicalId: v.physicalId, type: v.type, status, reason });
            dropResource(op, id);
          }),
      });
    } else if (p) {
      setPending(op, id, null);
    }
  }
  await deleteInOrder(op, items);
  setStackStatus(op, 'UPDATE_COMPLETE', null, { op: null });
}
