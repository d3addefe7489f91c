/**
 * Running maintenance: for each table (one, or every table of every account, a page at a time),
 * its enabled jobs in order — compaction, snapshot management, unreferenced file removal — then
 * replication to its destinations. Each job is marked running in the store before it starts and
 * its outcome (`Successful`, or `Failed` with AWS's message), time (Overcast's clock) and what it
 * did are recorded when it ends, so GetTableMaintenanceJobStatus reads real results and a run a
 * crash interrupted shows as such and runs again. A table's jobs never run twice at once; jobs of
 * different tables run one after another in the background and yield between steps, so requests
 * are never blocked behind them.
 *
 * A manual run (`POST /_overcast/maintenance/run`) runs every enabled job of every table that has
 * metadata. A scheduled pass runs a job only when it is due: compaction when the table changed
 * since its last run, snapshot management and unreferenced file removal once a day of Overcast
 * time (AWS runs them about daily); any job a crash interrupted.
 */
import type { MaintenanceJobReport, MaintenanceRunReport, MaintenanceTableReport } from './reports.js';
import type { Runtime } from '../../../runtime/runtime.js';
import { internalCtx } from '../../../runtime/runtime.js';
import type { JobRow, JobType } from '../../../store/maintenance-repo.js';
import type { TableRow } from '../../../store/s3tables-repo.js';
import { repo, tableArnOf } from '../lookup.js';
import { parseTableArn } from '../naming.js';
import { clockOf } from './clock.js';
import { compactTable, type CompactionSettings } from './compaction.js';
import { expireSnapshots, type SnapshotSettings } from './expire-snapshots.js';
import { DAY_MS, type JobEnv } from './job-env.js';
import { FAILURE, JobFailure } from './messages.js';
import { maintenanceRepo } from './noncurrent.js';
import { ManifestCache } from './reachable.js';
import { replicateTable } from './replicate.js';
import { storeFileIO } from './store-io.js';
import { removeUnreferencedFiles, type RemovalSettings } from './unreferenced-files.js';

type JobReport = MaintenanceJobReport;
type TableReport = MaintenanceTableReport;
export type RunReport = MaintenanceRunReport;

interface RunOptions {
  /** Only this table (its ARN). */
  tableArn?: string;
  /** A scheduled pass: only due jobs. */
  scheduled?: boolean;
}

interface Config<S> {
  status?: string;
  settings?: Record<string, S>;
}

const DEFAULTS = {
  icebergCompaction: { targetFileSizeMB: 512, strategy: 'auto' } as CompactionSettings,
  icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 } as SnapshotSettings,
  icebergUnreferencedFileRemoval: { unreferencedDays: 3, nonCurrentDays: 10 } as RemovalSettings,
};

const locks = new WeakMap<Runtime, Map<string, Promise<unknown>>>();

/** Runs `fn` after every earlier maintenance of the same table has settled. */
function onePerTable<T>(rt: Runtime, tableId: string, fn: () => Promise<T>): Promise<T> {
  let m = locks.get(rt);
  if (!m) locks.set(rt, (m = new Map()));
  const previous = m.get(tableId) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  m.set(tableId, settled);
  void settled.then(() => {
    if (m!.get(tableId) === settled) m!.delete(tableId);
  });
  return run;
}

/** The tables a run covers: one by ARN (404-free: an unknown ARN covers nothing), or all, lazily. */
async function* tablesOf(rt: Runtime, tableArn: string | undefined): AsyncGenerator<TableRow> {
  const r = repo(internalCtx(rt, '000000000000', 'us-east-1', 'maintenance'));
  if (tableArn !== undefined) {
    const parsed = parseTableArn(tableArn);
    const row = parsed ? r.getTable(parsed.tableId) : undefined;
    if (row && parsed && row.account === parsed.account && row.region === parsed.region && row.bucket === parsed.bucket) yield row;
    return;
  }
  let after = '';
  for (;;) {
    const page = r.tablesAfter(after, 200);
    for (const row of page) yield row;
    if (page.length < 200) return;
    after = page[page.length - 1]!.id;
  }
}

export async function runMaintenance(rt: Runtime, options: RunOptions = {}): Promise<RunReport> {
  const clock = clockOf(rt);
  const startedAt = new Date(clock.now()).toISOString();
  const tables: TableReport[] = [];
  for await (const row of tablesOf(rt, options.tableArn)) {
    if (rt.background.stopping || !rt.meta.db.open) break;
    const report = await onePerTable(rt, row.id, () => runTable(rt, row.id, options));
    if (report) tables.push(report);
  }
  return { startedAt, finishedAt: new Date(clock.now()).toISOString(), tables };
}

function settingsOf<S>(config: Config<S> | undefined, type: JobType, defaults: S): S | undefined {
  if (config?.status === 'disabled') return undefined;
  return { ...defaults, ...(config?.settings?.[type] ?? {}) };
}

/** Runs the table's jobs (those due, for a scheduled pass); undefined when the table is gone. */
async function runTable(rt: Runtime, tableId: string, options: RunOptions): Promise<TableReport | undefined> {
  const base = internalCtx(rt, '000000000000', 'us-east-1', 'maintenance');
  const row = repo(base).getTable(tableId);
  if (!row) return undefined;
  // A pass over many tables costs nothing for those without metadata (and no replication to do).
  if (options.scheduled && !row.metadata_location) return undefined;
  const ctx = internalCtx(rt, row.account, row.region, `maintenance-${tableId}`);
  const clock = clockOf(rt);
  const io = storeFileIO(ctx);
  const env: JobEnv = { ctx, io, clock, cache: new ManifestCache(io), tableId, stopping: () => rt.background.stopping };
  const tableConfig = JSON.parse(repo(ctx).getTableConfig(tableId).maintenance) as Record<string, Config<unknown>>;
  const bucket = repo(ctx).getBucket(row.account, row.region, row.bucket);
  const bucketConfig = (bucket ? JSON.parse(bucket.maintenance) : {}) as Record<string, Config<unknown>>;
  const previous = new Map(maintenanceRepo(ctx).jobs(tableId).map((j) => [j.job, j]));

  const compaction = settingsOf(tableConfig.icebergCompaction as Config<CompactionSettings>, 'icebergCompaction', DEFAULTS.icebergCompaction);
  const snapshots = settingsOf(
    tableConfig.icebergSnapshotManagement as Config<SnapshotSettings>,
    'icebergSnapshotManagement',
    DEFAULTS.icebergSnapshotManagement,
  );
  const removal = settingsOf(
    bucketConfig.icebergUnreferencedFileRemoval as Config<RemovalSettings>,
    'icebergUnreferencedFileRemoval',
    DEFAULTS.icebergUnreferencedFileRemoval,
  );
  const jobs = {} as Record<JobType, JobReport>;
  const run = async (job: JobType, settings: unknown, fn: () => Promise<object | undefined>) => {
    if (settings === undefined || (job === 'icebergCompaction' && row.replica_of)) {
      jobs[job] = { status: 'Disabled' };
      return;
    }
    if (!row.metadata_location) {
      jobs[job] = { status: 'Not_Yet_Run', reason: 'the table has no metadata yet' };
      return;
    }
    if (options.scheduled && !isDue(job, previous.get(job), row, clock.now(), (ms) => clock.at(ms))) {
      jobs[job] = { status: 'Not_Due' };
      return;
    }
    jobs[job] = await runJob(env, job, fn);
  };
  await run('icebergCompaction', compaction, () => compactTable(env, compaction!));
  await run('icebergSnapshotManagement', snapshots, () => expireSnapshots(env, snapshots!));
  await run('icebergUnreferencedFileRemoval', removal, () => removeUnreferencedFiles(env, removal!));
  const report: TableReport = { tableArn: tableArnOf(row, ctx.partition), namespace: row.namespace, name: row.name, jobs };
  if (!rt.background.stopping && rt.meta.db.open) {
    const replication = await replicateTable(rt, tableId);
    if (replication.length) report.replication = replication;
  }
  return report;
}

function isDue(job: JobType, previous: JobRow | undefined, row: TableRow, now: number, timeOf: (wallMs: number) => number): boolean {
  if (!previous || previous.last_run_at === null || previous.running_since !== null) return true;
  if (job === 'icebergCompaction') return timeOf(row.modified_at) > previous.last_run_at;
  return now - previous.last_run_at >= DAY_MS;
}

class Stopped extends Error {}

async function runJob(env: JobEnv, job: JobType, fn: () => Promise<object | undefined>): Promise<JobReport> {
  const m = maintenanceRepo(env.ctx);
  m.markRunning(env.tableId, job, env.clock.now());
  const started = performance.now();
  let report: JobReport;
  try {
    const detail = await fn();
    if (env.stopping()) throw new Stopped();
    if (detail === undefined) {
      if (env.ctx.rt.meta.db.open) m.clearRunning(env.tableId, job);
      return { status: 'Not_Yet_Run', reason: 'the table is gone or has no metadata' };
    }
    report = { status: 'Successful', ...detail };
  } catch (err) {
    // Left marked running: the next start (or pass) runs it again.
    if (err instanceof Stopped || env.stopping() || !env.ctx.rt.meta.db.open) return { status: 'Not_Yet_Run', reason: 'the server stopped' };
    if (err instanceof JobFailure) {
      report = { status: 'Failed', failureMessage: err.message, ...(err.why ? { reason: err.why } : {}) };
    } else {
      env.ctx.rt.log.error(`maintenance: ${job} of table ${env.tableId} failed`, err);
      report = { status: 'Failed', failureMessage: FAILURE.internal, reason: (err as Error).message };
    }
  }
  const at = env.clock.now();
  if (repo(env.ctx).getTable(env.tableId)) {
    m.finishJob(env.tableId, job, { status: report.status, at, failure: report.failureMessage ?? null, detail: JSON.stringify(report) });
  } else {
    m.deleteTableRows(env.tableId);
  }
  return { ...report, lastRunTimestamp: new Date(at).toISOString(), durationMs: Math.round(performance.now() - started) };
}
