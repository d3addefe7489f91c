/**
 * Table maintenance and replication bookkeeping: Overcast's clock (each advance of its offset over
 * wall time, keyed by the wall instant it happened), the last run of each maintenance job per
 * table (status, time, failure message, what it did, and since when a run is in progress, so a
 * run a crash interrupted is visible and runs again), the noncurrent warehouse objects waiting for
 * their deletion (keyed by warehouse and key, indexed by the time they became noncurrent),
 * replication progress per source table and destination bucket, and the column that marks a table
 * as the replica of another (its source table ARN).
 */
import type { Migration } from '../database.js';

export const maintenanceMigrations: Migration[] = [
  {
    id: 'maintenance-001',
    sql: `
      CREATE TABLE s3t_clock (
        at_wall INTEGER PRIMARY KEY,
        offset_ms INTEGER NOT NULL
      );

      CREATE TABLE s3t_jobs (
        table_id TEXT NOT NULL,
        job TEXT NOT NULL,
        status TEXT,
        last_run_at INTEGER,
        failure_message TEXT,
        detail TEXT,
        running_since INTEGER,
        PRIMARY KEY (table_id, job)
      ) WITHOUT ROWID;
      CREATE INDEX s3t_jobs_running ON s3t_jobs (running_since) WHERE running_since IS NOT NULL;

      CREATE TABLE s3t_noncurrent (
        warehouse TEXT NOT NULL,
        key TEXT NOT NULL,
        since INTEGER NOT NULL,
        size INTEGER NOT NULL,
        PRIMARY KEY (warehouse, key)
      ) WITHOUT ROWID;
      CREATE INDEX s3t_noncurrent_by_since ON s3t_noncurrent (warehouse, since);

      CREATE TABLE s3t_replication_progress (
        source_id TEXT NOT NULL,
        destination TEXT NOT NULL,
        replica_id TEXT,
        replica_arn TEXT,
        last_source_location TEXT,
        last_replicated_at INTEGER,
        status TEXT NOT NULL,
        failure_message TEXT,
        PRIMARY KEY (source_id, destination)
      ) WITHOUT ROWID;

      ALTER TABLE s3t_tables ADD COLUMN replica_of TEXT;
    `,
  },
];
