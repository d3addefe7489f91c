/**
 * Deleting physical resources in reverse dependency order (a resource goes once everything that
 * depends on it is gone; independent ones concurrently), honouring policies: `Retain` keeps the
 * resource (`DELETE_SKIPPED`), `Snapshot` is treated as Retain — Overcast takes no snapshots, and
 * the event says so. Used by stack deletion, create rollback, update cleanup and rollback cleanup;
 * each caller decides what happens to the resource row through `settle`.
 */
import type { ResourceVersion } from './state.js';
import { runGraph } from './run-graph.js';
import { turnTransaction } from './turn-transaction.js';
import { target, stateOf, type Op } from './operation.js';
import { deleteResource, failureReason } from './resource-calls.js';
import { loadProviders } from '../resources/registry.js';

export type EffectivePolicy = 'Delete' | 'Retain' | 'Snapshot';

const SNAPSHOT_REASON =
  'DeletionPolicy Snapshot is treated as Retain by Overcast, which takes no snapshots: the resource was kept';

export interface DeleteItem {
  /** Unique within one run (a logical id, or `id#old` for the old half of a replacement). */
  key: string;
  logicalId: string;
  version: ResourceVersion;
  policy: EffectivePolicy;
  /**
   * Records the outcome: write the row and the event (`status` is DELETE_COMPLETE, DELETE_SKIPPED
   * or DELETE_FAILED) in one transaction.
   */
  settle(status: 'DELETE_COMPLETE' | 'DELETE_SKIPPED' | 'DELETE_FAILED', reason: string | null): void;
  /** Records DELETE_IN_PROGRESS (default: an event naming the version's physical id). */
  begin?(): void;
}

/** Deletes the items; returns the logical ids whose deletion failed. */
export async function deleteInOrder(op: Op, items: DeleteItem[]): Promise<string[]> {
  const loading = loadProviders(items.map((it) => it.version.type));
  if (loading) await loading;
  const byLogical = new Map<string, string[]>();
  for (const it of items) {
    const list = byLogical.get(it.logicalId) ?? [];
    list.push(it.key);
    byLogical.set(it.logicalId, list);
  }
  // A resource waits for every item that depends on it.
  const dependents = new Map<string, string[]>();
  for (const it of items) {
    for (const dep of it.version.dependsOn ?? []) {
      for (const key of byLogical.get(dep) ?? []) {
        if (key === it.key) continue;
        const list = dependents.get(key) ?? [];
        list.push(it.key);
        dependents.set(key, list);
      }
    }
  }
  const byKey = new Map(items.map((it) => [it.key, it]));
  const failed: string[] = [];
  await runGraph(
    items.map((it) => it.key),
    (key) => dependents.get(key) ?? [],
    async (key) => {
      const it = byKey.get(key)!;
      if (it.policy !== 'Delete' || it.version.physicalId === undefined) {
        const status = it.version.physicalId === undefined ? 'DELETE_COMPLETE' : 'DELETE_SKIPPED';
        it.settle(status, it.policy === 'Snapshot' && status === 'DELETE_SKIPPED' ? SNAPSHOT_REASON : null);
        return true;
      }
      if (it.begin) it.begin();
      else {
        op.events.record({
          logicalId: it.logicalId,
          physicalId: it.version.physicalId,
          type: it.version.type,
          status: 'DELETE_IN_PROGRESS',
        });
      }
      try {
        await deleteResource(target(op, it.logicalId, it.version.type), it.version.props, stateOf(it.version));
      } catch (err) {
        it.settle('DELETE_FAILED', failureReason(err));
        failed.push(it.logicalId);
        // Keep deleting what does not depend on this one; dependents' prerequisites still pass.
        return true;
      }
      it.settle('DELETE_COMPLETE', null);
      return true;
    },
    { stopOnFailure: false, batch: (starts) => {
        turnTransaction(op.rt, () => op.repo.flush());
        starts();
      } },
  );
  return failed;
}
