/**
 * S3 Tables' start-up hook: if a previous run left warehouse purges unfinished (a crash, a kill),
 * load the warehouse module and resume them in the background; start the table maintenance
 * schedule when it is on, and say so when a crash interrupted maintenance jobs (they run again at
 * the next pass, or the next `maintenance run`). The checks are indexed queries, so a clean
 * in-memory start loads neither the S3 Tables provider nor the maintenance modules.
 */
import { maintenanceInterval } from '../../config.js';
import type { Runtime } from '../../runtime/runtime.js';
import { MaintenanceRepo } from '../../store/maintenance-repo.js';
import { S3TablesRepo } from '../../store/s3tables-repo.js';

export async function onStart(rt: Runtime): Promise<void> {
  if (new S3TablesRepo(rt.meta).pendingPurges(1).length > 0) {
    const { resumePurges } = await import('./warehouse.js');
    resumePurges(rt);
  }
  const interrupted = new MaintenanceRepo(rt.meta).interruptedJobs(1000).length;
  const interval = maintenanceInterval(rt.config);
  if (interrupted > 0) {
    rt.log.info(
      `s3tables: ${interrupted} maintenance job(s) were interrupted; they run again ${interval > 0 ? 'at the next pass' : 'at the next maintenance run'}`,
    );
  }
  if (interval > 0) {
    const { startMaintenance } = await import('./maintenance/scheduler.js');
    startMaintenance(rt, interval, interrupted > 0);
  }
}
