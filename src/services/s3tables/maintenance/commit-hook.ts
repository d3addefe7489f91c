/**
 * Where a table commit announces itself to background work: the compare-and-swap that moves a
 * table's pointer calls `tableCommitted`, and replication (when the maintenance schedule runs)
 * listens to copy the commit to the table's replicas. Nothing listens on a server without a
 * schedule, so a commit pays one map lookup.
 */
import type { Runtime } from '../../../server/runtime.js';

type Listener = (tableId: string) => void;

const listeners = new WeakMap<Runtime, Listener>();

export function onTableCommitted(rt: Runtime, listener: Listener): void {
  listeners.set(rt, listener);
}

export function tableCommitted(rt: Runtime, tableId: string): void {
  listeners.get(rt)?.(tableId);
}
