/**
 * Finishing what a restart interrupted, from the persisted rows and journals: an interrupted
 * create is rolled back (or left CREATE_FAILED when rollback was disabled), an interrupted update
 * or import rolled back, a delete, a rollback or a cleanup carried on. Nested stacks go before
 * their parents, so a parent's rollback finds its children settled.
 */
import type { Runtime } from '../../../runtime/runtime.js';
import type { StackSummaryRow } from '../../../store/cloudformation-repo.js';
import { runDelete } from './delete-stack.js';
import { runCleanup } from './deploy.js';
import { openOp, setStackStatus } from './operation.js';
import { guarded } from './stack-queue.js';
import { rollbackCreate, rollbackUpdate } from './rollback.js';
import { rollbackImport } from './import.js';
import { nestedStacks } from './nested.js';
import { cfnRepo } from './state.js';

const RESTART_REASON = 'Overcast restarted while this operation was in progress';

function depth(row: StackSummaryRow, byId: Map<string, StackSummaryRow>): number {
  let d = 0;
  let cur: StackSummaryRow | undefined = row;
  while (cur?.parent_id && d < 100) {
    d++;
    cur = byId.get(cur.parent_id);
  }
  return d;
}

export async function recoverStacks(rt: Runtime, stuck: StackSummaryRow[]): Promise<void> {
  const byId = new Map(stuck.map((s) => [s.id, s]));
  const ordered = [...stuck].sort((a, b) => depth(b, byId) - depth(a, byId));
  for (const summary of ordered) {
    const row = cfnRepo({ rt }).getStack(summary.id);
    if (!row) continue;
    const op = openOp(rt, row, nestedStacks);
    // Resources caught mid-flight: their outcome is unknown, so they count as failed.
    for (const r of op.repo.listResources(row.id)) {
      if (!r.status.endsWith('_IN_PROGRESS')) continue;
      const failed = r.status.replace('_IN_PROGRESS', '_FAILED');
      op.repo.updateResource(row.id, r.logical_id, { status: failed, status_reason: RESTART_REASON });
    }
    await guarded(op, async () => {
      switch (row.status) {
        case 'CREATE_IN_PROGRESS':
          if (op.journal.disableRollback) setStackStatus(op, 'CREATE_FAILED', RESTART_REASON);
          else await rollbackCreate(op, `${RESTART_REASON}. Rollback requested.`);
          return;
        case 'ROLLBACK_IN_PROGRESS':
          return rollbackCreate(op, RESTART_REASON, { resume: true });
        case 'DELETE_IN_PROGRESS':
          return runDelete(op, {});
        case 'UPDATE_IN_PROGRESS':
          if (op.journal.disableRollback) setStackStatus(op, 'UPDATE_FAILED', RESTART_REASON);
          else await rollbackUpdate(op, RESTART_REASON);
          return;
        case 'UPDATE_ROLLBACK_IN_PROGRESS':
          return rollbackUpdate(op, RESTART_REASON, { resume: true });
        case 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS':
          return rollbackUpdate(op, null, { cleanupOnly: true });
        case 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS':
          return runCleanup(op);
        case 'IMPORT_IN_PROGRESS':
        case 'IMPORT_ROLLBACK_IN_PROGRESS':
          return rollbackImport(op, RESTART_REASON);
        default:
          setStackStatus(op, row.status.replace('_IN_PROGRESS', '_FAILED'), RESTART_REASON, { op: null });
      }
    });
  }
}
