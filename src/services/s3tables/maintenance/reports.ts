/**
 * What a maintenance run reports, per table and job (and per replication destination): the
 * in-process API's `runMaintenance` and `POST /_overcast/maintenance/run` answer these; the
 * package re-exports them from api-types.ts.
 */

/** What one maintenance job did in a run (its documented fields plus what it counted). */
export interface MaintenanceJobReport {
  /** `Not_Due`: a scheduled pass skipped it. */
  status: 'Successful' | 'Failed' | 'Disabled' | 'Not_Yet_Run' | 'Not_Due';
  /** AWS's failure message, for `Failed`. */
  failureMessage?: string;
  /** Overcast's clock when the job ended. */
  lastRunTimestamp?: string;
  /** How long the job took (wall-clock milliseconds). */
  durationMs?: number;
  /** Counts and details: expiredSnapshots, noncurrentFiles, deletedFiles, rewrittenFiles, addedFiles, … */
  [detail: string]: unknown;
}

/** What replication did for one destination in a run. */
export interface ReplicationDestinationReport {
  destinationTableBucketArn: string;
  status: 'pending' | 'completed' | 'failed';
  destinationTableArn?: string;
  /** Source metadata versions applied to the replica by this run. */
  replicatedUpdates?: number;
  copiedFiles?: number;
  failureMessage?: string;
}

/** One table of a maintenance run. */
export interface MaintenanceTableReport {
  tableArn: string;
  namespace: string;
  name: string;
  jobs: Record<'icebergCompaction' | 'icebergSnapshotManagement' | 'icebergUnreferencedFileRemoval', MaintenanceJobReport>;
  replication?: ReplicationDestinationReport[];
}

/** What {@link Overcast.runMaintenance} (and `POST /_overcast/maintenance/run`) answers. */
export interface MaintenanceRunReport {
  /** Overcast's clock at the start and the end of the run (ISO 8601). */
  startedAt: string;
  finishedAt: string;
  tables: MaintenanceTableReport[];
}
