/**
 * One store transaction for the rest of the current turn of the event loop. When the engine starts
 * a wave of resources, the providers' work runs synchronously and in promise continuations that
 * all settle before Node returns to the event loop; every commit among them (each provider
 * transaction becomes a savepoint) then costs one commit instead of hundreds. The transaction ends
 * on a `nextTick` queued from a microtask: Node runs it after the whole microtask queue has
 * drained and before the next I/O callback, so no later callback runs inside it (only promise
 * continuations already due in this same turn), and work that waits on real I/O simply continues
 * outside it.
 */
import type { Runtime } from '../../../runtime/runtime.js';

export function turnTransaction(rt: Runtime, beforeCommit?: () => void): void {
  const db = rt.meta.db;
  if (!db.open || db.inTransaction) return; // someone's transaction (or ours) is already open
  db.exec('BEGIN');
  queueMicrotask(() =>
    process.nextTick(() => {
      try {
        beforeCommit?.();
      } catch (err) {
        rt.log.error('cloudformation: writing operation state failed', err);
      }
      try {
        if (db.open && db.inTransaction) db.exec('COMMIT');
      } catch (err) {
        rt.log.error('cloudformation: commit failed', err);
        if (db.open && db.inTransaction) db.exec('ROLLBACK');
      }
    }),
  );
}
