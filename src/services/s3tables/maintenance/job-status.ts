/**
 * GetTableMaintenanceJobStatus from what really ran: per job type, `Disabled` while its
 * configuration is disabled (whatever ran before), else the outcome of the last finished run —
 * `Successful`, or `Failed` with AWS's failure message — with its time on Overcast's clock, else
 * `Not_Yet_Run`. Unreferenced file removal is configured on the bucket but reported per table.
 */
import type * as S3T from '@aws-sdk/client-s3tables';
import type { Ctx } from '../../../runtime/runtime.js';
import { MaintenanceRepo, type JobRow } from '../../../store/maintenance-repo.js';

type Config = Record<string, { status?: string } | undefined>;

function valueOf(config: { status?: string } | undefined, row: JobRow | undefined): S3T.TableMaintenanceJobStatusValue {
  if (config?.status === 'disabled') return { status: 'Disabled' };
  if (!row?.status || row.last_run_at === null) return { status: 'Not_Yet_Run' };
  return {
    status: row.status as S3T.JobStatus,
    lastRunTimestamp: new Date(row.last_run_at),
    ...(row.status === 'Failed' && row.failure_message ? { failureMessage: row.failure_message } : {}),
  };
}

export function maintenanceJobStatus(ctx: Ctx, tableId: string, table: Config, bucket: Config): S3T.GetTableMaintenanceJobStatusResponse['status'] {
  const rows = new Map(new MaintenanceRepo(ctx.rt.meta).jobs(tableId).map((r) => [r.job, r]));
  return {
    icebergCompaction: valueOf(table.icebergCompaction, rows.get('icebergCompaction')),
    icebergSnapshotManagement: valueOf(table.icebergSnapshotManagement, rows.get('icebergSnapshotManagement')),
    icebergUnreferencedFileRemoval: valueOf(bucket.icebergUnreferencedFileRemoval, rows.get('icebergUnreferencedFileRemoval')),
  };
}
