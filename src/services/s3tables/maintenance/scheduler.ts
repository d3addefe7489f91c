/**
 * Maintenance on a schedule: every interval (OvercastConfig.maintenanceIntervalMs; every 5 minutes
 * with a data directory, off in memory by default) a background pass runs the jobs that are due
 * (runner.ts), one pass at a time; and each table commit schedules the replication of that table
 * to its replicas right away (coalesced per table), as AWS replicates "within minutes". The timer
 * never keeps the process alive; a pass stops at its next step when the server stops, and the
 * job it interrupted runs again at the next pass. The runner is imported on the first pass.
 */
import type { Runtime } from '../../../runtime/runtime.js';
import { onTableCommitted, replicationConfigured } from './commit-hook.js';

interface State {
  timer?: NodeJS.Timeout;
  passRunning: boolean;
  replicating: Set<string>;
  again: Set<string>;
}

const states = new WeakMap<Runtime, State>();

/** Starts the schedule; the first pass comes soon when a crash interrupted jobs, else after one interval. */
export function startMaintenance(rt: Runtime, intervalMs: number, interrupted = false): void {
  if (states.has(rt) || intervalMs <= 0) return;
  const state: State = { passRunning: false, replicating: new Set(), again: new Set() };
  states.set(rt, state);
  const tick = () => {
    if (rt.background.stopping || !rt.meta.db.open) return;
    schedulePass(rt, state);
    state.timer = setTimeout(tick, intervalMs);
    state.timer.unref();
  };
  state.timer = setTimeout(tick, interrupted ? Math.min(intervalMs, 1000) : intervalMs);
  state.timer.unref();
  onTableCommitted(rt, (tableId) => {
    if (replicationConfigured(rt)) scheduleReplication(rt, state, tableId);
  });
}

function schedulePass(rt: Runtime, state: State): void {
  if (state.passRunning) return;
  state.passRunning = true;
  void rt.background.spawn('table maintenance', async () => {
    try {
      const { runMaintenance } = await import('./runner.js');
      const report = await runMaintenance(rt, { scheduled: true });
      const ran = report.tables.filter((t) => Object.values(t.jobs).some((j) => j.status === 'Successful' || j.status === 'Failed'));
      // A pass that found nothing to do leaves no line in the log.
      return ran.length > 0 ? `${ran.length} table(s) maintained` : null;
    } finally {
      state.passRunning = false;
    }
  });
}

function scheduleReplication(rt: Runtime, state: State, tableId: string): void {
  if (rt.background.stopping) return;
  if (state.replicating.has(tableId)) {
    state.again.add(tableId);
    return;
  }
  state.replicating.add(tableId);
  void rt.background.spawn('table replication', async () => {
    try {
      const { replicateTable } = await import('./replicate.js');
      do {
        state.again.delete(tableId);
        if (rt.background.stopping || !rt.meta.db.open) return;
        await replicateTable(rt, tableId);
      } while (state.again.has(tableId));
    } finally {
      state.replicating.delete(tableId);
    }
  });
}
