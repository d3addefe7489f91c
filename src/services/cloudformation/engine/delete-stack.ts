/**
 * Stack deletion: refused (the stack returns to its previous status, as AWS does) while another
 * stack imports one of its exports; otherwise every resource goes in reverse dependency order,
 * `DeletionPolicy: Retain` (and RetainResources for a DELETE_FAILED stack) keeping it, and the
 * stack ends DELETE_COMPLETE — hidden by name, still readable by id with its events and resources.
 */
import type { DeletionPolicy } from './state.js';
import { deleteInOrder, type DeleteItem, type EffectivePolicy } from './delete-resources.js';
import { dropExports, exportsBlockingDelete } from './exports.js';
import { loadResources, resourceEvent, setStackStatus, writeResource, type Op } from './operation.js';

function onStackDelete(p: DeletionPolicy): EffectivePolicy {
  if (p === 'Retain' || p === 'RetainExceptOnCreate') return 'Retain';
  if (p === 'Snapshot') return 'Snapshot';
  return 'Delete';
}

/** Runs a DeleteStack whose DELETE_IN_PROGRESS status was already recorded. */
export async function runDelete(op: Op, opts: { retain?: readonly string[]; previousStatus?: string; previousReason?: string | null }): Promise<void> {
  const blocked = exportsBlockingDelete(op);
  if (blocked) {
    // AWS answers DeleteStack with 200, then puts the stack back where it was (no DELETE_FAILED).
    setStackStatus(op, opts.previousStatus ?? 'UPDATE_COMPLETE', blocked, { op: null });
    return;
  }
  const retain = new Set(opts.retain ?? []);
  const items: DeleteItem[] = [];
  for (const [id, r] of loadResources(op)) {
    if (r.row.status === 'DELETE_COMPLETE' || r.row.status === 'DELETE_SKIPPED') continue;
    const v = r.version;
    items.push({
      key: id,
      logicalId: id,
      version: v,
      policy: retain.has(id) ? 'Retain' : onStackDelete(v.deletionPolicy),
      settle: (status, reason) =>
        writeResource(op, {
          logicalId: id,
          type: v.type,
          status,
          reason,
          pending: status === 'DELETE_FAILED' ? undefined : null,
        }),
    });
    const extra = [
      ...(r.pending?.prior && r.pending.prior.physicalId !== v.physicalId ? [r.pending.prior] : []),
      ...(r.pending?.discard ?? []),
    ];
    extra.forEach((old, i) =>
      items.push({
        key: `${id}#extra${i}`,
        logicalId: id,
        version: old,
        policy: 'Delete',
        settle: (status, reason) => resourceEvent(op, { logicalId: id, physicalId: old.physicalId, type: old.type, status, reason }),
      }),
    );
  }
  const failed = await deleteInOrder(op, items);
  if (failed.length) {
    setStackStatus(op, 'DELETE_FAILED', `The following resource(s) failed to delete: [${[...new Set(failed)].join(', ')}]. `, { op: null });
    return;
  }
  finishDelete(op);
}

/** The last step of a deletion: exports, imports and change sets go; the stack becomes DELETE_COMPLETE. */
export function finishDelete(op: Op): void {
  op.repo.tx(() => {
    dropExports(op);
    op.repo.deleteChangeSetsOfStack(op.stackId);
    setStackStatus(op, 'DELETE_COMPLETE', null, { op: null, deleted_at: Date.now() });
  });
  op.repo.flush();
}
