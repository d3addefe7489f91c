/**
 * Maintenance and replication rows: the last run of each job per table (with the mark of a run in
 * progress), the noncurrent warehouse objects and when they became noncurrent, and replication
 * progress per source table and destination bucket. Every statement is a primary-key lookup or an
 * index range (noncurrent objects due for deletion by warehouse and time).
 */
import type { MetadataStore } from './database.js';

export type JobType = 'icebergCompaction' | 'icebergSnapshotManagement' | 'icebergUnreferencedFileRemoval';

export interface JobRow {
  table_id: string;
  job: JobType;
  /** `Successful` | `Failed`, or null when no run has finished yet. */
  status: string | null;
  last_run_at: number | null;
  failure_message: string | null;
  /** JSON: what the last run did. */
  detail: string | null;
  running_since: number | null;
}

export interface NoncurrentRow {
  warehouse: string;
  key: string;
  since: number;
  size: number;
}

export interface ReplicationProgressRow {
  source_id: string;
  destination: string;
  replica_id: string | null;
  replica_arn: string | null;
  /** The source metadata file last replicated. */
  last_source_location: string | null;
  last_replicated_at: number | null;
  /** `pending` | `completed` | `failed` (the last attempt's outcome). */
  status: string;
  failure_message: string | null;
}

export class MaintenanceRepo {
  constructor(private readonly store: MetadataStore) {}

  // ---- jobs ----

  jobs(tableId: string): JobRow[] {
    return this.store.stmt('SELECT * FROM s3t_jobs WHERE table_id = ?').all(tableId) as JobRow[];
  }

  markRunning(tableId: string, job: JobType, at: number): void {
    this.store
      .stmt(
        `INSERT INTO s3t_jobs (table_id, job, running_since) VALUES (?, ?, ?)
         ON CONFLICT (table_id, job) DO UPDATE SET running_since = excluded.running_since`,
      )
      .run(tableId, job, at);
  }

  finishJob(tableId: string, job: JobType, outcome: { status: string; at: number; failure: string | null; detail: string }): void {
    this.store
      .stmt(
        `INSERT INTO s3t_jobs (table_id, job, status, last_run_at, failure_message, detail, running_since)
         VALUES (?, ?, ?, ?, ?, ?, NULL)
         ON CONFLICT (table_id, job) DO UPDATE SET status = excluded.status, last_run_at = excluded.last_run_at,
           failure_message = excluded.failure_message, detail = excluded.detail, running_since = NULL`,
      )
      .run(tableId, job, outcome.status, outcome.at, outcome.failure, outcome.detail);
  }

  /** Jobs a crash interrupted (their mark is still set), up to `limit`. */
  interruptedJobs(limit: number): Pick<JobRow, 'table_id' | 'job' | 'running_since'>[] {
    return this.store
      .stmt('SELECT table_id, job, running_since FROM s3t_jobs WHERE running_since IS NOT NULL LIMIT CAST(? AS INTEGER)')
      .all(limit) as Pick<JobRow, 'table_id' | 'job' | 'running_since'>[];
  }

  clearRunning(tableId: string, job: JobType): void {
    this.store.stmt('UPDATE s3t_jobs SET running_since = NULL WHERE table_id = ? AND job = ?').run(tableId, job);
  }

  deleteTableRows(tableId: string): void {
    this.store.stmt('DELETE FROM s3t_jobs WHERE table_id = ?').run(tableId);
    this.store.stmt('DELETE FROM s3t_replication_progress WHERE source_id = ?').run(tableId);
  }

  // ---- noncurrent objects ----

  addNoncurrent(row: NoncurrentRow): void {
    this.store
      .stmt('INSERT OR REPLACE INTO s3t_noncurrent (warehouse, key, since, size) VALUES (?, ?, ?, ?)')
      .run(row.warehouse, row.key, row.since, row.size);
  }

  getNoncurrent(warehouse: string, key: string): NoncurrentRow | undefined {
    return this.store.stmt('SELECT * FROM s3t_noncurrent WHERE warehouse = ? AND key = ?').get(warehouse, key) as
      | NoncurrentRow
      | undefined;
  }

  removeNoncurrent(warehouse: string, key: string): void {
    this.store.stmt('DELETE FROM s3t_noncurrent WHERE warehouse = ? AND key = ?').run(warehouse, key);
  }

  /** Noncurrent objects of a warehouse that became noncurrent at or before `before`, oldest first. */
  dueNoncurrent(warehouse: string, before: number, limit: number): NoncurrentRow[] {
    return this.store
      .stmt('SELECT * FROM s3t_noncurrent WHERE warehouse = ? AND since <= ? ORDER BY since LIMIT CAST(? AS INTEGER)')
      .all(warehouse, before, limit) as NoncurrentRow[];
  }

  /** Noncurrent objects of a warehouse in key order after `afterKey` (listing, purge). */
  noncurrentPage(warehouse: string, afterKey: string, limit: number): NoncurrentRow[] {
    return this.store
      .stmt('SELECT * FROM s3t_noncurrent WHERE warehouse = ? AND key > ? ORDER BY key LIMIT CAST(? AS INTEGER)')
      .all(warehouse, afterKey, limit) as NoncurrentRow[];
  }

  countNoncurrent(warehouse: string): number {
    return (this.store.stmt('SELECT COUNT(*) AS n FROM s3t_noncurrent WHERE warehouse = ?').get(warehouse) as { n: number }).n;
  }

  // ---- replication progress ----

  progress(sourceId: string): ReplicationProgressRow[] {
    return this.store.stmt('SELECT * FROM s3t_replication_progress WHERE source_id = ?').all(sourceId) as ReplicationProgressRow[];
  }

  putProgress(row: ReplicationProgressRow): void {
    this.store
      .stmt(
        `INSERT OR REPLACE INTO s3t_replication_progress (source_id, destination, replica_id, replica_arn,
           last_source_location, last_replicated_at, status, failure_message)
         VALUES (@source_id, @destination, @replica_id, @replica_arn, @last_source_location, @last_replicated_at,
           @status, @failure_message)`,
      )
      .run(row);
  }
}
