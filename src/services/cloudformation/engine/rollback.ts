/**
 * Rollbacks, driven by the resource rows and their journal so they work the same after a failure,
 * a CancelUpdateStack, a RollbackStack / ContinueUpdateRollback call or a restart:
 * - a failed create deletes everything it made (ROLLBACK_IN_PROGRESS → ROLLBACK_COMPLETE), keeping
 *   `Retain` resources unless RetainExceptOnCreate says otherwise; with OnFailure=DELETE the stack
 *   is then deleted;
 * - a failed update puts modified resources back (UPDATE_ROLLBACK_IN_PROGRESS), restores the
 *   stack's template, parameters and outputs, then deletes what the update created, including the
 *   new halves of replacements (UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS →
 *   UPDATE_ROLLBACK_COMPLETE).
 */
import type { ResourceVersion } from './state.js';
import { deleteInOrder, type DeleteItem, type EffectivePolicy } from './delete-resources.js';
import { runGraph } from './run-graph.js';
import { dropResource, loadResources, resourceEvent, setPending, setStackStatus, stateOf, target, writeResource, type Op } from './operation.js';
import { sameValue } from './plan.js';
import { failureReason, updateResource } from './resource-calls.js';

function deletionPolicyOnRollback(op: Op, v: ResourceVersion, createdNow: boolean): EffectivePolicy {
  if (createdNow && (op.journal.retainExceptOnCreate || v.deletionPolicy === 'RetainExceptOnCreate')) return 'Delete';
  if (v.deletionPolicy === 'Retain' || v.deletionPolicy === 'RetainExceptOnCreate') return 'Retain';
  if (v.deletionPolicy === 'Snapshot') return 'Snapshot';
  return 'Delete';
}

/** Deletes every resource of a failed create (also used when a restart interrupted a create). */
export async function rollbackCreate(op: Op, reason: string, opts: { thenDelete?: boolean; resume?: boolean } = {}): Promise<void> {
  if (!opts.resume) setStackStatus(op, opts.thenDelete ? 'DELETE_IN_PROGRESS' : 'ROLLBACK_IN_PROGRESS', reason);
  const items: DeleteItem[] = [];
  for (const [id, r] of loadResources(op)) {
    if (r.row.status === 'DELETE_COMPLETE' || r.row.status === 'DELETE_SKIPPED') continue;
    const v = r.version;
    const discard = r.pending?.prior && r.pending.prior.physicalId !== v.physicalId ? [r.pending.prior] : [];
    items.push({
      key: id,
      logicalId: id,
      version: v,
      // An imported resource existed before the stack: rolling back leaves it, as AWS does.
      policy: r.pending?.action === 'imported' ? 'Retain' : deletionPolicyOnRollback(op, v, true),
      settle: (status, why) =>
        writeResource(op, {
          logicalId: id,
          type: v.type,
          status,
          reason: why,
          pending: status === 'DELETE_FAILED' ? undefined : null,
        }),
    });
    discard.forEach((old, i) => items.push(discardItem(op, id, old, i)));
  }
  const failed = await deleteInOrder(op, items);
  if (failed.length) {
    setStackStatus(op, opts.thenDelete ? 'DELETE_FAILED' : 'ROLLBACK_FAILED', `The following resource(s) failed to delete: [${failed.join(', ')}]. `);
    return;
  }
  if (opts.thenDelete) {
    const { finishDelete } = await import('./delete-stack.js');
    finishDelete(op);
    return;
  }
  setStackStatus(op, 'ROLLBACK_COMPLETE', null, { op: null });
}

function discardItem(op: Op, id: string, v: ResourceVersion, i: number): DeleteItem {
  return {
    key: `${id}#discard${i}`,
    logicalId: id,
    version: v,
    policy: 'Delete',
    settle: (status, reason) => resourceEvent(op, { logicalId: id, physicalId: v.physicalId, type: v.type, status, reason }),
  };
}

/**
 * Puts a failed update back. `skip`: logical ids ContinueUpdateRollback was told to leave as they
 * are. `cleanupOnly`: resume at the cleanup phase (after a restart).
 */
export async function rollbackUpdate(
  op: Op,
  reason: string | null,
  opts: { skip?: readonly string[]; cleanupOnly?: boolean; resume?: boolean } = {},
): Promise<void> {
  if (!opts.cleanupOnly) {
    if (!opts.resume) setStackStatus(op, 'UPDATE_ROLLBACK_IN_PROGRESS', reason);
    const failed = await restoreModified(op, new Set(opts.skip ?? []));
    if (failed.length) {
      setStackStatus(op, 'UPDATE_ROLLBACK_FAILED', `The following resource(s) failed to update: [${failed.join(', ')}]. `);
      return;
    }
    op.repo.tx(() => {
      const prev = op.journal.previous;
      if (prev) {
        op.repo.updateStack(op.stackId, { template: prev.template, description: prev.description, data: JSON.stringify(prev.data) });
      }
      setStackStatus(op, 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', null);
    });
  }
  const items: DeleteItem[] = [];
  for (const [id, r] of loadResources(op)) {
    const p = r.pending;
    if (!p) continue;
    if (p.action === 'created' || p.action === 'imported') {
      const v = r.version;
      if (v.physicalId === undefined) {
        resourceEvent(op, { logicalId: id, physicalId: null, type: v.type, status: 'DELETE_COMPLETE' });
        dropResource(op, id);
        continue;
      }
      items.push({
        key: id,
        logicalId: id,
        version: v,
        policy: p.action === 'imported' ? 'Retain' : deletionPolicyOnRollback(op, v, true),
        settle: (status, why) =>
          op.repo.tx(() => {
            resourceEvent(op, { logicalId: id, physicalId: v.physicalId, type: v.type, status, reason: why });
            dropResource(op, id);
          }),
      });
    } else if (p.action === 'discard') {
      (p.discard ?? []).forEach((old, i) => {
        const item = discardItem(op, id, old, i);
        const settle = item.settle;
        item.settle = (status, why) =>
          op.repo.tx(() => {
            settle(status, why);
            setPending(op, id, null);
          });
        items.push(item);
      });
    } else {
      setPending(op, id, null);
    }
  }
  await deleteInOrder(op, items);
  setStackStatus(op, 'UPDATE_ROLLBACK_COMPLETE', null, { op: null });
}

/** Phase one of an update rollback: modified resources back to their prior version. */
async function restoreModified(op: Op, skip: Set<string>): Promise<string[]> {
  const rows = loadResources(op);
  const todo = [...rows.entries()].filter(([, r]) => r.pending?.action === 'updated' || r.pending?.action === 'replaced');
  const failed: string[] = [];
  await runGraph(
    todo.map(([id]) => id),
    (id) => rows.get(id)!.pending?.prior?.dependsOn ?? [],
    async (id) => {
      const r = rows.get(id)!;
      const prior = r.pending!.prior!;
      const cur = r.version;
      if (skip.has(id)) {
        writeResource(op, { logicalId: id, type: cur.type, status: 'UPDATE_COMPLETE', pending: null });
        return true;
      }
      if (r.pending!.action === 'replaced') {
        const replacedNow = cur.physicalId !== prior.physicalId;
        op.repo.tx(() => {
          resourceEvent(op, { logicalId: id, physicalId: prior.physicalId, type: prior.type, status: 'UPDATE_IN_PROGRESS' });
          writeResource(op, {
            logicalId: id,
            type: prior.type,
            status: 'UPDATE_COMPLETE',
            version: prior,
            pending: replacedNow ? { action: 'discard', discard: [cur] } : null,
          });
        });
        return true;
      }
      writeResource(op, { logicalId: id, type: prior.type, status: 'UPDATE_IN_PROGRESS', version: cur, eventProperties: prior.props });
      try {
        let state = stateOf(prior);
        if (
          !sameValue(cur.props, prior.props) ||
          !sameValue(cur.stackTags ?? [], prior.stackTags ?? []) ||
          r.row.status === 'UPDATE_FAILED' ||
          r.row.status === 'UPDATE_IN_PROGRESS'
        ) {
          state = await updateResource(target(op, id, prior.type), prior.props, prior.stackTags, {
            props: cur.props,
            state: stateOf(cur),
            stackTags: cur.stackTags,
          });
        }
        const restored: ResourceVersion = {
          ...prior,
          physicalId: state.physicalId,
          attributes: state.attributes,
          ...(state.ref !== undefined ? { ref: state.ref } : {}),
        };
        writeResource(op, { logicalId: id, type: prior.type, status: 'UPDATE_COMPLETE', version: restored, pending: null });
        return true;
      } catch (err) {
        writeResource(op, { logicalId: id, type: prior.type, status: 'UPDATE_FAILED', reason: failureReason(err) });
        failed.push(id);
        return true;
      }
    },
    { stopOnFailure: false },
  );
  return failed;
}
