/**
 * Where a table commit announces itself to background work: the compare-and-swap that moves a
 * table's pointer calls `tableCommitted`, and replication (when the maintenance schedule runs)
 * listens to copy the commit to the table's replicas. Nothing listens on a server without a
 * schedule, so a commit pays one map lookup; with one, whether any replication is configured at
 * all is remembered until a replication configuration changes.
 */
import type { Runtime } from '../../../runtime/runtime.js';

type Listener = (tableId: string) => void;

const listeners = new WeakMap<Runtime, Listener>();

export function onTableCommitted(rt: Runtime, listener: Listener): void {
  listeners.set(rt, listener);
}

export function tableCommitted(rt: Runtime, tableId: string): void {
  listeners.get(rt)?.(tableId);
}

const configured = new WeakMap<Runtime, boolean>();

/** Whether any table bucket or table has a replication configuration (two scans, then remembered). */
export function replicationConfigured(rt: Runtime): boolean {
  let known = configured.get(rt);
  if (known === undefined) {
    known =
      rt.meta.stmt('SELECT 1 FROM s3t_buckets WHERE replication IS NOT NULL LIMIT 1').get() !== undefined ||
      rt.meta.stmt('SELECT 1 FROM s3t_table_configs WHERE replication IS NOT NULL LIMIT 1').get() !== undefined;
    configured.set(rt, known);
  }
  return known;
}

/** A replication configuration was put or deleted (or the store reset): look again next time. */
export function replicationChanged(rt: Runtime): void {
  configured.delete(rt);
}
